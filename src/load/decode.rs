//! One line in, what it stands for out — shared by the file loader and
//! the live line pipeline ([`super::stream`]). A line is one of DSH's
//! (a session log's header, a packed chunk row, a frame, envelope or bare
//! session event, a history answer: read here, with `agents::dsh::read`),
//! a line of another agent's log (handed on whole, or read from its text
//! by its agent on the decoder's threads: the registry says whose,
//! `agents::of_line`, `Agent::read_text`), or something that does not
//! decode, which becomes a [`Record::Diagnostic`] carrying the whole line.
//! No I/O here.

use serde_json::Value;

use crate::agents::dsh::read::{chunks, header_id, looks_like_history};
use crate::agents::read::Foreign;
use crate::source::blocks::DecodeLine;
use crate::source::lines::{Piece, cut_diagnostic, quote};
use crate::wire::{Diagnostic, Frame, Origin, Record};

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
    /// The line before was the line of an agent without a text reader
    /// ([`Agent::reads_text`]), read as a JSON tree, and no text reader has
    /// read one: this one, when no frame, goes to the tree at once without
    /// trying the agents' text readers first.
    value_first: bool,
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
    // Frames and events (nearly every line) without building a JSON tree;
    // not tried on a line of an agent whose lines come as trees (the one
    // before was one: a frame among them still reads, as a tree).
    if !hint.value_first
        && let Some(frame) = Frame::decode_fast(&line)
        && let Frame::Event { event, .. } = &frame
        && !chunks::is_chunk_row(event.kind.as_str())
        && !event.kind.as_str().starts_with("host/")
    {
        hint.text_first = None;
        let session = frame.session_id().map(str::to_string);
        let records = vec![Record::from_frame(frame, origin)];
        return (Decoded::Records { session, records }, lossy);
    }
    let text_readers = if hint.value_first { 0 } else { crate::agents::ALL.len() };
    for i in (0..text_readers).filter(|&i| hint.text_first != Some(i)) {
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
    let (decoded, agent) = decode_value(value, &line, origin);
    // Lines of an agent without a text reader: the next is likely its too.
    hint.value_first = hint.text_first.is_none() && agent.is_some_and(|a| !a.reads_text());
    (decoded, lossy)
}

fn bad(origin: Origin, reason: String, raw: String) -> Decoded {
    Decoded::Bad(Diagnostic {
        origin,
        reason,
        raw,
    })
}

/// Decode one parsed line; `line` is its text (kept in diagnostics). With
/// it, the agent whose line it is when it is another agent's (asked once:
/// this is the loader's hot path).
fn decode_value(value: Value, line: &str, origin: Origin) -> (Decoded, Option<&'static dyn crate::agents::Agent>) {
    let mut agent = None;
    let decoded = decode_tree(value, line, origin, &mut agent);
    (decoded, agent)
}

fn decode_tree(
    value: Value,
    line: &str,
    origin: Origin,
    agent: &mut Option<&'static dyn crate::agents::Agent>,
) -> Decoded {
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
    *agent = crate::agents::of_line(&value);
    if agent.is_some() {
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

/// Decode a line the splitter handed out ([`decode_line`], or the
/// diagnostic of a line cut at the limit).
pub fn decode_piece(piece: &Piece<'_>, truncated: bool, limit: usize) -> (Decoded, Option<Diagnostic>) {
    match piece.cut {
        None => decode_line(piece.raw, piece.origin, truncated),
        Some(len) => cut(piece.raw, len, piece.origin, limit, truncated),
    }
}

/// [`decode_piece`] with the [`Hint`] of the lines before.
pub fn decode_piece_hinted(
    piece: &Piece<'_>,
    truncated: bool,
    limit: usize,
    hint: &mut Hint,
) -> (Decoded, Option<Diagnostic>) {
    match piece.cut {
        None => decode_line_hinted(piece.raw, piece.origin, truncated, hint),
        Some(len) => cut(piece.raw, len, piece.origin, limit, truncated),
    }
}

/// A line cut at the limit (`head`: its first bytes): its diagnostic.
fn cut(head: &[u8], len: u64, origin: Origin, limit: usize, ended: bool) -> (Decoded, Option<Diagnostic>) {
    (Decoded::Bad(cut_diagnostic(head, len, origin, limit, ended)), None)
}

/// The loader's line decoder, for the blocks decoded on the pool's
/// threads (`source::blocks`): each block's lines with a [`Hint`] of
/// their own.
#[derive(Debug, Clone, Copy, Default)]
pub struct Lines;

impl DecodeLine for Lines {
    type Line = (Decoded, Option<Diagnostic>);
    type State = Hint;

    fn decode(&self, piece: &Piece<'_>, last: bool, limit: usize, hint: &mut Hint) -> Self::Line {
        decode_piece_hinted(piece, last, limit, hint)
    }
}

#[cfg(test)]
mod tests;
