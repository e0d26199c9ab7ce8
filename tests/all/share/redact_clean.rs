//! Redaction that damages nothing: a session over a project with no secret
//! in it — code and configuration that handle passwords, tokens and keys in
//! Rust, Python, JavaScript, TypeScript, YAML, TOML, shell and an
//! `.env.example` of placeholders (`tests/fixtures/redact/clean/`, and
//! some of deck's own sources), 2,000 lines and more — read, written,
//! printed, searched and quoted, in every card kind. Redacting it replaces
//! nothing, and every output (HTML, cast, render at every width) passes
//! the last check, so nothing is refused.

use std::path::PathBuf;

use deck::text::redact::Redactor;
use serde_json::{Value, json};

use crate::common::build::{event, frame, in_turn, text};
use crate::common::{deck_cmd, stderr, stdout};

/// (path in the session, text): the clean project's files.
fn files() -> Vec<(&'static str, &'static str)> {
    vec![
        (
            "auth.rs",
            include_str!("../../fixtures/redact/clean/auth.rs"),
        ),
        (
            "settings.py",
            include_str!("../../fixtures/redact/clean/settings.py"),
        ),
        (
            "security.py",
            include_str!("../../fixtures/redact/clean/security.py"),
        ),
        (
            "test_security.py",
            include_str!("../../fixtures/redact/clean/test_security.py"),
        ),
        (
            "server.js",
            include_str!("../../fixtures/redact/clean/server.js"),
        ),
        ("api.ts", include_str!("../../fixtures/redact/clean/api.ts")),
        (
            "docker-compose.yml",
            include_str!("../../fixtures/redact/clean/docker-compose.yml"),
        ),
        (
            ".github/workflows/release.yml",
            include_str!("../../fixtures/redact/clean/release.yml"),
        ),
        (
            "k8s/deployment.yaml",
            include_str!("../../fixtures/redact/clean/deployment.yaml"),
        ),
        (
            "chart/values.yaml",
            include_str!("../../fixtures/redact/clean/values.yaml"),
        ),
        (
            ".env.example",
            include_str!("../../fixtures/redact/clean/env.example"),
        ),
        (
            "scripts/deploy.sh",
            include_str!("../../fixtures/redact/clean/deploy.sh"),
        ),
        (
            "config.toml",
            include_str!("../../fixtures/redact/clean/config.toml"),
        ),
        // deck's own code about hosts, tokens, keys and indexes.
        (
            "src/rpc.rs",
            include_str!("../../../src/clients/dsh/rpc.rs"),
        ),
        ("src/cli.rs", include_str!("../../../src/cli.rs")),
        (
            "src/index.rs",
            include_str!("../../../src/library/index.rs"),
        ),
        ("src/keys.rs", include_str!("../../../src/app/keys.rs")),
    ]
}

#[test]
fn the_clean_project_is_big_enough() {
    let lines: usize = files().iter().map(|(_, t)| t.lines().count()).sum();
    assert!(lines >= 2000, "{lines} lines");
}

