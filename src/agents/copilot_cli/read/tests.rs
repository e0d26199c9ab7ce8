//! The reader on the real session of GitHub Copilot CLI 1.0.102
//! (`tests/fixtures/agents/copilot-cli/tour/`: three runs, `--continue` and
//! `--resume`, eleven calls).

use serde_json::{Value, json};

use super::*;
use crate::wire::Record;

const TOUR: &str = include_str!("../../../../tests/fixtures/agents/copilot-cli/tour/events.jsonl");
const SUMMARY: &str = include_str!("../../../../tests/fixtures/agents/copilot-cli/tour/SUMMARY.json");

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
fn the_tour_reads_into_three_turns_and_the_calls_of_its_summary() {
    let out = read(TOUR);
    assert!(!out.iter().any(|(_, r)| matches!(r, Record::Diagnostic(_))));
    assert_eq!(events(&out, EventKind::TurnStart).len(), 3);
    assert_eq!(events(&out, EventKind::TurnEnd).len(), 3);
    let summary: Value = serde_json::from_str(SUMMARY).unwrap();
    let want = summary[0]["calls"].as_array().unwrap();
    let calls = events(&out, EventKind::ToolCall);
    let results = events(&out, EventKind::ToolResult);
    assert_eq!((calls.len(), results.len()), (want.len(), want.len()));
    for ((c, r), w) in calls.iter().zip(&results).zip(want) {
        assert_eq!((&c["callId"], &c["name"]), (&w["callId"], &w["tool"]), "{c}");
        let part = &r["message"]["content"][0];
        assert_eq!(part["toolCallId"], w["callId"]);
        // `success` as the file says it; a shell's exit code from
        // `shellExecution`, 0 included; none for the rest.
        assert_eq!(part["isError"], json!(w["success"] == false), "{r}");
        assert_eq!(r.get("exitCode"), w.get("exitCode").filter(|c| !c.is_null()), "{r}");
        assert_eq!(r["durationMs"], w["spanMs"], "{r}");
    }
    let codes: Vec<Option<i64>> = results.iter().filter_map(|r| r.get("exitCode")).map(Value::as_i64).collect();
    assert_eq!(codes, [Some(0), Some(2), Some(0)]);
    // The edit's diff kept for its card.
    assert!(results[5]["meta"]["detailedContent"].as_str().unwrap().contains("@@ -6,6 +6,8 @@"));
    let header = out.iter().rev().find_map(|(_, r)| match r {
        Record::Frame { payload, .. } => Some(payload.clone()),
        _ => None,
    });
    let header = header.expect("a header");
    assert_eq!(header["agent"], "copilot-cli");
    assert_eq!(header["cwd"], "/workspace/demo");
    assert_eq!((header["model"].as_str(), header["version"].as_str()), (Some("copilot-fake"), Some("1.0.102")));
    // Thirteen model requests of 100 tokens in and 20 out, by turn.
    let usage: Vec<Value> = events(&out, EventKind::TurnEnd).iter().map(|e| e["usage"]["inputTokens"].clone()).collect();
    assert_eq!(usage, [json!(400), json!(500), json!(400)]);
}

#[test]
fn refusals_cancels_and_aborts_say_what_the_log_says() {
    let line = |t: &str, data: Value| json!({"type": t, "data": data, "id": "x", "timestamp": "2026-12-04T10:00:00.000Z", "parentId": null});
    let lines = [
        line("session.start", json!({"sessionId": "s", "context": {"cwd": "/w"}})),
        line("user.message", json!({"content": "go"})),
        line("assistant.message", json!({"content": "", "toolRequests": [
            {"toolCallId": "a", "name": "bash", "arguments": {"command": "rm -rf x"}},
            {"toolCallId": "b", "name": "bash", "arguments": {"command": "sleep 9"}},
            {"toolCallId": "c", "name": "view", "arguments": {"path": "/w/x"}},
        ]})),
        line("permission.completed", json!({"toolCallId": "a", "result": {"kind": "denied-interactively-by-user"}})),
        line("tool.execution_complete", json!({"toolCallId": "a", "success": false, "error": {"message": "denied"}})),
        line("tool.execution_complete", json!({"toolCallId": "c", "success": false, "error": {"message": "gone", "code": "failure"}})),
        line("tool.execution_start", json!({"toolCallId": "b", "toolName": "bash"})),
        line("abort", json!({"reason": "user_initiated"})),
        // After the abort: the call was settled by it.
        line("tool.execution_complete", json!({"toolCallId": "b", "success": true, "result": {"content": "late"}})),
    ];
    let mut reader = Reader::default();
    let mut out = Out::new();
    for (i, v) in lines.iter().enumerate() {
        assert!(is_line(v));
        reader.line(v, Origin { line: i + 1, offset: 0 }, &mut out);
    }
    reader.finish(&mut out);
    let results = events(&out, EventKind::ToolResult);
    let by: Vec<(&str, Value, Value)> = results
        .iter()
        .map(|r| (r["message"]["content"][0]["toolCallId"].as_str().unwrap(), r["outcome"].clone(), r["error"]["code"].clone()))
        .collect();
    assert_eq!(
        by,
        [
            ("a", json!("rejected"), Value::Null),
            ("c", Value::Null, json!("failure")),
            ("b", Value::Null, json!("ABORTED")),
        ]
    );
    let end = &events(&out, EventKind::TurnEnd)[0];
    assert_eq!(end["reason"]["kind"], "aborted");
}

#[test]
fn other_agents_lines_are_not_claimed() {
    for v in [
        json!({"type": "user", "message": {"role": "user", "content": "hi"}, "uuid": "u", "sessionId": "s"}),
        json!({"timestamp": "t", "type": "session_meta", "payload": {"id": "x"}}),
        json!({"type": "tool/call", "seq": 1, "time": 0, "data": {}}),
        json!({"id": "i", "timestamp": "t", "type": "user", "content": "hi"}),
        json!({"role": "user", "message": {"content": "hi"}}),
    ] {
        assert!(!is_line(&v), "{v}");
    }
}
