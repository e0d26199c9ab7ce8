//! A session file shown while it is still being read (`deck view` of a big
//! log: `run/opening.rs` reads it): the app opens on the records read so
//! far, the rest comes as [`Msg::Records`](super::Msg::Records), and the
//! status bar says how far the read is (`loading 34%`) and that its counts
//! are of what is read so far (`1204… cards`). Scrolling, search, `G` work
//! on what is there. At the end (`loading::LoadEnd`) the counts are known,
//! a search made meanwhile is found again in all of it, a file that turned
//! out to hold several sessions gets its picker (`S`), said on the status
//! line, and a read whose records may differ from a whole read's (events
//! out of seq order) is shown as the whole read has them, the focus kept.
//! A view keeps no records beside its cards: `R` reads the file again
//! (`redaction.rs`), back on the item focused when it ends.

use std::sync::Arc;

use super::file_sessions::{FileMode, FileSessions};
use super::player::Player;
use super::loading::{LoadEnd, Loading};
use super::picker::Sessions;
use super::state::App;
use crate::load::LoadedSession;
use crate::session::Transcript;
use crate::wire::Record;

impl App {
    /// A session of a file still being read: its `records` so far shown
    /// from the start, the rest to come as [`Msg::Records`](super::Msg::Records)
    /// and then [`Msg::Loaded`](super::Msg::Loaded).
    pub fn opening(label: String, id: Option<String>, records: Vec<Record>, loading: Loading) -> App {
        let mut app = match loading.mode {
            FileMode::View => {
                let mut app = App::viewer(label, Transcript::new(None, crate::agents::stock()), Vec::new());
                app.shown.own = app.redaction.fold_kept(id, Arc::default());
                // Folded here, not on the pool: it is busy decoding the
                // rest of the file, and the first screen must not wait.
                app.redaction.apply_live(&mut app.shown.own, records);
                app
            }
            FileMode::Replay(opts) => {
                let mut p = Player::growing(Arc::new(records), id, opts.idle_ms, opts.speed);
                p.playing = !opts.paused;
                let mut app = App::replayer(label, p, Vec::new());
                app.list.follow = true;
                app
            }
        };
        app.loading = Some(loading);
        app.sync();
        app.unseen = 0;
        app
    }

    /// More records of the file shown, still being read: folded in, or
    /// given to its player.
    pub(super) fn loaded_more(&mut self, records: Vec<Record>) {
        match &mut self.shown.player {
            Some(p) if p.is_growing() => p.grow(records),
            _ => self.redaction.apply_live(&mut self.shown.own, records),
        }
    }

    /// The records of the file shown are not kept: `again` reads it again
    /// for `R` (the transcript is their only copy).
    pub fn read_again_with(&mut self, again: super::redaction::ReadAgain) {
        self.redaction.read_again_with(again);
    }

    /// `R` over a file whose records are not kept: it is read again, shown
    /// redacted (or not) as it comes, back on the item focused at the end.
    /// False when the records are kept (`R` folds them again).
    pub(super) fn redact_by_reading_again(&mut self) -> bool {
        let Some(again) = self.redaction.read_again().cloned() else {
            return false;
        };
        if self.loading.is_some() {
            self.message = Some("R: the file is still being read, press it again when it is".into());
            return true;
        }
        let on = !self.redaction.on;
        if on && let Err(e) = crate::text::redact::Redactor::stock() {
            self.message = Some(format!("cannot redact: {e}"));
            return true;
        }
        self.redaction.on = on;
        let focus = self.focused_item();
        let id = self.shown.own.session_id().map(str::to_string);
        self.shown.own = Transcript::new(id, crate::agents::stock());
        self.list.reset();
        let mut loading = again();
        loading.refocus = focus;
        self.loading = Some(loading);
        self.sync();
        self.message = Some(if on {
            "redacted: secrets and the home folder hidden (R shows them) · reading the file again".into()
        } else {
            "redaction off: the session as it came · reading the file again".into()
        });
        true
    }

    /// Whether the file shown is still being read.
    pub fn is_loading(&self) -> bool {
        self.loading.is_some()
    }

    /// The file shown is read to its end.
    pub(super) fn loaded(&mut self, end: LoadEnd) {
        let (mode, refocus) = self
            .loading
            .take()
            .map_or((FileMode::View, None), |l| (l.mode, l.refocus));
        self.unseen = 0;
        if let Some(p) = &mut self.shown.player {
            p.grown();
        }
        // A search made while it was read: found again in all of it (what
        // the status line said of its matches counted part of it).
        let searching = !self.found.query.is_empty()
            && (!self.found.matches.is_empty() || self.found.running.is_some());
        self.refresh_matches();
        if searching {
            self.message = Some(crate::text::sanitize::inline(&format!(
                "read to the end: {:?} found again in all of it (n N)",
                self.found.query
            )));
        }
        if let Some(why) = &end.failed {
            self.message = Some(crate::text::sanitize::inline(&format!(
                "the read stopped: {why} (shown: what was read before)"
            )));
        }
        if let Some(item) = refocus {
            // Read again for `R`: back on the item it was on, and the read
            // is over.
            self.message = Some(if self.redaction.on {
                "redacted: secrets and the home folder hidden (R shows them)".into()
            } else {
                "redaction off: the session as it came".into()
            });
            let entries = &self.list.entries;
            let e = entries.partition_point(|&x| x < item);
            self.set_focus(e);
            self.list.anchor = crate::view::list::Anchor {
                entry: self.list.focus,
                row: 0,
            };
        }
        if let Some((whole, why)) = end.whole {
            tracing::info!(why, "shown as read whole");
            let at = whole
                .sessions
                .iter()
                .position(|s| s.id == end.id)
                .unwrap_or(0);
            let n = whole.sessions.len();
            self.install(whole.sessions, at, mode, true);
            if n > 1 {
                self.message = Some(format!("this file holds {n} sessions · S picks one"));
            }
            return;
        }
        if self.shown.own.session_id().is_none() && end.id.is_some() {
            self.shown.own.set_session_id(end.id.clone());
        }
        if end.sessions.len() > 1 {
            let n = end.sessions.len();
            self.install(end.sessions, end.shown, mode, false);
            self.message = Some(format!("this file holds {n} sessions · S picks one"));
        }
    }

    /// The file's `sessions` known whole, session `at` the one shown:
    /// folded again from them when `refold` (the focus kept on the item it
    /// was on), else only their picker set up.
    fn install(&mut self, sessions: Vec<LoadedSession>, at: usize, mode: FileMode, refold: bool) {
        let several = sessions.len() > 1;
        let mut file = FileSessions::new(sessions, mode);
        if refold {
            let focus = self.focused_item();
            self.file = Some(file);
            self.show_file_session(at);
            if let Some(item) = focus {
                let entries = &self.list.entries;
                self.list.focus = entries
                    .partition_point(|&x| x < item)
                    .min(entries.len().saturating_sub(1));
                self.reveal();
            }
        } else {
            // The shown one's records are those the app (or its player) holds.
            let records = match &self.shown.player {
                Some(p) => p.records(),
                None => self.redaction.kept_records(),
            };
            file.showing(at, records);
            self.file = Some(file);
        }
        if let Some(file) = self.file.as_ref().filter(|_| several) {
            self.sessions = Sessions::in_order(file.rows());
        } else {
            self.file = None;
            self.sessions = Sessions::default();
        }
    }
}
