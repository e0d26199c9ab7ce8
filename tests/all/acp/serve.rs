//! What `deck acp` serves the fake ACP agent (`tests/fixtures/agents/acp/
//! fake/fake_agent.py`) and what it refuses (issue 28 §2): files only
//! beneath the session's directory and only regular ones (a FIFO, a
//! socket, links leading out, a dangling link to a place outside — refused
//! naming the path, never hanging deck); JSON-RPC ids compared as typed
//! values (7 and "7" are two requests, a duplicate of a waiting one is
//! refused, the card on screen is the request answered); a terminal's
//! output kept within deck's own limit whatever the agent asks; and the
//! terminals the agent runs shown as terminal cards with the output and
//! exit deck saw, tied to their call or on their own.

use std::path::Path;

use serde_json::Value;

use crate::acp::live::{acp, fake, lines, open_view, scratch};
use crate::common::{card_of, deck_ok, stderr};

/// Each request of `method` the agent sent, with deck's answer to it
/// (matched by the id as a typed JSON value).
fn exchanges(trace: &[Value], method: &str) -> Vec<(Value, Value)> {
    let mut out = Vec::new();
    for (i, l) in trace.iter().enumerate() {
        if l["dir"] != "agent->client" || l["msg"]["method"] != method {
            continue;
        }
        let id = &l["msg"]["id"];
        let answer = trace[i + 1..]
            .iter()
            .find(|a| {
                a["dir"] == "client->agent"
                    && a["msg"].get("method").is_none()
                    && a["msg"]["id"] == *id
            })
            .map(|a| a["msg"].clone())
            .unwrap_or(Value::Null);
        out.push((l["msg"]["params"].clone(), answer));
    }
    out
}

/// The traps the fake agent's "traps" turn asks for (its `TRAPS`), laid
/// out in `ws`: a FIFO, a socket (bound while the returned listener
/// lives), links leading out, a link inside, a folder for `..`.
fn lay_traps(dir: &Path, ws: &Path) -> std::os::unix::net::UnixListener {
    let outside = dir.join("outside");
    std::fs::create_dir(&outside).unwrap();
    let fifo = std::ffi::CString::new(ws.join("pipe").to_str().unwrap()).unwrap();
    // SAFETY: mkfifo with a valid C string.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    let sock = std::os::unix::net::UnixListener::bind(ws.join("sock")).unwrap();
    let link =
        |target: &Path, name: &str| std::os::unix::fs::symlink(target, ws.join(name)).unwrap();
    link(&outside.join("escaped.txt"), "dangling");
    link(&outside, "dangling-dir");
    link(&dir.join("secret.txt"), "secret-link");
    link(Path::new("/etc"), "etc-link");
    link(Path::new("notes.txt"), "inner-link");
    std::fs::create_dir(ws.join("sub")).unwrap();
    sock
}

