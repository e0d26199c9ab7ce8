//! Compactions in the fold: `compaction/start`, `compaction/summary` and
//! `compaction/end` of one compaction (matched by `compactionId`) make one
//! [`Compaction`] item, at the place the first of them came; a summary or
//! an end without a start makes it too (a log may begin after the start).
//! A compaction's checkpoint message (`user/message` from the `compact`
//! plugin) is its summary, never a message of its own.
//!
//! What each event says is kept; nothing is counted here: the numbers are
//! the log's.

use std::sync::Arc;

use super::messages::text_of_content;
use super::{Compaction, Ev, Item, Transcript};
use crate::wire::payload;

/// Which of a compaction's events.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Phase {
    Start,
    Summary,
    End,
}

impl Transcript {
    pub(super) fn compaction(&mut self, ev: &Ev<'_>, phase: Phase, p: payload::Compaction) {
        let key: Arc<str> = Arc::from(p.compaction_id.as_deref().unwrap_or(""));
        let existing = match phase {
            // A start is a new compaction, even under an id seen before.
            Phase::Start => None,
            Phase::Summary | Phase::End => self.state.compactions.get(&key).copied(),
        };
        let summary = text_of_content(&p.summary);
        let c = self.compaction_item(existing, ev);
        c.turn = p.turn.or(c.turn);
        c.trigger = p.trigger.or(c.trigger.take());
        c.tokens_before = p.tokens_before.or(c.tokens_before);
        c.tokens_after = p.tokens_after.or(c.tokens_after);
        c.tokens_condensed = p.shadowed_token_count.or(c.tokens_condensed);
        if !summary.trim().is_empty() {
            c.summary = Some(summary);
        }
        if phase == Phase::End {
            c.error = p.error.filter(|e| !e.is_empty());
        }
        c.rev += 1;
        if let Some(i) = self.state.last_compaction {
            self.state.compactions.insert(key, i);
        }
    }

    /// A compaction's checkpoint message: the summary of the latest
    /// compaction when it has none yet (else it says it again: dropped);
    /// a compaction of its own when there was none.
    pub(super) fn compaction_checkpoint(&mut self, ev: &Ev<'_>, text: String) {
        let latest = self.state.last_compaction;
        let c = self.compaction_item(latest, ev);
        if c.summary.is_none() && !text.trim().is_empty() {
            c.summary = Some(text);
            c.rev += 1;
        }
    }

    /// The compaction item at `existing`, else a new one at the end of the
    /// transcript; it becomes the latest.
    fn compaction_item(&mut self, existing: Option<usize>, ev: &Ev<'_>) -> &mut Compaction {
        let idx = match existing {
            Some(i) if matches!(self.items.get(i), Some(Item::Compaction(_))) => {
                self.touch_item(i, "more of a retired compaction");
                i
            }
            _ => {
                let c = Compaction::new(ev.seq, ev.time);
                self.items.push_back(Item::Compaction(Arc::new(c)));
                self.items.len() - 1
            }
        };
        self.state.last_compaction = Some(idx);
        match &mut self.items[idx] {
            Item::Compaction(c) => Arc::make_mut(c),
            _ => unreachable!("a compaction index points at a compaction"),
        }
    }
}
