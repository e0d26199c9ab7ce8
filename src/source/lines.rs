//! One JSON line in, what it stands for out — shared by the file loader and
//! the live sources — plus [`LineSplitter`], which cuts a byte stream that
//! arrives in pieces into complete lines (a partial last line is held until
//! its newline comes).
//!
//! A line is a session log header, a packed chunk row, a frame (envelope,
//! bare frame or bare session event) or something that does not decode, which
//! becomes a [`Record::Diagnostic`] carrying the whole line. No I/O here.

use serde_json::Value;

use super::chunks;
use crate::wire::{Diagnostic, Frame, Origin, Record};

/// How much of a line a diagnostic's reason quotes.
const QUOTE: usize = 80;

/// What one line decoded to.
#[derive(Debug, Clone, PartialEq)]
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
    /// The line did not decode; the diagnostic holds it whole.
    Bad(Diagnostic),
}

pub(crate) fn quote(s: &str) -> String {
    crate::text::wrap::truncate_str(&crate::text::sanitize::inline(s), QUOTE)
}

/// Decode one line (without its newline). `truncated`: this is the last line
/// of an input that did not end with a newline (a JSON error then says so).
/// Invalid UTF-8 is decoded lossily; the caller gets the repair as `lossy`.
pub fn decode_line(raw: &[u8], origin: Origin, truncated: bool) -> (Decoded, Option<Diagnostic>) {
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
    // Frames and events (nearly every line) without building a JSON tree.
    if let Some(frame) = Frame::decode_fast(&line)
        && let Frame::Event { event, .. } = &frame
        && !chunks::is_chunk_row(&event.kind)
        && !event.kind.starts_with("host/")
    {
        let session = frame.session_id().map(str::to_string);
        let records = vec![Record::from_frame(frame, origin)];
        return (Decoded::Records { session, records }, lossy);
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
    let kind = value.get("type").and_then(Value::as_str).unwrap_or("");
    if kind == "session" && value.get("id").is_some() && value.get("seq").is_none() {
        let id = value
            .get("id")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        return Decoded::Header { id, value };
    }
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

/// Cuts bytes arriving in pieces into lines, counting lines and byte
/// offsets from the start of the stream.
#[derive(Debug, Default)]
pub struct LineSplitter {
    partial: Vec<u8>,
    line: usize,
    offset: u64,
}

impl LineSplitter {
    pub fn new() -> LineSplitter {
        LineSplitter::default()
    }

    /// A splitter for bytes that start after `line` lines and `offset` bytes
    /// of a stream (one block of a file decoded on its own).
    pub fn starting_at(line: usize, offset: u64) -> LineSplitter {
        LineSplitter {
            line,
            offset,
            ..LineSplitter::default()
        }
    }

    /// Feed bytes; `f` gets every line completed by them, with its origin.
    pub fn feed(&mut self, mut bytes: &[u8], mut f: impl FnMut(&[u8], Origin)) {
        while let Some(nl) = memchr::memchr(b'\n', bytes) {
            let (head, rest) = bytes.split_at(nl);
            bytes = &rest[1..];
            self.line += 1;
            let origin = Origin {
                line: self.line,
                offset: self.offset,
            };
            if self.partial.is_empty() {
                self.offset += head.len() as u64 + 1;
                f(head, origin);
            } else {
                self.partial.extend_from_slice(head);
                let whole = std::mem::take(&mut self.partial);
                self.offset += whole.len() as u64 + 1;
                f(&whole, origin);
            }
        }
        self.partial.extend_from_slice(bytes);
    }

    /// Bytes of an unfinished last line held back.
    pub fn pending(&self) -> usize {
        self.partial.len()
    }

    /// End of stream: hand out an unfinished last line, if any.
    pub fn finish(&mut self, mut f: impl FnMut(&[u8], Origin)) {
        if self.partial.is_empty() {
            return;
        }
        self.line += 1;
        let origin = Origin {
            line: self.line,
            offset: self.offset,
        };
        let whole = std::mem::take(&mut self.partial);
        self.offset += whole.len() as u64;
        f(&whole, origin);
    }

    /// Start over (a truncated file is read again from its start).
    pub fn reset(&mut self) {
        *self = LineSplitter::default();
    }

    /// Lines completed so far.
    pub fn lines(&self) -> usize {
        self.line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(pieces: &[&str]) -> (Vec<(String, usize, u64)>, usize) {
        let mut s = LineSplitter::new();
        let mut out = Vec::new();
        for p in pieces {
            s.feed(p.as_bytes(), |l, o| {
                out.push((String::from_utf8_lossy(l).into_owned(), o.line, o.offset))
            });
        }
        (out, s.pending())
    }

    #[test]
    fn holds_partial_lines_until_complete() {
        let (lines, pending) = split(&["{\"a\"", ":1}\n{\"b\":2}\n{\"c\""]);
        assert_eq!(
            lines,
            vec![("{\"a\":1}".into(), 1, 0), ("{\"b\":2}".into(), 2, 8)]
        );
        assert_eq!(pending, 4);
    }

    #[test]
    fn finish_flushes_the_last_line() {
        let mut s = LineSplitter::new();
        let mut n = 0;
        s.feed(b"x\ny", |_, _| n += 1);
        s.finish(|l, o| {
            assert_eq!((l, o.line, o.offset), (&b"y"[..], 2, 2));
            n += 1;
        });
        assert_eq!(n, 2);
    }

    #[test]
    fn decodes_every_kind_of_line() {
        let o = Origin::default();
        assert_eq!(decode_line(b"  ", o, false).0, Decoded::Blank);
        assert!(matches!(
            decode_line(br#"{"type":"session","version":0,"id":"s1"}"#, o, false).0,
            Decoded::Header { id, .. } if id == "s1"
        ));
        assert!(matches!(
            decode_line(
                br#"{"type":"host/session-status","sessionId":"s","running":true}"#,
                o,
                false
            )
            .0,
            Decoded::Host(_)
        ));
        match decode_line(
            br#"{"type":"text-chunks","seq0":3,"time0":1,"data":{"turn":1,"step":1,"index":0,"dt":[1],"texts":["a","b"]}}"#,
            o,
            false,
        )
        .0
        {
            Decoded::Packed(records) => assert_eq!(records.len(), 2),
            d => panic!("{d:?}"),
        }
        match decode_line(br#"{"type":"session/event","sessionId":"s","event":{"type":"turn/start","seq":4,"time":1,"data":{}}}"#, o, false).0 {
            Decoded::Records { session, records } => {
                assert_eq!(session.as_deref(), Some("s"));
                assert_eq!(records[0].seq(), Some(4));
            }
            d => panic!("{d:?}"),
        }
        assert!(matches!(decode_line(b"{nope", o, false).0, Decoded::Bad(_)));
        match decode_line(b"{\"type\":\"x\"", o, true).0 {
            Decoded::Bad(d) => assert!(d.reason.contains("truncated"), "{}", d.reason),
            d => panic!("{d:?}"),
        }
        let (d, lossy) = decode_line(b"\xff{}", o, false);
        assert!(matches!(d, Decoded::Bad(_)));
        assert!(lossy.is_some());
    }
}
