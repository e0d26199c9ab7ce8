//! One Claude Code log line, read once into what the reader needs
//! ([`Line`]), with the heavy parts (a call's input, a result's content,
//! the structured `toolUseResult`) kept as JSON text, never as trees.
//!
//! Parsing happens where lines are decoded, on the loader's worker
//! threads; the reader, which keeps the session's order, only assembles
//! records from these pieces. Every field is read leniently: one of an
//! unexpected type is as good as absent, as with `Value::get(..).as_str()`.

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::Value;
use serde_json::value::{RawValue, to_raw_value};

use crate::wire::payload::{
    Json, PartContent, ResultError, ResultMessage, ResultPart, ResultSource, ToolResult,
};

mod meta;
mod progress;
mod refusal;
mod wire;
use meta::{background, checklist, tasks};
pub use progress::Progress;
use refusal::{Refusal, Said};
use wire::{Content, Obj, Raw, WireBlock, WireLine};

/// What kind of line it is (`type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    User,
    Assistant,
    Summary,
    /// `system` lines: a compaction's boundary among them.
    System,
    /// A `progress` line of `agent_progress`: a subagent's own line,
    /// logged inline ([`Line::progress`]).
    Progress,
    /// Any of the ~20 other line types: ignored quietly.
    Other,
}

/// A Claude Code log line, owned, ready for the reader.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    pub kind: Kind,
    pub session_id: Option<String>,
    pub sidechain: bool,
    pub is_meta: bool,
    /// `cwd`, `version`, `gitBranch`, `agentId`, as the line gives them.
    pub facts: Vec<(&'static str, String)>,
    /// `message.model`.
    pub model: Option<String>,
    /// `message.id` (one per model message, over all its lines).
    pub message_id: Option<String>,
    /// `message.usage`'s counts.
    pub usage: Option<super::Usage>,
    /// The line's `uuid`.
    pub uuid: Option<String>,
    /// A `system` line's `subtype`, its `compactMetadata`, and its
    /// `content` (a local command's).
    pub subtype: Option<String>,
    pub compact: Option<Value>,
    pub content: Option<String>,
    /// A user line marked as a compaction's summary (`isCompactSummary`).
    pub compact_summary: bool,
    /// An assistant message Claude Code wrote itself (`model:
    /// "<synthetic>"`): no model's turn; `api_error` when it reports an
    /// API error (`isApiErrorMessage`).
    pub synthetic: bool,
    pub api_error: bool,
    /// `timestamp`, epoch milliseconds.
    pub time: Option<i64>,
    /// A `summary` line's title.
    pub summary: Option<String>,
    pub body: Body,
    /// The line's `toolUseResult`, when it is an object.
    pub meta: Option<Meta>,
    /// The whole line, kept only when the reader will quote it (a message
    /// line without its message or content, an `agent_progress` line whose
    /// subagent's line does not read).
    pub raw: Option<String>,
    /// What an `agent_progress` line carries.
    pub progress: Option<Box<Progress>>,
}

/// A message line's content.
#[derive(Debug, Clone, PartialEq)]
pub enum Body {
    /// No `message` object.
    NoMessage,
    /// A message without string or array content.
    NoContent,
    Text(String),
    Blocks(Vec<Block>),
}

/// One content block of a message.
#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    /// A thinking block's text (`None`: not a string).
    Thinking(Option<String>),
    Text(Option<String>),
    ToolUse {
        id: Option<String>,
        name: Option<String>,
        /// The input's JSON text.
        input: Option<String>,
        /// The input's checklist (`todos: [{content, status}]`), when it is one.
        todos: Option<Vec<(String, String)>>,
        /// The block's text, kept when it lacks an id or a name.
        raw: Option<String>,
    },
    ToolResult {
        id: Option<String>,
        is_error: bool,
        /// Its `tool/result` event's data (`wire::payload::ToolResult`)
        /// but what the reader knows: `{"message":{…},"meta":{…}` (the
        /// content as DSH content blocks; the line's structured result
        /// when this is its one result), left open for the reader to add
        /// the turn and step.
        /// Written here, on the decoder's thread, with room for the rest:
        /// the content is most of a log's bytes, copied once.
        data: String,
        /// The block's text, kept when it lacks an id.
        raw: Option<String>,
    },
    Other,
}

