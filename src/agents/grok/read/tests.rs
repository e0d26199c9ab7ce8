//! The reader on the tour fixture (`tests/fixtures/agents/grok/tour/`,
//! written from the documented format, not captured from a run) and on the
//! shapes it holds one at a time.

use serde_json::{Value, json};

use super::*;
use crate::wire::EventKind;

const TOUR: &str = include_str!("../../../../tests/fixtures/agents/grok/tour/updates.jsonl");
const SUMMARY: &str = include_str!("../../../../tests/fixtures/agents/grok/tour/SUMMARY.json");

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
fn the_tour_reads_into_two_turns_and_every_call_of_its_summary() {
    let out = read(TOUR);
    let diagnostics: Vec<_> = out.iter().filter(|(_, r)| matches!(r, Record::Diagnostic(_))).collect();
    assert!(diagnostics.is_empty(), "{diagnostics:#?}");
    let header = out.iter().find_map(|(_, r)| match r {
        Record::Frame { kind, payload, .. } if kind == "session" => Some(payload.clone()),
        _ => None,
    });
    let header = header.expect("a header");
    assert_eq!(header["agent"], "grok");
    assert_eq!(header["id"], "019ae6c2-5d10-7a3e-9c41-2f7b8e0d4a16");
    assert_eq!(header["model"], "grok-code-fast-1");
    let starts = events(&out, EventKind::TurnStart);
    assert_eq!(starts.len(), 2);
    let prompts = events(&out, EventKind::UserMessage);
    assert!(prompts[1]["content"][0]["text"].as_str().unwrap().starts_with("Now list missing-dir"));
    let ends = events(&out, EventKind::TurnEnd);
    assert_eq!(ends.len(), 2);
    assert_eq!(ends[0]["reason"]["kind"], "completed");
    // 41230 in all, 30720 of them read from the cache.
    assert_eq!(ends[0]["usage"]["inputTokens"], 10510);
    assert_eq!(ends[0]["usage"]["cacheReadTokens"], 30720);
    let summary: Value = serde_json::from_str(SUMMARY).unwrap();
    let want = summary[0]["calls"].as_array().unwrap();
    let calls = events(&out, EventKind::ToolCall);
    let got: Vec<(&str, &str)> = calls.iter().map(|c| (c["callId"].as_str().unwrap(), c["name"].as_str().unwrap())).collect();
    let wanted: Vec<(&str, &str)> =
        want.iter().map(|c| (c["callId"].as_str().unwrap(), c["tool"].as_str().unwrap())).collect();
    assert_eq!(got, wanted);
    let results = events(&out, EventKind::ToolResult);
    assert_eq!(results.len(), want.len());
    for (r, w) in results.iter().zip(want) {
        let part = &r["message"]["content"][0];
        assert_eq!(part["toolCallId"], w["callId"], "{r}");
        let failed = w["status"] == "failed";
        assert_eq!(part["isError"].as_bool().unwrap_or(false), failed, "{r}");
    }
    // Times are the lines' own (epoch ms, from 2026-12-04T10:00:00Z).
    assert!(out.iter().all(|(_, r)| match r {
        Record::Event { event, .. } => event.time >= 1_796_378_400_000,
        _ => true,
    }));
}

