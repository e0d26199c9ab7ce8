//! Broken input: what a damaged or hostile log does to deck. Every problem
//! becomes a diagnostic that names its line and byte offset and keeps the
//! raw text; everything else still renders.

use deck::cards::{self, Density};
use deck::headless::{self, Format};
use deck::session::Transcript;
use deck::theme::Theme;
use deck::view::transcript::LayoutOptions;
use serde_json::{Value, json};

use crate::common::{self, build};

const TURN_START: &str = r#"{"type":"turn/start","seq":0,"time":1,"data":{"turn":1}}"#;

fn write(dir: &tempfile::TempDir, name: &str, text: &str) -> String {
    let p = dir.path().join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

fn render(t: &Transcript, width: usize) -> String {
    headless::render(
        t,
        &Theme::dark(),
        &LayoutOptions::new(width, Density::Full),
        None,
        Format::Text,
    )
}

#[test]
fn a_50_mb_line_is_one_diagnostic_shown_short_and_kept_whole() {
    let dir = tempfile::tempdir().unwrap();
    let junk = "x".repeat(50_000_000);
    let path = write(
        &dir,
        "big.jsonl",
        &format!(
            "{TURN_START}\n{junk}\n{}\n",
            build::user_message(1, 2, "after the junk")
        ),
    );
    let t = common::fold(&path);
    assert_eq!(t.diagnostics().len(), 1);
    let d = &t.diagnostics()[0];
    assert_eq!(
        (d.origin.line, d.origin.offset),
        (2, TURN_START.len() as u64 + 1)
    );
    // Kept whole (for copying and `inspect --diagnostics`)…
    assert_eq!(d.raw.len(), junk.len());
    // …shown short, and the rest renders.
    let out = render(&t, 80);
    assert!(out.contains("after the junk"), "{out}");
    assert!(out.contains("line 2 (byte 57)"), "{out}");
    assert!(out.lines().count() < 60, "{} rows", out.lines().count());
    assert!(
        out.contains("(50000000 bytes in all; y copies them)"),
        "{out}"
    );
}

#[test]
fn a_50_mb_message_renders_whole() {
    let dir = tempfile::tempdir().unwrap();
    let text = "word ".repeat(10_000_000);
    let path = write(
        &dir,
        "msg.jsonl",
        &format!("{TURN_START}\n{}\n", build::user_message(1, 2, &text)),
    );
    let t = common::fold(&path);
    assert!(t.diagnostics().is_empty());
    let out = render(&t, 100);
    // Every word is there, wrapped.
    assert_eq!(out.matches("word").count(), 10_000_000);
    assert!(
        out.lines()
            .all(|l| unicode_width::UnicodeWidthStr::width(l) <= 100)
    );
}

#[test]
fn json_nested_100k_deep_is_diagnosed_not_overflowed() {
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let lines = [
        TURN_START.to_string(),
        // Deep data in an event deck folds.
        format!(
            r#"{{"type":"session/event","sessionId":"s","event":{{"type":"user/message","seq":1,"time":2,"data":{deep}}}}}"#
        ),
        // A deep line on its own.
        deep.clone(),
        // A tool call whose result view is deep.
        build::frame(
            build::event("tool/call", 2, 3, build::call_data("c", "probe", "{}")),
            None,
        )
        .to_string(),
        format!(
            r#"{{"type":"session/event","sessionId":"s","event":{{"type":"tool/result","seq":3,"time":4,"data":{{"message":{{"content":[{{"type":"tool-result","toolCallId":"c","content":[],"isError":false}}]}}}}}},"view":{{"for":"result","view":{{"card":"generic","rawInput":{deep}}}}}}}"#
        ),
        build::user_message(4, 2, "still here").to_string(),
    ];
    let dir = tempfile::tempdir().unwrap();
    let path = write(&dir, "deep.jsonl", &(lines.join("\n") + "\n"));
    let t = common::fold(&path);
    let seen: Vec<(usize, bool)> = t
        .diagnostics()
        .iter()
        .map(|d| (d.origin.line, d.reason.contains("recursion limit")))
        .collect();
    assert_eq!(seen, vec![(2, true), (3, true)], "{:?}", t.diagnostics());
    // The deep data is kept as its text, not as an empty tree.
    assert!(t.diagnostics()[0].raw.contains("[[[[[[[["));
    // The deep view falls back, saying why; its diagnostic says where.
    let card = &t.cards()[0];
    let fallback = cards::resolve(card).fallback.unwrap();
    assert!(
        fallback.starts_with("result view: ") && fallback.contains("recursion limit"),
        "{fallback}"
    );
    let problems = cards::view_problems(card);
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].origin.line, 5);
    let out = render(&t, 80);
    assert!(out.contains("still here") && out.contains("probe"), "{out}");
    // The CLI: exit 0, and every problem listed with its line.
    let o = common::deck(&["render", &path]);
    assert!(o.status.success());
    let o = common::deck(&["inspect", "--diagnostics", &path]);
    let listed: Vec<u64> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["line"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert_eq!(listed, vec![2, 3, 5]);
}

