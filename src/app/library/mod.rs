//! `deck sessions` in the terminal: the library's full-screen list of
//! every session on the machine (agent, title, cwd, last activity or
//! start, length, calls, errors, size; the most recently active first, `s`
//! sorting by another column), filtered by agent (`a`), this directory
//! (`c`) and date (`d`); `/` searches every session and lists the hits
//! with their snippets; Enter opens the session (at the hit's card, the
//! match highlighted) in the viewer, `r` in the player, and leaving it
//! (`q`) comes back here. The index is brought up to date on a thread
//! while the list is already in use: a progress line says how far, and
//! the rows fill in as each batch is committed.
//!
//! This file owns the state ([`LibraryPart`]) and its keys; `draw.rs` the
//! screen, `open.rs` loading the session to open. The app holds the part
//! in its [`Modal::Library`](super::modal::Modal::Library) while the list is
//! shown, and keeps it while a session opened from it is.

mod draw;
mod open;

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use crossterm::event::KeyEvent;

pub use draw::LibraryView;
pub use open::{Opened, Opening, Target};

use super::keys::{self, Action, Part};
use super::outcome::Outcome;
use super::search::Prompt;
use crate::library::{Filter, Hit, Library, LibraryError, Progress, Roots, SessionRow};

/// What `deck sessions` opens with.
pub struct Open {
    pub roots: Roots,
    pub filter: Filter,
    /// `deck sessions search QUERY`: the hits shown first.
    pub query: Option<String>,
}

/// The agents `a` cycles through (after all of them).
const AGENTS: [&str; 4] = ["dsh", "claude-code", "codex", "acp"];

/// How far back `d` looks, in days (`None`: any time).
const SPANS: [Option<i64>; 4] = [None, Some(1), Some(7), Some(30)];

/// What the list is sorted by (largest, newest first; a session that does
/// not say it last). `s` goes to the next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Sort {
    /// Its last event's time (else its first's): the index's order.
    #[default]
    Ended,
    Started,
    Length,
    Calls,
    Errors,
    Size,
}

impl Sort {
    const ALL: [Sort; 6] = [Sort::Ended, Sort::Started, Sort::Length, Sort::Calls, Sort::Errors, Sort::Size];

    fn next(self) -> Sort {
        let i = Sort::ALL.iter().position(|s| *s == self).unwrap_or(0);
        Sort::ALL[(i + 1) % Sort::ALL.len()]
    }

    /// What it is called in the list's top line.
    pub fn name(self) -> &'static str {
        match self {
            Sort::Ended => "last activity",
            Sort::Started => "start",
            Sort::Length => "length",
            Sort::Calls => "calls",
            Sort::Errors => "errors",
            Sort::Size => "size",
        }
    }

    /// The value a row is sorted by (`None`: the session does not say).
    fn key(self, r: &SessionRow) -> Option<i64> {
        match self {
            Sort::Ended => r.ended.or(r.started),
            Sort::Started => r.started,
            Sort::Length => r.started.zip(r.ended).map(|(a, b)| b - a),
            Sort::Calls => Some(r.calls as i64),
            Sort::Errors => Some(r.errors as i64),
            Sort::Size => Some(i64::try_from(r.bytes).unwrap_or(i64::MAX)),
        }
    }
}

/// The hits of a search, shown instead of the list.
pub struct Results {
    pub query: String,
    /// What the viewer searches for once a hit's session is open.
    pub needle: Option<String>,
    pub hits: Vec<Hit>,
    /// How many match in all, when known and more than shown.
    pub total: Option<usize>,
    /// More match than are shown.
    pub more: bool,
    pub row: usize,
}

/// The index being brought up to date on its thread.
struct Updating {
    progress: Arc<Progress>,
    done: Arc<AtomicBool>,
    /// What it ended with, when it failed or found the index busy.
    outcome: Arc<Mutex<Option<String>>>,
    /// `progress.files` when the rows were last read.
    seen: usize,
}

/// The library screen's state.
pub struct LibraryPart {
    lib: Arc<Library>,
    /// Every session, newest first.
    rows: Vec<SessionRow>,
    /// The rows the filter keeps (indexes into `rows`).
    pub(super) kept: Vec<usize>,
    pub(super) filter: Filter,
    /// `d`'s place in [`SPANS`].
    span: usize,
    /// What the list is sorted by (`s`).
    pub(super) sort: Sort,
    /// The current directory (what `c` filters by).
    here: Option<String>,
    /// The row selected in the list.
    pub(super) row: usize,
    /// A search line being typed.
    pub(super) prompt: Option<Prompt>,
    pub(super) results: Option<Results>,
    updating: Option<Updating>,
    /// A notice for the top line (the index rebuilt, busy, failed).
    pub(super) note: Option<String>,
    /// A session being loaded to open.
    pub(super) opening: Option<Opening>,
    /// A hit in a session this big or bigger is looked for in its end
    /// first (`open.rs`).
    pub(super) ends_from: u64,
    /// When the list was opened (epoch ms), for "today".
    now_ms: i64,
}

