//! Kimi Code CLI's wire logs through the whole of deck, on the real session
//! of kimi-cli 1.49.0 (`tests/fixtures/agents/kimi/tour/`, written by
//! `tests/e2e/agents/kimi/`: three runs — `--continue`, `--session` —
//! twelve calls): every call listed by `deck inspect` with the status and
//! exit code its `SUMMARY.json` (computed from the raw file) says, edits
//! and reads at their real lines, drawn, and listed by `deck sessions` at
//! the place kimi-cli keeps it (`$KIMI_SHARE_DIR` too).

use serde_json::Value;

use crate::common::{card_of, deck_cmd, deck_ok, inspect_lines};

const DIR: &str = "sessions/2f108d9d78a2ccf520e99c4d45c05ab0/3c84154a-3e8f-42a2-84e9-d232960af410";

fn fixture(rel: &str) -> String {
    format!(
        "{}/tests/fixtures/agents/kimi/tour/{rel}",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn wire() -> String {
    fixture(&format!("{DIR}/wire.jsonl"))
}

#[test]
fn every_call_is_listed_with_the_status_its_summary_says() {
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(fixture("SUMMARY.json")).unwrap()).unwrap();
    let want = summary[0]["calls"].as_array().unwrap();
    let got = inspect_lines(&wire());
    assert_eq!(got.len(), want.len(), "{got:#?}");
    assert_eq!(got.len(), 12);
    for (g, w) in got.iter().zip(want) {
        assert_eq!(g["callId"], w["callId"]);
        assert_eq!(g["tool"], w["tool"], "{g}");
        assert_eq!(g["viewSource"], "presenter:kimi", "{g}");
        // is_error, and a command's exit code as its message says it.
        let code = w["exitCode"].as_i64();
        let status = match (w["isError"].as_bool(), code) {
            (Some(true), Some(c)) if c != 0 => "failed",
            (Some(true), _) => "error",
            _ => "ok",
        };
        assert_eq!(g["status"], status, "{g}");
        assert_eq!(g["exitCode"].as_i64(), code, "{g}");
    }
    let cards: Vec<String> = got.iter().map(card_of).collect();
    assert_eq!(
        cards,
        [
            "search", "generic", "search", "read", "generic", "read", "diff", "diff", "terminal",
            "generic", "terminal", "terminal"
        ]
    );
    // The edit in the middle of the file at its lines (its diff block's
    // old_start/new_start: context from line 6); the new file from line 1;
    // the read window at line 8.
    let edit = &got[6]["resultView"]["diffs"][0];
    assert_eq!(
        (
            edit["startLine"].as_u64(),
            want[6]["diffs"][0]["old_start"].as_u64()
        ),
        (Some(6), Some(6))
    );
    assert_eq!(got[7]["resultView"]["diffs"][0]["startLine"], 1);
    assert_eq!(got[5]["resultView"]["lines"][0]["number"], 8);
    // From the call's line to its result's.
    assert!(
        got.iter().all(|g| g["durationMs"].as_i64().is_some()),
        "{got:#?}"
    );
}

#[test]
fn render_draws_the_tour() {
    let text = deck_ok(&["render", &wire(), "--width", "100"]);
    for want in [
        "[km-1] Give me a quick tour",
        "ls missing-dir",
        "exit 2",
        "if not xs:",
        "Fix spread for an empty list",
    ] {
        assert!(text.contains(want), "{want:?} missing:\n{text}");
    }
}

fn listed(home: &std::path::Path, share: Option<&std::path::Path>) -> Vec<Value> {
    let mut cmd = deck_cmd();
    cmd.args(["sessions", "--json"])
        .env("HOME", home)
        .env("XDG_CACHE_HOME", home.join(".cache"))
        .env_remove("KIMI_SHARE_DIR");
    if let Some(s) = share {
        cmd.env("KIMI_SHARE_DIR", s);
    }
    let o = cmd.output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn the_library_lists_it_where_kimi_keeps_it() {
    let home = tempfile::tempdir().unwrap();
    let file = home.path().join(".kimi").join(DIR).join("wire.jsonl");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::copy(wire(), &file).unwrap();
    // The model's messages beside it are not a session of their own.
    std::fs::write(
        file.with_file_name("context.jsonl"),
        "{\"role\": \"user\", \"content\": \"hi\"}\n",
    )
    .unwrap();
    let rows = listed(home.path(), None);
    assert_eq!(rows.len(), 1, "{rows:#?}");
    assert_eq!(
        (rows[0]["agent"].as_str(), rows[0]["calls"].as_u64()),
        (Some("kimi"), Some(12))
    );
    assert_eq!(rows[0]["path"].as_str(), file.to_str());
    assert!(rows[0]["problem"].is_null(), "{}", rows[0]);
    // Moved by KIMI_SHARE_DIR.
    let elsewhere = tempfile::tempdir().unwrap();
    let moved = elsewhere.path().join(DIR).join("wire.jsonl");
    std::fs::create_dir_all(moved.parent().unwrap()).unwrap();
    std::fs::copy(wire(), &moved).unwrap();
    let empty = tempfile::tempdir().unwrap();
    let rows = listed(empty.path(), Some(elsewhere.path()));
    assert_eq!(rows.len(), 1, "{rows:#?}");
    assert_eq!(rows[0]["path"].as_str(), moved.to_str());
}
