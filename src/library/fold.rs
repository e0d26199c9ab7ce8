//! One file's sessions folded as the file is read, for the index: the
//! loader hands each record on as it decodes it
//! (`load::stream_file_upto`), each session's fold takes it
//! ([`Folding`]), and every [`Limits::sweep`] bytes of records each session's
//! items that are done (a card with its result, a message complete) and
//! were already there at the sweep before become their entries and are let
//! go of (`Transcript::retire`, then `Transcript::let_go`: their slots
//! are gone). What a read holds is then the fold's newest items and those
//! still open, the records waiting for their window, and what keeps the
//! fold exact (a hash of each call id and message let go of): not the file.
//!
//! Exact or not at all: the rows and entries are those of the file read
//! whole ([`super::read`]'s `whole`). When they might not be — the fold
//! came back to an item it let go of (`Transcript::touched`), a session's
//! events are out of seq order (they are sorted when read whole), the
//! format changed midway after records were given, or what its agent
//! keeps beside a session can only be placed in a whole read (a Claude
//! Code session's subagents, placed among its records by time) —
//! the stream stops with the reason ([`Again`]), and the caller reads the
//! file again whole. What is beside a session and the seq order are
//! `load::Exact`'s, shared with `deck view`'s read as it goes.

use super::entries::{Entry, SessionRow, agent_of, docs, no_session, row};
use crate::session::{Folding, Item, Outlining};
use crate::agents::{self, Format};
use crate::load::{Exact, LoadError, Store, Summary, stream_file_upto};
use crate::wire::Record;

/// Bytes of records (their data and views) folded between two sweeps.
pub(crate) const SWEEP: usize = 4 << 20;

/// When a file's fold lets go of what is done.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    /// Bytes of records folded between two sweeps (0: after every record).
    pub sweep: usize,
    /// The newest cards of a session kept (the fold looks back this far
    /// for a call by other than its id: `session::LOOK_BACK_CARDS`).
    pub keep_cards: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            sweep: SWEEP,
            keep_cards: crate::session::LOOK_BACK_CARDS,
        }
    }
}

/// A file folded as it was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Streamed {
    pub rows: Vec<SessionRow>,
    /// The most slots held (not let go of) at a sweep — items, cards and
    /// diagnostics, every session's.
    pub most_held: usize,
}

/// Why a file is read again whole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Again(pub String);

/// Why the file at `path` must be read whole before anything of it is
/// read, if it must (`load::whole_needed`).
pub(crate) fn whole_needed(path: &std::path::Path) -> Option<Again> {
    crate::load::whole_needed(path).map(Again)
}

/// Fold the file at `path` (opened as `file`) up to `size` bytes as it is
/// read, entries to `out`: its rows, or why it could not be read; or why it
/// must be read again whole (the entries given are then stale).
pub(crate) fn stream(
    path: &str,
    file: &std::fs::File,
    size: u64,
    limits: Limits,
    out: &mut dyn FnMut(Entry),
) -> Result<Result<Streamed, LoadError>, Again> {
    let mut fold = FileFold {
        path,
        limits,
        out,
        bins: Vec::new(),
        orphans: None,
        format: Format::FrameLog,
        records_agent: None,
        given_agent: None,
        exact: Exact::default(),
        since: 0,
        most_held: 0,
        again: None,
    };
    let read = stream_file_upto(path, file, size, &mut fold);
    fold.finish(read, size)
}

/// One session being folded.
struct Bin {
    fold: Folding<Record>,
    outline: Outlining,
    /// Items from `next` on are not retired yet (but those `waiting`);
    /// `mark`: the items there were at the last sweep.
    next: usize,
    mark: usize,
    waiting: Vec<usize>,
    /// Entries of it were given.
    gave: bool,
}

impl Bin {
    fn new(id: Option<String>) -> Bin {
        Bin {
            fold: Folding::new(id, agents::stock()),
            outline: Outlining::default(),
            next: 0,
            mark: 0,
            waiting: Vec::new(),
            gave: false,
        }
    }
}

struct FileFold<'a> {
    path: &'a str,
    limits: Limits,
    out: &'a mut dyn FnMut(Entry),
    bins: Vec<Bin>,
    /// Records before any session was named (the first named session's).
    orphans: Option<Bin>,
    format: Format,
    /// The agent of the records given so far (diagnostics aside), and of
    /// the entries given.
    records_agent: Option<&'static str>,
    given_agent: Option<&'static str>,
    /// What keeps the fold what a whole read gives (and why not).
    exact: Exact,
    /// Bytes of records folded since the last sweep.
    since: usize,
    most_held: usize,
    again: Option<Again>,
}

impl Store for FileFold<'_> {
    fn open(&mut self, i: usize, id: &str) {
        if self.again.is_some() {
            return;
        }
        let bin = match (i, self.orphans.take()) {
            (0, Some(mut b)) => {
                if b.gave {
                    // Entries were given without the session's name.
                    return self.stop("entries given before the first session was named");
                }
                b.fold.transcript_mut().set_session_id(Some(id.to_string()));
                b
            }
            (_, orphans) => {
                self.orphans = orphans;
                Bin::new(Some(id.to_string()))
            }
        };
        if let Err(why) = self.exact.open(self.format, std::path::Path::new(self.path), i, id) {
            return self.stop(&why);
        }
        self.bins.push(bin);
    }

    fn push(&mut self, i: Option<usize>, mut record: Record) {
        if self.again.is_some() {
            return;
        }
        if !matches!(record, Record::Diagnostic(_)) {
            let agent = agent_of(self.format);
            if self.records_agent.is_some_and(|a| a != agent) {
                return self.stop("the file's format changed midway");
            }
            self.records_agent = Some(agent);
        }
        let bin = match i {
            Some(i) => match self.bins.get_mut(i) {
                Some(b) => b,
                None => return self.stop("a record of a session not opened"),
            },
            None => self.orphans.get_or_insert_with(|| Bin::new(None)),
        };
        if let Err(why) = self.exact.push(i, &mut record) {
            return self.stop(why);
        }
        self.since += weight(&record);
        bin.outline.add(&record);
        bin.fold.push(record);
        if self.since >= self.limits.sweep {
            self.since = 0;
            self.sweep();
        }
    }

    fn format(&mut self, format: Format) {
        self.format = format;
    }

    fn as_is(&mut self) {
        self.exact.as_is();
    }
}

