//! The line pipeline shared by `listen`, `follow` and the ACP client's
//! trace: bytes of one connection or file in, records of the shown session
//! out (`source::feed::Lines`).
//!
//! [`LineStream`] splits lines (holding a partial last line), hands each
//! complete line to the raw tap, decodes it and routes it by session: a
//! stream may carry several sessions, and one transcript shows one of them
//! (`--session ID`, else the first named). Records of other sessions are
//! left out with one diagnostic per session saying how to show them, so
//! nothing disappears silently. Another agent's lines go to its reader,
//! picked at the first of them (`agents::of_line`).

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use super::decode::{Decoded, decode_piece};
use crate::agents::read::{Out, Translate};
use crate::source::feed::{Lines, Output, StreamError};
use crate::source::lines::{LineSplitter, Piece};
use crate::source::live::{LiveEvent, Tap};
use crate::source::sessions::SessionBook;
use crate::wire::{Diagnostic, Origin, Record};

/// Sessions left out that get a diagnostic each; after them one more says
/// there are others (a stream of 100k sessions is not 100k diagnostics:
/// the session list has them all).
const HIDDEN_NAMED: usize = 10;

/// Which session is shown; shared by every connection of one source.
#[derive(Debug, Default)]
pub struct Selection {
    want: Option<String>,
    book: SessionBook,
    /// Sessions left out that a diagnostic named (at most
    /// [`HIDDEN_NAMED`]), and whether the one about the rest was said.
    hidden: HashSet<String>,
    hidden_more: bool,
}

impl Selection {
    /// `want`: the session to show; `None` picks the first one named.
    pub fn new(want: Option<String>) -> Arc<Mutex<Selection>> {
        Arc::new(Mutex::new(Selection {
            want,
            ..Default::default()
        }))
    }
}

/// One connection's (or file's) lines.
pub struct LineStream {
    splitter: LineSplitter,
    current: Option<String>,
    /// Prefix of diagnostics (`connection 2`), when there can be several.
    label: Option<String>,
    selection: Arc<Mutex<Selection>>,
    tap: Tap,
    /// The reader of another agent's lines, picked at the first of them.
    agent: Option<Box<dyn Translate>>,
    /// The stream is an agent's session file of text lines (its first
    /// line that is not blank said: `Agent::text_lines`): every line goes
    /// to `agent` as text (`load::text`), none is decoded as JSON.
    text_lines: bool,
    /// A line was seen that is not blank (the one that picks a text-line
    /// agent is the first).
    began: bool,
}

impl LineStream {
    pub fn new(label: Option<String>, selection: Arc<Mutex<Selection>>, tap: Tap) -> LineStream {
        LineStream {
            splitter: LineSplitter::new(),
            current: None,
            label,
            selection,
            tap,
            agent: None,
            text_lines: false,
            began: false,
        }
    }

    /// Feed bytes as they arrived.
    pub fn feed(&mut self, bytes: &[u8], out: &mut Output) -> Result<(), StreamError> {
        let mut lines = Vec::new();
        self.splitter
            .feed(bytes, |p| lines.push((p.raw.to_vec(), p.origin, p.cut)));
        for (raw, origin, cut) in lines {
            self.line(&raw, origin, cut, false, out)?;
        }
        Ok(())
    }

    /// End of input: an unfinished last line is decoded as truncated.
    pub fn finish(&mut self, out: &mut Output) -> Result<(), StreamError> {
        let mut last = None;
        self.splitter
            .finish(|p| last = Some((p.raw.to_vec(), p.origin, p.cut)));
        if let Some((raw, origin, cut)) = last {
            self.line(&raw, origin, cut, true, out)?;
        }
        if let Some(mut reader) = self.agent.take() {
            let mut made = Out::new();
            reader.finish(&mut made);
            self.route_out(made, Origin::default(), out);
        }
        Ok(())
    }

    /// Start again from byte 0 (a truncated file).
    pub fn reset(&mut self) {
        self.splitter.reset();
        self.current = None;
        self.agent = None;
        self.text_lines = false;
        self.began = false;
    }

    /// Whether its lines are another agent's, translated by its reader (which
    /// counts turns itself: from where the stream began, not the session's
    /// start).
    pub fn translated(&self) -> bool {
        self.agent.is_some() || self.text_lines
    }

    /// Bytes of an incomplete last line held back.
    #[cfg(any(test, feature = "internals"))]
    pub fn pending(&self) -> usize {
        self.splitter.pending()
    }

    fn label(&self, mut d: Diagnostic) -> Diagnostic {
        if let Some(l) = &self.label {
            d.reason = format!("{l}: {}", d.reason);
        }
        d
    }

