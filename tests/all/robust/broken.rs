//! Broken input: what a damaged or hostile log does to deck. Every problem
//! becomes a diagnostic that names its line and byte offset and keeps the
//! raw text; everything else still renders.

use deck::cards::{self, Density};
use deck::headless::{self, Format};
use deck::session::Transcript;
use deck::theme::Theme;
use deck::view::transcript::LayoutOptions;
use serde_json::Value;

use crate::common::hostile::{self, TURN_START};
use crate::common::{self, build};

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

#[test]
fn every_field_of_every_card_given_a_wrong_type_or_left_out_falls_back_naming_it() {
    // One call per broken view (a field of the wrong type, a required one
    // missing, a bad tag), plus a valid one of each card, in one log.
    let cases = hostile::cases();
    let (text, at) = hostile::log(&cases);
    let want: Vec<(Option<String>, usize, Value)> = cases
        .iter()
        .zip(&at)
        .map(|(c, line)| {
            let tag = c
                .view
                .get("card")
                .cloned()
                .unwrap_or_else(|| c.view.clone());
            (c.broken.as_ref().map(|b| b.says.clone()), *line, tag)
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
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
