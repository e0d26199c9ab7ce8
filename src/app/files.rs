//! The sessions of a file (`deck view` and `deck replay` of a frame log
//! holding several): each session's records and [`Outline`], how one is
//! shown (folded for the viewer, or in a player) and which one is. The
//! session picker lists them (`S`); opened on a file of several without
//! `--session`, it comes first, on an empty screen, and closing it quits.

use std::sync::Arc;

use crossterm::event::KeyEvent;

use super::modal::Modal;
use super::msg::Effect;
use super::part::Outcome;
use super::picker::{Picker, Sessions};
use super::player::{Player, StartAt};
use super::state::App;
use crate::session::{Outline, Transcript};
use crate::source::sessions::SessionSummary;
use crate::source::{LoadError, Loaded};
use crate::view::list::TranscriptList;
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

impl FileSessions {
    /// The session shown, by index.
    pub fn shown(&self) -> Option<usize> {
        self.shown
    }
}

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
        let sessions: Vec<FileSession> = loaded
            .sessions
            .into_iter()
            .map(|s| FileSession {
                outline: Outline::of(&s.records),
                id: s.id,
                records: Arc::new(s.records),
            })
            .collect();
        let several = sessions.len() > 1;
        let rows = sessions
            .iter()
            .map(|s| SessionSummary {
                id: s.id.clone().unwrap_or_default(),
                title: s.outline.title.clone(),
                updated_at: s.outline.last_time,
                ..Default::default()
            })
            .collect();
        let mut app = App::viewer(
            label,
            Transcript::new(None, crate::agents::stock()),
            Vec::new(),
        );
        app.sessions = Sessions::in_order(rows);
        app.file = Some(FileSessions {
            sessions,
            mode,
            shown: None,
        });
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

    /// The sessions of the file shown, when it holds several.
    pub fn file_sessions(&self) -> Option<&FileSessions> {
        self.file.as_ref()
    }

    /// Show session `i` of the file: folded, or in a new player from its
    /// start (the speed in use kept).
    pub(super) fn show_file_session(&mut self, i: usize) {
        let Some(file) = self.file.as_mut() else {
            return;
        };
        let Some(s) = file.sessions.get(i) else {
            return;
        };
        let (id, records) = (s.id.clone(), s.records.clone());
        let name = s
            .outline
            .title
            .clone()
            .or_else(|| s.id.clone())
            .unwrap_or_else(|| "(no id)".into());
        let (n, first) = (file.sessions.len(), file.shown.is_none());
        file.shown = Some(i);
        // What this session starts with; a later one starts at its start,
        // playing, at the speed in use.
        let mode = file.mode;
        if let FileMode::Replay(opts) = &mut file.mode {
            if let Some(p) = &self.shown.player {
                opts.speed = p.speed();
            }
            opts.at = None;
            opts.paused = false;
        }
        let follow = match mode {
            FileMode::View => {
                self.shown.player = None;
                self.shown.own = self.fold_kept(id, records);
                false
            }
            FileMode::Replay(opts) => {
                let speed = self.shown.player.as_ref().map_or(opts.speed, Player::speed);
                let shown = self.shown_records(&records);
                let mut p = Player::new(shown, id, opts.idle_ms, speed);
                match opts.at {
                    Some(StartAt::Seq(seq)) => p.seek_seq(seq),
                    Some(StartAt::Ms(ms)) => p.seek_ms(ms),
                    None => {}
                }
                p.playing = !opts.paused;
                self.played(records);
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
        if n > 1 && !first {
            self.message = Some(crate::text::sanitize::inline(&format!(
                "session {}/{n}: {name}",
                i + 1
            )));
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
}
