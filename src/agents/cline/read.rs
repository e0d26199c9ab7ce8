//! The Cline CLI's conversation (`~/.cline/data/sessions/<id>/<id>.messages.
//! json`, one JSON document rewritten whole) read into DSH-shaped records.
//! The document is `{version, updated_at, agent, sessionId, origin: {source,
//! mode, sessionId, version}, messages, system_prompt}`; each message `{id,
//! role, content, ts}` (epoch ms) holds Anthropic-style blocks:
//!
//! * `user`: a prompt's `text` (wrapped: `<user_input mode="act">…
//!   </user_input>`) — a turn; or one `tool_result {tool_use_id, name,
//!   content, is_error?}` (each result its own message, in call order);
//! * `assistant`: `thinking`, `text`, `tool_use {id, name, input}`, with
//!   `modelInfo {id, provider}` and `metrics` (the response's tokens).
//!
//! What this reader decides: a result's `content` is a list of entries, one
//! per item of a batched call (`{query, result, error?, success}`), or one
//! such object written as a JSON string (editor, apply_patch), or a
//! refusal's `{"error": …}` string; the entries go to the cards as the
//! result's `meta` (`{"entries": [...]}`), its text is theirs joined. A
//! result is an error when `is_error` says so or every entry failed; a
//! batch some of whose items failed is not (its card says which). A
//! command's exit code ([`exit_code`]): `[Command exited with code N]` at
//! the head of its result, 0 for `success: true` (the CLI resolves a
//! command only when it exits 0), else unknown; a batch's is its first
//! non-zero one, else 0 when every command's is known.

use std::collections::HashMap;

use serde_json::{Map, Value};

use crate::agents::read::{Out, Translate};
use crate::agents::turns::{self, Turns};
use crate::wire::payload::{
    ContentBlock, Json, PartContent, ResultPart, ToolCall, ToolResult,
};
use crate::wire::{EventKind, Origin};

/// Whether `v` is a Cline CLI conversation document, from its shape alone.
pub fn is_document(v: &Value) -> bool {
    let Some(o) = v.as_object() else {
        return false;
    };
    o.get("sessionId").is_some_and(Value::is_string)
        && o.get("messages").is_some_and(Value::is_array)
        && o.get("origin").and_then(|g| g.get("source")).is_some_and(Value::is_string)
}

/// The command tool, whose entries carry exit codes.
pub(crate) const COMMANDS: &str = "run_commands";

/// A result's entries: its `content` as a list of objects, or the one
/// object a string holds; `None` when it is neither.
pub(crate) fn entries(content: &Value) -> Option<Vec<Value>> {
    match content {
        Value::Array(items) => Some(items.iter().filter(|e| e.is_object()).cloned().collect()),
        Value::String(s) => match serde_json::from_str::<Value>(s) {
            Ok(v @ Value::Object(_)) => Some(vec![v]),
            _ => None,
        },
        _ => None,
    }
}

/// One command's exit code, as its entry says it (see the module's doc).
pub(crate) fn entry_exit(entry: &Value) -> Option<i64> {
    let text = entry.get("result").and_then(Value::as_str).unwrap_or_default();
    if let Some(rest) = text.strip_prefix("[Command exited with code ")
        && let Some((code, _)) = rest.split_once(']')
    {
        return code.parse().ok();
    }
    (entry.get("success") == Some(&Value::Bool(true))).then_some(0)
}

/// A batch of commands' exit code: its first non-zero one, else 0 when
/// every command's is known.
pub(crate) fn exit_code(entries: &[Value]) -> Option<i64> {
    let codes: Vec<Option<i64>> = entries.iter().map(entry_exit).collect();
    if let Some(bad) = codes.iter().flatten().find(|c| **c != 0) {
        return Some(*bad);
    }
    (!codes.is_empty() && codes.iter().all(Option::is_some)).then_some(0)
}

