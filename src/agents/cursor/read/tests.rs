//! The reader on the Cursor transcript written from the documented format
//! (`tests/fixtures/agents/cursor/tour/`: three prompts, nine calls, the
//! last turn aborted), and on lines no source shows but the reader takes.

use serde_json::{Value, json};

use super::*;
use crate::wire::Record;

const TOUR: &str = include_str!("../../../../tests/fixtures/agents/cursor/tour/5f0c2a8e-3b1d-4c7a-9e62-0d8b7a41c9f3.jsonl");

fn read_lines(lines: &[Value]) -> Out {
    let mut reader = Reader::default();
    let mut out = Out::new();
    for (i, v) in lines.iter().enumerate() {
        assert!(is_line(v), "line {} is claimed: {v}", i + 1);
        reader.line(v, Origin { line: i + 1, offset: 0 }, &mut out);
    }
    reader.finish(&mut out);
    out
}

fn read(text: &str) -> Out {
    let lines: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).expect("JSON lines")).collect();
    read_lines(&lines)
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
fn the_tour_reads_into_three_turns_and_nine_calls_that_say_nothing_of_how_they_ended() {
    let out = read(TOUR);
    assert!(!out.iter().any(|(_, r)| matches!(r, Record::Diagnostic(_))));
    let prompts = events(&out, EventKind::UserMessage);
    assert_eq!(prompts.len(), 3);
    // The query, without its <timestamp> line and <user_query> wrapper.
    assert_eq!(prompts[1]["content"][0]["text"], "check the build folder");
    let calls = events(&out, EventKind::ToolCall);
    let names: Vec<&str> = calls.iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["Glob", "Grep", "Read", "Read", "StrReplace", "Write", "Shell", "Shell", "Shell"]);
    // No ids in the file: a call is named by its line and place.
    let ids: Vec<&str> = calls.iter().map(|c| c["callId"].as_str().unwrap()).collect();
    assert_eq!(ids[..3], ["L2.2", "L2.3", "L3.1"]);
    let results = events(&out, EventKind::ToolResult);
    assert_eq!(results.len(), 9);
    for r in &results {
        assert_eq!(r["outcome"], "unknown", "{r}");
        assert_eq!(r["message"]["content"][0]["isError"], false);
        assert!(r.get("exitCode").is_none() && r.get("durationMs").is_none(), "{r}");
    }
    // No times in the file: every event's is unknown (0).
    assert!(out.iter().all(|(_, r)| match r {
        Record::Event { event, .. } => event.time == 0,
        _ => true,
    }));
    let ends: Vec<Value> = events(&out, EventKind::TurnEnd).iter().map(|e| e["reason"]["kind"].clone()).collect();
    assert_eq!(ends, [json!("completed"), json!("completed"), json!("aborted")]);
    let header = out.iter().find_map(|(_, r)| match r {
        Record::Frame { payload, .. } => Some(payload.clone()),
        _ => None,
    });
    assert_eq!(header.expect("a header")["agent"], "cursor");
}

#[test]
fn string_content_ids_results_and_errors_when_a_transcript_has_them() {
    let out = read_lines(&[
        json!({"role": "user", "message": {"content": "fix it"}}),
        json!({"role": "assistant", "message": {"content": [
            {"type": "thinking", "thinking": "the test first"},
            {"type": "tool_use", "id": "t1", "name": "Shell", "input": {"command": "make"}},
        ]}}),
        json!({"role": "user", "message": {"content": [{"type": "tool_result", "tool_use_id": "t1", "content": "boom", "is_error": true}]}}),
        json!({"type": "turn_ended", "status": "error", "error": "You've hit your usage limit."}),
    ]);
    assert_eq!(events(&out, EventKind::UserMessage)[0]["content"][0]["text"], "fix it");
    assert_eq!(events(&out, EventKind::AssistantMessage)[0]["message"]["content"][0]["type"], "reasoning");
    let r = &events(&out, EventKind::ToolResult)[0];
    assert_eq!((&r["message"]["content"][0]["toolCallId"], &r["message"]["content"][0]["isError"]), (&json!("t1"), &json!(true)));
    assert!(r.get("outcome").is_none());
    let end = &events(&out, EventKind::TurnEnd)[0];
    assert_eq!((&end["reason"]["kind"], &end["reason"]["error"]["code"]), (&json!("error"), &json!("error")));
}

#[test]
fn other_agents_lines_are_not_claimed() {
    for v in [
        json!({"type": "user", "message": {"role": "user", "content": "hi"}, "uuid": "u", "sessionId": "s"}),
        json!({"type": "assistant", "message": {"role": "assistant", "content": []}, "uuid": "u"}),
        json!({"timestamp": "t", "type": "session_meta", "payload": {"id": "x"}}),
        json!({"id": "i", "timestamp": "t", "type": "user", "content": "hi"}),
        json!({"type": "turn_ended", "status": "success", "seq": 3}),
        json!({"role": "user", "content": "a chat message, no `message`"}),
    ] {
        assert!(!is_line(&v), "{v}");
    }
}
