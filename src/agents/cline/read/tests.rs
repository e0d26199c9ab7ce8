//! The reader on the real session of the Cline CLI 3.0.65
//! (`tests/fixtures/agents/cline/tour/`: three turns, two resumes).

use serde_json::Value;

use super::*;
use crate::wire::Record;

pub(crate) const TOUR: &str =
    include_str!("../../../../tests/fixtures/agents/cline/tour/1796379653114_ae203/1796379653114_ae203.messages.json");
const SUMMARY: &str = include_str!("../../../../tests/fixtures/agents/cline/tour/SUMMARY.json");

fn read(text: &str) -> Out {
    let doc: Value = serde_json::from_str(text).expect("a JSON document");
    assert!(is_document(&doc));
    let mut reader = Reader::default();
    let mut out = Out::new();
    reader.line(&doc, Origin::default(), &mut out);
    reader.finish(&mut out);
    out
}

fn events(out: &Out, kind: EventKind) -> Vec<Value> {
    out.iter()
        .filter_map(|(_, r)| match r {
            Record::Event { event, .. } if event.kind == kind => Some(serde_json::from_str(event.data.as_str()).expect("data")),
            _ => None,
        })
        .collect()
}

#[test]
fn the_tour_reads_into_three_turns_and_every_call_of_its_summary() {
    let out = read(TOUR);
    assert!(!out.iter().any(|(_, r)| matches!(r, Record::Diagnostic(_))));
    assert_eq!(events(&out, EventKind::TurnStart).len(), 3);
    let ends = events(&out, EventKind::TurnEnd);
    assert_eq!(ends.len(), 3);
    assert!(ends.iter().all(|d| d["usage"]["inputTokens"].as_u64().is_some()), "{ends:?}");
    let prompts = events(&out, EventKind::UserMessage);
    assert!(prompts[0].to_string().contains("\"[cl-1] Give me a quick tour"), "{:?}", prompts[0]);
    let summary: Value = serde_json::from_str(SUMMARY).unwrap();
    let want = summary[0]["calls"].as_array().unwrap();
    let calls = events(&out, EventKind::ToolCall);
    let results = events(&out, EventKind::ToolResult);
    assert_eq!(calls.len(), want.len());
    assert_eq!(results.len(), want.len());
    for ((c, r), w) in calls.iter().zip(&results).zip(want) {
        assert_eq!(c["callId"], w["callId"]);
        assert_eq!(c["name"], w["tool"]);
        assert_eq!(c["turn"], w["turn"]);
        assert_eq!(r.pointer("/message/content/0/toolCallId"), Some(&w["callId"]), "{r}");
        assert_eq!(r.get("exitCode").unwrap_or(&Value::Null), w.get("exitCode").unwrap_or(&Value::Null), "{r}");
    }
    // The header: the session, the CLI's version, both models that answered.
    let headers: Vec<&Value> = out
        .iter()
        .filter_map(|(_, r)| match r {
            Record::Frame { kind, payload, .. } if kind == "session" => Some(payload),
            _ => None,
        })
        .collect();
    let last = headers.last().unwrap();
    assert_eq!(last["id"], "1796379653114_ae203");
    assert_eq!(last["version"], "3.0.65");
    assert_eq!(last["model"], "gpt-4o");
}

#[test]
fn exit_codes_are_the_texts_or_a_success() {
    let e = |v: &str| serde_json::from_str::<Value>(v).unwrap();
    assert_eq!(entry_exit(&e(r#"{"result": "[Command exited with code 2]\nx", "success": false}"#)), Some(2));
    assert_eq!(entry_exit(&e(r#"{"result": "ok", "success": true}"#)), Some(0));
    assert_eq!(entry_exit(&e(r#"{"result": "", "error": "timed out", "success": false}"#)), None);
    let batch = [e(r#"{"result": "a", "success": true}"#), e(r#"{"result": "[Command exited with code 1]", "success": false}"#)];
    assert_eq!(exit_code(&batch), Some(1));
    assert_eq!(exit_code(&[e(r#"{"success": true}"#), e(r#"{"success": false}"#)]), None);
    assert_eq!(exit_code(&[]), None);
    // A refusal's string is no entry list of the tool's.
    assert_eq!(entries(&Value::from("not json")), None);
}

#[test]
fn bad_documents_never_panic() {
    let doc = r#"{"sessionId": "x", "origin": {"source": "cli"}, "messages": [1, {"role": "user"}, {"role": "assistant", "content": [{"type": "tool_use"}]}, {"role": "user", "content": [{"type": "tool_result", "content": 5}]}]}"#;
    let out = read(doc);
    assert!(out.iter().any(|(_, r)| matches!(r, Record::Diagnostic(_))));
}
