//! Gemini CLI's own session files through the whole of deck, on the real
//! session of Gemini CLI 0.61.0 (`tests/fixtures/agents/gemini-cli/tour/`,
//! written by `tests/e2e/agents/gemini-cli/`: three runs, two resumes,
//! eleven calls): detected by content, every call listed by `deck inspect`
//! with the status and exit code its `SUMMARY.json` says, drawn by `deck
//! render`, snapshotted card by card, and listed by `deck sessions` beside
//! the other agents' sessions (the reader and the presenters have their own
//! tests beside them, in `src/agents/gemini_cli/`).

use std::path::Path;

use deck::theme::Theme;
use serde_json::Value;

use crate::common::dump::{THEMES, cards_at_widths};
use crate::common::{card_of, deck_cmd, deck_ok, fold, inspect_lines};

const TOUR: &str = "tour/session-2026-12-04T07-51-b8660323.jsonl";

fn fixture(rel: &str) -> String {
    format!(
        "{}/tests/fixtures/agents/gemini-cli/{rel}",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn every_call_is_listed_with_the_status_its_summary_says() {
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(fixture("tour/SUMMARY.json")).unwrap())
            .unwrap();
    let want = summary[0]["calls"].as_array().unwrap();
    let got = inspect_lines(&fixture(TOUR));
    assert_eq!(got.len(), want.len(), "{got:#?}");
    for (g, w) in got.iter().zip(want) {
        assert_eq!(g["callId"], w["callId"]);
        assert_eq!(g["tool"], w["tool"]);
        assert_eq!(g["viewSource"], "presenter:gemini-cli", "{g}");
        // The file's status, and the exit code only the text says.
        let status = match (w["status"].as_str().unwrap(), w["exitCode"].as_i64()) {
            ("error", _) => "error",
            (_, Some(code)) if code != 0 => "failed",
            _ => "ok",
        };
        assert_eq!(g["status"], status, "{g}");
        if w["tool"] == "run_shell_command" {
            assert_eq!(
                g["exitCode"].as_i64(),
                Some(w["exitCode"].as_i64().unwrap_or(0)),
                "{g}"
            );
        }
    }
    let cards: Vec<String> = got.iter().map(card_of).collect();
    assert_eq!(
        cards,
        [
            "generic", "search", "search", "read", "read", "diff", "diff", "terminal", "generic",
            "terminal", "terminal"
        ]
    );
    // The edit in the middle of the file sits at its lines.
    assert_eq!(got[5]["resultView"]["diffs"][0]["startLine"], 6);
}

#[test]
fn render_draws_the_session_named_by_its_content() {
    // A copy under another name: found by what it holds.
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("whatever.log");
    std::fs::copy(fixture(TOUR), &copy).unwrap();
    let text = deck_ok(&["render", &copy.to_string_lossy(), "--width", "100"]);
    for want in [
        "[gc-1] Give me a quick tour",
        "Read src/stats.py",
        "ls missing-dir",
        "exit 2",
        "Blocked Host",
        "if not xs:",
    ] {
        assert!(text.contains(want), "{want:?} missing:\n{text}");
    }
    let sessions = deck_ok(&["inspect", "--sessions", &copy.to_string_lossy()]);
    let s: Value = serde_json::from_str(sessions.lines().next().unwrap()).unwrap();
    assert_eq!(s["format"], "Gemini CLI session", "{s}");
    // The failed fetch and the command that exited 2; nothing unreadable.
    assert_eq!(
        (
            s["cards"].as_u64(),
            s["errors"].as_u64(),
            s["diagnostics"].as_u64()
        ),
        (Some(11), Some(2), Some(0)),
        "{s}"
    );
}

#[test]
fn snapshots_of_the_session() {
    let t = fold(&fixture(TOUR));
    for theme_name in THEMES {
        let theme = Theme::builtin(theme_name).expect("built-in theme");
        let out = cards_at_widths(&t, &theme, "gemini-cli");
        insta::assert_snapshot!(format!("agents_gemini_cli_tour__{theme_name}"), out);
    }
}

#[test]
fn the_library_lists_it_beside_every_other_agents_session_once() {
    let (home, files) = crate::library::sessions::fake_home();
    let gemini = home
        .path()
        .join(".gemini/tmp/demo/chats/session-2026-12-04T07-51-b8660323.jsonl");
    std::fs::create_dir_all(gemini.parent().unwrap()).unwrap();
    std::fs::copy(fixture(TOUR), &gemini).unwrap();
    std::fs::write(
        home.path().join(".gemini/tmp/demo/.project_root"),
        "/workspace/demo",
    )
    .unwrap();
    // An older version's one-document chat, in another project's folder.
    let legacy = home
        .path()
        .join(".gemini/tmp/0a1b2c/chats/session-2026-12-04T07-53-d55bd5df.json");
    std::fs::create_dir_all(legacy.parent().unwrap()).unwrap();
    let old_chat = fixture("legacy-json/session-2026-12-04T07-53-d55bd5df.json");
    std::fs::copy(old_chat, &legacy).unwrap();
    let o = deck_cmd()
        .args(["sessions", "--json"])
        .env("HOME", home.path())
        .env("XDG_CACHE_HOME", home.path().join(".cache"))
        .env_remove("DSH_HOME")
        .env_remove("CLAUDE_CONFIG_DIR")
        .env_remove("CODEX_HOME")
        .env_remove("GEMINI_CLI_HOME")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rows: Vec<Value> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 5, "{rows:#?}");
    let all = [&files[0], &files[1], &files[2], &gemini, &legacy];
    let agents = ["dsh", "claude-code", "codex", "gemini-cli", "gemini-cli"];
    for (file, agent) in all.into_iter().zip(agents) {
        let p = file.to_string_lossy();
        let mine: Vec<&Value> = rows.iter().filter(|r| r["path"] == *p).collect();
        assert_eq!(mine.len(), 1, "{p}: {rows:#?}");
        assert_eq!(mine[0]["agent"], agent);
    }
    let row = rows
        .iter()
        .find(|r| r["path"] == *gemini.to_string_lossy())
        .unwrap();
    assert_eq!(row["calls"], 11, "{row}");
    assert_eq!(row["cwd"], "/workspace/demo", "{row}");
    assert!(
        row["title"]
            .as_str()
            .unwrap()
            .starts_with("[gc-1] Give me a quick tour"),
        "{row}"
    );
    let old = rows
        .iter()
        .find(|r| r["path"] == *legacy.to_string_lossy())
        .unwrap();
    assert_eq!(
        (old["calls"].as_u64(), old["problem"].as_str()),
        (Some(5), None),
        "{old}"
    );
    assert!(Path::new(&gemini).exists());
}