/// What the reader needs of a line's structured result (`toolUseResult`;
/// its text goes into the data of the line's one result).
#[derive(Debug, Clone, PartialEq)]
pub struct Meta {
    /// What it says of the task list, if it is a task's result.
    pub tasks: Option<Tasks>,
    /// The task it says was started in the background (`backgroundTaskId`,
    /// or an `async_launched` agent's `agentId`).
    pub background: Option<String>,
}

/// A task-shaped structured result.
#[derive(Debug, Clone, PartialEq)]
pub enum Tasks {
    /// `tasks: [{id, subject, status}]`: the whole list.
    List(Vec<(String, String, String)>),
    /// `task: {id, subject}`: one created.
    Created(String, String),
    /// `taskId` + `statusChange.to`.
    Status(String, String),
}

/// The string a raw value is, if it is one.
fn string(r: Raw<'_>) -> Option<Cow<'_, str>> {
    let text = r?.get();
    if !text.starts_with('"') {
        return None;
    }
    match serde_json::from_str::<&str>(text) {
        Ok(s) => Some(Cow::Borrowed(s)),
        Err(_) => serde_json::from_str::<String>(text).ok().map(Cow::Owned),
    }
}

fn owned(r: Raw<'_>) -> Option<String> {
    let text = r?.get();
    if !text.starts_with('"') {
        return None;
    }
    serde_json::from_str::<String>(text).ok()
}

fn boolean(r: Raw<'_>) -> Option<bool> {
    match r?.get() {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}

fn is_object(r: Raw<'_>) -> bool {
    r.is_some_and(|r| r.get().starts_with('{'))
}


impl Line {
    /// Read a line's text. `None` when it is not a Claude Code line (see
    /// [`super::is_line`]: the same test) or does not parse as one (for
    /// instance with a key twice): the caller then reads it as JSON.
    pub fn parse(text: &str) -> Option<Line> {
        let w: WireLine<'_> = serde_json::from_str(text).ok()?;
        let kind = string(w.kind)?;
        if kind.is_empty() || kind.contains('/') || kind == "session" || kind == "server-request" {
            return None;
        }
        if w.seq.is_some() || w.event.is_some() || w.seq0.is_some() || w.provenance.is_some() {
            return None;
        }
        let named = string(w.uuid).is_some()
            || string(w.session_id).is_some()
            || string(w.leaf_uuid).is_some()
            || (string(w.message_id).is_some() && is_object(w.snapshot));
        if !named {
            return None;
        }
        if &*kind == "progress"
            && let Some(p) = progress::of(w.data, w.parent_tool_use_id)
        {
            let mut line = Line::of(w, Kind::Progress, text);
            // Kept to be quoted when it cannot be placed or read.
            line.raw = (p.line.is_err() || p.parent_call.is_none()).then(|| text.to_string());
            line.progress = Some(Box::new(p));
            return Some(line);
        }
        let kind = match &*kind {
            "user" => Kind::User,
            "assistant" => Kind::Assistant,
            "summary" => Kind::Summary,
            "system" => Kind::System,
            _ => Kind::Other,
        };
        Some(Line::of(w, kind, text))
    }

    /// A subagent's line inside an `agent_progress` line (`data.message`):
    /// a user or assistant line, without the names a log line carries.
    fn inner(text: &str) -> Result<Line, String> {
        let w: WireLine<'_> =
            serde_json::from_str(text).map_err(|e| format!("its message does not read ({e})"))?;
        let kind = match string(w.kind).as_deref() {
            Some("user") => Kind::User,
            Some("assistant") => Kind::Assistant,
            Some(other) => return Err(format!("its message is a {other:?} line")),
            None => return Err("its message has no type".into()),
        };
        Ok(Line::of(w, kind, text))
    }

    /// The line `w` (whose text is `text`) of kind `kind`.
    fn of(w: WireLine<'_>, kind: Kind, text: &str) -> Line {
        let mut line = Line {
            kind,
            session_id: owned(w.session_id),
            sidechain: boolean(w.sidechain).unwrap_or(false),
            is_meta: boolean(w.is_meta) == Some(true),
            facts: Vec::new(),
            model: None,
            message_id: None,
            usage: None,
            uuid: owned(w.uuid),
            subtype: None,
            compact: None,
            content: None,
            compact_summary: boolean(w.is_compact_summary) == Some(true),
            synthetic: false,
            api_error: boolean(w.is_api_error) == Some(true),
            time: string(w.timestamp).and_then(|t| crate::agents::read::epoch_ms(&t)),
            summary: None,
            body: Body::NoMessage,
            meta: None,
            raw: None,
            progress: None,
        };
        match kind {
            Kind::Other | Kind::Progress => return line,
            Kind::Summary => {
                line.summary = owned(w.summary);
                return line;
            }
            Kind::System => {
                line.subtype = owned(w.subtype);
                line.content = owned(w.content);
                line.compact = w
                    .compact_metadata
                    .and_then(|m| serde_json::from_str(m.get()).ok());
                return line;
            }
            Kind::User | Kind::Assistant => {}
        }
        for (key, r) in [
            ("cwd", w.cwd),
            ("version", w.version),
            ("gitBranch", w.git_branch),
            ("agentId", w.agent_id),
        ] {
            if let Some(s) = owned(r) {
                line.facts.push((key, s));
            }
        }
        if let Obj(Some(m)) = w.message {
            line.model = owned(m.model);
            line.synthetic = line.model.as_deref() == Some("<synthetic>");
            line.message_id = owned(m.id);
            line.usage = m
                .usage
                .filter(|u| u.get().starts_with('{'))
                .and_then(|u| super::Usage::parse(u.get()));
            let meta = w.tool_use_result.filter(|m| m.get().starts_with('{'));
            let said = Said::new(owned(w.tool_denial_kind), string(w.tool_use_result).as_deref());
            line.body = match m.content {
                Content::Text(t) => Body::Text(t),
                Content::Blocks(list) => Body::Blocks(blocks(list, meta, &said, text)),
                Content::None => Body::NoContent,
            };
        }
        if matches!(line.body, Body::NoMessage | Body::NoContent) {
            line.raw = Some(text.to_string());
        }
        if let Some(meta) = w.tool_use_result.filter(|m| m.get().starts_with('{')) {
            line.meta = Some(Meta {
                tasks: tasks(meta.get()),
                background: background(meta.get()),
            });
        }
        line
    }

    /// Read a line already parsed (tests, other sources): through its
    /// text, so both ways read it the same.
    pub fn from_value(v: &Value) -> Option<Line> {
        Line::parse(&v.to_string())
    }

    /// A user line's text: its string, or its text blocks joined.
    pub fn text(&self) -> String {
        match &self.body {
            Body::Text(s) => s.clone(),
            Body::Blocks(blocks) => blocks
                .iter()
                .filter_map(|b| match b {
                    Block::Text(Some(t)) => Some(t.as_str()),
                    _ => None,
                })
                .collect::<Vec<_>>()
                .join("\n"),
            _ => String::new(),
        }
    }
}

/// The blocks of a message, read in the line's pass. A block that lacks
/// its ids keeps its text for the reader to quote: only then is the line
/// read a second time, for that text.
///
/// `meta`: the line's structured result, which belongs to its result when
/// it has exactly one; `said`: what the line says of a refusal.
fn blocks(list: Vec<Obj<WireBlock<'_>>>, meta: Raw<'_>, said: &Said, line: &str) -> Vec<Block> {
    let mut raws: Option<Vec<&RawValue>> = None;
    let mut raw = |i: usize| -> Option<String> {
        let all = raws.get_or_insert_with(|| raw_blocks(line).unwrap_or_default());
        all.get(i).map(|r| r.get().to_string())
    };
    let results = list
        .iter()
        .filter(|b| matches!(b, Obj(Some(b)) if string(b.kind).as_deref() == Some("tool_result")))
        .count();
    let meta = meta.filter(|_| results == 1);
    list.into_iter()
        .enumerate()
        .map(|(i, b)| match b {
            Obj(Some(b)) => block(b, meta, said, || raw(i)),
            Obj(None) => Block::Other,
        })
        .collect()
}

/// A line's `message.content` blocks as their text.
fn raw_blocks(line: &str) -> Option<Vec<&RawValue>> {
    #[derive(Deserialize)]
    struct L<'a> {
        #[serde(borrow)]
        message: M<'a>,
    }
    #[derive(Deserialize)]
    struct M<'a> {
        #[serde(borrow)]
        content: Vec<&'a RawValue>,
    }
    serde_json::from_str::<L<'_>>(line)
        .ok()
        .map(|l| l.message.content)
}

