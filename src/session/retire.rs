//! What a reader of a finished item may let go of while the fold goes
//! on: [`Transcript::retire`] drops an item's content (a card's call,
//! result, views and nested log; a message's text; a diagnostic's line)
//! once the caller has taken what it wanted of it (the library's index:
//! its searchable entry), keeping its place, so item and card indices stay
//! the viewer's. An item still open (a card without a result, a message
//! still streaming) is not retired, nor a prompt or a compaction (told
//! again by id at any time; few and small).
//!
//! The guard: the fold never needs what was dropped, or it says so. Every
//! path of the fold that would change a retired item, or read a retired
//! card, notes it ([`Transcript::touched`]), and the caller, whose copy of
//! that item may then be stale, folds the session again whole. Counts
//! (calls, failed calls, diagnostics) and the fold's indexes are kept.
//! One reader is let be: where a diff's snippet sits in its file
//! (`file_models`) looks at earlier read cards and may find them gone; it
//! then places nothing, which changes no entry's text (line numbers are
//! drawn, not indexed).
//!
//! Only callers that ask retire anything: the viewer, the player and
//! `deck inspect` never do, and nothing here runs for them.

use std::collections::HashSet;
use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
use std::sync::Arc;

use super::seqs::SeqSet;
use super::{
    AssistantMessage, Blocks, Item, Retry, Status, ToolCard, Transcript, TurnMarker, UserMessage,
};
use crate::wire::Diagnostic;

/// How far back (in cards) the fold looks for a call by other than its id
/// (a plan's, a question's): a reader that keeps this many of the newest
/// cards never has the fold look at a retired one that way.
pub(crate) const LOOK_BACK_CARDS: usize = 64;
const _: () = assert!(
    super::linked::PLAN_CALLS <= LOOK_BACK_CARDS
        && super::prompts::QUESTION_CALLS <= LOOK_BACK_CARDS
);

/// The hash a retired call id is kept as.
fn id_hash(id: &str) -> u64 {
    BuildHasherDefault::<DefaultHasher>::default().hash_one(id)
}

/// One bit per index.
#[derive(Debug, Clone, Default)]
struct Bits(Vec<u64>);

impl Bits {
    fn get(&self, i: usize) -> bool {
        self.0.get(i / 64).is_some_and(|w| w & (1 << (i % 64)) != 0)
    }

    fn set(&mut self, i: usize) {
        let w = i / 64;
        if self.0.len() <= w {
            self.0.resize(w + 1, 0);
        }
        self.0[w] |= 1 << (i % 64);
    }

    fn any_in(&self, range: std::ops::Range<usize>) -> bool {
        range.into_iter().any(|i| self.get(i))
    }
}

/// What was retired, and whether the fold came back to it.
#[derive(Debug, Clone, Default)]
pub(super) struct Retired {
    items: Bits,
    cards: Bits,
    /// What the fold's indexes held of retired items, taken out of them
    /// and kept as little as still says it was there: the hashes of retired
    /// cards' call ids, their calls' seqs, and the (turn, step) of retired
    /// messages.
    calls: HashSet<u64>,
    call_seqs: SeqSet,
    steps: HashSet<(u64, u64)>,
    /// Retired cards whose status was bad (they keep counting).
    pub(super) bad: usize,
    /// Why the fold came back to a retired item, the first time it did.
    touched: Option<String>,
    /// What retired items become (shared: a retired item costs its slot).
    stubs: Option<Stubs>,
}

#[derive(Debug, Clone)]
struct Stubs {
    card: Arc<ToolCard>,
    user: Arc<UserMessage>,
    assistant: Arc<AssistantMessage>,
    turn: Arc<TurnMarker>,
    todos: Arc<Vec<super::Todo>>,
    retry: Arc<Retry>,
}

impl Stubs {
    fn new() -> Stubs {
        let mut card = ToolCard::new("");
        // Not pending: the count of running cards holds.
        card.status = Status::Ok;
        let mut assistant = AssistantMessage::new(0, 0, Blocks::default(), 0);
        assistant.complete = true;
        Stubs {
            card: Arc::new(card),
            user: Arc::new(UserMessage::new(0, 0, String::new(), None)),
            assistant: Arc::new(assistant),
            turn: Arc::new(TurnMarker::start(0, 0, 0)),
            todos: Arc::default(),
            retry: Arc::new(Retry {
                turn: 0,
                step: 0,
                retry: None,
                max_retries: None,
                delay_ms: None,
                reason: String::new(),
                seq: 0,
                time: 0,
            }),
        }
    }
}