impl FileFold<'_> {
    fn stop(&mut self, why: &str) {
        if self.again.is_none() {
            self.again = Some(Again(why.to_string()));
            // What is held is let go of now, not at the end of the file.
            self.bins.clear();
            self.orphans = None;
        }
    }

    /// Each session's items done before the last sweep become entries
    /// and are let go of.
    fn sweep(&mut self) {
        let agent = agent_of(self.format);
        if self.given_agent.is_some_and(|a| a != agent) {
            return self.stop("the file's format changed midway");
        }
        let keep = self.limits.keep_cards;
        let mut gave = false;
        let mut touched = None;
        let mut held = 0;
        for bin in self.bins.iter_mut().chain(self.orphans.as_mut()) {
            gave |= sweep_bin(bin, keep, agent, self.out);
            let t = bin.fold.transcript();
            held += t.items().held() + t.cards().held() + t.diagnostics().held();
            if let Some(why) = t.touched() {
                touched = Some(why.to_string());
            }
        }
        self.most_held = self.most_held.max(held);
        if gave {
            self.given_agent = Some(agent);
        }
        if let Some(why) = touched {
            self.stop(&format!("the fold came back to an item let go of: {why}"));
        }
    }

    /// The rows, each session's last entries given; or why the file is
    /// read again whole.
    fn finish(
        mut self,
        read: Result<Summary, LoadError>,
        size: u64,
    ) -> Result<Result<Streamed, LoadError>, Again> {
        let gave = self.given_agent.is_some();
        let summary = match read {
            Ok(s) => s,
            // Read whole, the same error; the entries given dropped.
            Err(_) if gave => return Err(Again("the file failed after entries were given".into())),
            Err(e) => return Ok(Err(e)),
        };
        let agent = agent_of(summary.format);
        if self.again.is_none() {
            if self.given_agent.is_some_and(|a| a != agent)
                || self.records_agent.is_some_and(|a| a != agent)
            {
                self.stop("the file's format changed midway");
            } else if let Err(why) = self.exact.end(summary.format) {
                self.stop(&why);
            }
        }
        if let Some(again) = self.again.take() {
            return Err(again);
        }
        let mut rows = Vec::new();
        let bins = std::mem::take(&mut self.bins);
        let none = bins.is_empty() && self.orphans.is_none();
        for bin in bins.into_iter().chain(self.orphans.take()) {
            let t = bin.fold.finish();
            if let Some(why) = t.touched() {
                return Err(Again(format!("the fold came back to an item let go of: {why}")));
            }
            // What is held is what was not let go of (let go at every sweep).
            for (i, _) in t.items().indexed() {
                for d in docs(&t, agent, i) {
                    (self.out)(Entry::Doc(d));
                }
            }
            rows.push(row(&t, bin.outline.outline().title, agent, self.path, size));
        }
        if none {
            rows.push(no_session(agent, self.path.to_string(), size));
        }
        Ok(Ok(Streamed {
            rows,
            most_held: self.most_held,
        }))
    }
}

/// Retire what is done of `bin` and was there at its last sweep, giving
/// each entry to `out`; true when it gave any. Cards among the newest
/// `keep` of the session stay.
fn sweep_bin(bin: &mut Bin, keep: usize, agent: &str, out: &mut dyn FnMut(Entry)) -> bool {
    bin.fold.flush();
    let t = bin.fold.transcript_mut();
    let kept_from = t.cards().len().saturating_sub(keep);
    let mut gave = false;
    let candidates: Vec<usize> = std::mem::take(&mut bin.waiting)
        .into_iter()
        .chain(bin.next..bin.mark)
        .collect();
    for i in candidates {
        let recent = matches!(t.items().get(i), Some(Item::Tool(c)) if *c >= kept_from);
        if recent || !t.settled(i) {
            bin.waiting.push(i);
            continue;
        }
        let entries = docs(t, agent, i);
        t.retire(i);
        for d in entries {
            out(Entry::Doc(d));
            gave = true;
        }
    }
    bin.next = bin.next.max(bin.mark);
    // Every item below `next` was offered: those retired go for good.
    t.let_go(bin.next);
    bin.mark = t.items().len();
    bin.gave |= gave;
    gave
}

/// A `tool/result` event (Claude Code's saved output goes into one).
/// About what a record costs held: its data and view text.
fn weight(r: &Record) -> usize {
    match r {
        Record::Event { event, view, .. } => {
            64 + event.data.as_str().len() + view.as_ref().map_or(0, |v| v.view.as_str().len())
        }
        Record::Frame { .. } => 256,
        Record::Diagnostic(d) => 64 + d.reason.len() + d.raw.len(),
        Record::Nested { record, .. } => weight(record),
    }
}


#[cfg(test)]
mod tests;
