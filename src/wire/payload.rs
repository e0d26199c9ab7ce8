//! Typed payloads (`data`) of the session events the transcript folds, one
//! struct per [`EventKind`](super::EventKind) that has fields deck reads.
//!
//! Read leniently, as the protocol asks of a client: a field of another
//! type reads as absent, a payload that is not an object as the default,
//! a repeated key as its last value (as a JSON tree keeps it), and unread
//! fields are skipped without a copy. What no JSON tree could hold (nested
//! past serde_json's recursion limit) is an error, never read as absent:
//! the fold reports it. [`read`] reads an event's data text.
//!
//! `Option<Option<T>>` fields say whether the key was there at all (its
//! value may still be of another type): the fold's fallbacks go to the next
//! key only when one is absent.

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::de::loose;
pub use super::de::loose::TextOrObjects;
use super::error::WireError;
use super::raw::RawJson;

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

/// Declares payload structs: each field with its key and its loose reader.
/// Every struct reads from any JSON value (an object's fields, else the
/// default) and skips the keys it does not name.
macro_rules! payloads {
    ($(
        $(#[$doc:meta])*
        pub struct $name:ident {
            $($(#[$fdoc:meta])* $key:literal => $field:ident: $ty:ty = $read:path,)*
        }
    )*) => {$(
        $(#[$doc])*
        #[derive(Debug, Clone, Default, PartialEq)]
        #[non_exhaustive]
        pub struct $name {
            $($(#[$fdoc])* pub $field: $ty,)*
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<$name, D::Error> {
                use serde::de::{DeserializeSeed, Deserializer, MapAccess, Visitor};
                struct Fields($name);
                impl<'de> Deserialize<'de> for Fields {
                    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Fields, D::Error> {
                        d.deserialize_map(FieldsVisitor)
                    }
                }
                struct FieldsVisitor;
                impl<'de> Visitor<'de> for FieldsVisitor {
                    type Value = Fields;
                    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                        f.write_str("an object")
                    }
                    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Fields, A::Error> {
                        let mut out = $name::default();
                        while let Some(loose::Key(key)) = map.next_key()? {
                            match &*key {
                                $($key => {
                                    struct Seed;
                                    impl<'de> DeserializeSeed<'de> for Seed {
                                        type Value = $ty;
                                        fn deserialize<D: Deserializer<'de>>(
                                            self,
                                            d: D,
                                        ) -> Result<$ty, D::Error> {
                                            $read(d)
                                        }
                                    }
                                    out.$field = map.next_value_seed(Seed)?;
                                })*
                                _ => {
                                    map.next_value::<super::de::Skip>()?;
                                }
                            }
                        }
                        Ok(Fields(out))
                    }
                }
                Ok(loose::object::<D, Fields>(d)?.map(|f| f.0).unwrap_or_default())
            }
        }
    )*};
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
        /// The blocks.
        "content" => content: Option<Vec<Option<ContentBlock>>> = loose::objects,
    }

    /// `tool/call`.
    pub struct ToolCall {
        /// The call's id: its result names it.
        "callId" => call_id: Option<String> = loose::string,
        /// The tool's name.
        "name" => name: Option<String> = loose::string,
        /// The model's arguments: a JSON string, or (older hosts) a value.
        "arguments" => arguments: Option<Value> = loose::value,
        /// The turn it was made in.
        "turn" => turn: Option<u64> = loose::u64,
        /// The step (model request) of the turn that made it.
        "step" => step: Option<u64> = loose::u64,
    }

    /// `tool/result` (its content is read by the cards, from the event's
    /// data text).
    pub struct ToolResult {
        /// The turn it came in.
        "turn" => turn: Option<u64> = loose::u64,
        /// Read when neither the part nor the message's source names the call.
        "callId" => call_id: Option<Option<String>> = loose::present_string,
        /// The result's message: its content and the call it answers.
        "message" => message: Option<ResultMessage> = loose::object,
        /// The error of a failed call.
        "error" => error: Option<ResultError> = loose::object,
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
    pub struct ResultMessage {
        /// The message's parts.
        "content" => content: Option<Vec<Option<ResultPart>>> = loose::objects,
        /// Where it came from: the call it answers.
        "source" => source: Option<ResultSource> = loose::object,
    }

    /// Where a result's message came from.
    pub struct ResultSource {
        /// The call the message answers.
        "callId" => call_id: Option<Option<String>> = loose::present_string,
    }

    /// A part of a result's message; the one of type `tool-result` counts.
    pub struct ResultPart {
        /// `tool-result` for the part that counts.
        "type" => kind: Option<String> = loose::string,
        /// The call it answers.
        "toolCallId" => tool_call_id: Option<Option<String>> = loose::present_string,
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

impl ToolResult {
    /// The message's `tool-result` part.
    pub fn part(&self) -> Option<&ResultPart> {
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
mod tests {
    use super::*;
    use serde_json::json;

    fn raw(v: Value) -> RawJson {
        RawJson::from_value(&v)
    }

    #[test]
    fn misfits_read_as_absent() {
        let t: TurnStart = read(&raw(json!({"turn": "1"}))).unwrap();
        assert_eq!(t.turn, None);
        let t: TurnStart = read(&raw(json!([{"turn": 1}]))).unwrap();
        assert_eq!(t, TurnStart::default());
        let t: TurnStart = read(&raw(json!({"turn": 1.5, "x": [[{"y": null}]]}))).unwrap();
        assert_eq!(t.turn, None);
        // The last of a repeated key, as a tree keeps it.
        let t: TurnStart = read(&RawJson::from(json!(null))).unwrap();
        assert_eq!(t.turn, None);
        let t: TurnStart = serde_json::from_str(r#"{"turn":1,"turn":2}"#).unwrap();
        assert_eq!(t.turn, Some(2));
    }

    #[test]
    fn present_keys_stop_the_fallbacks() {
        let r: ToolResult = read(&raw(json!({"callId": "d", "message": {
            "source": {"callId": "s"},
            "content": [1, {"type": "tool-result", "toolCallId": 5, "isError": true}]}})))
        .unwrap();
        assert_eq!(r.call_id(), None);
        assert_eq!(r.part().and_then(|p| p.is_error), Some(true));
        let r: ToolResult = read(&raw(json!({"callId": "d", "message": {
            "source": {"callId": "s"}, "content": [{"type": "tool-result"}]}})))
        .unwrap();
        assert_eq!(r.call_id(), Some("s"));
        let r: ToolResult = read(&raw(json!({"callId": "d", "message": "m"}))).unwrap();
        assert_eq!(r.call_id(), Some("d"));
        let e: TurnEnd = read(&raw(json!({"reason": {"error": null,
            "failure": {"message": "m", "code": 7}}})))
        .unwrap();
        assert_eq!(e.reason.as_ref().and_then(TurnEndReason::failure), None);
        let e: TurnEnd = read(&raw(
            json!({"reason": {"failure": {"message": "m", "code": 7}}}),
        ))
        .unwrap();
        let f = e.reason.as_ref().and_then(TurnEndReason::failure).unwrap();
        assert_eq!(
            (f.message.clone().flatten(), f.code.as_deref()),
            (Some("m".into()), Some("7"))
        );
    }

    #[test]
    fn items_keep_their_places() {
        let m: AssistantMessage = read(&raw(json!({"message": {"content": [
            "x", {"type": "text", "text": "a"}]}})))
        .unwrap();
        let content = m.message.unwrap().content.unwrap();
        assert_eq!(content.len(), 2);
        assert!(content[0].is_none());
        let u: UserMessage = read(&raw(json!({"content": "hi"}))).unwrap();
        assert_eq!(u.content, TextOrObjects::Text("hi".into()));
    }

    #[test]
    fn too_deep_is_an_error_wherever_it_is() {
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        for text in [
            deep.clone(),
            format!(r#"{{"turn":{deep}}}"#),
            format!(r#"{{"unread":{deep}}}"#),
        ] {
            let data: RawJson = serde_json::from_str::<Box<serde_json::value::RawValue>>(&text)
                .map(|r| RawJson::from_raw(&r))
                .unwrap();
            let err = read::<TurnStart>(&data).unwrap_err().to_string();
            assert!(err.contains("recursion limit"), "{err}");
        }
    }
}
