//! The loader: bytes in (`source`), the agents' readers dispatched to
//! (`agents`, through the registry), per-session records out. It sits
//! above both: it reads a file or stdin with `source`'s byte machinery,
//! decodes each line ([`decode`]), hands another agent's lines to that
//! agent's reader and calls that agent's side-file hook (`Agent::beside`)
//! with what the hook needs; no agent calls it.
//!
//! Formats, detected per input:
//! 1. frame logs — one WebSocket message per line (envelopes or bare frames);
//! 2. DSH session logs — `session.jsonl` / `session.jsonl.zstd`: a header line,
//!    events, and packed chunk rows (expanded);
//! 3. `session.history` responses — one JSON document holding pages
//!    (`{events, hasMore}`, server-response envelopes, lists, `{pages:[…]}`);
//! 4. other agents' session logs (Claude Code, Codex, ACP recordings): the
//!    first of their lines picks the agent's reader (`agents::of_line`),
//!    which turns every such line into records;
//! 5. other agents' session files of text lines, not JSON (aider's
//!    markdown): the first line that is not blank picks the agent
//!    (`Agent::text_lines`), whose reader takes every line as a JSON
//!    string (`text.rs`);
//! 6. stores read from their path, not as logs (`database.rs`): an agent's
//!    database (OpenCode's `opencode.db`), or the file that roots an
//!    agent's tree of files (a session of OpenCode's older `storage/`).
//!
//! zstd input is recognised by its magic number, whatever the file name.
//! Several sessions in one input are kept apart by `sessionId`.
//!
//! Besides whole inputs (this file, with `group.rs`: records grouped by
//! session, `sniff.rs`: binary input refused, `log.rs`: what a load tells
//! the log), the loader is the live line pipeline ([`stream`]) that
//! `listen` ([`listen`]), `follow` ([`follow`]) and the ACP client feed.

use std::io::Read;

use serde_json::Value;

use crate::agents::read::{Out, Translate};
use crate::source::blocks::{decode_stream, fill};
use crate::wire::{Diagnostic, Origin, Record};
use decode::Decoded;

const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

/// The detected input format (the agents' formats: see `crate::agents`).
pub use crate::agents::Format;

pub use loaded::{LoadError, Loaded, LoadedSession};

/// Load a path; `-` reads stdin. The input is streamed: a frame log or
/// session log is never held whole in memory. A session read from a path
/// brings what its agent keeps beside it (`Agent::beside`: a Claude Code
/// session's subagents' logs, nested under their calls; output saved to
/// `tool-results/`).
pub fn load_path(path: &str) -> Result<Loaded, LoadError> {
    load_path_counted(path, &std::sync::Arc::default())
}

/// [`load_path`], adding the input bytes read to `read` as it goes (for a
/// progress display).
pub fn load_path_counted(
    path: &str,
    read: &std::sync::Arc<std::sync::atomic::AtomicU64>,
) -> Result<Loaded, LoadError> {
    let started = std::time::Instant::now();
    tracing::info!(input = path, "loading");
    let database = (path != "-").then(|| database::load(path)).flatten();
    let loaded = database.unwrap_or_else(|| {
        let mut held = Collected::default();
        let mut loaded = read_path(path, read, &mut held).map(|s| held.loaded(path, s));
        if let Ok(l) = &mut loaded
            && path != "-"
        {
            attach_beside(path, l);
        }
        loaded
    });
    log::loaded(path, &loaded, started.elapsed());
    loaded
}

/// Load the file at `path`, already opened, up to `upto` bytes — the size
/// it had when its read began (`File::metadata` of the open file): what a
/// writer appends meanwhile is left for the next read, so a session being
/// written is read as it stood, never chased (the library's index).
pub fn load_file_upto(path: &str, file: std::fs::File, upto: u64) -> Result<Loaded, LoadError> {
    let started = std::time::Instant::now();
    tracing::info!(input = path, bytes = upto, "loading");
    let loaded = database::load(path).unwrap_or_else(|| load_file(path, file.take(upto), Some(upto)));
    log::loaded(path, &loaded, started.elapsed());
    loaded
}

