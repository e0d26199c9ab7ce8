//! The reader on the real session of kimi-cli 1.49.0
//! (`tests/fixtures/agents/kimi/tour/`: three runs, `--continue` and
//! `--session`, twelve calls), and on lines written from kimi-cli's wire
//! types for what the tour does not show (an approval refused, a turn
//! stopped, input added to a running turn, a compaction).

use serde_json::{Value, json};

use super::*;
use crate::wire::Record;

const TOUR: &str = include_str!(
    "../../../../tests/fixtures/agents/kimi/tour/sessions/2f108d9d78a2ccf520e99c4d45c05ab0/3c84154a-3e8f-42a2-84e9-d232960af410/wire.jsonl"
);

fn read(text: &str) -> Out {
    let mut reader = Reader::default();
    let mut out = Out::new();
    for (i, line) in text.lines().enumerate() {
        let v: Value = serde_json::from_str(line).expect("JSON lines");
        assert!(is_line(&v), "line {} is claimed", i + 1);
        reader.line(&v, Origin { line: i + 1, offset: 0 }, &mut out);
    }
    reader.finish(&mut out);
    out
}

fn events(out: &Out, kind: EventKind) -> Vec<Value> {
    out.iter()
        .filter_map(|(_, r)| match r {
            Record::Event { event, .. } if event.kind == kind => {
                Some(serde_json::from_str(event.data.as_str()).expect("data"))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn the_tour_reads_into_three_turns_and_twelve_calls() {
    let out = read(TOUR);
    assert!(!out.iter().any(|(_, r)| matches!(r, Record::Diagnostic(_))));
    assert_eq!(events(&out, EventKind::TurnStart).len(), 3);
    let ends = events(&out, EventKind::TurnEnd);
    assert_eq!(ends.len(), 3);
    assert!(ends.iter().all(|e| e["reason"]["kind"] == "completed"), "{ends:?}");
    // The fake model's 20 tokens out for each of the first turn's 4 requests.
    assert_eq!(ends[0]["usage"]["outputTokens"], 80);
    let calls = events(&out, EventKind::ToolCall);
    let names: Vec<&str> = calls.iter().map(|d| d["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "Glob", "Glob", "Grep", "ReadFile", "SetTodoList", "ReadFile", "StrReplaceFile", "WriteFile", "Shell",
            "FetchURL", "Shell", "Shell"
        ]
    );
    let results = events(&out, EventKind::ToolResult);
    assert_eq!(results.len(), 12);
    let by_id = |id: &str| {
        results
            .iter()
            .find(|r| r["message"]["content"][0]["toolCallId"] == id)
            .unwrap_or_else(|| panic!("{id}"))
    };
    // Exit codes only where the message says one; errors as the log says.
    let said: Vec<(&str, Option<i64>, bool)> = ["call_2_4_0", "call_3_1_0", "call_3_2_0", "call_1_1_0", "call_3_0_0"]
        .iter()
        .map(|id| {
            let r = by_id(id);
            (*id, r["exitCode"].as_i64(), r["message"]["content"][0]["isError"] == true)
        })
        .collect();
    assert_eq!(
        said,
        [
            ("call_2_4_0", Some(0), false),
            ("call_3_1_0", Some(2), true),
            ("call_3_2_0", Some(0), false),
            ("call_1_1_0", None, true),
            ("call_3_0_0", None, true)
        ]
    );
    assert!(results.iter().all(|r| r["durationMs"].as_i64().is_some()), "{results:?}");
    // The edit's diff block, for the card.
    let edit = by_id("call_2_2_0");
    assert_eq!(edit["meta"]["display"][0]["old_start"], 6);
    // The plan, from the result's todo block.
    let plans = events(&out, EventKind::TodoWrite);
    assert_eq!(plans.len(), 1);
    assert_eq!(plans[0]["todos"][0], json!({"content": "Fix spread for an empty list", "status": "in_progress"}));
    // Thinking, then text, in one message of the first step.
    let said = events(&out, EventKind::AssistantMessage);
    assert_eq!(said[1]["message"]["content"][0]["type"], "reasoning");
    assert_eq!(said[1]["message"]["content"][1]["text"], "I'll look around first.");
    let header = out.iter().rev().find_map(|(_, r)| match r {
        Record::Frame { payload, .. } => Some(payload.clone()),
        _ => None,
    });
    assert_eq!(header.expect("a header")["agent"], "kimi");
}

fn line(t: f64, kind: &str, payload: Value) -> String {
    json!({"timestamp": t, "message": {"type": kind, "payload": payload}}).to_string()
}

#[test]
fn a_refusal_a_stopped_turn_and_added_input_are_what_the_log_says() {
    let text = [
        json!({"type": "metadata", "protocol_version": "1.10"}).to_string(),
        line(1.0, "TurnBegin", json!({"user_input": [{"type": "text", "text": "delete it"}]})),
        line(1.1, "StepBegin", json!({"n": 1})),
        line(1.2, "ToolCall", json!({"type": "function", "id": "a", "function": {"name": "Shell", "arguments": "{\"command\": \"rm -rf x\"}"}})),
        line(1.3, "ApprovalRequest", json!({"id": "r1", "tool_call_id": "a", "sender": "Shell", "action": "run command", "description": "Run command `rm -rf x`", "display": []})),
        line(2.0, "ApprovalResponse", json!({"request_id": "r1", "response": "reject", "feedback": ""})),
        line(2.1, "ToolResult", json!({"tool_call_id": "a", "return_value": {"is_error": true, "output": "", "message": "The tool call is rejected by the user. Stop what you are doing and wait for the user to tell you how to proceed.", "display": [{"type": "brief", "text": "Rejected by user"}]}})),
        line(2.2, "TurnEnd", json!({})),
        line(3.0, "TurnBegin", json!({"user_input": "run the tests"})),
        line(3.1, "StepBegin", json!({"n": 1})),
        line(3.2, "ToolCall", json!({"type": "function", "id": "b", "function": {"name": "Shell", "arguments": "{\"command\": \"sleep 100\"}"}})),
        line(3.3, "SteerInput", json!({"user_input": "faster please"})),
        line(3.4, "CompactionBegin", json!({})),
        line(3.5, "CompactionEnd", json!({})),
        line(4.0, "TurnBegin", json!({"user_input": "again"})),
    ]
    .join("\n");
    let out = read(&text);
    let decided = events(&out, EventKind::ApprovalDecided);
    assert_eq!(decided[0]["outcome"], "rejected");
    let results = events(&out, EventKind::ToolResult);
    assert_eq!(results.len(), 1, "the stopped call has no result");
    assert_eq!(results[0]["outcome"], "rejected");
    assert_eq!(results[0]["exitCode"], Value::Null);
    let ends = events(&out, EventKind::TurnEnd);
    let kinds: Vec<&str> = ends.iter().map(|e| e["reason"]["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["completed", "interrupted"]);
    let users = events(&out, EventKind::UserMessage);
    let texts: Vec<&str> = users.iter().map(|u| u["content"][0]["text"].as_str().unwrap()).collect();
    assert_eq!(texts, ["delete it", "run the tests", "faster please", "again"]);
    assert_eq!(users[2]["turn"], 2);
    assert_eq!(events(&out, EventKind::CompactionStart).len(), 1);
    assert_eq!(events(&out, EventKind::CompactionEnd).len(), 1);
}

#[test]
fn exit_codes_are_read_from_the_message_alone() {
    assert_eq!(said_exit_code("Command failed with exit code: 127."), Some(127));
    assert_eq!(said_exit_code("Command executed successfully."), Some(0));
    assert_eq!(said_exit_code("Command killed by timeout (60s)"), None);
    assert_eq!(said_exit_code("Command failed with exit code: x."), None);
}

#[test]
fn other_agents_lines_are_not_claimed() {
    for v in [
        json!({"type": "user", "message": {"role": "user", "content": "hi"}, "uuid": "u", "sessionId": "s"}),
        json!({"timestamp": 1, "method": "session/update", "params": {}}),
        json!({"timestamp": "t", "type": "session_meta", "payload": {"id": "x"}}),
        json!({"role": "user", "content": "hi"}),
        json!({"timestamp": 1.5, "message": {"type": "TurnEnd"}}),
    ] {
        assert!(!is_line(&v), "{v}");
    }
}
