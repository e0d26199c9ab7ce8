//! Qwen Code's session files (`~/.qwen/projects/<project>/chats/<id>.jsonl`)
//! read into DSH-shaped records. One record a line, each written once,
//! chained by `uuid`/`parentUuid`, every line with its `sessionId`, `cwd`,
//! `version` and `provenance`; the bodies are Gemini API `parts`:
//!
//! * `user` (`real_user`): a prompt's text parts — a turn;
//! * `assistant`: thought parts (`thought: true`), text, and `functionCall`s
//!   (`{id, name, args}`), with the response's `usageMetadata`;
//! * `tool_result`: the `functionResponse` (`output`, or `error`) and
//!   `toolCallResult` (`status`, `resultDisplay` — a shell's `exitCode` and
//!   `outcome`, an edit's `fileDiff` —, `errorType`);
//! * `system`: `ui_telemetry` (a tool call's `duration_ms`, the only place
//!   it is said, and the name of the tool a deferred call ran) and
//!   `attribution_snapshot` (nothing drawn).
//!
//! What this reader decides: a deferred call (`tool_call {name, arguments}`,
//! after a `tool_search`) is drawn as the tool it ran, with its arguments;
//! a result's `status` `error` is an error (a shell command's exit code
//! and outcome are its terminal's: `failed`), `cancelled` a cancel; a
//! resume (`--continue`, `--resume`) only appends, its prompt a new turn.

use std::collections::HashMap;

use serde_json::{Map, Value};

use crate::agents::read::{Out, Translate, epoch_ms};
use crate::agents::turns::{self, Turns};
use crate::wire::payload::{
    ContentBlock, Json, PartContent, ResultError, ResultPart, ToolCall, ToolResult,
};
use crate::wire::{EventKind, Origin};

/// Whether `v` is a line of a Qwen Code session file, from its shape alone.
pub fn is_line(v: &Value) -> bool {
    let Some(o) = v.as_object() else {
        return false;
    };
    o.get("uuid").is_some_and(Value::is_string)
        && o.get("sessionId").is_some_and(Value::is_string)
        && o.get("provenance").is_some_and(Value::is_string)
        && o.get("type").is_some_and(Value::is_string)
}

/// Reads one session file's lines, in order, into records.
#[derive(Debug)]
pub struct Reader {
    /// The session's header, seqs, turns and usage.
    w: Turns,
    /// Calls that went out, by id, with whether their result did.
    calls: HashMap<String, bool>,
    /// What the telemetry said of a call before its result came: how
    /// long it ran.
    durations: HashMap<String, i64>,
}

impl Default for Reader {
    fn default() -> Reader {
        Reader {
            w: Turns::new(super::NAME),
            calls: HashMap::new(),
            durations: HashMap::new(),
        }
    }
}

impl Translate for Reader {
    fn line(&mut self, v: &Value, origin: Origin, out: &mut Out) {
        let Some(o) = v.as_object() else {
            return;
        };
        if let Some(t) = o.get("timestamp").and_then(Value::as_str).and_then(epoch_ms) {
            self.w.saw(t);
        }
        self.learn_from(o);
        let parts = o
            .get("message")
            .and_then(|m| m.get("parts"))
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice);
        match o.get("type").and_then(Value::as_str) {
            Some("user") => {
                let text: Vec<&str> = parts.iter().filter_map(|p| p.get("text")?.as_str()).collect();
                let text = text.join("");
                if !text.trim().is_empty() {
                    self.w.prompt(text, origin, out);
                }
            }
            Some("assistant") => self.model(o, parts, origin, out),
            Some("tool_result") => self.result(o, parts, origin, out),
            Some("system") => self.system(o),
            _ => {}
        }
    }

    fn finish(&mut self, out: &mut Out) {
        if self.w.turn_open && self.calls.values().all(|settled| *settled) {
            self.w.end_turn(Origin::default(), out);
        }
        self.w.finish(out);
    }
}

impl Reader {
    /// The session's id, directory, version and model, as its lines say.
    fn learn_from(&mut self, o: &Map<String, Value>) {
        if self.w.session.is_none() {
            self.w.session = o.get("sessionId").and_then(Value::as_str).map(str::to_string);
            if let Some(id) = self.w.session.clone() {
                self.w.learn("id", Value::from(id));
            }
        }
        for (key, field) in [("cwd", "cwd"), ("version", "version"), ("model", "model")] {
            if let Some(v) = o.get(key).and_then(Value::as_str)
                && !self.w.knows(field, v)
            {
                self.w.learn(field, Value::from(v));
            }
        }
    }

