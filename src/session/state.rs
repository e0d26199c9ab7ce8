//! The fold's bookkeeping ([`State`]): the indexes that pair results with
//! calls and prompts with answers, what is still open by turn, and the
//! counts the status bar reads every frame. Private to the session: the
//! [`Transcript`](super::Transcript) keeps it consistent with its items.

use std::sync::Arc;

use super::seqs::SeqSet;

/// Reducer bookkeeping. Persistent maps and sets, so cloning a transcript
/// stays O(1) however long the session.
#[derive(Debug, Clone, Default)]
pub(super) struct State {
    pub(super) by_call: imbl::HashMap<Arc<str>, usize>,
    pub(super) seen: SeqSet,
    /// (turn, step) → item index of the assistant message.
    pub(super) assistant: imbl::HashMap<(u64, u64), usize>,
    /// Assistant items still streaming, by turn (closed at their turn's end).
    pub(super) open_assistant: imbl::HashMap<u64, imbl::OrdSet<usize>>,
    /// Cards without a result yet, by the turn they belong to (`None`: not
    /// known yet); interrupted at that turn's end (turnless ones at any).
    /// Kept by turn so a turn's end costs what it closes, not every card
    /// still open in other turns.
    pending: imbl::HashMap<Option<u64>, imbl::OrdSet<usize>>,
    /// Cards in `pending` (a frame asks whether any card runs: O(1)).
    pub(super) pending_count: usize,
    /// call seq → call id (for `sourceEventSeqs` pairing).
    pub(super) call_by_seq: imbl::HashMap<u64, Arc<str>>,
    /// `approval:<id>` / `question:<rpc id>` → item index of the prompt.
    pub(super) prompts: imbl::HashMap<Arc<str>, usize>,
    /// call id → item index of the question it asked.
    pub(super) prompt_by_call: imbl::HashMap<Arc<str>, usize>,
    /// call id → item index of the approval that gates it.
    pub(super) approval_by_call: imbl::HashMap<Arc<str>, usize>,
    /// Bumped whenever an item may have moved onto another's card or back
    /// (see `Transcript::merged`).
    pub(super) merges: u64,
    /// The newest question (for a resolution without an rpc id).
    pub(super) last_question: Option<usize>,
    pub(super) duplicates: usize,
    /// Cards whose status is bad (kept as statuses change: the status bar
    /// shows it every frame).
    pub(super) bad: usize,
    /// What the session has shown of each file (to place diff snippets).
    pub(super) files: super::file_models::Files,
    /// Token usage of each step's model request (`assistant/message`), by
    /// turn and step (a step told again replaces its own): summed into the
    /// turn at its end.
    pub(super) step_usage: imbl::HashMap<u64, imbl::OrdMap<u64, super::TokenUsage>>,
    /// Compaction id → item index (`""`: the latest without an id).
    pub(super) compactions: imbl::HashMap<Arc<str>, usize>,
    /// The latest compaction's item (a checkpoint message joins it).
    pub(super) last_compaction: Option<usize>,
    /// Nested records for calls not seen yet, folded meanwhile (by call id).
    pub(super) unclaimed: imbl::HashMap<Arc<str>, super::Transcript>,
    /// What a reader let go of (`retire`); empty unless one asked.
    pub(super) retired: super::retire::Retired,
}

impl State {
    /// Note a card without a result, in `turn`.
    pub(super) fn pending_add(&mut self, turn: Option<u64>, card: usize) {
        if self.pending.entry(turn).or_default().insert(card).is_none() {
            self.pending_count += 1;
        }
    }

    /// A card of `turn` is no longer pending (settled, or moved).
    pub(super) fn pending_remove(&mut self, turn: Option<u64>, card: usize) {
        if let Some(set) = self.pending.get_mut(&turn) {
            if set.remove(&card).is_some() {
                self.pending_count -= 1;
            }
            if set.is_empty() {
                self.pending.remove(&turn);
            }
        }
    }

    /// Take the cards a turn's end interrupts: its own and the turnless ones.
    pub(super) fn pending_take(&mut self, turn: u64) -> Vec<usize> {
        let mut out: Vec<usize> = Vec::new();
        for key in [Some(turn), None] {
            if let Some(set) = self.pending.remove(&key) {
                out.extend(set.iter().copied());
            }
        }
        self.pending_count -= out.len();
        out.sort_unstable();
        out
    }

    pub(super) fn open_add(&mut self, turn: u64, item: usize) {
        self.open_assistant.entry(turn).or_default().insert(item);
    }

    pub(super) fn open_remove(&mut self, turn: u64, item: usize) {
        if let Some(set) = self.open_assistant.get_mut(&turn) {
            set.remove(&item);
            if set.is_empty() {
                self.open_assistant.remove(&turn);
            }
        }
    }

    pub(super) fn count_bad(&mut self, was: bool, now: bool) {
        match (was, now) {
            (false, true) => self.bad += 1,
            (true, false) => self.bad = self.bad.saturating_sub(1),
            _ => {}
        }
    }
}
