//! A task's `api_conversation_history.json` read into DSH-shaped records.
//!
//! **Why this file drives the transcript, not `ui_messages.json`.** The
//! history is what the model was sent and answered: its words, every call,
//! and every call's result as the extension wrote it back — the only place
//! a call's outcome is. `ui_messages.json` holds the calls as the panel drew
//! them (a `tool` ask's JSON, a `command` ask and its `command_output`
//! chunks) but not how they ended: a refused ask leaves no mark there (the
//! answer is not kept), a command's exit code is not in its output chunks,
//! a read's text is not kept, and Roo Code's `api_req_started` no longer
//! carries the request that held the results. So deck is pointed at the
//! history (recognised by its shape: an array of messages whose first is
//! the user's task, `<task>…</task>` — Roo Code's newer `<user_message>…
//! </user_message>` — in a text block), and reads nothing beside it.
//!
//! The document is a list of Anthropic-style messages `{role, content, ts?,
//! modelInfo?, metrics?}` (`ts`, epoch ms, where the version writes it;
//! Cline's `modelInfo.modelId` and `metrics.tokens {prompt, completion,
//! cached}`):
//!
//! * `assistant`: `text` (with the calls in it as XML tags in the older
//!   protocol: [`calls`]), `thinking`, `tool_use {id, name, input}` (native
//!   tool calls). A call written as tags gets the id `xml-N` (its N-th).
//!   `attempt_completion`'s `result` is the model's closing words, not a
//!   card. A text ending `[Response interrupted by user]` was cancelled.
//! * `user`: the task (`<task>`), or one text block per result (`[tool for
//!   'x'] Result:\n…`; older versions put the result's text in the blocks
//!   that follow the header), or `tool_result {tool_use_id, content,
//!   is_error?}` blocks (native), then `<environment_details>` (whose
//!   `Current Working Directory (…)` is the session's `cwd`).
//!
//! What the results say, as the extensions write them: a refusal (`The user
//! denied this operation.`, Roo Code's `{"status": "denied"}`) is
//! `rejected`; `The tool execution failed…` (Roo Code's `{"status":
//! "error"}`) an error; a command's exit code only in its text (Cline's
//! `(exit code N)` / `failed with exit code N`, Roo Code's `Exit code: N`;
//! older Cline's `Command executed.` has none: unknown). A resumed task
//! (`[TASK RESUMPTION]`) ends the turn it cut off: the calls left without a
//! result are cancelled (the extension tells the model to assume they did
//! not run), not errors; its `New instructions` are a prompt. Feedback on
//! `attempt_completion` (`<feedback>…</feedback>`) is the user's next
//! prompt. How long a call took is not in the files (a result's message is
//! stamped when the next request went out, after approvals and the model's
//! turn): results carry no time, and no duration is drawn.

use std::collections::HashSet;

use serde_json::{Map, Value};

use crate::agents::read::{Out, Translate};
use crate::agents::turns::{self, Turns};
use crate::wire::payload::{
    ContentBlock, Json, PartContent, ResultError, ResultPart, ToolCall, ToolResult,
};
use crate::wire::{EventKind, Origin};

pub mod calls;

use calls::Piece;

/// The command tool, whose results carry exit codes.
pub(crate) const COMMAND: &str = "execute_command";

/// The tool whose `result` is the model's closing words.
const COMPLETION: &str = "attempt_completion";

/// Whether `v` is a task's conversation history, from its shape alone.
pub fn is_history(v: &Value) -> bool {
    let Some(first) = v.as_array().and_then(|a| a.first()) else {
        return false;
    };
    if first.get("role").and_then(Value::as_str) != Some("user") {
        return false;
    }
    let task = |t: &str| {
        let t = t.trim_start();
        t.starts_with("<task>") || t.starts_with("<user_message>")
    };
    match first.get("content") {
        Some(Value::String(s)) => task(s),
        Some(Value::Array(blocks)) => blocks.iter().filter_map(|b| b.get("text")?.as_str()).any(task),
        _ => false,
    }
}

/// A command's exit code, as its result's text says it.
pub(crate) fn exit_code(text: &str) -> Option<i64> {
    let number = |s: &str| -> Option<i64> {
        let digits: String = s.chars().take_while(|c| c.is_ascii_digit() || *c == '-').collect();
        digits.parse().ok()
    };
    ["(exit code ", "failed with exit code ", "Exit code: "]
        .iter()
        .find_map(|m| text.find(m).and_then(|i| number(&text[i + m.len()..])))
}

