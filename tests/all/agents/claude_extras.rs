//! What Claude Code keeps with a session besides its log, read when the
//! log is opened from a path (`tests/fixtures/agents/claude-code/extras/`,
//! written to Claude Code's shapes: see its README): background tasks and
//! the reports that end them, output saved to `tool-results/`, subagents'
//! logs missing or broken. `deck inspect`, `deck render` and snapshots at
//! 40/80/120 columns in the dark and light themes.

use std::fmt::Write as _;

use deck::cards::Density;
use deck::theme::Theme;
use serde_json::Value;

use crate::agents::claude::{fixture, inspect, tag};
use crate::common::dump::{Runs, THEMES, WIDTHS, render_card, styled};
use crate::common::{deck, deck_ok, fold, stderr, stdout};

pub(crate) const EXTRAS: &str = "extras/5b1e0c3a-7d2f-4c8e-9a61-3f4d2e1b0c9d.jsonl";

#[test]
fn a_background_tasks_report_goes_on_the_card_of_its_call() {
    let lines = inspect(&fixture(EXTRAS));
    // Named by its call (tool-use-id) …
    let tests = &lines["toolu_01extrasbg000000000001"];
    assert_eq!(tests["status"], "ok");
    assert_eq!(tests["task"]["status"], "completed");
    assert_eq!(
        tests["task"]["summary"],
        "Background command \"Run the slow tests\" completed (exit code 0)"
    );
    assert_eq!(tag(tests), "terminal");
    assert!(
        tests["resultView"].get("exitCode").is_none(),
        "it had not ended"
    );
    // … or only by its task id (older logs): a failed task fails its card.
    let lint = &lines["toolu_01extrasbg000000000002"];
    assert_eq!(lint["task"]["status"], "failed");
    assert_eq!(lint["status"], "failed");
    // The reports are not prompts of their own.
    let t = fold(&fixture(EXTRAS));
    let loose = t.items().iter().any(
        |i| matches!(i, deck::session::Item::User(m) if m.text.contains("<task-notification>")),
    );
    assert!(!loose);
    let text = deck_ok(&["render", "--width", "100", &fixture(EXTRAS)]);
    assert!(text.contains("background: completed"));
    assert!(text.contains(
        "✗ background task failed · Background command \"Lint\" failed with exit code 2"
    ));
}

#[test]
fn saved_output_is_read_from_beside_the_session_or_said_missing() {
    let lines = inspect(&fixture(EXTRAS));
    let found = &lines["toolu_01extrasbig00000000001"]["resultView"];
    let output = found["output"].as_str().expect("output");
    assert_eq!(output.lines().count(), 8000);
    assert!(output.ends_with("7999\n8000\n"));
    assert!(
        found["description"]
            .as_str()
            .unwrap()
            .ends_with("read whole from tool-results/toolu_01extrasbig00000000001.txt")
    );
    let missing = &lines["toolu_01extrasbig00000000002"]["resultView"];
    let preview = missing["output"].as_str().expect("output");
    assert!(preview.starts_with("line 1\n") && preview.len() <= 2000);
    assert!(
        missing["description"]
            .as_str()
            .unwrap()
            .contains("which is not beside this session"),
        "{missing}"
    );
    // From stdin nothing is beside the log: both are said to be missing.
    let bytes = std::fs::read(fixture(EXTRAS)).expect("read");
    let alone = deck::source::load_bytes("-", &bytes).expect("loads");
    let t = crate::common::fold_session(&alone.sessions[0]);
    let card = t.card("toolu_01extrasbig00000000001").expect("card");
    let view = card
        .result_view
        .as_ref()
        .expect("view")
        .raw()
        .as_str()
        .to_string();
    assert!(view.contains("which is not beside this session"), "{view}");
}

