//! Searching all cards from the transcript: a query typed on the search
//! line finds matches (at once, or on a thread with the matches taken in as
//! they come), `n` / `N` go from one to the next, and a filter that rebuilds
//! the list finds them again. [`Found`] owns the search; it reaches the
//! list it moves and the status line only through [`FindCx`].

use super::search::Found;
use crate::cards::Density;
use crate::session::Transcript;
use crate::theme::Theme;
use crate::view::list::{Anchor, ListOptions, TranscriptList};
use crate::view::search::{self, Match};

/// What a search needs from the app: the transcript and its list as laid
/// out, and the status line.
pub(super) struct FindCx<'a> {
    pub(super) transcript: &'a Transcript,
    pub(super) list: &'a mut TranscriptList,
    pub(super) theme: &'a Theme,
    pub(super) opts: ListOptions,
    /// Rows of the transcript area.
    pub(super) rows: usize,
    pub(super) message: &'a mut Option<String>,
}

impl Found {
    /// Search the list for the query: at once, or on a thread with the
    /// matches taken in as they come (see [`Found::poll`]). `jump`: go to
    /// the first match.
    pub(super) fn start(&mut self, jump: bool, cx: &mut FindCx<'_>) {
        self.matches.clear();
        self.current = None;
        self.running = None;
        let query = self.query.clone();
        if self.background {
            let job = search::Search::spawn(
                cx.transcript.clone(),
                cx.list.entries.clone(),
                cx.theme.clone(),
                cx.opts.width,
                cx.opts.show_reasoning,
                query,
            );
            self.running = Some((job, jump));
            self.poll(cx);
            return;
        }
        self.matches = search::find(
            cx.transcript,
            &cx.list.entries,
            cx.theme,
            cx.opts.width,
            cx.opts.show_reasoning,
            &query,
        );
        if !jump {
            return;
        }
        if self.matches.is_empty() {
            *cx.message = Some(format!("no match for {query:?}"));
        } else {
            self.go(true, cx);
        }
    }

    /// Take the matches a running search found: go to the first one at or
    /// after the focus as soon as there is one (or when the search ends,
    /// to the first of all), and say how far it got.
    pub(super) fn poll(&mut self, cx: &mut FindCx<'_>) {
        let Some((job, jump)) = self.running.as_mut() else {
            return;
        };
        let found = job.poll();
        let (done, scanned, total, jump) = (job.done, job.scanned(), job.total, *jump);
        self.matches.extend(found);
        if done {
            self.running = None;
        }
        if !jump {
            return;
        }
        let focus = cx.list.focus;
        let ahead = self.matches.iter().any(|m| m.entry >= focus);
        if self.current.is_none() && !self.matches.is_empty() && (ahead || done) {
            self.go(true, cx);
        }
        let n = self.matches.len();
        // Gone to a match while the search ran on: its count grows.
        if let Some(c) = self.current {
            *cx.message = Some(format!(
                "match {}/{}{} for {:?}",
                c + 1,
                n,
                if done { "" } else { "…" },
                self.query
            ));
        }
        if !done {
            if self.current.is_none() {
                *cx.message = Some(format!(
                    "searching {scanned}/{total} · {n} match{} for {:?}",
                    if n == 1 { "" } else { "es" },
                    self.query
                ));
            }
        } else if n == 0 {
            *cx.message = Some(format!("no match for {:?}", self.query));
        }
    }

    /// `n` / `N`: the next or the previous match, shown.
    pub(super) fn go(&mut self, forward: bool, cx: &mut FindCx<'_>) {
        let list = &mut *cx.list;
        // A replay that seeked back may have fewer entries than when searched.
        let entries = list.entries.len();
        self.matches.retain(|m| m.entry < entries);
        if self.current.is_some_and(|c| c >= self.matches.len()) {
            self.current = None;
        }
        if self.matches.is_empty() {
            *cx.message = Some(if self.query.is_empty() {
                "no search".into()
            } else {
                format!("no match for {:?}", self.query)
            });
            return;
        }
        let n = self.matches.len();
        let here = Match {
            entry: list.focus,
            row: 0,
        };
        let i = match (self.current, forward) {
            (Some(c), true) => (c + 1) % n,
            (Some(c), false) => (c + n - 1) % n,
            (None, true) => self
                .matches
                .iter()
                .position(|m| (m.entry, m.row) >= (here.entry, here.row))
                .unwrap_or(0),
            (None, false) => self
                .matches
                .iter()
                .rposition(|m| m.entry < here.entry)
                .unwrap_or(n - 1),
        };
        self.current = Some(i);
        let m = self.matches[i];
        *cx.message = Some(format!("match {}/{} for {:?}", i + 1, n, self.query));
        if let Some(&item) = list.entries.get(m.entry) {
            // The match may be in a collapsed part: show the card in full.
            list.overrides.insert(item, Density::Full);
        }
        list.follow = false;
        list.focus = m.entry;
        list.anchor = Anchor {
            entry: m.entry,
            row: m.row.saturating_sub(cx.rows / 3),
        };
    }

    /// Matches are list positions: find them again after the list was
    /// rebuilt by a filter (tool cards or reasoning hidden or shown).
    pub(super) fn refresh(&mut self, cx: &mut FindCx<'_>) {
        if self.matches.is_empty() && self.running.is_none() {
            return;
        }
        // Found again quietly: no jump.
        self.start(false, cx);
    }
}
