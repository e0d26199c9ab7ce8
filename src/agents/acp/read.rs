//! Agent Client Protocol recordings read into DSH-shaped records: one JSON
//! object a line, `{"t": ms since the agent started, "dir": "client->agent"
//! | "agent->client", "msg": <JSON-RPC 2.0 message>}` (the capture kit's
//! trace format, and what `deck acp --record` is to write), so one reader
//! serves both.
//!
//! What this reader decides, so the one reducer folds an ACP session:
//! * `initialize` and `session/new` answers make the header (`agent:
//!   "acp"`, the agent's name and version, the session id and cwd, the
//!   model and mode); `available_commands_update` and `current_mode_update`
//!   add the commands and the mode to it (once it went: a header again,
//!   holding only them, which the status bar follows);
//! * a `session/prompt` request is a turn's start and the user's message,
//!   its answer the turn's end (`stopReason` as the end's kind: a
//!   `cancelled` prompt interrupts the calls it left open, as the protocol
//!   says the client must);
//! * `agent_message_chunk` / `agent_thought_chunk` are the assistant's
//!   text and reasoning (gathered into one message until something else
//!   happens); `plan` is a `todo/write`;
//! * `tool_call` / `tool_call_update` are merged by `toolCallId` (every
//!   field updatable, fields an update omits kept, a repeated `tool_call`
//!   an upsert): the call is a `tool/call` once it has its input (or the
//!   next message comes), named by the agent's own tool name when it says
//!   one (`_meta.*.toolName`), else by its `kind`; its arguments are the
//!   merged ACP tool call. Its first `completed` / `failed` status is its
//!   `tool/result` (`failed`: an error), whose `meta.acp` holds the tool
//!   call as it then stood, and what the client answered about it: its
//!   terminals (`terminal/create`, `terminal/output`,
//!   `terminal/wait_for_exit`, and above all what `deck acp` saw of it: a
//!   `seen` line) and the files it names (`fs/read_text_file` answers,
//!   `fs/write_text_file` contents);
//! * a terminal no call names gets a call of its own (`terminal:<id>`, an
//!   `execute` call whose title is the command): once the agent waits for
//!   it, asks for its output, kills or releases it, or the turn ends; it
//!   ends when the client saw the command end;
//! * `session/request_permission` and its answer are an approval asked
//!   (with the agent's options) and decided (the chosen option's kind in
//!   words: `allowed always`; a rejected one makes the failed call
//!   `rejected`). Requests are told apart by their id as a typed JSON value
//!   (`7` and `"7"` are two: `permission-7`, `permission-"7"`); a request
//!   reusing the id of one still waiting is not a request (the client
//!   refused it: its next answer to that id is that refusal).
//!
//! Times: a recording has no wall-clock start, so an event's time is the
//! line's `t` as is (milliseconds since the agent started, never less than
//! 1): durations and replay gaps are true, clock times are not claimed.
//! Which card a call gets is the presenters' business (`acp/present.rs`).

mod answers;
mod calls;
mod owned;
#[cfg(test)]
mod tests;

use std::collections::HashMap;

use serde_json::{Map, Value, json};

use serde::Serialize;

use crate::agents::read::{Foreign, Emitter, Out, Translate, header};
use crate::wire::payload::{
    ApprovalAsked, AssistantMessage, ContentBlock, Json, MessageContent, PartContent,
    ResultPart, TextOrObjects, TodoItem, TodoWrite, TokenUsage, ToolCall, ToolResult, TurnEnd,
    TurnEndReason, TurnStart, UserMessage,
};
use crate::wire::{Diagnostic, EventKind, Origin, Record};
use calls::{Calls, Peer};

/// The two directions of a trace line.
const DIRS: [&str; 2] = ["client->agent", "agent->client"];

/// Whether `v` is a line of an ACP trace, from its shape alone: a `dir`
/// the kit writes and a JSON-RPC 2.0 message (or a `raw` line the peer
/// wrote that was not JSON), or what `deck acp` saw itself (`{"t",
/// "seen": {"terminal": …}}`), and nothing of DSH's.
pub fn is_line(v: &Value) -> bool {
    let Some(o) = v.as_object() else {
        return false;
    };
    if o.contains_key("type") || o.contains_key("seq") {
        return false;
    }
    if let Some(seen) = o.get("seen") {
        return o.get("t").is_some_and(Value::is_number)
            && seen.get("terminal").is_some_and(Value::is_object);
    }
    let dir = o.get("dir").and_then(Value::as_str);
    if !dir.is_some_and(|d| DIRS.contains(&d)) || o.get("t").is_some_and(|t| !t.is_number()) {
        return false;
    }
    match o.get("msg") {
        Some(m) => m.get("jsonrpc").and_then(Value::as_str) == Some("2.0"),
        None => o.get("raw").is_some_and(Value::is_string),
    }
}

