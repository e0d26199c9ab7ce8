//! A big followed log's end shown first (`deck follow`,
//! [`LiveEvent::Ahead`](crate::source::live::LiveEvent::Ahead)): its last
//! cards are on screen at once, while the file is read from its start
//! behind them into the whole transcript (`loading::Ahead`, not shown yet).
//! The status bar says how far that read is and the counts are of the end
//! (`…`); search, `G` and scrolling work on the end. When the read comes
//! to the end (`CaughtUp`) the whole is shown instead, at its end (or as
//! far from it as the focus was), and what arrives after folds into it as
//! for any followed file.

use super::loading::Ahead;
use super::state::App;
use crate::session::Transcript;
use crate::source::live;
use crate::wire::Record;

impl App {
    /// The end of the followed file: shown, the records after it folded
    /// behind into the whole.
    pub(super) fn ahead(&mut self, end: live::Ahead) {
        let id = self.shown.own.session_id().map(str::to_string);
        let shown = self.fold_part(id, &end.records, end.numbered);
        let whole = std::mem::replace(&mut self.shown.own, shown);
        self.ahead = Some(Ahead {
            whole,
            read: end.read,
            size: end.size,
        });
        self.list.reset();
        self.list.overrides.clear();
        self.list.follow = true;
        self.sync();
        self.unseen = 0;
    }

    /// Part of a log read ahead of its whole (its end, or its start):
    /// folded as the whole will be — redacted when the screen is — its
    /// turns numbered only when its lines number them (`numbered`).
    pub(super) fn fold_part(
        &self,
        session: Option<String>,
        records: &[Record],
        numbered: bool,
    ) -> Transcript {
        let mut part = Transcript::new(session, crate::agents::stock());
        if !numbered {
            part.unnumbered_turns();
        }
        self.redaction.apply_unkept(&mut part, records);
        part
    }

    /// Records of the whole while its end is shown: folded behind
    /// (`None`); else given back, to be shown.
    pub(super) fn fold_behind(&mut self, records: Vec<Record>) -> Option<Vec<Record>> {
        match &mut self.ahead {
            Some(a) => {
                self.redaction.apply_live(&mut a.whole, records);
                None
            }
            None => Some(records),
        }
    }

    /// The read from the start is at the end: the whole shown, at the same
    /// distance from its end as the focus was (at the end when following).
    pub(super) fn caught_up(&mut self) {
        let Some(a) = self.ahead.take() else {
            return;
        };
        let back = self.list.entries.len().saturating_sub(self.list.focus);
        let follow = self.list.follow;
        self.shown.own = a.whole;
        self.list.reset();
        self.list.overrides.clear();
        self.sync();
        self.unseen = 0;
        if !follow {
            let n = self.list.entries.len();
            self.set_focus(n.saturating_sub(back));
        }
        if !self.found.query.is_empty() {
            self.refresh_matches();
        }
        tracing::info!(entries = self.list.entries.len(), "the whole shown, read from its start");
    }

    /// Whether the end of a followed file is shown while its whole is read.
    pub fn is_ahead(&self) -> bool {
        self.ahead.is_some()
    }
}