#[test]
fn a_missing_or_broken_subagent_log_is_a_diagnostic_and_the_rest_renders() {
    let out = deck(&["inspect", "--diagnostics", &fixture(EXTRAS)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let reasons: Vec<String> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("JSON")["reason"].to_string())
        .collect();
    assert_eq!(reasons.len(), 2, "{reasons:?}");
    assert!(reasons[0].contains("agent-a0c0ffee0000000d1.jsonl of call toolu_01extrasagent000000002: its log is not in the session's folder"));
    assert!(reasons[1].contains(
        "agent-abad0000000000001.jsonl of call toolu_01extrasagent000000003: unknown format"
    ));
    let t = fold(&fixture(EXTRAS));
    assert_eq!(t.cards().len(), 7);
    let child = t
        .card("toolu_01extrasagent000000001")
        .and_then(|c| c.nested.clone());
    let child = child.expect("nested");
    assert_eq!(child.transcript().cards().len(), 2);
    assert_eq!(child.transcript().error_count(), 1);
    // Said right after the call it is about.
    let text = deck_ok(&["render", "--width", "120", &fixture(EXTRAS)]);
    let card = text
        .find("Subagent (Explore) completed: Summarise the tests")
        .expect("card");
    let said = text
        .find("⚠ subagent log subagents/agent-a0c0ffee0000000d1.jsonl")
        .expect("said");
    let next = text
        .find("Subagent (Explore) completed: Read the README")
        .expect("next");
    assert!(card < said && said < next);
}

#[test]
fn snapshots_of_background_tasks_and_saved_output() {
    let t = fold(&fixture(EXTRAS));
    for theme_name in THEMES {
        let theme = Theme::builtin(theme_name).expect("built-in theme");
        let mut out = String::new();
        for card in t.cards().iter().filter(|c| c.nested.is_none()) {
            for w in WIDTHS {
                let _ = writeln!(out, "── {} at {w} ──", card.call_id);
                let what = format!("extras {}", card.call_id);
                out.push_str(&styled(
                    &render_card(card, &theme, w, Density::Preview, &what),
                    Runs::OneRow,
                ));
            }
        }
        insta::assert_snapshot!(format!("agents_claude_extras__{theme_name}"), out);
    }
}

/// `deck follow`'s source on a Claude Code session being written: the
/// subagents' logs that appear beside it after their calls are followed
/// too, their records nested under their calls.
#[tokio::test]
async fn follow_nests_the_subagents_logs_as_they_appear() {
    use crate::agents::claude::{BACKGROUND_AGENT, EXPLORE, TOUR};
    use deck::load::follow::Follow;
    use deck::source::live::{self, LiveEvent};
    use deck::wire::Record;

    let tour = fixture(TOUR);
    let dir = tempfile::tempdir().expect("dir");
    let id = "7a3f1c2e-0d4b-4e8a-9c61-2b5d8e0f4a17";
    let path = dir.path().join(format!("{id}.jsonl"));
    // The whole log first, the folder beside it after its calls were read.
    std::fs::copy(&tour, &path).expect("copy");
    let mut f = Follow::new(&path);
    f.poll = std::time::Duration::from_millis(10);
    let (tx, mut rx) = live::channel();
    let h = tokio::spawn(async move {
        let _ = f.run(None, tx).await;
    });
    let mut records: Vec<Record> = Vec::new();
    let mut written = false;
    let nested_under = |records: &[Record], call: &str| {
        records
            .iter()
            .any(|r| matches!(r, Record::Nested { parent_call, .. } if parent_call == call))
    };
    let called = |records: &[Record], call: &str| {
        records.iter().any(|r| {
            matches!(r, Record::Event { event, .. } if event.kind == deck::wire::EventKind::ToolCall
                && event.data.as_str().contains(call))
        })
    };
    let run = async {
        while !(nested_under(&records, EXPLORE) && nested_under(&records, BACKGROUND_AGENT)) {
            if let Some(LiveEvent::Records(rs)) = rx.recv().await {
                records.extend(rs);
            }
            if !written && called(&records, BACKGROUND_AGENT) {
                written = true;
                let subs = dir.path().join(id).join("subagents");
                std::fs::create_dir_all(&subs).expect("mkdir");
                let from = std::path::Path::new(&tour)
                    .with_file_name(id)
                    .join("subagents");
                for e in std::fs::read_dir(&from).expect("subagents") {
                    let e = e.expect("entry");
                    std::fs::copy(e.path(), subs.join(e.file_name())).expect("copy");
                }
            }
        }
    };
    tokio::time::timeout(std::time::Duration::from_secs(30), run)
        .await
        .expect("in time");
    drop(rx);
    let _ = tokio::time::timeout(std::time::Duration::from_secs(30), h).await;
    // Folded, the calls have their subagents' calls under them.
    crate::agents::claude::assert_subagents_nested(&crate::common::fold_records(&records));
}
