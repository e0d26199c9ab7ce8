//! The presenters on the real session's calls and results
//! (`tests/fixtures/agents/copilot-cli/tour/`), folded as deck folds it,
//! and snapshots of its cards at 80 and 120 columns, dark and light.

use std::fmt::Write as _;
use std::sync::Arc;


use super::CopilotCli;
use crate::agents::copilot_cli::read::Reader;
use crate::cards::{Ctx, Density, render};
use crate::agents::card_dump::{fold_lines, styled};
use crate::session::{Status, ToolCard, Transcript};
use crate::theme::Theme;
use crate::wire::view::{SearchBody, View};
use crate::wire::WireError;

const TOUR: &str = include_str!("../../../../tests/fixtures/agents/copilot-cli/tour/events.jsonl");

fn fold(text: &str) -> Transcript {
    fold_lines(Reader::default(), Arc::new(CopilotCli), text)
}

fn views(t: &Transcript, tool: &str) -> Vec<(Result<View, WireError>, Status)> {
    t.cards()
        .iter()
        .filter(|c| c.tool.as_deref() == Some(tool))
        .map(|c| (c.result_view.as_ref().expect("a result view").typed(), c.status))
        .collect()
}

#[test]
fn every_call_draws_its_card_with_its_true_status() {
    let t = fold(TOUR);
    let got: Vec<(&str, Option<String>, Status)> = t
        .cards()
        .iter()
        .map(|c| (c.tool_name(), c.result_view.as_ref().and_then(|v| v.tag()), c.status))
        .collect();
    let want = [
        ("view", "generic", Status::Ok),
        ("glob", "search", Status::Ok),
        ("grep", "search", Status::Ok),
        ("view", "read", Status::Ok),
        ("view", "read", Status::Ok),
        ("edit", "diff", Status::Ok),
        ("create", "diff", Status::Ok),
        ("bash", "terminal", Status::Ok),
        ("web_fetch", "generic", Status::Error),
        ("bash", "terminal", Status::Failed),
        ("bash", "terminal", Status::Ok),
    ];
    let got: Vec<(&str, &str, Status)> = got.iter().map(|(t, v, s)| (*t, v.as_deref().unwrap_or("none"), *s)).collect();
    assert_eq!(got, want);
}

#[test]
fn edits_sit_at_their_real_lines_and_reads_at_theirs() {
    let t = fold(TOUR);
    let Ok(View::Diff(d)) = &views(&t, "edit")[0].0 else {
        panic!("no diff");
    };
    // `@@ -6,6 +6,8 @@`: the hunk from line 6, the new lines 9-10 in it.
    assert_eq!(d.diffs[0].start_line, Some(6));
    assert!(d.diffs[0].new_text.contains("if not xs:"), "{d:?}");
    let Ok(View::Diff(c)) = &views(&t, "create")[0].0 else {
        panic!("no diff");
    };
    assert_eq!((c.diffs[0].old_text.as_deref(), c.diffs[0].start_line), (None, Some(1)));
    let reads = views(&t, "view");
    let Ok(View::Read(whole)) = &reads[1].0 else {
        panic!("{:?}", reads[1]);
    };
    assert_eq!((whole.offset, whole.lines.len(), whole.total_lines), (1, 21, 0));
    let Ok(View::Read(range)) = &reads[2].0 else {
        panic!("{:?}", reads[2]);
    };
    // view_range [8, 10]: lines 8 and 9 (10 is the blank one the CLI
    // did not return), numbered from the hunk's `@@ -8,3`.
    let numbers: Vec<u64> = range.lines.iter().map(|l| l.number).collect();
    assert_eq!(numbers, [8, 9]);
    assert_eq!(range.lines[0].text, "def spread(xs):");
}

#[test]
fn shell_and_search_cards() {
    let t = fold(TOUR);
    let shells = views(&t, "bash");
    let codes: Vec<Option<i64>> = shells
        .iter()
        .map(|(v, _)| match v {
            Ok(View::Terminal(t)) => t.exit_code,
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(codes, [Some(0), Some(2), Some(0)]);
    let Ok(View::Terminal(ls)) = &shells[1].0 else { unreachable!() };
    assert_eq!(ls.output.as_deref(), Some("ls: cannot access 'missing-dir': No such file or directory"));
    let Ok(View::Terminal(p)) = &shells[2].0 else { unreachable!() };
    assert_eq!(p.output.as_deref(), Some("a\nb\nc\ndone"));
    let Ok(View::Search(s)) = &views(&t, "grep")[0].0 else { panic!("no search") };
    let SearchBody::Matches(files) = &s.body else { panic!("{s:?}") };
    let lines: Vec<u64> = files[0].matches.iter().map(|m| m.line_number).collect();
    assert_eq!((files[0].path.as_str(), lines), ("./src/stats.py", vec![4, 8, 12]));
    let Ok(View::Search(g)) = &views(&t, "glob")[0].0 else { panic!("no search") };
    assert_eq!(g.body, SearchBody::Paths(vec!["./src/stats.py".into()]));
}

/// A card at 80 and 120 columns in both themes (one snapshot per theme).
fn snapshot(name: &str, card: &ToolCard) {
    for theme_name in ["dark", "light"] {
        let theme = Theme::builtin(theme_name).expect("built-in theme");
        let mut out = String::new();
        for w in [80, 120] {
            let _ = writeln!(out, "── width {w} ──");
            let lines = render(card, &Ctx::new(w, &theme, Density::Full));
            out.push_str(&styled(&lines, w, name));
        }
        insta::assert_snapshot!(format!("{name}__{theme_name}"), out);
    }
}

#[test]
fn tour_cards() {
    let t = fold(TOUR);
    for (name, id) in [
        ("view_directory", "call_1_0_0"),
        ("glob", "call_1_1_0"),
        ("grep", "call_1_1_1"),
        ("view_file", "call_1_2_0"),
        ("view_range", "call_2_0_0"),
        ("edit", "call_2_1_0"),
        ("create", "call_2_2_0"),
        ("bash_ok", "call_2_3_0"),
        ("web_fetch_unknown_tool", "call_3_0_0"),
        ("bash_exit_2", "call_3_1_0"),
        ("bash_lines", "call_3_2_0"),
    ] {
        let card = t.cards().iter().find(|c| c.call_id == id).map(|c| (**c).clone());
        snapshot(name, &card.unwrap_or_else(|| panic!("no card {id}")));
    }
}
