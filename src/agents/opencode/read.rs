//! OpenCode's rows (`store.rs` from its database, `storage.rs` from its
//! older tree of JSON files: a session, then its messages each followed by
//! its parts) read into DSH-shaped records.
//!
//! * a `session` row: the session — its id, directory, version, title, when
//!   it started; a database holds many, each its own session;
//! * a `user` message: a prompt, its text the message's text parts (an
//!   `opencode run` prompt is stored, and was sent, inside the quotes the CLI
//!   put around it: shown as stored); a turn;
//! * an `assistant` message: one model response (a step), its `tokens`
//!   counted once; its parts: `reasoning` and `text`, and `tool` parts —
//!   each a call (`callID`, `tool`, `state.input`) made when it started, its
//!   result when `state.status` is `completed` (output; a command's exit
//!   code in `metadata.exit`) or `error` (`state.error`; "Tool execution
//!   aborted" is a cancel, not an error), its duration `time.end -
//!   time.start`. `step-start`, `step-finish` (the step's tokens again) and
//!   `patch` (the files a step changed) draw nothing.
//!
//! An assistant message whose `error` is `MessageAbortedError` ends its
//! turn `aborted` (a cancel); another error ends it `error` with its
//! message. A `pending` or `running` part (the agent still at it, or killed)
//! is a call without a result.

use std::collections::HashMap;

use serde_json::{Map, Value};

use crate::agents::read::{Out, Translate};
use crate::agents::turns::{self, Turns};
use crate::wire::payload::{
    AssistantMessage, Json, MessageContent, PartContent, ResultError, ResultPart, ToolCall, ToolResult,
};
use crate::wire::{EventKind, Origin};

/// What OpenCode writes when a running tool is stopped by the user.
const ABORTED: &str = "Tool execution aborted";

/// The metadata of a tool's state a card uses (a bash's `output` repeats
/// its result's text, an edit's `filediff` its `diff`: left out).
const META: &[&str] = &["exit", "diff", "exists", "filepath", "truncated", "count", "matches"];

/// Reads the rows of one database, in order, into records.
#[derive(Debug, Default)]
pub struct Reader {
    /// The current session's header, seqs, turns and usage.
    w: Option<Turns>,
    /// The current message: its role, and for a user message the text of
    /// its parts so far (the prompt, sent when the next row comes).
    role: Role,
    prompt: Vec<String>,
    /// Calls that went out, by id, with whether their result did.
    calls: HashMap<String, bool>,
    /// How the current turn ends, when one of its responses said.
    ending: Option<(&'static str, Option<String>)>,
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Role {
    #[default]
    None,
    User,
    Assistant,
}

impl Translate for Reader {
    fn line(&mut self, v: &Value, origin: Origin, out: &mut Out) {
        let Some(o) = v.as_object() else {
            return;
        };
        match o.get("opencode").and_then(Value::as_str) {
            Some("session") => {
                self.end_session(origin, out);
                self.session(o, origin, out);
            }
            Some("message") => {
                self.send_prompt(origin, out);
                self.message(o, origin, out);
            }
            Some("part") => self.part(v, o, origin, out),
            // A file of the older tree (`storage.rs`) that cannot be read.
            Some("unreadable") => {
                if let Some(w) = self.w.as_mut() {
                    let file = str_of(o, "file").unwrap_or_default();
                    let reason = str_of(o, "reason").unwrap_or_default();
                    w.diagnostic(format!("an OpenCode file that cannot be read: {file}: {reason}"), v, origin, out);
                }
            }
            _ => {}
        }
    }

    fn finish(&mut self, out: &mut Out) {
        self.end_session(Origin::default(), out);
    }
}

fn str_of<'a>(o: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    o.get(key).and_then(Value::as_str)
}

impl Reader {
    /// A session starts: its header learnt from its row, its title said.
    fn session(&mut self, o: &Map<String, Value>, origin: Origin, out: &mut Out) {
        let mut w = Turns::new(super::NAME);
        w.session = str_of(o, "id").map(str::to_string);
        if let Some(id) = &w.session {
            w.learn("id", Value::from(id.as_str()));
        }
        if let Some(cwd) = str_of(o, "directory") {
            w.learn("cwd", Value::from(cwd));
        }
        if let Some(v) = str_of(o, "version") {
            w.learn("version", Value::from(v));
        }
        if let Some(t) = o.get("time_created").and_then(Value::as_i64) {
            w.learn("startedMs", Value::from(t));
            w.saw(t);
        }
        if let Some(parent) = str_of(o, "parent_id") {
            w.learn("parentId", Value::from(parent));
        }
        if let Some(title) = str_of(o, "title").filter(|t| !t.is_empty()) {
            let data = crate::wire::payload::SessionTitle {
                title: Some(title.to_string()),
            };
            w.emit(EventKind::SessionTitle, data, origin, out);
        }
        self.w = Some(w);
    }

