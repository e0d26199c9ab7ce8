use super::*;
use serde_json::json;

fn read(lines: &[Value]) -> Out {
    let mut r = Reader::default();
    let mut out = Out::new();
    for (i, l) in lines.iter().enumerate() {
        let origin = Origin {
            line: i + 1,
            offset: 0,
        };
        r.line(l, origin, &mut out);
    }
    r.finish(&mut out);
    out
}

fn kinds(out: &Out) -> Vec<String> {
    out.iter()
        .map(|(_, r)| match r {
            Record::Event { event, .. } => event.kind.as_str().to_string(),
            Record::Frame { kind, .. } => format!("frame {kind}"),
            Record::Diagnostic(d) => format!("diagnostic {}", d.reason),
            Record::Nested { parent_call, .. } => format!("nested {parent_call}"),
        })
        .collect()
}

fn user(text: &str) -> Value {
    json!({"type": "user", "uuid": "u", "sessionId": "s", "cwd": "/w", "version": "9",
           "timestamp": "2026-12-01T10:00:00.000Z", "message": {"role": "user", "content": text}})
}

fn assistant(id: &str, content: Value) -> Value {
    json!({"type": "assistant", "uuid": "a", "sessionId": "s", "timestamp": "2026-12-01T10:00:01.000Z",
           "message": {"id": id, "model": "m1", "role": "assistant", "content": content}})
}

#[test]
fn shapes() {
    assert!(is_line(&user("hi")));
    assert!(is_line(&json!({"type": "api-request-blob", "sessionId": "s"})));
    assert!(!is_line(&json!({"type": "session", "id": "x", "version": 0})));
    assert!(!is_line(&json!({"type": "turn/start", "seq": 1, "sessionId": "s"})));
    assert!(!is_line(&json!({"type": "session/event", "sessionId": "s", "event": {}})));
    assert!(!is_line(&json!({"type": "user", "seq": 1, "uuid": "u"})));
    assert!(!is_line(&json!([1])));
}

#[test]
fn a_turn_with_a_call_and_its_result() {
    let out = read(&[
        user("hello"),
        assistant("m", json!([{"type": "thinking", "thinking": "hmm"}])),
        assistant("m", json!([{"type": "text", "text": "ok"}])),
        assistant("m", json!([{"type": "tool_use", "id": "t1", "name": "X", "input": {"a": 1}}])),
        // An old log repeats the message whole as it streams.
        assistant("m", json!([{"type": "thinking", "thinking": "hmm"}, {"type": "text", "text": "ok"},
            {"type": "tool_use", "id": "t1", "name": "X", "input": {"a": 1}}])),
        json!({"type": "user", "uuid": "r", "sessionId": "s", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t1", "content": "done", "is_error": true}]},
            "toolUseResult": {"k": 1}}),
        json!({"type": "api-request-blob", "sessionId": "s", "message": {"content": [
            {"type": "tool_use", "id": "t1", "name": "X", "input": {}}]}}),
        json!({"type": "attachment", "uuid": "x", "sessionId": "s"}),
    ]);
    assert_eq!(
        kinds(&out),
        [
            "frame session",
            "turn/start",
            "user/message",
            "frame session",
            // Each new block at once; the message whole when its step is
            // over (the results came).
            "assistant/chunk",
            "assistant/chunk",
            "tool/call",
            "assistant/message",
            "tool/result",
            "turn/end"
        ]
    );
    let seqs: Vec<u64> = out.iter().filter_map(|(_, r)| r.seq()).collect();
    assert_eq!(seqs, (1..=8).collect::<Vec<_>>());
    assert!(out.iter().all(|(s, _)| s.as_deref() == Some("s")));
    let Record::Frame { payload, .. } = &out[3].1 else {
        panic!("header")
    };
    assert_eq!(payload["agent"], "claude-code");
    assert_eq!(payload["model"], "m1");
    assert_eq!(payload["cwd"], "/w");
    let Record::Event { event, .. } = &out[8].1 else {
        panic!("result")
    };
    let data = event.data.parse();
    assert_eq!(data["meta"]["k"], 1);
    assert_eq!(data["message"]["content"][0]["isError"], true);
    assert_eq!(event.time, 1_796_119_201_000);
}

#[test]
fn malformed_and_unknown_lines() {
    let out = read(&[
        json!({"type": "user", "uuid": "u", "sessionId": "s"}),
        json!({"type": "progress", "uuid": "p", "sessionId": "s", "data": {}}),
        json!({"type": "something-new", "uuid": "n", "sessionId": "s"}),
    ]);
    assert_eq!(kinds(&out), ["diagnostic Claude Code \"user\" line: no message object"]);
}