/// A request one side sent that the other has not answered yet.
#[derive(Debug, Clone)]
struct Asked {
    method: String,
    params: Value,
}

/// Reads one ACP trace, line by line, into records.
#[derive(Debug, Default)]
pub struct Reader {
    /// The agent its header names (empty: `acp`): another agent whose log
    /// is an ACP stream reads it through this reader ([`Reader::named`]).
    agent: &'static str,
    /// The open turn's token usage, when the log says it ([`Reader::usage`]).
    usage: Option<TokenUsage>,
    session: Option<String>,
    fields: Map<String, Value>,
    header_sent: bool,
    /// Events held until the header (a prompt comes before the commands).
    early: Out,
    emitter: Emitter,
    time: i64,
    turn: u64,
    turn_open: bool,
    step: u64,
    /// The `session/prompt` requests in flight, by JSON-RPC id.
    prompts: HashMap<String, u64>,
    /// Requests in flight, by (who asked, id as JSON).
    asked: HashMap<(Peer, String), Asked>,
    /// Requests that reused the id of one in flight, not answered yet.
    dups: HashMap<(Peer, String), usize>,
    /// Text and reasoning gathered (the kind of the last chunk first).
    text: String,
    reasoning: String,
    calls: Calls,
}

impl Reader {
    /// A reader whose header names the agent `agent` (Grok Build's
    /// `updates.jsonl` is a stream of ACP `session/update`s).
    pub fn named(agent: &'static str) -> Reader {
        Reader {
            agent,
            ..Reader::default()
        }
    }

    /// Its calls named, before any `_meta.*.toolName`, by the agent's own
    /// `_meta[meta][field]` (Grok Build's `_meta["x.ai/tool"].name`).
    pub fn tool_names_at(mut self, meta: &'static str, field: &'static str) -> Reader {
        self.calls.name_at = Some((meta, field));
        self
    }

    /// The open turn's token usage, for its end (an ACP trace has none; an
    /// agent's own log may say it).
    pub fn usage(&mut self, usage: TokenUsage) {
        self.usage = Some(usage);
    }

    fn agent(&self) -> &'static str {
        if self.agent.is_empty() { crate::agents::acp::NAME } else { self.agent }
    }
}

impl Translate for Reader {
    fn line(&mut self, v: &Value, origin: Origin, out: &mut Out) {
        if let Some(t) = v.get("t").and_then(Value::as_f64) {
            self.time = self.time.max((t as i64).max(1));
        }
        if let Some(seen) = v.pointer("/seen/terminal") {
            return self.terminal_seen(seen, origin, out);
        }
        let from = match v.get("dir").and_then(Value::as_str) {
            Some("client->agent") => Peer::Client,
            _ => Peer::Agent,
        };
        let Some(msg) = v.get("msg").and_then(Value::as_object) else {
            let raw = v.get("raw").and_then(Value::as_str).unwrap_or_default();
            let who = if from == Peer::Client { "client" } else { "agent" };
            return self.malformed(raw, &format!("the {who} wrote a line that is not JSON"), origin, out);
        };
        let id = msg.get("id").filter(|i| !i.is_null()).map(id_text);
        let method = msg.get("method").and_then(Value::as_str);
        let params = msg.get("params").unwrap_or(&Value::Null);
        match (method, id) {
            (Some(m), id) => {
                // Something new: what was held for the call before goes out.
                if !(m == "session/update" && calls::is_announcement(params)) {
                    self.flush_calls(origin, out);
                }
                if let Some(id) = &id {
                    let key = (from, id.clone());
                    if self.asked.contains_key(&key) {
                        // Refused by the other side: not a request.
                        *self.dups.entry(key).or_default() += 1;
                        return;
                    }
                    let asked = Asked {
                        method: m.to_string(),
                        params: params.clone(),
                    };
                    self.asked.insert(key, asked);
                }
                self.request(from, m, id, params, origin, out);
            }
            (None, Some(id)) => {
                self.flush_calls(origin, out);
                let asker = from.other();
                let key = (asker, id.clone());
                if let Some(n) = self.dups.get_mut(&key) {
                    // The refusal of the request that reused the id.
                    *n -= 1;
                    if *n == 0 {
                        self.dups.remove(&key);
                    }
                    return;
                }
                let Some(asked) = self.asked.remove(&key) else {
                    return;
                };
                let result = msg.get("result");
                self.answer(asker, &id, &asked, result, msg.get("error"), origin, out);
            }
            (None, None) => {
                let s = Value::Object(msg.clone()).to_string();
                self.malformed(&s, "a JSON-RPC message with neither method nor id", origin, out);
            }
        }
    }

