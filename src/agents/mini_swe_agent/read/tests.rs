//! The reader on the real trajectory of mini-swe-agent 2.4.6
//! (`tests/fixtures/agents/mini-swe-agent/tour/`: one run, two tasks, a
//! rejection), on the SWE-agent `.traj` written from its documented format,
//! and on the shapes they hold one at a time; every action of SUMMARY.json
//! with its status and exit code.

use serde_json::{Value, json};

use super::*;
use crate::wire::Record;

const TOUR: &str = include_str!("../../../../tests/fixtures/agents/mini-swe-agent/tour/last_mini_run.traj.json");
const TOUR_SUMMARY: &str = include_str!("../../../../tests/fixtures/agents/mini-swe-agent/tour/SUMMARY.json");
const SWE: &str = include_str!("../../../../tests/fixtures/agents/mini-swe-agent/swe-agent/demo__demo-1.traj");
const SWE_SUMMARY: &str = include_str!("../../../../tests/fixtures/agents/mini-swe-agent/swe-agent/SUMMARY.json");

fn read_doc(doc: &Value) -> Out {
    assert!(is_trajectory(doc));
    let mut reader = Reader::default();
    let mut out = Out::new();
    reader.line(doc, Origin::default(), &mut out);
    reader.finish(&mut out);
    out
}

fn read(text: &str) -> Out {
    read_doc(&serde_json::from_str(text).expect("a JSON document"))
}

/// The events of `kind`, as data.
pub(crate) fn events(out: &Out, kind: EventKind) -> Vec<Value> {
    out.iter()
        .filter_map(|(_, r)| match r {
            Record::Event { event, .. } if event.kind == kind => {
                Some(serde_json::from_str(event.data.as_str()).expect("data"))
            }
            _ => None,
        })
        .collect()
}

fn diagnostics(out: &Out) -> Vec<&Record> {
    out.iter().filter(|(_, r)| matches!(r, Record::Diagnostic(_))).map(|(_, r)| r).collect()
}

fn header(out: &Out) -> Value {
    let h = out.iter().rev().find_map(|(_, r)| match r {
        Record::Frame { payload, .. } => Some(payload.clone()),
        _ => None,
    });
    h.expect("a header")
}

/// Each call of SUMMARY.json is read with its id and tool, and its result
/// with what deck must show: an error flag, `outcome`, exit code.
fn every_call_as_summarised(out: &Out, summary: &str) {
    let summary: Value = serde_json::from_str(summary).unwrap();
    let want = summary[0]["calls"].as_array().unwrap();
    let calls = events(out, EventKind::ToolCall);
    let results = events(out, EventKind::ToolResult);
    assert_eq!(calls.len(), want.len());
    assert_eq!(results.len(), want.len());
    for ((w, c), r) in want.iter().zip(&calls).zip(&results) {
        let id = w["callId"].as_str().unwrap();
        assert_eq!(c["callId"], id);
        assert_eq!(c["name"], w["tool"], "{id}");
        let args: Value = serde_json::from_str(c["arguments"].as_str().unwrap()).unwrap();
        assert_eq!(args["command"], w["command"], "{id}");
        assert_eq!(r["message"]["content"][0]["toolCallId"], id);
        let is_error = r["message"]["content"][0]["isError"].as_bool().unwrap();
        let e = &w["expect"];
        assert_eq!(r.get("exitCode").unwrap_or(&Value::Null), &e["exitCode"], "{id}");
        match e["status"].as_str().unwrap() {
            "ok" | "failed" => assert!(!is_error && r.get("outcome").is_none(), "{id}: {r}"),
            "rejected" => assert!(is_error && r["outcome"] == "rejected", "{id}: {r}"),
            "cancelled" => assert!(is_error && r["error"]["code"] == "ABORTED", "{id}: {r}"),
            "unknown" => assert!(!is_error && r["outcome"] == "unknown", "{id}: {r}"),
            "error" => assert!(is_error, "{id}: {r}"),
            other => panic!("{id}: status {other}"),
        }
    }
}

