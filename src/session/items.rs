//! The transcript's entries ([`Item`]) other than tool cards: turn markers
//! (a turn's end with its token usage), user and assistant messages (the
//! latter by stream block), todo lists, compactions.

use std::sync::Arc;

use super::Prompt;

/// One block of an assistant message, in stream index order.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct AssistantBlock {
    /// Its stream index: its place in the message.
    pub index: u64,
    /// Reasoning rather than text said to the user.
    pub reasoning: bool,
    /// Its text so far.
    pub text: String,
}

impl AssistantBlock {
    /// The block at stream index `index`.
    pub fn new(index: u64, reasoning: bool, text: impl Into<String>) -> AssistantBlock {
        AssistantBlock {
            index,
            reasoning,
            text: text.into(),
        }
    }
}

/// The blocks of an assistant message by stream index: a chunk finds its
/// block in O(log n) whatever order the indices come in.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Blocks(std::collections::BTreeMap<u64, AssistantBlock>);

impl Blocks {
    /// Blocks in index order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &AssistantBlock> + ExactSizeIterator {
        self.0.values()
    }

    /// How many blocks.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// No block yet.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The block of stream index `index`, made (empty) when new.
    pub fn entry(&mut self, index: u64, reasoning: bool) -> &mut AssistantBlock {
        self.0
            .entry(index)
            .or_insert_with(|| AssistantBlock::new(index, reasoning, ""))
    }
}

/// Blocks in any order; a repeated index keeps the last.
impl FromIterator<AssistantBlock> for Blocks {
    fn from_iter<I: IntoIterator<Item = AssistantBlock>>(iter: I) -> Blocks {
        Blocks(iter.into_iter().map(|b| (b.index, b)).collect())
    }
}

impl<'a> IntoIterator for &'a Blocks {
    type Item = &'a AssistantBlock;
    type IntoIter = std::collections::btree_map::Values<'a, u64, AssistantBlock>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.values()
    }
}

/// The `i`-th block in index order (O(i); for tests and small messages).
impl std::ops::Index<usize> for Blocks {
    type Output = AssistantBlock;
    fn index(&self, i: usize) -> &AssistantBlock {
        self.0
            .values()
            .nth(i)
            .unwrap_or_else(|| panic!("block {i} of {}", self.0.len()))
    }
}

/// An assistant message of one (turn, step), assembled from chunks or taken
/// from the final `assistant/message`.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct AssistantMessage {
    /// The turn it belongs to.
    pub turn: u64,
    /// The step (model request) of the turn that made it.
    pub step: u64,
    /// Its blocks, text and reasoning.
    pub blocks: Blocks,
    /// True once the final `assistant/message` arrived (or the attempt
    /// that streamed it failed).
    pub complete: bool,
    /// It did not finish: the turn ended otherwise than `completed` while
    /// it was open, or its `assistant/message` says `interrupted`.
    pub interrupted: bool,
    /// The model request streaming it failed midway and was tried again:
    /// the text is what arrived before it was cut off.
    pub cut_off: bool,
    /// Epoch ms of its first chunk (or of the message).
    pub time: i64,
    /// Bumped on every change (for render caches).
    pub rev: u64,
}

impl AssistantMessage {
    /// A message of (turn, step) still streaming (not complete, not
    /// interrupted), first seen at `time`.
    pub fn new(turn: u64, step: u64, blocks: Blocks, time: i64) -> AssistantMessage {
        AssistantMessage {
            turn,
            step,
            blocks,
            complete: false,
            interrupted: false,
            cut_off: false,
            time,
            rev: 0,
        }
    }
}

/// A model request that failed and is tried again (`llm/retry`).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Retry {
    /// The turn of the failed request.
    pub turn: u64,
    /// The step of the failed request.
    pub step: u64,
    /// Which retry this is (1 for the first), when the event says.
    pub retry: Option<u64>,
    /// How many the policy allows, when it has a limit.
    pub max_retries: Option<u64>,
    /// The wait before it, in ms.
    pub delay_ms: Option<u64>,
    /// Why the attempt failed: `429 Too Many Requests`, `TIMEOUT: …`.
    pub reason: String,
    /// The `llm/retry` event's seq.
    pub seq: u64,
    /// Its epoch ms.
    pub time: i64,
}

