//! One JSON line in, what it stands for out — shared by the file loader and
//! the live sources — plus [`LineSplitter`], which cuts a byte stream that
//! arrives in pieces into complete lines (a partial last line is held until
//! its newline comes).
//!
//! A line is a session log header, a packed chunk row, a frame (envelope,
//! bare frame or bare session event), a line of another agent's session
//! log (handed on whole: its agent's reader reads it) or something that does
//! not decode, which becomes a [`Record::Diagnostic`] carrying the whole
//! line. No I/O here.

use serde_json::Value;

use crate::agents::dsh::read::{chunks, header_id, looks_like_history};
use crate::agents::read::Foreign;
use crate::wire::{Diagnostic, Frame, Origin, Record};

/// How much of a line a diagnostic's reason quotes.
const QUOTE: usize = 80;

/// What one line decoded to.
#[derive(Debug, PartialEq)]
pub enum Decoded {
    /// Whitespace only.
    Blank,
    /// A session log's first line (`{type:"session", id, …}`).
    Header { id: String, value: Value },
    /// The events a packed chunk row of a session log stands for (they
    /// belong to the current session).
    Packed(Vec<Record>),
    /// Records for the session named by `session` (`None`: the current one).
    Records {
        session: Option<String>,
        records: Vec<Record>,
    },
    /// A `host/*` frame: it belongs to no session transcript.
    Host(Value),
    /// A `session.history` document on one line (a page, a response
    /// envelope, a list of pages), read where it was.
    History { value: Value, origin: Origin },
    /// A line of another agent's session log ([`crate::agents::of_line`]):
    /// its agent's reader turns it into records.
    Foreign { line: Foreign, origin: Origin },
    /// The line did not decode; the diagnostic holds it whole.
    Bad(Diagnostic),
}

pub(crate) fn quote(s: &str) -> String {
    crate::text::wrap::truncate_str(&crate::text::sanitize::inline(s), QUOTE)
}

/// Which reader a decoder tries first: the one that read the line before
/// (the frame reader, or an agent's text reader: [`Agent::read_text`]).
/// The frame reader and an agent's text reader never both accept a line
/// (Claude Code's lines have no `seq`, `event` or `/` in their type; a
/// frame the fast path takes has one), so the order changes only the time
/// spent: a Claude Code log is not scanned as frames first, line after
/// line.
///
/// [`Agent::read_text`]: crate::agents::Agent::read_text
#[derive(Debug, Clone, Copy, Default)]
pub struct Hint {
    /// The agent (its index in the registry) whose text reader read the
    /// line before.
    text_first: Option<usize>,
}

/// Decode one line (without its newline). `truncated`: this is the last line
/// of an input that did not end with a newline (a JSON error then says so).
/// Invalid UTF-8 is decoded lossily; the caller gets the repair as `lossy`.
pub fn decode_line(raw: &[u8], origin: Origin, truncated: bool) -> (Decoded, Option<Diagnostic>) {
    decode_line_hinted(raw, origin, truncated, &mut Hint::default())
}

/// [`decode_line`], trying first the reader `hint` says read the line
/// before, and noting which one read this one.
pub fn decode_line_hinted(
    raw: &[u8],
    origin: Origin,
    truncated: bool,
    hint: &mut Hint,
) -> (Decoded, Option<Diagnostic>) {
    let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
    if raw.iter().all(u8::is_ascii_whitespace) {
        return (Decoded::Blank, None);
    }
    let (line, lossy) = match std::str::from_utf8(raw) {
        Ok(s) => (std::borrow::Cow::Borrowed(s), None),
        Err(e) => {
            let text = String::from_utf8_lossy(raw).into_owned();
            let d = Diagnostic {
                origin,
                reason: format!(
                    "invalid UTF-8 at byte {} of the line; decoded lossily",
                    e.valid_up_to()
                ),
                raw: text.clone(),
            };
            (std::borrow::Cow::Owned(text), Some(d))
        }
    };
    // An agent's line read here (on the decoder's threads) into what its
    // reader needs, without a JSON tree (Claude Code's).
    let read_text = |i: usize, line: &str| {
        let agent = crate::agents::ALL[i];
        agent.read_text(line).map(|line| Decoded::Foreign {
            line: Foreign::Read { agent, line },
            origin,
        })
    };
    if let Some(i) = hint.text_first
        && let Some(d) = read_text(i, &line)
    {
        return (d, lossy);
    }
    // Frames and events (nearly every line) without building a JSON tree.
    if let Some(frame) = Frame::decode_fast(&line)
        && let Frame::Event { event, .. } = &frame
        && !chunks::is_chunk_row(event.kind.as_str())
        && !event.kind.as_str().starts_with("host/")
    {
        hint.text_first = None;
        let session = frame.session_id().map(str::to_string);
        let records = vec![Record::from_frame(frame, origin)];
        return (Decoded::Records { session, records }, lossy);
    }
    for i in (0..crate::agents::ALL.len()).filter(|&i| hint.text_first != Some(i)) {
        if let Some(d) = read_text(i, &line) {
            hint.text_first = Some(i);
            return (d, lossy);
        }
    }
    let value: Value = match serde_json::from_str(&line) {
        Ok(v) => v,
        Err(e) => {
            let reason = if truncated && e.is_eof() {
                format!("truncated last line ({e})")
            } else {
                format!("not JSON: {e} — {}", quote(&line))
            };
            return (bad(origin, reason, line.into_owned()), lossy);
        }
    };
    (decode_value(value, &line, origin), lossy)
}