/// Issue 28 §2: a dangling link inside the cwd cannot make a file outside
/// it, a FIFO cannot hang deck, and what led out before still does not.
#[test]
fn files_are_served_beneath_the_cwd_and_only_regular_ones() {
    let (dir, ws) = scratch();
    let _sock = lay_traps(dir.path(), &ws);
    let rec = dir.path().join("rec.jsonl");
    let o = acp(&ws, &rec, &["--prompt", "traps"], &["python3", &fake()]);
    let err = stderr(&o);
    assert!(o.status.success(), "deck acp failed: {err}");
    let trace = lines(&rec);
    let mut asked: Vec<(Value, Value)> = exchanges(&trace, "fs/read_text_file");
    asked.extend(exchanges(&trace, "fs/write_text_file"));
    assert_eq!(asked.len(), 13, "{asked:#?}");
    let served = [
        format!("{}/inner-link", ws.display()),
        format!("{}/made/deep/new.txt", ws.display()),
    ];
    for (params, answer) in &asked {
        let path = params["path"].as_str().unwrap();
        if served.iter().any(|s| s == path) {
            assert!(answer.get("result").is_some(), "{path}: {answer}");
            continue;
        }
        assert_eq!(answer["error"]["code"], -32602, "{path}: {answer}");
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(
            message.contains(path),
            "the refusal names {path}: {message}"
        );
        assert!(err.contains(path), "deck says it refused {path}: {err}");
    }
    let says = |path: &str, what: &str| {
        let (_, answer) = asked
            .iter()
            .find(|(p, _)| p["path"].as_str().unwrap().ends_with(path))
            .unwrap();
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(message.contains(what), "{path}: {message}");
    };
    says("/pipe", "not a regular file (a FIFO)");
    says("/sock", "not a regular file (a socket)");
    says("/dangling", "outside the session directory");
    says("/secret-link", "outside the session directory");
    // Nothing was made outside, nothing of outside was sent.
    assert!(
        !dir.path().join("outside/escaped.txt").exists(),
        "written through the dangling link"
    );
    assert!(
        !dir.path().join("outside/new.txt").exists(),
        "written through the folder link"
    );
    let text = std::fs::read_to_string(&rec).unwrap();
    assert!(
        !text.contains("TOP SECRET") && !text.contains("root:x:0"),
        "a secret was sent"
    );
    // Inside: the link to a file inside is served, folders are made.
    let inner = asked
        .iter()
        .find(|(p, _)| p["path"].as_str().unwrap().ends_with("/inner-link"))
        .unwrap();
    assert_eq!(inner.1["result"]["content"], "hello notes\n");
    assert_eq!(
        std::fs::read_to_string(ws.join("made/deep/new.txt")).unwrap(),
        "made\n"
    );
    use std::os::unix::fs::FileTypeExt;
    assert!(
        std::fs::symlink_metadata(ws.join("pipe"))
            .unwrap()
            .file_type()
            .is_fifo()
    );
}

/// Issue 28 §2: ids 7 and "7" are two permission requests, both shown; a
/// third with id 7 while the first waits is refused; and the card a key
/// answers is the request the answer goes to.
#[test]
fn ids_are_typed_a_duplicate_is_refused_and_the_card_shown_is_answered() {
    let (dir, ws) = scratch();
    let rec = dir.path().join("rec.jsonl");
    let mut tui = open_view(&ws, &rec, &[]);
    tui.send("twins\r");
    // Both shown, and the duplicate (which came after both) refused.
    tui.wait_for("both requests shown", |s| {
        s.contains("Read README.md") && s.contains("rm -rf ~") && s.contains("duplicate id 7")
    });
    // The duplicate was refused at once, naming its id.
    let trace = lines(&rec);
    let perms = exchanges(&trace, "session/request_permission");
    assert_eq!(perms.len(), 3, "{perms:#?}");
    let dup = trace
        .iter()
        .find(|l| {
            l["dir"] == "client->agent" && l["msg"]["id"] == 7 && l["msg"].get("error").is_some()
        })
        .expect("the duplicate refused");
    assert_eq!(dup["msg"]["error"]["code"], -32600, "{dup}");
    assert!(
        dup["msg"]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("duplicate"),
        "{dup}"
    );
    // The card in focus (its rows marked `▌`) is the one a key answers:
    // `n` rejects it, then `y` allows the other, focused next.
    let s = tui.screen();
    let focused: Vec<&str> = s.lines().filter(|l| l.starts_with('▌')).collect();
    let title = |rows: &[&str]| {
        ["rm -rf ~", "Read README.md"]
            .into_iter()
            .filter(|t| rows.iter().any(|l| l.contains(t)))
            .collect::<Vec<_>>()
    };
    let shown = title(&focused);
    assert_eq!(shown.len(), 1, "one request in focus: {s}");
    let rejected_on_screen = shown[0];
    tui.send("n");
    let other = if rejected_on_screen == "rm -rf ~" {
        "Read README.md"
    } else {
        "rm -rf ~"
    };
    tui.wait_for("the other focused", |s| {
        s.lines().any(|l| l.starts_with('▌') && l.contains(other)) && s.contains("y allow once")
    });
    tui.send("y");
    tui.wait_for("the agent's words", |s| {
        s.contains("7 answered") && s.contains("'7' answered")
    });
    let trace = lines(&rec);
    let title_of = |id: &Value| {
        trace
            .iter()
            .find(|l| {
                l["dir"] == "agent->client"
                    && l["msg"]["id"] == *id
                    && l["msg"]["method"].is_string()
            })
            .map(|l| {
                l["msg"]["params"]["toolCall"]["title"]
                    .as_str()
                    .unwrap()
                    .to_string()
            })
            .unwrap()
    };
    let answered: Vec<(String, String)> = trace
        .iter()
        .filter(|l| {
            l["dir"] == "client->agent" && l["msg"]["result"]["outcome"]["optionId"].is_string()
        })
        .map(|l| {
            (
                title_of(&l["msg"]["id"]),
                l["msg"]["result"]["outcome"]["optionId"]
                    .as_str()
                    .unwrap()
                    .to_string(),
            )
        })
        .collect();
    assert_eq!(answered.len(), 2, "{answered:?}");
    let rejected = answered.iter().find(|(_, o)| o == "reject").unwrap();
    assert_eq!(
        rejected.0, rejected_on_screen,
        "the card shown was not the one answered: {answered:?}"
    );
    assert!(
        answered
            .iter()
            .any(|(t, o)| o == "allow" && *t != rejected.0),
        "{answered:?}"
    );
    assert!(
        !answered.iter().any(|(t, _)| t == "touch dup"),
        "the duplicate was answered: {answered:?}"
    );
    tui.send("\x1b");
    std::thread::sleep(std::time::Duration::from_millis(150));
    tui.send("q");
    assert!(tui.wait_exit().success());
}