/// A file's content, and what its agent keeps beside each session
/// (`Agent::beside`: a Claude Code session's subagents' logs, output too
/// large for the log).
fn load_file(path: &str, input: impl Read + Send, size: Option<u64>) -> Result<Loaded, LoadError> {
    let mut loaded = load_sized(path, input, size)
        .map_err(|source| LoadError::Io {
            path: path.to_string(),
            source,
        })
        .and_then(|r| r);
    if let Ok(l) = &mut loaded {
        attach_beside(path, l);
    }
    loaded
}

/// What its agent keeps beside each session of the log at `path`, put in.
fn attach_beside(path: &str, loaded: &mut Loaded) {
    if let Some(beside) = loaded.format.agent().beside() {
        let log = std::path::Path::new(path);
        for s in &mut loaded.sessions {
            if let Some(id) = s.id.clone() {
                beside.attach(log, &id, &mut s.records, &read_log);
            }
        }
    }
}

/// Open `path` (`-`: stdin) and read it (zstd or not, any format) into
/// `store`, the input bytes read added to `read` as it goes.
fn read_path(
    path: &str,
    read: &std::sync::Arc<std::sync::atomic::AtomicU64>,
    store: &mut dyn Store,
) -> Result<Summary, LoadError> {
    let io = |source| LoadError::Io {
        path: path.to_string(),
        source,
    };
    if path == "-" {
        let input = Counted(std::io::stdin(), read.clone());
        return read_input(path, input, None, store).map_err(io).and_then(|r| r);
    }
    std::fs::File::open(path).map_err(io).and_then(|file| {
        let size = file.metadata().ok().map(|m| m.len());
        read_input(path, Counted(file, read.clone()), size, store)
            .map_err(io)
            .and_then(|r| r)
    })
}

/// Another log read whole for an agent's side-file hook (a subagent's):
/// its records, every session's, or why it could not be read (its
/// messages calling it `name`).
fn read_log(name: &str, path: &std::path::Path) -> Result<Vec<Record>, String> {
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let size = file.metadata().ok().map(|m| m.len());
    let loaded = load_sized(name, file, size)
        .map_err(|e| e.to_string())?
        .map_err(|e| e.to_string())?;
    Ok(loaded.sessions.into_iter().flat_map(|s| s.records).collect())
}

/// A reader that counts the bytes it hands out.
struct Counted<R>(R, std::sync::Arc<std::sync::atomic::AtomicU64>);

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.0.read(buf)?;
        self.1
            .fetch_add(n as u64, std::sync::atomic::Ordering::Relaxed);
        Ok(n)
    }
}

/// Load from a reader (zstd or not, any format). The outer error is an I/O
/// error before anything was read.
pub fn load_reader(
    name: &str,
    input: impl Read + Send,
) -> std::io::Result<Result<Loaded, LoadError>> {
    load_sized(name, input, None)
}

/// [`load_reader`] of an input of about `size` bytes (a file's length):
/// a document read whole is read into room of its size at once, not into
/// room doubled again and again (each left behind to the allocator).
fn load_sized(
    name: &str,
    input: impl Read + Send,
    size: Option<u64>,
) -> std::io::Result<Result<Loaded, LoadError>> {
    let mut held = Collected::default();
    let read = read_input(name, input, size, &mut held)?;
    Ok(read.map(|s| held.loaded(name, s)))
}

/// What reading an input found, beside the records its store was given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Summary {
    pub format: Format,
    pub compressed: bool,
    pub lines: usize,
}

/// Read `input` (zstd or not, any format), its records to `store`. The
/// outer error is an I/O error before anything was read.
fn read_input(
    name: &str,
    mut input: impl Read + Send,
    size: Option<u64>,
    store: &mut dyn Store,
) -> std::io::Result<Result<Summary, LoadError>> {
    let mut magic = Vec::with_capacity(4);
    (&mut input).take(4).read_to_end(&mut magic)?;
    let mut sessions = Sessions::new(store);
    if magic == ZSTD_MAGIC {
        let chained = std::io::Cursor::new(magic).chain(input);
        let dec = zstd::stream::read::Decoder::new(chained)?;
        return Ok(load_text(name, true, dec, None, &mut sessions));
    }
    let plain = std::io::Cursor::new(magic).chain(input);
    Ok(load_text(name, false, plain, size, &mut sessions))
}