/// Whether an entry says its item failed.
pub(crate) fn failed(entry: &Value) -> bool {
    entry.get("success") == Some(&Value::Bool(false))
}

/// An entry's text: its result, else its error.
pub(crate) fn entry_text(entry: &Value) -> &str {
    let get = |k: &str| entry.get(k).and_then(Value::as_str).filter(|s| !s.is_empty());
    get("result").or_else(|| get("error")).unwrap_or_default()
}

/// Reads one conversation document into records.
#[derive(Debug)]
pub struct Reader {
    /// The session's header, seqs, turns and usage.
    w: Turns,
    /// Calls that went out, by id, with their tool and whether their
    /// result came.
    calls: HashMap<String, (String, bool)>,
}

impl Default for Reader {
    fn default() -> Reader {
        Reader {
            w: Turns::new(super::NAME),
            calls: HashMap::new(),
        }
    }
}

impl Translate for Reader {
    fn line(&mut self, v: &Value, origin: Origin, out: &mut Out) {
        let Some(o) = v.as_object() else {
            return;
        };
        self.learn_from(o);
        let messages = o.get("messages").and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
        for m in messages {
            if let Some(m) = self.w.object(m, "message", origin, out) {
                self.message(m, origin, out);
            }
        }
    }

    /// A message of a session read as a stream (its other members came
    /// first, as a line).
    fn entry(&mut self, m: Value, origin: Origin, out: &mut Out) {
        if let Some(o) = self.w.object(&m, "message", origin, out) {
            self.message(o, origin, out);
        }
    }

    fn finish(&mut self, out: &mut Out) {
        if self.w.turn_open && self.calls.values().all(|(_, settled)| *settled) {
            self.w.end_turn(Origin::default(), out);
        }
        self.w.finish(out);
    }
}

impl Reader {
    /// The session's id and the CLI's version, as the document says.
    fn learn_from(&mut self, o: &Map<String, Value>) {
        if self.w.session.is_none() {
            self.w.session = o.get("sessionId").and_then(Value::as_str).map(str::to_string);
            if let Some(id) = self.w.session.clone() {
                self.w.learn("id", Value::from(id));
            }
        }
        if let Some(v) = o.get("origin").and_then(|g| g.get("version")).and_then(Value::as_str) {
            self.w.learn("version", Value::from(v));
        }
    }

    fn message(&mut self, m: &Map<String, Value>, origin: Origin, out: &mut Out) {
        if let Some(ts) = m.get("ts").and_then(Value::as_i64) {
            self.w.saw(ts);
        }
        let blocks: &[Value] = match m.get("content") {
            Some(Value::Array(b)) => b,
            _ => &[],
        };
        match m.get("role").and_then(Value::as_str) {
            Some("user") => {
                let text: Vec<&str> = blocks
                    .iter()
                    .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
                    .filter_map(|b| b.get("text")?.as_str())
                    .collect();
                let text = unwrap_input(&text.join("\n"));
                if !text.trim().is_empty() {
                    self.w.prompt(text, origin, out);
                }
                for b in blocks.iter().filter(|b| b.get("type").and_then(Value::as_str) == Some("tool_result")) {
                    self.result(b, origin, out);
                }
            }
            Some("assistant") => self.model(m, blocks, origin, out),
            _ => {}
        }
    }

