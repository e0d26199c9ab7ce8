//! Codex CLI rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`) read
//! into DSH-shaped records, every generation:
//!
//! * 0.169's `{timestamp, ordinal, type, payload}` lines and the earlier
//!   `{timestamp, type, payload}` ones: `session_meta` (the header),
//!   `turn_context` (the model), `event_msg` (turn boundaries, token usage,
//!   patch outcomes, file changes, `context_compacted`), `response_item`
//!   (messages, reasoning, calls and their outputs, web searches),
//!   `compacted` (a compaction and its summary);
//! * the oldest files (2025): a first line `{id, timestamp, instructions,
//!   git}` (with `cwd`, `cli_version` … and `record_type: "session_meta"`
//!   in some builds), then bare response items (`{type: "function_call",
//!   …}`), `{record_type: "state"}` lines and, in some builds, events as
//!   `{record_type: "event", msg}` lines. Their items have no time of their
//!   own: their records have none (time 0), and the header gives the
//!   session's start (`startedMs`); the cwd, when the header lacks it, is
//!   the one of the environment context Codex sent the model.
//!
//! What this reader decides, so the cards are one per call:
//! * a call's id is Codex's `call_id`; a freeform (custom) tool's raw input
//!   is carried as the arguments `{"input": text}`;
//! * a command still running when its output came (`Process running with
//!   session ID N`) keeps its result back; a later call whose arguments poll
//!   that session (`session_id: N`) draws no card of its own: its output is
//!   added to the command's, and the command's one result (the parts merged,
//!   [`output::merged`]) is given when the process exits, when the turn ends
//!   or when the input ends;
//! * a plan a call writes (arguments `plan: [{step, status}]`) also becomes
//!   a `todo/write`; a web search is a call with its result at once (Codex
//!   keeps no results); file changes Codex recorded for a call go in its
//!   result's `meta.changes`;
//! * how a call ended is judged from what the log says ([`outcome`]): the
//!   result's `isError`, and deck's `exitCode`, `durationMs` and `outcome`
//!   (`unknown`, `rejected`) beside it; an exit code only an end event
//!   gave goes in `meta.exitCode` too, for the card;
//! * a turn's end carries its token usage as DSH's `TokenUsage`: Codex's
//!   usage record for the turn (`turn_token_usage`, 0.169), else the
//!   session's running total (`token_count`'s `total_token_usage`) less
//!   what it was when the turn started; never a request's own
//!   (`last_token_usage`);
//! * a `compacted` line and the `context_compacted` event next to it are
//!   one compaction (`compaction/summary`, with Codex's summary when it
//!   wrote one).
//!
//! Which tool a call is, is the presenters' business (`codex/present.rs`).

mod header;
mod items;
mod outcome;
pub mod output;
mod results;
mod turn_meta;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_outcomes;

use std::collections::HashMap;

use serde_json::{Map, Value, json};

use serde::Serialize;

use crate::agents::read::{Emitter, Out, Translate, epoch_ms};
use items::{id_text, is_context, older_changes, plan_todos, texts};
use outcome::End;
use crate::wire::payload::{
    AssistantMessage, ContentBlock, MessageContent, TextOrObjects, TodoWrite, ToolCall, TurnEnd,
    TurnEndReason, TurnStart, UserMessage,
};
use crate::wire::{Diagnostic, EventKind, Origin, Record};

/// Line types of the two `{timestamp, type, payload}` generations.
const ENVELOPES: &[&str] = &[
    "session_meta",
    "response_item",
    "event_msg",
    "turn_context",
    "compacted",
    "world_state",
    "token_usage_record",
];

/// Response item types of the oldest generation's bare lines.
const BARE_ITEMS: &[&str] = &[
    "message",
    "reasoning",
    "function_call",
    "function_call_output",
    "custom_tool_call",
    "custom_tool_call_output",
    "local_shell_call",
    "web_search_call",
];