/// Load bytes already in memory. `name` is used in messages.
pub fn load_bytes(name: &str, bytes: &[u8]) -> Result<Loaded, LoadError> {
    let started = std::time::Instant::now();
    let loaded = load_reader(name, bytes).unwrap_or_else(|source| {
        Err(LoadError::Io {
            path: name.into(),
            source,
        })
    });
    log::loaded(name, &loaded, started.elapsed());
    loaded
}

/// How much of the input format detection reads at most: a first line
/// longer than this is a line of a line format (its JSON is checked when it
/// is decoded, against the line limit), never read whole to decide.
const DETECT: usize = 1 << 20;

/// The most room reserved at once for a document by its size (a bigger
/// one grows from there: a size may be wrong).
const MOST_RESERVED: usize = 1 << 32;

/// Decompressed text in: one JSON document (a history), or lines.
fn load_text(
    name: &str,
    compressed: bool,
    mut text: impl Read + Send,
    size: Option<u64>,
    sessions: &mut Sessions<'_>,
) -> Result<Summary, LoadError> {
    // The first line decides: a whole JSON value on it means lines (frames,
    // events, log rows, a history on one line); otherwise the input may be
    // one document spread over lines (a pretty-printed history), read whole.
    let mut head = Vec::new();
    let mut pre = Vec::new();
    let mut error = None;
    let (ended, complete) = loop {
        let start = head.len();
        if fill(&mut text, &mut head, start + (64 << 10), 0, &mut error) {
            break (true, true);
        }
        if memchr::memchr(b'\n', &head[start..]).is_some() {
            break (false, true);
        }
        if head.len() >= DETECT {
            break (false, false);
        }
    };
    if let Some((at, e)) = &error {
        pre.push(damaged(compressed, *at, e));
    }
    // Binary data is refused from its first MiB, whatever its size: a
    // program or an image may hold a line of JSON (deck's own binary holds
    // its demo session), so reading on would fold a session out of it.
    if looks_binary(&head) {
        while head.len() < DETECT && !fill(&mut text, &mut head, DETECT, 0, &mut error) {}
        if !any_json_object_line(&head) {
            return Err(LoadError::Binary(name.to_string()));
        }
    }
    // A session file of text lines (aider's markdown chat history): its
    // agent's reader takes every line of it (`text.rs`).
    if let Some(agent) = text::agent_of(&head) {
        return Ok(text::load(agent, compressed, pre, head, text, sessions));
    }
    if !complete {
        return load_lines(name, compressed, pre, head, text, sessions);
    }
    let first_line = head.split(|&b| b == b'\n').next().unwrap_or(&[]);
    let trimmed = first_line.trim_ascii();
    let document = matches!(trimmed.first(), Some(b'{' | b'['))
        && serde_json::from_slice::<serde::de::IgnoredAny>(trimmed).is_err();
    if ended || document || trimmed.is_empty() {
        // Small or not line-shaped: read whole and let the document path try.
        if let Some(size) = size {
            let size = usize::try_from(size).unwrap_or(usize::MAX);
            head.reserve_exact(size.saturating_sub(head.len()).min(MOST_RESERVED));
        }
        if !ended && let Err(e) = text.read_to_end(&mut head) {
            pre.push(damaged(compressed, head.len() as u64, &e));
        }
        return load_whole(name, compressed, &head, pre, sessions);
    }
    load_lines(name, compressed, pre, head, text, sessions)
}

fn damaged(compressed: bool, at: u64, e: &std::io::Error) -> Diagnostic {
    let reason = match (compressed, at) {
        (true, 0) => format!("zstd stream ends early: nothing decoded ({e})"),
        (true, _) => format!("zstd stream is damaged or truncated after {at} decoded bytes: {e}"),
        (false, _) => format!("the input could not be read to its end after {at} bytes: {e}"),
    };
    Diagnostic {
        origin: Origin::default(),
        reason,
        raw: String::new(),
    }
}

