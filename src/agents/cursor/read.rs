//! Cursor's agent transcripts (`~/.cursor/projects/<project>/
//! agent-transcripts/<id>/<id>.jsonl`) read into DSH-shaped records. Read
//! from the documented format (see `tests/fixtures/agents/cursor/tour/
//! NOTES.md` for the sources), not verified against a run. The lines:
//!
//! * `{role: "user", message: {content}}`: a prompt, its text wrapped in
//!   `<user_query>` (after a `<timestamp>` line, minute-precise prose: not
//!   read as a time) — a turn;
//! * `{role: "assistant", message: {content}}`: the model's `text` blocks
//!   and `tool_use` blocks (`{name, input}`, with no id: the reader names
//!   a call by its line and place, `L3.1`); a `thinking` block when there
//!   is one;
//! * `{type: "turn_ended", status, error?}`: the turn ended (`success`,
//!   `error`, `aborted`).
//!
//! `content` may be a bare string (older transcripts). The lines carry no
//! time, no model, no tokens and no session id or directory (the file's
//! name and folder do), and no tool's output: a call's result is settled
//! when its turn ends, with nothing in it and `outcome: "unknown"` — no
//! card claims it succeeded or failed, no exit code, no duration. A
//! `tool_result` block (`tool_use_id`, `content`, `is_error`), which no
//! source shows Cursor writing, is read when there is one.

use serde_json::Value;

use crate::agents::read::{Out, Translate};
use crate::agents::turns::{self, Turns};
use crate::wire::payload::{
    ContentBlock, Failure, PartContent, ResultPart, ToolCall, ToolResult, TurnEnd,
    TurnEndReason,
};
use crate::wire::{EventKind, Origin};

/// Whether `v` is a line of a Cursor agent transcript, from its shape
/// alone: a message with a top-level `role` (Claude Code's has a `type`
/// and ids), or the `turn_ended` marker and nothing else.
pub fn is_line(v: &Value) -> bool {
    let Some(o) = v.as_object() else {
        return false;
    };
    if o.get("type").and_then(Value::as_str) == Some("turn_ended") {
        return o.keys().all(|k| matches!(k.as_str(), "type" | "status" | "error"));
    }
    let role = o.get("role").and_then(Value::as_str);
    let content = o.get("message").and_then(|m| m.get("content"));
    matches!(role, Some("user" | "assistant"))
        && content.is_some_and(|c| c.is_array() || c.is_string())
        && !["type", "uuid", "sessionId", "seq", "id", "timestamp"].iter().any(|k| o.contains_key(*k))
}

/// Reads one transcript's lines, in order, into records.
#[derive(Debug)]
pub struct Reader {
    /// The session's header, seqs and turns.
    w: Turns,
    /// Calls of the open turn with no result yet, in order.
    open: Vec<String>,
}

impl Default for Reader {
    fn default() -> Reader {
        Reader {
            w: Turns::new(super::NAME),
            open: Vec::new(),
        }
    }
}

impl Translate for Reader {
    fn line(&mut self, v: &Value, origin: Origin, out: &mut Out) {
        if v.get("type").and_then(Value::as_str) == Some("turn_ended") {
            self.turn_ended(v, origin, out);
            return;
        }
        let content = v.get("message").and_then(|m| m.get("content"));
        let blocks: Vec<Value> = match content {
            Some(Value::String(s)) => vec![serde_json::json!({"type": "text", "text": s})],
            Some(Value::Array(a)) => a.clone(),
            _ => Vec::new(),
        };
        match v.get("role").and_then(Value::as_str) {
            Some("user") => self.user(&blocks, origin, out),
            Some("assistant") => self.assistant(&blocks, origin, out),
            _ => {}
        }
    }

    fn finish(&mut self, out: &mut Out) {
        self.w.finish(out);
    }
}

impl Reader {
    /// A prompt (the open turn's calls settled, unknown), or results.
    fn user(&mut self, blocks: &[Value], origin: Origin, out: &mut Out) {
        for b in blocks.iter().filter(|b| kind(b) == Some("tool_result")) {
            self.tool_result(b, origin, out);
        }
        let text: Vec<&str> = blocks
            .iter()
            .filter(|b| kind(b) == Some("text"))
            .filter_map(|b| b.get("text").and_then(Value::as_str))
            .collect();
        let text = query(&text.join("\n"));
        if text.trim().is_empty() {
            return;
        }
        self.settle_unknown(origin, out);
        self.w.prompt(text, origin, out);
    }

