//! What a load tells the log (see `settings::logging`): the input, its format
//! and counts at info, the time it took and the first few diagnostics at
//! debug. Nothing here runs per line, and nothing is computed when the log
//! is off.

use std::time::Duration;

use super::{LoadError, Loaded};
use crate::wire::Record;

/// Diagnostics written out one by one at debug; the rest are only counted.
const FIRST_DIAGNOSTICS: usize = 5;

/// Log the outcome of loading `name`.
pub(crate) fn loaded(name: &str, result: &Result<Loaded, LoadError>, took: Duration) {
    match result {
        Ok(l) => read(name, l, took),
        Err(e) => tracing::warn!(input = name, error = %e, "load failed"),
    }
}

/// Log what loading `name` found.
pub(crate) fn read(name: &str, loaded: &Loaded, took: Duration) {
    tracing::info!(
        input = name,
        format = loaded.format.name(),
        compressed = loaded.compressed,
        sessions = loaded.sessions.len(),
        lines = loaded.lines,
        diagnostics = loaded
            .sessions
            .iter()
            .map(|s| s.diagnostics())
            .sum::<usize>(),
        "loaded"
    );
    tracing::debug!(input = name, ms = took.as_secs_f64() * 1000.0, "load took");
    if tracing::enabled!(tracing::Level::DEBUG) {
        let diagnostics = loaded
            .sessions
            .iter()
            .flat_map(|s| &s.records)
            .filter_map(|r| match r {
                Record::Diagnostic(d) => Some(d),
                _ => None,
            });
        for d in diagnostics.take(FIRST_DIAGNOSTICS) {
            tracing::debug!(
                input = name,
                line = d.origin.line,
                offset = d.origin.offset,
                reason = %d.reason,
                "diagnostic"
            );
        }
    }
}
