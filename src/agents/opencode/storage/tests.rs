//! The tree reader on the real tree of OpenCode 1.1.65
//! (`tests/fixtures/agents/opencode/tree/storage/`: the tour's three runs
//! of one session, eleven calls, written by `tests/e2e/agents/opencode/`),
//! and on trees made here for what it does not hold (a file that does not
//! parse, messages whose ids and times disagree, the oldest per-project
//! layout, a tree that changes).

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::*;
use crate::session::{Status, Transcript};
use crate::wire::{Record, View};

fn tree() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/agents/opencode/tree/storage")
}

/// The session's info file under a `storage/` folder (the only one).
fn info(storage: &Path) -> PathBuf {
    let folder = dirs(&storage.join("session")).pop().expect("a project folder");
    info_files(&folder).pop().expect("an info file")
}

fn all_rows(path: &Path) -> Vec<Value> {
    let mut got = Vec::new();
    rows(path, &mut |v| got.push(v)).expect("a session's info").expect("read");
    got
}

fn transcript(path: &Path) -> (Transcript, Vec<String>) {
    let loaded = crate::source::load_path(&path.to_string_lossy()).expect("loads");
    assert_eq!(loaded.format, crate::agents::Format::OpenCode);
    let s = loaded.sessions.into_iter().next().expect("a session");
    let said = s
        .records
        .iter()
        .filter_map(|r| match r {
            Record::Diagnostic(d) => Some(d.reason.clone()),
            _ => None,
        })
        .collect();
    (Transcript::from_records(s.id, s.records, crate::agents::stock()), said)
}

fn view(t: &Transcript, call: &str) -> View {
    let card = t.cards().iter().find(|c| c.call_id == call).expect("the call");
    card.result_view.as_ref().expect("a result view").typed().expect("typed")
}

