//! A file folded as it is read gives the rows and entries of the file read
//! whole: every fixture of every agent (frame and session logs, zstd,
//! Claude Code with subagents and saved output, Codex, ACP, histories,
//! OpenCode's database and the root of its older tree,
//! damaged and several-session files), with items let go of as early as
//! can be and as the index does; the fold coming back to an item it let go
//! of, or events out of order, read again whole; and a long session held a
//! few sweeps at a time.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::*;
use crate::library::discover::Found;
use crate::library::read::{Doc, read_with};

/// Items let go of as early as can be: a sweep after every record, no
/// card kept (the fold's looks back for a plan's call come back to them).
const EAGER: Limits = Limits {
    sweep: 0,
    keep_cards: 0,
};

/// A sweep after every record, the cards the fold looks back at kept.
const NEAR: Limits = Limits {
    sweep: 0,
    keep_cards: crate::session::LOOK_BACK_CARDS,
};

/// The rows and entries (by session and item) of reading `path`, and
/// whether it was read again whole.
fn entries(path: &Path, limits: Option<Limits>) -> (Vec<SessionRow>, Vec<Doc>, bool) {
    let meta = std::fs::metadata(path).unwrap();
    let found = Found {
        path: path.to_path_buf(),
        agent: None,
        size: meta.len(),
        mtime_ns: 0,
    };
    let mut docs = Vec::new();
    let mut again = false;
    let read = read_with(&found, limits, &mut |e| match e {
        Entry::Doc(d) => docs.push(d),
        Entry::Again => {
            docs.clear();
            again = true;
        }
    });
    docs.sort_by(|a: &Doc, b: &Doc| (&a.session, a.item).cmp(&(&b.session, b.item)));
    (read.rows, docs, again)
}

/// `path` read whole, and folded as read [`EAGER`]ly, [`NEAR`]ly and as
/// the index does: the same rows and entries; whether the near fold read
/// it again whole.
fn same_every_way(path: &Path) -> bool {
    let (rows, docs, _) = entries(path, None);
    let name = path.display();
    let mut near_again = false;
    for (how, limits) in [("eager", EAGER), ("near", NEAR), ("index", Limits::default())] {
        let (got_rows, got_docs, again) = entries(path, Some(limits));
        assert_eq!(got_rows, rows, "{name}: rows, {how}");
        assert_eq!(got_docs.len(), docs.len(), "{name}: entries, {how}");
        for (a, b) in got_docs.iter().zip(&docs) {
            assert_eq!(a, b, "{name}: {how}");
        }
        near_again |= how == "near" && again;
    }
    near_again
}

#[test]
fn every_fixture_reads_the_same_folded_as_read_as_whole() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = crate::load::tests::fixture_files();
    let mut again = Vec::new();
    for f in &files {
        if same_every_way(f) {
            again.push(f.strip_prefix(root).unwrap().display().to_string());
        }
    }
    // All are folded as read but Claude Code sessions with subagents (and
    // their subagents' own logs), and pi's (a tree: its records come at the
    // end, once the path taken is known), read whole.
    assert!(
        again
            .iter()
            .all(|f| f.contains("claude-code/tour") || f.contains("claude-code/extras") || f.contains("agents/pi/")),
        "{again:#?}"
    );
}

#[test]
fn claude_codes_saved_output_is_put_back_as_the_session_is_read() {
    // The extras session without its subagents: its saved output stays.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let id = "5b1e0c3a-7d2f-4c8e-9a61-3f4d2e1b0c9d";
    let from = root.join("tests/fixtures/agents/claude-code/extras");
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join(format!("{id}.jsonl"));
    std::fs::copy(from.join(format!("{id}.jsonl")), &log).unwrap();
    std::fs::create_dir_all(dir.path().join(id).join("tool-results")).unwrap();
    for e in std::fs::read_dir(from.join(id).join("tool-results")).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), dir.path().join(id).join("tool-results").join(e.file_name()))
            .unwrap();
    }
    assert!(!same_every_way(&log), "streamed");
    let (_, docs, _) = entries(&log, Some(NEAR));
    let saved = std::fs::read_dir(dir.path().join(id).join("tool-results"))
        .unwrap()
        .flatten()
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .next()
        .unwrap();
    let tail = saved.trim_end().lines().last().unwrap();
    assert!(docs.iter().any(|d| d.text.contains(tail)), "{tail}");
}

/// A bare session event line.
fn ev(kind: &str, seq: u64, data: Value) -> String {
    json!({"type": kind, "seq": seq, "time": 1_796_000_000_000u64 + seq, "data": data}).to_string()
        + "\n"
}

