//! deck's log (`DECK_LOG`, `$XDG_STATE_HOME/deck/deck.log`), through the
//! real binary: off and absent without `DECK_LOG`, appended with it, never
//! on the terminal; what a load, a host link and a panic write to it; a bad
//! level or an unusable folder leaves it off with one line on stderr.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::fake_host::{Cmd, FakeHost};
use crate::common::{self, deck_cmd};
use crate::tui::pty::Tui;

const SHOWCASE: &str = "demo-sessions/showcase.jsonl";
const LIMIT: Duration = Duration::from_secs(30);

/// `deck` with its state folder in `state` and `DECK_LOG` as given.
fn deck_in(state: &Path, log: Option<&str>) -> Command {
    let mut c = deck_cmd();
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c.env("XDG_STATE_HOME", state);
    if let Some(v) = log {
        c.env("DECK_LOG", v);
    }
    c
}

fn log_file(state: &Path) -> PathBuf {
    state.join("deck").join("deck.log")
}

fn log_text(state: &Path) -> String {
    std::fs::read_to_string(log_file(state)).unwrap_or_default()
}

fn run(mut c: Command) -> Output {
    let out = c.output().unwrap();
    assert!(out.status.success(), "{}", common::stderr(&out));
    out
}

fn render(state: &Path, log: Option<&str>) -> Output {
    let mut c = deck_in(state, log);
    c.args(["render", SHOWCASE, "--width", "80"]);
    run(c)
}