    /// The decoder's line, taken whole ([`Reader::owned`]).
    fn foreign(&mut self, line: Foreign, origin: Origin, out: &mut Out) {
        if let Foreign::Value(v) = line {
            self.owned(v, origin, out);
        }
    }

    fn finish(&mut self, out: &mut Out) {
        self.own_terminals(Origin::default(), out);
        self.flush_calls_of(true, Origin::default(), out);
        self.flush_text(Origin::default(), out);
        self.send_header(Origin::default(), out);
    }
}

impl Reader {
    /// A request or notification `m` sent by `from`.
    fn request(
        &mut self,
        from: Peer,
        m: &str,
        id: Option<String>,
        params: &Value,
        origin: Origin,
        out: &mut Out,
    ) {
        match (from, m) {
            (Peer::Client, "session/new") => {
                if let Some(cwd) = params.get("cwd").filter(|c| c.is_string()) {
                    self.fields.entry("cwd").or_insert_with(|| cwd.clone());
                }
            }
            (Peer::Client, "session/prompt") => {
                self.flush_text(origin, out);
                if self.turn_open {
                    self.end_turn("completed", origin, out);
                }
                self.turn += 1;
                self.turn_open = true;
                if let Some(id) = id {
                    self.prompts.insert(id, self.turn);
                }
                let turn = self.turn;
                self.emit(EventKind::TurnStart, TurnStart { turn: Some(turn) }, origin, out);
                let data = UserMessage {
                    turn: Some(turn),
                    content: TextOrObjects::Objects(prompt_content(params.get("prompt"))),
                    ..UserMessage::default()
                };
                self.emit(EventKind::UserMessage, data, origin, out);
            }
            (Peer::Agent, "session/update") => match params.get("update") {
                Some(u) if u.is_object() => self.update(u, origin, out),
                _ => self.malformed(&params.to_string(), "session/update without an update", origin, out),
            },
            (Peer::Agent, "session/request_permission") => {
                let call = params.get("toolCall");
                let call_id = call.and_then(|c| c.get("toolCallId")).and_then(Value::as_str);
                // A call first heard of in the request (Gemini CLI's edits
                // and commands): the request announces it, card first.
                if let (Some(c), Some(cid)) = (call, call_id)
                    && !self.calls.knows(cid)
                {
                    let mut u = c.clone();
                    if let Some(o) = u.as_object_mut() {
                        o.insert("sessionUpdate".into(), "tool_call".into());
                    }
                    self.calls.upsert(u, None, self.time);
                    self.call_ready(cid, origin, out);
                }
                let title = call.and_then(|c| c.get("title")).and_then(Value::as_str);
                let tool = call_id.and_then(|c| self.calls.name(c));
                // `rpcId`: the request a live client answers (`deck acp`).
                let data = ApprovalAsked {
                    id: Some(format!("permission-{}", id.clone().unwrap_or_default())),
                    rpc_id: Some(id),
                    call_id: Some(call_id.map(str::to_string)),
                    tool_name: Some(tool.as_deref().or(title).map(str::to_string)),
                    reason: Some(title.unwrap_or_default().to_string()),
                    options: Some(params.get("options").cloned().unwrap_or_else(|| Value::Array(Vec::new()))),
                };
                self.emit(EventKind::ApprovalAsked, data, origin, out);
            }
            (Peer::Agent, "fs/write_text_file") => self.calls.wrote(params),
            (Peer::Agent, "terminal/wait_for_exit" | "terminal/output" | "terminal/kill" | "terminal/release") => {
                // The agent uses a terminal no call names: it is shown now.
                if let Some(t) = params.get("terminalId").and_then(Value::as_str)
                    && self.calls.is_untied(t)
                {
                    self.own_terminal(t, origin, out);
                }
            }
            // Client requests the answer completes, and anything else.
            _ => {}
        }
    }

