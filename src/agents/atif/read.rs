//! Harbor's Agent Trajectory Interchange Format (ATIF, `trajectory.json`)
//! read into deck's records. A trajectory is one JSON document: the root
//! (`schema_version` `ATIF-v…`, `session_id`, `agent` {`name`, `version`,
//! `model_name`}, `final_metrics`) and its `steps`; `Agent::document` hands
//! the root (without its steps) and then each step to this reader as lines,
//! and a root read as one line with its steps inline is read the same.
//!
//! * a `user` step is a prompt: a turn, ended by the next prompt or the
//!   trajectory's end;
//! * an `agent` step is the model's answer: its `reasoning_content` and
//!   `message`, its `tool_calls` (`tool_call_id`, `function_name`,
//!   `arguments`) and, in its `observation.results`, each call's result
//!   (`source_call_id`, `content`); its `metrics` are the turn's tokens
//!   (`prompt_tokens` counts the `cached_tokens` in it);
//! * a `system` step (the system prompt, system events) is not drawn.
//!
//! What ATIF does not say stays unknown: whether a call succeeded (a result
//! is only text: every result's outcome is `unknown`), exit codes,
//! when a result came (its time is left unknown: no duration is claimed),
//! the session's directory. A result that answers no call (a
//! step's action without a tool call) is not drawn.

#[cfg(test)]
mod tests;

use serde_json::Value;

use crate::agents::read::{Out, Translate, epoch_ms};
use crate::agents::turns::{self, Turns};
use crate::wire::payload::{PartContent, ResultPart, ToolCall, ToolResult};
use crate::wire::{EventKind, Origin};

use super::NAME;

/// Whether `v` is a trajectory's root: a `schema_version` `ATIF-v…` and
/// its `agent`.
pub fn is_root(v: &Value) -> bool {
    v.get("schema_version").and_then(Value::as_str).is_some_and(|s| s.starts_with("ATIF-v"))
        && v.get("agent").is_some_and(Value::is_object)
}

/// Reads one trajectory.
#[derive(Debug)]
pub struct Reader {
    w: Turns,
}

impl Default for Reader {
    fn default() -> Reader {
        Reader { w: Turns::new(NAME) }
    }
}

impl Translate for Reader {
    fn line(&mut self, v: &Value, origin: Origin, out: &mut Out) {
        if is_root(v) {
            self.root(v);
            for s in v.get("steps").and_then(Value::as_array).into_iter().flatten() {
                self.step(s, origin, out);
            }
            return;
        }
        if v.get("step_id").is_some() && v.get("source").is_some_and(Value::is_string) {
            return self.step(v, origin, out);
        }
        self.w.diagnostic("ATIF: neither a trajectory nor a step".into(), v, origin, out);
    }

    fn finish(&mut self, out: &mut Out) {
        if self.w.turn_open {
            self.w.end_turn(Origin::default(), out);
        }
        self.w.finish(out);
    }
}

impl Reader {
    /// The root: the session's id, the agent that ran and its model.
    fn root(&mut self, v: &Value) {
        let s = |p: &str| v.pointer(p).and_then(Value::as_str).map(Value::from);
        self.w.session = v.get("session_id").and_then(Value::as_str).map(str::to_string);
        for (key, value) in [
            ("id", s("/session_id")),
            ("agentName", s("/agent/name")),
            ("version", s("/agent/version")),
            ("model", s("/agent/model_name")),
            ("schemaVersion", s("/schema_version")),
        ] {
            if let Some(value) = value {
                self.w.learn(key, value);
            }
        }
    }

    fn step(&mut self, s: &Value, origin: Origin, out: &mut Out) {
        if let Some(t) = s.get("timestamp").and_then(Value::as_str).and_then(epoch_ms) {
            self.w.saw(t);
        }
        match s.get("source").and_then(Value::as_str) {
            Some("user") => self.w.prompt(message(s), origin, out),
            Some("agent") => self.answer(s, origin, out),
            Some("system") => {}
            _ => self.w.diagnostic("ATIF: a step of no known source".into(), s, origin, out),
        }
    }

