use super::*;

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
            "assistant/message",
            "assistant/message",
            "tool/call",
            "tool/result",
            "turn/end"
        ]
    );
    let seqs: Vec<u64> = out.iter().filter_map(|(_, r)| r.seq()).collect();
    assert_eq!(seqs, (1..=7).collect::<Vec<_>>());
    assert!(out.iter().all(|(s, _)| s.as_deref() == Some("s")));
    let Record::Frame { payload, .. } = &out[3].1 else {
        panic!("header")
    };
    assert_eq!(payload["agent"], "claude-code");
    assert_eq!(payload["model"], "m1");
    assert_eq!(payload["cwd"], "/w");
    let Record::Event { event, .. } = &out[7].1 else {
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
