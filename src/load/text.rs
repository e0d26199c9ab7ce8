//! Session files made of text lines rather than JSON ones (aider's
//! markdown chat history): recognised by their first line that is not
//! blank (`Agent::text_lines`), every line then handed, in order and
//! blank ones too, to that agent's reader as a JSON string
//! (`Value::String`) — for a file read whole ([`load`], streamed through
//! the loader's block decoder, never held whole) and for one followed
//! (`stream::LineStream`, line by line: [`line_value`]). No line of such a
//! file is read as JSON.

use std::io::Read;

use serde_json::Value;

use super::group::Sessions;
use super::{Summary, damaged, push_out};
use crate::agents::Agent;
use crate::agents::read::Out;
use crate::source::blocks::{DecodeLine, decode_stream};
use crate::source::lines::{Piece, cut_diagnostic};
use crate::wire::{Diagnostic, Origin, Record};

/// The agent whose text-line session file starts with `head` (its first
/// complete line that is not blank says), if any.
pub(super) fn agent_of(head: &[u8]) -> Option<&'static dyn Agent> {
    crate::agents::of_text(crate::agents::read::first_text_line(head)?)
}

/// One line of a text-line file: its text (without its newline or a
/// `\r` before it; invalid UTF-8 repaired, and said), or the diagnostic
/// of a line cut at the limit.
pub(super) struct TextLine {
    pub origin: Origin,
    pub text: Option<String>,
    pub diagnostic: Option<Diagnostic>,
}

/// A piece of a text-line file as its line.
pub(super) fn text_line(piece: &Piece<'_>, limit: usize, last: bool) -> TextLine {
    let origin = piece.origin;
    if let Some(len) = piece.cut {
        let d = cut_diagnostic(piece.raw, len, origin, limit, last);
        return TextLine {
            origin,
            text: None,
            diagnostic: Some(d),
        };
    }
    let raw = piece.raw.strip_suffix(b"\r").unwrap_or(piece.raw);
    match std::str::from_utf8(raw) {
        Ok(s) => TextLine {
            origin,
            text: Some(s.to_string()),
            diagnostic: None,
        },
        Err(e) => {
            let text = String::from_utf8_lossy(raw).into_owned();
            let d = Diagnostic {
                origin,
                reason: format!("invalid UTF-8 at byte {} of the line; decoded lossily", e.valid_up_to()),
                raw: text.clone(),
            };
            TextLine {
                origin,
                text: Some(text),
                diagnostic: Some(d),
            }
        }
    }
}

/// A line's text as its agent's reader takes it.
pub(crate) fn line_value(text: String) -> Value {
    Value::String(text)
}

/// The loader's decoder of a text-line file's blocks.
struct Decoder;

impl DecodeLine for Decoder {
    type Line = TextLine;
    type State = ();

    fn decode(&self, piece: &Piece<'_>, last: bool, limit: usize, _: &mut ()) -> TextLine {
        text_line(piece, limit, last)
    }
}

/// A text-line file of `agent` read whole: `head` (its first bytes) then
/// the rest of `text`, each line to the agent's reader.
pub(super) fn load(
    agent: &'static dyn Agent,
    compressed: bool,
    pre: Vec<Diagnostic>,
    head: Vec<u8>,
    text: impl Read + Send,
    sessions: &mut Sessions<'_>,
) -> Summary {
    sessions.set_format(agent.format());
    for d in pre {
        sessions.push(None, Record::Diagnostic(d));
    }
    let mut reader = agent.reader();
    let mut out = Out::new();
    let outcome = decode_stream(head, text, &Decoder, |line: TextLine| {
        if let Some(d) = line.diagnostic {
            sessions.push(None, Record::Diagnostic(d));
        }
        if let (Some(r), Some(text)) = (reader.as_mut(), line.text) {
            r.line(&line_value(text), line.origin, &mut out);
            push_out(sessions, &mut out);
        }
    });
    if let Some(r) = reader.as_mut() {
        r.finish(&mut out);
        push_out(sessions, &mut out);
    }
    if let Some((at, e)) = &outcome.error {
        sessions.push(None, Record::Diagnostic(damaged(compressed, *at, e)));
    }
    Summary {
        format: agent.format(),
        compressed,
        lines: outcome.lines,
    }
}
