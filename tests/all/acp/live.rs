//! `deck acp` driving a fake ACP agent (`tests/fixtures/agents/acp/fake/
//! fake_agent.py`, Python 3 standard library) without the terminal view
//! (`--prompt`): the session ends with the prompts' stop reasons, the
//! recording is trace lines that `deck inspect` reads into the expected
//! cards and statuses, files are served only inside the cwd, terminals are
//! run and killed (their commands' children too), the agent and what it
//! started end with the session even when it would outlive its input, and
//! an agent that is missing, exits, speaks something else or another
//! protocol version is a clear error with the recording kept.

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

use crate::common::{deck_cmd, deck_ok, stderr, stdout};

pub(crate) fn fake() -> String {
    format!(
        "{}/tests/fixtures/agents/acp/fake/fake_agent.py",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// A scratch directory holding the session's cwd `ws/` (with `notes.txt`)
/// and `secret.txt` beside it (outside the cwd).
pub(crate) fn scratch() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    std::fs::create_dir(&ws).unwrap();
    std::fs::write(ws.join("notes.txt"), "hello notes\n").unwrap();
    std::fs::write(dir.path().join("secret.txt"), "TOP SECRET\n").unwrap();
    (dir, ws)
}

/// `deck acp …`, its output; it must end within a minute (else killed: a
/// failure, never a hung test).
pub(crate) fn acp(ws: &Path, record: &Path, extra: &[&str], agent: &[&str]) -> Output {
    let mut c = deck_cmd();
    c.arg("acp")
        .arg("--cwd")
        .arg(ws)
        .arg("--record")
        .arg(record)
        .args(extra)
        .arg("--")
        .args(agent)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let child = c.spawn().unwrap();
    let pid = child.id() as i32;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || tx.send(child.wait_with_output().unwrap()));
    match rx.recv_timeout(std::time::Duration::from_secs(60)) {
        Ok(o) => o,
        Err(_) => {
            // SAFETY: a signal to the deck this test started.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
            }
            panic!("deck acp {agent:?} did not end within a minute");
        }
    }
}

pub(crate) fn lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("a trace line is JSON"))
        .collect()
}

/// The answers deck sent to the agent's requests of `method`.
pub(crate) fn answers_to(trace: &[Value], method: &str) -> Vec<Value> {
    let asked: Vec<&Value> = trace
        .iter()
        .filter(|l| l["dir"] == "agent->client" && l["msg"]["method"] == method)
        .map(|l| &l["msg"]["id"])
        .collect();
    trace
        .iter()
        .filter(|l| l["dir"] == "client->agent" && l["msg"].get("method").is_none())
        .filter(|l| asked.contains(&&l["msg"]["id"]))
        .map(|l| l["msg"].clone())
        .collect()
}

