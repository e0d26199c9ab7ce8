//! `deck connect` end to end: the real binary under a pseudo-terminal (the
//! [`Tui`] of `tui/pty.rs`) against the fake host of `common::fake_host`,
//! or against no host at all — the first screen says so, Enter keeps the
//! draft, and the session shows once a host comes up; a lost host is said.

use std::time::{Duration, Instant};

use crate::common::fake_host;
use crate::tui::pty::{DEADLINE, Tui};

/// The screen's words on one line (rows joined): text wrapped across rows
/// reads as it was written.
fn flat(screen: &str) -> String {
    screen.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn connect_opens_the_picker_and_s_switches_sessions() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let fake = rt.block_on(fake_host::FakeHost::start(0, None));
    let other = fake.add_finished_session();
    let mut tui = Tui::spawn(&["connect", &fake.url]);
    // No --session: the picker opens on the host's sessions.
    tui.wait_for("the session picker", |s| {
        s.contains("sessions — Enter show") && s.contains("Capture run: approvals")
    });
    tui.send("\r");
    tui.wait_for("the tour session, live", |s| {
        !s.contains("sessions — Enter show")
            && s.lines().last().is_some_and(|l| {
                l.contains("Capture run: tool tour")
                    && l.contains("31 cards")
                    && l.contains("● live")
            })
    });
    // The tour has no approved call.
    tui.send("/⚑ allowed once\r");
    tui.wait_for("no match in the tour", |s| {
        s.lines().last().is_some_and(|l| l.contains("no match"))
    });
    // S: the picker again; the second session; Enter shows it.
    tui.send("S");
    tui.wait_for("the picker from S", |s| s.contains("sessions — Enter show"));
    tui.send("j\r");
    tui.wait_for("the approvals session, backfilled", |s| {
        !s.contains("sessions — Enter show")
            && s.lines().last().is_some_and(|l| {
                !l.contains("switching") && l.contains("31 cards") && !l.contains("backfilling")
            })
    });
    tui.send("/⚑ allowed once\r");
    tui.wait_for("the approved call's card", |s| {
        s.lines()
            .any(|l| l.contains("$ echo probe") && l.contains("⚑ allowed once"))
    });
    // The picker opens on the session shown: the approvals one.
    tui.send("S");
    tui.wait_for("the picker on the shown session", |s| {
        s.lines()
            .any(|l| l.contains("│ ▌") && l.contains("Capture run: approvals"))
    });
    tui.send("\x1b");
    tui.wait_for("the picker closed", |s| {
        !s.contains("sessions — Enter show")
    });
    let asked = fake.requests("session.history");
    assert!(
        asked.iter().any(|p| p["sessionId"] == other.as_str()),
        "the other session came from history: {asked:?}"
    );
    tui.send("q");
    assert!(tui.wait_exit().success());
    tui.assert_restored();
    drop(rt);
}

#[test]
fn connect_new_creates_a_session_and_sends_what_is_typed_and_pasted() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let fake = rt.block_on(fake_host::FakeHost::start(0, None));
    let dir = tempfile::tempdir().unwrap();
    let history = dir.path().join("history.jsonl");
    let mut tui = Tui::spawn_with(
        &[
            "connect",
            &fake.url,
            "--new",
            "--cwd",
            "/work/project",
            "--preset",
            "capture",
        ],
        &[("DECK_HISTORY", history.to_str().unwrap())],
    );
    // --new: the message field has the keys from the start.
    tui.wait_for("the message field", |s| s.contains("message · Enter sends"));
    let prompts = |fake: &fake_host::FakeHost| fake.requests("session.prompt");
    // Two lines (Alt-Enter between them), then Enter.
    tui.send("hello");
    tui.send("\x1b\r");
    tui.send("world\r");
    let start = Instant::now();
    while prompts(&fake).is_empty() && start.elapsed() < DEADLINE {
        std::thread::sleep(Duration::from_millis(20));
    }
    // A bracketed paste keeps its lines; escapes in it are dropped.
    tui.send("\x1b[200~pasted\r\nlines\x1b[31m\x1b[201~");
    tui.wait_for("the paste in the field", |s| s.contains("lines[31m"));
    tui.send("\r");
    while prompts(&fake).len() < 2 && start.elapsed() < DEADLINE {
        std::thread::sleep(Duration::from_millis(20));
    }
    let text = |p: &serde_json::Value| p["content"][0]["text"].as_str().unwrap_or("").to_string();
    let sent = prompts(&fake);
    assert_eq!(
        sent.iter().map(text).collect::<Vec<_>>(),
        ["hello\nworld", "pasted\nlines[31m"]
    );
    assert!(
        sent.iter()
            .all(|p| p["sessionId"] == "session-created-by-deck" && p["mode"] == "queue")
    );
    assert_eq!(
        fake.requests("session.create"),
        [serde_json::json!({"cwd": "/work/project", "agentPreset": "capture"})]
    );
    // Esc alone (not Alt-q): the keys back to the transcript, then q quits.
    tui.send("\x1b");
    std::thread::sleep(Duration::from_millis(200));
    tui.send("q");
    assert!(tui.wait_exit().success());
    tui.assert_restored();
    let raw = tui.raw_text();
    assert!(raw.contains("\x1b[?2004h"), "bracketed paste turned on");
    assert!(raw.contains("\x1b[?2004l"), "and off again");
    // Both messages are in the history file for the next run.
    let kept: Vec<String> = std::fs::read_to_string(&history)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(kept, ["hello\nworld", "pasted\nlines[31m"]);
    drop(rt);
}

