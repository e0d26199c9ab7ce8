//! The reader on the real session of Gemini CLI 0.61.0
//! (`tests/fixtures/agents/gemini-cli/tour/`: three runs, two resumes) and
//! on the shapes it holds one at a time.

use serde_json::{Value, json};

use super::*;
use crate::wire::Record;

const TOUR: &str = include_str!(
    "../../../../tests/fixtures/agents/gemini-cli/tour/session-2026-12-04T07-51-b8660323.jsonl"
);

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

/// The events of `kind`, as (data, origin line).
fn events(out: &Out, kind: EventKind) -> Vec<(Value, usize)> {
    out.iter()
        .filter_map(|(_, r)| match r {
            Record::Event { event, origin, .. } if event.kind == kind => {
                Some((serde_json::from_str(event.data.as_str()).expect("data"), origin.line))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn the_tour_reads_into_three_turns_and_eleven_calls_each_once() {
    let out = read(TOUR);
    let diagnostics: Vec<_> = out.iter().filter(|(_, r)| matches!(r, Record::Diagnostic(_))).collect();
    assert!(diagnostics.is_empty(), "{diagnostics:#?}");
    assert_eq!(events(&out, EventKind::TurnStart).len(), 3);
    // Every turn ends: the last at the input's end, its calls all settled.
    let ends = events(&out, EventKind::TurnEnd);
    assert_eq!(ends.len(), 3);
    assert!(ends.iter().all(|(d, _)| d["usage"]["inputTokens"].as_u64().is_some()), "{ends:?}");
    let calls = events(&out, EventKind::ToolCall);
    let names: Vec<&str> = calls.iter().map(|(d, _)| d["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "list_directory", "glob", "grep_search", "read_file", "read_file", "replace", "write_file",
            "run_shell_command", "web_fetch", "run_shell_command", "run_shell_command"
        ]
    );
    let results = events(&out, EventKind::ToolResult);
    assert_eq!(results.len(), 11);
    let ids = |v: &[(Value, usize)], key: &str| -> Vec<String> {
        v.iter().map(|(d, _)| d.pointer(key).and_then(Value::as_str).unwrap().to_string()).collect()
    };
    assert_eq!(ids(&calls, "/callId"), ids(&results, "/message/content/0/toolCallId"));
    // The prompts, each its turn's; the model's words and thoughts.
    let prompts = events(&out, EventKind::UserMessage);
    assert_eq!(prompts.len(), 3);
    assert!(prompts[1].0["content"][0]["text"].as_str().unwrap().starts_with("[gc-2]"));
    let said = events(&out, EventKind::AssistantMessage);
    assert!(said.iter().any(|(d, _)| d["message"]["content"][0]["type"] == "reasoning"));
    // The header: the session, its directory (from the CLI's context), the model.
    // (The last one: the model is learnt from the first model message.)
    let header = out.iter().rev().find_map(|(_, r)| match r {
        Record::Frame { payload, .. } => Some(payload.clone()),
        _ => None,
    });
    let header = header.expect("a header");
    assert_eq!(header["agent"], "gemini-cli");
    assert_eq!(header["cwd"], "/workspace/demo");
    assert_eq!(header["model"], "gemini-3.8-flash");
    assert!(header["id"].as_str().unwrap().starts_with("b8660323"));
}

#[test]
fn how_each_call_ended_is_what_the_log_says() {
    let out = read(TOUR);
    let results = events(&out, EventKind::ToolResult);
    let by_tool = |tool: &str| -> Vec<&Value> {
        let calls = events(&out, EventKind::ToolCall);
        let ids: Vec<String> = calls
            .iter()
            .filter(|(d, _)| d["name"] == tool)
            .map(|(d, _)| d["callId"].as_str().unwrap().to_string())
            .collect();
        results
            .iter()
            .filter(|(d, _)| ids.iter().any(|id| d["message"]["content"][0]["toolCallId"] == **id))
            .map(|(d, _)| d)
            .collect()
    };
    // The shell: 0, 2 (said only in the text; the status says success), 0.
    let shell: Vec<Option<i64>> = by_tool("run_shell_command").iter().map(|d| d["exitCode"].as_i64()).collect();
    assert_eq!(shell, [Some(0), Some(2), Some(0)]);
    assert!(by_tool("run_shell_command").iter().all(|d| d["message"]["content"][0]["isError"] == false));
    // The fetch failed: an error, its message the content.
    let fetch = by_tool("web_fetch");
    assert_eq!(fetch[0]["message"]["content"][0]["isError"], true);
    assert!(fetch[0]["message"]["content"][0]["content"][0]["text"].as_str().unwrap().contains("Blocked Host"));
    // The edit's structured result goes to the cards.
    assert!(by_tool("replace")[0]["meta"]["resultDisplay"]["fileDiff"].as_str().unwrap().contains("@@ -6,6 +6,8 @@"));
}

#[test]
fn a_line_told_again_adds_only_what_is_new() {
    let header = json!({"sessionId": "s1", "projectHash": "h", "startTime": "2026-12-01T10:00:00.000Z", "lastUpdated": "x", "kind": "main"});
    let prompt = json!({"id": "u1", "timestamp": "2026-12-01T10:00:01.000Z", "type": "user", "content": [{"text": "go"}]});
    let first = json!({"id": "g1", "timestamp": "2026-12-01T10:00:02.000Z", "type": "gemini", "content": "", "tokens": {"input": 5, "output": 1}});
    let call = |status: &str| json!({"id": "c1", "name": "run_shell_command", "args": {"command": "false"}, "status": status,
        "result": [{"functionResponse": {"id": "c1", "name": "run_shell_command", "response": {"output": "<untrusted_context>\nOutput: (empty)\nSignal: 15\n</untrusted_context>"}}}]});
    let mut again = first.clone();
    again["toolCalls"] = json!([call("executing")]);
    let mut settled = first.clone();
    settled["toolCalls"] = json!([call("cancelled")]);
    let response = json!({"id": "u2", "timestamp": "2026-12-01T10:00:03.000Z", "type": "user", "content": [
        {"functionResponse": {"id": "c1", "name": "run_shell_command", "response": {"output": "x"}}},
        {"functionResponse": {"id": "c9", "name": "mystery", "response": {"error": "boom"}}}]});
    let rewrite = json!({"$set": {"messages": [{"id": "u1"}, {"id": "g1_response"}, {"id": "lost", "type": "user", "content": []}]}});
    let note = json!({"id": "n1", "timestamp": "2026-12-01T10:00:04.000Z", "type": "error", "content": "quota"});
    let text: String = [&header, &prompt, &first, &again, &settled, &response, &rewrite, &note]
        .iter()
        .map(|v| format!("{v}\n"))
        .collect();
    let out = read(&text);
    // One call, one result: the cancel, not an error's code.
    let calls = events(&out, EventKind::ToolCall);
    assert_eq!(calls.len(), 2, "{calls:?}");
    let results = events(&out, EventKind::ToolResult);
    assert_eq!(results[0].0["error"]["code"], "ABORTED");
    assert_eq!(results[0].0.get("exitCode"), None);
    // A response whose call no model message held: drawn from the response,
    // its arguments unknown.
    assert_eq!(calls[1].0["name"], "mystery");
    assert_eq!(calls[1].0.get("arguments"), None);
    assert_eq!(results[1].0["message"]["content"][0]["isError"], true);
    // The rewrite's one message never written as a line is said.
    let said: Vec<String> = out
        .iter()
        .filter_map(|(_, r)| match r {
            Record::Diagnostic(d) => Some(d.reason.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(said[0].contains("1 message(s) not written before"), "{said:?}");
    // The CLI's own note, as its output, of no turn.
    let notes = events(&out, EventKind::UserMessage);
    assert_eq!(notes[1].0["content"][0]["text"], "Gemini CLI error: quota");
    assert_eq!(notes[1].0["source"]["kind"], "output");
    // The model message's tokens counted once.
    let end = events(&out, EventKind::TurnEnd);
    assert_eq!(end[0].0["usage"]["inputTokens"], 5);
}

#[test]
fn shell_sections_and_exit_codes() {
    assert_eq!(shell_exit("<untrusted_context>\nOutput: a\nb\nExit Code: 2\nProcess Group PGID: 9\n</untrusted_context>"), Some(2));
    assert_eq!(shell_exit("<untrusted_context>\nOutput: ok\nProcess Group PGID: 9\n</untrusted_context>"), Some(0));
    assert_eq!(shell_exit("Output: (empty)\nSignal: 9"), None);
    assert_eq!(shell_exit("Output: x\nError: spawn failed"), None);
    assert_eq!(shell_exit("Command: ls\nOutput: x"), None, "an older tool's: it says 0 too");
    assert_eq!(shell_exit("just text"), None);
    // Older versions write the line for 0 too.
    assert_eq!(shell_exit("Command: x\nDirectory: (root)\nOutput: a\nExit Code: 0"), Some(0));
    let older = "Command: x\nDirectory: (root)\nOutput: a\nError: (none)\nExit Code: 0\nSignal: 0\nBackground PIDs: (none)";
    assert_eq!(shell_exit(older), Some(0));
    let s = shell_sections("Output: a\nb\nExit Code: 3").unwrap();
    assert_eq!(s, [("Output", "a\nb".to_string()), ("Exit Code", "3".to_string())]);
}

#[test]
fn other_agents_lines_are_not_claimed() {
    for v in [
        json!({"type": "user", "message": {"role": "user", "content": "hi"}, "uuid": "u", "sessionId": "s", "timestamp": "t"}),
        json!({"timestamp": "t", "type": "session_meta", "payload": {"id": "x"}}),
        json!({"seq": 1, "type": "turn/start", "time": 0, "data": {}}),
        json!({"t": 1, "dir": "agent->client", "msg": {"jsonrpc": "2.0"}}),
        json!({"$set": {}, "other": 1}),
    ] {
        assert!(!is_line(&v), "{v}");
    }
}