fn block(
    b: WireBlock<'_>,
    meta: Raw<'_>,
    said: &Said,
    raw: impl FnOnce() -> Option<String>,
) -> Block {
    match string(b.kind).as_deref() {
        Some("thinking") => Block::Thinking(owned(b.thinking)),
        Some("text") => Block::Text(owned(b.text)),
        Some("tool_use") => {
            let (id, name) = (owned(b.id), owned(b.name));
            let input = b.input.map(|i| i.get().to_string());
            let todos = b.input.and_then(|i| checklist(i.get()));
            let raw = if id.is_none() || name.is_none() {
                raw()
            } else {
                None
            };
            Block::ToolUse {
                id,
                name,
                input,
                todos,
                raw,
            }
        }
        Some("tool_result") => {
            let id = owned(b.tool_use_id);
            let raw = if id.is_none() { raw() } else { None };
            // A tool-use error comes wrapped (`<tool_use_error>…`, with or
            // without `is_error`): an error, its message unwrapped.
            let flagged = boolean(b.is_error) == Some(true);
            // A refusal: not the tool's error; of its words only the
            // person's are kept.
            let refused = refused(b.content, said, flagged);
            let (is_error, content) = match (&refused, tool_use_error(b.content)) {
                (Some((_, words)), _) => (true, words_content(words.as_deref())),
                (None, Some(message)) => (true, PartContent::Text(message.into())),
                (None, None) => (flagged, result_content(b.content)),
            };
            // A command the person stopped (its structured result says
            // `interrupted`): what it printed is kept.
            let error = match refused {
                Some((r, _)) => Some(r.error()),
                None if stopped(meta) => Some(Refusal::Interrupted.error()),
                None => None,
            };
            let data = match &id {
                Some(id) => result_data(id, is_error, content, meta, error),
                None => String::new(),
            };
            Block::ToolResult {
                id,
                is_error,
                data,
                raw,
            }
        }
        _ => Block::Other,
    }
}

