//! pi's session files (`~/.pi/agent/sessions/--<cwd>--/*.jsonl`, format
//! version 3: the package's `docs/session-format.md`) read into
//! DSH-shaped records. Line 1 is a header (`type: "session"`, `id`,
//! `cwd`); every other line is an entry (`type`, `id`, `parentId`,
//! `timestamp`) of a tree:
//!
//! * `message`, by `message.role`: `user` (a prompt — a turn),
//!   `assistant` (`thinking`, `text` and `toolCall {id, name, arguments}`
//!   parts, `usage`, `stopReason`), `toolResult` (`toolCallId`, text
//!   `content`, `isError`, `details`: an edit's numbered listing and
//!   `firstChangedLine`), `bashExecution` (a command the user ran with
//!   `!`: its `exitCode`);
//! * `model_change` (the model), and entries drawn as nothing
//!   (`thinking_level_change`, `label`, `session_info`, `custom`, …).
//!
//! What this reader decides: the entries form a tree (`/tree` moves the
//! leaf back and the next prompt starts another branch in the same file);
//! pi goes on from the file's last entry, so the path drawn is the one from
//! the root to the last entry, and every other branch is said in a
//! diagnostic (where it starts, how many entries and calls it holds), not
//! drawn. The path is known only at the end, so the lines are held until
//! the input ends — as their text (a `message` entry is read from its text
//! on the decoder's threads, its id and parent alone: [`Line`]), each
//! parsed when it is drawn, not held as trees. An entry without `id`/`parentId` (version 1 files)
//! follows the one before it. A bash result's exit code is its text's
//! last line `Command exited with code N`; pi writes none when a command
//! succeeded (it resolves alike on 0 and on a death by signal), so it is
//! left unknown there.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use crate::agents::read::{Foreign, Out, Translate, epoch_ms};
use crate::agents::turns::{self, Turns};
use crate::wire::payload::{
    ContentBlock, Json, PartContent, ResultError, ResultPart, ToolCall, ToolResult,
};
use crate::wire::{EventKind, Origin};

/// Whether `v` is a line of a pi session file, from its shape alone: the
/// header (`type: "session"` with a numeric `version`, an `id` and a
/// `cwd`), or an entry of its tree (`type`, `id`, a `parentId` key — null
/// for the root —, `timestamp`).
pub fn is_line(v: &Value) -> bool {
    let Some(o) = v.as_object() else {
        return false;
    };
    let s = |k: &str| o.get(k).is_some_and(Value::is_string);
    if o.get("type").and_then(Value::as_str) == Some("session") {
        return o.get("version").is_some_and(Value::is_u64) && s("id") && s("cwd") && s("timestamp");
    }
    s("type")
        && s("id")
        && s("timestamp")
        && o.get("parentId").is_some_and(|p| p.is_null() || p.is_string())
}

/// One line held until the input ends: its text.
#[derive(Debug)]
struct Held {
    text: Box<str>,
    origin: Origin,
    id: String,
    parent: Option<String>,
}

impl Held {
    /// The entry as a tree (`null` for text that is none: never, it was read).
    fn tree(&self) -> Value {
        serde_json::from_str(&self.text).unwrap_or_default()
    }
}

/// A `message` entry read from its text on the decoder's threads (its
/// `type`, `id`, `parentId` and `timestamp` checked as [`is_line`] checks
/// them, the rest skipped): held as that text until it is drawn.
#[derive(Debug, PartialEq)]
pub struct Line {
    text: Box<str>,
    id: String,
    parent: Option<String>,
}

impl Line {
    /// The line, when it is a pi `message` entry; `None` for any other
    /// (then read as a tree: the header, other entries, other agents').
    pub fn parse(text: &str) -> Option<Line> {
        #[derive(serde::Deserialize)]
        struct Head<'a> {
            #[serde(rename = "type", borrow)]
            kind: Option<std::borrow::Cow<'a, str>>,
            id: Option<String>,
            #[serde(rename = "parentId", default)]
            parent: Present,
            #[serde(borrow)]
            timestamp: Option<std::borrow::Cow<'a, str>>,
        }
        /// A member that may be `null`, told from one that is missing.
        #[derive(Default)]
        struct Present(Option<Value>);
        impl<'de> serde::Deserialize<'de> for Present {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Present, D::Error> {
                Value::deserialize(d).map(|v| Present(Some(v)))
            }
        }
        // Every entry names its parent; cheap to look for first.
        memchr::memmem::find(text.as_bytes(), b"\"parentId\"")?;
        let head: Head = serde_json::from_str(text).ok()?;
        let parent = match head.parent.0? {
            Value::Null => None,
            Value::String(p) => Some(p),
            _ => return None,
        };
        let id = head.id?;
        (head.kind.as_deref() == Some("message") && head.timestamp.is_some()).then(|| Line {
            text: text.into(),
            id,
            parent,
        })
    }
}

