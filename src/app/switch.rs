//! Changing which session the app shows: one of the sessions of a file of
//! several (the picker's Enter, `S`), and `deck sessions`' library — a
//! session opened from its list (in the viewer at a hit's card with the
//! match searched for, or in the player; the looks in use carried over),
//! and back to the list when it is left. The file's sessions are
//! [`FileSessions`]', the list and its loading thread the
//! [`LibraryPart`]'s; this is what the app does with them.

use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use crossterm::event::KeyEvent;

use super::file_sessions::{FileMode, FileSessions, ReplayOpts};
use super::keys::Action;
use super::library::{LibraryPart, LibraryView, Open, Opening, Target};
use super::loading::Loading;
use super::modal::Modal;
use super::msg::Effect;
use super::outcome::Outcome;
use super::picker::{Picker, Sessions};
use super::player::{Player, StartAt};
use super::state::App;
use crate::library::Library;
use crate::load::window::Window;
use crate::session::Transcript;
use crate::source::{LoadError, Loaded};
use crate::view::list::{Anchor, TranscriptList};

/// The idle limit of a replay started from the library (`deck replay`'s
/// default).
const IDLE_MS: u64 = 3000;

impl App {
    /// An app over the sessions loaded from a file, as `mode` shows them:
    /// `session` (an id) or a file's only session at once; a file of
    /// several without `session` opens the session picker first. The
    /// sessions of a file of several are kept, for `S`.
    pub fn from_file(
        label: String,
        loaded: Loaded,
        session: Option<&str>,
        mode: FileMode,
    ) -> Result<App, LoadError> {
        // An unknown id, or no session at all, is an error here.
        let id = loaded.session(session)?.id.clone();
        let pick = session.is_none() && loaded.sessions.len() > 1;
        let start = loaded
            .sessions
            .iter()
            .position(|s| s.id == id)
            .unwrap_or(0);
        let file = FileSessions::new(loaded.sessions, mode);
        let several = file.sessions.len() > 1;
        let mut app = App::viewer(
            label,
            Transcript::new(None, crate::agents::stock()),
            Vec::new(),
        );
        app.sessions = Sessions::in_order(file.rows());
        app.file = Some(file);
        if pick {
            app.modal = Modal::Picker(Picker { row: 0 });
        } else {
            app.show_file_session(start);
        }
        if !several {
            // Nothing to switch to: the records live in the transcript or
            // the player alone.
            app.file = None;
            app.sessions = Sessions::default();
        }
        Ok(app)
    }

    /// Show session `i` of the file: folded, or in a new player from its
    /// start (the speed in use kept).
    pub(super) fn show_file_session(&mut self, i: usize) {
        let speed = self.shown.player.as_ref().map(Player::speed);
        let Some(chosen) = self.file.as_mut().and_then(|f| f.choose(i, speed)) else {
            return;
        };
        let follow = match chosen.mode {
            FileMode::View => {
                self.shown.player = None;
                self.shown.own = self.redaction.fold_kept(chosen.id, chosen.records);
                false
            }
            FileMode::Replay(opts) => {
                let shown = self.redaction.shown_records(&chosen.records);
                let mut p = Player::new(shown, chosen.id, opts.idle_ms, speed.unwrap_or(opts.speed));
                match opts.at {
                    Some(StartAt::Seq(seq)) => p.seek_seq(seq),
                    Some(StartAt::Ms(ms)) => p.seek_ms(ms),
                    None => {}
                }
                p.playing = !opts.paused;
                self.redaction.played(chosen.records);
                self.shown.player = Some(p);
                true
            }
        };
        self.found.clear();
        // A new list: no focus, overrides or layouts of the session before.
        let mut list = TranscriptList::new();
        list.follow = follow;
        list.progressive = self.list.progressive;
        list.synchronous = self.list.synchronous;
        self.list = list;
        self.sync();
        self.unseen = 0;
        if let Some(note) = chosen.note {
            self.message = Some(note);
        }
    }