#[test]
fn the_tour_reads_into_two_turns_and_fourteen_actions() {
    let out = read(TOUR);
    assert!(diagnostics(&out).is_empty(), "{:#?}", diagnostics(&out));
    every_call_as_summarised(&out, TOUR_SUMMARY);
    assert_eq!(events(&out, EventKind::TurnStart).len(), 2);
    // The first turn ends at the new task, completed; the second at the exit.
    let ends = events(&out, EventKind::TurnEnd);
    assert_eq!(ends.len(), 2);
    assert_eq!(ends[0]["reason"]["kind"], "completed");
    assert_eq!(ends[1]["reason"]["kind"], "completed");
    assert_eq!(ends[1]["reason"]["message"], "Submitted");
    // Eleven answers of 100 tokens in, 20 out, then two.
    assert_eq!(ends[0]["usage"]["inputTokens"], 1100);
    assert_eq!(ends[1]["usage"]["outputTokens"], 40);
    // The prompts: the task (in its template) and the new task; the user's
    // refusal in the turn; the exit as context.
    let said = events(&out, EventKind::UserMessage);
    let texts: Vec<&str> = said.iter().map(|d| d["content"][0]["text"].as_str().unwrap()).collect();
    assert!(texts[0].starts_with("Please solve this issue: [msa-1]"), "{}", texts[0]);
    assert!(texts[1].contains("No, keep the README."), "{}", texts[1]);
    assert_eq!(said[1]["turn"], 1);
    assert!(said[1].get("source").is_none());
    assert!(texts[2].starts_with("The user added a new task: [msa-2]"), "{}", texts[2]);
    assert_eq!((texts[3], &said[3]["source"]["kind"]), ("Submitted", &json!("exit")));
    // The model's words before each batch.
    let answers = events(&out, EventKind::AssistantMessage);
    assert_eq!(answers.len(), 13);
    assert_eq!(answers[0]["message"]["content"][0]["text"], "I'll look at the files first.");
    // A result is the command's own output, not the observation template.
    let results = events(&out, EventKind::ToolResult);
    assert_eq!(results[0]["message"]["content"][0]["content"][0]["text"], ".:\nREADME.md\nsrc\n\n./src:\nstats.py\n");
    // The header: the version, the model; no directory (`cwd` is "").
    let h = header(&out);
    assert_eq!(h["agent"], "mini-swe-agent");
    assert_eq!(h["version"], "2.4.6");
    assert_eq!(h["model"], "openai/mini-fake");
    assert!(h.get("cwd").is_none());
}

#[test]
fn the_swe_agent_trajectory_reads_as_steps_of_unknown_outcome() {
    let out = read(SWE);
    assert!(diagnostics(&out).is_empty(), "{:#?}", diagnostics(&out));
    every_call_as_summarised(&out, SWE_SUMMARY);
    let results = events(&out, EventKind::ToolResult);
    assert_eq!(results[0]["durationMs"], 310);
    let prompts = events(&out, EventKind::UserMessage);
    assert!(prompts[0]["content"][0]["text"].as_str().unwrap().contains("<pr_description>"));
    let exit = prompts.last().unwrap();
    assert_eq!(exit["source"]["kind"], "exit");
    assert!(exit["content"][0]["text"].as_str().unwrap().starts_with("submitted\ndiff --git a/src/stats.py"));
    let ends = events(&out, EventKind::TurnEnd);
    assert_eq!(ends.len(), 1);
    assert_eq!(ends[0]["reason"]["kind"], "completed");
    assert_eq!(ends[0]["usage"]["inputTokens"], 10240);
    let h = header(&out);
    assert_eq!((h["id"].as_str(), h["version"].as_str(), h["model"].as_str()), (Some("demo__demo-1"), Some("1.1.0"), Some("gpt-4o")));
}

fn mini(messages: Value) -> Value {
    json!({"info": {"mini_version": "2.4.6"}, "messages": messages, "trajectory_format": "mini-swe-agent-1.1"})
}

fn answer(id: &str, command: &str) -> Value {
    json!({"role": "assistant", "content": "", "extra": {"actions": [{"command": command, "tool_call_id": id}]}})
}

fn not_run(id: &str) -> Value {
    json!({"role": "tool", "tool_call_id": id, "content": "",
           "extra": {"raw_output": "", "returncode": -1, "exception_info": NOT_EXECUTED}})
}

