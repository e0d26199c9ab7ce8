use serde_json::json;

use super::*;
use crate::wire::Frame;

fn ev(kind: &str, seq: u64, time: i64, data: Value) -> Record {
    let v = json!({"type": kind, "seq": seq, "time": time, "data": data});
    Record::from_frame(Frame::from_owned(v).expect("frame"), Origin::default())
}

fn call(seq: u64, time: i64, id: &str) -> Record {
    ev("tool/call", seq, time, json!({"turn": 1, "callId": id, "name": "t", "arguments": "{}"}))
}

/// `seq@time`, `>call:seq` for a nested record, `!` a diagnostic.
fn tags(records: &[Record]) -> Vec<String> {
    records
        .iter()
        .map(|r| match r {
            Record::Event { event, .. } => format!("{}@{}", event.seq, event.time),
            Record::Nested {
                parent_call,
                record,
            } => format!(">{parent_call}:{}", record.seq().unwrap_or(0)),
            Record::Diagnostic(_) => "!".into(),
            Record::Frame { kind, .. } => kind.clone(),
        })
        .collect()
}

#[test]
fn a_childs_records_go_after_its_call_by_time() {
    let parent = vec![
        ev("turn/start", 1, 100, json!({})),
        call(2, 200, "a"),
        ev("tool/result", 3, 300, json!({})),
        ev("turn/end", 4, 500, json!({})),
    ];
    // Its first record is older than the call (clocks): still after it.
    let child = vec![
        ev("turn/start", 1, 150, json!({})),
        ev("x", 2, 250, json!({})),
        ev("x", 3, 400, json!({})),
        ev("x", 4, 900, json!({})),
    ];
    let out = merge(parent, vec![(1, "a".into(), Child::Log(child))]);
    assert_eq!(
        tags(&out),
        ["1@100", "2@200", ">a:1", ">a:2", "3@300", ">a:3", "4@500", ">a:4"]
    );
}

#[test]
fn a_child_that_could_not_be_read_is_said_at_its_call() {
    let parent = vec![call(1, 10, "a"), ev("x", 2, 20, json!({}))];
    let d = Diagnostic::new(Origin::default(), "no".into(), String::new());
    let out = merge(parent, vec![(0, "a".into(), Child::Said(d))]);
    assert_eq!(tags(&out), ["1@10", "!", "2@20"]);
}

fn line(v: Value) -> String {
    format!("{v}\n")
}

fn claude_user(session: &str, text: &str, time: &str) -> String {
    line(json!({"type": "user", "uuid": "u", "sessionId": session, "timestamp": time,
        "message": {"role": "user", "content": text}}))
}

fn claude_call(session: &str, id: &str, name: &str, time: &str) -> String {
    line(json!({"type": "assistant", "uuid": "a", "sessionId": session, "timestamp": time,
        "message": {"id": format!("m{id}"), "role": "assistant",
            "content": [{"type": "tool_use", "id": id, "name": name, "input": {}}]}}))
}

fn claude_result(session: &str, id: &str, meta: Value, time: &str) -> String {
    line(json!({"type": "user", "uuid": "r", "sessionId": session, "timestamp": time,
        "toolUseResult": meta,
        "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": id, "content": "ok"}]}}))
}

/// A session folder: the main log and subagents' logs.
fn folder(main: &str, subs: &[(&str, &str, Option<&str>)]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("dir");
    let log = dir.path().join("s.jsonl");
    std::fs::write(&log, main).expect("write");
    let sub_dir = dir.path().join("s/subagents");
    std::fs::create_dir_all(&sub_dir).expect("mkdir");
    for (id, body, meta) in subs {
        std::fs::write(sub_dir.join(format!("agent-{id}.jsonl")), body).expect("write");
        if let Some(m) = meta {
            std::fs::write(sub_dir.join(format!("agent-{id}.meta.json")), m).expect("write");
        }
    }
    (dir, log)
}

fn nested_under(records: &[Record]) -> Vec<String> {
    let mut calls: Vec<String> = records
        .iter()
        .filter_map(|r| match r {
            Record::Nested { parent_call, .. } => Some(parent_call.clone()),
            _ => None,
        })
        .collect();
    calls.dedup();
    calls
}