#[test]
fn a_legacy_bare_line_an_error_turn_and_a_line_without_update() {
    let sid = "s1";
    let lines = [
        json!({"sessionId": sid, "update": {"sessionUpdate": "user_message_chunk", "content": {"type": "text", "text": "hi"}}}),
        json!({"timestamp": 2, "method": "session/update", "params": {"sessionId": sid, "update": {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": "…"}}}}),
        json!({"timestamp": 3, "method": "_x.ai/session/update", "params": {"sessionId": sid, "update": {"sessionUpdate": "turn_completed", "prompt_id": "p", "stop_reason": "error", "agent_result": "model not found"}}}),
        json!({"timestamp": 4, "method": "session/update", "params": {"sessionId": sid}}),
    ];
    assert!(lines[..3].iter().all(is_line));
    assert!(!is_line(&lines[3]));
    assert!(!is_line(&json!({"t": 1, "dir": "agent->client", "msg": {"jsonrpc": "2.0"}})));
    let mut reader = Reader::default();
    let mut out = Out::new();
    for (i, l) in lines.iter().enumerate() {
        reader.line(l, Origin { line: i + 1, offset: 0 }, &mut out);
    }
    reader.finish(&mut out);
    let ends = events(&out, EventKind::TurnEnd);
    assert_eq!(ends[0]["reason"]["kind"], "error");
    assert_eq!(ends[0]["reason"]["message"], "model not found");
    assert_eq!(out.iter().filter(|(_, r)| matches!(r, Record::Diagnostic(_))).count(), 1);
}

/// `text` read as the loader reads it (each line from its text on the
/// decoder's threads, outputs kept as text: [`Line`]), and how many
/// outputs were kept so.
fn read_from_text(text: &str) -> (Out, usize) {
    let mut reader = Reader::default();
    let mut out = Out::new();
    let mut kept = 0;
    for (i, text) in text.lines().enumerate() {
        let line = Line::parse(text).unwrap_or_else(|| panic!("line {} read from its text", i + 1));
        kept += usize::from(line.raw_output.is_some());
        let line = Foreign::Read {
            agent: &crate::agents::grok::Grok,
            line: Box::new(line),
        };
        reader.foreign(line, Origin { line: i + 1, offset: 0 }, &mut out);
    }
    reader.finish(&mut out);
    (out, kept)
}

/// The records as trees (a kept output is written last in its call: the
/// same data, in another order).
fn as_trees(out: &Out) -> Vec<Value> {
    out.iter()
        .map(|(_, r)| match r {
            Record::Event { event, .. } => {
                json!({"kind": event.kind.as_str(), "data": serde_json::from_str::<Value>(event.data.as_str()).unwrap()})
            }
            other => json!(format!("{other:?}")),
        })
        .collect()
}

/// Read from the text or as a tree, the same records, line for line: the
/// tour, and a call whose output is text alone (the result's text).
#[test]
fn read_from_the_text_or_as_a_tree_the_same_records() {
    let (out, kept) = read_from_text(TOUR);
    assert!(kept >= 8, "outputs kept as text: {kept}");
    assert_eq!(as_trees(&out), as_trees(&read(TOUR)));
    let text_output = [
        r#"{"timestamp":1,"method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"go"},"_meta":{"promptIndex":0}}}}"#,
        r#"{"timestamp":2,"method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"c","title":"run","kind":"execute","status":"pending","rawInput":{"command":"false"}}}}"#,
        r#"{"timestamp":3,"method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"c","status":"failed","rawOutput":"Exited with code 1\n\u00e9"}}}"#,
    ]
    .join("\n");
    let (out, kept) = read_from_text(&text_output);
    assert_eq!(kept, 1);
    assert_eq!(as_trees(&out), as_trees(&read(&text_output)));
    let results = events(&out, EventKind::ToolResult);
    assert_eq!(results[0]["message"]["content"][0]["content"][0]["text"], "Exited with code 1\n\u{e9}", "{}", results[0]);
}

#[test]
fn a_line_read_from_its_text_keeps_its_output_apart() {
    let output = r#"{"type":"ReadFile","FileContent":{"content":"a\u00e9\n\"b\""}}"#;
    let update = format!(r#"{{"sessionUpdate":"tool_call_update","toolCallId":"c","status":"completed","rawOutput":{output}}}"#);
    let enveloped = format!(r#"{{"timestamp":1,"method":"session/update","params":{{"sessionId":"s","update":{update}}}}}"#);
    let bare = format!(r#"{{"sessionId":"s","update":{update}}}"#);
    for text in [&enveloped, &bare] {
        let line = Line::parse(text).expect(text);
        assert_eq!(line.raw_output.as_ref().map(|r| r.get()), Some(output), "{text}");
        let mut whole: Value = serde_json::from_str(text).unwrap();
        let u = match whole.get("params").is_some() {
            true => &mut whole["params"]["update"],
            false => &mut whole["update"],
        };
        u.as_object_mut().unwrap().shift_remove("rawOutput");
        assert_eq!(line.value, whole, "{text}");
    }
    // An envelope whose line also has an `update` of its own: that one's
    // output stays in its tree; the params' is kept apart.
    let odd = format!(r#"{{"method":"session/update","update":{{"rawOutput":[1]}},"params":{{"sessionId":"s","update":{update}}}}}"#);
    let line = Line::parse(&odd).expect("odd");
    assert_eq!(line.raw_output.as_ref().map(|r| r.get()), Some(output));
    assert_eq!(line.value["update"]["rawOutput"], json!([1]));
}

#[test]
fn other_lines_are_not_read_from_their_text() {
    for text in [
        // An ACP trace line (deck acp's recording), a DSH frame, a params
        // that is not an object, an update that is not one, not JSON.
        r#"{"t":1,"dir":"agent->client","msg":{"method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","rawOutput":1}}}}"#,
        r#"{"type":"event","seq":1,"sessionUpdate":"x"}"#,
        r#"{"method":"session/update","params":"sessionUpdate"}"#,
        r#"{"method":"session/update","params":{"sessionId":"s","update":"sessionUpdate"}}"#,
        r#"{"method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"x"}}"#,
        r#"{"method":"other","params":{"sessionId":"s","update":{"sessionUpdate":"x"}}}"#,
    ] {
        assert!(Line::parse(text).is_none(), "{text}");
    }
}
