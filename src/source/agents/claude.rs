//! Claude Code session logs (`~/.claude/projects/<cwd>/<id>.jsonl`, and a
//! subagent's `<id>/subagents/agent-*.jsonl`) read into DSH-shaped records.
//!
//! * `user` lines: a prompt starts a turn (`turn/start`, `user/message`);
//!   `tool_result` blocks are `tool/result`s, their line's `toolUseResult`
//!   carried as `meta`; `<task-notification>` messages are context, not
//!   prompts, and name the call whose background task they report
//!   (`notification`); `[Request interrupted by user…]` ends the turn
//!   interrupted.
//! * `assistant` lines: one per content block in current versions, a whole
//!   message in older ones, one `message.id` throughout; each message is a
//!   step, its thinking and text an `assistant/message` (sent again as it
//!   grows), each `tool_use` a `tool/call`. Blocks, calls and results seen
//!   before are not counted again (old logs repeat a message as it streams).
//! * `summary` lines name the session (`session/title`).
//! * Everything else (`api-request-blob`, which repeats message content,
//!   attachments, queue operations, `progress`, …) is ignored quietly; a
//!   known line without its message is a diagnostic.
//!
//! Nothing here names a tool: the presenters (`present::claude_code`) do.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value, json};

use super::{Agent, Out, Translate, epoch_ms, event, header};
use crate::wire::{Diagnostic, Origin, Record};

/// Whether `v` is a line of a Claude Code session log: an object typed by
/// a plain word (no `/`: DSH's kinds have one) that carries what Claude's
/// lines carry (`uuid`, `sessionId`, `leafUuid`, or `messageId` with a
/// `snapshot`) and none of DSH's `seq`.
pub fn is_line(v: &Value) -> bool {
    let Some(o) = v.as_object() else {
        return false;
    };
    let Some(kind) = o.get("type").and_then(Value::as_str) else {
        return false;
    };
    if kind.is_empty() || kind.contains('/') || kind == "session" {
        return false;
    }
    if o.contains_key("seq") || o.contains_key("event") || o.contains_key("seq0") {
        return false;
    }
    ["uuid", "sessionId", "leafUuid"]
        .iter()
        .any(|k| o.get(*k).is_some_and(Value::is_string))
        // A snapshot of the files a message touched (it names no session).
        || (o.get("messageId").is_some_and(Value::is_string)
            && o.get("snapshot").is_some_and(Value::is_object))
}

/// Reads one Claude Code session log, line by line.
#[derive(Debug, Default)]
pub struct Reader {
    /// The session the records go to (`sessionId` of the lines).
    session: Option<String>,
    /// What the header says; sent again when it learns more.
    fields: Map<String, Value>,
    header_sent: bool,
    header_stale: bool,
    /// The last seq given (seqs start at 1).
    seq: u64,
    time: i64,
    turn: u64,
    turn_open: bool,
    step: u64,
    /// The message the current step is.
    message_id: Option<String>,
    /// Its thinking (`true`) and text blocks so far.
    blocks: Vec<(bool, String)>,
    calls: HashSet<String>,
    results: HashSet<String>,
    /// The task list that task-shaped results built (id, subject, status).
    tasks: Vec<(String, String, String)>,
    /// The last call made: a task list goes out with its result.
    last_call: Option<String>,
    /// Whether this log is a subagent's (its lines are all `isSidechain`);
    /// `None` until the first message says.
    sidechain: Option<bool>,
    /// Tasks started in the background: task id → the call that started
    /// it (for a notification that does not name its call).
    background: HashMap<String, String>,
}