/// Wait (bounded) until the log holds `what`.
fn wait_log(state: &Path, child: &mut std::process::Child, what: &str) -> String {
    let start = Instant::now();
    loop {
        let text = log_text(state);
        if text.contains(what) {
            return text;
        }
        if start.elapsed() > LIMIT || matches!(child.try_wait(), Ok(Some(_))) {
            let _ = child.kill();
            panic!("no {what:?} in the log:\n{text}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn without_deck_log_there_is_no_log_file() {
    let dir = tempfile::tempdir().unwrap();
    render(dir.path(), None);
    let mut c = deck_in(dir.path(), None);
    c.args(["inspect", SHOWCASE]);
    run(c);
    // Off words too.
    render(dir.path(), Some("0"));
    render(dir.path(), Some("off"));
    assert!(
        !dir.path().join("deck").exists(),
        "the state folder was made without DECK_LOG"
    );
}

#[test]
fn a_debug_log_is_appended_in_the_state_folder_and_not_printed() {
    let dir = tempfile::tempdir().unwrap();
    let quiet = render(dir.path(), None);
    let logged = render(dir.path(), Some("debug"));
    // The log goes to its file only: the output is the same.
    assert_eq!(common::stdout(&logged), common::stdout(&quiet));
    assert_eq!(common::stderr(&logged), common::stderr(&quiet));
    let text = log_text(dir.path());
    assert!(text.contains("deck started"), "{text}");
    assert!(text.contains(r#"args=["render", "demo-sessions/showcase.jsonl""#));
    let loaded = text
        .lines()
        .find(|l| l.contains(" loaded ") && l.contains(SHOWCASE))
        .unwrap_or_else(|| panic!("no load line:\n{text}"));
    assert!(loaded.contains("INFO"), "{loaded}");
    assert!(loaded.contains(r#"format="frame log""#), "{loaded}");
    assert!(loaded.contains("diagnostics=1"), "{loaded}");
    // Debug: the time taken and the malformed line.
    assert!(text.contains("load took"), "{text}");
    let diag = text
        .lines()
        .find(|l| l.contains("DEBUG") && l.contains(" diagnostic "))
        .unwrap_or_else(|| panic!("no diagnostic line:\n{text}"));
    assert!(diag.contains("line=137"), "{diag}");
    assert!(diag.contains("not JSON"), "{diag}");
    // No colour codes in the file.
    assert!(!text.contains('\x1b'), "{text:?}");
    // Appended, not replaced.
    render(dir.path(), Some("debug"));
    assert_eq!(log_text(dir.path()).matches("deck started").count(), 2);
}

#[test]
fn the_log_and_its_folders_are_private() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    // A state folder deck has to make, with the one above it.
    let state = dir.path().join("local/state");
    let quiet = common::stderr(&render(&dir.path().join("unused"), None));
    let out = render(&state, Some("debug"));
    assert_eq!(common::stderr(&out), quiet, "nothing to say");
    assert_eq!(mode(&dir.path().join("local")), 0o700);
    assert_eq!(mode(&state), 0o700);
    assert_eq!(mode(&state.join("deck")), 0o700);
    assert_eq!(mode(&log_file(&state)), 0o600);
    // A log someone opened up is closed up again, and said once.
    std::fs::set_permissions(log_file(&state), std::fs::Permissions::from_mode(0o644)).unwrap();
    std::fs::set_permissions(state.join("deck"), std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::set_permissions(&state, std::fs::Permissions::from_mode(0o755)).unwrap();
    let err = common::stderr(&render(&state, Some("1")));
    for p in [state.join("deck"), log_file(&state)] {
        let said = format!("deck: made {} private", p.display());
        assert_eq!(err.matches(&said).count(), 1, "{said:?} in {err}");
    }
    assert_eq!(err.lines().count(), quiet.lines().count() + 2, "{err}");
    assert_eq!(mode(&log_file(&state)), 0o600);
    assert_eq!(mode(&state.join("deck")), 0o700);
    // The state folder was there: the user's.
    assert_eq!(mode(&state), 0o755);
    assert!(log_text(&state).matches("deck started").count() == 2);
}

/// `deck sessions search QUERY` over the fake home, `DECK_LOG` as given.
fn search_logged(log: &str, query: &str) -> String {
    let (home, _) = crate::library::sessions::fake_home();
    let state = home.path().join("state");
    let mut c = deck_in(&state, Some(log));
    c.args(["sessions", "search", query, "--json", "--limit", "3"])
        .env("HOME", home.path())
        .env("XDG_CACHE_HOME", home.path().join(".cache"))
        .env_remove("DSH_HOME")
        .env_remove("CLAUDE_CONFIG_DIR")
        .env_remove("CODEX_HOME");
    run(c);
    log_text(&state)
}

#[test]
fn search_queries_are_logged_only_when_asked() {
    let query = "hello pelican7f3a";
    for level in [
        "1",
        "debug",
        "trace",
        "deck=trace",
        "trace,deck::library=trace",
    ] {
        let text = search_logged(level, query);
        assert!(text.contains("deck started"), "{level}: {text}");
        assert!(text.contains("\"sessions\", \"search\""), "{level}: {text}");
        assert!(
            !text.contains("pelican7f3a"),
            "{level} logged the query:\n{text}"
        );
    }
    // Asked for by its target.
    let text = search_logged("info,deck::queries=debug", query);
    assert!(text.contains("pelican7f3a"), "{text}");
}

#[test]
fn levels_filter_what_is_written() {
    let dir = tempfile::tempdir().unwrap();
    // `1` means info: loads are said, their timing is not.
    render(dir.path(), Some("1"));
    let text = log_text(dir.path());
    assert!(text.contains(" loaded "), "{text}");
    assert!(!text.contains("DEBUG"), "{text}");
    let dir = tempfile::tempdir().unwrap();
    // Directives: only the loader's target at debug, the rest at warn.
    render(dir.path(), Some("warn,deck::load::log=debug"));
    let text = log_text(dir.path());
    assert!(text.contains("load took"), "{text}");
    assert!(!text.contains("deck started"), "{text}");
}

#[test]
fn a_bad_level_or_folder_leaves_the_log_off_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let quiet = render(dir.path(), None);
    let out = render(dir.path(), Some("debg"));
    let err = common::stderr(&out);
    assert!(err.contains("DECK_LOG"), "{err}");
    assert!(err.contains("\"debg\" is not a level"), "{err}");
    assert_eq!(err.matches("the log is off").count(), 1, "{err}");
    assert_eq!(common::stdout(&out), common::stdout(&quiet));
    assert!(!log_file(dir.path()).exists());
    // A state "folder" that is a file: the log cannot be made; deck runs.
    let file = dir.path().join("not-a-folder");
    std::fs::write(&file, "").unwrap();
    let out = render(&file, Some("debug"));
    let err = common::stderr(&out);
    assert!(err.contains("cannot open the log"), "{err}");
    assert!(err.contains("the log is off"), "{err}");
    assert_eq!(common::stdout(&out), common::stdout(&quiet));
}

#[test]
fn host_connects_losses_and_reconnects_are_logged() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    // The fake host pauses at message 50 until told to drop the socket.
    let fake = rt.block_on(FakeHost::start(0, Some(50)));
    let dir = tempfile::tempdir().unwrap();
    let mut c = deck_in(dir.path(), Some("debug"));
    c.args(["record", &fake.url, "-o"])
        .arg(dir.path().join("rec.jsonl"))
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let mut child = c.spawn().unwrap();
    let text = wait_log(dir.path(), &mut child, "connected to the host");
    assert!(text.contains(r#"mode="record""#), "{text}");
    assert!(text.contains(&format!("url={}", fake.url)), "{text}");
    assert!(text.contains(r#"method="host.describe""#), "{text}");
    assert!(text.contains(r#"path="/api/events.mux""#), "{text}");
    fake.cmd.send(Cmd::Drop { skip: 10 }).unwrap();
    wait_log(dir.path(), &mut child, "host link lost");
    let text = wait_log(dir.path(), &mut child, "reconnect=true");
    let lost = text.lines().find(|l| l.contains("host link lost")).unwrap();
    assert!(lost.contains("WARN"), "{lost}");
    assert!(lost.contains("retry_in_ms="), "{lost}");
    let _ = child.kill();
    let _ = child.wait();
    drop(rt);
}

#[test]
fn an_unreachable_host_is_logged_with_its_error() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = deck_in(dir.path(), Some("debug"));
    c.args(["record", "http://127.0.0.1:1", "--duration", "0.5", "-o"])
        .arg(dir.path().join("rec.jsonl"));
    run(c);
    let text = log_text(dir.path());
    assert!(text.contains("cannot reach the host"), "{text}");
    assert!(text.contains("cannot connect to 127.0.0.1:1"), "{text}");
    assert!(text.contains("host link lost"), "{text}");
}

#[test]
fn a_panic_in_the_tui_is_logged_and_the_log_stays_off_the_screen() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().to_string_lossy().into_owned();
    let mut tui = Tui::spawn_with(
        &["view", SHOWCASE, "--theme", "dark"],
        &[
            ("DECK_TEST_PANIC", "1"),
            ("RUST_BACKTRACE", "0"),
            ("DECK_LOG", "debug"),
            ("XDG_STATE_HOME", &state),
        ],
    );
    let status = tui.wait_exit();
    assert!(!status.success(), "{status:?}");
    let text = log_text(dir.path());
    assert!(text.contains(r#"mode="view""#), "{text}");
    assert!(text.contains("terminal set up"), "{text}");
    let panicked = text
        .lines()
        .find(|l| l.contains("deck panicked"))
        .unwrap_or_else(|| panic!("no panic in the log:\n{text}"));
    assert!(panicked.contains("ERROR"), "{panicked}");
    assert!(
        panicked.contains("DECK_TEST_PANIC: a panic on purpose"),
        "{panicked}"
    );
    assert!(panicked.contains("src/app/run.rs"), "{panicked}");
    // The backtrace is kept in the log even with RUST_BACKTRACE=0.
    assert!(text.contains("backtrace="), "{text}");
    assert!(text.contains("terminal restored"), "{text}");
    // Nothing of the log reached the terminal.
    let raw = tui.raw_text();
    assert!(!raw.contains("deck started"), "{raw}");
    assert!(!raw.contains("terminal restored"), "{raw}");
}