impl Retry {
    /// `retrying (2/5) after 429 Too Many Requests · 2.1 s`.
    pub fn summary(&self) -> String {
        let count = match (self.retry, self.max_retries) {
            (Some(n), Some(max)) => format!(" ({n}/{max})"),
            (Some(n), None) => format!(" ({n})"),
            _ => String::new(),
        };
        let reason = if self.reason.is_empty() {
            String::new()
        } else {
            format!(" after {}", self.reason)
        };
        let delay = self
            .delay_ms
            .map(|ms| format!(" · {:.1} s", ms as f64 / 1000.0))
            .unwrap_or_default();
        format!("retrying{count}{reason}{delay}")
    }
}

/// A user (or injected) message.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct UserMessage {
    /// The `user/message` event's seq.
    pub seq: u64,
    /// Its epoch ms.
    pub time: i64,
    /// Its text (a block other than text as `[type]`).
    pub text: String,
    /// `source.kind` (`user`, `plugin`, `job` …); anything but `user` is context
    /// the host injected rather than something the person typed.
    pub source: Option<String>,
}

impl UserMessage {
    /// A message of `text` from `source` (`None`: the user).
    pub fn new(seq: u64, time: i64, text: String, source: Option<String>) -> UserMessage {
        UserMessage {
            seq,
            time,
            text,
            source,
        }
    }
}

/// How a turn ended.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct TurnEnd {
    /// completed | aborted | blocked | error | max-tokens | …
    pub reason: String,
    /// What the end says of itself (an error's message), when it says.
    pub message: Option<String>,
    /// The error's code, when it ended on one.
    pub code: Option<String>,
    /// The tokens of the turn's model requests, when the log says.
    pub usage: Option<TokenUsage>,
}

impl TurnEnd {
    /// An end for `reason`, without token usage.
    pub fn new(reason: String, message: Option<String>, code: Option<String>) -> TurnEnd {
        TurnEnd {
            reason,
            message,
            code,
            usage: None,
        }
    }

    /// This end, with the turn's token usage.
    pub fn with_usage(self, usage: Option<TokenUsage>) -> TurnEnd {
        TurnEnd { usage, ..self }
    }
}

/// Tokens of model requests, as the log counts them: each `None` where it
/// does not say.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct TokenUsage {
    /// Input tokens in all, those read from and written to the cache
    /// included.
    pub input: Option<u64>,
    /// Of the input: read from the cache.
    pub cache_read: Option<u64>,
    /// Of the input: written to the cache.
    pub cache_write: Option<u64>,
    /// Output tokens, reasoning included.
    pub output: Option<u64>,
    /// Of the output: reasoning.
    pub reasoning: Option<u64>,
}

impl TokenUsage {
    /// Usage of `input` tokens in all and `output` out (the parts unsaid).
    pub fn new(input: Option<u64>, output: Option<u64>) -> TokenUsage {
        TokenUsage {
            input,
            output,
            ..TokenUsage::default()
        }
    }

    /// DSH's `TokenUsage`, whose input counts neither the tokens read from
    /// the cache nor those written to it.
    pub fn from_wire(u: &crate::wire::payload::TokenUsage) -> TokenUsage {
        let (read, write) = (u.cache_read_tokens, u.cache_write_tokens);
        let input = u.input_tokens.and_then(|i| {
            i.checked_add(read.unwrap_or(0))?
                .checked_add(write.unwrap_or(0))
        });
        TokenUsage {
            input,
            cache_read: read,
            cache_write: write,
            output: u.output_tokens,
            reasoning: u.reasoning_tokens,
        }
    }

    /// Nothing said at all.
    pub fn is_empty(&self) -> bool {
        *self == TokenUsage::default()
    }

