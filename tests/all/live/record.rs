//! `deck record` (the binary) against the fake host: it records both
//! sockets as they arrive (a SIGKILL loses nothing), backfills what it
//! missed from history, and the recording reads back with `deck render`
//! and `deck inspect` like the capture itself. Every wait is bounded.

use std::collections::BTreeMap;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::fake_host::{Cmd, FakeHost, last_seq_before};
use crate::common::{self, deck_cmd, deck_ok};

const LIMIT: Duration = Duration::from_secs(60);

/// seq → times it appears in the recording (envelopes and bare frames).
fn recorded_seqs(path: &std::path::Path) -> BTreeMap<u64, usize> {
    let mut out = BTreeMap::new();
    let text = std::fs::read_to_string(path).unwrap_or_default();
    for line in text.lines() {
        let Ok(v) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        let frame = if v["type"] == "server-request" {
            &v["payload"]
        } else {
            &v
        };
        if frame["type"] == "session/event"
            && let Some(s) = frame["event"]["seq"].as_u64()
        {
            *out.entry(s).or_default() += 1;
        }
    }
    out
}

/// Wait (bounded) until the recording satisfies `done`.
fn wait_file(
    path: &std::path::Path,
    child: &mut Child,
    done: impl Fn(&BTreeMap<u64, usize>) -> bool,
) {
    let start = Instant::now();
    loop {
        if done(&recorded_seqs(path)) {
            return;
        }
        if let Ok(Some(status)) = child.try_wait() {
            panic!("deck record exited early: {status}");
        }
        if start.elapsed() > LIMIT {
            let _ = child.kill();
            panic!("the recording did not get there in time");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn recording_survives_sigkill_holds_every_event_and_renders_like_the_capture() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    // Join late (message 100) and lose 100 messages to a dropped socket.
    let fake = rt.block_on(FakeHost::start(100, Some(300)));
    let before_drop = last_seq_before(&fake.state.mux, 300).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("rec.jsonl");
    let mut child = deck_cmd()
        .args(["record", &fake.url, "-o"])
        .arg(&file)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_file(&file, &mut child, |s| {
        s.contains_key(&before_drop) && s.len() as u64 == before_drop + 1
    });
    fake.cmd.send(Cmd::Drop { skip: 100 }).unwrap();
    wait_file(&file, &mut child, |s| s.len() == 359);
    // SIGKILL: what was received is on disk already.
    child.kill().unwrap();
    child.wait().unwrap();
    let seqs = recorded_seqs(&file);
    assert_eq!(
        seqs.keys().copied().collect::<Vec<_>>(),
        (0..=358).collect::<Vec<_>>()
    );
    // Backfilled events are written once: only what the sockets did not carry.
    assert!(
        seqs.values().all(|&n| n == 1),
        "an event was recorded twice"
    );
    // Every socket message is in the file verbatim.
    let text = std::fs::read_to_string(&file).unwrap();
    let lines: std::collections::HashSet<&str> = text.lines().collect();
    let sent_live = fake.state.mux[100..300]
        .iter()
        .chain(&fake.state.mux[400..]);
    for m in sent_live {
        assert!(lines.contains(m.as_str()), "missing a mux message");
    }

    let rec = file.to_string_lossy().into_owned();
    let cap = common::capture_str("tour", "frames.jsonl");
    assert_eq!(deck_ok(&["inspect", &rec]), deck_ok(&["inspect", &cap]));
    let rendered = deck_ok(&["render", &rec, "--width", "100"]);
    assert_eq!(rendered, deck_ok(&["render", &cap, "--width", "100"]));
    drop(rt);
}

#[test]
fn sigterm_and_duration_stop_the_recorder_cleanly() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let fake = rt.block_on(FakeHost::start(0, None));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("rec.jsonl");
    let mut child = deck_cmd()
        .args(["record", &fake.url, "-o"])
        .arg(&file)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Its messages as they come: the file can hold every event a moment
    // before the recorder says it is live.
    let said = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    let reader = {
        let said = said.clone();
        let mut pipe = child.stderr.take().unwrap();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = std::io::Read::read(&mut pipe, &mut buf) {
                if n == 0 {
                    break;
                }
                said.lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        })
    };
    wait_file(&file, &mut child, |s| s.len() == 359);
    let start = Instant::now();
    while !said.lock().unwrap().contains("● live") {
        assert!(
            start.elapsed() < LIMIT,
            "never live: {}",
            said.lock().unwrap()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let pid = child.id().to_string();
    assert!(
        Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap()
            .success()
    );
    let status = child.wait().unwrap();
    reader.join().unwrap();
    assert!(status.success());
    let err = said.lock().unwrap().clone();
    assert!(err.contains("stopped: SIGTERM"), "{err}");

    let file2 = dir.path().join("rec2.jsonl");
    let out = deck_cmd()
        .args(["record", &fake.url, "--duration", "3", "-o"])
        .arg(&file2)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(common::stderr(&out).contains("--duration elapsed"));
    // Connected after the tour: everything came from history.
    assert_eq!(recorded_seqs(&file2).len(), 359);
    drop(rt);
}

#[test]
fn sigterm_writes_history_events_still_waiting_for_their_live_copy() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    // The socket announces `session/subscribed` at message 100 and then
    // sends nothing; history already knows 60 more messages: those events
    // are held (their live copy should follow) and must reach the file when
    // the recorder is stopped.
    let fake = rt.block_on(FakeHost::start_ahead(100, Some(100), 60));
    let live_last = last_seq_before(&fake.state.mux, 100).unwrap();
    let history_last = last_seq_before(&fake.state.mux, 160).unwrap();
    assert!(history_last > live_last);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("rec.jsonl");
    let mut child = deck_cmd()
        .args(["record", &fake.url, "-o"])
        .arg(&file)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_file(&file, &mut child, |s| {
        s.len() as u64 == live_last + 1 && s.contains_key(&live_last)
    });
    // Let the history page land (it is asked for at connect).
    let start = Instant::now();
    while !fake.methods().iter().any(|m| m == "session.history") {
        assert!(start.elapsed() < LIMIT, "no history fetch");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    // Held, not written yet: the socket may still deliver them.
    assert!(!recorded_seqs(&file).contains_key(&history_last));
    let pid = child.id().to_string();
    assert!(
        Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap()
            .success()
    );
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let seqs = recorded_seqs(&file);
    assert_eq!(
        seqs.keys().copied().collect::<Vec<_>>(),
        (0..=history_last).collect::<Vec<_>>()
    );
    assert!(
        seqs.values().all(|&n| n == 1),
        "an event was recorded twice"
    );
    drop(rt);
}

#[test]
fn bad_sources_are_refused_with_a_message() {
    let dir = tempfile::tempdir().unwrap();
    let out = deck_cmd()
        .args(["record", "https://127.0.0.1:1", "-o"])
        .arg(dir.path().join("x.jsonl"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let said = common::stderr(&out);
    assert!(said.contains("not a host URL"), "{said}");
    assert!(said.contains("TLS"), "the reason is said: {said}");
    let out = deck_cmd()
        .args(["record", "http://127.0.0.1", "-o"])
        .arg(dir.path().join("x.jsonl"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(common::stderr(&out).contains("no port"));
    let out = deck_cmd()
        .args(["record", "http://127.0.0.1:1", "--duration", "-1", "-o"])
        .arg(dir.path().join("x.jsonl"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    // The interactive commands need a terminal.
    let out = deck_cmd().args(["connect"]).output().unwrap();
    assert!(!out.status.success());
    assert!(common::stderr(&out).contains("needs a terminal"));
}
