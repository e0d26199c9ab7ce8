//! The reader on the tour fixture (`tests/fixtures/agents/atif/tour/`,
//! written from the ATIF v1.4 RFC, not produced by a Harbor run).

use serde_json::{Value, json};

use super::*;
use crate::wire::Record;

const TOUR: &str = include_str!("../../../../tests/fixtures/agents/atif/tour/trajectory.json");
const SUMMARY: &str = include_str!("../../../../tests/fixtures/agents/atif/tour/SUMMARY.json");

fn read_lines(lines: &[Value]) -> Out {
    let mut reader = Reader::default();
    let mut out = Out::new();
    for l in lines {
        reader.line(l, Origin::default(), &mut out);
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
fn the_tour_reads_into_two_turns_and_every_call_with_an_unknown_outcome() {
    let doc: Value = serde_json::from_str(TOUR).unwrap();
    let out = read_lines(&lines(&doc).expect("a trajectory"));
    assert!(!out.iter().any(|(_, r)| matches!(r, Record::Diagnostic(_))));
    let header = out.iter().rev().find_map(|(_, r)| match r {
        Record::Frame { kind, payload, .. } if kind == "session" => Some(payload.clone()),
        _ => None,
    });
    let header = header.unwrap();
    assert_eq!((header["agent"].as_str(), header["agentName"].as_str()), (Some("atif"), Some("claude-code")));
    assert_eq!(header["model"], "claude-sonnet-4-5");
    assert_eq!(events(&out, EventKind::TurnStart).len(), 2);
    let ends = events(&out, EventKind::TurnEnd);
    assert_eq!(ends.len(), 2);
    // 4120 + 4610 + 5020 + 5300 + 5420 prompt tokens, 17408 of them cached.
    assert_eq!(ends[0]["usage"]["inputTokens"], 24470 - 17408);
    let summary: Value = serde_json::from_str(SUMMARY).unwrap();
    let want: Vec<(&str, &str)> = summary[0]["calls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["callId"].as_str().unwrap(), c["tool"].as_str().unwrap()))
        .collect();
    let calls = events(&out, EventKind::ToolCall);
    let got: Vec<(&str, &str)> =
        calls.iter().map(|c| (c["callId"].as_str().unwrap(), c["name"].as_str().unwrap())).collect();
    assert_eq!(got, want);
    let results = events(&out, EventKind::ToolResult);
    assert_eq!(results.len(), want.len());
    assert!(results.iter().all(|r| r["outcome"] == "unknown" && r["message"]["content"][0]["isError"] == false));
    // Times are the steps' own.
    assert!(out.iter().all(|(_, r)| match r {
        Record::Event { event, .. } => event.time == 0 || event.time >= epoch_ms("2026-12-04T11:00:00Z").unwrap(),
        _ => true,
    }));
}

#[test]
fn a_trajectory_on_one_line_and_lines_that_are_neither() {
    let doc = json!({"schema_version": "ATIF-v1.6", "session_id": "s", "agent": {"name": "x", "version": "1"},
        "steps": [{"step_id": 1, "source": "user", "message": [{"type": "text", "text": "hi"}]},
                  {"step_id": 2, "source": "robot", "message": ""}]});
    assert!(crate::agents::Agent::claims(&crate::agents::atif::Atif, &doc));
    assert!(lines(&json!({"schema_version": "ATIF-v1.4"})).is_none());
    let out = read_lines(&[doc, json!({"nope": 1})]);
    let prompts = events(&out, EventKind::UserMessage);
    assert_eq!(prompts[0]["content"][0]["text"], "hi");
    assert_eq!(out.iter().filter(|(_, r)| matches!(r, Record::Diagnostic(_))).count(), 2);
}
