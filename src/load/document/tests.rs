//! The documents read as a stream give the records the whole tree gives.

use serde_json::Value;

use crate::agents::read::Out;
use crate::load::load_bytes;
use crate::wire::{Origin, Record};

fn fixture(rel: &str) -> String {
    let path = format!("{}/tests/fixtures/agents/{rel}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The records, each as text (the data of events as trees).
fn described(records: &[Record]) -> Vec<String> {
    records
        .iter()
        .map(|r| match r {
            Record::Event { event, .. } => {
                let data: Value = serde_json::from_str(event.data.as_str()).unwrap();
                format!("{} {data}", event.kind.as_str())
            }
            other => format!("{other:?}"),
        })
        .collect()
}

/// The document read whole, as one tree: the reader given the whole tree
/// as one line when it takes it so (Cline's, a task's history), else its
/// members, then each entry of `key`.
fn whole(agent: &'static dyn crate::agents::Agent, text: &str, key: Option<&str>) -> Vec<Record> {
    let doc: Value = serde_json::from_str(text).unwrap();
    let mut reader = agent.reader().unwrap();
    let mut out = Out::new();
    let origin = Origin::default();
    match key {
        None => reader.line(&doc, origin, &mut out),
        Some(key) => {
            let mut root = doc.as_object().unwrap().clone();
            let entries = root.shift_remove(key).unwrap();
            reader.line(&Value::Object(root), origin, &mut out);
            for e in entries.as_array().unwrap() {
                reader.line(e, origin, &mut out);
            }
        }
    }
    reader.finish(&mut out);
    out.into_iter().map(|(_, r)| r).collect()
}

#[test]
fn documents_read_as_a_stream_or_whole_the_same_records() {
    use crate::agents::{atif, cline, cline_tasks, gemini_cli, mini_swe_agent};
    let cases: [(&str, &'static dyn crate::agents::Agent, Option<&str>); 5] = [
        ("cline/tour/1796379653114_ae203/1796379653114_ae203.messages.json", &cline::Cline, None),
        // Its results held until the message after their batch.
        ("mini-swe-agent/tour/last_mini_run.traj.json", &mini_swe_agent::MiniSweAgent, None),
        ("cline-tasks/tour/1750000000000/api_conversation_history.json", &cline_tasks::ClineTasks, None),
        ("atif/tour/trajectory.json", &atif::Atif, Some("steps")),
        ("gemini-cli/legacy-json/session-2026-12-04T07-53-d55bd5df.json", &gemini_cli::GeminiCli, Some("messages")),
    ];
    for (rel, agent, key) in cases {
        let text = fixture(rel);
        let loaded = load_bytes(rel, text.as_bytes()).unwrap();
        assert_eq!(loaded.format, agent.format(), "{rel}");
        let streamed: Vec<Record> = loaded.sessions.iter().flat_map(|s| s.records.clone()).collect();
        let streamed = described(&streamed);
        assert!(streamed.len() > 10, "{rel}: {streamed:#?}");
        assert!(!streamed.iter().any(|r| r.starts_with("Diagnostic")), "{rel}: {streamed:#?}");
        let want = described(&whole(agent, &text, key));
        assert_eq!(streamed, want, "{rel}");
    }
}

/// The document is checked before anything is read from it: a broken
/// one is not half read as a session, but reported whole.
#[test]
fn a_broken_document_is_not_streamed() {
    let text = fixture("atif/tour/trajectory.json");
    let cut = &text[..text.len() / 2];
    let loaded = load_bytes("cut.json", cut.as_bytes());
    let tool_calls = loaded
        .iter()
        .flat_map(|l| &l.sessions)
        .flat_map(|s| &s.records)
        .filter(|r| matches!(r, Record::Event { event, .. } if event.kind.as_str() == "tool/call"))
        .count();
    assert_eq!(tool_calls, 0);
}