#[test]
fn connect_new_without_a_host_says_so() {
    let mut tui = Tui::spawn(&["connect", "http://127.0.0.1:9", "--new"]);
    let status = tui.wait_exit();
    assert!(!status.success());
    let raw = tui.raw_text();
    assert!(
        raw.contains("deck: connect --new: no session created"),
        "{raw}"
    );
    assert!(raw.contains("start one with `dsh web --port 9`"), "{raw}");
}

#[test]
fn connect_without_a_host_says_so_keeps_the_draft_and_shows_the_host_once_up() {
    // A port nobody listens on yet (bound, then closed).
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let url = format!("http://127.0.0.1:{port}");
    let mut tui = Tui::spawn(&["connect", &url]);
    let s = tui.wait_for("the unreachable notice", |s| {
        s.contains("Cannot reach the DSH host")
    });
    let words = flat(&s);
    for said in [
        format!("Cannot reach the DSH host at {url}"),
        format!("cannot connect to 127.0.0.1:{port}"),
        format!(
            "Start one with dsh web --port {port} (the dsh command of the npm package @deepseek-ai/dsh)"
        ),
        "deck tries again by itself: after 250 ms, then twice as long each time, at most every 5 s"
            .to_string(),
    ] {
        assert!(words.contains(&said), "{said:?} in:\n{s}");
    }
    // Enter while not connected: nothing sent, the draft stays, and the
    // status line says why.
    tui.send("i");
    tui.send("hello host");
    tui.wait_for("the draft", |s| s.contains("› hello host"));
    tui.send("\r");
    let s = tui.wait_for("the refusal", |s| {
        s.lines()
            .last()
            .is_some_and(|l| l.contains("not sent: not connected"))
    });
    assert!(
        s.lines().rev().nth(1).unwrap().starts_with("› hello host"),
        "{s}"
    );
    // A host comes up on that port: the notice goes, the session shows.
    let rt = tokio::runtime::Runtime::new().unwrap();
    let fake = rt.block_on(fake_host::FakeHost::start_on(port));
    let s = tui.wait_for("the session, live", |s| {
        !s.contains("Cannot reach")
            && s.lines()
                .last()
                .is_some_and(|l| l.contains("Capture run: tool tour") && l.contains("● live"))
    });
    assert!(s.contains("› hello host"), "the draft is still there: {s}");
    // Now Enter sends it.
    tui.send("\r");
    let start = Instant::now();
    while fake.requests("session.prompt").is_empty() && start.elapsed() < DEADLINE {
        std::thread::sleep(Duration::from_millis(20));
    }
    let sent = fake.requests("session.prompt");
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_eq!(sent[0]["content"][0]["text"], "hello host");
    // The host goes away: a banner says the link is lost and deck reconnects.
    drop(rt);
    let s = tui.wait_for("the lost banner", |s| s.contains("⚠ lost the DSH host"));
    assert!(
        flat(&s).contains(&format!("⚠ lost the DSH host at {url}")),
        "{s}"
    );
    assert!(flat(&s).contains("deck reconnects by itself"), "{s}");
    tui.send("\x1b");
    std::thread::sleep(Duration::from_millis(200));
    tui.send("q");
    assert!(tui.wait_exit().success());
    tui.assert_restored();
}