#[test]
fn a_checklist_and_a_task_list() {
    let out = read(&[
        user("plan"),
        assistant("m", json!([{"type": "tool_use", "id": "t1", "name": "X",
            "input": {"todos": [{"content": "a", "status": "pending", "activeForm": "A"}]}}])),
        assistant("n", json!([{"type": "tool_use", "id": "t2", "name": "Y", "input": {}}])),
        json!({"type": "user", "uuid": "r", "sessionId": "s", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t2", "content": "made"}]},
            "toolUseResult": {"task": {"id": "1", "subject": "one"}}}),
    ]);
    let k = kinds(&out);
    assert_eq!(k.iter().filter(|k| *k == "todo/write").count(), 2, "{k:?}");
}

#[test]
fn notifications_and_interrupts() {
    let out = read(&[
        user("go"),
        user("<task-notification>\n<status>completed</status>"),
        user("[Request interrupted by user]"),
        user("again"),
    ]);
    assert_eq!(
        kinds(&out),
        [
            "frame session",
            "turn/start",
            "user/message",
            "user/message",
            "turn/end",
            "turn/start",
            "user/message",
            "turn/end"
        ]
    );
}

/// A line is read from its text without a JSON tree (on the loader's
/// decoder threads: `Agent::read_text`); a line that typed reading refuses
/// (a key twice) goes the JSON way and reads the same as JSON reads it
/// (the last copy of the key wins). (That the decoder hands each on so:
/// `load::decode`'s tests.)
#[test]
fn lines_read_on_the_decoders_threads_or_as_json_read_the_same() {
    use crate::agents::Agent;
    use crate::agents::claude_code::ClaudeCode;
    use crate::agents::read::Foreign;
    let origin = Origin { line: 1, offset: 0 };
    let typed = r#"{"type":"user","uuid":"u","sessionId":"s","cwd":"/w","message":{"role":"user","content":"hi \u00e9"}}"#;
    let twice = r#"{"type":"user","uuid":"u","sessionId":"s","cwd":"/old","cwd":"/w","message":{"role":"user","content":"hi \u00e9"}}"#;
    let a = Foreign::Read {
        agent: &ClaudeCode,
        line: ClaudeCode.read_text(typed).expect("read from its text"),
    };
    assert!(ClaudeCode.read_text(twice).is_none());
    let b = Foreign::Value(serde_json::from_str(twice).expect("JSON"));
    let run = |f: Foreign| {
        let mut r = Reader::default();
        let mut out = Out::new();
        r.foreign(f, origin, &mut out);
        r.finish(&mut out);
        out.into_iter()
            .map(|(s, r)| match r {
                Record::Event { event, .. } => {
                    format!("{s:?} {} {}", event.kind.as_str(), event.data.parse())
                }
                Record::Frame { payload, .. } => format!("{s:?} frame {payload}"),
                Record::Diagnostic(d) => format!("{s:?} diagnostic {}", d.reason),
                Record::Nested { .. } => format!("{s:?} nested"),
            })
            .collect::<Vec<_>>()
    };
    let (a, b) = (run(a), run(b));
    assert_eq!(a, b);
    assert!(a.iter().any(|l| l.contains(r#""cwd":"/w""#)), "{a:?}");
    assert!(a.iter().any(|l| l.contains("hi é")), "{a:?}");
}

/// Task calls made together: each result's list goes on its own call's
/// card (the `todo/write` names the call), not only on the last one's.
#[test]
fn task_calls_made_together_each_get_their_list() {
    let result = |id: &str, meta: Value| {
        json!({"type": "user", "uuid": "r", "sessionId": "s", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": id, "content": "made"}]}, "toolUseResult": meta})
    };
    let out = read(&[
        user("plan"),
        assistant("m", json!([{"type": "tool_use", "id": "t1", "name": "X", "input": {}},
            {"type": "tool_use", "id": "t2", "name": "X", "input": {}}])),
        result("t1", json!({"task": {"id": "1", "subject": "one"}})),
        result("t2", json!({"task": {"id": "2", "subject": "two"}})),
    ]);
    let writes: Vec<Value> = out
        .iter()
        .filter_map(|(_, r)| match r {
            Record::Event { event, .. } if event.kind.as_str() == "todo/write" => {
                Some(event.data.parse())
            }
            _ => None,
        })
        .collect();
    assert_eq!(writes.len(), 2, "{writes:?}");
    assert_eq!(writes[0]["callId"], "t1");
    assert_eq!(writes[0]["todos"].as_array().map(Vec::len), Some(1));
    assert_eq!(writes[1]["callId"], "t2");
    assert_eq!(writes[1]["todos"][1]["content"], "two");
}

/// A tool-use error is an error whether or not the block says `is_error`,
/// and its message comes unwrapped.
#[test]
fn tool_use_errors_are_errors_with_their_message() {
    let result = |content: Value, flag: Option<bool>| {
        let mut block = json!({"type": "tool_result", "tool_use_id": "t1", "content": content});
        if let Some(f) = flag {
            block["is_error"] = json!(f);
        }
        let out = read(&[
            user("go"),
            assistant("m", json!([{"type": "tool_use", "id": "t1", "name": "X", "input": {}}])),
            json!({"type": "user", "uuid": "r", "sessionId": "s",
                   "message": {"role": "user", "content": [block]}}),
        ]);
        out.into_iter()
            .find_map(|(_, r)| match r {
                Record::Event { event, .. } if event.kind.as_str() == "tool/result" => {
                    let d = event.data.parse();
                    let part = d["message"]["content"][0].clone();
                    Some((part["isError"].clone(), part["content"][0]["text"].clone()))
                }
                _ => None,
            })
            .expect("a result")
    };
    let wrapped = "<tool_use_error>Error: No such tool available: Grep</tool_use_error>";
    for (content, flag) in [
        (json!(wrapped), Some(true)),
        (json!(wrapped), None),
        (json!([{"type": "text", "text": wrapped}]), Some(true)),
    ] {
        assert_eq!(
            result(content, flag),
            (json!(true), json!("Error: No such tool available: Grep"))
        );
    }
    // Text that only mentions the tag is left as it is.
    let plain = "see <tool_use_error> in the docs";
    assert_eq!(result(json!(plain), None), (json!(false), json!(plain)));
}

/// A block the reader cannot use (a call without its id, a result without
/// the id of its call) is a diagnostic quoting that block's own text; the
/// other blocks of the line, and blocks that are no objects, read as ever.
#[test]
fn a_block_without_its_ids_is_quoted_whole() {
    let out = read(&[
        user("go"),
        assistant(
            "m",
            json!([
                {"type": "text", "text": "two calls"},
                5,
                {"type": "tool_use", "name": "Bash", "input": {"command": "ls"}},
                {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "pwd"}},
            ]),
        ),
        json!({"type": "user", "uuid": "r", "sessionId": "s", "message": {"role": "user", "content": [
            {"type": "tool_result", "content": "lost"},
            {"type": "tool_result", "tool_use_id": "t1", "content": "/w"},
        ]}}),
    ]);
    let quoted: Vec<(String, Value)> = out
        .iter()
        .filter_map(|(_, r)| match r {
            Record::Diagnostic(d) => Some((d.reason.clone(), serde_json::from_str(&d.raw).ok()?)),
            _ => None,
        })
        .collect();
    assert_eq!(
        quoted,
        [
            (
                "Claude Code tool_use without an id or a name".to_string(),
                json!({"type": "tool_use", "name": "Bash", "input": {"command": "ls"}})
            ),
            (
                "Claude Code tool_result without a tool_use_id".to_string(),
                json!({"type": "tool_result", "content": "lost"})
            ),
        ]
    );
    let k = kinds(&out);
    assert_eq!(k.iter().filter(|k| *k == "tool/call").count(), 1, "{k:?}");
    assert_eq!(k.iter().filter(|k| *k == "tool/result").count(), 1, "{k:?}");
}

/// Claude Code's own messages (`model: "<synthetic>"`): "No response
/// requested." is nothing; an API error's report ends the running turn as
/// an error, with its words (the public shape of 2.1.270's
/// `model_not_found`).
#[test]
fn a_synthetic_message_is_no_turn() {
    let synthetic = |text: &str, api_error: bool| {
        json!({"type": "assistant", "uuid": "y", "sessionId": "s", "timestamp": "2026-12-01T10:00:02.000Z",
               "isApiErrorMessage": api_error, "error": if api_error { "model_not_found" } else { "" },
               "message": {"id": "c8dfe322", "model": "<synthetic>", "role": "assistant",
                 "usage": {"input_tokens": 0, "output_tokens": 0, "cache_creation_input_tokens": 0,
                           "cache_read_input_tokens": 0, "output_tokens_details": null},
                 "content": [{"type": "text", "text": text}]}})
    };
    let out = read(&[
        user("[Request interrupted by user for tool use]"),
        synthetic("No response requested.", false),
        user("go on"),
        synthetic("There's an issue with the selected model (x).", true),
    ]);
    let k = kinds(&out);
    assert_eq!(
        k,
        ["frame session", "turn/start", "user/message", "turn/end"],
        "{k:?}"
    );
    let end = out.iter().rev().find_map(|(_, r)| match r {
        Record::Event { event, .. } if event.kind.as_str() == "turn/end" => Some(event.data.parse()),
        _ => None,
    });
    let end = end.expect("turn/end");
    assert_eq!(end["reason"]["kind"], "error");
    assert_eq!(end["reason"]["message"], "There's an issue with the selected model (x).");
}

/// `thinking_tokens: 0` is what the CLI writes when the API gave no count.
#[test]
fn a_zero_thinking_count_is_no_count() {
    let u = Usage::parse(r#"{"input_tokens":3,"output_tokens":9,"output_tokens_details":{"thinking_tokens":0}}"#);
    assert_eq!(u.map(Usage::to_value), Some(json!({"inputTokens": 3, "outputTokens": 9})));
    let u = Usage::parse(r#"{"input_tokens":3,"output_tokens":9,"output_tokens_details":{"thinking_tokens":4}}"#);
    assert_eq!(u.map(|u| u.to_value()["reasoningTokens"].clone()), Some(json!(4)));
}

fn progress(parent: Option<&str>, data: Value) -> Value {
    let mut v = json!({"type": "progress", "uuid": "p", "sessionId": "s",
        "timestamp": "2026-12-01T10:00:02.000Z", "data": data});
    if let Some(p) = parent {
        v["parentToolUseID"] = p.into();
    }
    v
}

#[test]
fn a_subagents_inline_lines_are_nested_under_its_call_and_end_with_its_result() {
    let sub_call = json!({"type": "assistant", "message": {"id": "sm", "role": "assistant",
        "content": [{"type": "tool_use", "id": "s1", "name": "Read", "input": {}}]}});
    let out = read(&[
        user("go"),
        assistant("m", json!([{"type": "tool_use", "id": "t1", "name": "Task", "input": {}}])),
        progress(Some("t1"), json!({"type": "agent_progress", "agentId": "a1", "message":
            {"type": "user", "message": {"role": "user", "content": [{"type": "text", "text": "count"}]}}})),
        progress(Some("t1"), json!({"type": "agent_progress", "agentId": "a1", "message": sub_call})),
        // A hook's progress is nobody's line.
        progress(Some("t1"), json!({"type": "hook_progress", "hookEvent": "PreToolUse"})),
        json!({"type": "user", "uuid": "r", "sessionId": "s", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t1", "content": "3 steps"}]}}),
    ]);
    let k = kinds(&out);
    let at = |s: &str| k.iter().position(|x| x == s);
    let last = k.iter().rposition(|x| x == "nested t1");
    // Under t1, after it and before its result.
    assert!(at("tool/call") < at("nested t1") && last < at("tool/result"), "{k:?}");
    let inner: Vec<Out> = out
        .iter()
        .filter_map(|(_, r)| match r {
            Record::Nested { record, .. } => Some(vec![(None, (**record).clone())]),
            _ => None,
        })
        .collect();
    let inner: Vec<String> = inner.iter().flat_map(kinds).collect();
    // Its own header, turn, prompt and call; its turn ends with t1's result.
    assert_eq!(
        inner,
        ["frame session", "turn/start", "user/message", "tool/call", "turn/end"]
    );
    assert!(!k.iter().any(|x| x.starts_with("diagnostic")), "{k:?}");
}

#[test]
fn an_agent_progress_line_that_cannot_be_placed_or_read_is_said() {
    let out = read(&[
        user("go"),
        progress(None, json!({"type": "agent_progress", "message": {"type": "user",
            "message": {"role": "user", "content": "count"}}})),
        progress(Some("t1"), json!({"type": "agent_progress", "message": {"type": "attachment"}})),
        progress(Some("t1"), json!({"type": "agent_progress"})),
    ]);
    let said: Vec<(String, bool)> = out
        .iter()
        .filter_map(|(_, r)| match r {
            Record::Diagnostic(d) => Some((d.reason.clone(), d.raw.contains("agent_progress"))),
            _ => None,
        })
        .collect();
    assert_eq!(
        said,
        [
            ("Claude Code agent_progress line without a parentToolUseID: no call to nest its subagent's line under".to_string(), true),
            ("Claude Code agent_progress line: its message is a \"attachment\" line".to_string(), true),
            ("Claude Code agent_progress line: it has no message".to_string(), true),
        ]
    );
    assert!(!kinds(&out).iter().any(|k| k.starts_with("nested")));
}
