//! What a Codex card claims comes from the rollout (issue 29, points 8–10):
//! a patch's hunks at the line numbers of Codex's `@@ -a,b +c,d @@`
//! headers; a call's status from its exit code, Codex's error texts, its
//! end events and its item's own `status`, else unknown; durations the log
//! records; the header's cwd and start. Fixtures: the kit's real 0.169
//! `mid_file` capture, and hand-written ones in the public shapes of older
//! and other Codex builds (`tests/fixtures/agents/codex/README.md`).

use super::tests::{fold, read};
use crate::cards::{Ctx, Density, render, resolve};
use crate::session::{ToolCard, Transcript};
use crate::theme::Theme;
use crate::wire::Record;
use crate::wire::view::{DiffView, View};

const MID_FILE: &str = include_str!("../../../../tests/fixtures/agents/codex/mid_file.rollout.jsonl");
const LEGACY: &str = include_str!("../../../../tests/fixtures/agents/codex/legacy.rollout.jsonl");
const LEGACY_EVENTS: &str =
    include_str!("../../../../tests/fixtures/agents/codex/legacy_events.rollout.jsonl");
const DESKTOP: &str = include_str!("../../../../tests/fixtures/agents/codex/desktop.rollout.jsonl");

fn transcript(text: &str) -> Transcript {
    let t = fold(&read(text));
    assert!(t.diagnostics().is_empty(), "{:?}", t.diagnostics());
    t
}

fn card<'a>(t: &'a Transcript, call_id: &str) -> &'a ToolCard {
    t.cards()
        .iter()
        .find(|c| c.call_id == call_id)
        .unwrap_or_else(|| panic!("no card {call_id}"))
}

/// Each card as `call id: tag status`.
fn statuses(t: &Transcript) -> Vec<String> {
    t.cards()
        .iter()
        .map(|c| format!("{}: {} {}", c.call_id, resolve(c).view.tag(), c.status.name()))
        .collect()
}

fn diff(t: &Transcript, call_id: &str) -> DiffView {
    match resolve(card(t, call_id)).view {
        View::Diff(v) => v,
        other => panic!("{call_id}: {other:?}"),
    }
}

/// The card drawn whole at `width`, as text.
fn drawn(card: &ToolCard, width: usize) -> Vec<String> {
    let theme = Theme::dark();
    render(card, &Ctx::new(width, &theme, Density::Full))
        .iter()
        .map(|l| l.text().trim_end().to_string())
        .collect()
}

#[test]
fn a_patch_in_the_middle_of_a_file_is_drawn_at_its_lines() {
    let t = transcript(MID_FILE);
    let d = diff(&t, "call_002_1");
    // Codex's FileChange: `@@ -99,3 +99,5 @@` and `@@ -408,3 +410,5 @@`.
    let starts: Vec<_> = d.diffs.iter().map(|f| f.start_line).collect();
    assert_eq!(starts, [Some(99), Some(408)]);
    let rows = drawn(card(&t, "call_002_1"), 100);
    assert!(!rows.iter().any(|r| r.contains("lines unknown")), "{rows:#?}");
    let row = |text: &str| {
        rows.iter()
            .find(|r| r.ends_with(text))
            .unwrap_or_else(|| panic!("no row {text:?} in {rows:#?}"))
            .clone()
    };
    // The old side at the old file's numbers, the new side at the new
    // file's: the second hunk's new lines are two further down.
    assert!(row("- line 100").contains("100"), "{rows:#?}");
    assert!(row("+ line one hundred").contains("100"), "{rows:#?}");
    assert!(row("- line 409").contains("409"), "{rows:#?}");
    assert!(row("+ line four hundred nine").contains("411"), "{rows:#?}");
    assert!(row("+ line 409b").contains("413"), "{rows:#?}");
    assert!(!row("+ line four hundred nine").contains("409"), "{rows:#?}");
}

#[test]
fn a_legacy_rollout_says_what_failed_from_exit_codes_and_error_texts() {
    let t = transcript(LEGACY);
    assert_eq!(
        statuses(&t),
        [
            "call_pytest: terminal ok",
            // `failed in sandbox … exit code: 1`
            "call_touch: terminal failed",
            // `error: Failed to find expected lines …`
            "call_patch_bad: diff error",
            "call_heredoc_bad: generic error",
            "call_patch_ok: diff ok",
            "call_grep: terminal failed",
            // A refusal, not a failure.
            "call_rejected: terminal rejected",
            // Nothing says how it ended.
            "call_redacted: terminal unknown",
        ]
    );
    let View::Terminal(touch) = resolve(card(&t, "call_touch")).view else {
        panic!("terminal");
    };
    assert_eq!(touch.exit_code, Some(1));
    assert_eq!(t.error_count(), 4);
}