    /// An agent step: reasoning and message, calls, their results, tokens.
    fn answer(&mut self, s: &Value, origin: Origin, out: &mut Out) {
        if !self.w.turn_open {
            self.w.start_turn(origin, out);
        }
        self.w.step += 1;
        if let Some(m) = s.get("model_name").and_then(Value::as_str)
            && !self.w.knows("model", m)
        {
            self.w.learn("model", m.into());
        }
        if let Some(m) = s.get("metrics") {
            let n = |k: &str| m.get(k).and_then(Value::as_u64);
            let cached = n("cached_tokens");
            let input = n("prompt_tokens").and_then(|p| p.checked_sub(cached.unwrap_or(0)));
            let reasoning = m.pointer("/extra/reasoning_tokens").and_then(Value::as_u64);
            self.w.count([input, n("completion_tokens"), cached, reasoning]);
        }
        let mut blocks = Vec::new();
        let reasoning = s.get("reasoning_content").and_then(Value::as_str).unwrap_or_default();
        if !reasoning.trim().is_empty() {
            blocks.push(Some(turns::block("reasoning", reasoning.to_string())));
        }
        let text = message(s);
        if !text.trim().is_empty() {
            blocks.push(Some(turns::block("text", text)));
        }
        self.w.answer(blocks, origin, out);
        let results: Vec<&Value> =
            s.pointer("/observation/results").and_then(Value::as_array).map(|r| r.iter().collect()).unwrap_or_default();
        for call in s.get("tool_calls").and_then(Value::as_array).into_iter().flatten() {
            let Some(id) = call.get("tool_call_id").and_then(Value::as_str) else {
                self.w.diagnostic("ATIF: a tool call without its tool_call_id".into(), call, origin, out);
                continue;
            };
            let data = ToolCall {
                turn: Some(self.w.turn),
                step: Some(self.w.step),
                call_id: Some(id.to_string()),
                name: call.get("function_name").and_then(Value::as_str).map(str::to_string),
                arguments: Some(Value::String(
                    call.get("arguments").map_or_else(|| "{}".to_string(), Value::to_string),
                )),
            };
            self.w.emit(EventKind::ToolCall, data, origin, out);
        }
        for r in results {
            let Some(id) = r.get("source_call_id").and_then(Value::as_str) else {
                continue;
            };
            let text = r.get("content").map(content_text).unwrap_or_default();
            let part = ResultPart::answering(id, PartContent::Text(text.into()), false);
            let mut data = ToolResult::of(self.w.turn, self.w.step, part);
            // ATIF says nothing of how a call ended, nor when.
            data.outcome = Some("unknown".into());
            self.w.emit_at(EventKind::ToolResult, data, 0, origin, out);
        }
    }
}

/// A step's `message` (a string; text parts when it is a list of them).
fn message(s: &Value) -> String {
    s.get("message").map(content_text).unwrap_or_default()
}

/// Text, or the `text` of a list of parts (`{"type": "text", "text"}`).
fn content_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(parts) => {
            let texts: Vec<&str> = parts.iter().filter_map(|p| p.get("text").and_then(Value::as_str)).collect();
            texts.join("\n")
        }
        _ => String::new(),
    }
}

/// The trajectory `doc` as the lines its reader takes, as the loader hands
/// them (`load/document.rs`): the root without its steps, then each step.
#[cfg(test)]
pub fn lines(doc: &Value) -> Option<Vec<Value>> {
    if !is_root(doc) {
        return None;
    }
    let mut root = doc.as_object()?.clone();
    let steps = match root.remove("steps") {
        Some(Value::Array(s)) => s,
        _ => Vec::new(),
    };
    Some(std::iter::once(Value::Object(root)).chain(steps).collect())
}
