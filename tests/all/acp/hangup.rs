//! Issue 36: closing the terminal ends the agent. `deck acp` in its view,
//! on the fake agent that outlives its input (and its child), with a turn
//! running a terminal and a command that left for a session of its own
//! (`setsid`): the terminal goes away under it ([`Tui::hang_up`]: SIGHUP,
//! then EIO on every read and write), and within 5 s nothing deck started
//! is left — the agent, its child, the terminals' commands — deck has
//! exited, and the recording says the turn was cancelled, as on `q`. The
//! same when SIGHUP cannot reach deck (blocked by what started it): a
//! terminal that is gone is seen by the failing reads and writes.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::acp::live::{fake, lines, open_view, scratch};
use crate::tui::pty::Tui;

/// The pid in `file`, once the fake agent has written it.
fn pid_in(file: &Path) -> i32 {
    let start = Instant::now();
    loop {
        if let Ok(text) = std::fs::read_to_string(file)
            && let Ok(pid) = text.trim().parse()
        {
            return pid;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{} never written",
            file.display()
        );
        std::thread::sleep(Duration::from_millis(25));
    }
}

/// Whether `pid` runs (a zombie has ended).
fn runs(pid: i32) -> bool {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    !stat.is_empty()
        && !stat
            .rsplit(')')
            .next()
            .is_some_and(|rest| rest.trim_start().starts_with('Z'))
}

/// Hang up under a running session of `tui` in `ws`; within 5 s deck and
/// everything it started must be gone.
fn hang_up_and_check(mut tui: Tui, ws: &Path, rec: &Path) {
    tui.send("detach and wait\r");
    tui.wait_for("the waiting terminal", |s| {
        s.contains("sleep until cancelled")
    });
    let started: Vec<(&str, i32)> = ["agent.pid", "agent-child.pid", "wait.pid", "detached.pid"]
        .into_iter()
        .map(|f| (f, pid_in(&ws.join(f))))
        .collect();
    assert!(started.iter().all(|(_, p)| runs(*p)), "{started:?}");
    let deck = tui.pid() as i32;
    tui.hang_up();
    let start = Instant::now();
    loop {
        let left: Vec<&(&str, i32)> = started.iter().filter(|(_, p)| runs(*p)).collect();
        let deck_runs = tui.exited().is_none();
        if left.is_empty() && !deck_runs {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "5 s after the hang-up, still running: {left:?}{}",
            if deck_runs {
                format!(" and deck ({deck})")
            } else {
                String::new()
            }
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // As `q`: the running turn was cancelled; the recording was kept.
    let trace = lines(rec);
    assert!(
        trace.iter().any(|l| l["msg"]["method"] == "session/cancel"),
        "no cancel"
    );
}

#[test]
fn a_hang_up_ends_deck_acp_and_everything_it_started() {
    let (dir, ws) = scratch();
    let rec = dir.path().join("rec.jsonl");
    let tui = open_view(&ws, &rec, &["linger"]);
    hang_up_and_check(tui, &ws, &rec);
}

#[test]
fn a_terminal_gone_ends_deck_acp_without_its_sighup() {
    let (dir, ws) = scratch();
    let rec = dir.path().join("rec.jsonl");
    // SIGHUP blocked in deck (a blocked signal stays blocked across exec).
    let block = "import os, signal, sys; signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGHUP]); \
                 os.execv(sys.argv[1], sys.argv[1:])";
    let fake = fake();
    let args = [
        "acp",
        "--cwd",
        ws.to_str().unwrap(),
        "--record",
        rec.to_str().unwrap(),
        "--",
        "python3",
        &fake,
        "linger",
    ];
    let mut tui = Tui::spawn_under(&["python3", "-c", block], &args, &[]);
    tui.wait_for("the session open", |s| s.contains("acp python3"));
    hang_up_and_check(tui, &ws, &rec);
}
