//! Opening a library session: the file loaded on a thread while the list
//! keeps its keys, then handed to the app (which shows it as `deck view` or
//! `deck replay` of it would, and comes back to the list when it is left).

use std::path::PathBuf;
use std::sync::mpsc::{Receiver, TryRecvError};

use super::LibraryPart;
use crate::source::{LoadError, Loaded};

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
    /// In the player (`r`), not the viewer.
    pub replay: bool,
    rx: Receiver<Result<Loaded, LoadError>>,
}

/// What came of the session being opened, at a tick.
pub enum Opened {
    /// Nothing yet (or nothing being opened).
    Nothing,
    /// It failed: the list's top line says why.
    Failed,
    /// Loaded: for the app to show.
    Loaded(Box<(Loaded, Opening)>),
}

impl LibraryPart {
    /// Enter (`replay`: `r`): load what is selected on a thread. False when
    /// nothing is selected (a thread that cannot start is said on the
    /// list's top line).
    pub(in crate::app) fn open(&mut self, replay: bool) -> bool {
        let Some(target) = self.target() else {
            return false;
        };
        let (tx, rx) = std::sync::mpsc::channel();
        let path = target.path.to_string_lossy().into_owned();
        let spawned = std::thread::Builder::new()
            .name("deck-open".into())
            .spawn(move || {
                let _ = tx.send(crate::source::load_path(&path));
            });
        match spawned {
            Ok(_) => self.opening = Some(Opening { target, replay, rx }),
            Err(e) => self.note = Some(format!("cannot open: {e}")),
        }
        true
    }

    /// Whether a session is being opened (the driver looks for it often,
    /// not at the idle pace: it must show as soon as it is loaded).
    pub fn is_opening(&self) -> bool {
        self.opening.is_some()
    }

    /// The session being opened, once it is loaded.
    pub(in crate::app) fn poll_opening(&mut self) -> Opened {
        let Some(o) = &self.opening else {
            return Opened::Nothing;
        };
        let loaded = match o.rx.try_recv() {
            Err(TryRecvError::Empty) => return Opened::Nothing,
            Err(TryRecvError::Disconnected) => Err("the loading thread stopped".to_string()),
            Ok(r) => r.map_err(|e| e.to_string()),
        };
        let Some(o) = self.opening.take() else {
            return Opened::Nothing;
        };
        match loaded {
            Ok(loaded) => Opened::Loaded(Box::new((loaded, o))),
            Err(e) => {
                self.say(&e);
                Opened::Failed
            }
        }
    }

    /// Say `text` on the list's top line.
    pub(in crate::app) fn say(&mut self, text: &str) {
        self.note = Some(crate::text::sanitize::inline(text));
    }
}