/// Whether `v` is a line of a Codex rollout, from its shape alone.
pub fn is_line(v: &Value) -> bool {
    let Some(o) = v.as_object() else {
        return false;
    };
    if o.contains_key("seq") {
        return false;
    }
    let ty = o.get("type").and_then(Value::as_str);
    if o.get("timestamp").is_some_and(Value::is_string) && o.get("payload").is_some() {
        // Codex's line types are snake_case words (DSH's have `/` or `-`).
        return ty.is_some_and(|t| {
            ENVELOPES.contains(&t)
                || !t.is_empty() && t.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')
        }) && !o.contains_key("rpcId");
    }
    // The 2025 recorders' own lines (`state`, and in some builds
    // `session_meta`, `event`, `response`).
    if o.get("record_type").and_then(Value::as_str).is_some_and(|r| {
        ["state", "session_meta", "prev_session_meta", "event", "response"].contains(&r)
    }) {
        return true;
    }
    // The oldest first line: the session's meta, bare.
    if ty.is_none()
        && o.get("id").is_some_and(Value::is_string)
        && o.get("timestamp").is_some_and(Value::is_string)
        && (o.contains_key("instructions") || o.contains_key("git"))
    {
        return true;
    }
    ty.is_some_and(|t| BARE_ITEMS.contains(&t))
        && (o.contains_key("call_id") || o.contains_key("role") || o.contains_key("summary"))
}

/// A command whose result is kept back until the process it started exits.
#[derive(Debug)]
struct Held {
    call_id: String,
    /// Its first output, then each poll's.
    parts: Vec<String>,
    turn: u64,
    step: u64,
    origin: Origin,
}

/// Reads one rollout's lines, in order, into records.
#[derive(Debug, Default)]
pub struct Reader {
    /// The session id (from the meta line).
    session: Option<String>,
    /// Header fields not yet given.
    fields: Map<String, Value>,
    header_sent: bool,
    /// Whether a `turn_context` (which names the model) was read.
    context_seen: bool,
    /// Events read before the header could be given (a turn's start comes
    /// before the turn context naming the model).
    early: Out,
    emitter: Emitter,
    /// The latest time seen (epoch ms), so times never go back.
    time: i64,
    /// Whether the line being read has a time of its own (the oldest
    /// files' items have none: their records get none).
    timed: bool,
    /// The current turn (0 before the first).
    turn: u64,
    turn_open: bool,
    /// Whether the log marks turns (`task_started`); else user prompts do.
    marked_turns: bool,
    step: u64,
    /// The turn's token usage as Codex last reported it
    /// (`token_usage_record.turn_token_usage`).
    usage: Option<Value>,
    /// The session's token usage so far (`token_count`), and where it
    /// stood when the turn started: their difference is the turn's usage
    /// in logs without usage records.
    total: Option<Value>,
    total_at_start: Option<Value>,
    /// Running process (session id) → the command that started it.
    running: HashMap<String, String>,
    /// Held results, by the command's call id.
    held: HashMap<String, Held>,
    /// A poll's call id → the command it polls.
    polls: HashMap<String, String>,
    /// The call items' own `status` (`completed` …), by call id.
    statuses: HashMap<String, String>,
    /// File changes Codex recorded per call.
    changes: HashMap<String, Value>,
    /// How Codex classified each command (`parsed_cmd`), by call id.
    parsed: HashMap<String, Value>,
    /// What Codex kept of calls' ends beside their outputs (end events,
    /// completed items), by call id.
    ends: HashMap<String, End>,
    /// Compactions so far, and the last one's id while the line or event
    /// that goes with it may still come (with `true` when it was the
    /// `compacted` line, `false` the `context_compacted` event).
    compactions: u64,
    compaction: Option<(String, bool)>,
}

