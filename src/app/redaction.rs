//! `R`: the session shown with its secrets redacted, so a screen share is
//! as safe as an export. The same redaction as `deck export`
//! (`session::redact`, the same rules), on the records before they are
//! folded: the records the app's own transcript was folded from are kept
//! as they came (a file's session, shared; what a live source sent since),
//! and `R` folds them again, redacted or not; a replay's player swaps its
//! records for their redacted copies (or back) at the same position.
//! Records that arrive while it is on are redacted as they come.
//!
//! Fails closed: a record that cannot be redacted is withheld (a
//! diagnostic says so), and a view built without its records (a
//! transcript handed in whole) cannot turn it on.

use std::sync::Arc;

use super::state::App;
use crate::session::Transcript;
use crate::session::redact;
use crate::text::redact::Redactor;
use crate::wire::Record;

/// What `R` needs: whether it is on, and the records as they came.
#[derive(Default)]
pub(super) struct Redaction {
    pub(super) on: bool,
    /// The app's own transcript was folded from `base` then `live` (false:
    /// it was handed in whole, and cannot be folded again).
    kept: bool,
    base: Arc<Vec<Record>>,
    live: Vec<Record>,
    /// A player's records as they came, while it plays redacted ones.
    played: Option<Arc<Vec<Record>>>,
}

impl App {
    /// The app's own transcript is (from now on) the fold of `records`, as
    /// they came, and what a live source sends after: kept for `R`. Returns
    /// what to fold (redacted when `R` is on).
    pub(super) fn fold_kept(&mut self, session: Option<String>, records: Arc<Vec<Record>>) -> Transcript {
        self.redaction.kept = true;
        self.redaction.live.clear();
        self.redaction.base = records;
        let shown = self.shown_records(&self.redaction.base);
        Transcript::from_records(session, shown.iter(), crate::agents::stock())
    }

    /// Records for a player or a fold: as they came, or redacted.
    pub(super) fn shown_records(&self, records: &Arc<Vec<Record>>) -> Arc<Vec<Record>> {
        match (self.redaction.on, Redactor::stock()) {
            (false, _) => records.clone(),
            (true, Ok(r)) => Arc::new(redact::records_or_withheld(r, records)),
            // Not reached: `R` turns on only with a redactor.
            (true, Err(_)) => Arc::new(Vec::new()),
        }
    }

    /// A player was started over `records` (as they came): remembered
    /// while it plays their redacted copies.
    pub(super) fn played(&mut self, records: Arc<Vec<Record>>) {
        self.redaction.played = self.redaction.on.then_some(records);
    }

    /// Records from a live source: kept as they came, applied as shown.
    pub(super) fn apply_live(&mut self, records: &[Record]) {
        self.redaction.live.extend(records.iter().cloned());
        let redactor = self.redaction.on.then(Redactor::stock);
        for r in records {
            match &redactor {
                None => self.shown.own.apply(r),
                Some(Ok(red)) => {
                    let one = redact::records_or_withheld(red, std::slice::from_ref(r));
                    for r in &one {
                        self.shown.own.apply(r);
                    }
                }
                Some(Err(_)) => {}
            }
        }
    }

    /// A live source switched sessions: nothing kept of the one before.
    pub(super) fn forget_kept(&mut self) {
        self.redaction.kept = true;
        self.redaction.base = Arc::default();
        self.redaction.live.clear();
    }

    /// Whether the session is shown redacted (`R`).
    pub fn redacted(&self) -> bool {
        self.redaction.on
    }

    /// `R`: show the session redacted, or as it came.
    pub(super) fn toggle_redaction(&mut self) {
        let on = !self.redaction.on;
        if on && let Err(e) = Redactor::stock() {
            self.message = Some(format!("cannot redact: {e}"));
            return;
        }
        if self.shown.player.is_none() && !self.redaction.kept {
            self.message = Some("cannot redact: this view was not folded from its records".into());
            return;
        }
        self.redaction.on = on;
        if let Some(p) = &self.shown.player {
            let original = self.redaction.played.take().unwrap_or_else(|| p.records());
            let records = self.shown_records(&original);
            let next = p.with_records(records);
            self.played(original);
            self.shown.player = Some(next);
        } else {
            let session = self.shown.own.session_id().map(str::to_string);
            let base = self.redaction.base.clone();
            let live = std::mem::take(&mut self.redaction.live);
            self.shown.own = self.fold_kept(session, base);
            self.apply_live(&live);
        }
        self.resync_after_seek();
        self.refresh_matches();
        self.message = Some(if on {
            "redacted: secrets and the home folder hidden (R shows them)".into()
        } else {
            "redaction off: the session as it came".into()
        });
    }
}
