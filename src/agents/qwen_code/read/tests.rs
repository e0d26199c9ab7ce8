//! The reader on the real session of Qwen Code 0.24.4
//! (`tests/fixtures/agents/qwen-code/tour/`: three runs, `--continue` and
//! `--resume`, twelve calls).

use serde_json::{Value, json};

use super::*;
use crate::wire::Record;

const TOUR: &str =
    include_str!("../../../../tests/fixtures/agents/qwen-code/tour/df671d1b-87bf-4e39-814f-4fc91be8dc0e.jsonl");

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
    assert_eq!(events(&out, EventKind::TurnEnd).len(), 3);
    let calls = events(&out, EventKind::ToolCall);
    let names: Vec<&str> = calls.iter().map(|d| d["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "list_directory", "glob", "grep_search", "read_file", "read_file", "edit", "write_file",
            "run_shell_command", "tool_search", "web_fetch", "run_shell_command", "run_shell_command"
        ]
    );
    // The deferred call is the tool it ran, with its own arguments.
    let fetch: Value = serde_json::from_str(calls[9]["arguments"].as_str().unwrap()).unwrap();
    assert!(fetch["url"].as_str().unwrap().starts_with("http://127.0.0.1:47319/"), "{fetch}");
    let results = events(&out, EventKind::ToolResult);
    assert_eq!(results.len(), 12);
    // Exit codes and durations, as its lines say them.
    let shell: Vec<(Option<i64>, bool)> = [7, 10, 11]
        .iter()
        .map(|&i| (results[i]["exitCode"].as_i64(), results[i]["message"]["content"][0]["isError"] == true))
        .collect();
    assert_eq!(shell, [(Some(0), false), (Some(2), true), (Some(0), false)]);
    assert!(results.iter().all(|r| r["durationMs"].as_i64().is_some()), "{results:?}");
    assert_eq!(results[0]["durationMs"], 42);
    assert_eq!(results[9]["message"]["content"][0]["isError"], true);
    let header = out.iter().rev().find_map(|(_, r)| match r {
        Record::Frame { payload, .. } => Some(payload.clone()),
        _ => None,
    });
    let header = header.expect("a header");
    assert_eq!((header["agent"].as_str(), header["cwd"].as_str()), (Some("qwen-code"), Some("/workspace/demo")));
    assert_eq!(header["model"], "qwen-fake");
}

#[test]
fn other_agents_lines_are_not_claimed() {
    for v in [
        json!({"type": "user", "message": {"role": "user", "content": "hi"}, "uuid": "u", "sessionId": "s"}),
        json!({"sessionId": "s", "projectHash": "h", "startTime": "t"}),
        json!({"timestamp": "t", "type": "session_meta", "payload": {"id": "x"}}),
    ] {
        assert!(!is_line(&v), "{v}");
    }
}
