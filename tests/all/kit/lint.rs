//! `deck lint`: every hostile view listed once with its card's fallback
//! reason, the warnings (each once, none for good views), views the fold
//! does not use, a view given alone, the exit codes, and the output formats.

use deck::cards;
use serde_json::{Value, json};

use crate::common;
use crate::common::build::{self, call_data, event, frame, result_data};
use crate::common::hostile::{self, TURN_START};

/// `deck lint ARGS` with `stdin`: (stdout, stderr, exit code).
fn lint(args: &[&str], stdin: &str) -> (String, String, i32) {
    common::deck_stdin(&[&["lint"][..], args].concat(), stdin)
}

fn json_lines(out: &str) -> Vec<Value> {
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn write(dir: &tempfile::TempDir, name: &str, text: &str) -> String {
    let p = dir.path().join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

#[test]
fn lint_lists_each_hostile_view_once_with_the_reason_its_fallback_card_shows() {
    let cases = hostile::cases();
    let (text, at) = hostile::log(&cases);
    let dir = tempfile::tempdir().unwrap();
    let path = write(&dir, "hostile.jsonl", &text);
    let (out, err, code) = lint(&["--format", "json", &path], "");
    assert_eq!(code, 1, "{err}");
    let found = json_lines(&out);
    let t = common::fold(&path);
    let broken: Vec<usize> = (0..cases.len())
        .filter(|&i| cases[i].broken.is_some())
        .collect();
    // Exactly one finding per broken view, none for the valid ones.
    assert_eq!(found.len(), broken.len(), "{out}");
    for (f, &i) in found.iter().zip(&broken) {
        let b = cases[i].broken.as_ref().unwrap();
        let call = format!("c{}", 1 + 2 * i);
        let card = t.cards().iter().find(|c| c.call_id == call).unwrap();
        let fallback = cards::resolve(card).fallback.unwrap();
        assert_eq!(f["callId"], call.as_str(), "{f}");
        assert_eq!(f["severity"], "error");
        assert_eq!(f["line"], at[i]);
        assert_eq!(f["tool"], format!("probe{}", 1 + 2 * i).as_str());
        assert_eq!(f["view"], "result");
        // The card's own words, and the field it names.
        assert_eq!(f["message"], fallback.as_str(), "{f}");
        assert_eq!(f["field"], b.field.as_str(), "{f}");
        assert!(fallback.contains(&b.says), "{fallback} / {}", b.says);
        assert_eq!(f["file"], path.as_str());
    }
    // The text format: `PATH:LINE: error: call ID (tool NAME): MESSAGE`.
    let (out, _, code) = lint(&[&path], "");
    assert_eq!(code, 1);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), broken.len());
    for (l, f) in lines.iter().zip(&found) {
        let want = format!(
            "{path}:{}: error: call {} (tool {}): {}",
            f["line"],
            f["callId"].as_str().unwrap(),
            f["tool"].as_str().unwrap(),
            f["message"].as_str().unwrap()
        );
        assert_eq!(*l, want);
    }
    assert!(err.contains(&format!("{} errors", broken.len())), "{err}");
}

#[test]
fn the_real_captures_have_no_view_that_falls_back() {
    for name in common::CAPTURES {
        let path = common::capture_str(name, "frames.jsonl");
        let (out, err, code) = lint(&["--format", "json", &path], "");
        assert_eq!(code, 0, "{name}: {out}{err}");
        let found = json_lines(&out);
        assert!(found.iter().all(|f| f["severity"] == "warning"), "{out}");
        // The web search's third source has no title (the host sent none).
        assert!(
            found
                .iter()
                .any(|f| f["card"] == "web" && f["field"] == "sources[2].title"),
            "{name}: {out}"
        );
    }
}

/// A call of `tool` with these views, as two frame lines.
fn call(seq: u64, tool: &str, call_view: Option<Value>, result_view: Option<Value>) -> [String; 2] {
    let id = format!("c{seq}");
    [
        frame(
            event("tool/call", seq, 3, call_data(&id, tool, "{}")),
            call_view.map(|v| ("call", v)),
        )
        .to_string(),
        frame(
            event(
                "tool/result",
                seq + 1,
                4,
                result_data(&id, json!([]), false),
            ),
            result_view.map(|v| ("result", v)),
        )
        .to_string(),
    ]
}

