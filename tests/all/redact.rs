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
use deck::app::files::FileMode;
use deck::cards::Density;
use deck::text::redact::{RULES, Redactor};
use serde_json::{Value, json};

use crate::common::build::{event, frame, in_turn, text};
use crate::common::tui::{ch, key, screen, themes};
use crate::common::{self, deck_cmd, stderr, stdout};

/// (kind, text as written, the secret in it that must not survive).
const PLANTED: &[(&str, &str, &str)] = &[
    (
        "private-key",
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEplanted0KeyBody1Line\n-----END RSA PRIVATE KEY-----",
        "MIIEplanted0KeyBody1Line",
    ),
    (
        "anthropic",
        "sk-ant-api03-Planted0Anthropic1Key2abc",
        "sk-ant-api03-Planted0Anthropic1Key2abc",
    ),
    (
        "openai",
        "sk-proj-Planted0OpenAI1Key2abcdefgh",
        "sk-proj-Planted0OpenAI1Key2abcdefgh",
    ),
    (
        "github",
        "github_pat_Planted0GitHub1Token2abcdef",
        "github_pat_Planted0GitHub1Token2abcdef",
    ),
    (
        "gitlab",
        "glpat-Planted0GitLab1Token2xy",
        "glpat-Planted0GitLab1Token2xy",
    ),
    (
        "aws-access-key",
        "ASIAPLANTED0AWS1KEY2",
        "ASIAPLANTED0AWS1KEY2",
    ),
    (
        "aws-secret",
        "AWS_SECRET_ACCESS_KEY=Planted0Aws1Secret2Key3abcdefghijklmnopq",
        "Planted0Aws1Secret2Key3abcdefghijklmnopq",
    ),
    (
        "google-api-key",
        "AIzaPlanted0Google1Key2abcdefghijklmnopq",
        "AIzaPlanted0Google1Key2abcdefghijklmnop",
    ),
    (
        "slack",
        "xoxp-Planted0Slack1Token2",
        "xoxp-Planted0Slack1Token2",
    ),
    (
        "stripe",
        "rk_live_Planted0Stripe1Key2",
        "rk_live_Planted0Stripe1Key2",
    ),
    (
        "npm",
        "npm_Planted0Npm1Token2abcdefghijklmnopqrst",
        "npm_Planted0Npm1Token2abcdefghijklmnopqrst",
    ),
    (
        "jwt",
        "eyJhbGciOiJSUzI1NiJ9.eyJwbGFudGVkIjoxfQ.Planted0Sig1nature2",
        "Planted0Sig1nature2",
    ),
    (
        "bearer",
        "Authorization: Basic UGxhbnRlZDBCYXNpYzE=",
        "UGxhbnRlZDBCYXNpYzE",
    ),
    (
        "url-password",
        "https://deploy:Planted0UrlPass1@git.example.com/r.git",
        "Planted0UrlPass1",
    ),
    ("password", "passwd: Planted0Passwd1", "Planted0Passwd1"),
    (
        "high-entropy",
        "DEPLOY_SIGNING_MATERIAL=Zq7Xw2Rk9Lp4Tm8Vn3Bc6Hd1",
        "Zq7Xw2Rk9Lp4Tm8Vn3Bc6Hd1",
    ),
];

/// The home folder the CLI runs under, and a path in it.
const HOME: &str = "/home/planted-user";
const HOME_PATH: &str = "/home/planted-user/project/.env";

/// Every planted secret, a line each.
fn planted() -> String {
    PLANTED
        .iter()
        .map(|(_, t, _)| *t)
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
    let args = json!({"command": p, "path": HOME_PATH, "env": {"password": "Planted0Passwd1"}});
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
            json!({"card": "web", "kind": "search", "title": p, "answer": p, "sources": lines.iter()
                .map(|l| json!({"url": "https://deploy:Planted0UrlPass1@example.com/", "title": l, "snippet": l})).collect::<Vec<_>>()}),
        ),
    ];
    let mut seq = 3;
    for (id, view) in views {
        out.push(call(seq, id, &args, generic(p)));
        out.push(result(seq + 1, id, p, view));
        seq += 2;
    }
    out.push("{damaged line sk-ant-api03-Planted0Anthropic1Key2abc".into());
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
/// home folder, not the planted one).
fn secrets_in(out: &str) -> Vec<&'static str> {
    PLANTED
        .iter()
        .map(|(_, _, secret)| *secret)
        .filter(|secret| out.contains(secret))
        .collect()
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

#[test]
fn every_planted_kind_is_a_rule_of_the_data_file() {
    let r = Redactor::new(RULES, None).unwrap();
    let kinds: Vec<&str> = r.rules().iter().map(|r| r.kind()).collect();
    for (kind, _, _) in PLANTED {
        assert!(kinds.contains(kind), "no rule {kind:?} in rules.toml");
    }
    for kind in &kinds {
        assert!(
            PLANTED.iter().any(|(k, _, _)| k == kind),
            "rule {kind:?} has no planted secret in this fixture"
        );
    }
    // Each planted text alone is replaced by its own kind.
    for (kind, planted, secret) in PLANTED {
        let out = r
            .redact(planted, &mut Default::default())
            .unwrap()
            .into_owned();
        assert!(out.contains(&format!("‹redacted:{kind}›")), "{kind}: {out}");
        assert!(!out.contains(secret), "{kind}: {out}");
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
    assert_eq!(survivors(&html), Vec::<&str>::new());
    for (kind, _, _) in PLANTED {
        assert!(html.contains(&format!("‹redacted:{kind}›")), "{kind}");
    }
    assert!(html.contains("~/project/.env"));
    // The report: kinds, session, cards; never a value.
    let err = stderr(&o);
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
    assert_eq!(survivors(&html).len(), PLANTED.len() + 1);
}

#[test]
fn cast_export_redacts_by_default() {
    let input = write_fixture("cast.jsonl");
    let cast = dir().join("out.cast");
    let size = ["--height", "60", "--width", "140"];
    let (_, raw) = export(&input, &cast, &size);
    assert_eq!(survivors(&raw), Vec::<&str>::new());
    assert_eq!(survivors(&cast_text(&raw)), Vec::<&str>::new());
    assert!(cast_text(&raw).contains("‹redacted:"));
    let (_, raw) = export(&input, &cast, &[&size[..], &["--no-redact"]].concat());
    assert!(!survivors(&cast_text(&raw)).is_empty());
}

#[test]
fn render_redacts_when_asked() {
    let input = write_fixture("render.jsonl");
    let path = input.to_str().unwrap();
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
            "160",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let out = stdout(&o);
        assert_eq!(survivors(&out), Vec::<&str>::new(), "{format}");
        assert!(out.contains("‹redacted:high-entropy›"), "{format}");
    }
    // Off by default for render: every secret shows.
    let o = run(&["render", path, "--density", "full", "--width", "160"]);
    assert_eq!(survivors(&stdout(&o)).len(), PLANTED.len() + 1);
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
    assert!(secrets_in(&before).len() >= PLANTED.len() - 1, "{before}");
    app.update(ch('R'));
    let on = screen(&mut app);
    assert!(app.redacted());
    assert_eq!(secrets_in(&on), Vec::<&str>::new(), "{on}");
    assert!(on.contains("‹redacted:jwt›"), "{on}");
    assert!(on.lines().last().unwrap().contains("redacted"), "{on}");
    app.update(ch('R'));
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