/// The text between `<tag>` and `</tag>` in `text`, trimmed.
fn inside<'a>(text: &'a str, tag: &str) -> Option<&'a str> {
    let open = format!("<{tag}>");
    let start = text.find(&open)? + open.len();
    let end = text[start..].find(&format!("</{tag}>"))? + start;
    Some(text[start..end].trim())
}

/// Roo Code's JSON result's `status` (`denied`, `error`).
fn json_status(text: &str) -> Option<String> {
    let v: Value = serde_json::from_str(text.trim()).ok()?;
    v.get("status")?.as_str().map(str::to_string)
}

/// A call that went out and has no result yet.
#[derive(Debug)]
struct Pending {
    id: String,
    tool: String,
}

/// A result being gathered from text blocks (the tags' protocol).
#[derive(Debug)]
struct Open {
    id: String,
    tool: String,
    text: String,
}

/// Reads one task's history into records.
#[derive(Debug)]
pub struct Reader {
    /// The session's header, seqs, turns and usage.
    w: Turns,
    /// Calls without a result, in the order they went out.
    pending: Vec<Pending>,
    /// The result being gathered.
    open: Option<Open>,
    /// Calls written as tags so far (their ids).
    tagged: u64,
    /// Calls drawn (ids), so a result of another is not drawn.
    drawn: HashSet<String>,
}

impl Default for Reader {
    fn default() -> Reader {
        Reader {
            w: Turns::new(super::NAME),
            pending: Vec::new(),
            open: None,
            tagged: 0,
            drawn: HashSet::new(),
        }
    }
}

impl Translate for Reader {
    fn line(&mut self, v: &Value, origin: Origin, out: &mut Out) {
        let messages = v.as_array().map_or(&[][..], Vec::as_slice);
        for m in messages {
            if let Some(m) = self.w.object(m, "message", origin, out) {
                self.message(m, origin, out);
            }
        }
    }

    /// A message of the history read as a stream.
    fn entry(&mut self, m: Value, origin: Origin, out: &mut Out) {
        if let Some(o) = self.w.object(&m, "message", origin, out) {
            self.message(o, origin, out);
        }
    }

    fn finish(&mut self, out: &mut Out) {
        self.close(Origin::default(), out);
        if self.w.turn_open && self.pending.iter().all(|p| !self.drawn.contains(&p.id)) {
            self.w.end_turn(Origin::default(), out);
        }
        self.w.finish(out);
    }
}

/// A message's blocks (a string content is one text block).
fn blocks(m: &Map<String, Value>) -> Vec<Value> {
    match m.get("content") {
        Some(Value::Array(b)) => b.clone(),
        Some(Value::String(s)) => vec![serde_json::json!({"type": "text", "text": s})],
        _ => Vec::new(),
    }
}

fn kind(b: &Value) -> &str {
    b.get("type").and_then(Value::as_str).unwrap_or_default()
}

impl Reader {
    fn message(&mut self, m: &Map<String, Value>, origin: Origin, out: &mut Out) {
        if let Some(ts) = m.get("ts").and_then(Value::as_i64) {
            self.w.saw(ts);
        }
        match m.get("role").and_then(Value::as_str) {
            Some("user") => {
                for b in blocks(m) {
                    self.user_block(&b, origin, out);
                }
                self.close(origin, out);
            }
            Some("assistant") => self.model(m, origin, out),
            // Roo Code's reasoning items and the like: nothing to draw.
            _ => {}
        }
    }

    fn user_block(&mut self, b: &Value, origin: Origin, out: &mut Out) {
        match kind(b) {
            "text" => {
                let text = b.get("text").and_then(Value::as_str).unwrap_or_default();
                self.user_text(text, origin, out);
            }
            "tool_result" => {
                self.close(origin, out);
                let Some(id) = b.get("tool_use_id").and_then(Value::as_str) else {
                    self.w.diagnostic("a tool_result without its tool_use_id".into(), b, origin, out);
                    return;
                };
                let text = match b.get("content") {
                    Some(Value::String(s)) => s.clone(),
                    Some(Value::Array(parts)) => {
                        let t: Vec<&str> = parts.iter().filter_map(|p| p.get("text")?.as_str()).collect();
                        t.join("\n")
                    }
                    _ => String::new(),
                };
                let Some(i) = self.pending.iter().position(|p| p.id == id) else {
                    return;
                };
                let p = self.pending.remove(i);
                let text = header(&text).map_or(text.as_str(), |(_, rest)| rest).to_string();
                let is_error = b.get("is_error") == Some(&Value::Bool(true));
                self.settle(p, text, is_error, origin, out);
            }
            _ => {}
        }
    }

