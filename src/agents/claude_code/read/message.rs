//! The DSH shapes an assistant message goes out in (the fold's payloads):
//! an `assistant/chunk` for each new block, ended, and the
//! `assistant/message` whole with its usage when its step is over.

use super::Usage;
use crate::agents::read::Out;
use crate::wire::payload::{AssistantChunk, AssistantMessage, Chunk, ContentBlock, MessageContent};
use crate::wire::{EventKind, Origin};

/// A text or reasoning block, as DSH's message content holds it.
fn text_block(reasoning: bool, text: String) -> ContentBlock {
    let kind = if reasoning { "reasoning" } else { "text" };
    ContentBlock {
        kind: Some(kind.into()),
        text: Some(text),
    }
}

/// The reader's message: its blocks as they come, and the message whole
/// when its step is over.
impl super::Reader {
    /// Forget the current message (a new step begins).
    pub(super) fn clear_message(&mut self) {
        self.blocks.clear();
        self.block_at.clear();
        self.usage = None;
        self.unsent = false;
    }

    /// A thinking or text block of the message: when new, it goes out at
    /// once as its own block (an `assistant/chunk` that ends it), so a
    /// message told one block a line costs its size, not its size times
    /// its blocks; the whole message follows when the step is over.
    pub(super) fn block(&mut self, out: &mut Out, origin: Origin, reasoning: bool, text: Option<String>) {
        use std::hash::{Hash, Hasher};
        let Some(text) = text.filter(|t| !t.is_empty()) else {
            return;
        };
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (reasoning, &text).hash(&mut h);
        let at = self.block_at.entry(h.finish()).or_default();
        let block = text_block(reasoning, text);
        if at.iter().any(|&i| self.blocks[i].as_ref() == Some(&block)) {
            return;
        }
        let index = self.blocks.len();
        at.push(index);
        let data = AssistantChunk {
            turn: Some(self.turn),
            step: Some(self.step),
            chunk: Some(Chunk {
                kind: Some("block-end".into()),
                index: Some(index as u64),
                block: Some(block),
                ..Chunk::default()
            }),
        };
        self.emit(out, origin, EventKind::AssistantChunk, &data);
        // The block, written, joins the message (moved, not copied).
        self.blocks.push(data.chunk.and_then(|c| c.block));
        self.unsent = true;
    }

    /// The message whole (its blocks and usage), when it changed since it
    /// last went out: the step is over.
    pub(super) fn flush_message(&mut self, out: &mut Out, origin: Origin) {
        if !std::mem::take(&mut self.unsent) {
            return;
        }
        let data = AssistantMessage {
            turn: Some(self.turn),
            step: Some(self.step),
            message: Some(MessageContent {
                role: Some("assistant"),
                content: Some(std::mem::take(&mut self.blocks)),
            }),
            usage: self.usage.map(Usage::to_payload),
            ..AssistantMessage::default()
        };
        self.emit(out, origin, EventKind::AssistantMessage, &data);
        // Kept: the message may be told again, and grow.
        self.blocks = data.message.and_then(|m| m.content).unwrap_or_default();
    }
}
