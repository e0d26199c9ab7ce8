//! Snapshots of every Codex mapping, text and styles, at 40, 80 and 120
//! columns in the dark and light themes: cards folded from the real 0.169
//! capture and the older generations' fixtures
//! (`tests/fixtures/agents/codex/`), plus presenter cases no capture holds
//! (a question, an unknown tool), and what the log says of how calls
//! ended (exit codes, Codex's error texts, unknown outcomes).

use std::fmt::Write as _;
use std::sync::Arc;

use serde_json::{Value, json};

use super::Codex;
use crate::session::{Call, Settled};
use crate::cards::{Ctx, Density, render};
use crate::agents::card_dump::{fold_lines, styled};
use crate::session::{Presenters, ToolCard, Transcript};
use crate::agents::codex::read::Reader;
use crate::theme::Theme;

const TOUR: &str = include_str!("../../../../tests/fixtures/agents/codex/tour.rollout.jsonl");
const GEN2: &str = include_str!("../../../../tests/fixtures/agents/codex/gen2.rollout.jsonl");
const GEN1: &str = include_str!("../../../../tests/fixtures/agents/codex/gen1.rollout.jsonl");
const MID_FILE: &str = include_str!("../../../../tests/fixtures/agents/codex/mid_file.rollout.jsonl");
const LEGACY: &str = include_str!("../../../../tests/fixtures/agents/codex/legacy.rollout.jsonl");
const DESKTOP: &str = include_str!("../../../../tests/fixtures/agents/codex/desktop.rollout.jsonl");

/// A rollout's text read and folded with the Codex presenters.
fn fold(text: &str) -> Transcript {
    fold_lines(Reader::default(), Arc::new(Codex), text)
}

/// Snapshot a card at every width in both themes (one snapshot per theme).
fn snapshot(name: &str, card: &ToolCard) {
    for theme_name in ["dark", "light"] {
        let theme = Theme::builtin(theme_name).expect("built-in theme");
        let mut out = String::new();
        for w in [40, 80, 120] {
            let _ = writeln!(out, "── width {w} ──");
            let lines = render(card, &Ctx::new(w, &theme, Density::Full));
            out.push_str(&styled(&lines, w, name));
        }
        insta::assert_snapshot!(format!("{name}__{theme_name}"), out);
    }
}

fn card(t: &Transcript, call_id: &str) -> ToolCard {
    t.cards()
        .iter()
        .find(|c| c.call_id == call_id)
        .map(|c| (**c).clone())
        .unwrap_or_else(|| panic!("no card {call_id}"))
}

#[test]
fn tour_cards() {
    let t = fold(TOUR);
    for (name, id) in [
        ("terminal_ok", "call_001_2"),
        ("terminal_exit_1", "call_005_1"),
        ("terminal_polled", "call_022_0"),
        ("read_cat", "call_003_0"),
        ("search_rg", "call_006_0"),
        ("patch_update", "call_009_1"),
        ("patch_add", "call_014_0"),
        ("patch_delete", "call_015_0"),
        ("patch_three_files", "call_016_0"),
        ("patch_failed", "call_017_1"),
        ("plan", "call_002_0"),
        ("web_search", "ws_resp_020_0"),
    ] {
        snapshot(name, &card(&t, id));
    }
}

#[test]
fn older_generation_cards() {
    let t = fold(GEN2);
    for (name, id) in [
        ("patch_move", "call_mv"),
        ("patch_failed_older", "call_bad"),
        ("local_shell", "call_cat"),
        ("mcp", "call_mcp"),
        ("terminal_interrupted", "call_test"),
    ] {
        snapshot(name, &card(&t, id));
    }
    let t = fold(GEN1);
    for (name, id) in [("shell_argv", "call_s2"), ("shell_apply_patch", "call_s3")] {
        snapshot(name, &card(&t, id));
    }
}

