//! The sessions of a file (`deck view` and `deck replay` of a frame log
//! holding several): each session's records and [`Outline`], how one is
//! shown (folded for the viewer, or in a player) and which one is. The
//! session picker lists them (`S`); opened on a file of several without
//! `--session`, it comes first, on an empty screen, and closing it quits.
//! Showing the one chosen is the app's (`switch.rs`).

use std::sync::Arc;

use super::player::StartAt;
use crate::session::Outline;
use crate::source::sessions::SessionSummary;
use crate::wire::Record;

/// One session of the file.
pub struct FileSession {
    pub id: Option<String>,
    pub records: Arc<Vec<Record>>,
    pub outline: Outline,
}

/// How the file's sessions are shown.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum FileMode {
    /// The final state at once (`deck view`).
    View,
    /// Played back (`deck replay`).
    Replay(ReplayOpts),
}

/// A replay's options. `at` and `paused` apply to the first session shown;
/// a session switched to later starts at its start, playing, at the speed
/// in use.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReplayOpts {
    pub idle_ms: Option<u64>,
    pub speed: f64,
    pub at: Option<StartAt>,
    pub paused: bool,
}

/// The sessions of a file holding several, in file order.
pub struct FileSessions {
    pub sessions: Vec<FileSession>,
    mode: FileMode,
    /// The session shown (`None`: the first picker, nothing chosen yet).
    shown: Option<usize>,
}

/// A session of the file chosen to be shown, and how.
pub(super) struct Chosen {
    pub(super) id: Option<String>,
    pub(super) records: Arc<Vec<Record>>,
    pub(super) mode: FileMode,
    /// What the status line says of the switch (none for the first shown).
    pub(super) note: Option<String>,
}

impl FileSessions {
    /// The sessions of a file, in file order, none shown yet.
    pub(super) fn new(sessions: Vec<crate::source::LoadedSession>, mode: FileMode) -> FileSessions {
        let sessions = sessions
            .into_iter()
            .map(|s| FileSession {
                outline: Outline::of(&s.records),
                id: s.id,
                records: Arc::new(s.records),
            })
            .collect();
        FileSessions {
            sessions,
            mode,
            shown: None,
        }
    }

    /// The picker's rows, one per session in file order.
    pub(super) fn rows(&self) -> Vec<SessionSummary> {
        self.sessions
            .iter()
            .map(|s| SessionSummary {
                id: s.id.clone().unwrap_or_default(),
                title: s.outline.title.clone(),
                updated_at: s.outline.last_time,
                ..Default::default()
            })
            .collect()
    }

    /// Session `i` is the one shown, with `records` (those its view was
    /// folded from).
    pub(super) fn showing(&mut self, i: usize, records: Arc<Vec<Record>>) {
        if let Some(s) = self.sessions.get_mut(i) {
            s.outline = Outline::of(&records);
            s.records = records;
            self.shown = Some(i);
        }
    }

    /// The session shown, by index.
    pub fn shown(&self) -> Option<usize> {
        self.shown
    }

    /// Session `i` is shown from now on: how (a replay's first session
    /// starts as asked; a later one at its start, playing, at `speed`,
    /// the speed in use when a player runs).
    pub(super) fn choose(&mut self, i: usize, speed: Option<f64>) -> Option<Chosen> {
        let s = self.sessions.get(i)?;
        let (id, records) = (s.id.clone(), s.records.clone());
        let name = s
            .outline
            .title
            .clone()
            .or_else(|| s.id.clone())
            .unwrap_or_else(|| "(no id)".into());
        let (n, first) = (self.sessions.len(), self.shown.is_none());
        self.shown = Some(i);
        let mode = self.mode;
        if let FileMode::Replay(opts) = &mut self.mode {
            if let Some(speed) = speed {
                opts.speed = speed;
            }
            opts.at = None;
            opts.paused = false;
        }
        let note = (n > 1 && !first).then(|| {
            crate::text::sanitize::inline(&format!("session {}/{n}: {name}", i + 1))
        });
        Some(Chosen {
            id,
            records,
            mode,
            note,
        })
    }
}