/// `deck follow`'s source on a session file being written: every call and
/// result arrives as its lines do (the last turn's end only when the input
/// ends: the file may grow).
#[tokio::test]
async fn follow_reads_a_growing_session() {
    let all = deck::source::load_path(&fixture(TOUR)).expect("loads");
    let events = all.sessions[0]
        .records
        .iter()
        .filter_map(|r| r.seq())
        .count();
    let seqs = crate::common::follow::follow_half_then_rest(&fixture(TOUR), events - 1).await;
    assert_eq!(seqs, (1..events as u64).collect::<Vec<_>>());
}

/// Gemini CLI 0.20's one-document `session-*.json` (rewritten whole): read
/// as the newer log's lines; every command's output says its exit code.
#[test]
fn the_older_one_document_chat_reads_the_same() {
    let path = fixture("legacy-json/session-2026-12-04T07-53-d55bd5df.json");
    let summary: Value = serde_json::from_str(
        &std::fs::read_to_string(fixture("legacy-json/SUMMARY.json")).unwrap(),
    )
    .unwrap();
    let want = summary[0]["calls"].as_array().unwrap();
    let got = inspect_lines(&path);
    assert_eq!(got.len(), want.len(), "{got:#?}");
    let seen: Vec<(&str, &str, Option<i64>)> = got
        .iter()
        .map(|g| {
            (
                g["tool"].as_str().unwrap(),
                g["status"].as_str().unwrap(),
                g["exitCode"].as_i64(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            ("list_directory", "ok", None),
            ("read_file", "ok", None),
            ("run_shell_command", "ok", Some(0)),
            ("replace", "ok", None),
            ("run_shell_command", "failed", Some(2)),
        ]
    );
    for (g, w) in got.iter().zip(want) {
        assert_eq!(g["callId"], w["callId"]);
    }
    // A window of a read (offset 7, limit 3: lines 8-10).
    assert_eq!(got[1]["resultView"]["lines"][0]["number"], 8, "{}", got[1]);
    let s = deck_ok(&["inspect", "--sessions", &path]);
    let s: Value = serde_json::from_str(s.lines().next().unwrap()).unwrap();
    assert_eq!(
        (s["format"].as_str(), s["diagnostics"].as_u64()),
        (Some("Gemini CLI session"), Some(0)),
        "{s}"
    );
}
