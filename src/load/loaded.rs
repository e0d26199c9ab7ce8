//! What the loader gives: an input's sessions, each with its records
//! ([`Loaded`], [`LoadedSession`]), or why it gave none ([`LoadError`]).

use serde_json::Value;

use super::Format;
use crate::wire::Record;

/// Why an input gave no session. Each names the input (its path, or `-`).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// It could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The input.
        path: String,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// Nothing in it (the input).
    #[error("{0}: empty input")]
    Empty(String),
    /// No line of it is in a format deck reads.
    #[error("{path}: unknown format: {reason}")]
    UnknownFormat {
        /// The input.
        path: String,
        /// Why the first line that did not decode was not read.
        reason: String,
    },
    /// Binary data, not a log (the input).
    #[error("{0}: not a session log (binary data)")]
    Binary(String),
    /// It broke (a zstd stream cut short, say) before anything decoded.
    #[error("{path}: {reason}")]
    Damaged {
        /// The input.
        path: String,
        /// What broke, and where.
        reason: String,
    },
    /// The session asked for is not in it.
    #[error("{path}: no session {id:?} (sessions: {known})")]
    NoSuchSession {
        /// The input.
        path: String,
        /// The session asked for.
        id: String,
        /// The ids of the sessions it holds, comma-separated.
        known: String,
    },
}

/// One session's records, in input order.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct LoadedSession {
    /// Its id (`sessionId`); `None` when the input names none.
    pub id: Option<String>,
    /// The session log header line, when there was one.
    pub header: Option<Value>,
    /// Its records, diagnostics among them, in input order.
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
#[non_exhaustive]
pub struct Loaded {
    /// The input's name, as messages say it (its path, or `-`).
    pub name: String,
    /// Its format, as detected.
    pub format: Format,
    /// It was zstd-compressed.
    pub compressed: bool,
    /// Its sessions, each with its records.
    pub sessions: Vec<LoadedSession>,
    /// Lines read.
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