#[test]
fn why_an_action_did_not_run_is_said_by_what_follows_its_batch() {
    let out = read_doc(&mini(json!([
        {"role": "user", "content": "task"},
        answer("a", "sleep 99"),
        {"role": "tool", "tool_call_id": "a", "content": "",
         "extra": {"raw_output": "", "returncode": -1, "exception_info": "An error occurred while executing the command: timed out"}},
        answer("b", "make"),
        not_run("b"),
        {"role": "user", "content": "Interrupted by user: stop", "extra": {"interrupt_type": "UserInterruption"}},
        {"role": "assistant", "content": "", "extra": {"actions": [
            {"command": "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT", "tool_call_id": "c"},
            {"command": "ls", "tool_call_id": "d"}]}},
        not_run("c"),
        not_run("d"),
        {"role": "exit", "content": "", "extra": {"exit_status": "Submitted", "submission": ""}},
    ])));
    let results = events(&out, EventKind::ToolResult);
    let part = |i: usize| &results[i]["message"]["content"][0];
    // A timeout: an error, its -1 no exit code.
    assert_eq!((part(0)["isError"].as_bool(), results[0].get("exitCode")), (Some(true), None));
    assert!(part(0)["content"][0]["text"].as_str().unwrap().contains("timed out"));
    // Interrupted: a cancel.
    assert_eq!(results[1]["error"]["code"], "ABORTED");
    // The submitting command ran; the action after it in the batch did not.
    assert_eq!((part(2)["isError"].as_bool(), &results[2]["meta"]["ended"]), (Some(false), &json!("submitted")));
    assert_eq!((part(3)["isError"].as_bool(), &results[3]["meta"]["ended"]), (Some(true), &json!("not run")));
}

#[test]
fn a_text_based_models_and_a_humans_commands_are_answered_in_order() {
    let out = read_doc(&mini(json!([
        {"role": "user", "content": "task"},
        {"role": "assistant", "content": "```mswea_bash_command\nls\n```", "extra": {"actions": [{"command": "ls"}]}},
        {"role": "user", "content": "<returncode>0</returncode>", "extra": {"raw_output": "a\n", "returncode": 0}},
        {"role": "user", "content": "User command: \n```bash\nfalse\n```", "extra": {"actions": [{"command": "false"}]}},
        {"role": "user", "content": "<returncode>1</returncode>", "extra": {"raw_output": "", "returncode": 1}},
        {"role": "user", "content": "Tool call error", "extra": {"interrupt_type": "FormatError"}},
        {"role": "exit", "content": "boom", "extra": {"exit_status": "RuntimeError", "submission": ""}},
    ])));
    let calls = events(&out, EventKind::ToolCall);
    let ids: Vec<&str> = calls.iter().map(|c| c["callId"].as_str().unwrap()).collect();
    assert_eq!(ids, ["m1.0", "m3.0"]);
    let results = events(&out, EventKind::ToolResult);
    assert_eq!((results[0]["exitCode"].as_i64(), results[1]["exitCode"].as_i64()), (Some(0), Some(1)));
    assert_eq!(results[1]["message"]["content"][0]["toolCallId"], "m3.0");
    let said = events(&out, EventKind::UserMessage);
    assert_eq!(said[2]["source"]["kind"], "format error");
    let ends = events(&out, EventKind::TurnEnd);
    assert_eq!((&ends[0]["reason"]["kind"], &ends[0]["reason"]["message"]), (&json!("error"), &json!("RuntimeError")));
}

#[test]
fn bad_input_is_a_diagnostic_never_a_panic() {
    for doc in [
        json!({"messages": [1, {"role": "tool"}, {"role": "weird"}, {"role": "user", "extra": {"returncode": 0}}], "trajectory_format": "mini-swe-agent-1.1"}),
        json!({"messages": [{"role": "assistant", "extra": {"actions": [{"x": 1}, 3]}}], "info": {"mini_version": 1}, "trajectory_format": "mini-swe-agent-1"}),
        json!({"trajectory": [1, {"action": 3}], "history": [], "info": {"exit_status": 2}, "replay_config": "{not json"}),
    ] {
        let out = read_doc(&doc);
        assert!(!out.is_empty());
    }
    let mut reader = Reader::default();
    let mut out = Out::new();
    reader.line(&json!({"role": "user"}), Origin::default(), &mut out);
    assert_eq!(diagnostics(&out).len(), 1);
}