#[test]
fn logs_tie_to_calls_by_meta_file_or_by_the_results_agent_id() {
    let t = |s| format!("2026-12-01T10:00:0{s}.000Z");
    let main = [
        claude_user("s", "go", &t(0)),
        claude_call("s", "toolu_a", "Agent", &t(1)),
        claude_result("s", "toolu_a", json!({"status": "completed", "agentId": "aa"}), &t(4)),
        claude_call("s", "toolu_b", "Agent", &t(5)),
        claude_result("s", "toolu_b", json!({"status": "async_launched", "agentId": "bb"}), &t(6)),
    ]
    .concat();
    let sub = |time: &str| {
        [claude_user("s", "sub", time), claude_call("s", "toolu_in", "Bash", time)].concat()
    };
    let (_dir, log) = folder(
        &main,
        &[
            // Tied by its meta file.
            ("aa", &sub(&t(2)), Some(r#"{"toolUseId": "toolu_a"}"#)),
            // No meta file: tied by the result naming agent bb.
            ("bb", &sub(&t(7)), None),
        ],
    );
    let loaded = crate::source::load_path(log.to_str().expect("utf-8")).expect("loads");
    let records = &loaded.sessions[0].records;
    assert_eq!(nested_under(records), ["toolu_a", "toolu_b"]);
    assert!(
        !records.iter().any(|r| matches!(r, Record::Diagnostic(_))),
        "{:?}",
        tags(records)
    );
}

#[test]
fn a_log_no_call_started_and_a_broken_log_are_diagnostics() {
    let t = |s| format!("2026-12-01T10:00:0{s}.000Z");
    let main = [
        claude_user("s", "go", &t(0)),
        claude_call("s", "toolu_a", "Agent", &t(1)),
    ]
    .concat();
    let body = claude_user("s", "sub", &t(2));
    let (_dir, log) = folder(
        &main,
        &[
            ("zz", &body, Some(r#"{"toolUseId": "toolu_elsewhere"}"#)),
            ("aa", "\0\0\0 binary", Some(r#"{"toolUseId": "toolu_a"}"#)),
        ],
    );
    let loaded = crate::source::load_path(log.to_str().expect("utf-8")).expect("loads");
    let reasons: Vec<String> = loaded.sessions[0]
        .records
        .iter()
        .filter_map(|r| match r {
            Record::Diagnostic(d) => Some(d.reason.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(reasons.len(), 2, "{reasons:?}");
    assert!(reasons[0].contains("agent-aa.jsonl of call toolu_a"), "{reasons:?}");
    assert!(reasons[1].contains("agent-zz.jsonl not shown"), "{reasons:?}");
    assert!(reasons[1].contains("toolu_elsewhere"), "{reasons:?}");
    // Opened alone, a subagent's log says nothing of its siblings.
    let alone = log.with_file_name("s/subagents/agent-zz.jsonl");
    let loaded = crate::source::load_path(alone.to_str().expect("utf-8")).expect("loads");
    assert!(
        !loaded.sessions[0]
            .records
            .iter()
            .any(|r| matches!(r, Record::Diagnostic(_) | Record::Nested { .. }))
    );
}

#[test]
fn a_subagents_own_subagent_nests_under_its_call() {
    let t = |s| format!("2026-12-01T10:00:0{s}.000Z");
    let main = [
        claude_user("s", "go", &t(0)),
        claude_call("s", "toolu_a", "Agent", &t(1)),
    ]
    .concat();
    let child = [
        claude_user("s", "sub", &t(2)),
        claude_call("s", "toolu_deep", "Agent", &t(3)),
    ]
    .concat();
    let grandchild = claude_user("s", "deeper", &t(4));
    let (_dir, log) = folder(
        &main,
        &[
            ("aa", &child, Some(r#"{"toolUseId": "toolu_a"}"#)),
            ("bb", &grandchild, Some(r#"{"toolUseId": "toolu_deep"}"#)),
            // Each names the other's call: neither is of this session.
            ("c1", &claude_call("s", "toolu_c1", "Agent", &t(5)), Some(r#"{"toolUseId": "toolu_c2"}"#)),
            ("c2", &claude_call("s", "toolu_c2", "Agent", &t(5)), Some(r#"{"toolUseId": "toolu_c1"}"#)),
        ],
    );
    let loaded = crate::source::load_path(log.to_str().expect("utf-8")).expect("loads");
    let records = &loaded.sessions[0].records;
    let deep = records.iter().any(|r| {
        matches!(r, Record::Nested { parent_call, record } if parent_call == "toolu_a"
            && matches!(&**record, Record::Nested { parent_call, .. } if parent_call == "toolu_deep"))
    });
    assert!(deep, "{:?}", tags(records));
    let said = records
        .iter()
        .filter(|r| matches!(r, Record::Diagnostic(d) if d.reason.contains("not shown")))
        .count();
    assert_eq!(said, 2);
}

#[test]
fn an_agent_a_result_names_without_a_log_is_said_at_its_call() {
    let t = |s| format!("2026-12-01T10:00:0{s}.000Z");
    let main = [
        claude_user("s", "go", &t(0)),
        claude_call("s", "toolu_a", "Agent", &t(1)),
        claude_result("s", "toolu_a", json!({"status": "completed", "agentId": "gone"}), &t(2)),
        claude_user("s", "next", &t(3)),
    ]
    .concat();
    let (_dir, log) = folder(&main, &[]);
    let loaded = crate::source::load_path(log.to_str().expect("utf-8")).expect("loads");
    let records = &loaded.sessions[0].records;
    let at = records
        .iter()
        .position(|r| matches!(r, Record::Diagnostic(_)))
        .expect("said");
    let Record::Diagnostic(d) = &records[at] else {
        unreachable!()
    };
    assert_eq!(
        d.reason,
        "subagent log subagents/agent-gone.jsonl of call toolu_a: its log is not in the session's folder"
    );
    // Right after the call, before its result and the next prompt.
    assert!(matches!(&records[at - 1], Record::Event { event, .. } if event.kind == EventKind::ToolCall));
}
