//! What the loader hands the reducer: decoded frames with where they came
//! from, and diagnostics for what could not be decoded.

use serde_json::Value;

use super::{Frame, SessionEvent, ViewEnvelope};

/// Where an input unit came from: 1-based line and byte offset in its file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Origin {
    pub line: usize,
    pub offset: u64,
}

/// A line (or part of an input) that was skipped or repaired. The raw text is
/// kept whole so nothing is lost.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Diagnostic {
    pub origin: Origin,
    pub reason: String,
    pub raw: String,
}

impl Diagnostic {
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
    Event {
        event: SessionEvent,
        view: Option<ViewEnvelope>,
        origin: Origin,
    },
    /// A non-event frame that belongs to the session (approvals, questions, queue…).
    Frame {
        kind: String,
        /// The envelope's `rpcId`, when the frame came in one.
        rpc_id: Option<String>,
        payload: Value,
        origin: Origin,
    },
    Diagnostic(Diagnostic),
    /// A record of a transcript folded under a call rather than beside
    /// it: the log of the subagent that call `parent_call` started (its
    /// own seqs, its own turns). The reducer folds it into that card's
    /// child transcript.
    Nested {
        parent_call: String,
        record: Box<Record>,
    },
}

impl Record {
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