    fn user_text(&mut self, text: &str, origin: Origin, out: &mut Out) {
        let t = text.trim_start();
        if t.starts_with("<environment_details>") {
            self.close(origin, out);
            self.learn_cwd(t);
        } else if t.starts_with("[TASK RESUMPTION]") {
            self.close(origin, out);
            self.resumed(t, origin, out);
        } else if let Some((tool, rest)) = header(t) {
            self.close(origin, out);
            let i = self.pending.iter().position(|p| p.tool == tool).unwrap_or(0);
            if i < self.pending.len() {
                let p = self.pending.remove(i);
                self.open = Some(Open {
                    id: p.id,
                    tool: p.tool,
                    text: rest.to_string(),
                });
            }
        } else if let Some(open) = self.open.as_mut() {
            if !open.text.is_empty() {
                open.text.push('\n');
            }
            open.text.push_str(text);
        } else if let Some(prompt) = inside(t, "task").or_else(|| inside(t, "user_message")) {
            self.w.prompt(prompt.to_string(), origin, out);
        }
        // Anything else is the extension's own notice to the model.
    }

    /// The session's directory, as the environment details say it.
    fn learn_cwd(&mut self, text: &str) {
        for m in ["# Current Working Directory (", "# Current Workspace Directory ("] {
            if let Some(rest) = text.split_once(m).map(|(_, r)| r)
                && let Some((dir, _)) = rest.split_once(") Files")
                && !self.w.knows("cwd", dir)
            {
                self.w.learn("cwd", Value::from(dir));
                return;
            }
        }
    }

    /// A resumed task: the cut-off turn ends, its calls cancelled; the new
    /// instructions are a prompt.
    fn resumed(&mut self, text: &str, origin: Origin, out: &mut Out) {
        for p in std::mem::take(&mut self.pending) {
            if !self.drawn.contains(&p.id) {
                continue;
            }
            let part = ResultPart::answering(&p.id, PartContent::Text(String::new().into()), true);
            let mut data = ToolResult::of(self.w.turn, self.w.step, part);
            data.error = Some(aborted());
            self.w.emit_at(EventKind::ToolResult, data, 0, origin, out);
        }
        if self.w.turn_open {
            self.w.end_turn_as("aborted", Some("the task was interrupted and resumed".into()), origin, out);
        }
        if let Some(said) = inside(text, "user_message").or_else(|| {
            text.split_once("New instructions for task continuation:").map(|(_, r)| r.trim())
        }) && !said.is_empty()
        {
            self.w.prompt(said.to_string(), origin, out);
        }
    }

    /// The result being gathered from text blocks, settled.
    fn close(&mut self, origin: Origin, out: &mut Out) {
        if let Some(o) = self.open.take() {
            let p = Pending { id: o.id, tool: o.tool };
            self.settle(p, o.text, false, origin, out);
        }
    }

    /// A call's result, from its text (see the module's doc).
    fn settle(&mut self, p: Pending, text: String, is_error: bool, origin: Origin, out: &mut Out) {
        if p.tool == COMPLETION {
            if let Some(said) = inside(&text, "feedback").or_else(|| inside(&text, "user_message")) {
                self.w.prompt(said.to_string(), origin, out);
            }
            return;
        }
        if !self.drawn.contains(&p.id) {
            return;
        }
        let status = json_status(&text);
        let refused = text.trim_start().starts_with("The user denied this operation") || status.as_deref() == Some("denied");
        let failed = is_error
            || text.trim_start().starts_with("The tool execution failed")
            || status.as_deref() == Some("error");
        // Roo Code answers a call a resumed task cut off.
        let cancelled = text.trim_start().starts_with("Task was interrupted before this tool call");
        let part = ResultPart::answering(&p.id, PartContent::Text(text.clone().into()), refused || failed || cancelled);
        let mut data = ToolResult::of(self.w.turn, self.w.step, part);
        if cancelled {
            data.error = Some(aborted());
        } else if refused {
            data.outcome = Some("rejected".into());
        } else if p.tool == COMMAND {
            data.exit_code = exit_code(&text);
            data.meta = data
                .exit_code
                .map(|c| Json::Tree(Value::Object(Map::from_iter([("exitCode".to_string(), Value::from(c))]))));
        }
        self.w.emit_at(EventKind::ToolResult, data, 0, origin, out);
    }