    /// The session ends: its prompt sent, its open turn ended (when every
    /// call it made came back), its header out.
    fn end_session(&mut self, origin: Origin, out: &mut Out) {
        self.send_prompt(origin, out);
        if let Some(mut w) = self.w.take() {
            if w.turn_open && self.calls.values().all(|settled| *settled) {
                let (kind, message) = self.ending.take().unwrap_or(("completed", None));
                w.end_turn_as(kind, message, origin, out);
            }
            w.finish(out);
        }
        self.calls.clear();
        self.ending = None;
        self.role = Role::None;
    }

    /// A message starts: a user's (its prompt comes in its parts), or a
    /// model response.
    fn message(&mut self, o: &Map<String, Value>, origin: Origin, out: &mut Out) {
        let Some(w) = self.w.as_mut() else {
            return;
        };
        let data = o.get("data").and_then(Value::as_object);
        if let Some(t) = o.get("time_created").and_then(Value::as_i64) {
            w.saw(t);
        }
        match data.and_then(|d| str_of(d, "role")) {
            Some("user") => self.role = Role::User,
            Some("assistant") => {
                self.role = Role::Assistant;
                if !w.turn_open {
                    w.start_turn(origin, out);
                }
                w.step += 1;
                let Some(d) = data else {
                    return;
                };
                if let (Some(p), Some(m)) = (str_of(d, "providerID"), str_of(d, "modelID")) {
                    let model = format!("{p}/{m}");
                    if !w.knows("model", &model) {
                        w.learn("model", Value::from(model));
                    }
                }
                if let Some(t) = d.get("tokens") {
                    let n = |v: Option<&Value>| v.and_then(Value::as_u64);
                    let cache = t.get("cache");
                    w.count([
                        n(t.get("input")),
                        n(t.get("output")),
                        n(cache.and_then(|c| c.get("read"))),
                        n(t.get("reasoning")),
                    ]);
                }
                if let Some(e) = d.get("error") {
                    let name = e.get("name").and_then(Value::as_str).unwrap_or_default();
                    let message = e.pointer("/data/message").and_then(Value::as_str).map(str::to_string);
                    self.ending = Some(match name {
                        "MessageAbortedError" => ("aborted", message),
                        _ => ("error", message.or_else(|| Some(name.to_string()))),
                    });
                }
            }
            _ => self.role = Role::None,
        }
    }

    /// The user message's prompt, once its parts are in.
    fn send_prompt(&mut self, origin: Origin, out: &mut Out) {
        if self.prompt.is_empty() {
            return;
        }
        let text = std::mem::take(&mut self.prompt).join("\n");
        if let Some(w) = self.w.as_mut() {
            if w.turn_open && self.calls.values().all(|settled| *settled) {
                let (kind, message) = self.ending.take().unwrap_or(("completed", None));
                w.end_turn_as(kind, message, origin, out);
            }
            self.ending = None;
            w.prompt(text, origin, out);
        }
    }