    fn line(
        &mut self,
        raw: &[u8],
        origin: Origin,
        cut: Option<u64>,
        truncated: bool,
        out: &mut Output,
    ) -> Result<(), StreamError> {
        // A cut line is not recorded: only its head is left, and its
        // diagnostic says so.
        if let Some(tap) = &self.tap
            && cut.is_none()
            && !raw.iter().all(u8::is_ascii_whitespace)
        {
            tap.message(raw).map_err(StreamError::Tap)?;
        }
        let piece = Piece { raw, origin, cut };
        if self.text(&piece, truncated, out) {
            return Ok(());
        }
        let (decoded, lossy) = decode_piece(&piece, truncated, self.splitter.limit());
        if let Some(d) = lossy {
            out.records.push(Record::Diagnostic(self.label(d)));
        }
        let (session, records) = match decoded {
            Decoded::Blank => return Ok(()),
            Decoded::Bad(d) => {
                out.records.push(Record::Diagnostic(self.label(d)));
                return Ok(());
            }
            Decoded::Host(v) => {
                let mut sel = self.selection.lock().unwrap_or_else(|p| p.into_inner());
                if let Some(change) = sel.book.on_host_frame(&v) {
                    out.events.push(LiveEvent::Session(change));
                }
                return Ok(());
            }
            Decoded::Header { id, value } => {
                self.current = Some(id);
                (self.current.clone(), vec![crate::agents::dsh::read::header_record(&value)])
            }
            Decoded::Packed(records) => (self.current.clone(), records),
            Decoded::History { value, origin } => {
                match crate::agents::dsh::read::history::records(&value, origin) {
                    Some((id, records)) => (id.or_else(|| self.current.clone()), records),
                    None => {
                        let d = Diagnostic {
                            origin,
                            reason: "a JSON document that is neither a frame nor a history page"
                                .into(),
                            raw: value.to_string(),
                        };
                        out.records.push(Record::Diagnostic(self.label(d)));
                        return Ok(());
                    }
                }
            }
            Decoded::Records { session, records } => {
                if session.is_some() {
                    self.current.clone_from(&session);
                }
                (session.or_else(|| self.current.clone()), records)
            }
            Decoded::Foreign { line, origin } => {
                if self.agent.is_none() {
                    self.agent = line.agent().and_then(|a| a.reader());
                }
                let mut made = Out::new();
                if let Some(reader) = self.agent.as_mut() {
                    reader.foreign(line, origin, &mut made);
                }
                self.route_out(made, origin, out);
                return Ok(());
            }
        };
        self.route(session, records, origin, out);
        Ok(())
    }

    /// A line of a text-line session file (the first line that is not
    /// blank says whether the stream is one), to its agent's reader; false:
    /// the stream is not one, the line is decoded as usual.
    fn text(&mut self, piece: &Piece<'_>, truncated: bool, out: &mut Output) -> bool {
        if !self.began && !piece.raw.trim_ascii().is_empty() {
            self.began = true;
            let agent = std::str::from_utf8(piece.raw)
                .ok()
                .and_then(|l| crate::agents::of_text(l.trim_end_matches('\r')));
            if let Some(agent) = agent {
                self.text_lines = true;
                self.agent = agent.reader();
            }
        }
        if !self.text_lines {
            return !self.began; // blank lines before the first: nothing yet
        }
        let line = super::text::text_line(piece, self.splitter.limit(), truncated);
        if let Some(d) = line.diagnostic {
            out.records.push(Record::Diagnostic(self.label(d)));
        }
        let mut made = Out::new();
        if let (Some(reader), Some(text)) = (self.agent.as_mut(), line.text) {
            reader.line(&super::text::line_value(text), line.origin, &mut made);
        }
        self.route_out(made, line.origin, out);
        true
    }

    /// Records an agent's reader made, each to its session.
    fn route_out(&mut self, made: Out, origin: Origin, out: &mut Output) {
        for (session, record) in made {
            if session.is_some() {
                self.current.clone_from(&session);
            }
            let session = session.or_else(|| self.current.clone());
            self.route(session, vec![record], origin, out);
        }
    }

    /// Records of session `session` (`None`: no session named yet): shown
    /// when it is the session this view shows, else left out and said once.
    fn route(
        &mut self,
        session: Option<String>,
        records: Vec<Record>,
        origin: Origin,
        out: &mut Output,
    ) {
        let Some(id) = session else {
            out.records.extend(records);
            return;
        };
        let mut sel = self.selection.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(change) = sel.book.touch(&id) {
            out.events.push(LiveEvent::Session(change));
        }
        let want = sel.want.get_or_insert_with(|| id.clone());
        if *want == id {
            out.records.extend(records);
        } else if self.tap.is_none() && !sel.hidden.contains(&id) {
            // (A recording keeps every session: nothing is left out there.)
            let shown = sel.want.clone().unwrap_or_default();
            let reason = if sel.hidden.len() < HIDDEN_NAMED {
                sel.hidden.insert(id.clone());
                format!(
                    "frames of session {id} are not shown (this view shows {shown}; pass --session {id} to see it)"
                )
            } else if !std::mem::replace(&mut sel.hidden_more, true) {
                format!(
                    "frames of more sessions than these {HIDDEN_NAMED} are not shown either, from session {id} on (this view shows {shown}; --session ID shows another)"
                )
            } else {
                return;
            };
            let d = Diagnostic {
                origin,
                reason,
                raw: String::new(),
            };
            out.records.push(Record::Diagnostic(self.label(d)));
        }
    }
}

