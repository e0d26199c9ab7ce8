//! Opening a library session: the file loaded on a thread (the list keeps
//! its keys meanwhile), then shown by the same app a `deck view` or
//! `deck replay` of it builds — in the viewer at the hit's card with the
//! match searched for, or in the player — with the looks in use carried
//! over; leaving it comes back to the list.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, TryRecvError};

use super::{LibraryPart, Open};
use crate::app::files::{FileMode, ReplayOpts};
use crate::app::modal::Modal;
use crate::app::player::StartAt;
use crate::app::state::App;
use crate::library::Library;
use crate::session::Transcript;
use crate::source::{LoadError, Loaded};
use crate::view::list::Anchor;

/// What Enter or `r` opens.
#[derive(Debug, Clone, PartialEq)]
pub struct Target {
    pub path: PathBuf,
    pub session: Option<String>,
    pub title: Option<String>,
    /// A search hit's entry and what to search for in the session.
    pub at: Option<(usize, Option<String>)>,
    /// A hit's time into the session (ms), where the player starts.
    pub time: Option<i64>,
}

/// A session being loaded.
pub struct Opening {
    pub target: Target,
    replay: bool,
    rx: Receiver<Result<Loaded, LoadError>>,
}

/// The idle limit of a replay started here (`deck replay`'s default).
const IDLE_MS: u64 = 3000;

impl App {
    /// The app of `deck sessions`: the library's list, full screen.
    pub fn library(lib: Arc<Library>, open: Open, now_ms: i64) -> App {
        let mut app = App::viewer(
            "sessions".into(),
            Transcript::new(None, crate::agents::stock()),
            Vec::new(),
        );
        app.library = Some(Box::new(LibraryPart::new(lib, open, now_ms)));
        app.modal = Modal::Library;
        app
    }

    /// The library, when the app is `deck sessions`.
    pub fn library_part(&self) -> Option<&LibraryPart> {
        self.library.as_deref()
    }

    /// Enter (`replay`: `r`) in the library: load what is selected.
    pub(in crate::app) fn library_open(&mut self, replay: bool) {
        let Some(lib) = self.library.as_mut() else {
            return;
        };
        let Some(target) = lib.target() else {
            self.message = Some("nothing to open".into());
            return;
        };
        let (tx, rx) = std::sync::mpsc::channel();
        let path = target.path.to_string_lossy().into_owned();
        let spawned = std::thread::Builder::new()
            .name("deck-open".into())
            .spawn(move || {
                let _ = tx.send(crate::source::load_path(&path));
            });
        if let Err(e) = spawned {
            lib.note = Some(format!("cannot open: {e}"));
            return;
        }
        lib.opening = Some(Opening { target, replay, rx });
    }

    /// Show the session being opened once it is loaded; true when
    /// something changed.
    pub(in crate::app) fn poll_opening(&mut self) -> bool {
        let Some(lib) = self.library.as_mut() else {
            return false;
        };
        let Some(o) = &lib.opening else {
            return false;
        };
        let loaded = match o.rx.try_recv() {
            Err(TryRecvError::Empty) => return false,
            Err(TryRecvError::Disconnected) => Err("the loading thread stopped".to_string()),
            Ok(r) => r.map_err(|e| e.to_string()),
        };
        let Some(o) = lib.opening.take() else {
            return false;
        };
        match loaded {
            Ok(loaded) => self.show_opened(loaded, o),
            Err(e) => lib.note = Some(crate::text::sanitize::inline(&e)),
        }
        true
    }

    fn show_opened(&mut self, loaded: Loaded, o: Opening) {
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
        let label = t
            .path
            .file_name()
            .map_or_else(|| t.path.display().to_string(), |n| n.to_string_lossy().into_owned());
        let mut new = match App::from_file(label, loaded, t.session.as_deref(), mode) {
            Ok(app) => app,
            Err(e) => {
                if let Some(lib) = self.library.as_mut() {
                    lib.note = Some(crate::text::sanitize::inline(&e.to_string()));
                }
                return;
            }
        };
        // The looks in use, and the screen.
        std::mem::swap(&mut new.looks, &mut self.looks);
        new.density = self.density;
        new.show_reasoning = self.show_reasoning;
        new.unpainted = self.unpainted;
        new.width = self.width;
        new.height = self.height;
        new.list.progressive = self.list.progressive;
        new.found.background = self.found.background;
        new.library = self.library.take();
        if let Some(lib) = new.library.as_mut() {
            lib.shown = false;
        }
        let redacted = self.redaction.on;
        *self = new;
        if redacted {
            self.toggle_redaction();
        }
        if let (false, Some((item, needle))) = (o.replay, t.at) {
            self.open_at(item, needle.as_deref());
        }
    }

    /// Focus entry `item` of the transcript, and search for `needle` from
    /// there (its first match is in that entry when the text is).
    pub fn open_at(&mut self, item: usize, needle: Option<&str>) {
        let e = self.list.entries.partition_point(|&x| x < item);
        self.set_focus(e);
        self.list.anchor = Anchor { entry: e, row: 0 };
        if let Some(n) = needle.filter(|n| !n.is_empty()) {
            self.found.query = n.to_string();
            self.start_search(true);
        }
    }

    /// `R` in the library: its list and hits shown redacted (and the
    /// sessions opened from it).
    pub(in crate::app) fn toggle_library_redaction(&mut self) {
        let on = !self.redaction.on;
        if on && let Err(e) = crate::text::redact::Redactor::stock() {
            self.message = Some(format!("cannot redact: {e}"));
            return;
        }
        self.redaction.on = on;
        self.message = Some(if on {
            "redacted: secrets and the home folder hidden (R shows them)".into()
        } else {
            "redaction off".into()
        });
    }

    /// Leaving a session opened from the library: back to the list
    /// (false: there is no library, quit).
    pub(in crate::app) fn back_to_library(&mut self) -> bool {
        let Some(lib) = self.library.as_mut() else {
            return false;
        };
        lib.shown = true;
        self.modal = Modal::Library;
        true
    }
}
