//! Qwen Code's session files through the whole of deck, on the real session
//! of Qwen Code 0.24.4 (`tests/fixtures/agents/qwen-code/tour/`, written by
//! `tests/e2e/agents/qwen-code/`: three runs — `--continue`, `--resume` —
//! twelve calls): told from Claude Code's lines by content, every call
//! listed by `deck inspect` with the status, exit code and duration its
//! `SUMMARY.json` says, drawn, snapshotted card by card, and listed by
//! `deck sessions`.

use deck::theme::Theme;
use serde_json::Value;

use crate::common::dump::{THEMES, cards_at_widths};
use crate::common::{card_of, deck_cmd, deck_ok, fold, inspect_lines};

const TOUR: &str = "tour/df671d1b-87bf-4e39-814f-4fc91be8dc0e.jsonl";

fn fixture(rel: &str) -> String {
    format!(
        "{}/tests/fixtures/agents/qwen-code/{rel}",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn every_call_is_listed_with_the_status_its_summary_says() {
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(fixture("tour/SUMMARY.json")).unwrap())
            .unwrap();
    let want = summary["calls"]
        .as_array()
        .or_else(|| summary[0]["calls"].as_array())
        .unwrap();
    let got = inspect_lines(&fixture(TOUR));
    assert_eq!(got.len(), want.len(), "{got:#?}");
    for (g, w) in got.iter().zip(want) {
        assert_eq!(g["callId"], w["callId"]);
        assert_eq!(g["viewSource"], "presenter:qwen-code", "{g}");
        // A deferred call is drawn as the tool it ran.
        let tool = w
            .get("ranAs")
            .filter(|r| r.is_string())
            .unwrap_or(&w["tool"]);
        assert_eq!(&g["tool"], tool, "{g}");
    }
    let seen: Vec<(String, String, Option<i64>)> = got
        .iter()
        .map(|g| {
            (
                card_of(g),
                g["status"].as_str().unwrap().to_string(),
                g["exitCode"].as_i64(),
            )
        })
        .collect();
    let cards: Vec<&str> = seen.iter().map(|s| s.0.as_str()).collect();
    assert_eq!(
        cards,
        [
            "generic", "search", "search", "read", "read", "diff", "diff", "terminal", "generic",
            "generic", "terminal", "terminal"
        ]
    );
    let ends: Vec<(&str, Option<i64>)> = seen.iter().map(|s| (s.1.as_str(), s.2)).collect();
    assert_eq!(ends[7], ("ok", Some(0)));
    assert_eq!(ends[9].0, "error", "the refused fetch");
    assert_eq!(ends[10], ("failed", Some(2)), "ls missing-dir");
    // From the call's line to its result's (11.706 → 11.831); the
    // telemetry's own 42 ms is on the result record (the reader's tests).
    assert_eq!(got[0]["durationMs"], 125);
    // The edit in the middle of the file sits at its lines; the read window at its.
    assert_eq!(got[5]["resultView"]["diffs"][0]["startLine"], 6);
    assert_eq!(got[4]["resultView"]["lines"][0]["number"], 8);
}

#[test]
fn render_and_snapshots() {
    let text = deck_ok(&["render", &fixture(TOUR), "--width", "100"]);
    for want in [
        "[qw-1] Give me a quick tour",
        "ls missing-dir",
        "exit 2",
        "if not xs:",
    ] {
        assert!(text.contains(want), "{want:?} missing:\n{text}");
    }
    let t = fold(&fixture(TOUR));
    for theme_name in THEMES {
        let theme = Theme::builtin(theme_name).expect("built-in theme");
        let out = cards_at_widths(&t, &theme, "qwen-code");
        insta::assert_snapshot!(format!("agents_qwen_code_tour__{theme_name}"), out);
    }
}

#[test]
fn the_library_lists_it_with_its_agent() {
    let home = tempfile::tempdir().unwrap();
    let file = home
        .path()
        .join(".qwen/projects/-workspace-demo/chats/df671d1b-87bf-4e39-814f-4fc91be8dc0e.jsonl");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::copy(fixture(TOUR), &file).unwrap();
    let o = deck_cmd()
        .args(["sessions", "--json"])
        .env("HOME", home.path())
        .env("XDG_CACHE_HOME", home.path().join(".cache"))
        .env_remove("QWEN_HOME")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rows: Vec<Value> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 1, "{rows:#?}");
    assert_eq!(
        (rows[0]["agent"].as_str(), rows[0]["calls"].as_u64()),
        (Some("qwen-code"), Some(12))
    );
    assert_eq!(rows[0]["cwd"], "/workspace/demo");
}
