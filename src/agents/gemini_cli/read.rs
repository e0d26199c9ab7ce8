//! Gemini CLI's session files (`~/.gemini/tmp/<project>/chats/session-*.jsonl`)
//! read into DSH-shaped records. The file is an append log:
//!
//! * a header `{sessionId, projectHash, startTime, lastUpdated, kind}`,
//!   written again on every `--resume`;
//! * `{"$set": {…}}` patch lines: `lastUpdated`; `messages`, the CLI's
//!   `<session_context>` (its workspace directories: the session's `cwd`)
//!   and, on a resume, the whole history again in another shape (results
//!   twice, every time the resume's) — what the lines before already said,
//!   so it is not read again; a message only a rewrite holds is said in a
//!   diagnostic, never dropped unsaid;
//! * messages `{id, timestamp, type, content, …}`: `user` (a prompt's text
//!   parts, or the `functionResponse`s of tool results), `gemini` (the
//!   model's text, `thoughts`, `tokens`, `model`, and `toolCalls` with each
//!   call's `args`, `status`, `result` and `resultDisplay`), and `info`,
//!   `warning`, `error` notes. A `gemini` message is written again under
//!   the same id as its calls complete: its calls go out once each, and
//!   each one's result when its status says it settled.
//!
//! What this reader decides: a prompt starts a turn (the one before ends
//! completed); a call's result is its `toolCalls` entry (a `functionResponse`
//! of a call never seen there is drawn from the response alone); `status`
//! `error` is an error, `cancelled` a cancel, not an error; a shell
//! command's exit code is the `Exit Code: N` its output says — the tool
//! writes that line only when N is not 0, so an output in the tool's
//! sections format without it (nor a `Signal:` or `Error:` line) exited 0;
//! a turn's token usage is the sum of its model messages' `tokens`.
//! Which card a call becomes is the presenters' business (`present.rs`).

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use crate::agents::read::{Out, Translate, epoch_ms};
use crate::agents::turns::{self, Turns};
use crate::wire::payload::{
    Json, MessageSource, PartContent,
    ResultError, ResultPart, TextOrObjects, ToolCall, ToolResult, UserMessage,
};
use crate::wire::{EventKind, Origin};

/// The types of a message line.
const MESSAGE_TYPES: &[&str] = &["user", "gemini", "info", "warning", "error"];

/// Whether `v` is a line of a Gemini CLI session file, from its shape alone.
pub fn is_line(v: &Value) -> bool {
    let Some(o) = v.as_object() else {
        return false;
    };
    if o.contains_key("seq") || o.contains_key("jsonrpc") || o.contains_key("payload") {
        return false;
    }
    if o.get("sessionId").is_some_and(Value::is_string)
        && o.get("projectHash").is_some_and(Value::is_string)
    {
        return true;
    }
    if o.len() == 1 && (o.contains_key("$set") || o.contains_key("$rewindTo")) {
        return true;
    }
    o.get("id").is_some_and(Value::is_string)
        && o.get("timestamp").is_some_and(Value::is_string)
        && o.contains_key("content")
        && !o.contains_key("message")
        && o.get("type").and_then(Value::as_str).is_some_and(|t| MESSAGE_TYPES.contains(&t))
}

/// Reads one session file's lines, in order, into records.
#[derive(Debug)]
pub struct Reader {
    /// The session's header, seqs, turns and usage.
    w: Turns,
    /// Whether the session's directory is still to be learnt.
    cwd_unknown: bool,
    /// Model messages seen, by id, with whether their text went out.
    said: HashMap<String, bool>,
    /// Calls that went out, by id: whether their result did, and when the
    /// call was made (0: not known).
    calls: HashMap<String, (bool, i64)>,
    /// Message ids written as lines (what a history rewrite repeats).
    lines: HashSet<String>,
}