impl Translate for Reader {
    fn line(&mut self, v: &Value, origin: Origin, out: &mut Out) {
        let time = v.get("timestamp").and_then(Value::as_str).and_then(epoch_ms);
        self.timed = time.is_some();
        if let Some(t) = time {
            self.time = self.time.max(t);
        }
        let ty = v.get("type").and_then(Value::as_str);
        let payload = v.get("payload");
        match (ty, payload) {
            (Some("session_meta"), Some(p)) => match p.as_object() {
                Some(meta) => self.meta(meta),
                None => self.malformed(v, "session_meta without an object payload", origin, out),
            },
            (Some("turn_context"), Some(p)) => {
                self.turn_context(p);
                if !self.early.is_empty() {
                    self.send_header(origin, out);
                }
            }
            (Some("event_msg"), Some(p)) => self.event_msg(v, p, origin, out),
            (Some("response_item"), Some(p)) => self.item(v, p, origin, out),
            (Some("token_usage_record"), Some(p)) => {
                if let Some(u) = p.get("turn_token_usage").filter(|u| u.is_object()) {
                    self.usage = Some(u.clone());
                }
            }
            (Some("compacted"), Some(p)) => {
                let summary = p.get("message").and_then(Value::as_str).unwrap_or_default();
                self.compacted(Some(summary), origin, out);
            }
            (Some(t), Some(_)) if ENVELOPES.contains(&t) => {}
            (Some(t), None) if ENVELOPES.contains(&t) && v.get("timestamp").is_some() => {
                self.malformed(v, &format!("{t} line without a payload"), origin, out);
            }
            _ if v.get("record_type").is_some() => self.record(v, origin, out),
            (None, _) if v.get("id").is_some() && v.get("timestamp").is_some() => {
                if let Some(meta) = v.as_object() {
                    self.meta(meta);
                }
            }
            (Some(_), None) => self.item(v, v, origin, out),
            _ => {}
        }
    }

    fn finish(&mut self, out: &mut Out) {
        self.timed = false;
        self.release_all(out);
        self.send_header(Origin::default(), out);
    }
}

impl Reader {
    /// A line of the 2025 recorders (`record_type`): the session's meta,
    /// an event (`{record_type: "event", id, msg}`), an item; `state`
    /// lines say nothing.
    fn record(&mut self, v: &Value, origin: Origin, out: &mut Out) {
        match v.get("record_type").and_then(Value::as_str) {
            Some("session_meta") => {
                if let Some(meta) = v.as_object() {
                    self.meta(meta);
                }
            }
            Some("event") => match v.get("msg").filter(|m| m.is_object()) {
                Some(msg) => self.event_msg(v, msg, origin, out),
                None => self.malformed(v, "event line without its msg", origin, out),
            },
            Some("response") => self.item(v, v, origin, out),
            _ => {}
        }
    }

    /// A session event, next in seq.
    fn emit(&mut self, kind: EventKind, data: impl Serialize, origin: Origin, out: &mut Out) {
        let wait = !self.header_sent && !self.context_seen && kind == EventKind::TurnStart;
        if !wait {
            self.send_header(origin, out);
        }
        let time = if self.timed { self.time } else { 0 };
        let r = self.emitter.event(kind, time, &data, origin);
        let to = if wait { &mut self.early } else { out };
        to.push((self.session.clone(), r));
    }

    fn malformed(&mut self, v: &Value, reason: &str, origin: Origin, out: &mut Out) {
        self.send_header(origin, out);
        let d = Diagnostic::new(origin, format!("codex rollout: {reason}"), v.to_string());
        out.push((self.session.clone(), Record::Diagnostic(d)));
    }

    fn start_turn(&mut self, origin: Origin, out: &mut Out) {
        if self.turn_open {
            self.end_turn("completed", origin, out);
        }
        self.turn += 1;
        self.turn_open = true;
        self.usage = None;
        self.compaction = None;
        self.total_at_start.clone_from(&self.total);
        let data = TurnStart {
            turn: Some(self.turn),
        };
        self.emit(EventKind::TurnStart, data, origin, out);
    }

