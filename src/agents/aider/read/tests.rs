//! The reader on the real history of aider 0.86.2
//! (`tests/fixtures/agents/aider/tour/`: four runs, one file; two edits, a
//! `/run`, a failing `/test`, a question after `--restore-chat-history`),
//! against the calls its SUMMARY.json lists.

use serde_json::Value;

use super::*;
use crate::wire::Record;

const TOUR: &str = include_str!("../../../../tests/fixtures/agents/aider/tour/.aider.chat.history.md");
const SUMMARY: &str = include_str!("../../../../tests/fixtures/agents/aider/tour/SUMMARY.json");

/// The file read line by line, each as the loader hands it (a JSON string).
pub(crate) fn read(text: &str) -> Out {
    let mut reader = Reader::default();
    let mut out = Out::new();
    for (i, line) in text.split('\n').enumerate() {
        reader.line(&Value::String(line.to_string()), Origin { line: i + 1, offset: 0 }, &mut out);
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
fn every_call_of_the_summary_is_read_with_its_tool_and_how_it_ended() {
    let out = read(TOUR);
    assert!(!out.iter().any(|(_, r)| matches!(r, Record::Diagnostic(_))), "{out:#?}");
    let summary: Value = serde_json::from_str(SUMMARY).unwrap();
    let want = summary["calls"].as_array().unwrap();
    let calls = events(&out, EventKind::ToolCall);
    let results = events(&out, EventKind::ToolResult);
    let ids = |v: &[Value], key: &str| -> Vec<String> { v.iter().map(|c| c[key].as_str().unwrap_or("").to_string()).collect() };
    assert_eq!(ids(&calls, "callId"), ids(want, "callId"));
    assert_eq!(ids(&calls, "name"), ids(want, "tool"));
    assert_eq!(results.len(), want.len());
    for w in want {
        let id = w["callId"].as_str().unwrap();
        let r = results
            .iter()
            .find(|r| r["message"]["content"][0]["toolCallId"] == id)
            .unwrap_or_else(|| panic!("no result for {id}"));
        let got = match (r["message"]["content"][0]["isError"].as_bool(), r["outcome"].as_str()) {
            (_, Some("unknown")) => "unknown",
            (Some(true), _) => "error",
            _ => "ok",
        };
        assert_eq!(got, w["status"], "{id}: {r}");
        // No exit code is ever said.
        assert!(r.get("exitCode").is_none(), "{r}");
        assert_eq!(r["meta"]["outputLines"].as_u64(), w["outputLines"].as_u64(), "{id}");
    }
    // The edits' files and texts, the new one said created.
    let args: Vec<Value> = calls.iter().map(|c| serde_json::from_str(c["arguments"].as_str().unwrap()).unwrap()).collect();
    assert_eq!(args[0]["path"], "src/stats.py");
    assert_eq!(args[0]["search"], "def spread(xs):\n    return max(xs) - min(xs)");
    assert!(args[0]["replace"].as_str().unwrap().contains("if not xs:"));
    assert_eq!((args[1]["path"].as_str(), args[1]["search"].as_str()), (Some("src/test_stats.py"), Some("")));
    assert_eq!(args[2]["command"], "python3 -m unittest discover -s src -v");
    assert_eq!(args[3]["command"], "ls missing-dir");
    let created: Vec<bool> = results.iter().map(|r| r["meta"]["created"] == true).collect();
    assert_eq!(created, [true, false, false, false], "results in the order aider applied them");
}

#[test]
fn one_session_its_runs_turns_prompts_answers_and_header() {
    let out = read(TOUR);
    let sessions: std::collections::BTreeSet<_> = out.iter().map(|(s, _)| s.clone()).collect();
    assert_eq!(sessions.len(), 1, "one session for the file");
    assert_eq!(sessions.first().cloned().flatten().as_deref(), Some("aider-20261204-102139"));
    let prompts = events(&out, EventKind::UserMessage);
    let texts: Vec<&str> = prompts.iter().map(|p| p["content"][0]["text"].as_str().unwrap()).collect();
    assert_eq!(
        texts,
        [
            "[ad-1] Make spread() return 0 for an empty list, and add a test file for the helpers.",
            "/run python3 -m unittest discover -s src -v",
            "/test ls missing-dir",
            "[ad-4] What does median() return for an even number of values?",
        ]
    );
    assert_eq!(events(&out, EventKind::TurnStart).len(), 4);
    let ends = events(&out, EventKind::TurnEnd);
    assert_eq!(ends.len(), 4);
    // `Tokens: 2.6k sent, 236 received.`: only the exact count is taken.
    assert_eq!(ends[0]["usage"]["outputTokens"], 236);
    assert!(ends[0]["usage"].get("inputTokens").is_none(), "{}", ends[0]);
    // The answers' text without their edit blocks; aider's own words quoted.
    let said: Vec<String> = events(&out, EventKind::AssistantMessage)
        .iter()
        .map(|m| m["message"]["content"][0]["text"].as_str().unwrap().to_string())
        .collect();
    assert!(said[0].starts_with("I'll make `spread()` return 0"), "{said:#?}");
    assert!(!said.iter().any(|s| s.contains("<<<<<<< SEARCH")), "{said:#?}");
    assert!(said.iter().any(|s| s.contains("> Commit c6631ef fix: ")), "{said:#?}");
    assert!(said.last().unwrap().starts_with("For an even number of values"), "{said:#?}");
    assert!(out.iter().all(|(_, r)| r.seq().is_none() || !matches!(r, Record::Event { event, .. } if event.time != 0)));
    let header = out.iter().rev().find_map(|(_, r)| match r {
        Record::Frame { payload, .. } => Some(payload.clone()),
        _ => None,
    });
    let header = header.expect("a header");
    assert_eq!(header["agent"], "aider");
    assert_eq!((header["version"].as_str(), header["model"].as_str()), (Some("0.86.2"), Some("openai/aider-fake")));
}

#[test]
fn odd_input_is_said_not_read_and_an_unfinished_run_ends() {
    let mut reader = Reader::default();
    let mut out = Out::new();
    let o = |line| Origin { line, offset: 0 };
    reader.line(&Value::from("stray text"), o(1), &mut out);
    reader.line(&Value::from(7), o(2), &mut out);
    assert_eq!(out.iter().filter(|(_, r)| matches!(r, Record::Diagnostic(_))).count(), 2);
    for (i, l) in ["# aider chat started at 2026-01-02 03:04:05", "#### fix it", "#### please  ", "", "a.py", "<<<<<<< SEARCH", "x"]
        .iter()
        .enumerate()
    {
        reader.line(&Value::from(*l), o(i + 3), &mut out);
    }
    reader.finish(&mut out);
    let prompts = events(&out, EventKind::UserMessage);
    assert_eq!(prompts[0]["content"][0]["text"], "fix it\nplease");
    // The block never closed: text, no call.
    assert!(events(&out, EventKind::ToolCall).is_empty());
    assert_eq!(events(&out, EventKind::TurnEnd).len(), 1);
}

#[test]
fn token_counts_are_taken_when_exact() {
    assert_eq!(tokens("Tokens: 2.6k sent, 236 received."), Some([None, Some(236), None, None]));
    assert_eq!(
        tokens("Tokens: 512 sent, 1.2k received. Cost: $0.01 message, $0.02 session."),
        Some([Some(512), None, None, None])
    );
    assert_eq!(tokens("Token: x"), None);
    assert_eq!(added_lines("Added 1 line of output to the chat."), Some(1));
    assert_eq!(added_lines("Added 8 lines of output to the chat."), Some(8));
    assert_eq!(added_lines("Added src/a.py to the chat."), None);
}