impl Default for Reader {
    fn default() -> Reader {
        Reader {
            w: Turns::new(super::NAME),
            cwd_unknown: true,
            said: HashMap::new(),
            calls: HashMap::new(),
            lines: HashSet::new(),
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
        if o.contains_key("projectHash") {
            return self.session_line(o);
        }
        if let Some(set) = o.get("$set") {
            return self.set(set, origin, out);
        }
        if let Some(to) = o.get("$rewindTo") {
            let reason = format!(
                "Gemini CLI rewound the session to message {to}: it dropped the messages after it, which deck still shows"
            );
            return self.w.diagnostic(reason, v, origin, out);
        }
        let id = o.get("id").and_then(Value::as_str).unwrap_or_default().to_string();
        self.lines.insert(id.clone());
        match o.get("type").and_then(Value::as_str) {
            Some("user") => self.user(o, origin, out),
            Some("gemini") => self.model(&id, o, origin, out),
            Some(kind) => self.note(kind, o, origin, out),
            None => {}
        }
    }

    fn finish(&mut self, out: &mut Out) {
        // A turn whose every call settled ended with the model's answer.
        if self.w.turn_open && self.calls.values().all(|(settled, _)| *settled) {
            self.w.end_turn(Origin::default(), out);
        }
        self.w.finish(out);
    }
}

impl Reader {
    /// The header: the first one names the session; a resume writes it again.
    fn session_line(&mut self, o: &Map<String, Value>) {
        if self.w.session.is_some() {
            return;
        }
        let id = o.get("sessionId").and_then(Value::as_str).map(str::to_string);
        self.w.session.clone_from(&id);
        if let Some(id) = id {
            self.w.learn("id", Value::from(id));
        }
        if let Some(t) = o.get("startTime").and_then(Value::as_str).and_then(epoch_ms) {
            self.w.learn("startedMs", Value::from(t));
        }
    }

    /// A `$set` patch: the session's context (its directory), or a history
    /// rewrite whose messages the lines before already held.
    fn set(&mut self, set: &Value, origin: Origin, out: &mut Out) {
        let Some(messages) = set.get("messages").and_then(Value::as_array) else {
            return;
        };
        let mut unseen = 0;
        for m in messages {
            let id = m.get("id").and_then(Value::as_str).unwrap_or_default();
            match context_cwd(m) {
                Some(cwd) => {
                    if self.cwd_unknown {
                        self.cwd_unknown = false;
                        self.w.learn("cwd", Value::from(cwd));
                    }
                }
                None if self.lines.contains(id) || id.ends_with("_response") => {}
                None => unseen += 1,
            }
        }
        if unseen > 0 {
            let reason = format!(
                "Gemini CLI rewrote the session's history with {unseen} message(s) not written before: not shown"
            );
            self.w.diagnostic(reason, set, origin, out);
        }
    }

    /// A user message: a prompt (its text parts), or tool results.
    fn user(&mut self, o: &Map<String, Value>, origin: Origin, out: &mut Out) {
        let parts: &[Value] = match o.get("content") {
            Some(Value::Array(parts)) => parts,
            Some(Value::String(text)) => return self.w.prompt(text.clone(), origin, out),
            _ => &[],
        };
        let text: Vec<&str> = parts.iter().filter_map(|p| p.get("text")?.as_str()).collect();
        for response in parts.iter().filter_map(|p| p.get("functionResponse")) {
            self.response(response, origin, out);
        }
        let text = text.join("");
        if !text.trim().is_empty() {
            self.w.prompt(text, origin, out);
        }
    }

    /// A model message: its thoughts and text once, then each call once and
    /// each call's result once it settled.
    fn model(&mut self, id: &str, o: &Map<String, Value>, origin: Origin, out: &mut Out) {
        if !self.w.turn_open {
            // A model message before any prompt: a turn of its own.
            self.w.start_turn(origin, out);
        }
        let text = o.get("content").and_then(Value::as_str).unwrap_or_default();
        let first = !self.said.contains_key(id);
        if first {
            self.w.step += 1;
            if let Some(model) = o.get("model").and_then(Value::as_str)
                && !self.w.knows("model", model)
            {
                self.w.learn("model", Value::from(model));
            }
            if let Some(t) = o.get("tokens") {
                self.count(t);
            }
        }
        let mut blocks = Vec::new();
        if first {
            for t in o.get("thoughts").and_then(Value::as_array).into_iter().flatten() {
                let subject = t.get("subject").and_then(Value::as_str).unwrap_or_default();
                let said = t.get("description").and_then(Value::as_str).unwrap_or_default();
                let thought = match (subject.is_empty(), said.is_empty()) {
                    (false, false) => format!("**{subject}**\n\n{said}"),
                    (false, true) => format!("**{subject}**"),
                    _ => said.to_string(),
                };
                if !thought.is_empty() {
                    blocks.push(Some(turns::block("reasoning", thought)));
                }
            }
        }
        let text_out = self.said.get(id).copied().unwrap_or(false);
        if !text_out && !text.is_empty() {
            blocks.push(Some(turns::block("text", text.to_string())));
        }
        self.said.insert(id.to_string(), text_out || !text.is_empty());
        self.w.answer(blocks, origin, out);
        // A call is made when its message was (the model's answer ended).
        let made = o.get("timestamp").and_then(Value::as_str).and_then(epoch_ms).unwrap_or(0);
        for call in o.get("toolCalls").and_then(Value::as_array).into_iter().flatten() {
            self.call(call, made, origin, out);
        }
    }