impl LibraryPart {
    /// The library over `lib`: its rows at once, the index brought up to
    /// date on a thread (files found under `open.roots`).
    pub fn new(lib: Arc<Library>, open: Open, now_ms: i64) -> LibraryPart {
        let here = std::env::current_dir()
            .ok()
            .map(|d| std::fs::canonicalize(&d).unwrap_or(d))
            .map(|d| d.to_string_lossy().into_owned());
        let mut part = LibraryPart {
            rows: lib.rows(),
            kept: Vec::new(),
            filter: open.filter,
            span: 0,
            sort: Sort::default(),
            here,
            row: 0,
            prompt: None,
            results: None,
            updating: None,
            note: lib.rebuilt().map(|why| format!("the index was built anew ({why})")),
            opening: None,
            ends_from: crate::load::window::ahead_from(),
            now_ms,
            lib,
        };
        part.refilter();
        part.start_update(open.roots);
        if let Some(q) = open.query {
            part.search(q);
        }
        part
    }

    fn start_update(&mut self, roots: Roots) {
        let progress = Arc::new(Progress::default());
        let done = Arc::new(AtomicBool::new(false));
        let outcome = Arc::new(Mutex::new(None));
        let (lib, p, d, o) = (self.lib.clone(), progress.clone(), done.clone(), outcome.clone());
        let spawned = std::thread::Builder::new()
            .name("deck-index".into())
            .spawn(move || {
                let found = crate::library::discover(&roots);
                let r = lib.update(&found, &p);
                let said = match r {
                    Ok(u) => {
                        tracing::info!(read = u.read, dropped = u.dropped, bytes = u.bytes, "session index updated");
                        None
                    }
                    Err(e @ LibraryError::Busy(_)) => Some(e.to_string()),
                    Err(e) => {
                        tracing::warn!(error = %e, "updating the session index");
                        Some(format!("the index could not be updated: {e}"))
                    }
                };
                *o.lock().unwrap_or_else(|e| e.into_inner()) = said;
                d.store(true, Ordering::Release);
            });
        match spawned {
            Ok(_) => {
                self.updating = Some(Updating {
                    progress,
                    done,
                    outcome,
                    seen: 0,
                })
            }
            Err(e) => self.note = Some(format!("cannot start indexing: {e}")),
        }
    }

    /// The progress line while the index is updated.
    pub(super) fn progress(&self) -> Option<String> {
        let u = self.updating.as_ref()?;
        (u.progress.files_total.load(Ordering::Relaxed) > 0)
            .then(|| u.progress.line())
    }

    /// Take in what the index thread did: new rows after each batch, its
    /// outcome at the end. True when something changed on screen.
    pub(super) fn poll(&mut self) -> bool {
        let Some(u) = self.updating.as_mut() else {
            return false;
        };
        let finished = u.done.load(Ordering::Acquire);
        let files = u.progress.files.load(Ordering::Relaxed);
        if !finished && files == u.seen {
            // The progress line moves.
            return u.progress.files_total.load(Ordering::Relaxed) > 0;
        }
        u.seen = files;
        if finished {
            if let Some(said) = u.outcome.lock().unwrap_or_else(|e| e.into_inner()).take() {
                self.note = Some(said);
            }
            self.updating = None;
        }
        self.rows = self.lib.rows();
        self.refilter();
        // The hits shown, with what the index holds now.
        self.research();
        true
    }

    /// Sessions the filter keeps.
    pub fn rows_shown(&self) -> usize {
        self.kept.len()
    }

    /// True while a session is being loaded to open.
    pub fn opening(&self) -> bool {
        self.opening.is_some()
    }

    /// True while the index thread runs.
    pub fn updating(&self) -> bool {
        self.updating.is_some()
    }

    fn refilter(&mut self) {
        let selected = self.kept.get(self.row).map(|&i| self.rows[i].path.clone());
        self.kept = (0..self.rows.len())
            .filter(|&i| self.filter.keeps(&self.rows[i]))
            .collect();
        if self.sort != Sort::Ended {
            // Stable: rows alike stay most recently active first.
            let (rows, sort) = (&self.rows, self.sort);
            self.kept
                .sort_by_key(|&i| std::cmp::Reverse(sort.key(&rows[i]).map_or((false, 0), |k| (true, k))));
        }
        self.row = selected
            .and_then(|p| self.kept.iter().position(|&i| self.rows[i].path == p))
            .unwrap_or(0)
            .min(self.kept.len().saturating_sub(1));
    }

    pub(super) fn rows(&self) -> impl Iterator<Item = &SessionRow> {
        self.kept.iter().map(|&i| &self.rows[i])
    }