impl Transcript {
    /// Let go of item `index`'s content (see the module doc), and what the
    /// fold's indexes hold of it; false when it is not
    /// [`settled`](Self::settled).
    pub(crate) fn retire(&mut self, index: usize) -> bool {
        if !self.settled(index) {
            return false;
        }
        let Some(item) = self.items.get(index) else {
            return false;
        };
        let stubs = self
            .state
            .retired
            .stubs
            .get_or_insert_with(Stubs::new)
            .clone();
        match item {
            Item::Tool(c) => {
                let c = *c;
                let Some(card) = self.cards.get(c).cloned() else {
                    return false;
                };
                let r = &mut self.state.retired;
                if !r.cards.get(c) {
                    if card.status.is_bad() {
                        r.bad += 1;
                    }
                    r.cards.set(c);
                    if self.state.by_call.get(card.call_id.as_str()) == Some(&c) {
                        self.state.by_call.remove(card.call_id.as_str());
                        r.calls.insert(id_hash(&card.call_id));
                    }
                    if let Some(seq) = card.call_seq
                        && self
                            .state
                            .call_by_seq
                            .get(&seq)
                            .is_some_and(|id| **id == *card.call_id)
                    {
                        self.state.call_by_seq.remove(&seq);
                        r.call_seqs.insert(seq);
                    }
                    self.cards.set(c, stubs.card);
                }
            }
            Item::Assistant(m) => {
                let key = (m.turn, m.step);
                if self.state.assistant.get(&key) == Some(&index) {
                    self.state.assistant.remove(&key);
                    self.state.retired.steps.insert(key);
                }
                self.items.set(index, Item::Assistant(stubs.assistant));
            }
            Item::User(_) => {
                self.items.set(index, Item::User(stubs.user));
            }
            Item::Turn(_) => {
                self.items.set(index, Item::Turn(stubs.turn));
            }
            Item::Retry(_) => {
                self.items.set(index, Item::Retry(stubs.retry));
            }
            Item::Todo { seq, .. } => {
                let seq = *seq;
                let todos = stubs.todos;
                self.items.set(index, Item::Todo { seq, todos });
            }
            // The first says why a file has problems: kept.
            Item::Diagnostic(d) if *d > 0 => {
                let d = *d;
                if let Some(old) = self.diagnostics.get(d) {
                    let stub = Diagnostic::new(old.origin, String::new(), String::new());
                    self.diagnostics.set(d, stub);
                }
            }
            Item::Diagnostic(_) | Item::Prompt(_) | Item::Compaction(_) => {}
        }
        self.state.retired.items.set(index);
        // Where diffs sit in their files is drawn, never indexed: once
        // items are let go of, the files' models are not kept either.
        if !self.state.files.is_empty() {
            self.state.files = Default::default();
        }
        true
    }

    /// Whether items were retired (then the fold keeps no models of the
    /// session's files: see `file_models`).
    pub(super) fn retiring(&self) -> bool {
        !self.state.retired.items.0.is_empty()
    }

    /// The card of call `id`, noting a retired one (its id is no longer
    /// in the fold's index, or its card is a stub).
    pub(super) fn call_card(&mut self, id: &str, why: &str) -> Option<usize> {
        match self.state.by_call.get(id) {
            Some(&i) => {
                self.touch_card(i, why);
                Some(i)
            }
            None => {
                if !self.state.retired.calls.is_empty()
                    && self.state.retired.calls.contains(&id_hash(id))
                {
                    self.note_touch(format!("{why} (call {id:?})"));
                }
                None
            }
        }
    }

    /// A result names its call by the seqs of the events it answers:
    /// noted when one of them is a retired card's call.
    pub(super) fn touch_call_seqs(&mut self, seqs: &[u64], why: &str) {
        if let Some(s) = seqs
            .iter()
            .find(|&&s| self.state.retired.call_seqs.contains(s))
        {
            self.note_touch(format!("{why} (seq {s})"));
        }
    }

    /// The item of the assistant message of (`turn`, `step`), noting a
    /// retired one.
    pub(super) fn step_item(&mut self, turn: u64, step: u64, why: &str) -> Option<usize> {
        match self.state.assistant.get(&(turn, step)) {
            Some(&i) => {
                self.touch_item(i, why);
                Some(i)
            }
            None => {
                if self.state.retired.steps.contains(&(turn, step)) {
                    self.note_touch(format!("{why} (turn {turn}, step {step})"));
                }
                None
            }
        }
    }

    /// Whether item `index` is done in the ordinary course of a session,
    /// so may be retired: a card with its result (or ended without one), a
    /// complete message, anything else but prompts and compactions — told
    /// again by their ids at any time (a decision and its mirror, a
    /// compaction's end), and few and small: they are kept.
    pub(crate) fn settled(&self, index: usize) -> bool {
        match self.items.get(index) {
            Some(Item::Tool(c)) => self
                .cards
                .get(*c)
                .is_some_and(|c| c.status != Status::Pending),
            Some(Item::Assistant(m)) => m.complete,
            Some(Item::Prompt(_) | Item::Compaction(_)) | None => false,
            Some(_) => true,
        }
    }

    /// Whether item `index` was retired.
    pub(crate) fn retired(&self, index: usize) -> bool {
        self.state.retired.items.get(index)
    }

    /// Why the fold came back to a retired item, if it did: what was taken
    /// of the items retired may be stale.
    pub(crate) fn touched(&self) -> Option<&str> {
        self.state.retired.touched.as_deref()
    }

    /// The fold is about to change item `index`, or read what retiring
    /// dropped of it.
    pub(super) fn touch_item(&mut self, index: usize, why: &str) {
        if self.state.retired.items.get(index) {
            self.note_touch(format!("{why} (item {index})"));
        }
    }

    /// The fold is about to change card `card`, or read what retiring
    /// dropped of it.
    pub(super) fn touch_card(&mut self, card: usize, why: &str) {
        if self.state.retired.cards.get(card) {
            self.note_touch(format!("{why} (card {card})"));
        }
    }

    /// The fold is about to read the cards in `range` (a look back for the
    /// call that asked or planned): a retired one among them may be the one.
    pub(super) fn touch_cards(&mut self, range: std::ops::Range<usize>, why: &str) {
        if self.state.retired.cards.any_in(range.clone()) {
            self.note_touch(format!("{why} (cards {}–{})", range.start, range.end));
        }
    }

    fn note_touch(&mut self, why: String) {
        if self.state.retired.touched.is_none() {
            tracing::debug!(why, "the fold came back to a retired item");
            self.state.retired.touched = Some(why);
        }
    }

    /// Whether card `card` was retired (its status is gone from it).
    pub(super) fn card_retired(&self, card: usize) -> bool {
        self.state.retired.cards.get(card)
    }
}