/// A valid view of each card (and shape / kind) and the JSON pointers of its fields.
fn views() -> Vec<(Value, Vec<&'static str>)> {
    vec![
        (
            json!({"card": "generic", "title": "T", "kind": "k",
                   "content": [{"type": "text", "text": "c"}], "locations": [{"path": "p", "line": 1}]}),
            vec![
                "/title",
                "/kind",
                "/content",
                "/content/0",
                "/content/0/text",
                "/locations",
                "/locations/0",
                "/locations/0/path",
                "/locations/0/line",
            ],
        ),
        (
            json!({"card": "terminal", "title": "T", "description": "d", "cwd": "/", "output": "o",
                   "exitCode": 0, "signal": "TERM"}),
            vec![
                "/title",
                "/description",
                "/cwd",
                "/output",
                "/exitCode",
                "/signal",
            ],
        ),
        (
            json!({"card": "diff", "title": "T", "diffs": [{"path": "a", "oldText": "x", "newText": "y"}],
                   "locations": [{"path": "a"}]}),
            vec![
                "/title",
                "/diffs",
                "/diffs/0",
                "/diffs/0/path",
                "/diffs/0/oldText",
                "/diffs/0/newText",
                "/locations/0/path",
            ],
        ),
        (
            json!({"card": "search", "shape": "matches", "title": "T", "truncated": false, "total": 1,
                   "files": [{"path": "a", "matches": [{"lineNumber": 1, "line": "l"}]}]}),
            vec![
                "/title",
                "/shape",
                "/files",
                "/files/0",
                "/files/0/path",
                "/files/0/matches",
                "/files/0/matches/0",
                "/files/0/matches/0/lineNumber",
                "/files/0/matches/0/line",
                "/truncated",
                "/total",
            ],
        ),
        (
            json!({"card": "search", "shape": "paths", "paths": ["a"]}),
            vec!["/paths", "/paths/0"],
        ),
        (
            json!({"card": "read", "title": "T", "path": "a", "offset": 1, "totalLines": 1, "lang": "rs",
                   "lines": [{"number": 1, "text": "x"}], "content": [{"type": "text", "text": "x"}]}),
            vec![
                "/title",
                "/path",
                "/offset",
                "/lines",
                "/lines/0",
                "/lines/0/number",
                "/lines/0/text",
                "/totalLines",
                "/lang",
                "/content",
                "/content/0/text",
            ],
        ),
        (
            json!({"card": "web", "kind": "search", "title": "T", "answer": "a", "truncated": false,
                   "sources": [{"url": "u", "title": "t", "snippet": "s", "publishedAt": "p"}],
                   "failures": [{"query": "q", "code": "c", "message": "m"}]}),
            vec![
                "/title",
                "/kind",
                "/sources",
                "/sources/0",
                "/sources/0/url",
                "/sources/0/title",
                "/sources/0/snippet",
                "/sources/0/publishedAt",
                "/answer",
                "/failures",
                "/failures/0/query",
                "/failures/0/code",
                "/failures/0/message",
                "/truncated",
            ],
        ),
        (
            json!({"card": "web", "kind": "fetch", "url": "u", "statusCode": 200}),
            vec!["/url", "/statusCode"],
        ),
    ]
}

/// Call `c{seq}` of tool `probe{seq}` and its empty result, with `view`
/// for the result: two frame lines.
fn probe(seq: u64, view: Value) -> [String; 2] {
    let call = format!("c{seq}");
    [
        build::frame(
            build::event(
                "tool/call",
                seq,
                3,
                build::call_data(&call, &format!("probe{seq}"), "{}"),
            ),
            None,
        )
        .to_string(),
        build::frame(
            build::event(
                "tool/result",
                seq + 1,
                4,
                build::result_data(&call, json!([]), false),
            ),
            Some(("result", view)),
        )
        .to_string(),
    ]
}

