//! The DSH shapes an assistant message goes out in: an `assistant/chunk`
//! for each new block, ended, and the `assistant/message` whole with its
//! usage when its step is over.

use serde::Serialize;
use serde_json::Value;

use super::Usage;
use crate::agents::read::Out;
use crate::wire::{EventKind, Origin};

/// An `assistant/chunk`'s data: a block of the message, ended.
#[derive(Serialize)]
pub(super) struct ChunkData<'a> {
    pub(super) turn: u64,
    pub(super) step: u64,
    pub(super) chunk: Chunk<'a>,
}

#[derive(Serialize)]
pub(super) struct Chunk<'a> {
    #[serde(rename = "type")]
    pub(super) kind: &'static str,
    pub(super) index: usize,
    pub(super) block: TextBlock<'a>,
}

/// A text or reasoning block, as DSH's message content holds it.
#[derive(Serialize)]
pub(super) struct TextBlock<'a> {
    #[serde(rename = "type")]
    pub(super) kind: &'static str,
    pub(super) text: &'a str,
}

impl TextBlock<'_> {
    pub(super) fn of(reasoning: bool, text: &str) -> TextBlock<'_> {
        let kind = if reasoning { "reasoning" } else { "text" };
        TextBlock { kind, text }
    }
}

/// An `assistant/message`'s data: the message whole, and its usage.
#[derive(Serialize)]
pub(super) struct MessageData<'a> {
    pub(super) turn: u64,
    pub(super) step: u64,
    pub(super) message: Message<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) usage: Option<Value>,
}

#[derive(Serialize)]
pub(super) struct Message<'a> {
    pub(super) role: &'static str,
    pub(super) content: Vec<TextBlock<'a>>,
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
        if at
            .iter()
            .any(|&i| self.blocks[i].0 == reasoning && self.blocks[i].1 == text)
        {
            return;
        }
        let index = self.blocks.len();
        at.push(index);
        let data = ChunkData {
            turn: self.turn,
            step: self.step,
            chunk: Chunk {
                kind: "block-end",
                index,
                block: TextBlock::of(reasoning, &text),
            },
        };
        let data = serde_json::to_string(&data).unwrap_or_default();
        self.blocks.push((reasoning, text));
        self.unsent = true;
        self.emit_json(out, origin, EventKind::AssistantChunk, data);
    }

    /// The message whole (its blocks and usage), when it changed since it
    /// last went out: the step is over.
    pub(super) fn flush_message(&mut self, out: &mut Out, origin: Origin) {
        if !std::mem::take(&mut self.unsent) {
            return;
        }
        let content = self
            .blocks
            .iter()
            .map(|(reasoning, text)| TextBlock::of(*reasoning, text))
            .collect();
        let data = MessageData {
            turn: self.turn,
            step: self.step,
            message: Message {
                role: "assistant",
                content,
            },
            usage: self.usage.map(Usage::to_value),
        };
        let data = serde_json::to_string(&data).unwrap_or_default();
        self.emit_json(out, origin, EventKind::AssistantMessage, data);
    }
}
