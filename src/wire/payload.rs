//! Typed payloads (`data`) of the session events the transcript folds, one
//! struct per [`EventKind`](super::EventKind) that has fields deck reads —
//! and the one model of them both ways: the fold reads an event's data
//! through these types, and deck's readers of other agents' logs
//! (`agents`) write their events' data as these same types
//! (`declare.rs`: the `payloads!` macro derives both ways from one
//! declaration of each field, its key and its reader).
//!
//! Read leniently, as the protocol asks of a client: a field of another
//! type reads as absent, a payload that is not an object as the default,
//! a repeated key as its last value (as a JSON tree keeps it), and unread
//! fields are skipped without a copy. What no JSON tree could hold (nested
//! past serde_json's recursion limit) is an error, never read as absent:
//! the fold reports it. [`read`] reads an event's data text.
//!
//! Written in declaration order, each field that has a value under its
//! key, the absent ones left out. What the readers write and the fold does
//! not read (a result's content and `meta`, the turn of a user message …)
//! is declared too, as a field marked `written`: reading skips its value
//! (never copied) and leaves it at its default. Such a field may borrow
//! what it writes (`written.rs`: [`Json`] text as read, a result part's
//! [`PartContent`]), so the hot paths write the log's text without a copy:
//! `ToolResult<'a>` and the parts under it take the lifetime of what they
//! borrow, and read as `ToolResult<'static>`.
//!
//! `Option<Option<T>>` fields say whether the key was there at all (its
//! value may still be of another type): the fold's fallbacks go to the next
//! key only when one is absent. `Some(None)` is written `null`.

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::de::loose;
pub use super::de::loose::TextOrObjects;
use super::error::WireError;
use super::raw::RawJson;

#[macro_use]
mod declare;
mod written;

use declare::Present;
use written::written;
pub use written::{Json, PartContent};

/// An event's data read as `T`, or why it cannot be (valid JSON nested too
/// deep for a tree).
pub fn read<T: DeserializeOwned>(data: &RawJson) -> Result<T, WireError> {
    serde_json::from_str(data.as_str()).map_err(|e| WireError::Unreadable(e.to_string()))
}

/// Data read through and dropped: what an event deck does not fold holds
/// (read so that data no tree could hold is reported for it too).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
#[non_exhaustive]
pub struct Unread;

impl<'de> Deserialize<'de> for Unread {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Unread, D::Error> {
        super::de::Skip::deserialize(d).map(|_| Unread)
    }
}

