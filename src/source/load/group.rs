//! Records grouped by session as a log is read (`sessions` switch the
//! group, records before any name wait as orphans), and each session's
//! events put in seq order.

use std::collections::HashMap;

use super::LoadedSession;
use crate::wire::Record;

/// Group records by session.
#[derive(Default)]
pub(super) struct Sessions {
    pub(super) list: Vec<LoadedSession>,
    pub(super) index: HashMap<String, usize>,
    pub(super) current: Option<usize>,
    /// Records seen before any session was named.
    pub(super) orphans: Vec<Record>,
}

impl Sessions {
    pub(super) fn select(&mut self, id: &str) -> usize {
        let i = match self.index.get(id) {
            Some(&i) => i,
            None => {
                self.list.push(LoadedSession {
                    id: Some(id.to_string()),
                    ..Default::default()
                });
                let i = self.list.len() - 1;
                self.index.insert(id.to_string(), i);
                if i == 0 {
                    // Whatever came before the first named session belongs to it.
                    self.list[0].records.append(&mut self.orphans);
                }
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
        match target {
            Some(i) => self.list[i].records.push(record),
            None => self.orphans.push(record),
        }
    }

    pub(super) fn finish(mut self) -> Vec<LoadedSession> {
        if !self.orphans.is_empty() {
            self.list.push(LoadedSession {
                id: None,
                header: None,
                records: std::mem::take(&mut self.orphans),
            });
        }
        self.list
    }
}

/// Put a session's events in seq order when they are not (a recording
/// whose gaps were filled from history holds the backfilled events after
/// later live ones). Every other record travels with the event before it;
/// records before the first event stay first. Stable: ordered input is
/// left as it is.
pub fn order_by_seq(records: &mut Vec<Record>) {
    let mut last = None;
    let ordered = records.iter().filter_map(Record::seq).all(|s| {
        let ok = last.is_none_or(|l| s >= l);
        last = Some(s);
        ok
    });
    if ordered {
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