    /// A model message: its text and thinking, then its calls.
    fn assistant(&mut self, blocks: &[Value], origin: Origin, out: &mut Out) {
        if !self.w.turn_open {
            self.w.start_turn(origin, out);
        }
        self.w.step += 1;
        let said: Vec<Option<ContentBlock>> = blocks
            .iter()
            .filter_map(|b| {
                let (k, key) = match kind(b) {
                    Some("text") => ("text", "text"),
                    Some("thinking") => ("reasoning", "thinking"),
                    _ => return None,
                };
                let t = b.get(key).or_else(|| b.get("text")).and_then(Value::as_str)?;
                (!t.trim().is_empty()).then(|| Some(turns::block(k, t.to_string())))
            })
            .collect();
        self.w.answer(said, origin, out);
        for (i, b) in blocks.iter().enumerate().filter(|(_, b)| kind(b) == Some("tool_use")) {
            let id = match b.get("id").and_then(Value::as_str).filter(|s| !s.is_empty()) {
                Some(id) => id.to_string(),
                None => format!("L{}.{}", origin.line, i + 1),
            };
            let arguments = match b.get("input") {
                Some(Value::String(s)) => Value::String(s.clone()).to_string(),
                Some(v) => v.to_string(),
                None => "{}".into(),
            };
            let data = ToolCall {
                turn: Some(self.w.turn),
                step: Some(self.w.step),
                call_id: Some(id.clone()),
                name: Some(b.get("name").and_then(Value::as_str).unwrap_or_default().to_string()),
                arguments: Some(Value::String(arguments)),
            };
            self.open.push(id);
            self.w.emit(EventKind::ToolCall, data, origin, out);
        }
    }

    /// A `tool_result` block, when a transcript has one.
    fn tool_result(&mut self, b: &Value, origin: Origin, out: &mut Out) {
        let Some(id) = b.get("tool_use_id").and_then(Value::as_str) else {
            return;
        };
        let Some(at) = self.open.iter().position(|o| o == id) else {
            return;
        };
        self.open.remove(at);
        let text = match b.get("content") {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Array(parts)) => {
                parts.iter().filter_map(|p| p.get("text").and_then(Value::as_str)).collect::<Vec<_>>().join("\n")
            }
            _ => String::new(),
        };
        let is_error = b.get("is_error").and_then(Value::as_bool);
        let part = ResultPart::answering(id, PartContent::Text(text.into()), is_error == Some(true));
        let mut data = ToolResult::of(self.w.turn, self.w.step, part);
        if is_error.is_none() {
            data.outcome = Some("unknown".into());
        }
        self.w.emit(EventKind::ToolResult, data, origin, out);
    }

    /// The open turn's calls end with nothing said of how.
    fn settle_unknown(&mut self, origin: Origin, out: &mut Out) {
        for id in std::mem::take(&mut self.open) {
            let part = ResultPart::answering(&id, PartContent::Text(String::new().into()), false);
            let mut data = ToolResult::of(self.w.turn, self.w.step, part);
            data.outcome = Some("unknown".into());
            self.w.emit(EventKind::ToolResult, data, origin, out);
        }
    }

    /// `turn_ended`: its calls settled, unknown; the turn ends as its
    /// `status` says (`aborted`: the user stopped it, not an error).
    fn turn_ended(&mut self, v: &Value, origin: Origin, out: &mut Out) {
        self.settle_unknown(origin, out);
        if !self.w.turn_open {
            return;
        }
        let status = v.get("status").and_then(Value::as_str);
        let message = v.get("error").and_then(Value::as_str).map(str::to_string);
        let reason = match status {
            Some("success" | "completed") | None => TurnEndReason {
                kind: Some("completed".into()),
                ..TurnEndReason::default()
            },
            Some("aborted" | "cancelled") => TurnEndReason {
                kind: Some("aborted".into()),
                message,
                ..TurnEndReason::default()
            },
            Some(other) => TurnEndReason {
                kind: Some("error".into()),
                error: Some(Some(Failure {
                    message: Some(message),
                    code: Some(other.to_string()),
                })),
                ..TurnEndReason::default()
            },
        };
        self.w.turn_open = false;
        let data = TurnEnd {
            turn: Some(self.w.turn),
            reason: Some(reason),
            usage: None,
        };
        self.w.emit(EventKind::TurnEnd, data, origin, out);
    }
}

fn kind(b: &Value) -> Option<&str> {
    b.get("type").and_then(Value::as_str)
}

/// The prompt a user line holds: inside `<user_query>` when it is there,
/// else the text without its `<timestamp>` line.
fn query(text: &str) -> String {
    if let Some((_, rest)) = text.split_once("<user_query>") {
        let inner = rest.split_once("</user_query>").map_or(rest, |(q, _)| q);
        return inner.trim_matches('\n').to_string();
    }
    match text.strip_prefix("<timestamp>").and_then(|r| r.split_once("</timestamp>")) {
        Some((_, rest)) => rest.trim_start_matches('\n').to_string(),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests;