    fn part(&mut self, raw: &Value, o: &Map<String, Value>, origin: Origin, out: &mut Out) {
        let Some(d) = o.get("data").and_then(Value::as_object) else {
            return;
        };
        let kind = str_of(d, "type").unwrap_or_default();
        let synthetic = d.get("synthetic") == Some(&Value::Bool(true));
        match (self.role, kind) {
            (Role::User, "text") if !synthetic => {
                self.prompt.extend(str_of(d, "text").map(str::to_string));
            }
            (Role::Assistant, "text" | "reasoning") if !synthetic => {
                let text = str_of(d, "text").filter(|t| !t.is_empty());
                let Some((w, text)) = self.w.as_mut().zip(text) else {
                    return;
                };
                let data = AssistantMessage {
                    turn: Some(w.turn),
                    step: Some(w.step),
                    message: Some(MessageContent {
                        content: Some(vec![Some(turns::block(kind, text.to_string()))]),
                        ..MessageContent::default()
                    }),
                    ..AssistantMessage::default()
                };
                let time = d.get("time").and_then(|t| t.get("start")).and_then(Value::as_i64).unwrap_or(w.time);
                w.emit_at(EventKind::AssistantMessage, data, time, origin, out);
            }
            (Role::Assistant, "tool") => self.tool(raw, d, origin, out),
            (_, "text" | "reasoning" | "step-start" | "step-finish" | "patch" | "snapshot" | "file") => {}
            (_, other) => {
                if let Some(w) = self.w.as_mut() {
                    w.diagnostic(format!("an OpenCode part of type {other:?}: not drawn"), raw, origin, out);
                }
            }
        }
    }

    /// A tool part: its call, and its result once settled.
    fn tool(&mut self, raw: &Value, d: &Map<String, Value>, origin: Origin, out: &mut Out) {
        let Some(w) = self.w.as_mut() else {
            return;
        };
        let (Some(id), Some(tool)) = (str_of(d, "callID"), str_of(d, "tool")) else {
            w.diagnostic("an OpenCode tool part without its callID or tool".into(), raw, origin, out);
            return;
        };
        let state = d.get("state").and_then(Value::as_object);
        let field = |k: &str| state.and_then(|s| s.get(k));
        let start = field("time").and_then(|t| t.get("start")).and_then(Value::as_i64);
        let end = field("time").and_then(|t| t.get("end")).and_then(Value::as_i64);
        if !self.calls.contains_key(id) {
            self.calls.insert(id.to_string(), false);
            let args = field("input").filter(|i| i.is_object()).map_or_else(|| "{}".into(), Value::to_string);
            let data = ToolCall {
                turn: Some(w.turn),
                step: Some(w.step),
                call_id: Some(id.to_string()),
                name: Some(tool.to_string()),
                arguments: Some(Value::String(args)),
            };
            w.emit_at(EventKind::ToolCall, data, start.unwrap_or(w.time), origin, out);
        }
        let status = field("status").and_then(Value::as_str);
        let (text, is_error) = match status {
            Some("completed") => (field("output").and_then(Value::as_str).unwrap_or_default(), false),
            Some("error") => (field("error").and_then(Value::as_str).unwrap_or_default(), true),
            _ => return,
        };
        if self.calls.insert(id.to_string(), true) == Some(true) {
            return;
        }
        let meta = field("metadata").and_then(Value::as_object);
        let part = ResultPart::answering(id, PartContent::Text(text.to_string().into()), is_error);
        let mut data = ToolResult::of(w.turn, w.step, part);
        if is_error && text == ABORTED {
            data.error = Some(ResultError {
                code: Some("ABORTED".into()),
                ..ResultError::default()
            });
        }
        data.exit_code = meta.and_then(|m| m.get("exit")).and_then(Value::as_i64);
        data.duration_ms = start.zip(end).map(|(s, e)| e - s).filter(|ms| *ms >= 0);
        let kept: Map<String, Value> = meta
            .into_iter()
            .flatten()
            .filter(|(k, _)| META.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        data.meta = (!kept.is_empty()).then(|| Json::Tree(Value::Object(kept)));
        if let Some(e) = end {
            w.saw(e);
        }
        w.emit_at(EventKind::ToolResult, data, end.unwrap_or(0), origin, out);
    }
}


#[cfg(test)]
mod tests;