/// Reads one session file's lines into records, at the end of the input.
#[derive(Debug)]
pub struct Reader {
    /// The session's header, seqs, turns and usage.
    w: Turns,
    header: Option<(Value, Origin)>,
    held: Vec<Held>,
    /// Calls that went out, by id, with whether their result did.
    calls: HashMap<String, bool>,
}

impl Default for Reader {
    fn default() -> Reader {
        Reader {
            w: Turns::new(super::NAME),
            header: None,
            held: Vec::new(),
            calls: HashMap::new(),
        }
    }
}

impl Translate for Reader {
    fn line(&mut self, v: &Value, origin: Origin, out: &mut Out) {
        let Some(o) = v.as_object() else {
            return;
        };
        if o.get("type").and_then(Value::as_str) == Some("session") {
            if self.header.is_none() {
                self.header = Some((v.clone(), origin));
            } else {
                self.w.diagnostic("a second session header: ignored".into(), v, origin, out);
            }
            return;
        }
        let prev = self.held.last().map(|h| h.id.clone());
        let id = o.get("id").and_then(Value::as_str).map_or_else(|| format!("#{}", origin.line), str::to_string);
        let parent = match o.get("parentId") {
            Some(Value::String(p)) => Some(p.clone()),
            Some(_) => None,
            None => prev,
        };
        self.held.push(Held {
            text: v.to_string().into(),
            origin,
            id,
            parent,
        });
    }

    /// A line as the decoder read it: a `message` entry held as its text.
    fn foreign(&mut self, line: Foreign, origin: Origin, out: &mut Out) {
        match line {
            Foreign::Read { line, .. } => {
                if let Some(l) = Foreign::take::<Line>(line) {
                    self.held.push(Held {
                        text: l.text,
                        origin,
                        id: l.id,
                        parent: l.parent,
                    });
                }
            }
            Foreign::Value(v) => self.line(&v, origin, out),
        }
    }

    fn finish(&mut self, out: &mut Out) {
        if let Some((v, _)) = self.header.take() {
            self.learn_header(&v);
        }
        let mut held = std::mem::take(&mut self.held);
        let path = self.path(&held, out);
        for &i in &path {
            // Parsed as it is drawn; its text let go of then.
            let v = held[i].tree();
            held[i].text = Box::default();
            self.entry(&v, held[i].origin, out);
        }
        self.branches(&held, &path, out);
        if self.w.turn_open && self.calls.values().all(|settled| *settled) {
            self.w.end_turn(Origin::default(), out);
        }
        self.w.finish(out);
    }
}

impl Reader {
    /// The header's session id and directory (and the session it was forked
    /// from).
    fn learn_header(&mut self, v: &Value) {
        if let Some(t) = v.get("timestamp").and_then(Value::as_str).and_then(epoch_ms) {
            self.w.saw(t);
        }
        if let Some(id) = v.get("id").and_then(Value::as_str) {
            self.w.session = Some(id.to_string());
            self.w.learn("id", Value::from(id));
        }
        for key in ["cwd", "parentSession"] {
            if let Some(s) = v.get(key).and_then(Value::as_str) {
                self.w.learn(key, Value::from(s));
            }
        }
    }

    /// The indexes of the entries from the root to the last entry, in
    /// order; a `parentId` naming no entry ends the walk (said).
    fn path(&mut self, held: &[Held], out: &mut Out) -> Vec<usize> {
        let index: HashMap<&str, usize> = held.iter().enumerate().map(|(i, h)| (h.id.as_str(), i)).collect();
        let mut path = Vec::new();
        let mut seen = HashSet::new();
        let mut cur = held.len().checked_sub(1);
        while let Some(i) = cur {
            if !seen.insert(i) {
                self.w.diagnostic("the entries' parentIds go round in a loop".into(), &held[i].tree(), held[i].origin, out);
                break;
            }
            path.push(i);
            cur = match &held[i].parent {
                None => None,
                Some(p) => match index.get(p.as_str()) {
                    Some(&j) => Some(j),
                    None => {
                        let why = format!("its parentId {p:?} names no entry of the file: the path drawn starts here");
                        self.w.diagnostic(why, &held[i].tree(), held[i].origin, out);
                        None
                    }
                },
            };
        }
        path.reverse();
        path
    }

