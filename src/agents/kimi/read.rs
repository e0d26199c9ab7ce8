//! Kimi Code CLI's wire logs (`~/.kimi/sessions/<md5 of the work dir>/<session
//! id>/wire.jsonl`) read into DSH-shaped records. kimi-cli's recorder
//! (`src/kimi_cli/wire/file.py`) writes a first line `{"type": "metadata",
//! "protocol_version": "1.x"}`, then one `{"timestamp": <epoch seconds>,
//! "message": {"type", "payload"}}` a line, the UI's events with streamed
//! pieces merged (`src/kimi_cli/wire/types.py`):
//!
//! * `TurnBegin {user_input}`: a prompt (a string, or content parts) — a
//!   turn; `SteerInput {user_input}`: more of the user's input in the
//!   running turn; `TurnEnd {}`: the turn ended. A turn that was stopped (a
//!   cancel, an error) has no `TurnEnd`: when the next `TurnBegin` comes it
//!   ends `interrupted`, its calls with no result interrupted, not failed;
//! * `StepBegin {n}`: a model request of the turn; `ContentPart` (`{type:
//!   "text", text}`, `{type: "think", think}`): what it said;
//!   `StatusUpdate {token_usage: {input_other, output, input_cache_read,
//!   input_cache_creation}}`: its tokens (summed per turn);
//! * `ToolCall {id, function: {name, arguments}}` (its `ToolCallPart`s
//!   already merged into it by the recorder: a lone one is not read);
//!   `ToolResult {tool_call_id, return_value: {is_error, output, message,
//!   display}}`: its end. The result's text is its `output` (else its
//!   `message`); `message` and `display` (brief, diff, todo, shell blocks)
//!   go to the cards as `meta`. A `todo` block is also the plan's
//!   `todo/write`;
//! * `ApprovalRequest {id, tool_call_id, description}` and
//!   `ApprovalResponse {request_id, response}`: the approval on a call's
//!   card; a `reject` makes its error result a refusal (`rejected`), as
//!   does a result whose message says the user rejected it;
//! * `CompactionBegin`, `CompactionEnd`: a compaction.
//!
//! What this reader decides: an exit code is only what a result's message
//! says (`Command failed with exit code: N.`; `Command executed
//! successfully.`, which kimi-cli writes for exit code 0 alone); a call's
//! duration is from its `ToolCall`'s time to its `ToolResult`'s. The lines
//! never say the session's id, its directory or the model. Other events
//! (subagents', hooks', notifications, MCP loading) draw nothing.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value, json};

use crate::agents::read::{Out, Translate};
use crate::agents::turns::{self, Turns};
use crate::wire::payload::{
    ApprovalAsked, ApprovalDecided, AssistantMessage, Compaction, ContentBlock, Json, MessageContent, PartContent,
    ResultPart, TextOrObjects, TodoItem, TodoWrite, ToolCall, ToolResult, UserMessage,
};
use crate::wire::{EventKind, Origin};

/// Whether `v` is a line of a Kimi Code wire log, from its shape alone: the
/// metadata header, or a record `{timestamp, message: {type, payload}}`
/// and nothing else.
pub fn is_line(v: &Value) -> bool {
    let Some(o) = v.as_object() else {
        return false;
    };
    if o.len() != 2 {
        return false;
    }
    if o.get("type").and_then(Value::as_str) == Some("metadata") {
        return o.get("protocol_version").is_some_and(Value::is_string);
    }
    let m = o.get("message");
    o.get("timestamp").is_some_and(Value::is_number)
        && m.and_then(|m| m.get("type")).is_some_and(Value::is_string)
        && m.and_then(|m| m.get("payload")).is_some_and(Value::is_object)
}

/// The exit code a result's message says: `Command failed with exit code:
/// N.`, or 0 for `Command executed successfully.`; else none.
pub fn said_exit_code(message: &str) -> Option<i64> {
    if message == "Command executed successfully." {
        return Some(0);
    }
    let rest = message.strip_prefix("Command failed with exit code: ")?;
    rest.strip_suffix('.').unwrap_or(rest).parse().ok()
}

/// A call that went out: its step and time, and whether its result came.
#[derive(Debug, Clone, Copy)]
struct Open {
    step: u64,
    at: i64,
    settled: bool,
}

/// Reads one wire log's lines, in order, into records.
#[derive(Debug)]
pub struct Reader {
    /// The session's header, seqs, turns and usage.
    w: Turns,
    /// What the open step said so far (each `ContentPart` writes them all
    /// again: the fold keeps a step's last message).
    said: Vec<Option<ContentBlock>>,
    calls: HashMap<String, Open>,
    /// Approval requests by id: the call each gates.
    approvals: HashMap<String, String>,
    /// Calls whose approval was rejected.
    rejected: HashSet<String>,
    /// The open compaction's id.
    compaction: Option<String>,
}

impl Default for Reader {
    fn default() -> Reader {
        Reader {
            w: Turns::new(super::NAME),
            said: Vec::new(),
            calls: HashMap::new(),
            approvals: HashMap::new(),
            rejected: HashSet::new(),
            compaction: None,
        }
    }
}