    /// The usage of several requests together: each count only when every
    /// one of them says it (a sum of some would be a number the log does
    /// not hold); `None` when there are none.
    pub fn sum(all: impl IntoIterator<Item = TokenUsage>) -> Option<TokenUsage> {
        let mut all = all.into_iter();
        let first = all.next()?;
        let add = |a: Option<u64>, b: Option<u64>| a?.checked_add(b?);
        Some(all.fold(first, |s, u| TokenUsage {
            input: add(s.input, u.input),
            cache_read: add(s.cache_read, u.cache_read),
            cache_write: add(s.cache_write, u.cache_write),
            output: add(s.output, u.output),
            reasoning: add(s.reasoning, u.reasoning),
        }))
    }
}

/// The agent condensed its context: the conversation before this point
/// was replaced by a summary. Numbers are the log's, absent when it has
/// none.
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub struct Compaction {
    /// The seq of its first event.
    pub seq: u64,
    /// The epoch ms of its first event.
    pub time: i64,
    /// The turn it happened in, when the log says.
    pub turn: Option<u64>,
    /// `auto` | `manual`, when the log says.
    pub trigger: Option<String>,
    /// The context's tokens before, as the agent counted them.
    pub tokens_before: Option<u64>,
    /// The context's tokens after, as the agent counted them.
    pub tokens_after: Option<u64>,
    /// Tokens of the part condensed (DSH's estimate).
    pub tokens_condensed: Option<u64>,
    /// The summary that replaced it.
    pub summary: Option<String>,
    /// Why it failed, when it did.
    pub error: Option<String>,
    /// Bumped on every change (for render caches).
    pub rev: u64,
}

impl Compaction {
    /// A compaction seen at `seq`, nothing known of it yet.
    pub fn new(seq: u64, time: i64) -> Compaction {
        Compaction {
            seq,
            time,
            ..Compaction::default()
        }
    }
}

/// A turn's start, or its end and how.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct TurnMarker {
    /// The turn.
    pub turn: u64,
    /// The seq of the `turn/start` or `turn/end`.
    pub seq: u64,
    /// Its epoch ms.
    pub time: i64,
    /// `None` for a turn start.
    pub end: Option<TurnEnd>,
    /// Whether `turn` is the session's number (false: its reader counted
    /// from a point after the session's start, the number is not known).
    pub numbered: bool,
}

impl TurnMarker {
    /// Turn `turn` started.
    pub fn start(turn: u64, seq: u64, time: i64) -> TurnMarker {
        TurnMarker {
            turn,
            seq,
            time,
            end: None,
            numbered: true,
        }
    }

    /// `turn 3`, or `turn …` when its number is not known.
    pub fn label(&self) -> String {
        if self.numbered {
            format!("turn {}", self.turn)
        } else {
            "turn …".to_string()
        }
    }

    /// Turn `turn` ended, and how.
    pub fn end(turn: u64, seq: u64, time: i64, end: TurnEnd) -> TurnMarker {
        TurnMarker {
            end: Some(end),
            ..TurnMarker::start(turn, seq, time)
        }
    }
}

/// One item of a todo list.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Todo {
    /// What is to be done.
    pub content: String,
    /// pending | in_progress | completed | …
    pub status: String,
}

impl Todo {
    /// A todo of `content` at `status`.
    pub fn new(content: String, status: String) -> Todo {
        Todo { content, status }
    }
}

/// One entry of the transcript, in order. Heavy payloads sit behind `Arc`,
/// so cloning a transcript (the player's seek snapshots) copies pointers,
/// not text.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Item {
    /// A user (or injected) message.
    User(Arc<UserMessage>),
    /// An assistant message.
    Assistant(Arc<AssistantMessage>),
    /// Behind an `Arc` like the others: an item is a few words, whatever
    /// it holds.
    Turn(Arc<TurnMarker>),
    /// A todo list written (`todo/write`) apart from a call's card.
    Todo {
        /// The event's seq.
        seq: u64,
        /// The list, whole.
        todos: Arc<Vec<Todo>>,
    },
    /// Index into [`Transcript::cards`](super::Transcript::cards).
    Tool(usize),
    /// An approval or a question, updated in place when it is answered.
    Prompt(Arc<Prompt>),
    /// Index into [`Transcript::diagnostics`](super::Transcript::diagnostics).
    Diagnostic(usize),
    /// A failed model request tried again.
    Retry(Arc<Retry>),
    /// The agent condensed its context here.
    Compaction(Arc<Compaction>),
}
