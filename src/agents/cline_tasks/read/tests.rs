//! The reader on the tour (`tests/fixtures/agents/cline-tasks/tour/`,
//! hand-written from the extensions' source: the tags' protocol, three
//! prompts, one resume) and on native tool calls.

use serde_json::Value;

use super::*;
use crate::wire::Record;

pub(crate) const TOUR: &str =
    include_str!("../../../../tests/fixtures/agents/cline-tasks/tour/1750000000000/api_conversation_history.json");

fn read(text: &str) -> Out {
    let doc: Value = serde_json::from_str(text).expect("a JSON document");
    assert!(is_history(&doc));
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

/// A result's error flag, exit code, outcome and error code.
type Outcome<'a> = (bool, Option<i64>, Option<&'a str>, Option<&'a str>);

#[test]
fn the_tour_reads_into_three_turns_and_every_call_with_what_its_result_says() {
    let out = read(TOUR);
    assert!(!out.iter().any(|(_, r)| matches!(r, Record::Diagnostic(_))));
    let prompts: Vec<String> = events(&out, EventKind::UserMessage).iter().map(|p| p["content"][0]["text"].to_string()).collect();
    assert_eq!(prompts.len(), 3, "{prompts:?}");
    assert!(prompts[0].starts_with("\"[ct-1] Give me") && prompts[1].starts_with("\"[ct-2]") && prompts[2].starts_with("\"[ct-3]"));
    let ends = events(&out, EventKind::TurnEnd);
    let kinds: Vec<&str> = ends.iter().map(|e| e["reason"]["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["completed", "aborted", "completed"]);
    let calls = events(&out, EventKind::ToolCall);
    let names: Vec<&str> = calls.iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "list_files",
            "read_file",
            "search_files",
            "replace_in_file",
            "write_to_file",
            "execute_command",
            "execute_command",
            "web_fetch",
            "write_to_file",
            "execute_command"
        ]
    );
    let results = events(&out, EventKind::ToolResult);
    assert_eq!(results.len(), calls.len());
    let got: Vec<Outcome<'_>> = results
        .iter()
        .map(|r| {
            (
                r["message"]["content"][0]["isError"].as_bool().unwrap_or(false),
                r["exitCode"].as_i64(),
                r["outcome"].as_str(),
                r["error"]["code"].as_str(),
            )
        })
        .collect();
    let ok = (false, None, None, None);
    assert_eq!(
        got,
        [
            ok,
            ok,
            ok,
            ok,
            ok,
            (false, Some(0), None, None),
            (false, Some(4), None, None),
            ok,
            (true, None, Some("rejected"), None),
            (true, None, None, Some("ABORTED")),
        ]
    );
    // The header: the directory the environment details say, the model.
    let last = out
        .iter()
        .rev()
        .find_map(|(_, r)| match r {
            Record::Frame { kind, payload, .. } if kind == "session" => Some(payload),
            _ => None,
        })
        .unwrap();
    assert_eq!(last["cwd"], "/workspace/demo");
    assert_eq!(last["model"], "claude-sonnet-4-20250514");
    // The closing words are said, the thinking is reasoning.
    let said = events(&out, EventKind::AssistantMessage).iter().map(Value::to_string).collect::<Vec<_>>().join("\n");
    assert!(said.contains("spread now returns 0") && said.contains("\"reasoning\""), "{said}");
    assert!(!said.contains("[Response interrupted") && !said.contains("<attempt_completion>"), "{said}");
}

#[test]
fn native_calls_and_roo_codes_answers() {
    let doc = r#"[
      {"role": "user", "content": [{"type": "text", "text": "<user_message>\nfix it\n</user_message>"}, {"type": "text", "text": "<environment_details>\n# Current Workspace Directory (/w) Files\n</environment_details>"}], "ts": 1},
      {"role": "assistant", "content": [{"type": "text", "text": "On it."}, {"type": "tool_use", "id": "t1", "name": "execute_command", "input": {"command": "make"}}, {"type": "tool_use", "id": "t2", "name": "apply_diff", "input": {"path": "a.c", "diff": "x"}}], "ts": 2},
      {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "Command executed in terminal within working directory '/w'. Command execution was not successful, inspect the cause and adjust as needed.\nExit code: 2\nOutput:\nmake: *** No targets."}, {"type": "tool_result", "tool_use_id": "t2", "content": "{\"status\":\"denied\",\"message\":\"The user denied this operation.\"}"}], "ts": 3},
      {"role": "assistant", "content": [{"type": "tool_use", "id": "t3", "name": "execute_command", "input": {"command": "make all"}}], "ts": 4},
      {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t3", "content": "Task was interrupted before this tool call could be completed."}], "ts": 5},
      {"role": "assistant", "content": [{"type": "tool_use", "id": "t4", "name": "read_file", "input": {"path": "a.c"}}], "ts": 6},
      {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t4", "content": "{\"status\":\"error\",\"message\":\"The tool execution failed\"}"}], "ts": 7}
    ]"#;
    let out = read(doc);
    let results = events(&out, EventKind::ToolResult);
    assert_eq!(results[0]["exitCode"], 2);
    assert_eq!(results[1]["outcome"], "rejected");
    assert_eq!(results[2]["error"]["code"], "ABORTED");
    assert_eq!(results[3]["message"]["content"][0]["isError"], true);
    assert!(results[3].get("outcome").is_none());
}

#[test]
fn exit_codes_are_only_the_texts() {
    assert_eq!(exit_code("Command executed successfully (exit code 0).\nOutput:\nok"), Some(0));
    assert_eq!(exit_code("Command failed with exit code 127.\nOutput:\n"), Some(127));
    assert_eq!(exit_code("… adjust as needed.\nExit code: 1\nOutput:"), Some(1));
    assert_eq!(exit_code("Exit code: <undefined, notify user>"), None);
    assert_eq!(exit_code("Command executed.\nOutput:\nok"), None);
}

#[test]
fn not_a_history_and_bad_ones_never_panic() {
    for doc in [r#"{"messages": []}"#, "[]", r#"[{"role": "assistant", "content": "<task>x</task>"}]"#, r#"[{"ts": 1, "type": "say", "say": "task", "text": "<task>"}]"#] {
        assert!(!is_history(&serde_json::from_str(doc).unwrap()), "{doc}");
    }
    let doc = r#"[{"role": "user", "content": "<task>x</task>"}, 1, {"role": "assistant", "content": [{"type": "tool_use"}]}, {"role": "user", "content": [{"type": "tool_result", "content": 5}, {"type": "text", "text": "[read_file] Result:"}]}]"#;
    let out = read(doc);
    assert!(out.iter().any(|(_, r)| matches!(r, Record::Diagnostic(_))));
}