    /// One of a model message's `toolCalls`, made at `made`: the call once,
    /// its result once, at the time the CLI recorded it complete (its
    /// `timestamp`; unknown when that is before the call's).
    fn call(&mut self, call: &Value, made: i64, origin: Origin, out: &mut Out) {
        let Some(id) = call.get("id").and_then(Value::as_str) else {
            return self.w.diagnostic("Gemini CLI tool call without an id".into(), call, origin, out);
        };
        let name = call.get("name").and_then(Value::as_str).unwrap_or_default();
        if !self.calls.contains_key(id) {
            let arguments = call.get("args").map_or_else(|| "{}".to_string(), Value::to_string);
            self.emit_call(id, name, arguments, made, origin, out);
        }
        let status = call.get("status").and_then(Value::as_str);
        let Some(&(false, at)) = self.calls.get(id) else {
            return;
        };
        if !status.is_some_and(settled) {
            return;
        }
        let done = call.get("timestamp").and_then(Value::as_str).and_then(epoch_ms);
        let done = done.filter(|t| at > 0 && *t >= at).unwrap_or(0);
        let response = call
            .get("result")
            .and_then(Value::as_array)
            .and_then(|r| r.iter().find_map(|p| p.get("functionResponse")))
            .and_then(|f| f.get("response"));
        // What the cards read beside the output: a structured display (an
        // edit's diff, a search's matches); a display that is text repeats
        // the output, and is not kept twice.
        let meta = call
            .get("resultDisplay")
            .filter(|d| d.is_object())
            .map(|d| Value::Object(Map::from_iter([("resultDisplay".to_string(), d.clone())])));
        self.emit_result(id, name, status, response, meta, done, origin, out);
    }

    /// A `functionResponse` of a user message: the result of a call the
    /// model messages did not settle (else already given).
    fn response(&mut self, f: &Value, origin: Origin, out: &mut Out) {
        let Some(id) = f.get("id").and_then(Value::as_str) else {
            return;
        };
        if self.calls.get(id).is_some_and(|c| c.0) {
            return;
        }
        let name = f.get("name").and_then(Value::as_str).unwrap_or_default();
        if !self.calls.contains_key(id) {
            // Its arguments, and when it was made, are not in the log.
            self.emit_call(id, name, String::new(), 0, origin, out);
        }
        let response = f.get("response");
        let status = match response.and_then(|r| r.get("error")) {
            Some(_) => "error",
            None => "success",
        };
        let time = self.w.time;
        self.emit_result(id, name, Some(status), response, None, time, origin, out);
    }

    #[allow(clippy::too_many_arguments)]
    fn emit_call(
        &mut self,
        id: &str,
        name: &str,
        arguments: String,
        made: i64,
        origin: Origin,
        out: &mut Out,
    ) {
        self.calls.insert(id.to_string(), (false, made));
        let data = ToolCall {
            turn: Some(self.w.turn),
            step: Some(self.w.step),
            call_id: Some(id.to_string()),
            name: Some(name.to_string()),
            arguments: (!arguments.is_empty()).then_some(Value::String(arguments)),
        };
        self.w.emit_at(EventKind::ToolCall, data, made, origin, out);
    }

    #[allow(clippy::too_many_arguments)]
    fn emit_result(
        &mut self,
        id: &str,
        tool: &str,
        status: Option<&str>,
        response: Option<&Value>,
        meta: Option<Value>,
        time: i64,
        origin: Origin,
        out: &mut Out,
    ) {
        if let Some(c) = self.calls.get_mut(id) {
            c.0 = true;
        }
        let text = response.map(response_text).unwrap_or_default();
        let (is_error, error) = match status {
            Some("error") => (true, None),
            Some("cancelled") => (true, Some("ABORTED")),
            _ => (false, None),
        };
        let exit_code = match tool {
            "run_shell_command" if !is_error => shell_exit(&text),
            _ => None,
        };
        let part = ResultPart::answering(id, PartContent::Text(text.into()), is_error);
        let mut data = ToolResult::of(self.w.turn, self.w.step, part);
        data.error = error.map(|code| ResultError {
            code: Some(code.into()),
            ..ResultError::default()
        });
        data.meta = meta.map(Json::Tree);
        data.exit_code = exit_code;
        self.w.emit_at(EventKind::ToolResult, data, time, origin, out);
    }