    /// A model response: its thinking and text, then its calls.
    fn model(&mut self, m: &Map<String, Value>, blocks: &[Value], origin: Origin, out: &mut Out) {
        if !self.w.turn_open {
            self.w.start_turn(origin, out);
        }
        self.w.step += 1;
        if let Some(model) = m.get("modelInfo").and_then(|i| i.get("id")).and_then(Value::as_str)
            && !self.w.knows("model", model)
        {
            self.w.learn("model", Value::from(model));
        }
        if let Some(u) = m.get("metrics") {
            let n = |k: &str| u.get(k).and_then(Value::as_u64);
            self.w.count([n("inputTokens"), n("outputTokens"), n("cacheReadTokens"), None]);
        }
        let said: Vec<Option<ContentBlock>> = blocks
            .iter()
            .filter_map(|b| {
                let (kind, key) = match b.get("type").and_then(Value::as_str)? {
                    "text" => ("text", "text"),
                    "thinking" => ("reasoning", "thinking"),
                    _ => return None,
                };
                let text = b.get(key)?.as_str().filter(|t| !t.is_empty())?;
                Some(Some(turns::block(kind, text.to_string())))
            })
            .collect();
        self.w.answer(said, origin, out);
        for b in blocks.iter().filter(|b| b.get("type").and_then(Value::as_str) == Some("tool_use")) {
            let (Some(id), Some(name)) = (b.get("id").and_then(Value::as_str), b.get("name").and_then(Value::as_str))
            else {
                self.w.diagnostic("a tool_use without its id or name".into(), b, origin, out);
                continue;
            };
            self.calls.insert(id.to_string(), (name.to_string(), false));
            let data = ToolCall {
                turn: Some(self.w.turn),
                step: Some(self.w.step),
                call_id: Some(id.to_string()),
                name: Some(name.to_string()),
                arguments: Some(Value::String(b.get("input").map_or_else(|| "{}".into(), Value::to_string))),
            };
            self.w.emit(EventKind::ToolCall, data, origin, out);
        }
    }

    /// A call's result: its entries, their text, whether it failed.
    fn result(&mut self, b: &Value, origin: Origin, out: &mut Out) {
        let Some(id) = b.get("tool_use_id").and_then(Value::as_str) else {
            self.w.diagnostic("a tool_result without its tool_use_id".into(), b, origin, out);
            return;
        };
        let tool = match self.calls.get_mut(id) {
            Some((_, true)) => return,
            Some((tool, settled)) => {
                *settled = true;
                tool.clone()
            }
            None => b.get("name").and_then(Value::as_str).unwrap_or_default().to_string(),
        };
        let content = b.get("content").unwrap_or(&Value::Null);
        let refused = b.get("is_error") == Some(&Value::Bool(true));
        let entries = entries(content);
        let text = match (&entries, content) {
            (Some(e), _) if !refused => joined(e),
            (_, Value::String(s)) => s.clone(),
            (_, other) => other.to_string(),
        };
        let is_error = refused || entries.as_ref().is_some_and(|e| !e.is_empty() && e.iter().all(failed));
        let part = ResultPart::answering(id, PartContent::Text(text.into()), is_error);
        let mut data = ToolResult::of(self.w.turn, self.w.step, part);
        if tool == COMMANDS && !refused {
            data.exit_code = entries.as_deref().and_then(exit_code);
        }
        data.meta = entries
            .filter(|_| !refused)
            .map(|e| Json::Tree(Value::Object(Map::from_iter([("entries".to_string(), Value::Array(e))]))));
        self.w.emit(EventKind::ToolResult, data, origin, out);
    }
}

/// A prompt as typed: the `<user_input mode="…">…</user_input>` wrapper off.
fn unwrap_input(text: &str) -> String {
    let t = text.trim();
    if let Some(rest) = t.strip_prefix("<user_input")
        && let Some((_, body)) = rest.split_once('>')
        && let Some(body) = body.strip_suffix("</user_input>")
    {
        return body.to_string();
    }
    text.to_string()
}

/// Entries' texts: one's alone; several each under its query.
fn joined(entries: &[Value]) -> String {
    if let [one] = entries {
        return entry_text(one).to_string();
    }
    let parts: Vec<String> = entries
        .iter()
        .map(|e| format!("{}\n{}", e.get("query").and_then(Value::as_str).unwrap_or_default(), entry_text(e)))
        .collect();
    parts.join("\n\n")
}

#[cfg(test)]
mod tests;
