//! What a reader of a finished item may let go of while the fold goes
//! on: [`Transcript::retire`] takes an item out of the fold's indexes once
//! the caller has taken what it wanted of it (the library's index: its
//! searchable entry), and [`Transcript::let_go`] then drops its slot (and
//! its card's, its diagnostic's) for good ([`Slots`](super::slots::Slots)):
//! item and card indices stay the viewer's, and what a long session holds
//! is its newest items, those still open, and about 8 bytes for each call id,
//! call seq and message retired (the guard below). An item still open (a
//! card without a result, a message still streaming) is not retired, nor a
//! prompt or a compaction (told again by id at any time; few and small).
//!
//! The guard: the fold never needs what was dropped, or it says so. Every
//! path of the fold that would change a retired item, or read a retired
//! card, notes it ([`Transcript::touched`]), and the caller, whose copy of
//! that item may then be stale, folds the session again whole. Counts
//! (calls, failed calls, diagnostics) and the fold's indexes are kept; of
//! a retired item's ids, a 64-bit hash (a collision reads the file again,
//! never a wrong entry).
//! One reader is let be: where a diff's snippet sits in its file
//! (`file_models`) looks at earlier read cards and may find them gone; it
//! then places nothing, which changes no entry's text (line numbers are
//! drawn, not indexed).
//!
//! Only callers that ask retire anything: the viewer, the player and
//! `deck inspect` never do, and nothing here runs for them.

use std::collections::HashSet;
use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};

use super::keys::Keys;
use super::{Item, Status, Transcript};

/// How far back (in cards) the fold looks for a call by other than its id
/// (a plan's, a question's): a reader that keeps this many of the newest
/// cards never has the fold look at a retired one that way.
pub(crate) const LOOK_BACK_CARDS: usize = 64;
const _: () = assert!(
    super::linked::PLAN_CALLS <= LOOK_BACK_CARDS
        && super::prompts::QUESTION_CALLS <= LOOK_BACK_CARDS
);

/// What a retired item was known by in the fold's indexes, kept as one
/// 64-bit hash: its call id, its call's seq, its message's (turn, step).
#[derive(Hash)]
enum Key<'a> {
    Call(&'a str),
    Seq(u64),
    Step(u64, u64),
}

fn hash(key: Key<'_>) -> u64 {
    BuildHasherDefault::<DefaultHasher>::default().hash_one(key)
}

/// What was retired, and whether the fold came back to it.
#[derive(Debug, Clone, Default)]
pub(super) struct Retired {
    /// Items, cards and diagnostics retired since they were last let go
    /// of ([`Transcript::let_go`]); their slots are gone after it.
    items: HashSet<usize>,
    cards: HashSet<usize>,
    diagnostics: HashSet<usize>,
    /// What the fold's indexes held of retired items, taken out of them
    /// and kept as little as still says it was there (see [`Key`]).
    keys: Keys<u64>,
    /// Items were retired.
    any: bool,
    /// Retired cards whose status was bad (they keep counting).
    pub(super) bad: usize,
    /// Why the fold came back to a retired item, the first time it did.
    touched: Option<String>,
}

impl Transcript {
    /// Let go of item `index`'s content (see the module doc), and what the
    /// fold's indexes hold of it; false when it is not
    /// [`settled`](Self::settled) or was retired.
    pub(crate) fn retire(&mut self, index: usize) -> bool {
        if !self.settled(index) || self.retired(index) {
            return false;
        }
        let Some(item) = self.items.get(index) else {
            return false;
        };
        match item {
            Item::Tool(c) => {
                let c = *c;
                let Some(card) = self.cards.get(c).cloned() else {
                    return false;
                };
                let r = &mut self.state.retired;
                if r.cards.insert(c) {
                    if card.status.is_bad() {
                        r.bad += 1;
                    }
                    if self.state.by_call.get(card.call_id.as_str()) == Some(&c) {
                        self.state.by_call.remove(card.call_id.as_str());
                        r.keys.insert(hash(Key::Call(&card.call_id)));
                    }
                    if let Some(seq) = card.call_seq
                        && self
                            .state
                            .call_by_seq
                            .get(&seq)
                            .is_some_and(|id| **id == *card.call_id)
                    {
                        self.state.call_by_seq.remove(&seq);
                        r.keys.insert(hash(Key::Seq(seq)));
                    }
                }
            }
            Item::Assistant(m) => {
                let key = (m.turn, m.step);
                if self.state.assistant.get(&key) == Some(&index) {
                    self.state.assistant.remove(&key);
                    self.state
                        .retired
                        .keys
                        .insert(hash(Key::Step(key.0, key.1)));
                }
            }
            // The first says why a file has problems: kept.
            Item::Diagnostic(d) if *d > 0 => {
                let d = *d;
                self.state.retired.diagnostics.insert(d);
            }
            _ => {}
        }
        self.state.retired.items.insert(index);
        self.state.retired.any = true;
        // Where diffs sit in their files is drawn, never indexed: once
        // items are let go of, the files' models are not kept either.
        if !self.state.files.is_empty() {
            self.state.files = Default::default();
        }
        true
    }