    /// A model response: its thoughts and text, then its calls.
    fn model(&mut self, o: &Map<String, Value>, parts: &[Value], origin: Origin, out: &mut Out) {
        if !self.w.turn_open {
            self.w.start_turn(origin, out);
        }
        self.w.step += 1;
        if let Some(u) = o.get("usageMetadata") {
            self.count(u);
        }
        let blocks: Vec<Option<ContentBlock>> = parts
            .iter()
            .filter_map(|p| {
                let text = p.get("text")?.as_str().filter(|t| !t.is_empty())?;
                let kind = if p.get("thought") == Some(&Value::Bool(true)) { "reasoning" } else { "text" };
                Some(Some(turns::block(kind, text.to_string())))
            })
            .collect();
        self.w.answer(blocks, origin, out);
        for call in parts.iter().filter_map(|p| p.get("functionCall")) {
            let Some(id) = call.get("id").and_then(Value::as_str) else {
                continue;
            };
            let (name, args) = ran(call);
            self.calls.insert(id.to_string(), false);
            let data = ToolCall {
                turn: Some(self.w.turn),
                step: Some(self.w.step),
                call_id: Some(id.to_string()),
                name: Some(name.to_string()),
                arguments: Some(Value::String(args.map_or_else(|| "{}".into(), Value::to_string))),
            };
            self.w.emit(EventKind::ToolCall, data, origin, out);
        }
    }

    /// A call's result: its response, and what `toolCallResult` says of it.
    fn result(&mut self, o: &Map<String, Value>, parts: &[Value], origin: Origin, out: &mut Out) {
        let info = o.get("toolCallResult");
        for f in parts.iter().filter_map(|p| p.get("functionResponse")) {
            let Some(id) = f.get("id").and_then(Value::as_str) else {
                continue;
            };
            if self.calls.get(id) == Some(&true) {
                continue;
            }
            self.calls.insert(id.to_string(), true);
            let response = f.get("response");
            let text = match (response.and_then(|r| r.get("output")), response.and_then(|r| r.get("error"))) {
                (Some(Value::String(s)), _) | (None, Some(Value::String(s))) => s.clone(),
                _ => response.map(Value::to_string).unwrap_or_default(),
            };
            let status = info.and_then(|i| i.get("status")).and_then(Value::as_str);
            let display = info.and_then(|i| i.get("resultDisplay")).filter(|d| d.is_object());
            let is_error = matches!(status, Some("error" | "cancelled"))
                || status.is_none() && response.is_some_and(|r| r.get("error").is_some());
            let part = ResultPart::answering(id, PartContent::Text(text.into()), is_error);
            let mut data = ToolResult::of(self.w.turn, self.w.step, part);
            if status == Some("cancelled") {
                data.error = Some(ResultError {
                    code: Some("ABORTED".into()),
                    ..ResultError::default()
                });
            }
            data.exit_code = display.and_then(|d| d.get("exitCode")).and_then(Value::as_i64);
            data.duration_ms = self.durations.remove(id);
            data.meta = display
                .map(|d| Json::Tree(Value::Object(Map::from_iter([("resultDisplay".to_string(), d.clone())]))));
            self.w.emit(EventKind::ToolResult, data, origin, out);
        }
    }

    /// Telemetry: how long a call ran, said before its result.
    fn system(&mut self, o: &Map<String, Value>) {
        let Some(e) = o.get("systemPayload").and_then(|p| p.get("uiEvent")) else {
            return;
        };
        if e.get("event.name").and_then(Value::as_str) != Some("qwen-code.tool_call") {
            return;
        }
        if let (Some(id), Some(ms)) = (
            e.get("call_id").and_then(Value::as_str),
            e.get("duration_ms").and_then(Value::as_i64),
        ) {
            self.durations.insert(id.to_string(), ms);
        }
    }

    /// Add a response's `usageMetadata` to the turn's usage.
    fn count(&mut self, u: &Value) {
        let n = |k: &str| u.get(k).and_then(Value::as_u64);
        let counts = ["promptTokenCount", "candidatesTokenCount", "cachedContentTokenCount", "thoughtsTokenCount"];
        self.w.count(counts.map(n));
    }

}

/// The tool a call ran and its arguments: a deferred call (`tool_call
/// {name, arguments}`) is the tool it names.
fn ran(call: &Value) -> (&str, Option<&Value>) {
    let name = call.get("name").and_then(Value::as_str).unwrap_or_default();
    let args = call.get("args");
    if name == "tool_call"
        && let Some(real) = args.and_then(|a| a.get("name")).and_then(Value::as_str)
    {
        return (real, args.and_then(|a| a.get("arguments")));
    }
    (name, args)
}

#[cfg(test)]
mod tests;
