//! Records grouped by session as a log is read (`sessions` switch the
//! group, records before any name wait as orphans and are the first named
//! session's), handed to a [`Store`]: held ([`Collected`], what a load
//! returns, each session's events then put in seq order) or taken as they
//! come (the library's index folds them: `library::fold`).

use std::collections::HashMap;

use serde_json::Value;

use super::{Format, LoadedSession};
use crate::wire::Record;

/// Where the loader's records go, grouped by session.
pub trait Store {
    /// Session `id` is named for the first time: the `i`-th (0, 1, …).
    /// The records given before any session was named (orphans) are the
    /// first named session's, before its own.
    fn open(&mut self, i: usize, id: &str);
    /// A record of session `i`, or an orphan (`None`).
    fn push(&mut self, i: Option<usize>, record: Record);
    /// Session `i`'s header (a session log's header line); `first`: kept
    /// only when it has none yet (an agent's `session` frame).
    fn header(&mut self, _i: usize, _header: &Value, _first: bool) {}
    /// The input's format, as it is learnt (it may change as lines come).
    fn format(&mut self, _format: Format) {}
    /// The records are taken in the order given, never put in seq order
    /// (a history document: in order as it is).
    fn as_is(&mut self) {}
}

/// Group records by session, for a [`Store`].
pub(super) struct Sessions<'a> {
    store: &'a mut dyn Store,
    index: HashMap<String, usize>,
    current: Option<usize>,
    format: Format,
}

impl<'a> Sessions<'a> {
    pub(super) fn new(store: &'a mut dyn Store) -> Sessions<'a> {
        store.format(Format::FrameLog);
        Sessions {
            store,
            index: HashMap::new(),
            current: None,
            format: Format::FrameLog,
        }
    }

    pub(super) fn select(&mut self, id: &str) -> usize {
        let i = match self.index.get(id) {
            Some(&i) => i,
            None => {
                let i = self.index.len();
                self.index.insert(id.to_string(), i);
                self.store.open(i, id);
                i
            }
        };
        self.current = Some(i);
        i
    }

    pub(super) fn push(&mut self, session: Option<&str>, record: Record) {
        let target = match session {
            Some(id) => Some(self.select(id)),
            None => self.current,
        };
        self.store.push(target, record);
    }

    pub(super) fn header(&mut self, i: usize, header: &Value, first: bool) {
        self.store.header(i, header, first);
    }

    pub(super) fn set_format(&mut self, format: Format) {
        if format != self.format {
            self.format = format;
            self.store.format(format);
        }
    }

    pub(super) fn format(&self) -> Format {
        self.format
    }

    pub(super) fn as_is(&mut self) {
        self.store.as_is();
    }
}

/// The records of every session, held.
#[derive(Default)]
pub(super) struct Collected {
    list: Vec<LoadedSession>,
    /// Records seen before any session was named.
    orphans: Vec<Record>,
    /// Taken in the order given ([`Store::as_is`]).
    as_is: bool,
}

impl Store for Collected {
    fn open(&mut self, i: usize, id: &str) {
        debug_assert_eq!(i, self.list.len());
        let mut s = LoadedSession {
            id: Some(id.to_string()),
            ..Default::default()
        };
        if i == 0 {
            // Whatever came before the first named session belongs to it.
            s.records.append(&mut self.orphans);
        }
        self.list.push(s);
    }

    fn push(&mut self, i: Option<usize>, record: Record) {
        match i.and_then(|i| self.list.get_mut(i)) {
            Some(s) => s.records.push(record),
            None => self.orphans.push(record),
        }
    }

    fn header(&mut self, i: usize, header: &Value, first: bool) {
        if let Some(s) = self.list.get_mut(i) {
            match &mut s.header {
                Some(_) if first => {}
                h => *h = Some(header.clone()),
            }
        }
    }

    fn as_is(&mut self) {
        self.as_is = true;
    }
}

impl Collected {
    /// The records held of session `i` (`None`: those before any session
    /// was named), taken out.
    pub(super) fn take(&mut self, i: Option<usize>) -> Vec<Record> {
        match i.and_then(|i| self.list.get_mut(i)) {
            Some(s) => std::mem::take(&mut s.records),
            None => std::mem::take(&mut self.orphans),
        }
    }

    /// The ids of the sessions named so far, in order.
    pub(super) fn ids(&self) -> impl Iterator<Item = Option<&str>> {
        self.list.iter().map(|s| s.id.as_deref())
    }

    /// What a load of `name` returns: the sessions held, and what reading
    /// it found.
    pub(super) fn loaded(self, name: &str, s: super::Summary) -> super::Loaded {
        super::Loaded {
            name: name.to_string(),
            format: s.format,
            compressed: s.compressed,
            sessions: self.finish(),
            lines: s.lines,
        }
    }

    /// The sessions, orphans as a session of no name when none was named;
    /// each one's events in seq order (unless taken as they are).
    pub(super) fn finish(mut self) -> Vec<LoadedSession> {
        if !self.orphans.is_empty() {
            self.list.push(LoadedSession {
                id: None,
                header: None,
                records: std::mem::take(&mut self.orphans),
            });
        }
        if !self.as_is {
            for s in &mut self.list {
                order_by_seq(&mut s.records);
            }
        }
        self.list
    }
}

/// Whether `records` are in seq order (what [`order_by_seq`] leaves as it
/// is).
pub fn in_seq_order(records: &[Record]) -> bool {
    let mut last = None;
    records.iter().filter_map(Record::seq).all(|s| {
        let ok = last.is_none_or(|l| s >= l);
        last = Some(s);
        ok
    })
}

/// Put a session's events in seq order when they are not (a recording
/// whose gaps were filled from history holds the backfilled events after
/// later live ones). Every other record travels with the event before it;
/// records before the first event stay first. Stable: ordered input is
/// left as it is.
pub fn order_by_seq(records: &mut Vec<Record>) {
    if in_seq_order(records) {
        return;
    }
    let mut runs: Vec<(u64, Vec<Record>)> = Vec::new();
    let mut lead = Vec::new();
    for r in records.drain(..) {
        match (r.seq(), runs.last_mut()) {
            (Some(seq), _) => runs.push((seq, vec![r])),
            (None, Some((_, run))) => run.push(r),
            (None, None) => lead.push(r),
        }
    }
    runs.sort_by_key(|(seq, _)| *seq);
    records.extend(lead);
    records.extend(runs.into_iter().flat_map(|(_, run)| run));
}
