//! Opening a library session: the file loaded on a thread while the list
//! keeps its keys, then handed to the app (which shows it as `deck view` or
//! `deck replay` of it would, and comes back to the list when it is left).
//! A big session is shown before it is loaded whole ([`Opened::Ahead`]):
//! its start, read in a few ms (`load::window`) — or for a search hit, its
//! end, when the hit is found there — shown at once while the whole loads,
//! then the whole, on the same entry.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;
use std::sync::mpsc::{Receiver, TryRecvError};

use super::LibraryPart;
use crate::library::entries::docs;
use crate::load::window::{self, Window};
use crate::session::{Item, Transcript};
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
    /// A hit's entry as the index has it, to know it again in the
    /// session's end.
    pub hit: Option<HitPlace>,
}

/// What tells a hit's entry among others: its call (a card's), else its
/// kind and time (a prompt's, an answer's).
#[derive(Debug, Clone, PartialEq)]
pub struct HitPlace {
    pub call: Option<String>,
    pub kind: String,
    /// Epoch ms.
    pub time: Option<i64>,
}

impl HitPlace {
    /// The entry of `t` that is this hit's: the last one of its call, or
    /// of its kind at its time (`None`: not in `t`, or nothing to know it
    /// by).
    pub fn find(&self, t: &Transcript) -> Option<usize> {
        if self.call.is_none() && self.time.is_none() {
            return None;
        }
        (0..t.items().len()).rev().find(|&i| {
            // Only the entries that can be hits are made into documents.
            let maybe = match (t.items().get(i), &self.call) {
                (Some(Item::Tool(_)), Some(_)) => true,
                (Some(_), Some(_)) | (None, _) => false,
                (Some(_), None) => true,
            };
            maybe
                && docs(t, "", i).iter().any(|d| match &self.call {
                    Some(call) => d.call.as_ref() == Some(call),
                    None => d.kind == self.kind && d.time == self.time,
                })
        })
    }
}

/// What the loading thread sends.
enum Part {
    /// The session's start, or its end (a hit's), read first.
    Ahead(Window),
    Whole(Result<Loaded, LoadError>),
}

/// A session being loaded.
pub struct Opening {
    pub target: Target,
    /// In the player (`r`), not the viewer.
    pub replay: bool,
    rx: Receiver<Part>,
    /// Bytes of the file loaded so far, and its size.
    pub bytes: Arc<AtomicU64>,
    pub total: u64,
}

/// What came of the session being opened, at a tick.
pub enum Opened {
    /// Nothing yet (or nothing being opened).
    Nothing,
    /// It failed: the list's top line says why.
    Failed,
    /// The session's start, or a hit's end, read first (its whole still
    /// loading): for the app to show (the end when the hit is in it).
    Ahead(Box<(Window, Target, Arc<AtomicU64>, u64)>),
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
        let total = std::fs::metadata(&path).map_or(0, |m| m.len());
        let bytes = Arc::new(AtomicU64::new(0));
        let counted = bytes.clone();
        // The start shown first, or a hit looked for in the end (a replay
        // waits for the whole: its player plays it).
        let first = (!replay).then(|| (target.session.clone(), target.hit.is_some()));
        let ends_from = self.ends_from;
        let spawned = std::thread::Builder::new()
            .name("deck-open".into())
            .spawn(move || {
                if let Some((session, hit)) = first {
                    let file = std::path::Path::new(&path);
                    let w = if hit {
                        window::read_end(file, session.as_deref(), ends_from)
                    } else {
                        window::read_start(file, session.as_deref(), ends_from)
                    };
                    if let Some(w) = w
                        && tx.send(Part::Ahead(w)).is_err()
                    {
                        return;
                    }
                }
                let _ = tx.send(Part::Whole(crate::source::load_path_counted(&path, &counted)));
            });
        match spawned {
            Ok(_) => {
                self.opening = Some(Opening {
                    target,
                    replay,
                    rx,
                    bytes,
                    total,
                })
            }
            Err(e) => self.note = Some(format!("cannot open: {e}")),
        }
        true
    }

    /// A session of `bytes` or more is shown before it is loaded whole:
    /// its start, or a hit's end (the tests' sessions are small).
    pub fn read_ends_from(&mut self, bytes: u64) {
        self.ends_from = bytes;
    }

    /// The session being opened is no longer wanted (its end was shown and
    /// left): what its thread sends is let go of.
    pub(in crate::app) fn forget_opening(&mut self) {
        self.opening = None;
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
            Ok(Part::Ahead(w)) => {
                return Opened::Ahead(Box::new((w, o.target.clone(), o.bytes.clone(), o.total)));
            }
            Ok(Part::Whole(r)) => r.map_err(|e| e.to_string()),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The showcase folded: each card found by its call, each prompt by
    /// its kind and time, as the index made their entries.
    #[test]
    fn a_hit_is_known_again_by_its_call_or_its_kind_and_time() {
        let s = crate::source::load_path("demo-sessions/showcase.jsonl").unwrap().sessions.remove(0);
        let mut t = Transcript::new(s.id.clone(), crate::agents::stock());
        for r in &s.records {
            t.apply(r);
        }
        let (mut cards, mut prompts) = (0, 0);
        for i in 0..t.items().len() {
            for d in docs(&t, "", i) {
                let place = HitPlace {
                    call: d.call.clone(),
                    kind: d.kind.clone(),
                    time: d.time,
                };
                if d.call.is_some() {
                    cards += 1;
                    assert_eq!(place.find(&t), Some(i), "{d:?}");
                } else if d.kind == "prompt" && d.time.is_some() {
                    prompts += 1;
                    assert_eq!(place.find(&t), Some(i), "{d:?}");
                }
            }
        }
        assert!(cards > 5 && prompts > 0, "{cards} cards, {prompts} prompts");
        let nowhere = HitPlace {
            call: Some("no-such-call".into()),
            kind: "terminal".into(),
            time: None,
        };
        assert_eq!(nowhere.find(&t), None);
        let unknowable = HitPlace {
            call: None,
            kind: "prompt".into(),
            time: None,
        };
        assert_eq!(unknowable.find(&t), None, "nothing to know it by");
    }
}