    /// Each branch off the path, said: where it leaves the path, its lines,
    /// its prompts and calls.
    fn branches(&mut self, held: &[Held], path: &[usize], out: &mut Out) {
        let on: HashSet<usize> = path.iter().copied().collect();
        let index: HashMap<&str, usize> = held.iter().enumerate().map(|(i, h)| (h.id.as_str(), i)).collect();
        // The branch each entry off the path belongs to: the first entry off
        // the path on its way to the root.
        let mut root_of: Vec<Option<usize>> = vec![None; held.len()];
        let mut groups: Vec<(usize, Vec<usize>)> = Vec::new();
        for i in 0..held.len() {
            if on.contains(&i) {
                continue;
            }
            let parent = held[i].parent.as_deref().and_then(|p| index.get(p)).copied();
            let start = match parent {
                Some(j) if j < i && !on.contains(&j) => root_of[j].unwrap_or(i),
                _ => i,
            };
            root_of[i] = Some(start);
            match groups.iter_mut().find(|(s, _)| *s == start) {
                Some((_, members)) => members.push(i),
                None => groups.push((start, vec![i])),
            }
        }
        let leaf = path.last().map_or(0, |&i| held[i].origin.line);
        for (start, members) in groups {
            let h = &held[start];
            let from = match h.parent.as_deref().and_then(|p| index.get(p)) {
                Some(&j) => format!("from the entry of line {}", held[j].origin.line),
                None => "from the root".to_string(),
            };
            let (mut prompts, mut calls) = (0, 0);
            for &m in &members {
                let v = held[m].tree();
                let msg = v.get("message");
                match msg.and_then(|m| m.get("role")).and_then(Value::as_str) {
                    Some("user") => prompts += 1,
                    Some("assistant") => calls += parts(msg).iter().filter(|p| kind(p) == Some("toolCall")).count(),
                    _ => {}
                }
            }
            let lines = members.iter().map(|&m| held[m].origin.line);
            let (lo, hi) = (lines.clone().min().unwrap_or(0), lines.max().unwrap_or(0));
            let count = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
            let why = format!(
                "the session's tree branches: shown is the branch that leads to its last entry (line {leaf}); \
                 another branch {from}, lines {lo}-{hi} ({}: {}, {}), is not drawn",
                count(members.len(), "entry").replace("entrys", "entries"),
                count(prompts, "prompt"),
                count(calls, "tool call")
            );
            self.w.diagnostic(why, &h.tree(), h.origin, out);
        }
    }

    /// One entry of the path.
    fn entry(&mut self, v: &Value, origin: Origin, out: &mut Out) {
        if let Some(t) = v.get("timestamp").and_then(Value::as_str).and_then(epoch_ms) {
            self.w.saw(t);
        }
        match v.get("type").and_then(Value::as_str) {
            Some("model_change") => {
                if let Some(m) = v.get("modelId").and_then(Value::as_str)
                    && !self.w.knows("model", m)
                {
                    self.w.learn("model", Value::from(m));
                }
            }
            Some("message") => {
                let Some(m) = v.get("message") else {
                    self.w.diagnostic("a message entry without its message".into(), v, origin, out);
                    return;
                };
                match m.get("role").and_then(Value::as_str) {
                    Some("user") => {
                        let text = text_of(m.get("content"));
                        if !text.trim().is_empty() {
                            self.w.prompt(text, origin, out);
                        }
                    }
                    Some("assistant") => self.model(m, origin, out),
                    Some("toolResult") => self.result(m, origin, out),
                    Some("bashExecution") => self.bash(v, m, origin, out),
                    _ => {}
                }
            }
            _ => {}
        }
    }

    /// A model response: its thinking and text, then its calls.
    fn model(&mut self, m: &Value, origin: Origin, out: &mut Out) {
        if !self.w.turn_open {
            self.w.start_turn(origin, out);
        }
        self.w.step += 1;
        if let Some(model) = m.get("model").and_then(Value::as_str)
            && !self.w.knows("model", model)
        {
            self.w.learn("model", Value::from(model));
        }
        if let Some(u) = m.get("usage") {
            let n = |k: &str| u.get(k).and_then(Value::as_u64);
            self.w.count([n("input"), n("output"), n("cacheRead"), None]);
        }
        let parts = parts(Some(m));
        let mut blocks: Vec<Option<ContentBlock>> = parts
            .iter()
            .filter_map(|p| {
                let (k, key) = match kind(p)? {
                    "thinking" => ("reasoning", "thinking"),
                    "text" => ("text", "text"),
                    _ => return None,
                };
                let text = p.get(key)?.as_str().filter(|t| !t.is_empty())?;
                Some(Some(turns::block(k, text.to_string())))
            })
            .collect();
        if let (Some("error" | "aborted"), Some(e)) = (
            m.get("stopReason").and_then(Value::as_str),
            m.get("errorMessage").and_then(Value::as_str),
        ) {
            blocks.push(Some(turns::block("text", format!("*{e}*"))));
        }
        self.w.answer(blocks, origin, out);
        for call in parts.iter().filter(|p| kind(p) == Some("toolCall")) {
            let Some(id) = call.get("id").and_then(Value::as_str) else {
                continue;
            };
            let name = call.get("name").and_then(Value::as_str).unwrap_or_default();
            self.call(id, name, call.get("arguments").map_or_else(|| "{}".into(), Value::to_string), origin, out);
        }
    }