/// A value of another type than `v`.
fn wrong(v: &Value) -> Value {
    match v {
        Value::String(_) => json!(7),
        Value::Number(_) => json!("seven"),
        Value::Bool(_) => json!("yes"),
        Value::Array(_) => json!({"not": "an array"}),
        Value::Object(_) => json!("not an object"),
        Value::Null => json!(1),
    }
}

/// `/files/0/matches/0/line` → `files[0].matches[0].line`.
fn label(pointer: &str) -> String {
    let mut out = String::new();
    for seg in pointer.trim_start_matches('/').split('/') {
        if seg.parse::<usize>().is_ok() {
            out.push_str(&format!("[{seg}]"));
        } else {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(seg);
        }
    }
    out
}

#[test]
fn every_field_of_every_card_given_a_wrong_type_falls_back_naming_it() {
    // One call per broken view, plus a valid one of each card, in one log.
    let mut lines = vec![TURN_START.to_string()];
    let mut want = Vec::new();
    let mut seq = 1;
    for (base, fields) in views() {
        let cases = std::iter::once((None, base.clone())).chain(fields.iter().map(|f| {
            let mut v = base.clone();
            let slot = v.pointer_mut(f).unwrap();
            *slot = wrong(slot);
            (Some(*f), v)
        }));
        for (field, view) in cases {
            lines.extend(probe(seq, view));
            let expect = field.map(label);
            want.push((expect, lines.len(), base["card"].clone()));
            seq += 2;
        }
    }
    // Unknown tags, shapes and kinds.
    for (view, expect) in [
        (json!({"card": "hologram"}), "unknown card \"hologram\""),
        (json!({"card": 5}), "card: expected string, got number"),
        (
            json!({"card": "search", "shape": "grid"}),
            "unknown search shape \"grid\"",
        ),
        (
            json!({"card": "web", "kind": "video"}),
            "unknown web kind \"video\"",
        ),
        (
            json!(["not", "an", "object"]),
            "view is array, not an object",
        ),
        (json!({"title": "T"}), "view has no \"card\" tag"),
    ] {
        lines.extend(probe(seq, view.clone()));
        want.push((Some(expect.to_string()), lines.len(), view));
        seq += 2;
    }
    let dir = tempfile::tempdir().unwrap();
    let text = lines.join("\n") + "\n";
    let path = write(&dir, "shapes.jsonl", &text);
    let t = common::fold(&path);
    assert_eq!(t.cards().len(), want.len());
    for (card, (expect, line, tag)) in t.cards().iter().zip(&want) {
        let r = cards::resolve(card);
        let problems = cards::view_problems(card);
        match expect {
            None => {
                assert_eq!(r.fallback, None, "valid {tag} view");
                assert!(problems.is_empty());
            }
            Some(f) => {
                let reason = r
                    .fallback
                    .clone()
                    .unwrap_or_else(|| panic!("{tag} {f}: no fallback"));
                let offset: usize = text.split('\n').take(line - 1).map(|l| l.len() + 1).sum();
                // The card says which view; where it was read is for
                // `deck inspect --diagnostics` (the problems below).
                let place = "result view: ";
                assert!(reason.starts_with(place), "{tag} {f}: {reason}");
                // The reason names the field (`files[0].matches[0].line: …`).
                let why = &reason[place.len()..];
                assert!(why.contains(f.as_str()), "{tag} {f}: {why}");
                assert_eq!(problems.len(), 1, "{tag} {f}");
                assert_eq!(problems[0].origin.line, *line);
                assert_eq!(problems[0].origin.offset as usize, offset);
                let at = format!("result view (line {line}, byte {offset})");
                assert!(
                    problems[0].reason.starts_with(&at),
                    "{}",
                    problems[0].reason
                );
            }
        }
    }
    // All of it renders, each card with its tool's name at least.
    for width in [0, 1, 20, 80, 200] {
        let out = render(&t, width);
        if width >= 80 {
            for card in t.cards().iter() {
                let title = cards::resolve(card).title;
                assert!(out.contains(&title), "{title}");
            }
        }
    }
    let o = common::deck(&["render", &path]);
    assert!(o.status.success());
}