    /// One `session/update`.
    fn update(&mut self, u: &Value, origin: Origin, out: &mut Out) {
        let kind = u.get("sessionUpdate").and_then(Value::as_str).unwrap_or_default();
        match kind {
            "agent_message_chunk" | "agent_thought_chunk" => {
                let text = u
                    .get("content")
                    .filter(|c| c.get("type").and_then(Value::as_str) == Some("text"))
                    .and_then(|c| c.get("text"))
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                let thought = kind == "agent_thought_chunk";
                // Reasoning after text starts a new message.
                if thought && !self.text.is_empty() {
                    self.flush_text(origin, out);
                }
                let into = if thought { &mut self.reasoning } else { &mut self.text };
                into.push_str(text);
            }
            "tool_call" | "tool_call_update" => self.call_update(u.clone(), None, origin, out),
            "plan" => {
                self.flush_text(origin, out);
                let todos: Vec<Option<TodoItem>> = u
                    .get("entries")
                    .and_then(Value::as_array)
                    .map(|e| {
                        e.iter()
                            .filter_map(|x| {
                                let content = x.get("content")?.as_str()?;
                                let status = x.get("status").and_then(Value::as_str).unwrap_or("pending");
                                Some(Some(TodoItem {
                                    content: Some(content.to_string()),
                                    status: Some(status.to_string()),
                                }))
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                let data = TodoWrite {
                    todos: Some(todos),
                    ..TodoWrite::default()
                };
                self.emit(EventKind::TodoWrite, data, origin, out);
            }
            "available_commands_update" => {
                let names: Vec<Value> = u
                    .get("availableCommands")
                    .and_then(Value::as_array)
                    .map(|c| c.iter().filter_map(|c| c.get("name").cloned()).collect())
                    .unwrap_or_default();
                self.status("commands", names.into(), origin, out);
            }
            "current_mode_update" => {
                if let Some(m) = u.get("currentModeId").filter(|m| m.is_string()) {
                    self.status("mode", m.clone(), origin, out);
                }
            }
            // user_message_chunk (a session loaded again) and kinds this
            // reader does not know: nothing to draw.
            _ => {}
        }
    }

    /// What the client saw of a terminal that ended; a terminal with a
    /// call of its own ends it.
    fn terminal_seen(&mut self, seen: &Value, origin: Origin, out: &mut Out) {
        let Some(t) = self.calls.terminal_seen(seen) else {
            return self.malformed(&seen.to_string(), "a seen terminal without its terminalId", origin, out);
        };
        let id = format!("terminal:{t}");
        if self.calls.knows(&id) {
            let u = json!({"sessionUpdate": "tool_call_update", "toolCallId": id, "status": "completed"});
            self.update(&u, origin, out);
        }
    }

    /// A call of its own for the terminal `t` (no call names it).
    fn own_terminal(&mut self, t: &str, origin: Origin, out: &mut Out) {
        let u = self.calls.own_call(t);
        self.update(&u, origin, out);
    }

    /// Every terminal no call names gets a call of its own.
    fn own_terminals(&mut self, origin: Origin, out: &mut Out) {
        for t in self.calls.untied() {
            self.own_terminal(&t, origin, out);
        }
    }

    /// A call whose `tool/call` may go out now.
    fn call_ready(&mut self, id: &str, origin: Origin, out: &mut Out) {
        if let Some((name, args, since)) = self.calls.take_call(id) {
            self.flush_text(origin, out);
            self.step += 1;
            let data = ToolCall {
                turn: Some(self.turn),
                step: Some(self.step),
                call_id: Some(id.to_string()),
                name: Some(name),
                arguments: Some(Value::String(args)),
            };
            // Started when first heard of, though it goes out later (a
            // call without `rawInput` waits for what comes next).
            let now = self.time;
            self.time = since.min(now);
            self.emit(EventKind::ToolCall, data, origin, out);
            self.time = now;
        }
    }

    /// Calls announced and not yet given: given now (something else came).
    fn flush_calls(&mut self, origin: Origin, out: &mut Out) {
        self.flush_calls_of(false, origin, out);
    }

    /// [`Self::flush_calls`], with `all` also calls never announced.
    fn flush_calls_of(&mut self, all: bool, origin: Origin, out: &mut Out) {
        for id in self.calls.waiting(all) {
            self.call_ready(&id, origin, out);
        }
    }

    fn result(&mut self, id: &str, text: String, is_error: bool, meta: Json<'_>, origin: Origin, out: &mut Out) {
        let part = ResultPart::answering(id, PartContent::Text(text.into()), is_error);
        let mut data = ToolResult::of(self.turn, self.step, part);
        data.meta = Some(meta);
        self.emit(EventKind::ToolResult, data, origin, out);
    }

    /// The text and reasoning gathered, as one assistant message.
    fn flush_text(&mut self, origin: Origin, out: &mut Out) {
        let mut content = Vec::new();
        for (kind, text) in [("reasoning", std::mem::take(&mut self.reasoning)), ("text", std::mem::take(&mut self.text))] {
            if !text.trim().is_empty() {
                content.push(Some(ContentBlock {
                    kind: Some(kind.to_string()),
                    text: Some(text),
                }));
            }
        }
        if content.is_empty() {
            return;
        }
        self.step += 1;
        let data = AssistantMessage {
            turn: Some(self.turn),
            step: Some(self.step),
            message: Some(MessageContent {
                content: Some(content),
                ..MessageContent::default()
            }),
            ..AssistantMessage::default()
        };
        self.emit(EventKind::AssistantMessage, data, origin, out);
    }

    fn end_turn(&mut self, kind: &str, origin: Origin, out: &mut Out) {
        self.end_turn_with(kind, None, origin, out);
    }

    fn end_turn_with(&mut self, kind: &str, message: Option<&str>, origin: Origin, out: &mut Out) {
        if !self.turn_open {
            return;
        }
        self.flush_calls(origin, out);
        self.flush_text(origin, out);
        self.own_terminals(origin, out);
        self.flush_calls_of(true, origin, out);
        self.turn_open = false;
        let reason = TurnEndReason {
            kind: Some(kind.to_string()),
            message: message.map(str::to_string),
            ..TurnEndReason::default()
        };
        let data = TurnEnd {
            turn: Some(self.turn),
            reason: Some(reason),
            usage: self.usage.take(),
        };
        self.emit(EventKind::TurnEnd, data, origin, out);
    }

    /// The commands or the mode, as they change: in the header, or once it
    /// went, in a header again holding only them.
    fn status(&mut self, key: &str, v: Value, origin: Origin, out: &mut Out) {
        if self.header_sent {
            let mut fields = Map::new();
            fields.insert(key.into(), v);
            out.push((self.session.clone(), header(self.agent(), fields, origin)));
        } else {
            self.fields.insert(key.into(), v);
            // The commands come once the session is open: the header can go.
            if key == "commands" {
                self.send_header(origin, out);
            }
        }
    }

    /// The header, once, before the first event but a turn's opening.
    fn send_header(&mut self, origin: Origin, out: &mut Out) {
        if self.header_sent {
            return;
        }
        self.header_sent = true;
        let fields = std::mem::take(&mut self.fields);
        out.push((self.session.clone(), header(self.agent(), fields, origin)));
        out.append(&mut self.early);
    }

    fn emit(&mut self, kind: EventKind, data: impl Serialize, origin: Origin, out: &mut Out) {
        let wait = !self.header_sent
            && matches!(kind, EventKind::TurnStart | EventKind::UserMessage);
        if !wait {
            self.send_header(origin, out);
        }
        let r = self.emitter.event(kind, self.time, &data, origin);
        let to = if wait { &mut self.early } else { out };
        to.push((self.session.clone(), r));
    }

    fn malformed(&mut self, raw: &str, reason: &str, origin: Origin, out: &mut Out) {
        self.send_header(origin, out);
        let d = Diagnostic::new(origin, format!("ACP trace: {reason}"), raw.to_string());
        out.push((self.session.clone(), Record::Diagnostic(d)));
    }
}

/// A JSON-RPC id as text: the id written as JSON, so `7` and `"7"` stay
/// two ids (what `deck acp` answers a permission request by).
fn id_text(v: &Value) -> String {
    v.to_string()
}

/// The prompt's content blocks as a user message's: text kept, a resource
/// link or embedded resource named, anything else by its type.
fn prompt_content(prompt: Option<&Value>) -> Vec<Option<ContentBlock>> {
    let blocks = prompt.and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    blocks
        .iter()
        .map(|b| {
            let text = match b.get("type").and_then(Value::as_str) {
                Some("text") => b.get("text").and_then(Value::as_str).unwrap_or_default().to_string(),
                Some("resource_link") => {
                    let uri = b.get("uri").and_then(Value::as_str).unwrap_or_default();
                    format!("[{uri}]")
                }
                Some("resource") => {
                    let uri = b.pointer("/resource/uri").and_then(Value::as_str).unwrap_or_default();
                    format!("[{uri}]")
                }
                Some(other) => format!("[{other}]"),
                None => String::new(),
            };
            Some(ContentBlock {
                kind: Some("text".into()),
                text: Some(text),
            })
        })
        .collect()
}