/// An event line of session `sid`, as the host streams it.
fn framed(sid: &str, kind: &str, seq: u64, data: Value) -> String {
    let event = json!({"type": kind, "seq": seq, "time": 1_796_000_000_000u64 + seq, "data": data});
    json!({"type": "session/event", "sessionId": sid, "event": event}).to_string() + "\n"
}

/// A turn of `calls` shell calls from seq `seq` on, each printing a few
/// lines: its lines and the next seq.
fn turn(line: &dyn Fn(&str, u64, Value) -> String, turn: u64, calls: u64, mut seq: u64) -> (String, u64) {
    let mut out = line("turn/start", seq, json!({"turn": turn}));
    seq += 1;
    let said = json!({"turn": turn, "content": [{"type": "text", "text": format!("do task {turn}")}]});
    out += &line("user/message", seq, said);
    seq += 1;
    for c in 0..calls {
        let id = format!("c{turn}_{c}");
        let args = json!({"command": format!("echo {turn} {c}")}).to_string();
        let msg = json!({"turn": turn, "step": c + 1,
            "message": {"role": "assistant", "content": [{"type": "text", "text": format!("running {id}")}]}});
        out += &line("assistant/message", seq, msg);
        seq += 1;
        out += &line("tool/call", seq, json!({"turn": turn, "step": c + 1, "callId": id, "name": "bash", "arguments": args}));
        seq += 1;
        let text: String = (0..6).map(|k| format!("line {k} of {id}\n")).collect();
        let part = json!({"type": "tool-result", "toolCallId": id, "isError": c % 7 == 3,
            "content": [{"type": "text", "text": text}]});
        out += &line("tool/result", seq, json!({"turn": turn, "step": c + 1, "message": {"content": [part]}}));
        seq += 1;
    }
    out += &line("turn/end", seq, json!({"turn": turn, "reason": {"kind": "completed"}}));
    (out, seq + 1)
}

/// A session of `turns` turns of `calls` calls.
fn session(line: &dyn Fn(&str, u64, Value) -> String, turns: u64, calls: u64) -> String {
    let mut out = String::new();
    let mut seq = 1;
    for t in 1..=turns {
        let (text, next) = turn(line, t, calls, seq);
        out += &text;
        seq = next;
    }
    out
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// `path` folded as read with `limits`, its entries dropped.
fn streamed(path: &Path, limits: Limits) -> Result<Result<Streamed, LoadError>, Again> {
    let file = std::fs::File::open(path).unwrap();
    let size = file.metadata().unwrap().len();
    stream(&path.to_string_lossy(), &file, size, limits, &mut |_| {})
}

#[test]
fn a_long_session_is_held_a_few_sweeps_at_a_time() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "long.jsonl", &session(&ev, 200, 10));
    let limits = Limits {
        sweep: 64 << 10,
        keep_cards: crate::session::LOOK_BACK_CARDS,
    };
    let s = streamed(&p, limits).unwrap().unwrap();
    let (rows, docs, _) = entries(&p, None);
    assert_eq!(s.rows, rows);
    assert_eq!(rows[0].calls, 2000);
    // 4,600 items, of which a sweep holds a few hundred.
    assert_eq!(docs.len(), 4200);
    assert!(s.most_held > 0 && s.most_held < 1500, "{}", s.most_held);
    assert!(!same_every_way(&p));
}

#[test]
fn what_a_sweep_holds_does_not_grow_with_the_session() {
    let dir = tempfile::tempdir().unwrap();
    let limits = Limits {
        sweep: 16 << 10,
        keep_cards: crate::session::LOOK_BACK_CARDS,
    };
    // A damaged line in every turn: its diagnostic is let go of too (but
    // the first, which says why the file has problems).
    let damaged = |turns| {
        let text = session(&ev, turns, 10);
        let mut out = String::new();
        for (i, l) in text.lines().enumerate() {
            out += l;
            out += "\n";
            if i % 40 == 7 {
                out += "{\"type\": \"tool/res\n";
            }
        }
        out
    };
    let mut held = Vec::new();
    for turns in [100, 400] {
        let p = write(dir.path(), &format!("t{turns}.jsonl"), &damaged(turns));
        let s = streamed(&p, limits).unwrap().unwrap();
        assert_eq!(s.rows, entries(&p, None).0);
        held.push(s.most_held);
    }
    // 4× the session, the same few sweeps held (not 4× the slots).
    assert!(held[0] > 0 && held[1] <= held[0] + held[0] / 10, "{held:?}");
}