/// Issue 28 §2: an agent asking for 1 GiB of a terminal's output gets at
/// most deck's own limit (1 MiB), the newest bytes, said truncated.
#[test]
fn a_terminals_output_is_kept_within_decks_limit() {
    let (dir, ws) = scratch();
    let rec = dir.path().join("rec.jsonl");
    let o = acp(&ws, &rec, &["--prompt", "flood"], &["python3", &fake()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let trace = lines(&rec);
    let out = exchanges(&trace, "terminal/output");
    let result = &out[0].1["result"];
    let kept = result["output"].as_str().unwrap();
    assert_eq!(kept.len(), 1 << 20, "kept {} bytes", kept.len());
    assert!(kept.bytes().all(|b| b == b'x'));
    assert_eq!(result["truncated"], true);
}

/// Issue 28 §2: terminals are terminal cards with the output and exit deck
/// saw, whether or not the agent asked for them: one tied to no call gets
/// a card of its own, one tied to a call is that call's card.
#[test]
fn the_agents_terminals_are_cards_with_what_deck_saw() {
    let (dir, ws) = scratch();
    let rec = dir.path().join("rec.jsonl");
    let o = acp(&ws, &rec, &["--prompt", "bare"], &["python3", &fake()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let calls = crate::common::inspect_lines(rec.to_str().unwrap());
    let terminals: Vec<&Value> = calls.iter().filter(|c| card_of(c) == "terminal").collect();
    assert_eq!(terminals.len(), 2, "{calls:#?}");
    let bare = terminals
        .iter()
        .find(|c| c["resultView"]["title"] == "printf 'one\\ntwo\\n'; exit 3")
        .unwrap_or_else(|| panic!("no card for the bare terminal: {terminals:#?}"));
    assert_eq!(bare["resultView"]["output"], "one\ntwo\n", "{bare}");
    assert_eq!(bare["resultView"]["exitCode"], 3, "{bare}");
    let quiet = terminals
        .iter()
        .find(|c| c["callId"] == "call-quiet")
        .unwrap();
    assert_eq!(quiet["resultView"]["output"], "quiet\n", "{quiet}");
    assert_eq!(quiet["resultView"]["exitCode"], 0, "{quiet}");
    // What the view draws of it is the recording's.
    let view = deck_ok(&["render", rec.to_str().unwrap(), "--width", "100"]);
    assert!(view.contains("one") && view.contains("exit 3"), "{view}");
}