impl Translate for Reader {
    fn line(&mut self, v: &Value, origin: Origin, out: &mut Out) {
        let kind = v.get("type").and_then(Value::as_str).unwrap_or("");
        if !matches!(kind, "user" | "assistant" | "summary") {
            return;
        }
        if let Some(id) = v.get("sessionId").and_then(Value::as_str)
            && self.session.as_deref() != Some(id)
        {
            self.switch_session(id);
        }
        if kind == "summary" {
            if let Some(title) = v.get("summary").and_then(Value::as_str) {
                self.emit(out, origin, "session/title", json!({"title": title}));
            }
            return;
        }
        let side = v.get("isSidechain").and_then(Value::as_bool).unwrap_or(false);
        if *self.sidechain.get_or_insert(side) != side {
            // An old log's subagent lines, interleaved with the main ones.
            return;
        }
        if v.get("isMeta").and_then(Value::as_bool) == Some(true) {
            return;
        }
        self.learn(v);
        if let Some(ms) = v.get("timestamp").and_then(Value::as_str).and_then(epoch_ms) {
            self.time = self.time.max(ms);
        }
        let Some(message) = v.get("message").filter(|m| m.is_object()) else {
            self.malformed(out, origin, v, kind, "no message object");
            return;
        };
        let content = message.get("content");
        match (kind, content) {
            ("user", Some(Value::String(text))) => self.user_text(out, origin, text),
            ("user", Some(Value::Array(blocks))) => self.user_blocks(out, origin, v, blocks),
            ("assistant", Some(Value::Array(blocks))) => {
                self.assistant(out, origin, message, blocks)
            }
            ("assistant", Some(Value::String(text))) => {
                let blocks = [json!({"type": "text", "text": text})];
                self.assistant(out, origin, message, &blocks)
            }
            _ => self.malformed(out, origin, v, kind, "message without content"),
        }
    }

    fn finish(&mut self, out: &mut Out) {
        self.end_turn(out, Origin::default(), "completed");
    }
}

impl Reader {
    fn switch_session(&mut self, id: &str) {
        if self.session.is_some() {
            // Another session in the same input: its own seqs and turns.
            *self = Reader {
                sidechain: self.sidechain,
                ..Reader::default()
            };
        }
        self.session = Some(id.to_string());
        self.fields.insert("id".into(), Value::from(id));
    }

    /// What a message line says of the session, for the header.
    fn learn(&mut self, v: &Value) {
        for key in ["cwd", "version", "gitBranch", "agentId"] {
            if let Some(s) = v.get(key).and_then(Value::as_str)
                && !self.fields.contains_key(key)
            {
                self.fields.insert(key.into(), Value::from(s));
                self.header_stale = self.header_sent;
            }
        }
        let model = v
            .get("message")
            .and_then(|m| m.get("model"))
            .and_then(Value::as_str);
        if let Some(m) = model.filter(|m| !m.starts_with('<'))
            && !self.fields.contains_key("model")
        {
            self.fields.insert("model".into(), Value::from(m));
            self.header_stale = self.header_sent;
        }
    }

    /// The header, when it has not gone out or has learnt more since.
    fn header(&mut self, out: &mut Out) {
        if self.header_sent && !self.header_stale {
            return;
        }
        self.header_sent = true;
        self.header_stale = false;
        let record = header(Agent::ClaudeCode, self.fields.clone(), Origin::default());
        out.push((self.session.clone(), record));
    }

    fn emit(&mut self, out: &mut Out, origin: Origin, kind: &str, data: Value) {
        self.header(out);
        self.seq += 1;
        if let Some(r) = event(kind, self.seq, self.time, data, origin) {
            out.push((self.session.clone(), r));
        }
    }

    fn malformed(&mut self, out: &mut Out, origin: Origin, v: &Value, kind: &str, why: &str) {
        let d = Diagnostic {
            origin,
            reason: format!("Claude Code {kind:?} line: {why}"),
            raw: v.to_string(),
        };
        out.push((self.session.clone(), Record::Diagnostic(d)));
    }

    fn start_turn(&mut self, out: &mut Out, origin: Origin) {
        self.end_turn(out, origin, "completed");
        self.turn += 1;
        self.turn_open = true;
        self.message_id = None;
        self.blocks.clear();
        self.emit(out, origin, "turn/start", json!({"turn": self.turn}));
    }

    fn end_turn(&mut self, out: &mut Out, origin: Origin, kind: &str) {
        if std::mem::take(&mut self.turn_open) {
            let data = json!({"turn": self.turn, "reason": {"kind": kind}});
            self.emit(out, origin, "turn/end", data);
        }
    }

    fn user_text(&mut self, out: &mut Out, origin: Origin, text: &str) {
        if text.starts_with("[Request interrupted by user") {
            self.end_turn(out, origin, "interrupted");
            return;
        }
        // A background task's report comes back as a user message the
        // person did not type: context inside the running turn.
        let context = text.starts_with("<task-notification>");
        if !context || !self.turn_open {
            self.start_turn(out, origin);
        }
        let source = if context { "notification" } else { "user" };
        let mut data = json!({
            "turn": self.turn,
            "content": [{"type": "text", "text": text}],
            "source": {"kind": source},
        });
        // A task's report goes on the card of the call that started it.
        if context && let Some((call, task)) = notification::linked(text, &self.background) {
            data["source"]["callId"] = call.into();
            data["task"] = task;
        }
        self.emit(out, origin, "user/message", data);
    }

