//! The DSH shapes an assistant message goes out in: an `assistant/chunk`
//! for each new block, ended, and the `assistant/message` whole with its
//! usage when its step is over.

use serde::Serialize;
use serde_json::Value;

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