    fn end_turn(&mut self, kind: &str, origin: Origin, out: &mut Out) {
        if !self.turn_open {
            return;
        }
        self.release_all(out);
        self.turn_open = false;
        let data = TurnEnd {
            turn: Some(self.turn),
            reason: Some(TurnEndReason {
                kind: Some(kind.to_string()),
                ..TurnEndReason::default()
            }),
            usage: self.turn_usage(),
        };
        self.emit(EventKind::TurnEnd, data, origin, out);
    }

    /// The turn an item belongs to, opening one when the log marks none.
    fn turn_for_item(&mut self, origin: Origin, out: &mut Out) -> u64 {
        if !self.turn_open && !self.marked_turns {
            self.start_turn(origin, out);
        }
        self.turn
    }

    fn event_msg(&mut self, v: &Value, p: &Value, origin: Origin, out: &mut Out) {
        let call_id = || p.get("call_id").and_then(Value::as_str).map(str::to_string);
        match p.get("type").and_then(Value::as_str) {
            Some("task_started") => {
                self.marked_turns = true;
                self.start_turn(origin, out);
            }
            Some("task_complete") => self.end_turn("completed", origin, out),
            Some("context_compacted") => self.compacted(None, origin, out),
            Some("turn_aborted") => self.end_turn("aborted", origin, out),
            Some("token_count") => {
                if let Some(u) = p.get("info").and_then(|i| i.get("total_token_usage")) {
                    self.total = Some(u.clone());
                }
            }
            Some("item_completed") => {
                let item = p.get("item");
                let field = |k: &str| item.and_then(|i| i.get(k));
                let Some(id) = field("id").and_then(Value::as_str) else {
                    return;
                };
                match field("type").and_then(Value::as_str) {
                    Some("FileChange") => {
                        if let Some(changes) = field("changes") {
                            self.changes.insert(id.to_string(), changes.clone());
                        }
                    }
                    Some("CommandExecution") => {
                        if let Some(parsed) = field("parsed_cmd") {
                            self.parsed.insert(id.to_string(), parsed.clone());
                        }
                    }
                    _ => return,
                }
                if let Some(item) = item {
                    self.ended(id.to_string(), End::of(item));
                }
            }
            Some("exec_command_begin") => {
                if let (Some(id), Some(parsed)) = (call_id(), p.get("parsed_cmd")) {
                    self.parsed.insert(id, parsed.clone());
                }
            }
            Some("patch_apply_begin") => {
                if let (Some(id), Some(changes)) = (call_id(), p.get("changes")) {
                    self.changes.insert(id, older_changes(changes));
                }
            }
            Some("exec_command_end" | "patch_apply_end") => {
                if let Some(id) = call_id() {
                    self.ended(id, End::of(p));
                }
            }
            Some(_) => {}
            None => self.malformed(v, "event_msg without a type", origin, out),
        }
    }

    /// A response item (`p`) of line `v`.
    fn item(&mut self, v: &Value, p: &Value, origin: Origin, out: &mut Out) {
        self.compaction = None;
        let Some(ty) = p.get("type").and_then(Value::as_str) else {
            return self.malformed(v, "response item without a type", origin, out);
        };
        match ty {
            "message" => self.message(p, origin, out),
            "reasoning" => {
                let text = texts(p.get("summary"));
                if !text.is_empty() {
                    let turn = self.turn_for_item(origin, out);
                    self.step += 1;
                    let data = assistant_message(turn, self.step, "reasoning", text);
                    self.emit(EventKind::AssistantMessage, data, origin, out);
                }
            }
            "function_call" | "custom_tool_call" | "local_shell_call" | "web_search_call" => {
                self.call(v, p, ty, origin, out);
            }
            "function_call_output" | "custom_tool_call_output" => self.output(v, p, origin, out),
            _ => {}
        }
    }

