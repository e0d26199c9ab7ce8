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
use crate::wire::view::{DiffView, View};

const MID_FILE: &str = include_str!("../../../../tests/fixtures/agents/codex/mid_file.rollout.jsonl");

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