    fn user_blocks(&mut self, out: &mut Out, origin: Origin, v: &Value, blocks: &[Value]) {
        let results: Vec<&Value> = blocks
            .iter()
            .filter(|b| b.get("type").and_then(Value::as_str) == Some("tool_result"))
            .collect();
        if results.is_empty() {
            let text: Vec<&str> = blocks
                .iter()
                .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
                .filter_map(|b| b.get("text").and_then(Value::as_str))
                .collect();
            if !text.is_empty() {
                self.user_text(out, origin, &text.join("\n"));
            }
            return;
        }
        // The structured result belongs to the line's one result.
        let meta = v
            .get("toolUseResult")
            .filter(|_| results.len() == 1)
            .filter(|m| m.is_object());
        for r in results {
            self.tool_result(out, origin, r, meta);
        }
    }

    fn tool_result(&mut self, out: &mut Out, origin: Origin, block: &Value, meta: Option<&Value>) {
        let Some(id) = block.get("tool_use_id").and_then(Value::as_str) else {
            let d = Diagnostic {
                origin,
                reason: "Claude Code tool_result without a tool_use_id".into(),
                raw: block.to_string(),
            };
            out.push((self.session.clone(), Record::Diagnostic(d)));
            return;
        };
        if !self.results.insert(id.to_string()) {
            return;
        }
        if !self.turn_open {
            self.start_turn(out, origin);
        }
        let is_error = block.get("is_error").and_then(Value::as_bool) == Some(true);
        let content = result_content(block.get("content"));
        let mut data = json!({
            "turn": self.turn,
            "step": self.step,
            "message": {
                "role": "tool",
                "source": {"kind": "tool", "callId": id},
                "content": [{
                    "type": "tool-result",
                    "toolCallId": id,
                    "content": content,
                    "isError": is_error,
                }],
            },
        });
        if let (Some(m), Some(map)) = (meta, data.as_object_mut()) {
            map.insert("meta".into(), m.clone());
        }
        self.emit(out, origin, "tool/result", data);
        if let Some(task) = meta.and_then(notification::task_id) {
            self.background.insert(task.to_string(), id.to_string());
        }
        if let Some(m) = meta
            && self.track_tasks(m)
            && self.last_call.as_deref() == Some(id)
        {
            let todos: Vec<Value> = self
                .tasks
                .iter()
                .map(|(_, subject, status)| json!({"content": subject, "status": status}))
                .collect();
            self.emit(out, origin, "todo/write", json!({"todos": todos}));
        }
    }

    /// Follow the task list through a structured result shaped like a
    /// task's creation (`task: {id, subject}`), update (`taskId`,
    /// `statusChange.to`) or listing (`tasks: [{id, subject, status}]`).
    /// True when the result was one of them.
    fn track_tasks(&mut self, meta: &Value) -> bool {
        let text = |v: Option<&Value>| match v {
            Some(Value::String(s)) => Some(s.clone()),
            Some(Value::Number(n)) => Some(n.to_string()),
            _ => None,
        };
        if let Some(list) = meta.get("tasks").and_then(Value::as_array) {
            self.tasks = list
                .iter()
                .filter_map(|t| {
                    let id = text(t.get("id"))?;
                    let subject = text(t.get("subject"))?;
                    let status = text(t.get("status")).unwrap_or_else(|| "pending".into());
                    Some((id, subject, status))
                })
                .collect();
            return true;
        }
        if let Some(task) = meta.get("task")
            && let (Some(id), Some(subject)) = (text(task.get("id")), text(task.get("subject")))
        {
            self.tasks.retain(|(i, _, _)| *i != id);
            self.tasks.push((id, subject, "pending".into()));
            return true;
        }
        if let (Some(id), Some(to)) = (
            text(meta.get("taskId")),
            text(meta.get("statusChange").and_then(|c| c.get("to"))),
        ) {
            if to == "deleted" {
                self.tasks.retain(|(i, _, _)| *i != id);
            } else if let Some(t) = self.tasks.iter_mut().find(|(i, _, _)| *i == id) {
                t.2 = to;
            }
            return true;
        }
        false
    }