#[test]
fn a_legacy_rollout_shows_the_durations_it_records_and_no_other() {
    let t = transcript(LEGACY);
    let took: Vec<(String, Option<i64>)> = t
        .cards()
        .iter()
        .map(|c| (c.call_id.clone(), c.duration_ms()))
        .collect();
    assert_eq!(
        took,
        [
            ("call_pytest".to_string(), Some(4_600)),
            ("call_touch".to_string(), None),
            ("call_patch_bad".to_string(), None),
            ("call_heredoc_bad".to_string(), None),
            ("call_patch_ok".to_string(), Some(12)),
            ("call_grep".to_string(), Some(31)),
            ("call_rejected".to_string(), None),
            ("call_redacted".to_string(), None),
        ]
    );
    // Its lines have no time: no card claims when it ran.
    assert!(t.cards().iter().all(|c| c.started.is_none() && c.ended.is_none()));
    let rows = drawn(card(&t, "call_pytest"), 80);
    assert!(rows[0].ends_with("exit 0  4.6s"), "{rows:#?}");
    assert!(!drawn(card(&t, "call_touch"), 80)[0].ends_with("ms"));
    // The end events' `duration` when Codex kept them.
    let t = transcript(LEGACY_EVENTS);
    let took: Vec<Option<i64>> = t.cards().iter().map(|c| c.duration_ms()).collect();
    assert_eq!(took, [Some(4_612), Some(21)]);
    assert_eq!(
        statuses(&t),
        ["call_build: terminal failed", "call_ls: terminal ok"]
    );
}

#[test]
fn a_legacy_rollout_has_its_cwd_and_start_and_no_end() {
    let t = transcript(LEGACY);
    // The header has no cwd: the environment context Codex sent says it.
    assert_eq!(t.cwd(), Some("/home/user/app"));
    // 2025-07-14T09:30:12.345Z, the only time the file holds.
    assert_eq!(t.first_time(), Some(1_752_485_412_345));
    assert_eq!(t.last_time(), None);
    let out = read(LEGACY_EVENTS);
    let Some((_, Record::Frame { payload, .. })) = out.first() else {
        panic!("{:?}", out.first());
    };
    assert_eq!(payload["id"], "0198a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b");
    assert_eq!(payload["cwd"], "/home/user/svc");
    assert_eq!(payload["version"], "0.23.0");
    assert_eq!(payload["gitBranch"], "fix/timeouts");
}

#[test]
fn an_unknown_outcome_is_said_unknown_and_a_patch_keeps_its_diff() {
    let t = transcript(DESKTOP);
    assert_eq!(
        statuses(&t),
        [
            // Exit codes from Codex's `exec_command_end` events.
            "call_status: terminal ok",
            "call_test: terminal failed",
            // "Done!", from a call whose item says `completed`.
            "call_fix: diff ok",
            // Output redacted, no status: unknown, the patch drawn from
            // the call's input.
            "call_note: diff unknown",
            "call_secret: terminal unknown",
            // `patch_apply_end` says it failed.
            "call_gone: diff error",
        ]
    );
    let View::Terminal(test) = resolve(card(&t, "call_test")).view else {
        panic!("terminal");
    };
    assert_eq!(test.exit_code, Some(101));
    let note = diff(&t, "call_note");
    assert_eq!(note.diffs[0].path, "NOTES.md");
    assert_eq!(note.diffs[0].new_text, "# Notes\n\n- greet() prints hello\n");
    for id in ["call_note", "call_secret"] {
        let rows = drawn(card(&t, id), 80);
        assert!(rows[0].contains("unknown"), "{rows:#?}");
        assert!(!rows[0].starts_with('✓') && !rows[0].starts_with('✗'), "{rows:#?}");
    }
    assert_eq!(t.error_count(), 2);
}

/// A 2025 `apply_patch` run whose JSON output says it exited 1: failed,
/// its diff drawn `not applied` with how it exited, not what it would
/// have changed.
#[test]
fn a_patch_that_exited_non_zero_is_not_applied() {
    let patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-old\n+new\n*** End Patch\n";
    let args = serde_json::json!({"command": ["apply_patch", patch]}).to_string();
    let output = r#"{"output":"Invalid patch hunk\n","metadata":{"exit_code":1,"duration_seconds":0.2}}"#;
    let lines = [
        serde_json::json!({"id": "s", "timestamp": "2025-07-01T10:00:00.000Z", "instructions": null}),
        serde_json::json!({"type": "function_call", "name": "shell", "arguments": args, "call_id": "c1"}),
        serde_json::json!({"type": "function_call_output", "call_id": "c1", "output": output}),
    ];
    let text = lines.map(|l| l.to_string()).join("\n");
    let t = transcript(&text);
    assert_eq!(statuses(&t), ["c1: diff failed"]);
    let rows = drawn(card(&t, "c1"), 80);
    assert!(rows[0].starts_with('✗') && rows[0].ends_with("exit 1  200ms"), "{rows:#?}");
    assert!(rows.iter().any(|r| r.contains("not applied")), "{rows:#?}");
    assert!(!rows.iter().any(|r| r.contains("+1 −1")), "{rows:#?}");
    // What Codex answered, after the diff.
    assert!(rows.iter().any(|r| r.contains("Invalid patch hunk")), "{rows:#?}");
}
