//! The reader on the real database of OpenCode 1.18.33
//! (`tests/fixtures/agents/opencode/tour/opencode.db`: three runs of one
//! session — `--continue`, `--session` — eleven calls), and on rows made
//! here for what the tour does not hold (a second session, an aborted
//! response, a part of a kind it does not draw).

use std::path::Path;

use serde_json::{Value, json};

use super::*;
use crate::wire::Record;

fn tour_rows() -> Vec<Value> {
    let db = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/agents/opencode/tour/opencode.db");
    let mut rows = Vec::new();
    super::super::store::rows(&db, &mut |v| rows.push(v)).expect("OpenCode's").expect("read");
    rows
}

fn read(rows: &[Value]) -> Out {
    let mut reader = Reader::default();
    let mut out = Out::new();
    for (i, v) in rows.iter().enumerate() {
        reader.line(v, Origin { line: i + 1, offset: 0 }, &mut out);
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
fn the_tour_reads_into_three_turns_and_eleven_calls() {
    let out = read(&tour_rows());
    assert!(!out.iter().any(|(_, r)| matches!(r, Record::Diagnostic(_))));
    let sessions: std::collections::BTreeSet<_> = out.iter().map(|(s, _)| s.clone()).collect();
    assert_eq!(sessions.len(), 1, "one session, every record in it");
    assert_eq!(events(&out, EventKind::TurnStart).len(), 3);
    let ends = events(&out, EventKind::TurnEnd);
    assert_eq!(ends.len(), 3);
    assert!(ends.iter().all(|e| e["reason"]["kind"] == "completed"), "{ends:?}");
    // Each turn's usage: its responses' tokens summed (100 in, 20 out each).
    assert_eq!(ends[0]["usage"]["inputTokens"], 400, "{:?}", ends[0]);
    let prompts = events(&out, EventKind::UserMessage);
    let first = prompts[0]["content"][0]["text"].as_str().unwrap();
    assert!(first.starts_with("\"[oc-1] Give me a quick tour"), "as stored, in its quotes: {first}");
    let titles = events(&out, EventKind::SessionTitle);
    assert_eq!(titles[0]["title"], "Tour of the stats helpers");
    let calls = events(&out, EventKind::ToolCall);
    let names: Vec<&str> = calls.iter().map(|d| d["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["read", "glob", "grep", "read", "read", "edit", "write", "bash", "webfetch", "bash", "bash"]);
    let results = events(&out, EventKind::ToolResult);
    let ends: Vec<(Option<i64>, bool, Option<i64>)> = results
        .iter()
        .map(|r| (r["exitCode"].as_i64(), r["message"]["content"][0]["isError"] == true, r["durationMs"].as_i64()))
        .collect();
    assert_eq!(
        ends,
        [
            (None, false, Some(62)),
            (None, false, Some(136)),
            (None, false, Some(135)),
            (None, false, Some(162)),
            (None, false, Some(31)),
            (None, false, Some(78)),
            (None, false, Some(39)),
            (Some(0), false, Some(1407)),
            (None, true, Some(28)),
            (Some(2), false, Some(373)),
            (Some(0), false, Some(147)),
        ]
    );
    // The offline fetch's error is an error, not a cancel.
    assert!(results[8].get("error").is_none(), "{:?}", results[8]);
    let header = out.iter().rev().find_map(|(_, r)| match r {
        Record::Frame { payload, .. } => Some(payload.clone()),
        _ => None,
    });
    let header = header.expect("a header");
    assert_eq!((header["agent"].as_str(), header["cwd"].as_str()), (Some("opencode"), Some("/workspace/demo")));
    assert_eq!(header["model"], "fake/fake-model");
    assert_eq!(header["version"], "1.18.33");
}

fn session(id: &str) -> Value {
    json!({"opencode": "session", "id": id, "directory": "/w", "title": "t", "time_created": 1000})
}

fn message(id: &str, session: &str, data: Value) -> Value {
    json!({"opencode": "message", "id": id, "session_id": session, "time_created": 2000, "data": data})
}

fn part(message: &str, data: Value) -> Value {
    json!({"opencode": "part", "id": "p", "message_id": message, "data": data})
}

#[test]
fn sessions_each_their_own_a_cancel_no_error_and_nothing_lost() {
    let rows = [
        session("s1"),
        message("m1", "s1", json!({"role": "user"})),
        part("m1", json!({"type": "text", "text": "go"})),
        part("m1", json!({"type": "text", "text": "ctx", "synthetic": true})),
        message("m2", "s1", json!({"role": "assistant", "error": {"name": "MessageAbortedError", "data": {"message": "Aborted"}}})),
        part("m2", json!({"type": "tool", "tool": "bash", "callID": "c1",
            "state": {"status": "error", "input": {"command": "sleep 9"}, "error": "Tool execution aborted",
                      "time": {"start": 2100, "end": 2500}}})),
        part("m2", json!({"type": "tool", "tool": "read", "callID": "c2",
            "state": {"status": "running", "input": {"filePath": "/w/a"}, "time": {"start": 2200}}})),
        part("m2", json!({"type": "subtask", "prompt": "x"})),
        session("s2"),
        message("m3", "s2", json!({"role": "user"})),
        part("m3", json!({"type": "text", "text": "again"})),
        message("m4", "s2", json!({"role": "assistant", "error": {"name": "APIError", "data": {"message": "rate limited"}}})),
    ];
    let out = read(&rows);
    let of = |s: &str| out.iter().filter(|(id, _)| id.as_deref() == Some(s)).count();
    assert!(of("s1") > 0 && of("s2") > 0);
    // The synthetic part is no part of the prompt.
    let prompts = events(&out, EventKind::UserMessage);
    assert_eq!(prompts[0]["content"][0]["text"], "go");
    // The aborted tool: a cancel, with its duration.
    let results = events(&out, EventKind::ToolResult);
    assert_eq!(results.len(), 1, "the running read has no result");
    assert_eq!(results[0]["error"]["code"], "ABORTED");
    assert_eq!(results[0]["durationMs"], 400);
    // s1's turn waits on its running call; s2's ends in its error.
    let ends = events(&out, EventKind::TurnEnd);
    assert_eq!(ends.len(), 1, "{ends:?}");
    assert_eq!((ends[0]["reason"]["kind"].as_str(), ends[0]["reason"]["message"].as_str()), (Some("error"), Some("rate limited")));
    // The part it does not draw is said.
    let said: Vec<&str> = out
        .iter()
        .filter_map(|(_, r)| match r {
            Record::Diagnostic(d) => Some(d.reason.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(said, ["an OpenCode part of type \"subtask\": not drawn"]);
}

#[test]
fn an_aborted_response_ends_its_turn_aborted() {
    let rows = [
        session("s"),
        message("m1", "s", json!({"role": "user"})),
        part("m1", json!({"type": "text", "text": "go"})),
        message("m2", "s", json!({"role": "assistant", "error": {"name": "MessageAbortedError"}})),
        part("m2", json!({"type": "text", "text": "Start"})),
    ];
    let ends = events(&read(&rows), EventKind::TurnEnd);
    assert_eq!(ends[0]["reason"]["kind"], "aborted");
}
