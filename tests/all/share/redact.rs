//! Sharing without secrets: a session with a planted secret of every kind
//! deck redacts, in every field of every card kind (generic, terminal,
//! diff, read, search, web; the user's prompt, the assistant's text and
//! reasoning, the tool arguments, a damaged line), shows none of them in
//! `deck export` (HTML and cast, by default), `deck render --redact` or the
//! TUI with `R` on — and shows them without redaction, so the fixture
//! really plants them. Every planted kind must be a rule of the data file:
//! deleting a rule fails here.

use std::path::{Path, PathBuf};

use crossterm::event::KeyCode;
use deck::app::App;
use deck::app::file_sessions::FileMode;
use deck::cards::Density;
use deck::text::redact::Redactor;
use serde_json::{Value, json};

use crate::common::build::{event, frame, in_turn, text};
use crate::common::tui::{ch, key, screen, themes};
use crate::common::{self, deck_cmd, stderr, stdout};

/// One planted secret of `tests/fixtures/redact/planted.toml`.
#[derive(serde::Deserialize)]
pub struct Planted {
    /// What is planted (35 kinds or more).
    pub kind: String,
    /// The `‹redacted:MARK›` it becomes.
    pub mark: String,
    /// As written in the session.
    pub text: String,
    /// Parts that must not survive.
    pub secrets: Vec<String>,
}

/// The planted secrets.
pub fn planted_all() -> &'static [Planted] {
    #[derive(serde::Deserialize)]
    struct File {
        planted: Vec<Planted>,
    }
    static P: std::sync::OnceLock<Vec<Planted>> = std::sync::OnceLock::new();
    P.get_or_init(|| {
        let text = include_str!("../../fixtures/redact/planted.toml");
        toml::from_str::<File>(text).unwrap().planted
    })
}

/// The home folder the CLI runs under, and a path in it.
const HOME: &str = "/home/planted-user";
const HOME_PATH: &str = "/home/planted-user/project/.env";