fn bad(origin: Origin, reason: String, raw: String) -> Decoded {
    Decoded::Bad(Diagnostic {
        origin,
        reason,
        raw,
    })
}

/// Decode one parsed line; `line` is its text (kept in diagnostics).
pub fn decode_value(value: Value, line: &str, origin: Origin) -> Decoded {
    if looks_like_history(&value) {
        return Decoded::History { value, origin };
    }
    if let Some(id) = header_id(&value) {
        return Decoded::Header { id, value };
    }
    let kind = value.get("type").and_then(Value::as_str).unwrap_or("");
    if chunks::is_chunk_row(kind) {
        let expanded = match value.as_object() {
            Some(row) => chunks::expand(row),
            None => Err(format!("{kind}: not an object")),
        };
        return match expanded {
            Ok(events) => Decoded::Packed(
                events
                    .into_iter()
                    .map(|event| Record::Event {
                        event,
                        view: None,
                        origin,
                    })
                    .collect(),
            ),
            Err(reason) => bad(origin, reason, line.to_string()),
        };
    }
    if kind.starts_with("host/") {
        return match Frame::from_value(&value) {
            Ok(_) => Decoded::Host(value),
            Err(reason) => bad(
                origin,
                format!("{reason} — {}", quote(line)),
                line.to_string(),
            ),
        };
    }
    // Another agent's line (never a DSH one: those were taken above or
    // carry what no agent's line has).
    if crate::agents::of_line(&value).is_some() {
        return Decoded::Foreign {
            line: Foreign::Value(value),
            origin,
        };
    }
    // Taken apart, not copied: lines are the loader's hot path.
    match Frame::from_owned(value) {
        Ok(frame) => {
            let session = frame.session_id().map(str::to_string);
            Decoded::Records {
                session,
                records: vec![Record::from_frame(frame, origin)],
            }
        }
        Err(reason) => bad(
            origin,
            format!("{reason} — {}", quote(line)),
            line.to_string(),
        ),
    }
}

/// A line handed out by [`LineSplitter`]: `raw` is the whole line, or for
/// a line cut at the limit its first bytes, with `cut` its whole length.
#[derive(Debug, Clone, Copy)]
pub struct Piece<'a> {
    pub raw: &'a [u8],
    pub origin: Origin,
    /// The line was longer than the limit: its length in bytes.
    pub cut: Option<u64>,
}

impl Piece<'_> {
    /// Decode it ([`decode_line`], or the diagnostic of a cut line).
    pub fn decode(&self, truncated: bool, limit: usize) -> (Decoded, Option<Diagnostic>) {
        match self.cut {
            None => decode_line(self.raw, self.origin, truncated),
            Some(len) => (cut_line(self.raw, len, self.origin, limit, truncated), None),
        }
    }

    /// [`Piece::decode`] with the [`Hint`] of the lines before.
    pub fn decode_hinted(
        &self,
        truncated: bool,
        limit: usize,
        hint: &mut Hint,
    ) -> (Decoded, Option<Diagnostic>) {
        match self.cut {
            None => decode_line_hinted(self.raw, self.origin, truncated, hint),
            Some(len) => (cut_line(self.raw, len, self.origin, limit, truncated), None),
        }
    }
}

/// The diagnostic of a line cut at the limit (`head`: its first bytes).
pub fn cut_line(head: &[u8], len: u64, origin: Origin, limit: usize, ended: bool) -> Decoded {
    bad(
        origin,
        super::limits::cut_reason(len, limit, ended),
        String::from_utf8_lossy(head).into_owned(),
    )
}

/// Cuts bytes arriving in pieces into lines, counting lines and byte
/// offsets from the start of the stream. A line longer than the limit is
/// not held: its first [`CUT_HEAD`](super::limits::CUT_HEAD) bytes are
/// kept, the rest counted and dropped until its newline.
#[derive(Debug)]
pub struct LineSplitter {
    partial: Vec<u8>,
    line: usize,
    offset: u64,
    limit: usize,
    /// The line being skipped: its length so far (`partial` holds its head).
    skipped: Option<u64>,
}

