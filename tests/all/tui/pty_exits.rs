//! The ways out of a TUI under a pseudo-terminal (the harness is
//! `tui/pty.rs`'s [`Tui`]): SIGTERM, SIGHUP and SIGINT stop the app and
//! give the terminal back; a terminal that goes away (issue 36) ends
//! `deck view` and `deck follow` cleanly; a load error and a panic give the
//! terminal back, then say why.

use std::time::{Duration, Instant};

use crate::tui::pty::{DEADLINE, Tui};

#[test]
fn sigterm_sighup_and_sigint_stop_the_app_and_restore_the_terminal() {
    for sig in ["-TERM", "-HUP", "-INT"] {
        let mut tui = Tui::spawn(&["view", "demo-sessions/showcase.jsonl", "--theme", "dark"]);
        tui.wait_for("the first screen", |s| s.contains("── turn 1 ─"));
        let pid = tui.child.process_id().expect("a child pid");
        let killed = std::process::Command::new("kill")
            .arg(sig)
            .arg(pid.to_string())
            .status()
            .expect("kill runs");
        assert!(killed.success());
        // The app stops by itself (wait_exit gives up after its deadline).
        tui.wait_exit();
        tui.assert_restored();
    }
}

/// Issue 36: a terminal that goes away (its window closed: SIGHUP, and EIO
/// on every read and write after) ends `deck view` and `deck follow` as
/// `q` does: a clean exit, no panic over the terminal that is gone.
#[test]
fn a_hang_up_ends_view_and_follow_cleanly() {
    for command in ["view", "follow"] {
        let mut tui = Tui::spawn(&[command, "demo-sessions/showcase.jsonl", "--theme", "dark"]);
        tui.wait_for("the first screen", |s| {
            s.contains("showcase.jsonl") && s.lines().last().is_some_and(|l| l.contains("? help"))
        });
        tui.hang_up();
        let start = Instant::now();
        let status = loop {
            if let Some(s) = tui.exited() {
                break s;
            }
            assert!(
                start.elapsed() < DEADLINE,
                "deck {command} outlived its terminal"
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        assert!(status.success(), "deck {command}: {status:?}");
    }
}

#[test]
fn a_load_error_restores_the_terminal_and_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notes.txt");
    std::fs::write(&path, "just some notes\nnot frames\n").unwrap();
    let mut tui = Tui::spawn(&["view", &path.to_string_lossy()]);
    let status = tui.wait_exit();
    assert!(!status.success());
    let s = tui.screen();
    assert!(s.contains("unknown format"), "{s}");
    let parser = tui.parser.lock().unwrap();
    assert!(
        !parser.screen().alternate_screen(),
        "back on the main screen"
    );
}

#[test]
fn a_panic_gives_the_terminal_back_then_says_why() {
    // Debug builds panic on purpose after the first draw with this set.
    let mut tui = Tui::spawn_with(
        &["view", "demo-sessions/showcase.jsonl", "--theme", "dark"],
        &[("DECK_TEST_PANIC", "1"), ("RUST_BACKTRACE", "0")],
    );
    let status = tui.wait_exit();
    assert!(!status.success(), "{status:?}");
    let raw = String::from_utf8_lossy(&tui.raw.lock().unwrap()).into_owned();
    let enter = raw
        .find("\x1b[?1049h")
        .expect("entered the alternate screen");
    // The hook leaves the alternate screen first (unwinding restores again).
    let leave = enter
        + raw[enter..]
            .find("\x1b[?1049l")
            .expect("left the alternate screen");
    // The message comes after the terminal was given back, so it stays readable.
    let said = raw
        .find("DECK_TEST_PANIC: a panic on purpose")
        .expect("the panic message");
    assert!(
        said > leave,
        "the message was written on the alternate screen"
    );
    let parser = tui.parser.lock().unwrap();
    assert!(!parser.screen().alternate_screen());
    assert!(!parser.screen().hide_cursor());
    assert_eq!(
        parser.screen().mouse_protocol_mode(),
        vt100::MouseProtocolMode::None
    );
    drop(parser);
    let flags = tui.local_flags();
    for f in ["ICANON", "ECHO", "ISIG"] {
        assert!(flags.iter().any(|x| x == f), "{f} back on: {flags:?}");
    }
}