/// The refusal a result is ([`refusal`]), and the person's words in it.
fn refused(content: Raw<'_>, said: &Said, is_error: bool) -> Option<(Refusal, Option<String>)> {
    let raw = content?.get();
    // Most results are no refusal: a byte search spares them a parse.
    if !said.any() && memchr::memmem::find(raw.as_bytes(), b"want to proceed").is_none() {
        return None;
    }
    let text = refusal::text_of(&serde_json::from_str(raw).ok()?);
    let r = refusal::of(said, &text, is_error)?;
    Some((r, refusal::words(&text).map(str::to_string)))
}

/// Whether a structured result says its call was stopped while it ran
/// (`interrupted: true`).
fn stopped(meta: Raw<'_>) -> bool {
    let Some(m) = meta.map(RawValue::get) else {
        return false;
    };
    memchr::memmem::find(m.as_bytes(), b"\"interrupted\"").is_some()
        && serde_json::from_str::<Value>(m)
            .is_ok_and(|v| v.get("interrupted") == Some(&Value::Bool(true)))
}

/// A refused call's content: the person's words, or nothing.
fn words_content(words: Option<&str>) -> PartContent<'static> {
    match words {
        Some(w) => PartContent::Text(Cow::Owned(w.to_string())),
        None => no_blocks(),
    }
}

