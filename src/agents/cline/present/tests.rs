//! The presenters on the real session's calls and results
//! (`tests/fixtures/agents/cline/tour/`), folded as deck folds it.

use std::fmt::Write as _;
use std::sync::Arc;


use super::Cline;
use crate::agents::cline::read::Reader;
use crate::cards::{Ctx, Density, render};
use crate::agents::card_dump::{fold_document, styled};
use crate::session::{Status, Transcript};
use crate::theme::Theme;
use crate::wire::view::View;

const TOUR: &str =
    include_str!("../../../../tests/fixtures/agents/cline/tour/1796379653114_ae203/1796379653114_ae203.messages.json");

fn fold() -> Transcript {
    fold_document(Reader::default(), Arc::new(Cline), TOUR)
}

#[test]
fn every_call_draws_its_card_with_its_true_status() {
    let t = fold();
    let got: Vec<(&str, String, Status)> = t
        .cards()
        .iter()
        .map(|c| {
            let tag = c.result_view.as_ref().and_then(|v| v.tag()).unwrap_or_default();
            (c.tool_name(), tag.to_string(), c.status)
        })
        .collect();
    let want = [
        ("run_commands", "terminal", Status::Ok),
        ("search_codebase", "search", Status::Ok),
        ("read_files", "generic", Status::Ok),
        ("editor", "diff", Status::Ok),
        ("editor", "generic", Status::Error),
        ("apply_patch", "diff", Status::Ok),
        ("apply_patch", "diff", Status::Ok),
        ("run_commands", "terminal", Status::Failed),
        ("fetch_web_content", "web", Status::Error),
    ];
    let got: Vec<(&str, &str, Status)> = got.iter().map(|(a, b, c)| (*a, b.as_str(), *c)).collect();
    assert_eq!(got, want);
}

#[test]
fn the_batch_of_commands_says_each_exit_and_edits_sit_where_the_log_says() {
    let t = fold();
    let view = |i: usize| t.cards()[i].result_view.as_ref().unwrap().typed().unwrap();
    let View::Terminal(term) = view(7) else { panic!("{:?}", view(7)) };
    assert_eq!(term.exit_code, Some(2));
    let out = term.output.unwrap();
    assert!(out.contains("(exit 0)") && out.contains("$ ls missing-dir (exit 2)"), "{out}");
    assert!(out.contains("Ran 2 tests"), "{out}");
    // The insert at its `insert_line`; the patch's hunk at no known line.
    let View::Diff(insert) = view(3) else { panic!() };
    assert_eq!(insert.diffs[0].start_line, Some(2));
    let View::Diff(patch) = view(5) else { panic!() };
    assert_eq!(patch.diffs[0].path, "src/stats.py");
    assert_eq!(patch.diffs[0].start_line, None);
    assert!(patch.diffs[0].new_text.contains("if not xs:"));
    let View::Diff(added) = view(6) else { panic!() };
    assert_eq!((added.diffs[0].old_text.as_deref(), added.diffs[0].start_line), (None, Some(1)));
}

#[test]
fn cards_at_80_and_120_columns_dark_and_light() {
    let t = fold();
    for theme_name in ["dark", "light"] {
        let theme = Theme::builtin(theme_name).expect("built-in theme");
        let mut out = String::new();
        for card in t.cards().iter() {
            for w in [80, 120] {
                let _ = writeln!(out, "── {} {} width {w} ──", card.call_id, card.tool_name());
                out.push_str(&styled(&render(card, &Ctx::new(w, &theme, Density::Full)), w, "cline"));
            }
        }
        insta::assert_snapshot!(format!("tour__{theme_name}"), out);
    }
}