/// What the log says of how calls ended, and nothing more (issue 29): a
/// patch at its hunks' line numbers (the real 0.169 `mid_file` capture),
/// the 2025 rollouts' sandbox denial, failed patch, refusal and recorded
/// duration, and Codex Desktop's end events and unknown outcomes.
#[test]
fn cards_claim_what_the_log_says() {
    snapshot("patch_mid_file", &card(&fold(MID_FILE), "call_002_1"));
    let t = fold(LEGACY);
    for (name, id) in [
        ("terminal_recorded_duration", "call_pytest"),
        ("terminal_sandbox_denied", "call_touch"),
        ("patch_failed_legacy", "call_patch_bad"),
        ("terminal_rejected", "call_rejected"),
        ("terminal_outcome_unknown", "call_redacted"),
    ] {
        snapshot(name, &card(&t, id));
    }
    let t = fold(DESKTOP);
    for (name, id) in [
        ("terminal_end_event", "call_test"),
        ("patch_done", "call_fix"),
        ("patch_outcome_unknown", "call_note"),
        ("patch_failed_end_event", "call_gone"),
    ] {
        snapshot(name, &card(&t, id));
    }
}

/// A 0.169 call and its output, as rollout lines.
fn call_lines(name: &str, arguments: &Value, output: &str) -> String {
    let ts = "2026-12-01T10:00:00.000Z";
    let lines = [
        json!({"timestamp": ts, "ordinal": 0, "type": "session_meta", "payload": {"id": "s", "cwd": "/w"}}),
        json!({"timestamp": ts, "ordinal": 1, "type": "event_msg", "payload": {"type": "task_started"}}),
        json!({"timestamp": ts, "ordinal": 2, "type": "response_item", "payload": {"type": "function_call", "status": "completed", "name": name, "arguments": arguments.to_string(), "call_id": "c1"}}),
        json!({"timestamp": "2026-12-01T10:00:00.020Z", "ordinal": 3, "type": "response_item", "payload": {"type": "function_call_output", "call_id": "c1", "output": output}}),
    ];
    lines.map(|l| l.to_string()).join("\n")
}

#[test]
fn question_and_unknown_tool_cards() {
    let questions = json!({"questions": [{
        "id": "scope",
        "header": "Scope",
        "question": "Bump the version in which files?",
        "options": [
            {"label": "All (Recommended)", "description": "Every version string"},
            {"label": "Only README", "description": "Docs only"}
        ]
    }]});
    let t = fold(&call_lines(
        "request_user_input",
        &questions,
        r#"{"answers":{"scope":{"answers":["All (Recommended)"]}}}"#,
    ));
    let asked = card(&t, "c1");
    assert!(asked.question.is_some(), "drawn as its question");
    snapshot("question", &asked);
    let t = fold(&call_lines("view_image", &json!({"path": "shot.png"}), "image shown"));
    snapshot("unknown_tool", &card(&t, "c1"));
}

#[test]
fn presenter_edges() {
    let c = Codex;
    // Not JSON, not a patch: still a card, never a panic.
    assert_eq!(
        c.call_view(Call::new("apply_patch", "nonsense"))
            .map(|v| v.tag()),
        Some("generic")
    );
    assert_eq!(c.result_view(&Settled::new("apply_patch", "nonsense", &[], false, None)), None);
    let v = c.call_view(Call::new("exec_command", "{")).map(|v| v.to_tree()).expect("a terminal");
    assert_eq!(v["title"], "");
    let v = c.call_view(Call::new("shell", r#"{"command":["ls","-la","it's here"]}"#)).map(|v| v.to_tree()).expect("argv");
    assert_eq!(v["title"], r"ls -la 'it'\''s here'");
    let v = c.call_view(Call::new("mcp__fs__read", "{}")).map(|v| v.to_tree()).expect("mcp");
    assert_eq!(v["title"], "fs · read");
    let v = c.call_view(Call::new("docs__search", "{}")).map(|v| v.to_tree()).expect("older mcp name");
    assert_eq!(v["title"], "docs · search");
    assert_eq!(c.call_view(Call::new("update_plan", "{}")), None, "no plan: no view");
    let running = json!([{"type": "text", "text": "Wall time: 0.5 seconds\nProcess running with session ID 9\nOutput:\n"}]);
    let v = c
        .result_view(&Settled::new("exec_command", r#"{"cmd":"sleep 9"}"#, running.as_array().map_or(&[], Vec::as_slice), false, None))
        .map(|p| p.to_tree())
        .expect("terminal");
    assert_eq!(v["description"], "wall time 0.50 s · still running (session 9)");
    assert_eq!(v.get("exitCode"), None);
}