    /// An `info`, `warning` or `error` message: a line of the CLI's own.
    fn note(&mut self, kind: &str, o: &Map<String, Value>, origin: Origin, out: &mut Out) {
        let text = match o.get("content") {
            Some(Value::String(s)) => s.clone(),
            Some(other) => other.to_string(),
            None => String::new(),
        };
        let data = UserMessage {
            content: TextOrObjects::Objects(vec![Some(turns::block("text", format!("Gemini CLI {kind}: {text}")))]),
            source: Some(MessageSource {
                kind: Some("output".into()),
                ..MessageSource::default()
            }),
            ..UserMessage::default()
        };
        self.w.emit(EventKind::UserMessage, data, origin, out);
    }

    /// Add a model message's `tokens` to the turn's usage.
    fn count(&mut self, t: &Value) {
        let n = |k: &str| t.get(k).and_then(Value::as_u64);
        self.w.count([n("input"), n("output"), n("cached"), n("thoughts")]);
    }

}

/// Whether a call's `status` says it is over.
fn settled(status: &str) -> bool {
    matches!(status, "success" | "error" | "cancelled")
}

/// What a call gave back: its `output`, else its `error`, else the
/// response as JSON.
fn response_text(r: &Value) -> String {
    match (r.get("output"), r.get("error")) {
        (Some(Value::String(s)), _) | (None, Some(Value::String(s))) => s.clone(),
        _ => r.to_string(),
    }
}

/// The session's directory: the first of the workspace directories the
/// CLI's `<session_context>` message lists.
fn context_cwd(m: &Value) -> Option<String> {
    let text = m.get("content")?.as_array()?.first()?.get("text")?.as_str()?;
    if !text.starts_with("<session_context>") {
        return None;
    }
    let (_, rest) = text.split_once("Workspace Directories:")?;
    let line = rest.lines().map(str::trim).find(|l| l.starts_with("- "))?;
    Some(line.trim_start_matches("- ").to_string())
}

/// The sections of a shell command's output (`Output:`, `Exit Code:`,
/// `Signal:`, …), inside the `<untrusted_context>` the CLI wraps it in
/// (older versions start with `Command:` and `Directory:`).
pub(crate) fn shell_sections(text: &str) -> Option<Vec<(&str, String)>> {
    const LABELS: &[&str] = &[
        "Command",
        "Directory",
        "Output",
        "Error",
        "Exit Code",
        "Signal",
        "Background PIDs",
        "Process Group PGID",
    ];
    let body = text.trim();
    let body = body
        .strip_prefix("<untrusted_context>")
        .and_then(|b| b.strip_suffix("</untrusted_context>"))
        .unwrap_or(body)
        .trim_matches('\n');
    let label_of = |line: &str| {
        LABELS
            .iter()
            .copied()
            .find(|l| line.strip_prefix(l).is_some_and(|r| r.starts_with(':')))
    };
    let mut sections: Vec<(&str, String)> = Vec::new();
    for line in body.split('\n') {
        match label_of(line) {
            Some(label) => {
                let rest = line[label.len() + 1..].strip_prefix(' ').unwrap_or(&line[label.len() + 1..]);
                sections.push((label, rest.to_string()));
            }
            None => {
                let (_, s) = sections.last_mut()?;
                s.push('\n');
                s.push_str(line);
            }
        }
    }
    // Older versions write every section, an empty one `(none)`, and
    // `Signal: 0` for no signal.
    sections.retain(|(l, s)| s.trim() != "(none)" && !(*l == "Signal" && s.trim() == "0"));
    sections
        .iter()
        .any(|(l, _)| *l == "Output")
        .then_some(sections)
}

/// A shell command's exit code as its output says: `Exit Code: N`, or 0
/// when the output is in the current tool's sections (`Output:` first)
/// and says neither that, a signal nor an error: that tool writes the line
/// only when N is not 0 (older ones, which start with `Command:`, always).
pub(crate) fn shell_exit(text: &str) -> Option<i64> {
    let sections = shell_sections(text)?;
    let get = |label: &str| sections.iter().find(|(l, _)| *l == label).map(|(_, s)| s.trim());
    match get("Exit Code") {
        Some(code) => code.parse().ok(),
        None if sections[0].0 == "Output" && get("Signal").is_none() && get("Error").is_none() => {
            Some(0)
        }
        None => None,
    }
}

#[cfg(test)]
mod tests;
