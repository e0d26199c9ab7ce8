//! Searching all cards from the transcript: a query typed on the search
//! line finds matches (at once, or on a thread with the matches taken in as
//! they come), `n` / `N` go from one to the next, and a filter that rebuilds
//! the list finds them again. Part of [`App::update`].

use super::state::App;
use crate::cards::Density;
use crate::view::list::Anchor;
use crate::view::search::{self, Match};

impl App {
    /// Search the list for the query: at once, or on a thread with the
    /// matches taken in as they come (see [`App::poll_search`]).
    pub(super) fn start_search(&mut self, jump: bool) {
        self.found.matches.clear();
        self.found.current = None;
        self.found.running = None;
        let query = self.found.query.clone();
        if self.found.background {
            let (t, list, theme, opts, _) = self.parts();
            let job = search::Search::spawn(
                t.clone(),
                list.entries.clone(),
                theme.clone(),
                opts.width,
                opts.show_reasoning,
                query,
            );
            self.found.running = Some((job, jump));
            self.poll_search();
            return;
        }
        let (t, list, theme, opts, _) = self.parts();
        let matches = search::find(
            t,
            &list.entries,
            theme,
            opts.width,
            opts.show_reasoning,
            &query,
        );
        self.found.matches = matches;
        if !jump {
            return;
        }
        if self.found.matches.is_empty() {
            self.message = Some(format!("no match for {query:?}"));
        } else {
            self.goto_match(true);
        }
    }

    /// True while a search runs on its thread.
    pub fn searching(&self) -> bool {
        self.found.running.is_some()
    }

    /// Take the matches a running search found: go to the first one at or
    /// after the focus as soon as there is one (or when the search ends,
    /// to the first of all), and say how far it got.
    pub(super) fn poll_search(&mut self) {
        let Some((job, jump)) = self.found.running.as_mut() else {
            return;
        };
        let found = job.poll();
        let (done, scanned, total, jump) = (job.done, job.scanned(), job.total, *jump);
        self.found.matches.extend(found);
        if done {
            self.found.running = None;
        }
        if !jump {
            return;
        }
        let focus = self.list.focus;
        let matches = &self.found.matches;
        let ahead = matches.iter().any(|m| m.entry >= focus);
        if self.found.current.is_none() && !matches.is_empty() && (ahead || done) {
            self.goto_match(true);
        }
        let n = self.found.matches.len();
        // Gone to a match while the search ran on: its count grows.
        if let Some(c) = self.found.current {
            self.message = Some(format!(
                "match {}/{}{} for {:?}",
                c + 1,
                n,
                if done { "" } else { "…" },
                self.found.query
            ));
        }
        if !done {
            if self.found.current.is_none() {
                self.message = Some(format!(
                    "searching {scanned}/{total} · {n} match{} for {:?}",
                    if n == 1 { "" } else { "es" },
                    self.found.query
                ));
            }
        } else if n == 0 {
            self.message = Some(format!("no match for {:?}", self.found.query));
        }
    }

    pub(super) fn goto_match(&mut self, forward: bool) {
        // A replay that seeked back may have fewer entries than when searched.
        let entries = self.list.entries.len();
        let f = &mut self.found;
        f.matches.retain(|m| m.entry < entries);
        if f.current.is_some_and(|c| c >= f.matches.len()) {
            f.current = None;
        }
        if f.matches.is_empty() {
            self.message = Some(if f.query.is_empty() {
                "no search".into()
            } else {
                format!("no match for {:?}", f.query)
            });
            return;
        }
        let n = f.matches.len();
        let here = Match {
            entry: self.list.focus,
            row: 0,
        };
        let i = match (f.current, forward) {
            (Some(c), true) => (c + 1) % n,
            (Some(c), false) => (c + n - 1) % n,
            (None, true) => f
                .matches
                .iter()
                .position(|m| (m.entry, m.row) >= (here.entry, here.row))
                .unwrap_or(0),
            (None, false) => f
                .matches
                .iter()
                .rposition(|m| m.entry < here.entry)
                .unwrap_or(n - 1),
        };
        f.current = Some(i);
        let m = f.matches[i];
        self.message = Some(format!("match {}/{} for {:?}", i + 1, n, f.query));
        if let Some(&item) = self.list.entries.get(m.entry) {
            // The match may be in a collapsed part: show the card in full.
            self.list.overrides.insert(item, Density::Full);
        }
        self.list.follow = false;
        self.list.focus = m.entry;
        let rows = self.list_rows();
        self.list.anchor = Anchor {
            entry: m.entry,
            row: m.row.saturating_sub(rows / 3),
        };
    }

    /// Matches are list positions: find them again after the list was
    /// rebuilt by a filter (tool cards or reasoning hidden or shown).
    pub(super) fn refresh_matches(&mut self) {
        if self.found.matches.is_empty() && self.found.running.is_none() {
            return;
        }
        // Found again quietly: no jump.
        self.start_search(false);
    }
}
