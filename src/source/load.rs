//! The one loader: a file (or stdin) in, per-session records out.
//!
//! Formats, detected per input:
//! 1. frame logs — one WebSocket message per line (envelopes or bare frames);
//! 2. DSH session logs — `session.jsonl` / `session.jsonl.zstd`: a header line,
//!    events, and packed chunk rows (expanded);
//! 3. `session.history` responses — one JSON document holding pages
//!    (`{events, hasMore}`, server-response envelopes, lists, `{pages:[…]}`).
//!
//! zstd input is recognised by its magic number, whatever the file name.
//! Several sessions in one input are kept apart by `sessionId`.

use std::collections::HashMap;
use std::io::Read;

use serde_json::Value;

use super::chunks;
use crate::wire::{Diagnostic, Frame, Origin, Record, SessionEvent, ViewEnvelope, ViewFor};

const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];
/// Raw text kept in a diagnostic for display is the whole line; this caps
/// what a *reason* quotes.
const QUOTE: usize = 80;

/// The detected input format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    FrameLog,
    SessionLog,
    History,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::FrameLog => "frame log",
            Format::SessionLog => "session log",
            Format::History => "history",
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("cannot read {path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{0}: empty input")]
    Empty(String),
    #[error("{path}: unknown format: {reason}")]
    UnknownFormat { path: String, reason: String },
    #[error("{path}: no session {id:?} (sessions: {known})")]
    NoSuchSession {
        path: String,
        id: String,
        known: String,
    },
}

/// One session's records, in input order.
#[derive(Debug, Clone, Default)]
pub struct LoadedSession {
    pub id: Option<String>,
    /// The session log header line, when there was one.
    pub header: Option<Value>,
    pub records: Vec<Record>,
}

impl LoadedSession {
    /// Number of diagnostics among the records.
    pub fn diagnostics(&self) -> usize {
        self.records
            .iter()
            .filter(|r| matches!(r, Record::Diagnostic(_)))
            .count()
    }
}

/// Everything read from one input.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub name: String,
    pub format: Format,
    pub compressed: bool,
    pub sessions: Vec<LoadedSession>,
    pub lines: usize,
}

impl Loaded {
    /// The session to show: `id` if given, else the first one.
    pub fn session(&self, id: Option<&str>) -> Result<&LoadedSession, LoadError> {
        match id {
            None => self
                .sessions
                .first()
                .ok_or_else(|| LoadError::Empty(self.name.clone())),
            Some(id) => self
                .sessions
                .iter()
                .find(|s| s.id.as_deref() == Some(id))
                .ok_or_else(|| LoadError::NoSuchSession {
                    path: self.name.clone(),
                    id: id.to_string(),
                    known: self
                        .sessions
                        .iter()
                        .filter_map(|s| s.id.clone())
                        .collect::<Vec<_>>()
                        .join(", "),
                }),
        }
    }
}

/// Load a path; `-` reads stdin.
pub fn load_path(path: &str) -> Result<Loaded, LoadError> {
    let io = |source| LoadError::Io {
        path: path.to_string(),
        source,
    };
    let bytes = if path == "-" {
        let mut buf = Vec::new();
        std::io::stdin().read_to_end(&mut buf).map_err(io)?;
        buf
    } else {
        std::fs::read(path).map_err(io)?
    };
    load_bytes(path, &bytes)
}

/// Group records by session.
#[derive(Default)]
struct Sessions {
    list: Vec<LoadedSession>,
    index: HashMap<String, usize>,
    current: Option<usize>,
    /// Records seen before any session was named.
    orphans: Vec<Record>,
}

impl Sessions {
    fn select(&mut self, id: &str) -> usize {
        let i = match self.index.get(id) {
            Some(&i) => i,
            None => {
                self.list.push(LoadedSession {
                    id: Some(id.to_string()),
                    ..Default::default()
                });
                let i = self.list.len() - 1;
                self.index.insert(id.to_string(), i);
                if i == 0 {
                    // Whatever came before the first named session belongs to it.
                    self.list[0].records.append(&mut self.orphans);
                }
                i
            }
        };
        self.current = Some(i);
        i
    }

    fn push(&mut self, session: Option<&str>, record: Record) {
        let target = match session {
            Some(id) => Some(self.select(id)),
            None => self.current,
        };
        match target {
            Some(i) => self.list[i].records.push(record),
            None => self.orphans.push(record),
        }
    }