payloads! {
    /// `turn/start`.
    pub struct TurnStart {
        /// The turn that started.
        "turn" => turn: Option<u64> = loose::u64,
    }

    /// `turn/end`. DSH's carries no usage; the readers of other agents'
    /// logs put the turn's there (`agents`).
    pub struct TurnEnd {
        /// The turn that ended.
        "turn" => turn: Option<u64> = loose::u64,
        /// Why it ended.
        "reason" => reason: Option<TurnEndReason> = loose::object,
        /// The turn's tokens, when the log counts them.
        "usage" => usage: Option<TokenUsage> = loose::object,
    }

    /// Tokens of a model request (DSH's `TokenUsage`), or of a turn's
    /// requests: input not read from the cache, what was, what was written
    /// to it, and output (reasoning included).
    pub struct TokenUsage {
        /// Input tokens not read from the cache.
        "inputTokens" => input_tokens: Option<u64> = loose::u64,
        /// Output tokens.
        "outputTokens" => output_tokens: Option<u64> = loose::u64,
        /// Input tokens read from the cache.
        "cacheReadTokens" => cache_read_tokens: Option<u64> = loose::u64,
        /// Input tokens written to the cache.
        "cacheWriteTokens" => cache_write_tokens: Option<u64> = loose::u64,
        /// Of the output.
        "reasoningTokens" => reasoning_tokens: Option<u64> = loose::u64,
    }

    /// `compaction/start`, `compaction/summary` and `compaction/end` (one
    /// struct: each holds some of these). DSH's carry the id, the turn, the
    /// summary, the tokens it condensed (its estimate) and an error; the
    /// readers of other agents' logs add the trigger and the context's
    /// tokens before and after, when the agent counted them.
    pub struct Compaction {
        /// The compaction's id: its events share it.
        "compactionId" => compaction_id: Option<String> = loose::code,
        /// The turn it happened in.
        "turn" => turn: Option<u64> = loose::u64,
        /// `auto` | `manual`.
        "trigger" => trigger: Option<String> = loose::string,
        /// The context's tokens before it.
        "tokensBefore" => tokens_before: Option<u64> = loose::u64,
        /// The context's tokens after it.
        "tokensAfter" => tokens_after: Option<u64> = loose::u64,
        /// The tokens it condensed (DSH's estimate).
        "shadowedTokenCount" => shadowed_token_count: Option<u64> = loose::u64,
        /// Blocks, or a bare string.
        "summary" => summary: TextOrObjects<ContentBlock> = loose::text_or_objects,
        /// Of a `compaction/end` that failed.
        "error" => error: Option<String> = loose::string,
    }

    /// Why a turn ended.
    pub struct TurnEndReason {
        /// completed | aborted | blocked | error | max-tokens | …
        "kind" => kind: Option<String> = loose::string,
        /// The error the turn ended with (`Some(None)`: the key, not an object).
        "error" => error: Option<Option<Failure>> = loose::present_object,
        /// Read when there is no `error` key.
        "failure" => failure: Option<Option<Failure>> = loose::present_object,
        /// The reason's own message.
        "message" => message: Option<String> = loose::string,
    }

    /// A turn's error or failure.
    pub struct Failure {
        /// When the key is there, the reason's own message is not read.
        "message" => message: Option<Option<String>> = loose::present_string,
        /// A string, or a number as its text.
        "code" => code: Option<String> = loose::code,
    }

    /// `user/message`.
    pub struct UserMessage {
        /// The turn it belongs to (written by deck's readers; the fold
        /// places a message by where it comes).
        "turn" => turn: Option<u64> = written,
        /// Blocks, or a bare string.
        "content" => content: TextOrObjects<ContentBlock> = loose::text_or_objects,
        /// Who sent it, when not the user.
        "source" => source: Option<MessageSource> = loose::object,
        /// How a background task ended, when the message reports it (an
        /// agent's log read by deck: Claude Code's task notifications).
        "task" => task: Option<TaskReport> = loose::object,
    }

    /// Who sent a user message.
    pub struct MessageSource {
        /// `user`, `plugin`, `job` …
        "kind" => kind: Option<String> = loose::string,
        /// Which plugin (`compact`: a compaction's checkpoint).
        "plugin" => plugin: Option<String> = loose::string,
        /// The call the message is about (a task's report: the call that
        /// started the task).
        "callId" => call_id: Option<String> = loose::string,
    }

    /// A background task's end, as reported.
    pub struct TaskReport {
        /// The task's id, as the agent named it.
        "id" => id: Option<String> = loose::string,
        /// `completed`, `failed`, `killed` …
        "status" => status: Option<String> = loose::string,
        /// What the task did, in a line.
        "summary" => summary: Option<String> = loose::string,
        /// What the task handed back (an agent's report).
        "result" => result: Option<String> = loose::string,
        /// Where its output went (not in the log).
        "outputFile" => output_file: Option<String> = loose::string,
    }

    /// A content block (`{type, text}`) of a message or a streamed block.
    pub struct ContentBlock {
        /// `text`, `reasoning`, `image` …
        "type" => kind: Option<String> = loose::string,
        /// Its text, for a text or reasoning block.
        "text" => text: Option<String> = loose::string,
    }

    /// `assistant/chunk`.
    pub struct AssistantChunk {
        /// The turn it belongs to.
        "turn" => turn: Option<u64> = loose::u64,
        /// The step (model request) of the turn it belongs to.
        "step" => step: Option<u64> = loose::u64,
        /// The delta or boundary.
        "chunk" => chunk: Option<Chunk> = loose::object,
    }

    /// One streamed delta or block boundary.
    pub struct Chunk {
        /// block-start | text-delta | reasoning-delta | block-end | …
        "type" => kind: Option<String> = loose::string,
        /// The block it belongs to, by its place in the message.
        "index" => index: Option<u64> = loose::u64,
        /// Of a `block-start`.
        "blockType" => block_type: Option<String> = loose::string,
        /// Of a delta.
        "text" => text: Option<String> = loose::string,
        /// Of a `tool-call-delta`: the call's id (written).
        "id" => id: Option<String> = written,
        /// Of a `tool-call-delta`: the tool's name, when the delta says it
        /// (written).
        "name" => name: Option<String> = written,
        /// Of a `tool-call-delta`: more of the arguments' text (written).
        "argumentsDelta" => arguments_delta: Option<String> = written,
        /// Of a `block-end`: the whole block.
        "block" => block: Option<ContentBlock> = loose::object,
    }

    /// `assistant/message`.
    pub struct AssistantMessage {
        /// The turn it belongs to.
        "turn" => turn: Option<u64> = loose::u64,
        /// The step (model request) of the turn that made it.
        "step" => step: Option<u64> = loose::u64,
        /// Its content blocks.
        "message" => message: Option<MessageContent> = loose::object,
        /// The message was cut off before it ended.
        "interrupted" => interrupted: Option<bool> = loose::bool,
        /// The step's model request.
        "usage" => usage: Option<TokenUsage> = loose::object,
    }

    /// A message's content blocks, each in its place (`None`: not an object).
    pub struct MessageContent {
        /// `assistant` (written; the event's type says it).
        "role" => role: Option<&'static str> = written,
        /// The blocks.
        "content" => content: Option<Vec<Option<ContentBlock>>> = loose::objects,
    }

    /// `tool/call`.
    pub struct ToolCall {
        /// The turn it was made in.
        "turn" => turn: Option<u64> = loose::u64,
        /// The step (model request) of the turn that made it.
        "step" => step: Option<u64> = loose::u64,
        /// The call's id: its result names it.
        "callId" => call_id: Option<String> = loose::string,
        /// The tool's name.
        "name" => name: Option<String> = loose::string,
        /// The model's arguments: a JSON string, or (older hosts) a value.
        "arguments" => arguments: Option<Value> = loose::value,
    }

    /// `tool/result` (its content and `meta` are read by the cards, from
    /// the event's data text).
    pub struct ToolResult<'a> {
        /// The turn it came in.
        "turn" => turn: Option<u64> = loose::u64,
        /// The step (model request) of the turn whose call it answers
        /// (written).
        "step" => step: Option<u64> = written,
        /// Read when neither the part nor the message's source names the call.
        "callId" => call_id: Option<Option<String>> = loose::present_string,
        /// The result's message: its content and the call it answers.
        "message" => message: Option<ResultMessage<'a>> = loose::object,
        /// The error of a failed call.
        "error" => error: Option<ResultError> = loose::object,
        /// What the agent's log says of the call beside its content (its
        /// structured result …), for the cards (written).
        "meta" => meta: Option<Json<'a>> = written,
        /// deck's own, from its readers of other agents' logs: how the
        /// call's process exited, how long it ran, and `unknown` or
        /// `rejected` when `isError` cannot say how it ended.
        "exitCode" => exit_code: Option<i64> = loose::i64,
        /// How long the call ran, in milliseconds.
        "durationMs" => duration_ms: Option<i64> = loose::i64,
        /// `unknown` or `rejected`, when `isError` cannot say how the call ended.
        "outcome" => outcome: Option<String> = loose::string,
    }

    /// A result's message.
    pub struct ResultMessage<'a> {
        /// `tool` (written).
        "role" => role: Option<&'static str> = written,
        /// Where it came from: the call it answers.
        "source" => source: Option<ResultSource> = loose::object,
        /// The message's parts.
        "content" => content: Option<Vec<Option<ResultPart<'a>>>> = loose::objects,
    }

    /// Where a result's message came from.
    pub struct ResultSource {
        /// `tool` (written).
        "kind" => kind: Option<&'static str> = written,
        /// The call the message answers.
        "callId" => call_id: Option<Option<String>> = loose::present_string,
    }

    /// A part of a result's message; the one of type `tool-result` counts.
    pub struct ResultPart<'a> {
        /// `tool-result` for the part that counts.
        "type" => kind: Option<String> = loose::string,
        /// The call it answers.
        "toolCallId" => tool_call_id: Option<Option<String>> = loose::present_string,
        /// What the call gave back (written; the cards read it).
        "content" => content: Option<PartContent<'a>> = written,
        /// The call failed.
        "isError" => is_error: Option<bool> = loose::bool,
    }

    /// `error: {name, code}` of a failed result.
    pub struct ResultError {
        /// The error's name (`FsError` …).
        "name" => name: Option<String> = loose::string,
        /// The error's code (`FS_EDIT_NOT_FOUND`, `REJECTED` …).
        "code" => code: Option<String> = loose::string,
    }

    /// `todo/write`.
    pub struct TodoWrite {
        /// The list, whole, in order.
        "todos" => todos: Option<Vec<Option<TodoItem>>> = loose::objects,
        /// The call that wrote the plan, when the source knows it (another
        /// agent's reader says; DSH's host does not).
        "callId" => call_id: Option<String> = loose::string,
    }

    /// One todo.
    pub struct TodoItem {
        /// What is to be done.
        "content" => content: Option<String> = loose::string,
        /// pending | in_progress | completed | …
        "status" => status: Option<String> = loose::string,
    }

    /// `approval/asked`: an approval a log says was asked of the user (the
    /// fold reads it as a tree, as it reads the live frames' approvals).
    pub struct ApprovalAsked {
        /// The approval's id: its decision names it.
        "id" => id: Option<String> = loose::string,
        /// The JSON-RPC request a live client answers (`null`: none).
        "rpcId" => rpc_id: Option<Option<String>> = loose::present_string,
        /// The call it is about (`null`: none).
        "callId" => call_id: Option<Option<String>> = loose::present_string,
        /// The tool asking (`null`: not known).
        "toolName" => tool_name: Option<Option<String>> = loose::present_string,
        /// What it asks, in a line.
        "reason" => reason: Option<String> = loose::string,
        /// The choices offered, as the agent gave them.
        "options" => options: Option<Value> = loose::value,
    }

    /// `approval/decided`: how the user decided an approval (read as a
    /// tree by the fold, as `approval/asked`).
    pub struct ApprovalDecided {
        /// The approval's id.
        "id" => id: Option<String> = loose::string,
        /// The decision, in words (`allowed always`, `cancelled` …).
        "outcome" => outcome: Option<String> = loose::string,
    }

    /// `session/title`.
    pub struct SessionTitle {
        /// The session's new title.
        "title" => title: Option<String> = loose::string,
    }

    /// `llm/retry`: one retry scheduled after a failed model request.
    pub struct LlmRetry {
        /// The turn of the failed request.
        "turn" => turn: Option<u64> = loose::u64,
        /// The step of the failed request.
        "step" => step: Option<u64> = loose::u64,
        /// 1 for the first retry.
        "retry" => retry: Option<u64> = loose::u64,
        /// Absent when the policy retries without end (`mode: "always"`).
        "maxRetries" => max_retries: Option<u64> = loose::u64,
        /// How long until the retry, in milliseconds.
        "delayMs" => delay_ms: Option<u64> = loose::u64,
        /// Why the request failed.
        "failure" => failure: Option<LlmFailure> = loose::object,
    }

    /// Why a model request failed.
    pub struct LlmFailure {
        /// The failure's message.
        "message" => message: Option<String> = loose::string,
        /// `RATE_LIMIT`, `SERVER`, `TIMEOUT`, `TRANSPORT` …
        "code" => code: Option<String> = loose::code,
        /// The HTTP status, when there was a response.
        "status" => status: Option<u64> = loose::u64,
    }
}