    fn assistant(&mut self, out: &mut Out, origin: Origin, message: &Value, blocks: &[Value]) {
        if !self.turn_open {
            self.start_turn(out, origin);
        }
        let id = message.get("id").and_then(Value::as_str);
        if id.is_none() || id != self.message_id.as_deref() {
            self.step += 1;
            self.message_id = id.map(str::to_string);
            self.blocks.clear();
        }
        let mut grew = false;
        for b in blocks {
            match b.get("type").and_then(Value::as_str) {
                Some("thinking") => grew |= self.block(true, b.get("thinking")),
                Some("text") => grew |= self.block(false, b.get("text")),
                Some("tool_use") => {
                    if grew {
                        self.message(out, origin);
                        grew = false;
                    }
                    self.tool_call(out, origin, b);
                }
                _ => {}
            }
        }
        if grew {
            self.message(out, origin);
        }
    }

    /// Add a thinking or text block to the message; false when it holds it.
    fn block(&mut self, reasoning: bool, text: Option<&Value>) -> bool {
        let Some(text) = text.and_then(Value::as_str).filter(|t| !t.is_empty()) else {
            return false;
        };
        if self.blocks.iter().any(|(r, t)| *r == reasoning && t == text) {
            return false;
        }
        self.blocks.push((reasoning, text.to_string()));
        true
    }

    fn message(&mut self, out: &mut Out, origin: Origin) {
        let content: Vec<Value> = self
            .blocks
            .iter()
            .map(|(reasoning, text)| {
                let kind = if *reasoning { "reasoning" } else { "text" };
                json!({"type": kind, "text": text})
            })
            .collect();
        let data = json!({
            "turn": self.turn,
            "step": self.step,
            "message": {"role": "assistant", "content": content},
        });
        self.emit(out, origin, "assistant/message", data);
    }

    fn tool_call(&mut self, out: &mut Out, origin: Origin, block: &Value) {
        let (Some(id), Some(name)) = (
            block.get("id").and_then(Value::as_str),
            block.get("name").and_then(Value::as_str),
        ) else {
            let d = Diagnostic {
                origin,
                reason: "Claude Code tool_use without an id or a name".into(),
                raw: block.to_string(),
            };
            out.push((self.session.clone(), Record::Diagnostic(d)));
            return;
        };
        if !self.calls.insert(id.to_string()) {
            return;
        }
        let input = block.get("input").cloned().unwrap_or_else(|| json!({}));
        let arguments = serde_json::to_string(&input).unwrap_or_else(|_| "{}".into());
        let data = json!({
            "turn": self.turn,
            "step": self.step,
            "callId": id,
            "name": name,
            "arguments": arguments,
        });
        self.emit(out, origin, "tool/call", data);
        self.last_call = Some(id.to_string());
        // A call that writes a whole checklist: the plan, as DSH sends it.
        if let Some(todos) = checklist(&input) {
            self.emit(out, origin, "todo/write", json!({"todos": todos}));
        }
    }
}

/// A tool_result's content as DSH content blocks: a string is one text
/// block; text and image blocks are kept; a reference to a tool becomes
/// the tool's name as text.
fn result_content(content: Option<&Value>) -> Vec<Value> {
    match content {
        Some(Value::String(s)) => vec![json!({"type": "text", "text": s})],
        Some(Value::Array(blocks)) => blocks
            .iter()
            .filter_map(|b| match b.get("type").and_then(Value::as_str) {
                Some("tool_reference") => b
                    .get("tool_name")
                    .and_then(Value::as_str)
                    .map(|n| json!({"type": "text", "text": n})),
                Some(_) => Some(b.clone()),
                None => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// A call's input that is a whole checklist (`todos: [{content, status}]`):
/// the list, as `todo/write` carries it.
fn checklist(input: &Value) -> Option<Vec<Value>> {
    let todos = input.get("todos")?.as_array()?;
    let list: Vec<Value> = todos
        .iter()
        .filter_map(|t| {
            let content = t.get("content").and_then(Value::as_str)?;
            let status = t.get("status").and_then(Value::as_str).unwrap_or("pending");
            Some(json!({"content": content, "status": status}))
        })
        .collect();
    (list.len() == todos.len()).then_some(list)
}

pub mod beside;
pub mod live;
mod notification;
pub mod side_files;
mod subagents;

#[cfg(test)]
mod tests;
