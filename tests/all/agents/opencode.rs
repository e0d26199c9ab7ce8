//! OpenCode's database through the whole of deck, on the real store of
//! OpenCode 1.18.33 (`tests/fixtures/agents/opencode/tour/opencode.db`,
//! written by `tests/e2e/agents/opencode/`: three runs of one session —
//! `--continue`, `--session` — eleven calls): read from its path as a
//! SQLite file, every call listed by `deck inspect` with the status, exit
//! code and duration its `SUMMARY.json` says, drawn, snapshotted card by
//! card, and listed by `deck sessions` from the data folder OpenCode uses.

use deck::theme::Theme;
use serde_json::Value;

use crate::common::dump::{THEMES, cards_at_widths};
use crate::common::{card_of, deck_cmd, deck_ok, fold, inspect_lines};

const DB: &str = "tour/opencode.db";

fn fixture(rel: &str) -> String {
    format!(
        "{}/tests/fixtures/agents/opencode/{rel}",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// `deck inspect`'s lines are the calls of `summary` (the kit's, computed
/// from OpenCode's own rows or files), in order: the same id, tool and
/// duration, drawn by OpenCode's presenters, with the status and exit code
/// its state and `metadata.exit` say.
pub(super) fn listed_as_summary_says(got: &[Value], summary: &Value) {
    let want = summary[0]["calls"].as_array().unwrap();
    assert_eq!(got.len(), want.len(), "{got:#?}");
    for (g, w) in got.iter().zip(want) {
        assert_eq!(g["callId"], w["callId"]);
        assert_eq!(g["tool"], w["tool"], "{g}");
        assert_eq!(g["viewSource"], "presenter:opencode", "{g}");
        assert_eq!(g["durationMs"], w["durationMs"], "{g}");
        let status = match (w["status"].as_str(), w["exitCode"].as_i64()) {
            (Some("completed"), Some(c)) if c != 0 => "failed",
            (Some("completed"), _) => "ok",
            (Some("error"), _) => "error",
            other => panic!("{other:?}"),
        };
        assert_eq!(g["status"], status, "{g}");
        assert_eq!(g["exitCode"].as_i64(), w["exitCode"].as_i64(), "{g}");
    }
}

#[test]
fn every_call_is_listed_with_the_status_its_summary_says() {
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(fixture("tour/SUMMARY.json")).unwrap())
            .unwrap();
    let got = inspect_lines(&fixture(DB));
    listed_as_summary_says(&got, &summary);
    let cards: Vec<String> = got.iter().map(card_of).collect();
    assert_eq!(
        cards,
        [
            "generic", "search", "search", "read", "read", "diff", "diff", "terminal", "generic",
            "terminal", "terminal"
        ]
    );
    // The edit in the middle of the file sits at its lines; the read window at its.
    assert_eq!(got[5]["resultView"]["diffs"][0]["startLine"], 5);
    assert_eq!(got[4]["resultView"]["lines"][0]["number"], 8);
}

#[test]
fn render_and_snapshots() {
    let text = deck_ok(&["render", &fixture(DB), "--width", "100"]);
    for want in [
        "[oc-1] Give me a quick tour",
        "ls missing-dir",
        "exit 2",
        "if not xs:",
    ] {
        assert!(text.contains(want), "{want:?} missing:\n{text}");
    }
    let t = fold(&fixture(DB));
    for theme_name in THEMES {
        let theme = Theme::builtin(theme_name).expect("built-in theme");
        let out = cards_at_widths(&t, &theme, "opencode");
        insta::assert_snapshot!(format!("agents_opencode_tour__{theme_name}"), out);
    }
}

#[test]
fn the_library_lists_it_with_its_agent() {
    let home = tempfile::tempdir().unwrap();
    let file = home.path().join(".local/share/opencode/opencode.db");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::copy(fixture(DB), &file).unwrap();
    let o = deck_cmd()
        .args(["sessions", "--json"])
        .env("HOME", home.path())
        .env("XDG_CACHE_HOME", home.path().join(".cache"))
        .env_remove("XDG_DATA_HOME")
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
        (Some("opencode"), Some(11))
    );
    assert_eq!(rows[0]["cwd"], "/workspace/demo");
    assert_eq!(rows[0]["title"], "Tour of the stats helpers");
}

#[test]
fn a_database_from_a_stream_or_of_another_program_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let other = dir.path().join("other.db");
    std::fs::copy(fixture(DB), &other).unwrap();
    // Not OpenCode's: a table it needs is gone.
    let o = std::process::Command::new("python3")
        .args(["-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('drop table part'); c.commit()"])
        .arg(&other)
        .status()
        .unwrap();
    assert!(o.success());
    let o = deck_cmd().args(["inspect"]).arg(&other).output().unwrap();
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("a SQLite database that is no agent's session store"),
        "{err}"
    );
}