    fn finish(mut self) -> Vec<LoadedSession> {
        if !self.orphans.is_empty() {
            self.list.push(LoadedSession {
                id: None,
                header: None,
                records: std::mem::take(&mut self.orphans),
            });
        }
        self.list
    }
}

fn quote(s: &str) -> String {
    crate::text::wrap::truncate_str(&crate::text::sanitize::inline(s), QUOTE)
}

/// Load bytes already in memory. `name` is used in messages.
pub fn load_bytes(name: &str, bytes: &[u8]) -> Result<Loaded, LoadError> {
    let mut pre = Vec::new();
    let compressed = bytes.starts_with(&ZSTD_MAGIC);
    let owned;
    let text: &[u8] = if compressed {
        let mut out = Vec::new();
        let mut dec = zstd::stream::read::Decoder::new(bytes).map_err(|source| LoadError::Io {
            path: name.into(),
            source,
        })?;
        if let Err(e) = dec.read_to_end(&mut out) {
            pre.push(Diagnostic {
                origin: Origin::default(),
                reason: format!(
                    "zstd stream is damaged or truncated after {} decoded bytes: {e}",
                    out.len()
                ),
                raw: String::new(),
            });
        }
        owned = out;
        &owned
    } else {
        bytes
    };
    if text.iter().all(u8::is_ascii_whitespace) {
        return Err(LoadError::Empty(name.to_string()));
    }
    let first = text
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(0);
    if matches!(text[first], b'{' | b'[')
        && let Ok(doc) = serde_json::from_slice::<Value>(text)
        && let Some(loaded) = load_history(name, &doc, compressed, &mut pre)
    {
        return Ok(loaded);
    }
    load_lines(name, text, compressed, pre)
}

fn load_lines(
    name: &str,
    text: &[u8],
    compressed: bool,
    pre: Vec<Diagnostic>,
) -> Result<Loaded, LoadError> {
    let mut sessions = Sessions::default();
    for d in pre {
        sessions.push(None, Record::Diagnostic(d));
    }
    let mut format = Format::FrameLog;
    let mut decoded = 0usize;
    let mut first_reason: Option<String> = None;
    let mut offset = 0u64;
    let mut lines = 0usize;
    let ends_with_newline = text.ends_with(b"\n");
    let mut parts = text.split(|&b| b == b'\n').peekable();
    while let Some(raw) = parts.next() {
        let last = parts.peek().is_none();
        let this_offset = offset;
        offset += raw.len() as u64 + 1;
        if last && raw.is_empty() {
            break;
        }
        lines += 1;
        let origin = Origin {
            line: lines,
            offset: this_offset,
        };
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        if raw.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let diag = |reason: String, raw_text: String| {
            Record::Diagnostic(Diagnostic {
                origin,
                reason,
                raw: raw_text,
            })
        };
        let line: std::borrow::Cow<str> = match std::str::from_utf8(raw) {
            Ok(s) => s.into(),
            Err(e) => {
                let lossy = String::from_utf8_lossy(raw).into_owned();
                sessions.push(
                    None,
                    diag(
                        format!(
                            "invalid UTF-8 at byte {} of the line; decoded lossily",
                            e.valid_up_to()
                        ),
                        lossy.clone(),
                    ),
                );
                lossy.into()
            }
        };
        let value: Value = match serde_json::from_str(&line) {
            Ok(v) => v,
            Err(e) => {
                let truncated = last && !ends_with_newline && e.is_eof();
                let reason = if truncated {
                    format!("truncated last line ({e})")
                } else {
                    format!("not JSON: {e} — {}", quote(&line))
                };
                first_reason.get_or_insert_with(|| reason.clone());
                sessions.push(None, diag(reason, line.into_owned()));
                continue;
            }
        };
        let kind = value.get("type").and_then(Value::as_str).unwrap_or("");
        if kind == "session" && value.get("id").is_some() && value.get("seq").is_none() {
            format = Format::SessionLog;
            let id = value
                .get("id")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            let i = sessions.select(&id);
            sessions.list[i].header = Some(value);
            decoded += 1;
            continue;
        }
        if chunks::is_chunk_row(kind) {
            format = Format::SessionLog;
            match value.as_object().map(chunks::expand) {
                Some(Ok(events)) => {
                    decoded += 1;
                    for event in events {
                        sessions.push(
                            None,
                            Record::Event {
                                event,
                                view: None,
                                origin,
                            },
                        );
                    }
                }
                Some(Err(reason)) => {
                    first_reason.get_or_insert_with(|| reason.clone());
                    sessions.push(None, diag(reason, line.into_owned()));
                }
                None => unreachable!("a chunk row has a type, so it is an object"),
            }
            continue;
        }
        let host_frame = kind.starts_with("host/");
        match Frame::from_owned(value) {
            Ok(frame) => {
                decoded += 1;
                if host_frame {
                    // Host-stream frames belong to no session transcript.
                    continue;
                }
                let sid = frame.session_id().map(str::to_string);
                sessions.push(sid.as_deref(), Record::from_frame(frame, origin));
            }
            Err(reason) => {
                let reason = format!("{reason} — {}", quote(&line));
                first_reason.get_or_insert_with(|| reason.clone());
                sessions.push(None, diag(reason, line.into_owned()));
            }
        }
    }
    if decoded == 0 {
        return Err(LoadError::UnknownFormat {
            path: name.to_string(),
            reason: first_reason
                .unwrap_or_else(|| "no line is a DSH frame, event or log row".into()),
        });
    }
    Ok(Loaded {
        name: name.to_string(),
        format,
        compressed,
        sessions: sessions.finish(),
        lines,
    })
}

