//! What the loader hands the reducer: decoded frames with where they came
//! from, and diagnostics for what could not be decoded.

use serde_json::Value;

use super::{Frame, SessionEvent, ViewEnvelope};

/// Where an input unit came from: 1-based line and byte offset in its file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Origin {
    /// The line in its file, counted from 1.
    pub line: usize,
    /// The byte offset in its file where the line starts.
    pub offset: u64,
}

/// A line (or part of an input) that was skipped or repaired. The raw text is
/// kept whole so nothing is lost.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Diagnostic {
    /// Where the input came from.
    pub origin: Origin,
    /// What was wrong with it and what was done, for people.
    pub reason: String,
    /// The input as it came (a line's text, an event's JSON).
    pub raw: String,
}

impl Diagnostic {
    /// A diagnostic of the input at `origin`.
    pub fn new(origin: Origin, reason: String, raw: String) -> Diagnostic {
        Diagnostic {
            origin,
            reason,
            raw,
        }
    }
}

/// One unit of input for the reducer.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Record {
    /// A session event, with the view the host attached to it.
    Event {
        /// The event.
        event: SessionEvent,
        /// The view of its call or result, when the host sent one.
        view: Option<ViewEnvelope>,
        /// Where it came from.
        origin: Origin,
    },
    /// A non-event frame that belongs to the session (approvals, questions, queue…).
    Frame {
        /// The frame's `type` (`approval/requested` …).
        kind: String,
        /// The envelope's `rpcId`, when the frame came in one.
        rpc_id: Option<String>,
        /// The whole frame.
        payload: Value,
        /// Where it came from.
        origin: Origin,
    },
    /// Input that was skipped or repaired.
    Diagnostic(Diagnostic),
    /// A record of a transcript folded under a call rather than beside
    /// it: the log of the subagent that call `parent_call` started (its
    /// own seqs, its own turns). The reducer folds it into that card's
    /// child transcript.
    Nested {
        /// The id of the call that started the subagent.
        parent_call: String,
        /// The subagent's record.
        record: Box<Record>,
    },
}

impl Record {
    /// About how many bytes it holds (its event's data and view, a
    /// diagnostic's text): what batches of records are bounded by.
    pub fn weight(&self) -> usize {
        match self {
            Record::Event { event, view, .. } => {
                64 + event.data.len() + view.as_ref().map_or(0, |v| v.view.len())
            }
            Record::Frame { .. } => 256,
            Record::Diagnostic(d) => 64 + d.raw.len() + d.reason.len(),
            Record::Nested { record, .. } => record.weight(),
        }
    }

    /// Turn a decoded frame into a record.
    pub fn from_frame(frame: Frame, origin: Origin) -> Record {
        match frame {
            Frame::Event { event, view, .. } => Record::Event {
                event,
                view,
                origin,
            },
            Frame::Other {
                kind,
                rpc_id,
                payload,
                ..
            } => Record::Frame {
                kind,
                rpc_id,
                payload,
                origin,
            },
        }
    }

    /// Where the record came from (a nested one: where in its own log).
    pub fn origin(&self) -> Origin {
        match self {
            Record::Event { origin, .. } | Record::Frame { origin, .. } => *origin,
            Record::Diagnostic(d) => d.origin,
            Record::Nested { record, .. } => record.origin(),
        }
    }

    /// The event's seq, if this is an event.
    pub fn seq(&self) -> Option<u64> {
        match self {
            Record::Event { event, .. } => Some(event.seq),
            _ => None,
        }
    }
}