/// A DSH frame log of the project: each file read, written, printed,
/// searched for words of secrets, and quoted by the assistant.
fn session() -> String {
    let mut out = vec![
        frame(
            event(
                "user/message",
                1,
                1_000,
                json!({"content": [text("Review how this project handles its credentials.")], "role": "user", "id": "u1"}),
            ),
            None,
        )
        .to_string(),
    ];
    let mut seq = 2;
    let mut push = |out: &mut Vec<String>, kind: &str, data: Value, view: Option<(&str, Value)>| {
        out.push(frame(event(kind, seq, 1_000 + seq as i64, in_turn(data)), view).to_string());
        seq += 1;
    };
    for (i, (path, body)) in files().into_iter().enumerate() {
        let full = format!("/workspace/demo/{path}");
        let lines: Vec<&str> = body.lines().collect();
        let matches: Vec<Value> = lines
            .iter()
            .enumerate()
            .filter(|(_, l)| {
                let l = l.to_lowercase();
                ["password", "token", "secret", "key", "auth"]
                    .iter()
                    .any(|w| l.contains(w))
            })
            .map(|(n, l)| json!({"lineNumber": n + 1, "line": l}))
            .collect();
        let calls = [
            (
                "read",
                json!({"path": full}),
                json!({"card": "read", "path": full, "offset": 1, "lines": lines.iter().enumerate()
                    .map(|(n, l)| json!({"number": n + 1, "text": l})).collect::<Vec<_>>()}),
            ),
            (
                "write",
                json!({"path": full, "content": body}),
                json!({"card": "diff", "title": format!("Write {path}"), "diffs": [{"path": full, "oldText": "", "newText": body}]}),
            ),
            (
                "bash",
                json!({"command": format!("cat {full}")}),
                json!({"card": "terminal", "title": format!("cat {full}"), "output": body, "exitCode": 0}),
            ),
            (
                "grep",
                json!({"pattern": "password|token|secret|key|auth", "path": full}),
                json!({"card": "search", "shape": "matches", "files": [{"path": full, "matches": matches}]}),
            ),
        ];
        for (j, (tool, args, view)) in calls.into_iter().enumerate() {
            let id = format!("c{i}_{j}");
            push(
                &mut out,
                "tool/call",
                json!({"callId": id, "name": tool, "arguments": args.to_string()}),
                None,
            );
            push(
                &mut out,
                "tool/result",
                json!({"message": {"content": [{"type": "tool-result", "toolCallId": id,
                    "content": [text(body)], "isError": false}]}}),
                Some(("result", view)),
            );
        }
        let said = format!("Here is `{path}`:\n\n```\n{body}\n```\n");
        push(
            &mut out,
            "assistant/message",
            json!({"message": {"role": "assistant", "content": [{"type": "text", "text": said}]}}),
            None,
        );
    }
    out.join("\n") + "\n"
}

fn input() -> PathBuf {
    let d = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("redact-clean-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let p = d.join("clean.jsonl");
    if !p.exists() {
        std::fs::write(&p, session()).unwrap();
    }
    p
}

/// The records redacted: not one replacement.
#[test]
fn redacting_the_clean_session_replaces_nothing() {
    let text = session();
    let loaded = deck::source::load_bytes("clean", text.as_bytes()).unwrap();
    let s = &loaded.sessions[0];
    let r = Redactor::new(deck::text::redact::STOCK, Some("/home/nobody-here")).unwrap();
    let done = deck::session::redact::records(&r, s.id.as_deref(), &s.records).unwrap();
    let hits: Vec<String> = done
        .hits
        .iter()
        .map(|h| format!("{} in {} ×{}", h.kind, h.card, h.count))
        .collect();
    assert_eq!(hits, Vec::<String>::new());
}

fn run(args: &[&str]) -> std::process::Output {
    deck_cmd()
        .env("HOME", "/home/nobody-here")
        .args(args)
        .output()
        .unwrap()
}

/// Every output of it is written, the same as without redaction, and
/// passes the last check.
#[test]
fn every_output_of_the_clean_session_is_written_untouched() {
    let input = input();
    let path = input.to_str().unwrap();
    let dir = input.parent().unwrap();
    let written = |name: &str, extra: &[&str]| {
        let out = dir.join(name);
        let mut args = vec!["export", path, "-o", out.to_str().unwrap()];
        args.extend_from_slice(extra);
        let o = run(&args);
        assert!(o.status.success(), "{name} {extra:?}: {}", stderr(&o));
        (stderr(&o), std::fs::read_to_string(&out).unwrap())
    };
    let (err, page) = written("clean.html", &["--redact-report"]);
    assert!(
        !err.contains("redacted kind=") && !err.contains("deck: redacted"),
        "{err}"
    );
    assert!(page == written("plain.html", &["--no-redact"]).1);
    for size in [
        ["--width", "120", "--height", "40"],
        ["--width", "40", "--height", "20"],
    ] {
        let (_, cast) = written("clean.cast", &size);
        let (_, plain) = written("plain.cast", &[&size[..], &["--no-redact"]].concat());
        assert!(cast == plain, "{size:?}");
    }
    for width in ["120", "80", "40"] {
        for format in ["text", "ansi"] {
            let args = [
                "render",
                path,
                "--density",
                "full",
                "--width",
                width,
                "--format",
                format,
            ];
            let o = run(&[&args[..], &["--redact"]].concat());
            assert!(o.status.success(), "{width} {format}: {}", stderr(&o));
            assert!(stdout(&o) == stdout(&run(&args)), "{width} {format}");
        }
    }
}
