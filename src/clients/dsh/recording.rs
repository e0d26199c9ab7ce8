//! What a host client writes to a recording (`deck record`): every message
//! it receives, verbatim, and the history events it backfilled, as bare
//! `session/event` frames — each event once. An event newer than the
//! session's `session/subscribed {lastSeq}` on this connection will come
//! on the socket, so its history copy waits for that live copy and is
//! written only if the link drops (or the client stops) first.

use std::collections::{BTreeMap, HashMap};

use serde_json::Value;

use super::history;
use super::options::HostError;
use crate::source::live::Tap;

pub(super) struct Recording {
    tap: Tap,
    /// `lastSeq` of each session's `session/subscribed` on this connection.
    subscribed: HashMap<String, u64>,
    /// History events held back for their live copy, by session and seq.
    expected: HashMap<String, BTreeMap<u64, Value>>,
}

impl Recording {
    pub(super) fn new(tap: Tap) -> Recording {
        Recording {
            tap,
            subscribed: HashMap::new(),
            expected: HashMap::new(),
        }
    }

    /// A message as received.
    pub(super) fn message(&self, bytes: &[u8]) -> Result<(), HostError> {
        match &self.tap {
            Some(t) => t.message(bytes).map_err(HostError::Tap),
            None => Ok(()),
        }
    }

    /// A new connection: its `session/subscribed` frames say anew what comes live.
    pub(super) fn connected(&mut self) {
        self.subscribed.clear();
    }

    pub(super) fn subscribed(&mut self, session: &str, last_seq: u64) {
        self.subscribed.insert(session.to_string(), last_seq);
    }

    /// An event came on the socket (and was written as its message).
    pub(super) fn live_event(&mut self, session: &str, seq: u64) {
        if let Some(e) = self.expected.get_mut(session) {
            e.remove(&seq);
        }
    }

    /// An event the client fetched from history and had not seen yet.
    pub(super) fn history_event(
        &mut self,
        session: &str,
        seq: u64,
        raw: Value,
    ) -> Result<(), HostError> {
        if self.tap.is_none() {
            return Ok(());
        }
        let live_after = self.subscribed.get(session).copied();
        if live_after.is_none_or(|l| seq <= l) {
            let line = history::bare_frame(session, &raw).to_string();
            return self.message(line.as_bytes());
        }
        self.expected
            .entry(session.to_string())
            .or_default()
            .insert(seq, raw);
        Ok(())
    }

    /// The link dropped: the events whose live copy did not come are
    /// written now.
    pub(super) fn link_lost(&mut self) -> Result<(), HostError> {
        for (session, entries) in std::mem::take(&mut self.expected) {
            for raw in entries.values() {
                let line = history::bare_frame(&session, raw).to_string();
                self.message(line.as_bytes())?;
            }
        }
        Ok(())
    }
}

/// A recorder stopped (SIGTERM, `--duration`) drops the client mid-way:
/// history events still waiting for their live copy are written then, so
/// nothing received is lost.
impl Drop for Recording {
    fn drop(&mut self) {
        let _ = self.link_lost();
    }
}