#[test]
fn the_tree_as_rows_in_order() {
    let got = all_rows(&info(&tree()));
    let tables: Vec<&str> = got.iter().map(|v| v["opencode"].as_str().unwrap()).collect();
    assert_eq!(tables[0], "session");
    assert_eq!(got[0]["directory"], "/workspace/demo");
    assert_eq!(got[0]["version"], "1.1.65");
    assert_eq!(tables.iter().filter(|t| **t == "message").count(), 16);
    assert_eq!(tables.iter().filter(|t| **t == "part").count(), 49);
    // Messages as they were made; each part after its message, by id.
    let mut last = (0, String::new());
    let mut message = None;
    for v in &got[1..] {
        match v["opencode"].as_str() {
            Some("message") => {
                let now = (v["time_created"].as_i64().unwrap(), v["id"].as_str().unwrap().to_string());
                assert!(now > last, "{now:?} after {last:?}");
                assert_eq!(v["data"]["id"], v["id"]);
                message = v["id"].as_str();
                last = now;
            }
            Some("part") => {
                assert_eq!(v["message_id"].as_str(), message);
                assert_eq!(v["data"]["messageID"].as_str(), message);
            }
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn every_call_with_its_true_status_exit_code_and_duration() {
    let (t, said) = transcript(&info(&tree()));
    assert!(said.is_empty(), "{said:?}");
    let got: Vec<(&str, &str, Status, Option<i64>)> = t
        .cards()
        .iter()
        .map(|c| {
            let exit = c.result.as_ref().and_then(|r| r.recorded.exit_code);
            (c.call_id.as_str(), c.tool_name(), c.status, exit)
        })
        .collect();
    assert_eq!(
        got,
        [
            ("call_1_0_0", "read", Status::Ok, None),
            ("call_1_1_0", "glob", Status::Ok, None),
            ("call_1_1_1", "grep", Status::Ok, None),
            ("call_1_2_0", "read", Status::Ok, None),
            ("call_2_0_0", "read", Status::Ok, None),
            ("call_2_1_0", "edit", Status::Ok, None),
            ("call_2_2_0", "write", Status::Ok, None),
            ("call_2_3_0", "bash", Status::Ok, Some(0)),
            ("call_3_0_0", "webfetch", Status::Error, None),
            ("call_3_1_0", "bash", Status::Failed, Some(2)),
            ("call_3_2_0", "bash", Status::Ok, Some(0)),
        ]
    );
    // Durations from the parts' `state.time`, as SUMMARY.json has them.
    let summary: Value =
        serde_json::from_slice(&std::fs::read(tree().with_file_name("SUMMARY.json")).unwrap()).unwrap();
    let want: Vec<Option<i64>> =
        summary[0]["calls"].as_array().unwrap().iter().map(|c| c["durationMs"].as_i64()).collect();
    let durations: Vec<Option<i64>> = t.cards().iter().map(|c| c.duration_ms()).collect();
    assert_eq!(durations, want);
}

#[test]
fn edits_at_their_real_lines_and_reads_at_theirs() {
    let (t, _) = transcript(&info(&tree()));
    let View::Diff(edit) = view(&t, "call_2_1_0") else { panic!("a diff") };
    assert_eq!((edit.diffs[0].start_line, edit.diffs.len()), (Some(5), 1));
    assert!(edit.diffs[0].new_text.contains("if not xs:"));
    let View::Diff(write) = view(&t, "call_2_2_0") else { panic!("a diff") };
    assert_eq!((write.diffs[0].old_text.as_deref(), write.diffs[0].start_line), (None, Some(1)));
    // 1.1's window has no length in its note: none is said.
    let View::Read(window) = view(&t, "call_2_0_0") else { panic!("a read") };
    let numbers: Vec<u64> = window.lines.iter().map(|l| l.number).collect();
    assert_eq!((numbers, window.total_lines), (vec![8, 9, 10], 0));
    let View::Read(whole) = view(&t, "call_1_2_0") else { panic!("a read") };
    assert_eq!((whole.lines[3].text.as_str(), whole.total_lines), ("def mean(xs):", 22));
    let View::Terminal(failed) = view(&t, "call_3_1_0") else { panic!("a terminal") };
    assert_eq!(failed.exit_code, Some(2));
}

#[test]
fn other_files_are_no_sessions_info() {
    let storage = tree();
    let message = dirs(&storage.join("message")).pop().unwrap();
    let message = json_files(&message).unwrap().pop().unwrap().1;
    assert!(rows(&message, &mut |_| {}).is_none(), "a message");
    assert!(rows(&storage.with_file_name("SUMMARY.json"), &mut |_| {}).is_none());
    assert!(rows(&storage.join("session"), &mut |_| {}).is_none(), "a folder");
    // The info's shape, away from its tree: not read.
    let dir = tempfile::tempdir().unwrap();
    let away = dir.path().join("ses_x.json");
    std::fs::copy(info(&storage), &away).unwrap();
    assert!(rows(&away, &mut |_| {}).is_none());
    assert!(stamp(&away).is_none());
}

/// A file at `path` (under `root`) holding `v`.
fn put(root: &Path, path: &str, v: &Value) {
    let file = root.join(path);
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(file, serde_json::to_vec_pretty(v).unwrap()).unwrap();
}

fn session(id: &str) -> Value {
    json!({"id": id, "version": "1.1.0", "projectID": "p", "directory": "/w", "title": "t",
           "time": {"created": 1000, "updated": 2000}})
}

#[test]
fn a_file_that_does_not_parse_is_said_and_the_rest_read() {
    let dir = tempfile::tempdir().unwrap();
    let storage = dir.path().join("storage");
    put(&storage, "session/p/ses_a.json", &session("ses_a"));
    // msg_2 was made first: read first, whatever its id.
    put(&storage, "message/ses_a/msg_1.json", &json!({"id": "msg_1", "role": "assistant", "time": {"created": 3000}}));
    put(&storage, "message/ses_a/msg_2.json", &json!({"id": "msg_2", "role": "user", "time": {"created": 2000}}));
    put(&storage, "part/msg_2/prt_1.json", &json!({"id": "prt_1", "type": "text", "text": "go"}));
    put(&storage, "part/msg_1/prt_2.json", &json!({"id": "prt_2", "type": "tool", "tool": "bash", "callID": "c1",
        "state": {"status": "completed", "input": {"command": "false"}, "output": "", "metadata": {"exit": 1},
                  "time": {"start": 3100, "end": 3150}}}));
    std::fs::write(storage.join("part/msg_1/prt_3.json"), "{\"id\": \"prt_3\", \"type\": ").unwrap();
    // What OpenCode leaves while it writes: not a record.
    std::fs::write(storage.join("part/msg_1/.oc-prt_4.json.1.2.tmp"), "{").unwrap();
    let file = storage.join("session/p/ses_a.json");
    let got = all_rows(&file);
    let order: Vec<String> =
        got.iter().map(|v| format!("{} {}", v["opencode"].as_str().unwrap(), v["id"].as_str().unwrap_or("-"))).collect();
    assert_eq!(order, ["session ses_a", "message msg_2", "part prt_1", "message msg_1", "part prt_2", "unreadable -"]);
    let (t, said) = transcript(&file);
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(said[0].starts_with("an OpenCode file that cannot be read: ") && said[0].contains("prt_3.json"), "{said:?}");
    let card = &t.cards()[0];
    assert_eq!((card.status, card.duration_ms()), (Status::Failed, Some(50)));
}

#[test]
fn the_oldest_layout_per_project() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let storage = "project/work-app/storage/session";
    put(root, &format!("{storage}/info/ses_o.json"),
        &json!({"id": "ses_o", "version": "0.1.174", "title": "old", "time": {"created": 1000, "updated": 1000}}));
    put(root, &format!("{storage}/message/ses_o/msg_1.json"), &json!({"id": "msg_1", "role": "user", "time": {"created": 1100}}));
    put(root, &format!("{storage}/part/ses_o/msg_1/prt_1.json"), &json!({"id": "prt_1", "type": "text", "text": "hello"}));
    let file = root.join(storage).join("info/ses_o.json");
    let got = all_rows(&file);
    assert_eq!(got.len(), 3, "{got:?}");
    assert_eq!(got[2]["data"]["text"], "hello");
    // Listed while no storage migration copied it to the newer tree.
    assert_eq!(sessions(root), [file]);
    put(root, "storage/migration", &json!(1));
    assert!(sessions(root).is_empty());
}

#[test]
fn listed_unless_a_database_holds_them_and_restamped_when_a_part_changes() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let storage = root.join("storage");
    put(&storage, "session/p/ses_a.json", &session("ses_a"));
    put(&storage, "session/p/ses_b.json", &session("ses_b"));
    put(&storage, "message/ses_a/msg_1.json", &json!({"id": "msg_1", "role": "user", "time": {"created": 1}}));
    put(&storage, "session_diff/ses_a.json", &json!([]));
    let file = storage.join("session/p/ses_a.json");
    assert_eq!(sessions(root), [file.clone(), storage.join("session/p/ses_b.json")]);
    let before = stamp(&file).unwrap();
    put(&storage, "part/msg_1/prt_1.json", &json!({"id": "prt_1", "type": "text", "text": "go"}));
    let added = stamp(&file).unwrap();
    assert!(added.0 > before.0, "{added:?} {before:?}");
    // Written again in place, the same size: its time moves.
    let part = storage.join("part/msg_1/prt_1.json");
    let later = std::time::SystemTime::now() + std::time::Duration::from_secs(5);
    std::fs::File::options().write(true).open(&part).unwrap().set_modified(later).unwrap();
    let rewritten = stamp(&file).unwrap();
    assert_eq!(rewritten.0, added.0);
    assert!(rewritten.1 > added.1);
    // OpenCode 1.2+ made its database from the tree: listed from there.
    std::fs::write(root.join("opencode.db"), b"").unwrap();
    assert!(sessions(root).is_empty());
}