/// An input held whole: a history document, or lines.
fn load_whole(
    name: &str,
    compressed: bool,
    text: &[u8],
    mut pre: Vec<Diagnostic>,
    sessions: &mut Sessions<'_>,
) -> Result<Summary, LoadError> {
    if text.iter().all(u8::is_ascii_whitespace) {
        if !pre.is_empty() {
            let empty = std::io::empty();
            return load_lines(name, compressed, pre, text.to_vec(), empty, sessions);
        }
        return Err(LoadError::Empty(name.to_string()));
    }
    let first = text
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(0);
    // An agent's session written as one document, read as a stream.
    if matches!(text[first], b'{' | b'[')
        && let Some(read) = document::load(text, compressed, &mut pre, sessions)
    {
        return Ok(read);
    }
    if matches!(text[first], b'{' | b'[')
        && let Ok(doc) = serde_json::from_slice::<Value>(text)
    {
        if let Some(read) = load_history(&doc, compressed, &mut pre, sessions) {
            return Ok(read);
        }
        // An agent's session written as one document.
        for agent in crate::agents::ALL {
            if let Some(lines) = agent.document(&doc) {
                return Ok(load_document(*agent, lines, compressed, pre, sessions));
            }
        }
    }
    let empty = std::io::empty();
    load_lines(name, compressed, pre, text.to_vec(), empty, sessions)
}

fn load_lines(
    name: &str,
    compressed: bool,
    pre: Vec<Diagnostic>,
    head: Vec<u8>,
    rest: impl Read + Send,
    sessions: &mut Sessions<'_>,
) -> Result<Summary, LoadError> {
    let pre_reason = pre.first().map(|d| d.reason.clone());
    for d in pre {
        sessions.push(None, Record::Diagnostic(d));
    }
    let mut decoded = 0usize;
    let mut first_reason: Option<String> = None;
    let binary = looks_binary(&head);
    // The reader of another agent's lines, picked at the first of them.
    let mut reader: Option<Box<dyn Translate>> = None;
    let mut out = Out::new();
    let outcome = decode_stream(head, rest, &decode::Lines, |(d, lossy)| {
        if let Some(l) = lossy {
            sessions.push(None, Record::Diagnostic(l));
        }
        match d {
            Decoded::Blank => {}
            Decoded::Header { id, value } => {
                sessions.set_format(Format::SessionLog);
                let i = sessions.select(&id);
                // The header is also a record: the transcript learns the
                // session's working directory from it.
                sessions.push(Some(&id), crate::agents::dsh::read::header_record(&value));
                sessions.header(i, &value, false);
                decoded += 1;
            }
            Decoded::Packed(records) => {
                sessions.set_format(Format::SessionLog);
                decoded += 1;
                for r in records {
                    sessions.push(None, r);
                }
            }
            Decoded::Records { session, records } => {
                decoded += 1;
                for r in records {
                    sessions.push(session.as_deref(), r);
                }
            }
            // Host-stream frames belong to no session transcript.
            Decoded::Host(_) => decoded += 1,
            Decoded::History { value, origin } => {
                match crate::agents::dsh::read::history::records(&value, origin) {
                    Some((id, records)) => {
                        sessions.set_format(Format::History);
                        decoded += 1;
                        for r in records {
                            sessions.push(id.as_deref(), r);
                        }
                    }
                    None => {
                        let diag = Diagnostic {
                            origin,
                            reason: "a JSON document that is neither a frame nor a history page"
                                .into(),
                            raw: value.to_string(),
                        };
                        first_reason.get_or_insert_with(|| diag.reason.clone());
                        sessions.push(None, Record::Diagnostic(diag));
                    }
                }
            }
            Decoded::Foreign { line, origin } => {
                if reader.is_none()
                    && let Some(agent) = line.agent()
                {
                    sessions.set_format(agent.format());
                    reader = agent.reader();
                }
                if let Some(r) = reader.as_mut() {
                    decoded += 1;
                    r.foreign(line, origin, &mut out);
                    push_out(sessions, &mut out);
                }
            }
            Decoded::Bad(diag) => {
                first_reason.get_or_insert_with(|| diag.reason.clone());
                sessions.push(None, Record::Diagnostic(diag));
            }
        }
    });
    if let Some(r) = reader.as_mut() {
        r.finish(&mut out);
        push_out(sessions, &mut out);
    }
    if let Some((at, e)) = &outcome.error {
        sessions.push(None, Record::Diagnostic(damaged(compressed, *at, e)));
    }
    if decoded == 0 {
        // A stream that broke before anything decoded says so, not "empty".
        let broken = pre_reason.or_else(|| {
            outcome
                .error
                .as_ref()
                .map(|(at, e)| damaged(compressed, *at, e).reason)
        });
        if let Some(reason) = broken.filter(|_| first_reason.is_none()) {
            return Err(LoadError::Damaged {
                path: name.to_string(),
                reason,
            });
        }
        if first_reason.is_none() {
            return Err(LoadError::Empty(name.to_string()));
        }
        if binary {
            return Err(LoadError::Binary(name.to_string()));
        }
        return Err(LoadError::UnknownFormat {
            path: name.to_string(),
            reason: first_reason
                .unwrap_or_else(|| "no line is a DSH frame, event or log row".into()),
        });
    }
    Ok(Summary {
        format: sessions.format(),
        compressed,
        lines: outcome.lines,
    })
}

