//! Nothing `deck acp` started outlives it (issue 28 §2): a command a
//! terminal started in a session of its own (`setsid`) is stopped when the
//! session ends, and SIGTERM, SIGINT or SIGHUP end deck as `q` does — the turn
//! cancelled, the agent (one that outlives its input, and its child) and
//! every terminal's command stopped, the recording kept.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::acp::live::{acp, alive, fake, lines, scratch};
use crate::common::{deck_cmd, stderr};

/// Wait for `file` to appear (the fake agent writes pids once it started them).
fn appears(file: &Path) {
    let start = Instant::now();
    while !file.exists() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{} never appeared",
            file.display()
        );
        std::thread::sleep(Duration::from_millis(25));
    }
    // Written: the pid is whole once the file is not empty.
    while std::fs::read_to_string(file)
        .unwrap_or_default()
        .trim()
        .is_empty()
    {
        std::thread::sleep(Duration::from_millis(25));
    }
}

#[test]
fn a_command_started_with_setsid_is_stopped_when_the_session_ends() {
    let (dir, ws) = scratch();
    let rec = dir.path().join("rec.jsonl");
    let o = acp(&ws, &rec, &["--prompt", "detach"], &["python3", &fake()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        !alive(&ws.join("detached.pid")),
        "the command started with setsid still runs"
    );
}

/// Issue 28 §2 (SIGTERM, SIGINT) and issue 36 (SIGHUP, the terminal
/// closed): without the view too, each ends deck as `q` does.
#[test]
fn sigterm_sigint_and_sighup_end_deck_the_agent_and_its_terminals() {
    for sig in [libc::SIGTERM, libc::SIGINT, libc::SIGHUP] {
        let (dir, ws) = scratch();
        let rec = dir.path().join("rec.jsonl");
        let mut deck = deck_cmd()
            .args([
                "acp",
                "--cwd",
                ws.to_str().unwrap(),
                "--record",
                rec.to_str().unwrap(),
            ])
            .args([
                "--prompt",
                "detach and wait",
                "--",
                "python3",
                &fake(),
                "linger",
            ])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        appears(&ws.join("wait.pid"));
        // SAFETY: a signal to the deck this test started.
        unsafe {
            libc::kill(deck.id() as i32, sig);
        }
        let start = Instant::now();
        let status = loop {
            if let Some(s) = deck.try_wait().unwrap() {
                break s;
            }
            if start.elapsed() > Duration::from_secs(15) {
                let _ = deck.kill();
                panic!("deck did not end on signal {sig}");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let mut err = String::new();
        use std::io::Read;
        deck.stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        assert!(
            status.code().is_some(),
            "deck ended by the signal itself, not by its own exit: {status:?} {err}"
        );
        for pid in ["agent.pid", "agent-child.pid", "wait.pid", "detached.pid"] {
            assert!(
                !alive(&ws.join(pid)),
                "signal {sig}: {pid} still runs; {err}"
            );
        }
        // As `q`: the running turn was cancelled, the recording kept.
        let trace = lines(&rec);
        assert!(
            trace.iter().any(|l| l["msg"]["method"] == "session/cancel"),
            "signal {sig}: no cancel"
        );
    }
}

/// Issue 28 §2: an agent asking for a FIFO inside the cwd does not hang
/// deck: the request is refused, and `q` ends deck and the agent.
#[test]
fn q_ends_deck_after_the_agent_asked_for_a_fifo() {
    let (dir, ws) = scratch();
    let fifo = std::ffi::CString::new(ws.join("pipe").to_str().unwrap()).unwrap();
    // SAFETY: mkfifo with a valid C string.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    let rec = dir.path().join("rec.jsonl");
    let mut tui = crate::acp::live::open_view(&ws, &rec, &["linger"]);
    tui.send("traps\r");
    tui.wait_for("the turn's end", |s| {
        s.contains("made/deep/new.txt -> served")
    });
    tui.send("\x1b");
    std::thread::sleep(Duration::from_millis(150));
    tui.send("q");
    assert!(tui.wait_exit().success());
    tui.assert_restored();
    for pid in ["agent.pid", "agent-child.pid"] {
        assert!(!alive(&ws.join(pid)), "{pid} still runs");
    }
    let refused = lines(&rec).into_iter().find(|l| {
        l["msg"]["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("/pipe is not a regular file"))
    });
    assert!(refused.is_some(), "the FIFO was not refused");
}