/// Every planted secret, a line or more each.
fn planted() -> String {
    planted_all()
        .iter()
        .map(|p| p.text.as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The planted text and a path in the home folder.
fn planted_home() -> String {
    format!("{}\nsee {HOME_PATH}", planted())
}

fn call(seq: u64, id: &str, args: &Value, view: Value) -> String {
    let data = in_turn(json!({"callId": id, "name": format!("probe_{id}"),
        "arguments": args.to_string()}));
    frame(
        event("tool/call", seq, 1_000 + seq as i64, data),
        Some(("call", view)),
    )
    .to_string()
}

fn result(seq: u64, id: &str, out: &str, view: Value) -> String {
    let data = in_turn(json!({"message": {"content": [{"type": "tool-result",
        "toolCallId": id, "content": [text(out)], "isError": false}]}}));
    frame(
        event("tool/result", seq, 1_000 + seq as i64, data),
        Some(("result", view)),
    )
    .to_string()
}

/// A frame log with the planted text (`p`) in every field of every card
/// kind, and a damaged line holding one.
fn fixture(p: &str) -> String {
    let lines: Vec<&str> = p.lines().collect();
    let args = json!({"command": p, "path": HOME_PATH, "content": p, "old_string": p,
        "new_string": p, "env": {"password": "Planted0Passwd1"}});
    let generic = |title: &str| {
        json!({"card": "generic", "title": title, "kind": "other", "rawInput": p,
            "content": [text(p)]})
    };
    let mut out = vec![
        frame(
            event(
                "user/message",
                1,
                1_001,
                json!({"content": [text(p)], "role": "user", "id": "u1"}),
            ),
            None,
        )
        .to_string(),
        frame(
            event(
                "assistant/message",
                2,
                1_002,
                in_turn(json!({"message": {"role": "assistant", "content": [
                    {"type": "reasoning", "text": p},
                    {"type": "text", "text": p},
                ]}})),
            ),
            None,
        )
        .to_string(),
    ];
    let views = [
        ("c_generic", generic(p)),
        (
            "c_terminal",
            json!({"card": "terminal", "title": p, "description": p, "cwd": HOME_PATH, "output": p, "exitCode": 0}),
        ),
        (
            "c_diff",
            json!({"card": "diff", "title": p, "diffs": [{"path": HOME_PATH, "oldText": p, "newText": format!("{p}\nmore")}]}),
        ),
        (
            "c_read",
            json!({"card": "read", "path": HOME_PATH, "offset": 1, "lines": lines.iter().enumerate()
                .map(|(i, l)| json!({"number": i + 1, "text": l})).collect::<Vec<_>>()}),
        ),
        (
            "c_search",
            json!({"card": "search", "shape": "matches", "files": [{"path": HOME_PATH, "matches": lines.iter().enumerate()
                .map(|(i, l)| json!({"lineNumber": i + 1, "line": l})).collect::<Vec<_>>()}]}),
        ),
        (
            "c_web",
            json!({"card": "web", "kind": "search", "title": p, "answer": p, "sources": planted_all().iter()
                .map(|x| json!({"url": "https://deploy:Planted0UrlPass1@example.com/", "title": x.text, "snippet": x.text}))
                .collect::<Vec<_>>()}),
        ),
    ];
    let mut seq = 3;
    for (id, view) in views {
        out.push(call(seq, id, &args, generic(p)));
        out.push(result(seq + 1, id, p, view));
        seq += 2;
    }
    out.push(format!("{{damaged line {}", planted_all()[0].text));
    out.join("\n") + "\n"
}

fn dir() -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("redact-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn write_fixture(name: &str) -> PathBuf {
    let p = dir().join(name);
    std::fs::write(&p, fixture(&planted_home())).unwrap();
    p
}

/// `deck ARGS` with the planted home folder as `$HOME`.
fn run(args: &[&str]) -> std::process::Output {
    deck_cmd().env("HOME", HOME).args(args).output().unwrap()
}

/// The planted secrets (and the planted home) found in `out`.
fn survivors(out: &str) -> Vec<&'static str> {
    let mut s = secrets_in(out);
    if out.contains(HOME) {
        s.push(HOME);
    }
    s
}

/// The planted secrets found in `out` (the TUI runs under the test's own
/// home folder, not the planted one), and the password of the fixture's
/// environment map.
pub fn secrets_in(out: &str) -> Vec<&'static str> {
    planted_all()
        .iter()
        .flat_map(|p| p.secrets.iter().map(String::as_str))
        .chain(["Planted0Passwd1"])
        .filter(|secret| out.contains(secret))
        .collect()
}

/// How many secrets `secrets_in` knows.
fn secret_count() -> usize {
    planted_all().iter().map(|p| p.secrets.len()).sum::<usize>() + 1
}

/// How many of them a card shows unredacted: those written as they are in
/// the fixture's text (not the token only inside a base64 blob, nor the
/// arguments' environment map, which views replace).
fn shown_count() -> usize {
    let all = planted();
    planted_all()
        .iter()
        .flat_map(|p| &p.secrets)
        .filter(|s| all.contains(s.as_str()))
        .count()
}

/// Terminal output as text: the cast's strings joined, SGR dropped.
fn cast_text(cast: &str) -> String {
    let mut all = String::new();
    for line in cast.lines().skip(1) {
        let v: Value = serde_json::from_str(line).unwrap();
        all.push_str(v[2].as_str().unwrap_or(""));
    }
    let sgr = |s: &str| {
        let mut out = String::new();
        let mut it = s.chars();
        while let Some(c) = it.next() {
            if c == '\u{1b}' {
                for d in it.by_ref() {
                    if d.is_ascii_alphabetic() {
                        break;
                    }
                }
                out.push('\n');
            } else {
                out.push(c);
            }
        }
        out
    };
    sgr(&all)
}

/// What an HTML page says: its text with entities decoded (and as written).
fn page_text(html: &str) -> String {
    format!("{html}\n{}", deck::text::entities::decode(html))
}

#[test]
fn every_planted_kind_is_a_kind_of_the_rules() {
    let r = Redactor::stock().unwrap();
    let mut kinds: Vec<&str> = r.rules().iter().map(|r| r.kind()).collect();
    kinds.extend(["password", "secret"]);
    let planted = planted_all();
    let labels: std::collections::BTreeSet<&str> =
        planted.iter().map(|p| p.kind.as_str()).collect();
    assert!(labels.len() >= 35, "{} kinds planted", labels.len());
    for p in planted {
        assert!(kinds.contains(&p.mark.as_str()), "no rule {:?}", p.mark);
    }
}

