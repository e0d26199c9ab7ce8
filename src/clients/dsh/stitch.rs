//! Stitching one session's live frames and `session.history` pages into one
//! gap-free, duplicate-free record stream in seq order. Pure: it returns the
//! history fetch to make as data ([`Fetch`]); the client performs it and
//! feeds the page back.
//!
//! * Events are delivered in seq order from 0; every seq exactly once.
//! * A live event past a gap is held, and the gap is fetched from history
//!   (paging back with `beforeSeq` until it is covered).
//! * Events that arrive before `session/subscribed` are kept like any other.
//! * Pages may come in any order (newest first is the host's way); entries
//!   are keyed by seq, so order does not matter.
//! * Other frames (approvals, questions, queue …) pass through at once, or,
//!   while events are held back, right after the newest held live event.
//! * History that cannot cover a gap (`hasMore: false` before reaching it)
//!   gives a diagnostic naming the missing seqs; delivery goes on after it.

use std::collections::BTreeMap;

use crate::wire::{Diagnostic, Origin, Record};

/// A history request: `session.history {beforeSeq?}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fetch {
    /// `None`: the newest page.
    pub before_seq: Option<u64>,
}

/// What one input produced.
#[derive(Debug, Default, PartialEq)]
pub struct Out {
    /// Records to deliver, in order.
    pub records: Vec<Record>,
    /// A history page to fetch now.
    pub fetch: Option<Fetch>,
}

#[derive(Debug)]
struct Held {
    record: Record,
    /// Frames that arrived after this (live) event, delivered right after it.
    after: Vec<Record>,
}

/// One session's stitcher.
#[derive(Debug, Default)]
pub struct Stitch {
    next: u64,
    held: BTreeMap<u64, Held>,
    /// Highest seq the host said exists (`lastSeq`).
    known_last: Option<u64>,
    /// The outstanding request.
    fetching: Option<Fetch>,
    duplicates: usize,
}

impl Stitch {
    #[cfg(any(test, feature = "internals"))]
    pub fn new() -> Stitch {
        Stitch::default()
    }

    /// Every seq below this was delivered.
    pub fn next_seq(&self) -> u64 {
        self.next
    }

    /// Events dropped because their seq was already delivered or held.
    #[cfg(any(test, feature = "internals"))]
    pub fn duplicates(&self) -> usize {
        self.duplicates
    }

    /// A history request is outstanding.
    pub fn is_fetching(&self) -> bool {
        self.fetching.is_some()
    }

    /// True when an event with this seq would be new (neither delivered nor held).
    pub fn wants(&self, seq: u64) -> bool {
        seq >= self.next && !self.held.contains_key(&seq)
    }

    /// Events held back waiting for a gap to fill.
    #[cfg(any(test, feature = "internals"))]
    pub fn held(&self) -> usize {
        self.held.len()
    }

    /// A record from the live socket.
    pub fn on_live(&mut self, record: Record) -> Out {
        let mut out = Out::default();
        match record.seq() {
            Some(seq) => self.insert(seq, record),
            None => match self.held.values_mut().next_back() {
                Some(newest) => newest.after.push(record),
                None => out.records.push(record),
            },
        }
        self.drain(&mut out);
        self.plan(&mut out);
        out
    }

    /// `session/subscribed {lastSeq}` (or any other word of the newest seq).
    pub fn on_last_seq(&mut self, last: u64) -> Out {
        self.known_last = Some(self.known_last.map_or(last, |l| l.max(last)));
        let mut out = Out::default();
        self.plan(&mut out);
        out
    }

    /// (Re)connected: fetch the newest page whatever is known, so events
    /// made while no socket was open are found even without `lastSeq`.
    pub fn catch_up(&mut self) -> Out {
        let mut out = Out::default();
        if self.fetching.is_none() {
            let f = Fetch { before_seq: None };
            self.fetching = Some(f);
            out.fetch = Some(f);
        }
        out
    }

    /// The link dropped: an outstanding request will not be answered.
    pub fn link_lost(&mut self) {
        self.fetching = None;
    }

    /// The request failed; call [`Self::plan_now`] later to try again.
    pub fn fetch_failed(&mut self) {
        self.fetching = None;
    }

    /// Ask again for whatever is still missing (after a failed request).
    pub fn plan_now(&mut self) -> Out {
        let mut out = Out::default();
        self.plan(&mut out);
        out
    }

    /// One `session.history` page: its event records and `hasMore`.
    pub fn on_page(&mut self, events: Vec<Record>, has_more: bool) -> Out {
        let mut out = Out::default();
        self.fetching = None;
        let lowest = events.iter().filter_map(Record::seq).min();
        for r in events {
            match r.seq() {
                Some(seq) => self.insert(seq, r),
                None => out.records.push(r),
            }
        }
        self.drain(&mut out);
        let gap_open = |s: &Stitch| s.gap_end().is_some();
        match lowest {
            // Not back far enough yet: the next older page.
            Some(low) if low > self.next && has_more && gap_open(self) => {
                let f = Fetch {
                    before_seq: Some(low),
                };
                self.fetching = Some(f);
                out.fetch = Some(f);
                return out;
            }
            _ => {}
        }
        if !has_more || lowest.is_none() {
            // History has nothing older: what is still missing below the
            // held events is lost for good.
            if let Some(first) = self.held.keys().next().copied()
                && first > self.next
            {
                out.records.push(Record::Diagnostic(Diagnostic {
                    origin: Origin::default(),
                    reason: format!(
                        "events {}..={} are missing: neither the live socket nor session.history has them",
                        self.next,
                        first - 1
                    ),
                    raw: String::new(),
                }));
                self.next = first;
                self.drain(&mut out);
            }
        }
        self.plan(&mut out);
        out
    }

    fn insert(&mut self, seq: u64, record: Record) {
        if seq < self.next || self.held.contains_key(&seq) {
            self.duplicates += 1;
            return;
        }
        self.held.insert(
            seq,
            Held {
                record,
                after: Vec::new(),
            },
        );
    }

    fn drain(&mut self, out: &mut Out) {
        while let Some(entry) = self.held.first_entry() {
            if *entry.key() != self.next {
                break;
            }
            let held = entry.remove();
            out.records.push(held.record);
            out.records.extend(held.after);
            self.next += 1;
        }
    }

    /// Where the first gap ends (exclusive), if there is one.
    fn gap_end(&self) -> Option<Option<u64>> {
        match self.held.keys().next() {
            Some(&first) if first > self.next => Some(Some(first)),
            Some(_) => None,
            None => self
                .known_last
                .filter(|&l| l >= self.next)
                .map(|_| None::<u64>),
        }
    }

    fn plan(&mut self, out: &mut Out) {
        if self.fetching.is_some() || out.fetch.is_some() {
            return;
        }
        if let Some(end) = self.gap_end() {
            let f = Fetch { before_seq: end };
            self.fetching = Some(f);
            out.fetch = Some(f);
        }
    }
}

#[cfg(test)]
#[path = "stitch_tests.rs"]
mod tests;
