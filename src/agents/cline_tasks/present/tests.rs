//! The presenters on the tour's calls and results
//! (`tests/fixtures/agents/cline-tasks/tour/`), folded as deck folds it.

use std::fmt::Write as _;
use std::sync::Arc;


use super::{ClineTasks, blocks};
use crate::agents::card_dump::{fold_document, styled};
use crate::agents::cline_tasks::read::Reader;
use crate::cards::{Ctx, Density, render};
use crate::session::{Status, Transcript};
use crate::theme::Theme;
use crate::wire::view::View;

const TOUR: &str =
    include_str!("../../../../tests/fixtures/agents/cline-tasks/tour/1750000000000/api_conversation_history.json");

fn fold() -> Transcript {
    fold_document(Reader::default(), Arc::new(ClineTasks), TOUR)
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
    let got: Vec<(&str, &str, Status)> = got.iter().map(|(a, b, c)| (*a, b.as_str(), *c)).collect();
    assert_eq!(
        got,
        [
            ("list_files", "search", Status::Ok),
            ("read_file", "read", Status::Ok),
            ("search_files", "search", Status::Ok),
            ("replace_in_file", "diff", Status::Ok),
            ("write_to_file", "diff", Status::Ok),
            ("execute_command", "terminal", Status::Ok),
            ("execute_command", "terminal", Status::Failed),
            ("web_fetch", "web", Status::Ok),
            ("write_to_file", "generic", Status::Rejected),
            ("execute_command", "", Status::Cancelled),
        ]
    );
}

#[test]
fn exit_codes_and_lines_are_the_files_or_unknown() {
    let t = fold();
    let view = |i: usize| t.cards()[i].result_view.as_ref().unwrap().typed().unwrap();
    let View::Terminal(pass) = view(5) else { panic!() };
    assert_eq!(pass.exit_code, Some(0));
    assert!(pass.output.as_deref().unwrap().contains("3 passed"), "{pass:?}");
    let View::Terminal(fail) = view(6) else { panic!() };
    assert_eq!(fail.exit_code, Some(4));
    // Cline's SEARCH/REPLACE block says no line: unknown; a file written
    // whole starts at 1; a whole read is numbered from 1.
    let View::Diff(edit) = view(3) else { panic!() };
    assert_eq!(edit.diffs[0].start_line, None);
    assert!(edit.diffs[0].new_text.contains("if not xs:"));
    let View::Diff(new) = view(4) else { panic!() };
    assert_eq!((new.diffs[0].old_text.as_deref(), new.diffs[0].start_line), (None, Some(1)));
    let View::Read(read) = view(1) else { panic!() };
    assert_eq!((read.offset, read.lines.len()), (1, 6));
}

#[test]
fn roo_codes_blocks_say_their_line() {
    let diff = "<<<<<<< SEARCH\n:start_line:12\n-------\nold\n=======\nnew\n>>>>>>> REPLACE\n\n------- SEARCH\na\n=======\nb\n+++++++ REPLACE";
    assert_eq!(
        blocks(diff),
        [(Some(12), "old\n".to_string(), "new\n".to_string()), (None, "a\n".to_string(), "b\n".to_string())]
    );
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
                out.push_str(&styled(&render(card, &Ctx::new(w, &theme, Density::Full)), w, "cline-tasks"));
            }
        }
        insta::assert_snapshot!(format!("tour__{theme_name}"), out);
    }
}