/// Records an agent's reader made, each to its session.
fn push_out(sessions: &mut Sessions<'_>, out: &mut Out) {
    for (id, record) in out.drain(..) {
        if let Record::Frame { kind, payload, .. } = &record
            && kind == "session"
            && let Some(id) = id.as_deref()
        {
            let i = sessions.select(id);
            sessions.header(i, payload, true);
        }
        sessions.push(id.as_deref(), record);
    }
}

/// An agent's one-document session, read by its reader as the lines the
/// agent made of it (no line of the file is any one of them: their
/// records name none).
fn load_document(
    agent: &'static dyn crate::agents::Agent,
    lines: Vec<Value>,
    compressed: bool,
    pre: Vec<Diagnostic>,
    sessions: &mut Sessions<'_>,
) -> Summary {
    sessions.set_format(agent.format());
    for d in pre {
        sessions.push(None, Record::Diagnostic(d));
    }
    let mut out = Out::new();
    if let Some(mut reader) = agent.reader() {
        for line in &lines {
            reader.line(line, Origin::default(), &mut out);
            push_out(sessions, &mut out);
        }
        reader.finish(&mut out);
        push_out(sessions, &mut out);
    }
    Summary {
        format: agent.format(),
        compressed,
        lines: 1,
    }
}

/// A history document's records, one session's (taken as they are: a
/// history is in order).
fn load_history(
    doc: &Value,
    compressed: bool,
    pre: &mut Vec<Diagnostic>,
    sessions: &mut Sessions<'_>,
) -> Option<Summary> {
    let origin = Origin { line: 1, offset: 0 };
    let (session_id, events) = crate::agents::dsh::read::history::records(doc, origin)?;
    sessions.set_format(Format::History);
    sessions.as_is();
    if let Some(id) = &session_id {
        sessions.select(id);
    }
    for d in std::mem::take(pre) {
        sessions.push(None, Record::Diagnostic(d));
    }
    for r in events {
        sessions.push(None, r);
    }
    Some(Summary {
        format: Format::History,
        compressed,
        lines: 1,
    })
}

mod database;
pub mod decode;
mod document;
pub mod follow;
mod follow_database;
mod follow_whole;
mod group;
pub mod listen;
mod loaded;
mod log;
mod sniff;
pub mod stream;
mod streamed;
mod text;
pub mod window;

use sniff::{any_json_object_line, looks_binary};

pub(crate) use group::Store;
pub(crate) use streamed::{Exact, Gathered, Piece, stream_file_upto, stream_path, whole_needed};
use group::{Collected, Sessions};
pub use group::{in_seq_order, order_by_seq};

#[cfg(test)]
pub(crate) mod tests;
