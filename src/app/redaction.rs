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
//!
//! A big file shown while it is read (`opening.rs`) keeps no records: the
//! transcript is their only copy, and `R` reads the file again
//! ([`ReadAgain`]), redacted as it comes.
//!
//! This file owns [`Redaction`]: whether it is on, and the records kept;
//! the app hands it the transcript or the player it folds into.

use std::sync::Arc;

use super::player::Player;
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
    /// (In the batches they came in: a big file read behind its first
    /// screen comes in thousands, and one list would be moved as it grows.)
    live: Vec<Vec<Record>>,
    /// A player's records as they came, while it plays redacted ones.
    played: Option<Arc<Vec<Record>>>,
    /// Records are not kept: the file is read again for `R`.
    again: Option<ReadAgain>,
}

/// Reads the file shown again, its records sent to the app as when it was
/// first read (`Msg::Records`, then `Msg::Loaded`): how far the read is.
pub type ReadAgain = Arc<dyn Fn() -> super::loading::Loading + Send + Sync>;

impl Redaction {
    /// The app's own transcript is (from now on) the fold of `records`, as
    /// they came, and what a live source sends after: kept for `R`. Returns
    /// what to fold (redacted when `R` is on).
    pub(super) fn fold_kept(&mut self, session: Option<String>, records: Arc<Vec<Record>>) -> Transcript {
        self.kept = true;
        self.again = None;
        self.live.clear();
        self.base = records;
        let shown = self.shown_records(&self.base);
        Transcript::from_records(session, shown.iter(), crate::agents::stock())
    }

    /// Records for a player or a fold: as they came, or redacted.
    pub(super) fn shown_records(&self, records: &Arc<Vec<Record>>) -> Arc<Vec<Record>> {
        // The rules are compiled only when they are used (a fifth of a
        // second: not on the way to the first screen).
        if !self.on {
            return records.clone();
        }
        match Redactor::stock() {
            Ok(r) => Arc::new(redact::records_or_withheld(r, records)),
            // Not reached: `R` turns on only with a redactor.
            Err(_) => Arc::new(Vec::new()),
        }
    }

    /// A player was started over `records` (as they came): remembered
    /// while it plays their redacted copies.
    pub(super) fn played(&mut self, records: Arc<Vec<Record>>) {
        self.played = self.on.then_some(records);
    }

    /// Records from a live source: kept as they came, applied to `own` as
    /// shown.
    pub(super) fn apply_live(&mut self, own: &mut Transcript, records: Vec<Record>) {
        if records.is_empty() {
            return;
        }
        if self.again.is_some() {
            // Not kept: `R` reads the file again.
            return self.apply(own, &records);
        }
        self.live.push(records);
        let live = std::mem::take(&mut self.live);
        self.apply(own, live.last().map_or(&[][..], Vec::as_slice));
        self.live = live;
    }

    /// `records` applied to `own` as shown (redacted when `R` is on), not
    /// kept (a followed file's end shown first: its whole is).
    pub(super) fn apply_unkept(&self, own: &mut Transcript, records: &[Record]) {
        self.apply(own, records);
    }

    /// `records` applied to `own` as shown (redacted when `R` is on).
    fn apply(&self, own: &mut Transcript, records: &[Record]) {
        let redactor = self.on.then(Redactor::stock);
        for r in records {
            match &redactor {
                None => own.apply(r),
                Some(Ok(red)) => {
                    let one = redact::records_or_withheld(red, std::slice::from_ref(r));
                    for r in &one {
                        own.apply(r);
                    }
                }
                Some(Err(_)) => {}
            }
        }
    }

    /// The records kept, as they came (those the view was folded from,
    /// then those a source sent after), as one list from now on.
    pub(super) fn kept_records(&mut self) -> Arc<Vec<Record>> {
        if !self.live.is_empty() {
            let mut all = Arc::try_unwrap(std::mem::take(&mut self.base)).unwrap_or_else(|b| (*b).clone());
            all.reserve(self.live.iter().map(Vec::len).sum());
            for mut batch in self.live.drain(..) {
                all.append(&mut batch);
            }
            self.base = Arc::new(all);
        }
        self.base.clone()
    }

    /// The records are not kept (those kept so far let go of): `R` reads
    /// the file again with `again` — the transcript is their only copy.
    pub(super) fn read_again_with(&mut self, again: ReadAgain) {
        self.base = Arc::default();
        self.live = Vec::new();
        self.again = Some(again);
    }

    /// How `R` gets the records again, when they are not kept.
    pub(super) fn read_again(&self) -> Option<&ReadAgain> {
        self.again.as_ref()
    }

    /// A live source switched sessions: nothing kept of the one before.
    pub(super) fn forget_kept(&mut self) {
        self.kept = true;
        self.again = None;
        self.base = Arc::default();
        self.live.clear();
    }

    /// `R` over a session: `own` folded again, or `player` given the
    /// records as they came or redacted, at the same position. Whether it
    /// is on now, or why it cannot be.
    pub(super) fn toggle(&mut self, own: &mut Transcript, player: &mut Option<Player>) -> Result<bool, String> {
        let on = !self.on;
        if on && let Err(e) = Redactor::stock() {
            return Err(format!("cannot redact: {e}"));
        }
        if player.is_none() && !self.kept {
            return Err("cannot redact: this view was not folded from its records".into());
        }
        self.on = on;
        if let Some(p) = player {
            let original = self.played.take().unwrap_or_else(|| p.records());
            let records = self.shown_records(&original);
            let next = p.with_records(records);
            self.played(original);
            *p = next;
        } else {
            let session = own.session_id().map(str::to_string);
            let base = self.base.clone();
            let live = std::mem::take(&mut self.live);
            *own = self.fold_kept(session, base);
            for batch in live {
                self.apply_live(own, batch);
            }
        }
        Ok(on)
    }

    /// `R` with no session folded (the library's list): on or off, or why
    /// it cannot be on.
    pub(super) fn toggle_plain(&mut self) -> Result<bool, String> {
        let on = !self.on;
        if on && let Err(e) = Redactor::stock() {
            return Err(format!("cannot redact: {e}"));
        }
        self.on = on;
        Ok(on)
    }
}