/// Collect history pages from any of the shapes they come in.
fn collect_pages<'a>(v: &'a Value, pages: &mut Vec<&'a Value>, errors: &mut Vec<String>) {
    match v {
        Value::Array(items) => items.iter().for_each(|i| collect_pages(i, pages, errors)),
        Value::Object(o) => {
            if o.get("events").is_some_and(Value::is_array) {
                pages.push(v);
            } else if let Some(p) = o.get("pages") {
                collect_pages(p, pages, errors);
            } else if let Some(r) = o.get("result") {
                match (r.get("ok").and_then(Value::as_bool), r.get("value")) {
                    (Some(true), Some(value)) => collect_pages(value, pages, errors),
                    _ => errors.push(format!(
                        "history page is an error response: {}",
                        quote(&r.get("error").map(Value::to_string).unwrap_or_default())
                    )),
                }
            }
        }
        _ => {}
    }
}

fn load_history(
    name: &str,
    doc: &Value,
    compressed: bool,
    pre: &mut Vec<Diagnostic>,
) -> Option<Loaded> {
    let mut pages = Vec::new();
    let mut errors = Vec::new();
    collect_pages(doc, &mut pages, &mut errors);
    if pages.is_empty() {
        return None;
    }
    let session_id = doc
        .get("sessionId")
        .and_then(Value::as_str)
        .map(str::to_string);
    let origin = Origin { line: 1, offset: 0 };
    let mut records: Vec<Record> = std::mem::take(pre)
        .into_iter()
        .map(Record::Diagnostic)
        .collect();
    for e in errors {
        records.push(Record::Diagnostic(Diagnostic {
            origin,
            reason: e,
            raw: String::new(),
        }));
    }
    let mut events: Vec<(SessionEvent, Option<ViewEnvelope>)> = Vec::new();
    for (p, page) in pages.iter().enumerate() {
        let list = page
            .get("events")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        for (i, entry) in list.iter().enumerate() {
            let ev = entry.get("event").unwrap_or(entry);
            match SessionEvent::from_value(ev) {
                Ok(event) => {
                    let view = entry.get("view").and_then(|v| {
                        let for_ = match v.get("for").and_then(Value::as_str)? {
                            "call" => ViewFor::Call,
                            "result" => ViewFor::Result,
                            _ => return None,
                        };
                        Some(ViewEnvelope::new(for_, v.get("view")?.clone()))
                    });
                    events.push((event, view));
                }
                Err(reason) => records.push(Record::Diagnostic(Diagnostic {
                    origin,
                    reason: format!("history page {} event {}: {reason}", p + 1, i + 1),
                    raw: entry.to_string(),
                })),
            }
        }
    }
    // Pages may come newest first: order by seq, and drop exact repeats.
    events.sort_by_key(|(e, _)| e.seq);
    events.dedup_by(|a, b| a.0.seq == b.0.seq && a.0 == b.0);
    records.extend(events.into_iter().map(|(event, view)| Record::Event {
        event,
        view,
        origin,
    }));
    Some(Loaded {
        name: name.to_string(),
        format: Format::History,
        compressed,
        sessions: vec![LoadedSession {
            id: session_id,
            header: None,
            records,
        }],
        lines: 1,
    })
}
