//! What every agent's reader shares: the [`Translate`] contract (log lines
//! in, records out, for a whole file or one that grows), the line the
//! decoder hands on ([`Foreign`]), and the records an agent's lines become
//! (through an [`Emitter`], the `session` [`header`]), with the
//! timestamps they carry ([`epoch_ms`]).

use std::any::Any;

use serde_json::Value;

use super::Agent;
use crate::wire::{EventKind, Origin, RawJson, Record, SessionEvent};

/// Records for the session named by the id (`None`: the current one).
pub type Out = Vec<(Option<String>, Record)>;

/// A line of another agent's log, as the line decoder hands it on.
pub enum Foreign {
    /// A line its agent read from the text itself (on the decoder's
    /// threads: [`Agent::read_text`]); only that agent's reader takes it.
    Read {
        agent: &'static dyn Agent,
        line: Box<dyn Parsed>,
    },
    /// Any agent's line, as JSON.
    Value(Value),
}

/// What an agent made of a line's text ([`Agent::read_text`]): its own
/// type, which its reader takes back ([`Foreign::take`]).
pub trait Parsed: Any + Send + std::fmt::Debug {
    /// Whether `other` is the same line, read the same.
    fn same(&self, other: &dyn Parsed) -> bool;
}

impl<T: Any + Send + std::fmt::Debug + PartialEq> Parsed for T {
    fn same(&self, other: &dyn Parsed) -> bool {
        let other: &dyn Any = other;
        other.downcast_ref::<T>() == Some(self)
    }
}

impl PartialEq for Foreign {
    fn eq(&self, other: &Foreign) -> bool {
        match (self, other) {
            (Foreign::Read { agent, line }, Foreign::Read { agent: a, line: l }) => {
                agent.name() == a.name() && line.same(l.as_ref())
            }
            (Foreign::Value(v), Foreign::Value(w)) => v == w,
            _ => false,
        }
    }
}

impl Foreign {
    /// The agent whose line it is.
    pub fn agent(&self) -> Option<&'static dyn Agent> {
        match self {
            Foreign::Read { agent, .. } => Some(*agent),
            Foreign::Value(v) => super::of_line(v),
        }
    }

    /// The line as the `T` its agent read it into, when it is one.
    pub fn take<T: Parsed>(line: Box<dyn Parsed>) -> Option<T> {
        let any: Box<dyn Any> = line;
        any.downcast::<T>().ok().map(|t| *t)
    }
}

impl std::fmt::Debug for Foreign {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Foreign::Read { agent, line } => f
                .debug_struct("Read")
                .field("agent", &agent.name())
                .field("line", line)
                .finish(),
            Foreign::Value(v) => f.debug_tuple("Value").field(v).finish(),
        }
    }
}

/// Reads one agent's lines, in order, into records.
pub trait Translate: Send {
    /// One line of the log (parsed JSON) found at `origin`.
    fn line(&mut self, v: &Value, origin: Origin, out: &mut Out);
    /// One line as the decoder handed it on; a reader that takes only JSON
    /// lines ignores lines read for another agent.
    fn foreign(&mut self, line: Foreign, origin: Origin, out: &mut Out) {
        if let Foreign::Value(v) = line {
            self.line(&v, origin, out);
        }
    }
    /// One entry of a session document read as a stream (after its other
    /// members, as a line: [`crate::agents::Agent::document_entries`]).
    fn entry(&mut self, v: Value, origin: Origin, out: &mut Out) {
        self.line(&v, origin, out);
    }
    /// The input ended: records held back until now, if any.
    fn finish(&mut self, out: &mut Out);
}

/// How a reader writes deck's records: session events as DSH's session
/// log holds them (`{"type": kind, "seq", "time", "data"}`), numbered in
/// order. The data is the event's payload as the fold reads it
/// (`wire::payload`: the same types, written), serialized once — or, for
/// a payload written ahead (on the decoder's threads, borrowing the line),
/// its JSON text — never built as a tree to be read back.
#[derive(Debug, Clone, Default)]
pub struct Emitter {
    seq: u64,
    /// Where a payload is written before it is copied out at its size: a
    /// text grown by doubling would be copied on each doubling, and once
    /// more to be kept without its slack ([`RawJson::from_text`]).
    scratch: Vec<u8>,
}

impl Emitter {
    /// The seq of the last event written (0: none yet).
    pub fn seq(&self) -> u64 {
        self.seq
    }

    /// The next event: `kind`, at `time`, its data `payload`.
    pub fn event(
        &mut self,
        kind: EventKind,
        time: i64,
        payload: &impl serde::Serialize,
        origin: Origin,
    ) -> Record {
        // A tree or a payload of strings and numbers: it always writes.
        self.scratch.clear();
        let data = match serde_json::to_writer(&mut self.scratch, payload) {
            // serde_json writes UTF-8: the check is a fast pass over ASCII.
            Ok(()) => String::from_utf8(self.scratch.clone()).unwrap_or_else(|_| "null".into()),
            Err(_) => "null".into(),
        };
        if self.scratch.capacity() > SCRATCH_KEPT {
            self.scratch = Vec::new();
        }
        self.event_text(kind, time, data, origin)
    }

