//! A fold fed one record at a time ([`Folding`]), with the views of its
//! calls and results drawn ahead on the pool a window at a time
//! ([`prefetch`](super::prefetch)): what [`Transcript::from_records`] does
//! for records it is given all at once, for records that come as a file is
//! read (the library's index folds a session while its file is still being
//! decoded, and never holds its records whole).
//!
//! Same records in, same transcript out, however they are pushed: windows
//! only decide what is drawn ahead, never what is folded. No I/O here.

use std::borrow::Borrow;
use std::sync::Arc;

use super::prefetch::{self, Ahead, Prefetch};
use super::{SharedPresenters, Transcript};
use crate::wire::Record;

/// A transcript being folded from records pushed one at a time: they wait
/// in windows of `prefetch::WINDOW`, and a window is folded while the
/// next one's views are drawn.
pub struct Folding<R> {
    t: Transcript,
    ahead: Prefetch,
    /// Records waiting for their window to fill.
    next: Vec<R>,
    /// The window drawn and not folded yet, with what was drawn for it.
    drawn: Option<(Vec<R>, Ahead)>,
}

impl<R: Borrow<Record> + Send> Folding<R> {
    /// An empty fold of session `session_id`.
    pub fn new(session_id: Option<String>, presenters: SharedPresenters) -> Folding<R> {
        Folding {
            ahead: Prefetch::new(presenters.clone()),
            t: Transcript::new(session_id, presenters),
            next: Vec::new(),
            drawn: None,
        }
    }

    /// Add `record`; a full window is drawn, and the one before it folded.
    pub fn push(&mut self, record: R) {
        self.next.push(record);
        if self.next.len() >= prefetch::WINDOW {
            self.turn_window();
        }
    }

    /// Records pushed and not folded yet.
    pub fn waiting(&self) -> usize {
        self.next.len() + self.drawn.as_ref().map_or(0, |(w, _)| w.len())
    }

    /// Fold everything pushed so far: the transcript is then what
    /// [`Transcript::from_records`] makes of the same records.
    pub fn flush(&mut self) {
        if !self.next.is_empty() {
            self.turn_window();
        }
        if let Some((window, drawn)) = self.drawn.take() {
            fold(&mut self.t, window, drawn);
        }
    }

    /// The transcript as far as it was folded ([`Folding::flush`] first
    /// for all that was pushed).
    pub fn transcript(&self) -> &Transcript {
        &self.t
    }

    /// The transcript, to change what the fold allows from outside (the
    /// index retiring what it took: see `Transcript::retire`).
    pub fn transcript_mut(&mut self) -> &mut Transcript {
        &mut self.t
    }

    /// All pushed, folded.
    pub fn finish(mut self) -> Transcript {
        self.flush();
        self.t
    }

    /// The waiting records become the window drawn; the window drawn
    /// before them is folded meanwhile.
    fn turn_window(&mut self) {
        let window = std::mem::take(&mut self.next);
        let plan = self.ahead.plan(&refs(&window));
        let drawn = match self.drawn.take() {
            Some((before, ahead)) => {
                let (t, prefetch) = (&mut self.t, &mut self.ahead);
                let (drawn, ()) = rayon::join(|| prefetch.draw(plan), || fold(t, before, ahead));
                drawn
            }
            None => self.ahead.draw(plan),
        };
        self.drawn = Some((window, drawn));
    }
}

/// The records of a window, borrowed.
fn refs<R: Borrow<Record>>(w: &[R]) -> Vec<&Record> {
    w.iter().map(|r| r.borrow()).collect()
}

/// Fold `window`, with what was drawn ahead for it; each record dropped
/// once folded (when owned).
fn fold<R: Borrow<Record>>(t: &mut Transcript, window: Vec<R>, ahead: Ahead) {
    t.ahead = Arc::new(ahead);
    for r in window {
        t.apply(r.borrow());
    }
    t.ahead = Arc::default();
}