/// `deck export INPUT -o OUT EXTRA…` under the planted home; what it
/// wrote.
fn export(input: &Path, out: &Path, extra: &[&str]) -> (std::process::Output, String) {
    let mut args = vec![
        "export",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let o = run(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let written = std::fs::read_to_string(out).unwrap();
    (o, written)
}

#[test]
fn html_export_redacts_by_default_and_not_with_no_redact() {
    let input = write_fixture("html.jsonl");
    let page = dir().join("page.html");
    let (o, html) = export(&input, &page, &["--redact-report"]);
    assert_eq!(survivors(&page_text(&html)), Vec::<&str>::new());
    for p in planted_all() {
        assert!(
            html.contains(&format!("‹redacted:{}›", p.mark)),
            "{}",
            p.mark
        );
    }
    assert!(html.contains("~/project/.env"));
    // The report: the rule sets, kinds, session, cards; never a value.
    let err = stderr(&o);
    assert!(
        err.contains("redaction rules: gitleaks v8.30.1 (217 of 222 rules) + deck ("),
        "{err}"
    );
    assert!(
        err.contains("redacted kind=private-key session=s card=c_terminal count="),
        "{err}"
    );
    assert!(err.contains("card=user/message #1"), "{err}");
    assert!(err.contains("kind=home"), "{err}");
    assert!(err.contains("card=line "), "{err}");
    assert_eq!(survivors(&err), Vec::<&str>::new());
    // Without redaction every secret is on the page: the fixture plants them.
    let (_, html) = export(&input, &page, &["--no-redact"]);
    assert_eq!(survivors(&page_text(&html)).len(), shown_count() + 1);
}

#[test]
fn cast_export_redacts_by_default_at_any_size() {
    let input = write_fixture("cast.jsonl");
    let cast = dir().join("out.cast");
    for size in [
        ["--height", "60", "--width", "140"],
        ["--height", "30", "--width", "40"],
    ] {
        let (_, raw) = export(&input, &cast, &size);
        assert_eq!(survivors(&raw), Vec::<&str>::new(), "{size:?}");
        assert_eq!(survivors(&cast_text(&raw)), Vec::<&str>::new(), "{size:?}");
        assert!(cast_text(&raw).contains("‹redacted:"));
    }
    let size = ["--height", "60", "--width", "140"];
    let (_, raw) = export(&input, &cast, &[&size[..], &["--no-redact"]].concat());
    assert!(!survivors(&cast_text(&raw)).is_empty());
}

/// `deck render --redact` in every format at every width (narrow ones
/// wrap every long secret over rows): none survives, whole or in parts.
#[test]
fn render_redacts_when_asked() {
    let input = write_fixture("render.jsonl");
    let path = input.to_str().unwrap();
    for width in ["160", "80", "40"] {
        for format in ["text", "ansi", "styled"] {
            let o = run(&[
                "render",
                path,
                "--redact",
                "--density",
                "full",
                "--format",
                format,
                "--width",
                width,
            ]);
            assert!(o.status.success(), "{width} {format}: {}", stderr(&o));
            let out = stdout(&o);
            assert_eq!(survivors(&out), Vec::<&str>::new(), "{width} {format}");
            // Nor any long piece of one a wrap left on a row.
            for p in planted_all() {
                for secret in &p.secrets {
                    for piece in pieces(secret, 12) {
                        assert!(
                            !out.contains(piece),
                            "{width} {format}: {} piece {piece}",
                            p.kind
                        );
                    }
                }
            }
            assert!(out.contains("‹redacted:password›"), "{width} {format}");
        }
    }
    // Off by default for render: every secret shows (but the token only
    // inside the base64 blob).
    let o = run(&["render", path, "--density", "full", "--width", "400"]);
    assert_eq!(survivors(&stdout(&o)).len(), shown_count() + 1);
}

/// The pieces of `s` `n` characters long, a character apart.
fn pieces(s: &str, n: usize) -> Vec<&str> {
    let at: Vec<usize> = s.char_indices().map(|(i, _)| i).chain([s.len()]).collect();
    (0..at.len().saturating_sub(n))
        .map(|i| &s[at[i]..at[i + n]])
        .collect()
}

#[test]
fn the_flags_conflict_and_the_report_needs_redaction() {
    let input = write_fixture("flags.jsonl");
    let path = input.to_str().unwrap();
    let o = run(&["export", path, "-o", "x.html", "--redact", "--no-redact"]);
    assert!(!o.status.success());
    let o = run(&[
        "export",
        path,
        "-o",
        "x.html",
        "--no-redact",
        "--redact-report",
    ]);
    assert!(!o.status.success());
    let o = run(&["render", path, "--redact-report"]);
    assert!(!o.status.success());
}

/// Fails closed: JSON that cannot be scanned (nested deeper than a tree
/// holds) stops the export, says which session and card, and writes nothing.
#[test]
fn an_unscannable_session_is_not_exported() {
    let deep = format!("{}1{}", "[".repeat(300), "]".repeat(300));
    let log = format!(
        "{}\n{{\"type\":\"session/event\",\"sessionId\":\"s\",\"event\":{{\"type\":\"user/message\",\"seq\":2,\"time\":2,\"data\":{deep}}}}}\n",
        frame(
            event("user/message", 1, 1, json!({"content": [text("hi")]})),
            None
        )
    );
    let d = dir().join("deep");
    std::fs::create_dir_all(&d).unwrap();
    let input = d.join("deep.jsonl");
    std::fs::write(&input, log).unwrap();
    let page = d.join("deep.html");
    let o = run(&[
        "export",
        input.to_str().unwrap(),
        "-o",
        page.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(
        err.contains("cannot redact session s, user/message #2"),
        "{err}"
    );
    assert!(err.contains("nothing written"), "{err}");
    let left: Vec<_> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, vec![std::ffi::OsString::from("deep.jsonl")]);
}

/// `R` in the viewer: no planted secret on screen, the status bar says
/// `redacted`; a second `R` shows them again.
#[test]
fn r_redacts_the_screen_and_back() {
    let text = fixture(&planted());
    let loaded = deck::source::load_bytes("fixture", text.as_bytes()).unwrap();
    let mut app = App::from_file("fixture".into(), loaded, None, FileMode::View).unwrap();
    app.set_themes(themes(), 0);
    app.set_density(Density::Full);
    app.update(deck::app::Msg::Resize(160, 400));
    app.update(key(KeyCode::Home));
    let before = screen(&mut app);
    assert!(secrets_in(&before).len() >= secret_count() / 2, "{before}");
    app.update(ch('R'));
    let on = screen(&mut app);
    assert!(app.redacted());
    assert_eq!(secrets_in(&on), Vec::<&str>::new(), "{on}");
    assert!(on.contains("‹redacted:github-pat›"), "{on}");
    assert!(on.lines().last().unwrap().contains("redacted"), "{on}");
    app.update(ch('R'));
    let off = screen(&mut app);
    assert!(!app.redacted());
    assert_eq!(secrets_in(&off), secrets_in(&before));
}

/// `R` over a file shown while it is read (`deck view` of a big log): its
/// records are not kept, so `R` reads it again — the transcript emptied,
/// refilled redacted as the records come, back on the item focused; a
/// second `R` reads it again as it came. `R` while it is read waits.
#[test]
fn r_over_a_file_read_behind_its_first_screen_reads_it_again() {
    use deck::app::Msg;
    use deck::app::loading::{LoadEnd, Loading};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
    let text = fixture(&planted());
    let loaded = deck::source::load_bytes("fixture", text.as_bytes()).unwrap();
    let records = loaded.sessions[0].records.clone();
    let id = loaded.sessions[0].id.clone();
    let loading = || Loading {
        bytes: Arc::new(AtomicU64::new(5)),
        total: 10,
        mode: FileMode::View,
        refocus: None,
    };
    let end = || {
        Msg::Loaded(Box::new(LoadEnd {
            shown: 0,
            id: id.clone(),
            sessions: Vec::new(),
            whole: None,
            failed: None,
        }))
    };
    let mut app = App::opening(
        "fixture".into(),
        id.clone(),
        records[..3].to_vec(),
        loading(),
    );
    app.set_themes(themes(), 0);
    app.set_density(Density::Full);
    app.update(Msg::Resize(160, 400));
    let reads = Arc::new(AtomicUsize::new(0));
    let counted = reads.clone();
    app.read_again_with(Arc::new(move || {
        counted.fetch_add(1, Ordering::Relaxed);
        loading()
    }));
    app.update(ch('R'));
    assert!(screen(&mut app).contains("R: the file is still being read"));
    assert_eq!(reads.load(Ordering::Relaxed), 0);
    app.update(Msg::Records(records[3..].to_vec()));
    app.update(end());
    app.update(key(KeyCode::Home));
    app.update(ch('j'));
    app.update(ch('j'));
    assert_eq!(app.focused_item(), Some(2));
    let before = screen(&mut app);
    assert!(secrets_in(&before).len() >= secret_count() / 2, "{before}");
    let read_again = |app: &mut App, n: usize| {
        let focused = app.focused_item();
        app.update(ch('R'));
        assert_eq!(reads.load(Ordering::Relaxed), n);
        assert_eq!(
            app.transcript().items().len(),
            0,
            "emptied, to be read again"
        );
        let s = screen(app);
        assert!(
            s.contains("reading the file again") && s.contains("loading 50%"),
            "{s}"
        );
        // Again while it is read: it waits.
        app.update(ch('R'));
        assert!(screen(app).contains("R: the file is still being read"));
        assert_eq!(reads.load(Ordering::Relaxed), n);
        for batch in records.chunks(5) {
            app.update(Msg::Records(batch.to_vec()));
        }
        app.update(end());
        assert_eq!(app.focused_item(), focused, "back on the item it was on");
        assert!(
            !screen(app).contains("reading the file again"),
            "the read is over"
        );
    };
    read_again(&mut app, 1);
    assert_eq!(app.focused_item(), Some(2));
    app.update(key(KeyCode::Home));
    let on = screen(&mut app);
    assert!(app.redacted());
    assert_eq!(secrets_in(&on), Vec::<&str>::new(), "{on}");
    assert!(on.contains("‹redacted:github-pat›"), "{on}");
    read_again(&mut app, 2);
    app.update(key(KeyCode::Home));
    let off = screen(&mut app);
    assert!(!app.redacted());
    assert_eq!(secrets_in(&off), secrets_in(&before));
}

/// `R` in the player: the same position, redacted records.
#[test]
fn r_redacts_a_replay_where_it_is() {
    let input = write_fixture("replay.jsonl");
    let mut app = common::tui::replayer_sized(input.to_str().unwrap(), Some(0.1), 160, 300);
    app.set_density(Density::Full);
    app.update(key(KeyCode::End));
    // Play to the end.
    app.update(ch(' '));
    for _ in 0..50 {
        app.update(deck::app::Msg::Tick {
            real_ms: 1000.0,
            now_ms: 0,
        });
    }
    let (done, all) = app.player().unwrap().events();
    assert_eq!(done, all);
    assert!(!secrets_in(&screen(&mut app)).is_empty());
    app.update(ch('R'));
    assert_eq!(app.player().unwrap().events(), (done, all));
    let on = screen(&mut app);
    assert_eq!(secrets_in(&on), Vec::<&str>::new(), "{on}");
    app.update(ch('R'));
    assert_eq!(app.player().unwrap().events(), (done, all));
}

/// `R` over a live source: what arrives while it is on is redacted too.
#[test]
fn r_redacts_what_a_live_source_sends() {
    let text = fixture(&planted());
    let loaded = deck::source::load_bytes("fixture", text.as_bytes()).unwrap();
    let records = loaded.sessions.into_iter().next().unwrap().records;
    let (first, rest) = records.split_at(3);
    let mut app = App::live("live".into(), Some("s".into()), themes());
    app.set_density(Density::Full);
    app.update(deck::app::Msg::Resize(160, 400));
    app.update(deck::app::Msg::Records(first.to_vec()));
    app.update(ch('R'));
    app.update(deck::app::Msg::Records(rest.to_vec()));
    app.update(key(KeyCode::Home));
    let on = screen(&mut app);
    assert_eq!(secrets_in(&on), Vec::<&str>::new(), "{on}");
    app.update(ch('R'));
    app.update(key(KeyCode::Home));
    assert!(!secrets_in(&screen(&mut app)).is_empty());
}