    /// [`Emitter::event`] with its data already written as JSON text (the
    /// caller vouches for it: it wrote it from parsed pieces).
    pub fn event_text(&mut self, kind: EventKind, time: i64, data: String, origin: Origin) -> Record {
        self.seq += 1;
        event_json(kind, self.seq, time, data, origin)
    }
}

/// The most room an [`Emitter`] keeps for the next payload between
/// events (one larger is written, and its room given back).
const SCRATCH_KEPT: usize = 4 << 20;

/// A session event record of `kind` with its data written as JSON text.
pub fn event_json(kind: EventKind, seq: u64, time: i64, data: String, origin: Origin) -> Record {
    let event = SessionEvent {
        kind,
        seq,
        time,
        data: RawJson::from_text(data),
        ignorable: false,
        source_event_seqs: Vec::new(),
    };
    Record::Event {
        event,
        view: None,
        origin,
    }
}

/// The `session` header record: the agent (its name), and what the log says of the
/// session (`id`, `cwd`, `model`, `version`, `gitBranch`, … when known).
pub fn header(agent: &str, mut fields: serde_json::Map<String, Value>, origin: Origin) -> Record {
    fields.insert("agent".into(), Value::from(agent));
    Record::Frame {
        kind: "session".into(),
        rpc_id: None,
        payload: Value::Object(fields),
        origin,
    }
}

/// The first complete line of `head` (the first bytes of a file) that is
/// a JSON object.
pub fn first_object_line(head: &[u8]) -> Option<Value> {
    let complete = memchr::memrchr(b'\n', head).map_or(head, |at| &head[..at]);
    complete
        .split(|&b| b == b'\n')
        .map(<[u8]>::trim_ascii)
        .filter(|l| l.first() == Some(&b'{'))
        .find_map(|l| serde_json::from_slice::<Value>(l).ok())
}

/// The first complete line of `head` (the first bytes of a file) that is
/// not blank, as text (`None`: none, or not UTF-8).
pub fn first_text_line(head: &[u8]) -> Option<&str> {
    let complete = memchr::memrchr(b'\n', head).map_or(&[][..], |at| &head[..at]);
    let line = complete.split(|&b| b == b'\n').find(|l| !l.trim_ascii().is_empty())?;
    std::str::from_utf8(line.strip_suffix(b"\r").unwrap_or(line)).ok()
}

/// Epoch milliseconds of an RFC 3339 / ISO 8601 UTC timestamp
/// (`2026-12-01T10:02:49.587Z`, or with a `+hh:mm` offset); `None` when it
/// is not one.
pub fn epoch_ms(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    if b.len() < 19 || b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b' ') {
        return None;
    }
    let num = |r: std::ops::Range<usize>| -> Option<i64> { s.get(r)?.parse::<i64>().ok() };
    let (y, mo, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (h, mi, sec) = (num(11..13)?, num(14..16)?, num(17..19)?);
    if !(1..=12).contains(&mo) || !(1..=31).contains(&d) || h > 23 || mi > 59 || sec > 60 {
        return None;
    }
    let mut rest = &s[19..];
    let mut ms = 0i64;
    if let Some(frac) = rest.strip_prefix('.') {
        let digits = frac.bytes().take_while(u8::is_ascii_digit).count();
        let head: String = frac[..digits].chars().chain("000".chars()).take(3).collect();
        ms = head.parse().ok()?;
        rest = &frac[digits..];
    }
    let offset_min = match rest {
        "" | "Z" | "z" => 0,
        _ => {
            let sign = match rest.as_bytes().first() {
                Some(b'+') => 1,
                Some(b'-') => -1,
                _ => return None,
            };
            let hh: i64 = rest.get(1..3)?.parse().ok()?;
            let mm: i64 = rest.get(rest.len().checked_sub(2)?..)?.parse().ok()?;
            sign * (hh * 60 + mm)
        }
    };
    // Days from the civil date (Howard Hinnant's algorithm).
    let y = if mo <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (mo + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some(((days * 24 + h) * 60 + mi - offset_min) * 60_000 + sec * 1000 + ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps() {
        assert_eq!(epoch_ms("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(
            epoch_ms("2026-12-01T10:02:49.587Z"),
            Some(1_796_119_369_587)
        );
        assert_eq!(epoch_ms("2026-12-01T11:02:49.587+01:00"), Some(1_796_119_369_587));
        assert_eq!(epoch_ms("nope"), None);
        assert_eq!(epoch_ms("2026-13-01T10:02:49Z"), None);
        assert_eq!(epoch_ms("2026-12-01T10:02:49.5é"), None);
    }
}