    fn call(&mut self, id: &str, name: &str, args: String, origin: Origin, out: &mut Out) {
        self.calls.insert(id.to_string(), false);
        let data = ToolCall {
            turn: Some(self.w.turn),
            step: Some(self.w.step),
            call_id: Some(id.to_string()),
            name: Some(name.to_string()),
            arguments: Some(Value::String(args)),
        };
        self.w.emit(EventKind::ToolCall, data, origin, out);
    }

    /// A call's result: its text, `isError`, the exit code its text says,
    /// and its `details` (for the presenters) as `meta`.
    fn result(&mut self, m: &Value, origin: Origin, out: &mut Out) {
        let Some(id) = m.get("toolCallId").and_then(Value::as_str) else {
            self.w.diagnostic("a tool result without its toolCallId".into(), m, origin, out);
            return;
        };
        if self.calls.get(id) == Some(&true) {
            return;
        }
        self.calls.insert(id.to_string(), true);
        let text = text_of(m.get("content"));
        let is_error = m.get("isError") == Some(&Value::Bool(true));
        let bash = m.get("toolName").and_then(Value::as_str) == Some("bash");
        let mut data = ToolResult::of(self.w.turn, self.w.step, ResultPart::answering(id, PartContent::Text(text.clone().into()), is_error));
        if bash {
            data.exit_code = exit_code(&text);
            if is_error && text.ends_with("Command aborted") {
                data.error = Some(ResultError {
                    code: Some("ABORTED".into()),
                    ..ResultError::default()
                });
            }
        }
        if let Some(d) = m.get("details").filter(|d| d.as_object().is_some_and(|o| !o.is_empty())) {
            data.meta = Some(Json::Tree(Value::Object(Map::from_iter([("details".to_string(), d.clone())]))));
        }
        self.w.emit(EventKind::ToolResult, data, origin, out);
    }

    /// A command the user ran (`!cmd`): a `bash` call of its own (its id the
    /// entry's), with the exit code the entry says.
    fn bash(&mut self, v: &Value, m: &Value, origin: Origin, out: &mut Out) {
        if !self.w.turn_open {
            self.w.start_turn(origin, out);
        }
        let id = v.get("id").and_then(Value::as_str).unwrap_or_default().to_string();
        let command = m.get("command").and_then(Value::as_str).unwrap_or_default();
        self.call(&id, "bash", serde_json::json!({ "command": command }).to_string(), origin, out);
        self.calls.insert(id.clone(), true);
        let output = m.get("output").and_then(Value::as_str).unwrap_or_default().to_string();
        let code = m.get("exitCode").and_then(Value::as_i64);
        let cancelled = m.get("cancelled") == Some(&Value::Bool(true));
        let part = ResultPart::answering(&id, PartContent::Text(output.into()), cancelled || code.is_some_and(|c| c != 0));
        let mut data = ToolResult::of(self.w.turn, self.w.step, part);
        data.exit_code = code;
        if cancelled {
            data.error = Some(ResultError {
                code: Some("ABORTED".into()),
                ..ResultError::default()
            });
        }
        self.w.emit(EventKind::ToolResult, data, origin, out);
    }
}

/// A message's content parts.
fn parts(m: Option<&Value>) -> &[Value] {
    m.and_then(|m| m.get("content")).and_then(Value::as_array).map_or(&[][..], Vec::as_slice)
}

fn kind(p: &Value) -> Option<&str> {
    p.get("type").and_then(Value::as_str)
}

/// A content's text: a string, or its `text` parts joined.
fn text_of(content: Option<&Value>) -> String {
    match content {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(a)) => a
            .iter()
            .filter(|p| kind(p) == Some("text"))
            .filter_map(|p| p.get("text")?.as_str())
            .collect(),
        _ => String::new(),
    }
}

/// The exit code a bash result's last line says (`Command exited with code
/// N`), when it says one.
pub(crate) fn exit_code(text: &str) -> Option<i64> {
    let last = text.rsplit('\n').next()?;
    last.strip_prefix("Command exited with code ")?.trim().parse().ok()
}

#[cfg(test)]
mod tests;
