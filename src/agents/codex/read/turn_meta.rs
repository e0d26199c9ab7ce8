//! What a Codex rollout says of its turns besides their content: the
//! turn's token usage for its end, and compactions.

use super::Reader;
use super::items::{token_usage, usage_delta};
use crate::agents::read::Out;
use crate::wire::payload::{Compaction, ContentBlock, TextOrObjects, TokenUsage};
use crate::wire::{EventKind, Origin};

impl Reader {
    /// The ending turn's usage as DSH's `TokenUsage`: Codex's record of the
    /// turn (`turn_token_usage`), else the session's running total less
    /// what it was at the turn's start; `None` when no count came in the
    /// turn (nothing said, not zero).
    pub(super) fn turn_usage(&mut self) -> Option<TokenUsage> {
        let counted = self.total != self.total_at_start;
        let usage = self.usage.take().or_else(|| {
            let total = self.total.as_ref().filter(|_| counted)?;
            Some(usage_delta(total, self.total_at_start.as_ref()))
        })?;
        token_usage(&usage)
    }

    /// A compaction: a `compacted` line (with its summary, empty when Codex
    /// kept only an encrypted history) or a `context_compacted` event
    /// (`None`). The two of one compaction come one after the other: the
    /// second adds to the first.
    pub(super) fn compacted(&mut self, summary: Option<&str>, origin: Origin, out: &mut Out) {
        let line = summary.is_some();
        let id = match self.compaction.take() {
            Some((id, was_line)) if was_line != line => id,
            _ => {
                self.compactions += 1;
                let id = format!("compaction-{}", self.compactions);
                self.compaction = Some((id.clone(), line));
                id
            }
        };
        let summary = match summary.filter(|s| !s.trim().is_empty()) {
            Some(s) => TextOrObjects::Objects(vec![Some(ContentBlock {
                kind: Some("text".into()),
                text: Some(s.to_string()),
            })]),
            None => TextOrObjects::Neither,
        };
        let data = Compaction {
            compaction_id: Some(id),
            turn: self.turn_open.then_some(self.turn),
            summary,
            ..Compaction::default()
        };
        self.emit(EventKind::CompactionSummary, data, origin, out);
    }

}