    /// A key for the picker over the file's sessions: Enter shows the
    /// session chosen; closing the first picker (nothing shown yet) quits.
    pub(super) fn file_picker_key(&mut self, mut picker: Picker, k: KeyEvent) -> Vec<Effect> {
        let shown = self.file.as_ref().and_then(FileSessions::shown);
        let current = shown
            .and_then(|i| self.sessions.rows().get(i))
            .map(|s| s.id.clone());
        let out = picker.handle(k, &self.sessions, current.as_deref(), false, &mut self.message);
        match out {
            Outcome::Close(fx) if fx.iter().any(|f| matches!(f, Effect::Switch(_))) => {
                // Shown at once: no "switching to …".
                self.message = None;
                self.show_file_session(picker.row);
                Vec::new()
            }
            Outcome::Close(_) if shown.is_none() => {
                self.modal = Modal::Picker(picker);
                vec![Effect::Quit]
            }
            out => self.after_part(out, Modal::Picker(picker)),
        }
    }

    /// The app of `deck sessions`: the library's list, full screen.
    pub fn library(lib: Arc<Library>, open: Open, now_ms: i64) -> App {
        let mut app = App::viewer(
            "sessions".into(),
            Transcript::new(None, crate::agents::stock()),
            Vec::new(),
        );
        app.modal = Modal::Library(Box::new(LibraryPart::new(lib, open, now_ms)));
        app
    }

    /// The library, wherever it is: on screen, or kept behind a session
    /// opened from it.
    pub(super) fn library_mut(&mut self) -> Option<&mut LibraryPart> {
        self.modal.library_mut().or(self.behind.as_deref_mut())
    }

    /// The library taken out of the app, wherever it is.
    fn take_library(&mut self) -> Option<Box<LibraryPart>> {
        if self.modal.library().is_some() {
            std::mem::take(&mut self.modal).into_library()
        } else {
            self.behind.take()
        }
    }

    /// `modal` is closed: a library in it is kept, to go back to.
    pub(super) fn keep_library(&mut self, modal: Modal) {
        if let Some(lib) = modal.into_library() {
            self.behind = Some(lib);
        }
    }

    /// A key in the library's list.
    pub(super) fn library_key(&mut self, mut lib: Box<LibraryPart>, k: KeyEvent) -> Vec<Effect> {
        let page = LibraryView::list_rows(self.height);
        match lib.handle(k, page) {
            Outcome::App(a @ (Action::Show | Action::Replay)) => {
                if !lib.open(a == Action::Replay) {
                    self.message = Some("nothing to open".into());
                }
                self.modal = Modal::Library(lib);
                Vec::new()
            }
            Outcome::App(Action::ToggleRedaction) => {
                self.modal = Modal::Library(lib);
                self.toggle_library_redaction();
                Vec::new()
            }
            out => self.after_part(out, Modal::Library(lib)),
        }
    }

    /// Show the session opened from the library, loaded: the app of a
    /// `deck view` or `deck replay` of it, with the looks in use and the
    /// library to come back to.
    pub(super) fn show_opened(&mut self, loaded: Loaded, o: Opening) {
        let t = o.target;
        let mode = if o.replay {
            FileMode::Replay(ReplayOpts {
                idle_ms: Some(IDLE_MS),
                speed: 1.0,
                at: t.time.filter(|&ms| ms > 0).map(StartAt::Ms),
                paused: false,
            })
        } else {
            FileMode::View
        };
        let label = label_of(&t.path);
        // Its start shown while it loaded: the entry focused there is
        // focused in the whole (its first entries are the start's).
        let kept = (self.loading.is_some() && t.at.is_none() && self.list.focus > 0)
            .then(|| self.focused_item())
            .flatten();
        let new = match App::from_file(label, loaded, t.session.as_deref(), mode) {
            Ok(app) => app,
            Err(e) => {
                if let Some(lib) = self.library_mut() {
                    lib.say(&e.to_string());
                }
                return;
            }
        };
        let redacted = self.redaction.on;
        self.become_shown(new);
        if redacted {
            self.toggle_redaction();
        }
        if let (false, Some((item, needle))) = (o.replay, t.at) {
            self.open_at(item, needle.as_deref());
        } else if let Some(item) = kept {
            self.open_at(item, None);
        }
    }