impl Translate for Reader {
    fn line(&mut self, v: &Value, origin: Origin, out: &mut Out) {
        if let Some(t) = v.get("timestamp").and_then(Value::as_f64) {
            self.w.saw((t * 1000.0).round() as i64);
        }
        let Some(m) = v.get("message") else {
            return;
        };
        let empty = Map::new();
        let p = m.get("payload").and_then(Value::as_object).unwrap_or(&empty);
        match m.get("type").and_then(Value::as_str).unwrap_or_default() {
            "TurnBegin" => {
                if self.w.turn_open {
                    self.w.end_turn_as("interrupted", None, origin, out);
                }
                self.said.clear();
                let text = user_text(p.get("user_input"));
                self.w.prompt(text, origin, out);
            }
            "SteerInput" => self.steer(user_text(p.get("user_input")), origin, out),
            "TurnEnd" if self.w.turn_open => self.w.end_turn(origin, out),
            "StepBegin" => {
                self.open_turn(origin, out);
                self.w.step = p.get("n").and_then(Value::as_u64).unwrap_or(self.w.step + 1);
                self.said.clear();
            }
            "ContentPart" => self.content(p, origin, out),
            "StatusUpdate" => {
                if let Some(u) = p.get("token_usage").filter(|u| u.is_object()) {
                    let n = |k: &str| u.get(k).and_then(Value::as_u64);
                    self.w.count([n("input_other"), n("output"), n("input_cache_read"), None]);
                }
            }
            "ToolCall" => self.call(p, origin, out),
            "ToolResult" => self.result(p, origin, out),
            "ApprovalRequest" => self.approval(p, origin, out),
            "ApprovalResponse" | "ApprovalRequestResolved" => self.decided(p, origin, out),
            "CompactionBegin" => {
                let id = format!("compaction-{}", origin.line);
                let data = Compaction {
                    compaction_id: Some(id.clone()),
                    turn: self.w.turn_open.then_some(self.w.turn),
                    ..Compaction::default()
                };
                self.w.emit(EventKind::CompactionStart, data, origin, out);
                self.compaction = Some(id);
            }
            "CompactionEnd" => {
                if let Some(id) = self.compaction.take() {
                    let data = Compaction {
                        compaction_id: Some(id),
                        turn: self.w.turn_open.then_some(self.w.turn),
                        ..Compaction::default()
                    };
                    self.w.emit(EventKind::CompactionEnd, data, origin, out);
                }
            }
            _ => {}
        }
    }

    fn finish(&mut self, out: &mut Out) {
        self.w.finish(out);
    }
}

impl Reader {
    /// A turn for what comes outside one (a log cut before its `TurnBegin`).
    fn open_turn(&mut self, origin: Origin, out: &mut Out) {
        if !self.w.turn_open {
            self.w.start_turn(origin, out);
        }
    }

    /// The user's input added to the running turn.
    fn steer(&mut self, text: String, origin: Origin, out: &mut Out) {
        if !self.w.turn_open {
            return self.w.prompt(text, origin, out);
        }
        let data = UserMessage {
            turn: Some(self.w.turn),
            content: TextOrObjects::Objects(vec![Some(turns::block("text", text))]),
            ..UserMessage::default()
        };
        self.w.emit(EventKind::UserMessage, data, origin, out);
    }

    /// Text or thinking of the open step: the step's message so far.
    fn content(&mut self, p: &Map<String, Value>, origin: Origin, out: &mut Out) {
        let (kind, key) = match p.get("type").and_then(Value::as_str) {
            Some("text") => ("text", "text"),
            Some("think") => ("reasoning", "think"),
            _ => return,
        };
        let Some(text) = p.get(key).and_then(Value::as_str).filter(|t| !t.trim().is_empty()) else {
            return;
        };
        self.open_turn(origin, out);
        self.said.push(Some(turns::block(kind, text.to_string())));
        let data = AssistantMessage {
            turn: Some(self.w.turn),
            step: Some(self.w.step),
            message: Some(MessageContent {
                content: Some(self.said.clone()),
                ..MessageContent::default()
            }),
            ..AssistantMessage::default()
        };
        self.w.emit(EventKind::AssistantMessage, data, origin, out);
    }

    fn call(&mut self, p: &Map<String, Value>, origin: Origin, out: &mut Out) {
        let Some(id) = p.get("id").and_then(Value::as_str) else {
            return;
        };
        self.open_turn(origin, out);
        let f = p.get("function");
        let name = f.and_then(|f| f.get("name")).and_then(Value::as_str).unwrap_or_default();
        let arguments = match f.and_then(|f| f.get("arguments")) {
            Some(Value::String(s)) if !s.trim().is_empty() => s.clone(),
            _ => "{}".to_string(),
        };
        let open = Open {
            step: self.w.step,
            at: self.w.time,
            settled: false,
        };
        self.calls.insert(id.to_string(), open);
        let data = ToolCall {
            turn: Some(self.w.turn),
            step: Some(self.w.step),
            call_id: Some(id.to_string()),
            name: Some(name.to_string()),
            arguments: Some(Value::String(arguments)),
        };
        self.w.emit(EventKind::ToolCall, data, origin, out);
    }

