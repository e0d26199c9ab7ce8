//! A file holding two sessions through the real binary: `deck view` and
//! `deck replay` open the session picker first, Enter shows one, `S`
//! switches, `q` on the first picker quits with the terminal restored; and
//! `deck render`, `export` and `inspect` say on stderr that they took the
//! first session and how to get the other. (The app alone:
//! `tui/file_sessions.rs`.)

use crate::common::build::two_sessions;
use crate::common::{deck, stderr, stdout};
use crate::tui::pty::Tui;

/// The two sessions in a file of their own.
fn two_file() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("two.frames.jsonl");
    std::fs::write(&path, two_sessions()).unwrap();
    let path = path.to_string_lossy().into_owned();
    (dir, path)
}

#[test]
fn view_picks_a_session_then_switches_with_capital_s() {
    let (_dir, path) = two_file();
    let mut tui = Tui::spawn(&["view", &path, "--theme", "dark"]);
    tui.wait_for("the session picker", |s| {
        s.contains("2 sessions in two.frames.jsonl") && s.contains("Beta prompt here  beta-2")
    });
    tui.send("j\r");
    tui.wait_for("the second session", |s| {
        s.contains("beta output 1") && !s.contains("2 sessions in")
    });
    tui.send("S");
    tui.wait_for("the picker again", |s| s.contains("Esc close"));
    tui.send("k\r");
    tui.wait_for("the first session", |s| {
        s.contains("alpha output") && s.contains("session 1/2: Alpha work")
    });
    tui.send("q");
    assert!(tui.wait_exit().success());
    tui.assert_restored();
}

#[test]
fn replay_picks_a_session_and_q_on_the_first_picker_quits() {
    let (_dir, path) = two_file();
    let mut tui = Tui::spawn(&["replay", &path, "--theme", "dark", "--paused"]);
    tui.wait_for("the session picker", |s| s.contains("q quit"));
    tui.send("\r");
    tui.wait_for("the paused player of the first session", |s| {
        s.lines().last().is_some_and(|l| l.contains("event 0/4"))
    });
    tui.send("q");
    assert!(tui.wait_exit().success());
    tui.assert_restored();

    let mut tui = Tui::spawn(&["replay", &path, "--theme", "dark"]);
    tui.wait_for("the session picker", |s| s.contains("q quit"));
    tui.send("q");
    assert!(tui.wait_exit().success());
    tui.assert_restored();
}

#[test]
fn render_export_and_inspect_say_what_they_left_out() {
    let (dir, path) = two_file();
    let said = |args: &[&str]| {
        let o = deck(args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        (stdout(&o), stderr(&o))
    };
    let (out, err) = said(&["render", &path]);
    assert!(
        out.contains("alpha output") && !out.contains("beta output"),
        "{out}"
    );
    assert!(
        err.contains("holds 2 sessions; this is the first (alpha-1), 1 left out: --session ID"),
        "{err}"
    );
    assert!(err.contains("deck inspect --sessions"), "{err}");
    let (out, err) = said(&["render", &path, "--session", "beta-2"]);
    assert!(out.contains("beta output 2"), "{out}");
    assert!(!err.contains("sessions"), "{err}");
    let (_, err) = said(&["inspect", &path]);
    assert!(err.contains("holds 2 sessions"), "{err}");
    let (out, err) = said(&["inspect", "--sessions", &path]);
    assert_eq!(out.lines().count(), 2, "{out}");
    assert!(err.is_empty(), "{err}");
    let html = dir.path().join("out.html").to_string_lossy().into_owned();
    let (_, err) = said(&["export", &path, "-o", &html]);
    assert!(err.contains("holds 2 sessions"), "{err}");
}

/// With the theme `auto`, deck asks the terminal for its background; a
/// terminal that answers (this pty answers as xterm does) must not leave
/// the screen blank until a key is pressed: the query ran beside the thread
/// that reads keys, which took the answer (1 start in 6). Every start of
/// `deck sessions` and `deck view` draws at once.
#[test]
fn the_first_screen_comes_without_a_key_when_the_terminal_answers() {
    let home = tempfile::tempdir().unwrap();
    let projects = home.path().join(".claude/projects/-w");
    std::fs::create_dir_all(&projects).unwrap();
    let (_dir, path) = two_file();
    std::fs::copy(&path, projects.join("two.frames.jsonl")).unwrap();
    let h = home.path().to_str().unwrap();
    let cache = home.path().join("cache");
    for i in 0..12 {
        let mut tui = if i % 2 == 0 {
            Tui::spawn_answering(
                &["sessions", "--dir", projects.to_str().unwrap()],
                &[("HOME", h), ("XDG_CACHE_HOME", cache.to_str().unwrap())],
            )
        } else {
            Tui::spawn_answering(&["view", &path], &[])
        };
        tui.wait_for("the first screen", |s| {
            s.contains("two.frames.jsonl") || s.contains("Alpha")
        });
        tui.send("q");
        if i % 2 == 1 {
            // The view's picker: q again leaves it.
            let _ = tui.settle(std::time::Duration::from_millis(50));
        }
        drop(tui);
    }
}
