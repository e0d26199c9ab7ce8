//! What a reader of a finished item may let go while the fold goes on:
//! [`Transcript::retire`] drops an item's content (a card's call, result,
//! views and nested log; a message's text; a compaction's summary; a
//! diagnostic's line) once the caller has taken what it wanted of it (the
//! library's index: its searchable entry), keeping its place, so item and
//! card indices stay what the viewer's are. An item still open (a card
//! without a result, a message still streaming) is not retired.
//!
//! The guard: the fold never needs what was dropped, or it says so. Every
//! path of the fold that would change a retired item, or read what a
//! retired card no longer holds, notes it ([`Transcript::touched`]), and
//! the caller, whose copy of that item is then stale, folds the session
//! again whole. Paths that read only what retiring keeps (ids, statuses,
//! counts) go on as before; where a diff's snippet sits in its file
//! (`files`) reads earlier read cards and may find them gone: it then
//! places nothing, which changes no entry's text (line numbers are drawn,
//! not indexed).
//!
//! Only callers that ask retire anything: the viewer, the player and
//! `deck inspect` never do, and nothing here runs for them.

use std::sync::Arc;

use super::{AssistantMessage, Blocks, Compaction, Item, Status, ToolCard, Transcript, UserMessage};
use crate::wire::Diagnostic;

/// How far back (in cards) the fold looks for a call by other than its id
/// (a plan's, a question's): a reader that keeps this many of the newest
/// cards never has the fold look at a retired one that way.
pub(crate) const LOOK_BACK_CARDS: usize = 64;
const _: () = assert!(
    super::linked::PLAN_CALLS <= LOOK_BACK_CARDS
        && super::prompts::QUESTION_CALLS <= LOOK_BACK_CARDS
);

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
    compaction: Arc<Compaction>,
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
            compaction: Arc::new(Compaction::default()),
        }
    }
}

impl Transcript {
    /// Let go of item `index`'s content (see the module doc); false when it
    /// is still open (a card without a result, a message still streaming)
    /// or there is no such item. Prompts, todos, turns and retries are
    /// small: they are only marked, and kept.
    pub(crate) fn retire(&mut self, index: usize) -> bool {
        let Some(item) = self.items.get(index) else {
            return false;
        };
        let stubs = self.state.retired.stubs.get_or_insert_with(Stubs::new).clone();
        match item {
            Item::Tool(c) => {
                let c = *c;
                let Some(card) = self.cards.get(c) else {
                    return false;
                };
                if card.status == Status::Pending {
                    return false;
                }
                if !self.state.retired.cards.get(c) {
                    if card.status.is_bad() {
                        self.state.retired.bad += 1;
                    }
                    self.state.retired.cards.set(c);
                    self.cards.set(c, stubs.card);
                }
            }
            Item::Assistant(m) => {
                if !m.complete {
                    return false;
                }
                self.items.set(index, Item::Assistant(stubs.assistant));
            }
            Item::User(_) => {
                self.items.set(index, Item::User(stubs.user));
            }
            Item::Compaction(_) => {
                self.items.set(index, Item::Compaction(stubs.compaction));
            }
            // The first says why a file has problems: kept.
            Item::Diagnostic(d) if *d > 0 => {
                let d = *d;
                if let Some(old) = self.diagnostics.get(d) {
                    let stub = Diagnostic::new(old.origin, String::new(), String::new());
                    self.diagnostics.set(d, stub);
                }
            }
            Item::Diagnostic(_)
            | Item::Prompt(_)
            | Item::Todo { .. }
            | Item::Turn(_)
            | Item::Retry(_) => {}
        }
        self.state.retired.items.set(index);
        true
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
