//! What deck's readers write reads back: each payload, every field set,
//! is written with every key in declaration order and reads back equal
//! through its own reader — but the fields marked `written`, which reading
//! skips.

use std::borrow::Cow;
use std::fmt::Debug;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::value::{RawValue, to_raw_value};
use serde_json::{Value, json};

use super::*;

/// `full` written has exactly `keys`, in order, and reads back as `back`;
/// what it reads back as writes the same again.
fn round_trip<T>(full: &T, back: &T, keys: &[&str])
where
    T: Serialize + DeserializeOwned + PartialEq + Debug,
{
    let text = serde_json::to_string(full).unwrap();
    let tree: Value = serde_json::from_str(&text).unwrap();
    let written: Vec<&str> = tree
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(written, keys, "{text}");
    let read: T = serde_json::from_str(&text).unwrap();
    assert_eq!(&read, back, "{text}");
    let again: T = serde_json::from_str(&serde_json::to_string(&read).unwrap()).unwrap();
    assert_eq!(&again, back);
    // Empty, it writes an empty object and reads back empty.
    let empty: T = serde_json::from_str("{}").unwrap();
    assert_eq!(serde_json::to_string(&empty).unwrap(), "{}");
}

/// A payload that reads back whole (no field of it is `written`).
fn whole<T>(full: T, keys: &[&str])
where
    T: Serialize + DeserializeOwned + PartialEq + Debug,
{
    round_trip(&full, &full, keys);
}

fn s(text: &str) -> Option<String> {
    Some(text.to_string())
}

fn raw(v: Value) -> Cow<'static, RawValue> {
    Cow::Owned(to_raw_value(&v).unwrap())
}

fn usage() -> TokenUsage {
    TokenUsage {
        input_tokens: Some(1),
        output_tokens: Some(2),
        cache_read_tokens: Some(3),
        cache_write_tokens: Some(4),
        reasoning_tokens: Some(5),
    }
}

fn block() -> ContentBlock {
    ContentBlock {
        kind: s("text"),
        text: s("hi"),
    }
}

fn failure() -> Failure {
    Failure {
        message: Some(s("boom")),
        code: s("E1"),
    }
}

#[test]
fn turns_read_back() {
    whole(TurnStart { turn: Some(3) }, TurnStart::KEYS);
    let reason = TurnEndReason {
        kind: s("error"),
        error: Some(Some(failure())),
        failure: Some(Some(failure())),
        message: s("it failed"),
    };
    whole(reason.clone(), TurnEndReason::KEYS);
    whole(failure(), Failure::KEYS);
    whole(usage(), TokenUsage::KEYS);
    let end = TurnEnd {
        turn: Some(3),
        reason: Some(reason),
        usage: Some(usage()),
    };
    whole(end, TurnEnd::KEYS);
    let compaction = Compaction {
        compaction_id: s("c1"),
        turn: Some(2),
        trigger: s("auto"),
        tokens_before: Some(900),
        tokens_after: Some(100),
        shadowed_token_count: Some(800),
        summary: TextOrObjects::Objects(vec![Some(block()), None]),
        error: s("no room"),
    };
    whole(compaction, Compaction::KEYS);
    let retry = LlmRetry {
        turn: Some(1),
        step: Some(2),
        retry: Some(1),
        max_retries: Some(5),
        delay_ms: Some(250),
        failure: Some(LlmFailure {
            message: s("slow down"),
            code: s("RATE_LIMIT"),
            status: Some(429),
        }),
    };
    whole(retry.failure.clone().unwrap(), LlmFailure::KEYS);
    whole(retry, LlmRetry::KEYS);
    whole(SessionTitle { title: s("t") }, SessionTitle::KEYS);
}

#[test]
fn messages_read_back() {
    let source = MessageSource {
        kind: s("notification"),
        plugin: s("compact"),
        call_id: s("c1"),
    };
    whole(source.clone(), MessageSource::KEYS);
    let task = TaskReport {
        id: s("a6"),
        status: s("completed"),
        summary: s("done"),
        result: s("it prints"),
        output_file: s("/tmp/a6"),
    };
    whole(task.clone(), TaskReport::KEYS);
    whole(block(), ContentBlock::KEYS);
    let user = UserMessage {
        turn: Some(4),
        content: TextOrObjects::Objects(vec![Some(block())]),
        source: Some(source),
        task: Some(task),
    };
    let back = UserMessage {
        turn: None,
        ..user.clone()
    };
    round_trip(&user, &back, UserMessage::KEYS);
    let text = UserMessage {
        content: TextOrObjects::Text("hi".into()),
        ..UserMessage::default()
    };
    whole(text, &["content"]);

    let content = MessageContent {
        role: Some("assistant"),
        content: Some(vec![Some(block()), None]),
    };
    let content_back = MessageContent {
        role: None,
        ..content.clone()
    };
    round_trip(&content, &content_back, MessageContent::KEYS);
    let message = AssistantMessage {
        turn: Some(1),
        step: Some(2),
        message: Some(content),
        interrupted: Some(true),
        usage: Some(usage()),
    };
    let back = AssistantMessage {
        message: Some(content_back),
        ..message.clone()
    };
    round_trip(&message, &back, AssistantMessage::KEYS);

    let chunk = Chunk {
        kind: s("tool-call-delta"),
        index: Some(0),
        block_type: s("text"),
        text: s("a"),
        id: s("c1"),
        name: s("Bash"),
        arguments_delta: s("{\"a"),
        block: Some(block()),
    };
    let chunk_back = Chunk {
        id: None,
        name: None,
        arguments_delta: None,
        ..chunk.clone()
    };
    round_trip(&chunk, &chunk_back, Chunk::KEYS);
    let chunk = AssistantChunk {
        turn: Some(1),
        step: Some(2),
        chunk: Some(chunk),
    };
    let back = AssistantChunk {
        chunk: Some(chunk_back),
        ..chunk.clone()
    };
    round_trip(&chunk, &back, AssistantChunk::KEYS);

    let todo = TodoItem {
        content: s("write it"),
        status: s("pending"),
    };
    whole(todo.clone(), TodoItem::KEYS);
    let todos = TodoWrite {
        todos: Some(vec![Some(todo), None]),
        call_id: s("c1"),
    };
    whole(todos, TodoWrite::KEYS);
}