/// Whether the process whose pid the file holds still runs (a zombie does not).
pub(crate) fn alive(pid_file: &Path) -> bool {
    let pid = std::fs::read_to_string(pid_file).unwrap();
    let pid: i32 = pid.trim().parse().unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(3);
    loop {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        if stat.is_empty() || stat.contains(") Z") {
            return false;
        }
        if std::time::Instant::now() > deadline {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

#[test]
fn acp_drives_the_fake_agent_and_records_what_deck_view_draws() {
    let (dir, ws) = scratch();
    let rec = dir.path().join("rec.jsonl");
    let o = acp(
        &ws,
        &rec,
        &["--prompt", "the tour", "--prompt", "now hang", "--allow"],
        &["python3", &fake()],
    );
    let err = stderr(&o);
    assert!(o.status.success(), "deck acp failed: {err}");
    // What was refused is said.
    assert!(
        err.contains("refused fs/read_text_file") && err.contains("outside the session directory"),
        "{err}"
    );
    assert!(err.contains("2 turn(s): end_turn, end_turn"), "{err}");
    let shown = stdout(&o);
    assert!(
        shown.contains("› the tour") && shown.contains("$ echo hi"),
        "{shown}"
    );

    // Every line is a trace line, both ways, or what deck saw of a
    // terminal; `t` never going back.
    let trace = lines(&rec);
    let mut t = 0;
    for l in &trace {
        let now = l["t"].as_u64().unwrap();
        assert!(now >= t);
        t = now;
        if let Some(seen) = l.get("seen") {
            assert!(seen["terminal"]["terminalId"].is_string(), "{l}");
            continue;
        }
        assert!(
            l["dir"] == "client->agent" || l["dir"] == "agent->client",
            "{l}"
        );
        assert_eq!(l["msg"]["jsonrpc"], "2.0", "{l}");
    }
    let first = &trace[0]["msg"];
    assert_eq!(first["method"], "initialize");
    assert_eq!(first["params"]["protocolVersion"], 1);
    assert_eq!(first["params"]["clientCapabilities"]["terminal"], true);
    assert_eq!(
        first["params"]["clientCapabilities"]["fs"]["readTextFile"],
        true
    );
    assert_eq!(trace[2]["msg"]["method"], "session/new");
    assert_eq!(
        trace[2]["msg"]["params"]["mcpServers"],
        serde_json::json!([])
    );

    // Files: read inside, refused outside (nothing of it sent), written inside.
    let reads = answers_to(&trace, "fs/read_text_file");
    assert_eq!(reads.len(), 2);
    assert_eq!(reads[0]["result"]["content"], "hello notes\n");
    assert!(
        reads[1]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("outside")
    );
    assert!(
        !std::fs::read_to_string(&rec)
            .unwrap()
            .contains("TOP SECRET")
    );
    assert_eq!(
        std::fs::read_to_string(ws.join("notes.txt")).unwrap(),
        "hello notes\nwritten by the fake agent\n"
    );
    // Terminals: echo ran; released twice → the second is unknown; an
    // unknown method is "method not found".
    let out = answers_to(&trace, "terminal/output");
    assert_eq!(out[0]["result"]["output"], "hi\n");
    let released = answers_to(&trace, "terminal/release");
    assert_eq!(released[1]["error"]["code"], -32002);
    assert_eq!(answers_to(&trace, "x/unknown")[0]["error"]["code"], -32601);
    let perm = answers_to(&trace, "session/request_permission");
    assert_eq!(perm[0]["result"]["outcome"]["optionId"], "allow");

    // The terminal that never exits was killed when deck ended.
    assert!(
        !alive(&ws.join("hang.pid")),
        "the hanging terminal still runs"
    );

    // The recording is a session deck reads: the calls, their cards and statuses.
    let calls: Vec<Value> = deck_ok(&["inspect", rec.to_str().unwrap()])
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let got: Vec<(String, String, String)> = calls
        .iter()
        .map(|c| {
            let card = crate::common::card_of(c);
            (
                c["callId"].as_str().unwrap().to_string(),
                card,
                c["status"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let want = [
        ("early", "generic", "ok"),
        ("call-echo", "terminal", "ok"),
        ("call-read", "read", "ok"),
        ("call-secret", "generic", "error"),
        ("call-edit", "diff", "ok"),
        ("call-hang", "terminal", "interrupted"),
    ];
    let want: Vec<(String, String, String)> = want
        .iter()
        .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
        .collect();
    assert_eq!(got, want);
    // The live rendering is the recording's.
    let view = deck_ok(&["render", rec.to_str().unwrap(), "--width", "100"]);
    assert_eq!(view, shown);
}

#[test]
fn acp_rejects_permission_by_default_and_the_file_stays() {
    let (dir, ws) = scratch();
    let rec = dir.path().join("rec.jsonl");
    let o = acp(&ws, &rec, &["--prompt", "the tour"], &["python3", &fake()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let trace = lines(&rec);
    let perm = answers_to(&trace, "session/request_permission");
    assert_eq!(perm[0]["result"]["outcome"]["optionId"], "reject");
    assert_eq!(
        std::fs::read_to_string(ws.join("notes.txt")).unwrap(),
        "hello notes\n"
    );
    let calls = deck_ok(&["inspect", rec.to_str().unwrap()]);
    let edit = calls.lines().find(|l| l.contains("call-edit")).unwrap();
    assert!(edit.contains("rejected"), "{edit}");
}

/// Claude Code's adapter does not exit when its input ends: the session's
/// end stops it, and the child it started.
#[test]
fn acp_ends_an_agent_that_outlives_its_input() {
    let (dir, ws) = scratch();
    let rec = dir.path().join("rec.jsonl");
    let o = acp(
        &ws,
        &rec,
        &["--prompt", "the tour", "--allow"],
        &["python3", &fake(), "linger"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!alive(&ws.join("agent.pid")), "the agent still runs");
    assert!(
        !alive(&ws.join("agent-child.pid")),
        "the agent's child still runs"
    );
}

/// `deck acp` with the agent `agent`: its failure message (the exit
/// status non-zero) and the recording's lines; `ws` the session's directory.
fn fails_in(agent: &[&str]) -> (String, Vec<Value>, tempfile::TempDir, PathBuf) {
    let (dir, ws) = scratch();
    let rec = dir.path().join("rec.jsonl");
    let o = acp(&ws, &rec, &["--prompt", "hi"], agent);
    assert!(!o.status.success(), "deck acp {agent:?} succeeded");
    let kept = if rec.exists() {
        lines(&rec)
    } else {
        Vec::new()
    };
    (stderr(&o), kept, dir, ws)
}

fn fails(agent: &[&str]) -> (String, Vec<Value>) {
    let (err, kept, _dir, _ws) = fails_in(agent);
    (err, kept)
}

#[test]
fn acp_errors_say_what_the_agent_did() {
    let (err, kept) = fails(&["/no/such/agent-binary"]);
    assert!(
        err.contains("cannot start the agent `/no/such/agent-binary`"),
        "{err}"
    );
    assert!(kept.is_empty());

    let (err, kept) = fails(&["python3", &fake(), "version"]);
    assert!(err.contains("protocol version 99"), "{err}");
    assert!(err.contains("the recording so far is in"), "{err}");
    assert_eq!(kept.len(), 2);

    let (err, kept) = fails(&["python3", &fake(), "garbage"]);
    assert!(
        err.contains("does not speak ACP") && err.contains("Welcome to the fake agent"),
        "{err}"
    );
    assert_eq!(kept[1]["raw"], "Welcome to the fake agent!");

    let (err, kept, _dir, ws) = fails_in(&["python3", &fake(), "exit"]);
    assert!(
        err.contains("exited before it answered initialize"),
        "{err}"
    );
    assert!(err.contains("giving up"), "{err}");
    assert_eq!(kept.len(), 1);
    // What the agent left running went with the failed session.
    assert!(
        !alive(&ws.join("agent-child.pid")),
        "the agent's child still runs"
    );
}

/// The terminal view: the status bar says the agent's mode and commands,
/// the composer sends the prompt (`prompt ›`; `/` lists the commands), the
/// permission request shows the agent's options and takes the keys (`1`:
/// its allow always), a prompt typed during a turn is held (`steer ›`)
/// until Esc Esc cancels the turn, and the view gives the terminal back.
#[test]
fn acp_in_the_terminal_view_prompts_allows_and_cancels() {
    let (dir, ws) = scratch();
    let rec = dir.path().join("rec.jsonl");
    let mut tui = open_view(&ws, &rec, &["linger"]);
    // The agent's mode and commands in the status bar; the composer says
    // where Enter sends, and `/` lists the commands.
    tui.wait_for("the mode and commands", |s| {
        s.lines()
            .last()
            .is_some_and(|l| l.contains("mode: default · 2 commands"))
    });
    tui.wait_for("the prompt label", |s| s.contains("prompt › "));
    tui.send("/");
    tui.wait_for("the commands listed", |s| {
        s.contains("2 commands: /review /init")
    });
    tui.send("\x7f");
    tui.send("the tour\r");
    // The agent's own options, numbered; 1 is its allow always.
    tui.wait_for("the permission request", |s| {
        s.contains("1–3 choose · y allow once · n reject once")
    });
    let s = tui.screen();
    for want in [
        "1 Always Allow · allow always",
        "2 Allow · allow once",
        "3 Reject · reject once",
    ] {
        assert!(s.contains(want), "{want}: {s}");
    }
    tui.send("1");
    tui.wait_for("the turn's end", |s| s.contains("Done."));
    tui.wait_for("the edit allowed always", |s| s.contains("allowed always"));
    tui.wait_for("the agent's word", |s| s.contains("Chose allow_always."));
    // The refused read outside the cwd is a diagnostic of the view (said
    // once a key, Ctrl-e here, clears the message that took the room).
    tui.send("\x05");
    tui.wait_for("the refusal counted", |s| {
        s.lines().last().is_some_and(|l| l.contains("1 diagnostic"))
    });
    assert_eq!(
        std::fs::read_to_string(ws.join("notes.txt")).unwrap(),
        "hello notes\nwritten by the fake agent\n"
    );
    tui.send("wait\r");
    tui.wait_for("the waiting terminal", |s| {
        s.contains("sleep until cancelled")
    });
    // While the turn runs: a prompt is held until it ends.
    tui.wait_for("the steer label", |s| s.contains("steer › "));
    tui.send("plan\r");
    tui.wait_for("the prompt held", |s| {
        s.contains("held: sent when the turn ends")
    });
    tui.send("\x1b");
    std::thread::sleep(std::time::Duration::from_millis(150));
    tui.send("\x1b");
    tui.wait_for("the turn cancelled", |s| s.contains("cancelled"));
    // Killed with its command's child, while deck runs on.
    assert!(
        !alive(&ws.join("wait.pid")),
        "the cancelled terminal's command still runs"
    );
    // The held prompt went once it ended: the agent changed its mode.
    tui.wait_for("the mode changed", |s| {
        s.lines()
            .last()
            .is_some_and(|l| l.contains("mode: plan · 2 commands"))
    });
    tui.send("\x1b");
    std::thread::sleep(std::time::Duration::from_millis(150));
    tui.send("q");
    assert!(tui.wait_exit().success());
    tui.assert_restored();
    let trace = lines(&rec);
    let perm = answers_to(&trace, "session/request_permission");
    assert_eq!(
        perm[0]["result"]["outcome"],
        serde_json::json!({"outcome": "selected", "optionId": "allow_always"})
    );
    assert!(trace.iter().any(|l| l["msg"]["method"] == "session/cancel"));
    assert!(
        trace
            .iter()
            .any(|l| l["msg"]["result"]["stopReason"] == "cancelled")
    );
    assert!(
        !alive(&ws.join("wait.pid")),
        "the cancelled terminal still runs"
    );
    // The view closed, the agent (which outlives its input) was stopped.
    assert!(!alive(&ws.join("agent.pid")), "the agent still runs");
    assert!(
        !alive(&ws.join("agent-child.pid")),
        "the agent's child still runs"
    );
    let calls = deck_ok(&["inspect", rec.to_str().unwrap()]);
    assert!(
        calls
            .lines()
            .any(|l| l.contains("call-edit") && l.contains("\"ok\"")),
        "{calls}"
    );
}

/// Cancelling while a permission request waits answers it `cancelled`, as
/// the protocol asks (an agent waits for that answer before it ends the
/// turn).
#[test]
fn acp_cancel_answers_the_waiting_permission_request() {
    let (dir, ws) = scratch();
    let rec = dir.path().join("rec.jsonl");
    let mut tui = open_view(&ws, &rec, &[]);
    tui.send("ask first\r");
    tui.wait_for("the permission request", |s| s.contains("y allow once"));
    tui.send("\x03");
    tui.wait_for("the turn cancelled", |s| s.contains("cancelled"));
    let trace = lines(&rec);
    let perm = answers_to(&trace, "session/request_permission");
    assert_eq!(perm.len(), 1, "{perm:?}");
    assert_eq!(perm[0]["result"]["outcome"]["outcome"], "cancelled");
    assert!(
        trace
            .iter()
            .any(|l| l["msg"]["result"]["stopReason"] == "cancelled")
    );
    tui.send("\x1b");
    std::thread::sleep(std::time::Duration::from_millis(150));
    tui.send("q");
    assert!(tui.wait_exit().success());
}

/// `deck acp` in the terminal view on the fake agent (in `mode`), recording
/// to `rec`, once its session is open.
pub(crate) fn open_view(ws: &Path, rec: &Path, mode: &[&str]) -> crate::tui::pty::Tui {
    let fake = fake();
    let mut args = vec![
        "acp",
        "--cwd",
        ws.to_str().unwrap(),
        "--record",
        rec.to_str().unwrap(),
        "--",
        "python3",
        &fake,
    ];
    args.extend_from_slice(mode);
    let mut tui = crate::tui::pty::Tui::spawn(&args);
    tui.wait_for("the session open", |s| s.contains("acp python3"));
    tui
}
