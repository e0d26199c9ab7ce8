//! `deck card VIEW`: one view drawn as deck draws it — the very rows of
//! that card inside `deck render` of a session holding the view — in each
//! format, width, density; stdin; and its errors.

use serde_json::{Value, json};

use crate::common;
use crate::common::build::{call_data, event, frame, result_data, text, user_message};
use crate::common::hostile::TURN_START;

/// A view of each card, and one that falls back.
fn views() -> Vec<Value> {
    vec![
        json!({"card": "terminal", "title": "cargo test", "cwd": "/src",
               "output": "running 3 tests\n\u{1b}[32mok\u{1b}[0m\ntest result: ok", "exitCode": 0}),
        json!({"card": "diff", "title": "Edit src/lib.rs", "diffs": [
            {"path": "src/lib.rs", "oldText": "fn a() {}\nfn b() {}\n", "newText": "fn a() {}\nfn c() {}\n"}]}),
        json!({"card": "read", "path": "src/main.rs", "offset": 1, "totalLines": 40, "lang": "rs",
               "lines": [{"number": 1, "text": "fn main() {"}, {"number": 2, "text": "    println!(\"hi\");"},
                         {"number": 3, "text": "}"}]}),
        json!({"card": "search", "shape": "matches", "total": 2, "files": [
            {"path": "src/a.rs", "matches": [{"lineNumber": 3, "line": "let x = 1;"},
                                             {"lineNumber": 9, "line": "let x = 2;"}]}]}),
        json!({"card": "web", "kind": "search", "answer": "**Yes.**", "sources": [
            {"url": "https://example.com/a", "title": "A page", "snippet": "about a"}]}),
        json!({"card": "generic", "title": "deploy", "kind": "execute", "rawInput": {"env": "staging"},
               "content": [{"type": "text", "text": "deployed"}]}),
        json!({"card": "read", "path": 7, "lines": []}),
    ]
}

/// A frame log: a user's message, then the call `deck card` draws (tool
/// `tool`, no arguments, no output, events without times: no duration)
/// with `view` for its result, then another message.
fn session(view: &Value) -> String {
    let t0 = 1_796_069_109_719;
    let lines = [
        TURN_START.to_string(),
        frame(user_message(1, t0 - 50, "before the card"), None).to_string(),
        frame(
            event("tool/call", 2, 0, call_data("call_1", "tool", "{}")),
            None,
        )
        .to_string(),
        frame(
            event(
                "tool/result",
                3,
                0,
                result_data("call_1", json!([text("")]), false),
            ),
            Some(("result", view.clone())),
        )
        .to_string(),
        frame(user_message(4, t0 + 300, "after the card"), None).to_string(),
    ];
    lines.join("\n") + "\n"
}

/// `deck card ARGS` with `stdin`: (stdout, stderr, exit code).
fn card(args: &[&str], stdin: &str) -> (String, String, i32) {
    common::deck_stdin(&[&["card"][..], args].concat(), stdin)
}

#[test]
fn deck_card_draws_the_very_card_inside_deck_render() {
    let dir = tempfile::tempdir().unwrap();
    for (i, view) in views().iter().enumerate() {
        let log = dir.path().join(format!("s{i}.jsonl"));
        std::fs::write(&log, session(view)).unwrap();
        let log = log.to_str().unwrap();
        let file = dir.path().join(format!("v{i}.json"));
        std::fs::write(&file, serde_json::to_string_pretty(view).unwrap()).unwrap();
        let file = file.to_str().unwrap();
        for (width, density, format) in [
            ("80", "full", "text"),
            ("80", "full", "styled"),
            ("80", "full", "ansi"),
            ("44", "preview", "text"),
            ("120", "line", "styled"),
        ] {
            let flags = [
                "--width",
                width,
                "--density",
                density,
                "--format",
                format,
                "--theme",
                "dark",
            ];
            let (drawn, _, code) = card(&[&[file][..], &flags[..]].concat(), "");
            assert_eq!(code, 0);
            let rendered = common::deck_ok(&[&["render", log][..], &flags[..]].concat());
            assert!(
                rendered.contains(&drawn),
                "{view} {flags:?}\n--- deck card:\n{drawn}--- deck render:\n{rendered}"
            );
            // Not the whole session: the messages around it are not in it.
            assert!(!drawn.contains("before the card") && drawn.lines().count() >= 1);
            assert!(rendered.contains("before the card") && rendered.contains("after the card"));
        }
    }
}

#[test]
fn deck_card_defaults_stdin_themes_and_what_falls_back() {
    let view = r#"{"card": "terminal", "title": "ls", "output": "Cargo.toml", "exitCode": 0}"#;
    // Defaults: 80 columns, dark, full, text — as `deck::testing` draws it.
    let (out, err, code) = card(&["-"], view);
    assert_eq!((code, err.as_str()), (0, ""));
    let want = deck::testing::render_view(view, 80, "dark", deck::testing::Density::Full).unwrap();
    assert_eq!(out, want.text);
    // A view alone took no time anyone measured: no duration is claimed.
    let head = out.lines().next().unwrap();
    assert!(head.trim_end().ends_with("exit 0"), "{out}");
    assert!(!head.contains("ms"), "{out}");
    let (styled, _, _) = card(&["-", "--theme", "light", "--format", "styled"], view);
    let light =
        deck::testing::render_view(view, 80, "light", deck::testing::Density::Full).unwrap();
    assert_eq!(styled, light.styled);
    // A view that falls back draws the fallback card, and stderr says why.
    let (out, err, code) = card(&["-"], r#"{"card": "search", "shape": "grid"}"#);
    assert_eq!(code, 0);
    assert!(
        out.contains(r#"fallback: result view: unknown search shape "grid""#),
        "{out}"
    );
    assert_eq!(
        err,
        "deck: -: falls back to the generic card: result view: unknown search shape \"grid\"\n"
    );
    // Hostile text is drawn, never obeyed.
    let hostile =
        json!({"card": "terminal", "title": "\u{1b}]0;pwned\u{7}", "output": "\u{1b}[2J\u{9b}31m"});
    let (out, _, _) = card(&["-", "--format", "ansi"], &hostile.to_string());
    common::assert_only_sgr_and_osc8(&out);
}

#[test]
fn deck_card_says_what_it_cannot_draw() {
    let (out, err, code) = card(&["-"], "{not json");
    assert_eq!((out.as_str(), code), ("", 1));
    assert!(err.contains("-: not a JSON view"), "{err}");
    let (_, err, code) = card(&["/no/such/view.json"], "");
    assert_eq!(code, 1);
    assert!(err.contains("cannot read /no/such/view.json"), "{err}");
    let (_, err, code) = card(&["-", "--theme", "no-such-theme"], "{}");
    assert_eq!(code, 1);
    assert!(err.contains("no-such-theme"), "{err}");
    let (_, err, code) = card(&["-", "--width", "0"], "{}");
    assert_eq!(code, 2);
    assert!(err.contains("at least 1"), "{err}");
}
