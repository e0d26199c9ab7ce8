//! The presenters on the real Kimi Code session
//! (`tests/fixtures/agents/kimi/tour/`), folded as deck folds it: each card
//! with the status and exit code its result says, an edit at its real
//! lines; snapshots at 80 and 120 columns, dark and light.

use std::fmt::Write as _;
use std::sync::Arc;


use super::Kimi;
use crate::agents::card_dump::{fold_lines, styled};
use crate::agents::kimi::read::Reader;
use crate::cards::{Ctx, Density, render};
use crate::session::{Status, ToolCard, Transcript};
use crate::theme::Theme;
use crate::wire::view::View;

const TOUR: &str = include_str!(
    "../../../../tests/fixtures/agents/kimi/tour/sessions/2f108d9d78a2ccf520e99c4d45c05ab0/3c84154a-3e8f-42a2-84e9-d232960af410/wire.jsonl"
);

fn fold(text: &str) -> Transcript {
    fold_lines(Reader::default(), Arc::new(Kimi), text)
}

#[test]
fn every_call_is_drawn_with_its_status() {
    let t = fold(TOUR);
    let got: Vec<(&str, String, Status)> = t
        .cards()
        .iter()
        .map(|c| {
            let view = c.result_view.as_ref().or(c.call_view.as_ref());
            (c.tool_name(), view.and_then(|v| v.tag()).unwrap_or_default(), c.status)
        })
        .collect();
    let got: Vec<(&str, &str, Status)> = got.iter().map(|g| (g.0, g.1.as_str(), g.2)).collect();
    assert_eq!(
        got,
        [
            ("Glob", "search", Status::Ok),
            ("Glob", "generic", Status::Error),
            ("Grep", "search", Status::Ok),
            ("ReadFile", "read", Status::Ok),
            ("SetTodoList", "generic", Status::Ok),
            ("ReadFile", "read", Status::Ok),
            ("StrReplaceFile", "diff", Status::Ok),
            ("WriteFile", "diff", Status::Ok),
            ("Shell", "terminal", Status::Ok),
            ("FetchURL", "generic", Status::Error),
            ("Shell", "terminal", Status::Failed),
            ("Shell", "terminal", Status::Ok),
        ]
    );
    // The edit at the lines its diff block says (context from line 6).
    let edit = t.cards().iter().find(|c| c.call_id == "call_2_2_0").unwrap();
    let Ok(View::Diff(d)) = edit.result_view.as_ref().unwrap().typed() else { panic!("no diff") };
    assert_eq!((d.diffs[0].start_line, d.diffs[0].new_start_line), (Some(6), None));
    // The read window at its lines.
    let read = t.cards().iter().find(|c| c.call_id == "call_2_1_0").unwrap();
    let Ok(View::Read(r)) = read.result_view.as_ref().unwrap().typed() else { panic!("no read") };
    let numbers: Vec<u64> = r.lines.iter().map(|l| l.number).collect();
    assert_eq!((r.offset, numbers, r.total_lines), (8, vec![8, 9, 10], 0));
    // The failed command: exit 2, its output.
    let ls = t.cards().iter().find(|c| c.call_id == "call_3_1_0").unwrap();
    let Ok(View::Terminal(s)) = ls.result_view.as_ref().unwrap().typed() else { panic!("no terminal") };
    assert_eq!(s.exit_code, Some(2));
    assert!(s.output.as_deref().unwrap().contains("No such file or directory"));
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
        ("glob", "call_1_0_0"),
        ("glob_refused_pattern", "call_1_1_0"),
        ("grep", "call_1_1_1"),
        ("read_whole", "call_1_2_0"),
        ("read_window", "call_2_1_0"),
        ("str_replace", "call_2_2_0"),
        ("write", "call_2_3_0"),
        ("shell", "call_2_4_0"),
        ("fetch_failed", "call_3_0_0"),
        ("shell_failed", "call_3_1_0"),
        ("shell_lines", "call_3_2_0"),
    ] {
        let card = t.cards().iter().find(|c| c.call_id == id).map(|c| (**c).clone());
        snapshot(name, &card.unwrap_or_else(|| panic!("no card {id}")));
    }
}