    /// A model response: its thinking and words, then its calls.
    fn model(&mut self, m: &Map<String, Value>, origin: Origin, out: &mut Out) {
        if !self.w.turn_open {
            self.w.start_turn(origin, out);
        }
        self.w.step += 1;
        if let Some(model) = m.get("modelInfo").and_then(|i| i.get("modelId")).and_then(Value::as_str)
            && !self.w.knows("model", model)
        {
            self.w.learn("model", Value::from(model));
        }
        if let Some(t) = m.get("metrics").and_then(|x| x.get("tokens")) {
            let n = |k: &str| t.get(k).and_then(Value::as_u64);
            self.w.count([n("prompt"), n("completion"), n("cached"), None]);
        }
        let mut said: Vec<Option<ContentBlock>> = Vec::new();
        let mut calls: Vec<(String, String, Value)> = Vec::new();
        for b in blocks(m) {
            match kind(&b) {
                "text" => {
                    let text = b.get("text").and_then(Value::as_str).unwrap_or_default();
                    for piece in calls::pieces(strip_interruption(text)) {
                        match piece {
                            Piece::Said(t) => said.extend(thought(&t).into_iter().map(Some)),
                            Piece::Call { tool, params } => {
                                self.tagged += 1;
                                calls.push((format!("xml-{}", self.tagged), tool, Value::Object(params)));
                            }
                        }
                    }
                }
                "thinking" => {
                    if let Some(t) = b.get("thinking").and_then(Value::as_str).filter(|t| !t.is_empty()) {
                        said.push(Some(turns::block("reasoning", t.to_string())));
                    }
                }
                "tool_use" => {
                    let (Some(id), Some(name)) = (b.get("id").and_then(Value::as_str), b.get("name").and_then(Value::as_str))
                    else {
                        self.w.diagnostic("a tool_use without its id or name".into(), &b, origin, out);
                        continue;
                    };
                    calls.push((id.to_string(), name.to_string(), b.get("input").cloned().unwrap_or(Value::Null)));
                }
                _ => {}
            }
        }
        // The closing words are said, not a card.
        for (_, tool, input) in &calls {
            if tool == COMPLETION
                && let Some(r) = input.get("result").and_then(Value::as_str)
            {
                said.push(Some(turns::block("text", r.trim().to_string())));
            }
        }
        self.w.answer(said, origin, out);
        for (id, tool, input) in calls {
            self.pending.push(Pending {
                id: id.clone(),
                tool: tool.clone(),
            });
            if tool == COMPLETION {
                continue;
            }
            self.drawn.insert(id.clone());
            let data = ToolCall {
                turn: Some(self.w.turn),
                step: Some(self.w.step),
                call_id: Some(id),
                name: Some(tool),
                arguments: Some(Value::String(if input.is_null() { "{}".into() } else { input.to_string() })),
            };
            self.w.emit(EventKind::ToolCall, data, origin, out);
        }
    }
}

/// Words, with the `<thinking>…</thinking>` the older protocol asked for
/// at their head as reasoning.
fn thought(text: &str) -> Vec<ContentBlock> {
    let mut out = Vec::new();
    let mut rest = text;
    if let Some(r) = text.strip_prefix("<thinking>")
        && let Some((thinking, after)) = r.split_once("</thinking>")
    {
        out.push(turns::block("reasoning", thinking.trim().to_string()));
        rest = after.trim();
    }
    if !rest.is_empty() {
        out.push(turns::block("text", rest.to_string()));
    }
    out
}

/// A cancel's error (the card says `cancelled`, not an error).
fn aborted() -> ResultError {
    ResultError {
        code: Some("ABORTED".into()),
        ..ResultError::default()
    }
}

/// A model's text without the marker the extension adds when it was cut
/// off (`[Response interrupted by user]`, `… by API Error`).
fn strip_interruption(text: &str) -> &str {
    let t = text.trim_end();
    match t.rfind("[Response interrupted by ") {
        Some(i) if t.ends_with(']') => &t[..i],
        _ => text,
    }
}

/// A result's header (`[execute_command for 'ls'] Result:`): its tool and
/// the text after it.
fn header(text: &str) -> Option<(&str, &str)> {
    let rest = text.strip_prefix('[')?;
    let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))?;
    let tool = &rest[..end];
    if tool.is_empty() || !rest[end..].starts_with([' ', ']']) {
        return None;
    }
    let (_, body) = rest.split_once("] Result:")?;
    Some((tool, body.strip_prefix('\n').unwrap_or(body)))
}

#[cfg(test)]
mod tests;