#[test]
fn each_warning_once_and_none_for_views_that_look_right() {
    let read = |path: &str, lang: Option<&str>| {
        let mut v = json!({"card": "read", "path": path, "lines": [{"number": 1, "text": "x"}]});
        if let Some(l) = lang {
            v["lang"] = l.into();
        }
        v
    };
    let term = |v: Value| {
        let mut t = json!({"card": "terminal", "title": "ls", "output": "a"});
        t.as_object_mut()
            .unwrap()
            .extend(v.as_object().unwrap().clone());
        t
    };
    let views: Vec<(Option<Value>, Value, Option<&str>)> = vec![
        (None, read("notes.zzz", None), Some("lang")),
        (None, read("src/x.rs", None), None),
        (None, read("Makefile", None), None),
        (None, read("notes.zzz", Some("klingon")), Some("lang")),
        (None, read("notes.zzz", Some("py")), None),
        (None, term(json!({})), Some("exitCode")),
        (None, term(json!({"signal": "SIGTERM"})), None),
        // A call view has no outcome to tell.
        (Some(term(json!({}))), term(json!({"exitCode": 0})), None),
        (
            None,
            json!({"card": "diff", "diffs": [{"path": "a", "oldText": "x", "newText": "y"},
                                              {"path": "b", "oldText": "same", "newText": "same"}]}),
            Some("diffs[1]"),
        ),
        (
            None,
            json!({"card": "diff", "diffs": [{"path": "a", "oldText": null, "newText": ""}]}),
            None,
        ),
        (
            None,
            json!({"card": "search", "shape": "paths", "paths": ["a"], "truncated": true}),
            Some("total"),
        ),
        (
            None,
            json!({"card": "search", "shape": "paths", "paths": ["a"], "truncated": true, "total": 9}),
            None,
        ),
        (
            None,
            json!({"card": "web", "kind": "search", "sources": [{"url": "u", "title": "T"}, {"url": "v", "title": " "}]}),
            Some("sources[1].title"),
        ),
        (
            None,
            json!({"card": "generic", "title": "t", "kind": "teleport"}),
            Some("kind"),
        ),
        (
            None,
            json!({"card": "generic", "title": "t", "kind": "execute"}),
            None,
        ),
    ];
    let mut lines = vec![TURN_START.to_string()];
    let mut want = Vec::new();
    for (i, (cv, rv, warn)) in views.iter().enumerate() {
        let seq = 1 + 2 * i as u64;
        lines.extend(call(seq, "tool", cv.clone(), Some(rv.clone())));
        if let Some(field) = warn {
            want.push((format!("c{seq}"), field.to_string(), lines.len()));
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let path = write(&dir, "poor.jsonl", &(lines.join("\n") + "\n"));
    let (out, err, code) = lint(&["--format", "json", &path], "");
    // Warnings alone: exit 0.
    assert_eq!(code, 0, "{out}{err}");
    let found: Vec<(String, String, usize)> = json_lines(&out)
        .iter()
        .map(|f| {
            assert_eq!(f["severity"], "warning", "{f}");
            (
                f["callId"].as_str().unwrap().to_string(),
                f["field"].as_str().unwrap().to_string(),
                f["line"].as_u64().unwrap() as usize,
            )
        })
        .collect();
    assert_eq!(found, want, "{out}");
    assert!(err.contains("0 errors") && err.contains(&format!("{} warnings", want.len())));
    let (out, _, _) = lint(&[&path], "");
    assert!(
        out.contains(&format!("{path}:3: warning: call c1 (tool tool): result view: lang: absent, and deck knows no language for the path \"notes.zzz\"")),
        "{out}"
    );
}

#[test]
fn views_the_fold_does_not_use_are_errors() {
    let view = json!({"card": "terminal", "title": "ls", "exitCode": 0});
    let lines = [
        TURN_START.to_string(),
        // A result's view on the call.
        frame(
            event("tool/call", 1, 3, call_data("a", "tool", "{}")),
            Some(("result", view.clone())),
        )
        .to_string(),
        // A call's view on the result.
        frame(
            event("tool/result", 2, 4, result_data("a", json!([]), false)),
            Some(("call", view.clone())),
        )
        .to_string(),
        // A second result for the same call.
        frame(
            event("tool/result", 3, 5, result_data("a", json!([]), false)),
            Some(("result", view.clone())),
        )
        .to_string(),
        // A view on a user's message.
        frame(
            build::user_message(4, 6, "hi"),
            Some(("result", view.clone())),
        )
        .to_string(),
        // A view for a slot that does not exist: the line is skipped.
        frame(
            event("tool/call", 5, 7, call_data("b", "tool", "{}")),
            Some(("side", view.clone())),
        )
        .to_string(),
    ];
    let dir = tempfile::tempdir().unwrap();
    let path = write(&dir, "unused.jsonl", &(lines.join("\n") + "\n"));
    let (out, err, code) = lint(&["--format", "json", &path], "");
    assert_eq!(code, 1, "{err}");
    let found: Vec<(u64, String, String)> = json_lines(&out)
        .iter()
        .map(|f| {
            assert_eq!(f["severity"], "error");
            (
                f["line"].as_u64().unwrap(),
                f["callId"].as_str().unwrap_or("-").to_string(),
                f["message"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let lines: Vec<u64> = found.iter().map(|f| f.0).collect();
    assert_eq!(lines, [2, 3, 4, 5, 6], "{out}");
    assert_eq!(found[0].1, "a");
    assert!(
        found[0]
            .2
            .contains("for the result on the tool/call event is not used")
    );
    assert!(
        found[1]
            .2
            .contains("for the call on the tool/result event is not used")
    );
    assert!(
        found[2].2.contains("first tool/result is kept"),
        "{}",
        found[2].2
    );
    assert!(found[3].2.contains("on a user/message event is not used"));
    assert_eq!(found[4].1, "b");
    assert!(
        found[4].2.contains("the line is skipped") && found[4].2.contains("side"),
        "{}",
        found[4].2
    );
}

#[test]
fn a_repaired_line_s_view_is_used_and_a_history_s_misplaced_one_is_not() {
    // Invalid UTF-8 in a line whose view deck reads: a diagnostic for the
    // repair, but the view is used (and falls back like any other).
    let answered = frame(
        event(
            "tool/result",
            2,
            4,
            result_data("c1", json!([build::text("@@")]), false),
        ),
        Some(("result", json!({"card": "read", "path": 5}))),
    );
    let asked = call(1, "tool", None, None)[0].clone();
    let mut bytes = format!("{TURN_START}\n{asked}\n{answered}\n").into_bytes();
    let at = bytes.windows(2).position(|w| w == b"@@").unwrap();
    bytes.splice(at..at + 2, [0xff]);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("lossy.jsonl");
    std::fs::write(&path, &bytes).unwrap();
    let path = path.to_str().unwrap();
    let t = common::fold(path);
    assert_eq!(t.diagnostics().len(), 1, "the repair is a diagnostic");
    let (out, err, code) = lint(&["--format", "json", path], "");
    let found = json_lines(&out);
    assert_eq!(found.len(), 1, "{out}{err}");
    assert_eq!(
        found[0]["message"],
        "result view: path: expected string, got number"
    );
    assert_eq!(code, 1);
    // A history document: a call's view on the result is not used.
    let history = json!({"hasMore": false, "events": [
        {"event": event("tool/call", 1, 3, call_data("h", "tool", "{}"))},
        {"event": event("tool/result", 2, 4, result_data("h", json!([]), false)),
         "view": {"for": "call", "view": {"card": "terminal", "title": "ls"}}},
    ]});
    let (out, err, code) = lint(&["--format", "json", "-"], &history.to_string());
    let found = json_lines(&out);
    assert_eq!((found.len(), code), (1, 1), "{out}{err}");
    assert_eq!(found[0]["callId"], "h");
    assert!(
        found[0]["message"]
            .as_str()
            .unwrap()
            .contains("for the call on the tool/result event is not used")
    );
}

#[test]
fn a_view_alone_from_a_file_or_stdin() {
    let dir = tempfile::tempdir().unwrap();
    let pretty =
        serde_json::to_string_pretty(&json!({"card": "diff", "diffs": [{"newText": "x"}]}))
            .unwrap();
    let path = write(&dir, "view.json", &pretty);
    let (out, _, code) = lint(&[&path], "");
    assert_eq!(code, 1);
    assert_eq!(
        out,
        format!("{path}:1: error: result view: diffs[0].path: missing\n")
    );
    // The same view on stdin, and the card `deck card` draws for it says
    // the same.
    let (out, _, code) = lint(&["-"], &pretty);
    assert_eq!(
        (out.as_str(), code),
        ("-:1: error: result view: diffs[0].path: missing\n", 1)
    );
    let card =
        deck::testing::render_view(&pretty, 80, "dark", deck::testing::Density::Full).unwrap();
    assert!(
        card.text.contains("result view: diffs[0].path: missing"),
        "{}",
        card.text
    );
    // A good view: nothing to say, exit 0.
    let (out, _, code) = lint(
        &["-"],
        r#"{"card": "terminal", "title": "ls", "exitCode": 0}"#,
    );
    assert_eq!((out.as_str(), code), ("", 0));
    // JSON, but not an object.
    let (out, _, code) = lint(&["-"], "[1, 2]");
    assert_eq!(code, 1);
    assert!(out.contains("view is array, not an object"), "{out}");
}

#[test]
fn input_that_cannot_be_read_exits_2_saying_why() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nope.jsonl");
    let (out, err, code) = lint(&[missing.to_str().unwrap()], "");
    assert_eq!((out.as_str(), code), ("", 2));
    assert!(
        err.contains("cannot read") && err.contains("nope.jsonl"),
        "{err}"
    );
    let empty = write(&dir, "empty.jsonl", "");
    let (_, err, code) = lint(&[&empty], "");
    assert_eq!(code, 2);
    assert!(err.contains("empty input"), "{err}");
    let (_, err, code) = lint(&["-"], "not json\nat all\n");
    assert_eq!(code, 2);
    assert!(
        err.contains("neither a log deck reads nor one JSON view"),
        "{err}"
    );
}

#[test]
fn a_session_log_holds_no_views_and_lint_says_so() {
    let path = common::capture_str("tour", "session.jsonl");
    let (out, err, code) = lint(&[&path], "");
    assert_eq!((out.as_str(), code), ("", 0));
    assert!(err.contains("a DSH session log stores none"), "{err}");
}

#[test]
fn github_annotations_and_hostile_text_stay_on_their_line() {
    let tool = "evil\u{1b}]0;pwned\u{7}\ntool";
    let lines = [
        TURN_START.to_string(),
        call(1, tool, None, Some(json!({"card": "\u{1b}[2J%x"})))[0].clone(),
        call(1, tool, None, Some(json!({"card": "\u{1b}[2J%x"})))[1].clone(),
    ];
    let dir = tempfile::tempdir().unwrap();
    let path = write(&dir, "a,b:c.jsonl", &(lines.join("\n") + "\n"));
    for format in ["text", "json", "github"] {
        let (out, _, code) = lint(&["--format", format, &path], "");
        assert_eq!(code, 1);
        assert_eq!(out.lines().count(), 1, "{format}: {out}");
        assert!(
            !out.trim_end().chars().any(|c| c.is_control()),
            "{format}: {out:?}"
        );
    }
    let (out, _, _) = lint(&["--format", "github", &path], "");
    let file = path.replace(',', "%2C").replace(':', "%3A");
    assert!(
        out.starts_with(&format!("::error file={file},line=3,title=deck lint::call c1 (tool evil␛]0;pwned␇%0Atool): result view: unknown card \"\\u{{1b}}[2J%25x\"")),
        "{out}"
    );
}
