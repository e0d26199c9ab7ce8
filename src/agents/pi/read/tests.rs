//! The reader on the real session of pi 0.73.1
//! (`tests/fixtures/agents/pi/tour/`: three runs, `--continue` and
//! `--session`, two branches, eleven calls of which ten on the path).

use serde_json::{Value, json};

use super::*;
use crate::agents::read::Foreign;
use crate::wire::Record;

const TOUR: &str = include_str!("../../../../tests/fixtures/agents/pi/tour/2026-12-04T10-19-52-759Z_01a24091-4836-74ba-9643-b89fe1f6b26a.jsonl");
const SUMMARY: &str = include_str!("../../../../tests/fixtures/agents/pi/tour/SUMMARY.json");

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

fn diagnostics(out: &Out) -> Vec<String> {
    out.iter()
        .filter_map(|(_, r)| match r {
            Record::Diagnostic(d) => Some(d.reason.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn the_path_taken_is_read_and_the_other_branch_said() {
    let out = read(TOUR);
    let summary: Value = serde_json::from_str(SUMMARY).unwrap();
    let want: Vec<&Value> = summary[0]["calls"].as_array().unwrap().iter().filter(|c| c["onPath"] == true).collect();
    // Turn 2 (lines 13-16) is the branch left behind: not drawn, said.
    let diags = diagnostics(&out);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert!(diags[0].contains("from the entry of line 12, lines 13-16 (4 entries: 1 prompt, 1 tool call)"), "{diags:?}");
    assert!(diags[0].contains("last entry (line 30)"), "{diags:?}");
    assert_eq!(events(&out, EventKind::TurnStart).len(), 2);
    assert_eq!(events(&out, EventKind::TurnEnd).len(), 2);
    let calls = events(&out, EventKind::ToolCall);
    let got: Vec<(&str, &str)> = calls.iter().map(|d| (d["callId"].as_str().unwrap(), d["name"].as_str().unwrap())).collect();
    let expected: Vec<(&str, &str)> = want.iter().map(|c| (c["callId"].as_str().unwrap(), c["tool"].as_str().unwrap())).collect();
    assert_eq!(got, expected);
    let results = events(&out, EventKind::ToolResult);
    assert_eq!(results.len(), want.len());
    for (r, w) in results.iter().zip(&want) {
        let part = &r["message"]["content"][0];
        assert_eq!(part["toolCallId"], w["callId"], "{r}");
        assert_eq!(part["isError"] == true, w["status"] == "error", "{r}");
        // The exit code only when the text says it: 2 for `ls missing-dir`, unknown otherwise.
        assert_eq!(r["exitCode"].as_i64(), w["exitCode"].as_i64(), "{r}");
    }
    assert_eq!(results[8]["exitCode"], 2);
    // The edit's listing goes to the presenters.
    assert_eq!(results[5]["meta"]["details"]["firstChangedLine"], 9);
    let header = out.iter().rev().find_map(|(_, r)| match r {
        Record::Frame { payload, .. } => Some(payload.clone()),
        _ => None,
    });
    let header = header.expect("a header");
    assert_eq!((header["agent"].as_str(), header["cwd"].as_str()), (Some("pi"), Some("/workspace/demo")));
    assert_eq!(header["model"], "pi-fake");
    assert!(header["id"].as_str().unwrap().starts_with("01a"), "{header}");
    // The thinking part is reasoning.
    let said = events(&out, EventKind::AssistantMessage);
    assert_eq!(said[0]["message"]["content"][0]["type"], "reasoning");
}

#[test]
fn a_linear_file_has_no_branch_and_an_unknown_parent_is_said() {
    let lines = [
        json!({"type": "session", "version": 3, "id": "s", "timestamp": "2026-01-01T00:00:00Z", "cwd": "/w"}),
        json!({"type": "message", "id": "a", "parentId": null, "timestamp": "2026-01-01T00:00:01Z",
               "message": {"role": "user", "content": "hi"}}),
        json!({"type": "message", "id": "b", "parentId": "a", "timestamp": "2026-01-01T00:00:02Z",
               "message": {"role": "assistant", "content": [{"type": "toolCall", "id": "c1", "name": "bash",
               "arguments": {"command": "true"}}], "stopReason": "toolUse"}}),
        json!({"type": "message", "id": "c", "parentId": "b", "timestamp": "2026-01-01T00:00:03Z",
               "message": {"role": "toolResult", "toolCallId": "c1", "toolName": "bash",
               "content": [{"type": "text", "text": "(no output)"}], "isError": false}}),
    ];
    let text: Vec<String> = lines.iter().map(Value::to_string).collect();
    let out = read(&text.join("\n"));
    assert!(diagnostics(&out).is_empty());
    let results = events(&out, EventKind::ToolResult);
    assert_eq!(results.len(), 1);
    assert!(results[0].get("exitCode").is_none_or(Value::is_null), "{results:?}");
    let mut broken = text.clone();
    broken[3] = broken[3].replace("\"parentId\":\"b\"", "\"parentId\":\"zz\"");
    let out = read(&broken.join("\n"));
    let d = diagnostics(&out);
    assert!(d.iter().any(|r| r.contains("names no entry")), "{d:?}");
}

#[test]
fn exit_codes_only_from_the_text() {
    assert_eq!(exit_code("x\n\nCommand exited with code 2"), Some(2));
    assert_eq!(exit_code("Command exited with code 127"), Some(127));
    assert_eq!(exit_code("a\nb\n"), None);
}

#[test]
fn other_agents_lines_are_not_claimed() {
    for v in [
        json!({"type": "user", "message": {"role": "user", "content": "hi"}, "uuid": "u", "sessionId": "s", "parentUuid": null}),
        json!({"sessionId": "s", "projectHash": "h", "startTime": "t"}),
        json!({"id": "m1", "timestamp": "t", "type": "user", "content": "hi"}),
        json!({"timestamp": "t", "type": "session_meta", "payload": {"id": "x"}}),
        json!({"t": 1, "dir": "in", "msg": {}}),
    ] {
        assert!(!is_line(&v), "{v}");
    }
}

/// Read as the loader reads it (each `message` entry from its text on the
/// decoder's threads and held as text: [`Line`]) or each line as a tree:
/// the same records, the branch said the same.
#[test]
fn held_as_text_or_as_trees_the_same_records() {
    let mut reader = Reader::default();
    let mut out = Out::new();
    let mut as_text = 0;
    for (i, text) in TOUR.lines().enumerate() {
        let origin = Origin { line: i + 1, offset: 0 };
        let line = match Line::parse(text) {
            Some(l) => {
                as_text += 1;
                Foreign::Read {
                    agent: &crate::agents::pi::Pi,
                    line: Box::new(l),
                }
            }
            None => Foreign::Value(serde_json::from_str(text).unwrap()),
        };
        reader.foreign(line, origin, &mut out);
    }
    reader.finish(&mut out);
    assert!(as_text >= 20, "message entries read from their text: {as_text}");
    let described = |out: &Out| -> Vec<String> {
        out.iter()
            .map(|(_, r)| match r {
                Record::Event { event, .. } => format!("{} {}", event.kind.as_str(), event.data.as_str()),
                other => format!("{other:?}"),
            })
            .collect()
    };
    assert_eq!(described(&out), described(&read(TOUR)));
}

#[test]
fn only_message_entries_are_read_from_their_text() {
    let entry = r#"{"type":"message","id":"a","parentId":null,"timestamp":"2026-12-04T10:00:00Z","message":{"role":"user","content":"hi"}}"#;
    let line = Line::parse(entry).expect("a message entry");
    assert_eq!((line.id.as_str(), line.parent.as_deref()), ("a", None));
    let child = entry.replace(r#""parentId":null"#, r#""parentId":"a""#);
    assert_eq!(Line::parse(&child).unwrap().parent.as_deref(), Some("a"));
    for other in [
        // Not a message, no parentId key, a parent that is no id, no
        // timestamp, a duplicate key, Copilot CLI's event.
        entry.replace(r#""type":"message""#, r#""type":"model_change""#),
        entry.replace(r#""parentId":null,"#, ""),
        entry.replace(r#""parentId":null"#, r#""parentId":3"#),
        entry.replace(r#""timestamp":"2026-12-04T10:00:00Z","#, ""),
        entry.replace(r#""id":"a","#, r#""id":"a","id":"b","#),
        r#"{"type":"user.message","id":"a","parentId":null,"timestamp":"t","data":{}}"#.to_string(),
    ] {
        assert!(Line::parse(&other).is_none(), "{other}");
    }
}