impl TurnEndReason {
    /// The error, else the failure (the first key there, whatever its value).
    pub fn failure(&self) -> Option<&Failure> {
        self.error.as_ref().or(self.failure.as_ref())?.as_ref()
    }
}

impl<'a> ResultPart<'a> {
    /// The `tool-result` part answering call `id`, of `content`.
    pub fn answering(id: &str, content: PartContent<'a>, is_error: bool) -> ResultPart<'a> {
        ResultPart {
            kind: Some("tool-result".into()),
            tool_call_id: Some(Some(id.to_string())),
            content: Some(content),
            is_error: Some(is_error),
        }
    }
}

impl<'a> ToolResult<'a> {
    /// The result of a call made at `turn` and `step`: its message of the
    /// one `part` (the rest — meta, error, deck's verdict — left to set).
    pub fn of(turn: u64, step: u64, part: ResultPart<'a>) -> ToolResult<'a> {
        ToolResult {
            turn: Some(turn),
            step: Some(step),
            message: Some(ResultMessage {
                content: Some(vec![Some(part)]),
                ..ResultMessage::default()
            }),
            ..ToolResult::default()
        }
    }
}

impl ToolResult<'_> {
    /// The message's `tool-result` part.
    pub fn part(&self) -> Option<&ResultPart<'_>> {
        self.message
            .as_ref()?
            .content
            .as_ref()?
            .iter()
            .flatten()
            .find(|p| p.kind.as_deref() == Some("tool-result"))
    }

    /// The call a result names: the part's `toolCallId`, else the message
    /// source's `callId`, else the data's (the first key there counts,
    /// whatever its value).
    pub fn call_id(&self) -> Option<&str> {
        let source = self
            .message
            .as_ref()
            .and_then(|m| m.source.as_ref())
            .and_then(|s| s.call_id.as_ref());
        self.part()
            .and_then(|p| p.tool_call_id.as_ref())
            .or(source)
            .or(self.call_id.as_ref())?
            .as_deref()
    }
}

#[cfg(test)]
mod round_trip;
#[cfg(test)]
mod tests;