    /// A session being opened: its start, or a search hit's end, read
    /// first — shown at once (on the hit, when it is in the end), the status
    /// bar saying how far the whole is loaded and its counts `…`; the whole
    /// replaces it when it is loaded ([`show_opened`](Self::show_opened)).
    pub(super) fn show_ahead(&mut self, first: Window, t: Target, bytes: Arc<AtomicU64>, total: u64) {
        // Redacted when the library is.
        let shown = self.fold_part(t.session.clone(), &first.records, first.numbered);
        let at = match (&t.hit, &t.at) {
            (Some(hit), Some((_, needle))) => match hit.find(&shown) {
                Some(item) => Some((item, needle.clone())),
                None => {
                    tracing::info!(from = first.from, "the hit is not in the session's end: the whole is waited for");
                    return;
                }
            },
            _ => None,
        };
        let mut new = App::viewer(label_of(&t.path), shown, Vec::new());
        new.redaction.on = self.redaction.on;
        new.loading = Some(Loading {
            bytes,
            total,
            mode: FileMode::View,
            refocus: None,
        });
        self.become_shown(new);
        // The status bar says `loading N%` and its counts `…`.
        if let Some((item, needle)) = at {
            self.open_at(item, needle.as_deref());
        }
    }

    /// `new` shown instead, with the looks in use, the screen, and the
    /// library to come back to.
    fn become_shown(&mut self, mut new: App) {
        std::mem::swap(&mut new.looks, &mut self.looks);
        new.density = self.density;
        new.show_reasoning = self.show_reasoning;
        new.width = self.width;
        new.height = self.height;
        new.list.progressive = self.list.progressive;
        new.found.background = self.found.background;
        new.behind = self.take_library();
        *self = new;
    }

    /// Focus entry `item` of the transcript, and search for `needle` from
    /// there (its first match is in that entry when the text is).
    pub fn open_at(&mut self, item: usize, needle: Option<&str>) {
        let e = self.list.entries.partition_point(|&x| x < item);
        // At the top first: focusing it then lays out only what is there,
        // not every entry from the start down to it.
        self.list.anchor = Anchor { entry: e, row: 0 };
        self.set_focus(e);
        self.list.anchor = Anchor {
            entry: self.list.focus,
            row: 0,
        };
        if let Some(n) = needle.filter(|n| !n.is_empty()) {
            self.found.query = n.to_string();
            let (found, mut cx) = self.finding();
            found.start(true, &mut cx);
        }
    }

    /// `R` in the library: its list and hits shown redacted (and the
    /// sessions opened from it).
    fn toggle_library_redaction(&mut self) {
        self.message = Some(match self.redaction.toggle_plain() {
            Ok(true) => "redacted: secrets and the home folder hidden (R shows them)".into(),
            Ok(false) => "redaction off".into(),
            Err(why) => why,
        });
    }

    /// Leaving a session opened from the library: back to the list
    /// (false: there is no library, quit).
    pub(super) fn back_to_library(&mut self) -> bool {
        let Some(mut lib) = self.take_library() else {
            return false;
        };
        // A session's end left before its whole was loaded: not shown when
        // it is.
        lib.forget_opening();
        self.modal = Modal::Library(lib);
        true
    }

    /// Whether a session is being opened from the library (the driver looks
    /// for it often, not at the idle pace).
    pub fn is_opening_a_session(&self) -> bool {
        self.library_part().is_some_and(LibraryPart::is_opening)
    }

    /// A session of `bytes` or more opened from the library is shown before
    /// it is loaded whole: its start, or a search hit's end (by default
    /// 4 MiB: the tests' sessions are smaller).
    pub fn read_hits_in_ends_from(&mut self, bytes: u64) {
        if let Some(lib) = self.library_mut() {
            lib.read_ends_from(bytes);
        }
    }
}

/// A session file's name, for the status bar.
fn label_of(path: &std::path::Path) -> String {
    path.file_name()
        .map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
}