    fn message(&mut self, p: &Value, origin: Origin, out: &mut Out) {
        let text = texts(p.get("content"));
        match p.get("role").and_then(Value::as_str) {
            Some("user") if !text.is_empty() && !is_context(&text) => {
                if !self.marked_turns {
                    self.start_turn(origin, out);
                }
                let turn = self.turn;
                let data = UserMessage {
                    turn: Some(turn),
                    content: TextOrObjects::Objects(vec![Some(text_block("text", text))]),
                    ..UserMessage::default()
                };
                self.emit(EventKind::UserMessage, data, origin, out);
            }
            Some("user") => self.context_message(&text),
            Some("assistant") if !text.is_empty() => {
                let turn = self.turn_for_item(origin, out);
                self.step += 1;
                let data = assistant_message(turn, self.step, "text", text);
                self.emit(EventKind::AssistantMessage, data, origin, out);
            }
            _ => {}
        }
    }

    /// A call: `function_call` / `custom_tool_call` / `local_shell_call` /
    /// `web_search_call`.
    fn call(&mut self, v: &Value, p: &Value, ty: &str, origin: Origin, out: &mut Out) {
        let id = p
            .get("call_id")
            .or_else(|| p.get("id"))
            .and_then(Value::as_str)
            .map(str::to_string)
            // Older hosted searches have no id: one of their own.
            .or_else(|| (ty == "web_search_call").then(|| format!("web_search_{}", self.emitter.seq() + 1)));
        let (name, arguments) = match ty {
            "custom_tool_call" => (
                p.get("name").and_then(Value::as_str),
                p.get("input")
                    .and_then(Value::as_str)
                    .map(|i| json!({"input": i}).to_string()),
            ),
            "local_shell_call" => (
                Some("local_shell"),
                p.get("action").map(Value::to_string),
            ),
            "web_search_call" => (Some(ty), Some(p.get("action").map_or_else(
                || "{}".to_string(),
                Value::to_string,
            ))),
            _ => (
                p.get("name").and_then(Value::as_str),
                match p.get("arguments") {
                    Some(Value::String(s)) => Some(s.clone()),
                    Some(other) => Some(other.to_string()),
                    None => None,
                },
            ),
        };
        let (Some(id), Some(name), Some(arguments)) = (id, name, arguments) else {
            return self.malformed(v, &format!("{ty} without its id, name or arguments"), origin, out);
        };
        let args: Option<Value> = serde_json::from_str(&arguments).ok();
        // A poll of a running command: no card of its own.
        if let Some(session) = args.as_ref().and_then(|a| a.get("session_id")).map(id_text)
            && let Some(command) = self.running.get(&session)
        {
            self.polls.insert(id, command.clone());
            return;
        }
        let turn = self.turn_for_item(origin, out);
        self.step += 1;
        if let Some(status) = p.get("status").and_then(Value::as_str) {
            self.statuses.insert(id.clone(), status.to_string());
        }
        let data = ToolCall {
            turn: Some(turn),
            step: Some(self.step),
            call_id: Some(id.clone()),
            name: Some(name.to_string()),
            arguments: Some(Value::String(arguments)),
        };
        self.emit(EventKind::ToolCall, data, origin, out);
        if let Some(todos) = args.as_ref().and_then(plan_todos) {
            let data = TodoWrite {
                todos: Some(todos),
                call_id: Some(id.clone()),
            };
            self.emit(EventKind::TodoWrite, data, origin, out);
        }
        if ty == "web_search_call" {
            let status = p.get("status").cloned().unwrap_or(Value::Null);
            let meta = json!({"status": status});
            let verdict = self.verdict(&id, "", None);
            self.result(&id, turn, String::new(), &verdict, Some(meta), origin, out);
        }
    }
}

/// A content block of `kind` (`text`, `reasoning`).
fn text_block(kind: &str, text: String) -> ContentBlock {
    ContentBlock {
        kind: Some(kind.to_string()),
        text: Some(text),
    }
}

/// A step's message: one block of `kind`.
fn assistant_message(turn: u64, step: u64, kind: &str, text: String) -> AssistantMessage {
    AssistantMessage {
        turn: Some(turn),
        step: Some(step),
        message: Some(MessageContent {
            content: Some(vec![Some(text_block(kind, text))]),
            ..MessageContent::default()
        }),
        ..AssistantMessage::default()
    }
}
