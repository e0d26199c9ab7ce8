//! What the tests share: where the real captures live, loading and folding
//! logs, running the `deck` binary, and checks on terminal output. Input
//! builders are in `build`, snapshot text in `dump`, TUI helpers in `tui`,
//! the proptest generators in `arb`, a fake DSH host in `fake_host`, the
//! hostile views (one per broken field of each card) in `hostile`, what the
//! tests of one agent's tour share in `agent_tour`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use deck::session::Transcript;
use deck::source::LoadedSession;
use deck::wire::Record;

pub mod agent_tour;
pub mod arb;
pub mod build;
pub mod dump;
pub mod fake_host;
pub mod follow;
pub mod hostile;
pub mod tui;

/// The two real DSH host captures, both in the repo.
pub const CAPTURES: [&str; 2] = ["tour", "approvals"];

/// One file of a real capture (`tour` or `approvals`), in the repo: the frame
/// log and the zstd session log are the demo sessions
/// (`demo-sessions/<name>.<file>`), every other file is a byte-for-byte copy
/// under `tests/fixtures/captures/<name>/<file>`.
pub fn capture(name: &str, file: &str) -> PathBuf {
    assert!(CAPTURES.contains(&name), "no capture {name:?}");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    match file {
        "frames.jsonl" | "session.jsonl.zstd" => {
            root.join("demo-sessions").join(format!("{name}.{file}"))
        }
        _ => root.join("tests/fixtures/captures").join(name).join(file),
    }
}

pub fn capture_str(name: &str, file: &str) -> String {
    capture(name, file).to_string_lossy().into_owned()
}

/// The text of one file of a real capture.
pub fn capture_text(name: &str, file: &str) -> String {
    std::fs::read_to_string(capture(name, file)).unwrap()
}

/// The first session of the log at `path`.
pub fn load(path: &str) -> LoadedSession {
    deck::source::load_path(path).unwrap().sessions.remove(0)
}

/// The first session of a log given as its text.
pub fn load_text(text: &str) -> LoadedSession {
    deck::source::load_bytes("test", text.as_bytes())
        .unwrap()
        .sessions
        .remove(0)
}

/// A loaded session folded into its transcript.
pub fn fold_session(s: &LoadedSession) -> Transcript {
    Transcript::from_records(s.id.clone(), &s.records, deck::stock())
}

/// The first session of the log at `path`, folded.
pub fn fold(path: &str) -> Transcript {
    fold_session(&load(path))
}

/// Records folded as session `s`.
pub fn fold_records(records: &[Record]) -> Transcript {
    Transcript::from_records(Some("s".into()), records, deck::stock())
}

/// The `deck` binary, `NO_COLOR` and `DECK_LOG` unset and no config file
/// (`XDG_CONFIG_HOME` a folder that does not exist), whatever the test's
/// environment.
pub fn deck_cmd() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_deck"));
    c.env_remove("NO_COLOR");
    c.env_remove("DECK_LOG");
    c.env(
        "XDG_CONFIG_HOME",
        Path::new(env!("CARGO_TARGET_TMPDIR")).join("no-config-here"),
    );
    c
}

/// `deck args`, run to its end.
pub fn deck(args: &[&str]) -> Output {
    deck_cmd().args(args).output().unwrap()
}

/// `deck args` with `stdin` written to it: (stdout, stderr, exit code).
pub fn deck_stdin(args: &[&str], stdin: &str) -> (String, String, i32) {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = deck_cmd()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    (stdout(&o), stderr(&o), o.status.code().unwrap())
}

/// `deck inspect PATH`'s lines, in order, each JSON.
pub fn inspect_lines(path: &str) -> Vec<serde_json::Value> {
    deck_ok(&["inspect", path])
        .lines()
        .map(|l| serde_json::from_str(l).expect("inspect line is JSON"))
        .collect()
}

/// The card an inspected call draws: its result view's tag, else its
/// call view's ("" for neither).
pub fn card_of(line: &serde_json::Value) -> String {
    line["resultView"]["card"]
        .as_str()
        .or(line["callView"]["card"].as_str())
        .unwrap_or_default()
        .to_string()
}

/// `deck args`, which must succeed; its standard output.
pub fn deck_ok(args: &[&str]) -> String {
    let o = deck(args);
    assert!(o.status.success(), "deck {args:?}: {}", stderr(&o));
    stdout(&o)
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Panic unless every escape sequence in `s` is SGR (`ESC [ digits/; m`) or
/// an OSC 8 hyperlink (`ESC ] 8 ; ; URI ESC \`) whose URI is printable ASCII,
/// and no other control character (but `\n`) appears.
pub fn assert_only_sgr_and_osc8(s: &str) {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == 0x1b {
            if b.get(i + 1) == Some(&b'[') {
                let mut j = i + 2;
                while j < b.len() && (b[j].is_ascii_digit() || b[j] == b';') {
                    j += 1;
                }
                assert_eq!(
                    b.get(j),
                    Some(&b'm'),
                    "non-SGR CSI at byte {i}: {:?}",
                    &s[i..(i + 20).min(s.len())]
                );
                i = j + 1;
                continue;
            }
            if s[i..].starts_with("\u{1b}]8;;") {
                let rest = &s[i + 5..];
                let end = rest
                    .find("\u{1b}\\")
                    .unwrap_or_else(|| panic!("unterminated OSC 8 at byte {i}"));
                let uri = &rest[..end];
                assert!(
                    uri.bytes().all(|x| (0x21..0x7f).contains(&x)),
                    "OSC 8 URI not printable ASCII: {uri:?}"
                );
                i += 5 + end + 2;
                continue;
            }
            panic!(
                "escape that is neither SGR nor OSC 8 at byte {i}: {:?}",
                &s[i..(i + 20).min(s.len())]
            );
        }
        let ch = s[i..].chars().next().unwrap();
        let u = ch as u32;
        assert!(
            ch == '\n' || !(u < 0x20 || (0x7f..=0x9f).contains(&u)),
            "control character {u:#x} at byte {i}"
        );
        i += ch.len_utf8();
    }
}

/// Panic unless `s` is exactly one OSC 52 clipboard sequence with a base64 payload.
pub fn assert_osc52_only(s: &str) {
    let body = s
        .strip_prefix("\u{1b}]52;c;")
        .and_then(|r| r.strip_suffix('\u{7}'))
        .unwrap_or_else(|| panic!("not an OSC 52 sequence: {s:?}"));
    assert!(
        body.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/' || b == b'='),
        "payload is not base64: {body:?}"
    );
}

/// The session file at `path` read as the library reads it (a Claude Code
/// log): its rows and its searchable entries (those given before the file
/// was read again whole dropped, as the index drops them).
pub fn library_read(path: &str) -> (deck::library::read::FileRead, Vec<deck::library::read::Doc>) {
    use deck::library::read::{Entry, read};
    let path = std::path::PathBuf::from(path);
    let size = std::fs::metadata(&path).expect("fixture").len();
    let found = deck::library::Found {
        path,
        agent: Some("claude-code"),
        size,
        mtime_ns: 0,
    };
    let mut docs = Vec::new();
    let rows = read(&found, &mut |e| match e {
        Entry::Doc(d) => docs.push(d),
        Entry::Again => docs.clear(),
    });
    (rows, docs)
}