impl Lines for LineStream {
    fn feed(&mut self, bytes: &[u8], out: &mut Output) -> Result<(), StreamError> {
        LineStream::feed(self, bytes, out)
    }

    fn finish(&mut self, out: &mut Output) -> Result<(), StreamError> {
        LineStream::finish(self, out)
    }

    fn reset(&mut self) {
        LineStream::reset(self);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(sid: &str, seq: u64) -> String {
        format!(
            "{{\"type\":\"session/event\",\"sessionId\":\"{sid}\",\"event\":{{\"type\":\"turn/start\",\"seq\":{seq},\"time\":1,\"data\":{{\"turn\":1}}}}}}\n"
        )
    }

    #[test]
    fn routes_by_session_and_reports_the_others_once() {
        let sel = Selection::new(None);
        let mut s = LineStream::new(Some("connection 1".into()), sel, None);
        let mut out = Output::default();
        let input = [ev("a", 0), ev("b", 0), ev("b", 1), ev("a", 1)].concat();
        s.feed(input.as_bytes(), &mut out).unwrap();
        let seqs: Vec<_> = out.records.iter().filter_map(Record::seq).collect();
        assert_eq!(seqs, vec![0, 1]);
        let diags: Vec<_> = out
            .records
            .iter()
            .filter_map(|r| match r {
                Record::Diagnostic(d) => Some(d.reason.clone()),
                _ => None,
            })
            .collect();
        assert_eq!(diags.len(), 1);
        assert!(diags[0].starts_with("connection 1: frames of session b"));
        assert_eq!(
            out.events
                .iter()
                .filter(|e| matches!(e, LiveEvent::Session(_)))
                .count(),
            2
        );
    }

    #[test]
    fn many_left_out_sessions_are_named_ten_times_then_once() {
        let sel = Selection::new(None);
        let mut s = LineStream::new(None, sel, None);
        let mut out = Output::default();
        let input: String = (0..1000).map(|i| ev(&format!("s{i}"), 0)).collect();
        s.feed(input.as_bytes(), &mut out).unwrap();
        let diags: Vec<String> = out
            .records
            .iter()
            .filter_map(|r| match r {
                Record::Diagnostic(d) => Some(d.reason.clone()),
                _ => None,
            })
            .collect();
        assert_eq!(diags.len(), HIDDEN_NAMED + 1);
        assert!(diags[0].starts_with("frames of session s1 are not shown"));
        assert!(
            diags[HIDDEN_NAMED].contains("from session s11 on"),
            "{}",
            diags[10]
        );
        // Every session is still in the list.
        assert_eq!(
            out.events
                .iter()
                .filter(|e| matches!(e, LiveEvent::Session(_)))
                .count(),
            1000
        );
    }

    #[test]
    fn another_agents_lines_are_read_as_they_come() {
        let mut s = LineStream::new(None, Selection::new(None), None);
        let mut out = Output::default();
        let user = r#"{"type":"user","uuid":"u","sessionId":"c1","cwd":"/w","message":{"role":"user","content":"hi"}}"#;
        let said = r#"{"type":"assistant","uuid":"a","sessionId":"c1","message":{"id":"m","role":"assistant","content":[{"type":"text","text":"yes"}]}}"#;
        s.feed(format!("{user}
{said}
").as_bytes(), &mut out)
            .unwrap();
        let kinds: Vec<String> = out
            .records
            .iter()
            .map(|r| match r {
                Record::Event { event, .. } => event.kind.as_str().to_string(),
                Record::Frame { kind, .. } => kind.clone(),
                Record::Diagnostic(d) => d.reason.clone(),
                Record::Nested { .. } => "nested".into(),
            })
            .collect();
        // The block at once, as it comes.
        assert_eq!(
            kinds,
            ["session", "turn/start", "user/message", "assistant/chunk"]
        );
        // The message whole, and the turn's end, with the input's end.
        s.finish(&mut out).unwrap();
        assert_eq!(out.records.len(), 6);
    }

    #[test]
    fn bad_lines_carry_their_line_number() {
        let mut s = LineStream::new(None, Selection::new(None), None);
        let mut out = Output::default();
        s.feed(
            b"{\"type\":\"turn/start\",\"seq\":0,\"time\":1,\"data\":{}}\nnot json\n{\"ty",
            &mut out,
        )
        .unwrap();
        assert_eq!(out.records.len(), 2);
        assert_eq!(out.records[1].origin().line, 2);
        assert_eq!(s.pending(), 4);
        s.finish(&mut out).unwrap();
        assert_eq!(out.records.len(), 3);
        assert_eq!(out.records[2].origin().line, 3);
    }
}