/// No blocks (`[]`).
fn no_blocks() -> PartContent<'static> {
    match serde_json::from_str::<&'static RawValue>("[]") {
        Ok(empty) => PartContent::Blocks(Cow::Borrowed(empty)),
        // Never: `[]` is JSON.
        Err(_) => PartContent::Text(Cow::Borrowed("")),
    }
}

/// A result's `tool/result` data but its turn and step, left open
/// ([`Block::ToolResult`]) for the reader to close with them; `error`: its
/// `error`, when it has one. The content and the structured result are
/// borrowed from the line: written here, once.
fn result_data(
    id: &str,
    is_error: bool,
    content: PartContent<'_>,
    meta: Raw<'_>,
    error: Option<ResultError>,
) -> String {
    let size = content.size_hint() + meta.map_or(0, |m| m.get().len()) + 2 * id.len() + 230;
    let part = ResultPart {
        kind: Some("tool-result".into()),
        tool_call_id: Some(Some(id.to_string())),
        content: Some(content),
        is_error: Some(is_error),
    };
    let data = ToolResult {
        message: Some(ResultMessage {
            role: Some("tool"),
            source: Some(ResultSource {
                kind: Some("tool"),
                call_id: Some(Some(id.to_string())),
            }),
            content: Some(vec![Some(part)]),
        }),
        error,
        meta: meta.map(|m| Json::Text(Cow::Borrowed(m))),
        ..ToolResult::default()
    };
    let mut text = Vec::with_capacity(size);
    if serde_json::to_writer(&mut text, &data).is_err() {
        return String::new();
    }
    // Left open: the reader adds the turn and the step.
    text.pop();
    String::from_utf8(text).unwrap_or_default()
}

/// The message of a result that is one `<tool_use_error>…</tool_use_error>`
/// (a string, or one text block).
fn tool_use_error(content: Raw<'_>) -> Option<String> {
    const OPEN: &str = "<tool_use_error>";
    let text = content?.get();
    memchr::memmem::find(text.as_bytes(), OPEN.as_bytes())?;
    let whole: String = match serde_json::from_str::<Value>(text).ok()? {
        Value::String(s) => s,
        Value::Array(blocks) => match blocks.as_slice() {
            [b] if b.get("type").and_then(Value::as_str) == Some("text") => {
                b.get("text")?.as_str()?.to_string()
            }
            _ => return None,
        },
        _ => return None,
    };
    let inner = whole.trim().strip_prefix(OPEN)?.strip_suffix("</tool_use_error>")?;
    Some(inner.trim().to_string())
}

/// A tool_result's content as DSH content blocks: a string is one text
/// block; text and image blocks are kept; a reference to a tool becomes
/// the tool's name as text.
fn result_content(content: Raw<'_>) -> PartContent<'_> {
    let Some(raw) = content else {
        return no_blocks();
    };
    let text = raw.get();
    if text.starts_with('"') {
        return PartContent::JsonText(Cow::Borrowed(raw));
    }
    let Some(Value::Array(blocks)) = serde_json::from_str::<Value>(text).ok() else {
        return no_blocks();
    };
    let kept: Vec<Value> = blocks
        .into_iter()
        .filter_map(|b| match b.get("type").and_then(Value::as_str) {
            Some("tool_reference") => b
                .get("tool_name")
                .and_then(Value::as_str)
                .map(|n| serde_json::json!({"type": "text", "text": n})),
            Some(_) => Some(b),
            None => None,
        })
        .collect();
    match to_raw_value(&kept) {
        Ok(blocks) => PartContent::Blocks(Cow::Owned(blocks)),
        Err(_) => no_blocks(),
    }
}