#[test]
fn calls_and_results_read_back() {
    let call = ToolCall {
        turn: Some(1),
        step: Some(2),
        call_id: s("c1"),
        name: s("Bash"),
        arguments: Some(Value::from(r#"{"command":"ls"}"#)),
    };
    whole(call, ToolCall::KEYS);

    let error = ResultError {
        name: s("AbortError"),
        code: s("ABORTED"),
    };
    whole(error.clone(), ResultError::KEYS);
    let source = ResultSource {
        kind: Some("tool"),
        call_id: Some(s("c1")),
    };
    let source_back = ResultSource {
        kind: None,
        ..source.clone()
    };
    round_trip(&source, &source_back, ResultSource::KEYS);
    let part = ResultPart {
        kind: s("tool-result"),
        tool_call_id: Some(s("c1")),
        content: Some(PartContent::Text("out".into())),
        is_error: Some(false),
    };
    let part_back = ResultPart {
        content: None,
        ..part.clone()
    };
    round_trip(&part, &part_back, ResultPart::KEYS);
    let message = ResultMessage {
        role: Some("tool"),
        source: Some(source),
        content: Some(vec![Some(part), None]),
    };
    let message_back = ResultMessage {
        role: None,
        source: Some(source_back),
        content: Some(vec![Some(part_back), None]),
    };
    round_trip(&message, &message_back, ResultMessage::KEYS);
    let result = ToolResult {
        turn: Some(1),
        step: Some(2),
        call_id: Some(s("c1")),
        message: Some(message),
        error: Some(error),
        meta: Some(Json::Tree(json!({"exitCode": 1}))),
        exit_code: Some(-1),
        duration_ms: Some(40),
        outcome: s("rejected"),
    };
    let back = ToolResult {
        step: None,
        message: Some(message_back),
        meta: None,
        ..result.clone()
    };
    round_trip(&result, &back, ToolResult::KEYS);
    let result_back: ToolResult<'_> =
        serde_json::from_str(&serde_json::to_string(&result).unwrap()).unwrap();
    assert_eq!(result_back.call_id(), Some("c1"));
    assert_eq!(result_back.part().and_then(|p| p.is_error), Some(false));
}

#[test]
fn approvals_read_back() {
    let asked = ApprovalAsked {
        id: s("permission-7"),
        rpc_id: Some(s("7")),
        call_id: Some(s("c1")),
        tool_name: Some(s("Bash")),
        reason: s("run ls"),
        options: Some(json!([{"optionId": "allow", "kind": "allow_once"}])),
    };
    whole(asked, ApprovalAsked::KEYS);
    let decided = ApprovalDecided {
        id: s("permission-7"),
        outcome: s("allowed once"),
    };
    whole(decided, ApprovalDecided::KEYS);
}

#[test]
fn a_key_there_without_a_value_is_written_null() {
    let asked = ApprovalAsked {
        id: s("permission-"),
        rpc_id: Some(None),
        call_id: Some(None),
        tool_name: Some(None),
        ..ApprovalAsked::default()
    };
    let text = serde_json::to_string(&asked).unwrap();
    assert_eq!(
        text,
        r#"{"id":"permission-","rpcId":null,"callId":null,"toolName":null}"#
    );
    let back: ApprovalAsked = serde_json::from_str(&text).unwrap();
    assert_eq!(back, asked);
}

#[test]
fn written_content_is_written_as_read() {
    let said = raw(json!("a \"quoted\" line\n"));
    let part = |content| {
        serde_json::to_string(&ResultPart {
            content: Some(content),
            ..ResultPart::default()
        })
        .unwrap()
    };
    let expected = r#"{"content":[{"type":"text","text":"a \"quoted\" line\n"}]}"#;
    assert_eq!(part(PartContent::JsonText(said)), expected);
    assert_eq!(
        part(PartContent::Text("a \"quoted\" line\n".into())),
        expected
    );
    let blocks = raw(json!([{"type": "image", "source": {"data": "x"}}]));
    assert_eq!(
        part(PartContent::Blocks(blocks)),
        r#"{"content":[{"type":"image","source":{"data":"x"}}]}"#
    );
    let meta: &RawValue = serde_json::from_str(r#"{"b": 1, "a":[2]}"#).unwrap();
    let result = ToolResult {
        meta: Some(Json::Text(Cow::Borrowed(meta))),
        ..ToolResult::default()
    };
    assert_eq!(
        serde_json::to_string(&result).unwrap(),
        r#"{"meta":{"b": 1, "a":[2]}}"#
    );
}