    /// Let go of the slots of the items retired below item `upto` (and of
    /// their cards and diagnostics) for good: what is not retired below it
    /// is kept aside by index. Every item below `upto` must have been
    /// offered to [`retire`](Self::retire) first — those it took are gone
    /// after this, and item and card indices stay what they were.
    pub(crate) fn let_go(&mut self, upto: usize) {
        let upto = upto.min(self.items.len());
        // The first card and diagnostic of an item from `upto` on: all
        // before them belong to items below it (both are made in item
        // order).
        let (mut cards_upto, mut diags_upto) = (None, None);
        for i in upto..self.items.len() {
            match self.items.get(i) {
                Some(Item::Tool(c)) if cards_upto.is_none() => cards_upto = Some(*c),
                Some(Item::Diagnostic(d)) if diags_upto.is_none() => diags_upto = Some(*d),
                _ => {}
            }
            if cards_upto.is_some() && diags_upto.is_some() {
                break;
            }
        }
        let cards_upto = cards_upto.unwrap_or(self.cards.len());
        let diags_upto = diags_upto.unwrap_or(self.diagnostics.len());
        let r = &mut self.state.retired;
        self.items.let_go(upto, |i, _| !r.items.contains(&i));
        self.cards.let_go(cards_upto, |i, _| !r.cards.contains(&i));
        self.diagnostics
            .let_go(diags_upto, |i, _| !r.diagnostics.contains(&i));
        r.items.retain(|&i| i >= upto);
        r.cards.retain(|&i| i >= cards_upto);
        r.diagnostics.retain(|&i| i >= diags_upto);
    }

    /// Whether items were retired (then the fold keeps no models of the
    /// session's files: see `file_models`).
    pub(super) fn retiring(&self) -> bool {
        self.state.retired.any
    }

    /// The card of call `id`, noting a retired one (its id is no longer
    /// in the fold's index, or its card is let go of).
    pub(super) fn call_card(&mut self, id: &str, why: &str) -> Option<usize> {
        match self.state.by_call.get(id) {
            Some(&i) => {
                self.touch_card(i, why);
                Some(i)
            }
            None => {
                let keys = &self.state.retired.keys;
                if !keys.is_empty() && keys.contains(hash(Key::Call(id))) {
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
            .find(|&&s| self.state.retired.keys.contains(hash(Key::Seq(s))))
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
                if self
                    .state
                    .retired
                    .keys
                    .contains(hash(Key::Step(turn, step)))
                {
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
        self.items.gone(index) || self.state.retired.items.contains(&index)
    }

    /// Why the fold came back to a retired item, if it did: what was taken
    /// of the items retired may be stale.
    pub(crate) fn touched(&self) -> Option<&str> {
        self.state.retired.touched.as_deref()
    }

    /// The fold is about to change item `index`, or read what retiring
    /// dropped of it.
    pub(super) fn touch_item(&mut self, index: usize, why: &str) {
        if self.retired(index) {
            self.note_touch(format!("{why} (item {index})"));
        }
    }

    /// The fold is about to change card `card`, or read what retiring
    /// dropped of it.
    pub(super) fn touch_card(&mut self, card: usize, why: &str) {
        if self.card_retired(card) {
            self.note_touch(format!("{why} (card {card})"));
        }
    }

    /// The fold is about to read the cards in `range` (a look back for the
    /// call that asked or planned): a retired one among them may be the one.
    pub(super) fn touch_cards(&mut self, range: std::ops::Range<usize>, why: &str) {
        if range.clone().any(|c| self.card_retired(c)) {
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
        self.cards.gone(card) || self.state.retired.cards.contains(&card)
    }
}