    pub(super) fn selected(&self) -> Option<&SessionRow> {
        self.kept.get(self.row).map(|&i| &self.rows[i])
    }

    /// Search every session for `q`: the hits the filter keeps.
    fn search(&mut self, q: String) {
        match self.lib.search_kept(&q, &self.filter, 500) {
            Ok(found) => {
                let hits = found.hits;
                self.results = Some(Results {
                    total: found.total,
                    more: found.more,
                    needle: crate::library::parse(&q).needle,
                    query: q,
                    hits,
                    row: 0,
                });
            }
            Err(e) => self.note = Some(format!("search failed: {e}")),
        }
    }

    /// The rows `list_len` long the keys move over.
    fn len(&self) -> usize {
        match &self.results {
            Some(r) => r.hits.len(),
            None => self.kept.len(),
        }
    }

    fn cursor(&mut self) -> &mut usize {
        match &mut self.results {
            Some(r) => &mut r.row,
            None => &mut self.row,
        }
    }

    /// A key; `page` rows make a page. Opening a session is
    /// `Outcome::App(Show | Replay)`, for the app to do.
    pub fn handle(&mut self, key: KeyEvent, page: usize) -> Outcome {
        if let Some(mut p) = self.prompt.take() {
            match p.handle(key) {
                Outcome::Stay => self.prompt = Some(p),
                Outcome::App(Action::Submit) if !p.text.trim().is_empty() => self.search(p.text),
                _ => {}
            }
            return Outcome::Stay;
        }
        let last = self.len().saturating_sub(1);
        let page = page.max(1);
        let Some(action) = keys::action(Part::Library, key) else {
            return Outcome::Stay;
        };
        let cur = self.cursor();
        match action {
            Action::Next => *cur = (*cur + 1).min(last),
            Action::Prev => *cur = cur.saturating_sub(1),
            Action::PageDown => *cur = (*cur + page).min(last),
            Action::PageUp => *cur = cur.saturating_sub(page),
            Action::Top => *cur = 0,
            Action::Bottom => *cur = last,
            Action::StartSearch => self.prompt = Some(Prompt::default()),
            Action::CycleAgent => {
                let at = self
                    .filter
                    .agent
                    .as_deref()
                    .and_then(|a| AGENTS.iter().position(|x| *x == a));
                self.filter.agent = match at {
                    None => Some(AGENTS[0].to_string()),
                    Some(i) => AGENTS.get(i + 1).map(|a| a.to_string()),
                };
                self.refilter();
                self.research();
            }
            Action::ThisDir => {
                self.filter.cwd = match self.filter.cwd {
                    Some(_) => None,
                    None => self.here.clone(),
                };
                self.refilter();
                self.research();
            }
            Action::CycleSince => {
                self.span = (self.span + 1) % SPANS.len();
                self.filter.since = SPANS[self.span].map(|days| {
                    let today = self.now_ms - self.now_ms.rem_euclid(86_400_000);
                    today - (days - 1) * 86_400_000
                });
                self.refilter();
                self.research();
            }
            Action::CycleSort => {
                self.sort = self.sort.next();
                // The same session selected, wherever it went.
                self.refilter();
            }
            Action::Back if self.results.is_some() => self.results = None,
            Action::Back => {}
            a @ (Action::Show
            | Action::Replay
            | Action::Help
            | Action::Quit
            | Action::CycleTheme
            | Action::ToggleRedaction) => {
                return match a {
                    Action::Help => Outcome::Help,
                    Action::Quit => Outcome::Quit,
                    a => Outcome::App(a),
                };
            }
            _ => {}
        }
        Outcome::Stay
    }

    /// The search shown, run again (the filter or the index changed), on
    /// the same row where it can.
    fn research(&mut self) {
        if let Some(r) = self.results.take() {
            self.search(r.query);
            if let Some(now) = self.results.as_mut() {
                now.row = r.row.min(now.hits.len().saturating_sub(1));
            }
        }
    }

    /// What Enter or `r` opens: the file, the session in it, and the entry
    /// and the text to search for when it is a search hit.
    pub(super) fn target(&self) -> Option<open::Target> {
        match &self.results {
            Some(r) => r.hits.get(r.row).map(|h| open::Target {
                path: PathBuf::from(&h.row.path),
                session: h.row.id.clone(),
                title: h.row.title.clone(),
                at: Some((h.item as usize, r.needle.clone())),
                time: h.time.zip(h.row.started).map(|(t, s)| t - s),
                hit: Some(open::HitPlace {
                    call: h.call.clone(),
                    kind: h.kind.clone(),
                    time: h.time,
                }),
            }),
            None => self.selected().map(|r| open::Target {
                path: PathBuf::from(&r.path),
                session: r.id.clone(),
                title: r.title.clone(),
                at: None,
                time: None,
                hit: None,
            }),
        }
    }
}