    fn result(&mut self, p: &Map<String, Value>, origin: Origin, out: &mut Out) {
        let Some(id) = p.get("tool_call_id").and_then(Value::as_str) else {
            return;
        };
        let Some(open) = self.calls.get_mut(id).filter(|o| !o.settled) else {
            return;
        };
        open.settled = true;
        let open = *open;
        let rv = p.get("return_value");
        let field = |k: &str| rv.and_then(|r| r.get(k));
        let message = field("message").and_then(Value::as_str).unwrap_or_default();
        let is_error = field("is_error").and_then(Value::as_bool).unwrap_or(false);
        let display = field("display").and_then(Value::as_array).filter(|d| !d.is_empty());
        if let Some(todos) = display.and_then(|d| todo_block(d)) {
            let data = TodoWrite {
                todos: Some(todos),
                call_id: Some(id.to_string()),
            };
            self.w.emit(EventKind::TodoWrite, data, origin, out);
        }
        let mut text = output_text(field("output"));
        if text.is_empty() {
            text = message.to_string();
        }
        let part = ResultPart::answering(id, PartContent::Text(text.into()), is_error);
        let mut data = ToolResult::of(self.w.turn, open.step, part);
        data.exit_code = said_exit_code(message);
        data.duration_ms = (self.w.time >= open.at && open.at > 0).then(|| self.w.time - open.at);
        if is_error && (self.rejected.contains(id) || message.starts_with("The tool call is rejected by the user")) {
            data.outcome = Some("rejected".into());
        }
        let mut meta = Map::new();
        if !message.is_empty() {
            meta.insert("message".into(), Value::from(message));
        }
        if let Some(d) = display {
            meta.insert("display".into(), Value::Array(d.clone()));
        }
        data.meta = (!meta.is_empty()).then(|| Json::Tree(Value::Object(meta)));
        self.w.emit(EventKind::ToolResult, data, origin, out);
    }

    fn approval(&mut self, p: &Map<String, Value>, origin: Origin, out: &mut Out) {
        let (Some(id), Some(call)) = (
            p.get("id").and_then(Value::as_str),
            p.get("tool_call_id").and_then(Value::as_str),
        ) else {
            return;
        };
        self.approvals.insert(id.to_string(), call.to_string());
        let said = |k: &str| p.get(k).and_then(Value::as_str).map(str::to_string);
        let data = ApprovalAsked {
            id: Some(id.to_string()),
            rpc_id: None,
            call_id: Some(Some(call.to_string())),
            tool_name: Some(said("sender")),
            reason: said("description").or_else(|| said("action")),
            options: Some(json!([])),
        };
        self.w.emit(EventKind::ApprovalAsked, data, origin, out);
    }

    fn decided(&mut self, p: &Map<String, Value>, origin: Origin, out: &mut Out) {
        let Some(id) = p.get("request_id").and_then(Value::as_str) else {
            return;
        };
        let response = p.get("response").and_then(Value::as_str).unwrap_or("decided");
        let outcome = match response {
            "approve" => "allowed once".to_string(),
            "approve_for_session" => "allowed for the session".to_string(),
            "reject" => {
                if let Some(call) = self.approvals.get(id) {
                    self.rejected.insert(call.clone());
                }
                match p.get("feedback").and_then(Value::as_str).filter(|f| !f.is_empty()) {
                    Some(f) => format!("rejected: {f}"),
                    None => "rejected".to_string(),
                }
            }
            other => other.to_string(),
        };
        let data = ApprovalDecided {
            id: Some(id.to_string()),
            outcome: Some(outcome),
        };
        self.w.emit(EventKind::ApprovalDecided, data, origin, out);
    }
}

/// A prompt's text: the string, or its text parts (an image as `[image]`).
fn user_text(input: Option<&Value>) -> String {
    match input {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|p| match p.get("type").and_then(Value::as_str) {
                Some("text") => p.get("text").and_then(Value::as_str).map(str::to_string),
                Some(other) => Some(format!("[{}]", other.trim_end_matches("_url"))),
                None => None,
            })
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// A result's output: the string, or its text parts.
fn output_text(output: Option<&Value>) -> String {
    match output {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// The plan a `todo` display block holds (`done` is deck's `completed`).
fn todo_block(display: &[Value]) -> Option<Vec<Option<TodoItem>>> {
    let block = display.iter().find(|b| b.get("type").and_then(Value::as_str) == Some("todo"))?;
    let items = block.get("items")?.as_array()?;
    Some(
        items
            .iter()
            .map(|i| {
                let status = match i.get("status").and_then(Value::as_str) {
                    Some("done") => "completed",
                    Some(s) => s,
                    None => "pending",
                };
                Some(TodoItem {
                    content: i.get("title").and_then(Value::as_str).map(str::to_string),
                    status: Some(status.to_string()),
                    ..TodoItem::default()
                })
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests;