impl Default for LineSplitter {
    fn default() -> Self {
        LineSplitter::with_limit(super::limits::max_line())
    }
}

impl LineSplitter {
    pub fn new() -> LineSplitter {
        LineSplitter::default()
    }

    /// A splitter with its own line limit (bytes).
    pub fn with_limit(limit: usize) -> LineSplitter {
        LineSplitter {
            partial: Vec::new(),
            line: 0,
            offset: 0,
            limit: limit.max(1),
            skipped: None,
        }
    }

    /// A splitter for bytes that start after `line` lines and `offset` bytes
    /// of a stream (one block of a file decoded on its own).
    pub fn starting_at(line: usize, offset: u64, limit: usize) -> LineSplitter {
        LineSplitter {
            line,
            offset,
            ..LineSplitter::with_limit(limit)
        }
    }

    /// The line limit in bytes.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// Feed bytes; `f` gets every line completed by them.
    pub fn feed(&mut self, mut bytes: &[u8], mut f: impl FnMut(Piece<'_>)) {
        while let Some(nl) = memchr::memchr(b'\n', bytes) {
            let (head, rest) = bytes.split_at(nl);
            bytes = &rest[1..];
            self.line += 1;
            let origin = Origin {
                line: self.line,
                offset: self.offset,
            };
            if let Some(len) = self.skipped.take() {
                let len = len + head.len() as u64;
                self.offset += len + 1;
                let kept = std::mem::take(&mut self.partial);
                f(Piece {
                    raw: &kept,
                    origin,
                    cut: Some(len),
                });
            } else if self.partial.is_empty() && head.len() <= self.limit {
                self.offset += head.len() as u64 + 1;
                f(Piece {
                    raw: head,
                    origin,
                    cut: None,
                });
            } else if self.partial.len() + head.len() <= self.limit {
                self.partial.extend_from_slice(head);
                let whole = std::mem::take(&mut self.partial);
                self.offset += whole.len() as u64 + 1;
                f(Piece {
                    raw: &whole,
                    origin,
                    cut: None,
                });
            } else {
                let len = (self.partial.len() + head.len()) as u64;
                self.keep_head(head);
                self.offset += len + 1;
                let kept = std::mem::take(&mut self.partial);
                f(Piece {
                    raw: &kept,
                    origin,
                    cut: Some(len),
                });
            }
        }
        if bytes.is_empty() {
            return;
        }
        match &mut self.skipped {
            Some(len) => *len += bytes.len() as u64,
            None if self.partial.len() + bytes.len() <= self.limit => {
                if self.partial.len() + bytes.len() > self.partial.capacity()
                    && self.partial.len() >= 1 << 20
                {
                    // A long line: room for the limit once (used as it is
                    // read), never a copy per doubling.
                    self.partial.reserve_exact(self.limit - self.partial.len());
                }
                self.partial.extend_from_slice(bytes)
            }
            None => {
                let len = (self.partial.len() + bytes.len()) as u64;
                self.keep_head(bytes);
                self.skipped = Some(len);
            }
        }
    }

    /// Cut the partial line to its head, taking what `more` adds to it.
    fn keep_head(&mut self, more: &[u8]) {
        let head = super::limits::CUT_HEAD.min(self.limit);
        if self.partial.len() < head {
            let take = (head - self.partial.len()).min(more.len());
            self.partial.extend_from_slice(&more[..take]);
        }
        self.partial.truncate(head);
        self.partial.shrink_to_fit();
    }

    /// Bytes of an unfinished last line held back (for a line being cut,
    /// the head kept).
    #[cfg(any(test, feature = "internals"))]
    pub fn pending(&self) -> usize {
        self.partial.len()
    }

    /// End of stream: hand out an unfinished last line, if any.
    pub fn finish(&mut self, mut f: impl FnMut(Piece<'_>)) {
        if self.partial.is_empty() && self.skipped.is_none() {
            return;
        }
        self.line += 1;
        let origin = Origin {
            line: self.line,
            offset: self.offset,
        };
        let whole = std::mem::take(&mut self.partial);
        let cut = self.skipped.take();
        self.offset += cut.unwrap_or(whole.len() as u64);
        f(Piece {
            raw: &whole,
            origin,
            cut,
        });
    }

    /// Start over (a truncated file is read again from its start).
    pub fn reset(&mut self) {
        *self = LineSplitter::with_limit(self.limit);
    }

    /// Lines completed so far.
    #[cfg(any(test, feature = "internals"))]
    pub fn lines(&self) -> usize {
        self.line
    }
}

#[cfg(test)]
mod tests;