#[test]
fn several_sessions_orphans_damage_and_bare_logs_read_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let a = |k: &str, s: u64, d: Value| framed("alpha", k, s, d);
    let b = |k: &str, s: u64, d: Value| framed("beta", k, s, d);
    // Two sessions, their lines interleaved, a damaged line among them.
    let (ta, tb) = (session(&a, 6, 5), session(&b, 4, 7));
    let mut mixed = String::new();
    for (x, y) in ta.lines().zip(tb.lines().chain(std::iter::repeat(""))) {
        mixed += x;
        mixed += "\n";
        if !y.is_empty() {
            mixed += y;
            mixed += "\n";
        }
    }
    mixed.insert_str(mixed.len() / 2, "{\"type\": \"tool/res\n");
    let several = write(dir.path(), "several.jsonl", &mixed);
    assert!(!same_every_way(&several));
    assert_eq!(entries(&several, None).0.len(), 2);
    // Events with no session named, then a session: they are its first.
    let orphans = session(&ev, 3, 4) + &framed("named", "turn/start", 500, json!({"turn": 9}));
    let p = write(dir.path(), "orphans.jsonl", &orphans);
    same_every_way(&p);
    assert_eq!(entries(&p, None).0[0].id.as_deref(), Some("named"));
    // No session named at all.
    let bare = write(dir.path(), "bare.jsonl", &session(&ev, 5, 5));
    assert!(!same_every_way(&bare));
    // Nothing but damage; empty; not text.
    same_every_way(&write(dir.path(), "damaged.jsonl", "{\"nope\n{]\n"));
    same_every_way(&write(dir.path(), "empty.jsonl", ""));
    std::fs::write(dir.path().join("binary.jsonl"), [0u8, 1, 2, 3, 255, 254]).unwrap();
    same_every_way(&dir.path().join("binary.jsonl"));
    // zstd.
    let z = zstd::encode_all(session(&ev, 4, 6).as_bytes(), 3).unwrap();
    std::fs::write(dir.path().join("z.jsonl.zst"), z).unwrap();
    assert!(!same_every_way(&dir.path().join("z.jsonl.zst")));
}

#[test]
fn events_out_of_order_are_read_again_whole() {
    let dir = tempfile::tempdir().unwrap();
    let text = session(&ev, 3, 4);
    let mut lines: Vec<&str> = text.lines().collect();
    // A backfilled stretch after later events.
    let moved: Vec<&str> = lines.drain(10..14).collect();
    let at = lines.len() - 3;
    lines.splice(at..at, moved);
    let p = write(dir.path(), "backfilled.jsonl", &(lines.join("\n") + "\n"));
    assert!(matches!(streamed(&p, Limits::default()), Err(Again(why)) if why.contains("order")));
    assert!(same_every_way(&p));
}

#[test]
fn the_fold_coming_back_to_an_item_let_go_of_reads_the_file_again_whole() {
    let dir = tempfile::tempdir().unwrap();
    let text = session(&ev, 30, 5);
    let report = json!({"turn": 31, "content": [{"type": "text", "text": "<task-notification>"}],
        "source": {"kind": "notification", "callId": "c1_0"},
        "task": {"id": "t1", "status": "failed", "summary": "it broke later"}});
    let report = ev("user/message", 100_000, report);
    // A result told again much later, and a message of an early step.
    let part = json!({"type": "tool-result", "toolCallId": "c2_1", "isError": false, "content": []});
    let again = ev("tool/result", 100_001, json!({"turn": 2, "message": {"content": [part]}}));
    let msg = json!({"turn": 3, "step": 1, "message": {"role": "assistant",
        "content": [{"type": "text", "text": "said again"}]}});
    let late = ev("assistant/message", 100_001, msg);
    for (name, tail) in [("report", report), ("result", again), ("message", late)] {
        let p = write(dir.path(), &format!("{name}.jsonl"), &(text.clone() + &tail));
        let eager = streamed(&p, EAGER);
        assert!(
            matches!(&eager, Err(Again(why)) if why.contains("came back")),
            "{name}: {eager:?}"
        );
        assert!(same_every_way(&p), "{name}");
    }
    // The report fails the early card, as read whole.
    let p = dir.path().join("report.jsonl");
    let (rows, docs, _) = entries(&p, Some(EAGER));
    assert_eq!(rows[0].errors, entries(&p, None).0[0].errors);
    assert!(docs.iter().any(|d| d.call.as_deref() == Some("c1_0") && d.error));
}

