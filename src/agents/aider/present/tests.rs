//! The presenters on the calls read from the real history
//! (`tests/fixtures/agents/aider/tour/`), folded as deck folds it: each
//! call's card and true status, and snapshots of the cards, text and
//! styles, at 80 and 120 columns in the dark and light themes.

use std::fmt::Write as _;
use std::sync::Arc;

use super::Aider;
use crate::agents::aider::read::tests::read;
use crate::cards::{Ctx, Density, render};
use crate::agents::card_dump::styled;
use crate::session::{Status, ToolCard, Transcript};
use crate::theme::Theme;
use crate::wire::view::View;

const TOUR: &str = include_str!("../../../../tests/fixtures/agents/aider/tour/.aider.chat.history.md");

fn fold(text: &str) -> Transcript {
    let out = read(text);
    Transcript::from_records(None, out.iter().map(|(_, r)| r), Arc::new(Aider))
}

fn card(t: &Transcript, call_id: &str) -> ToolCard {
    t.cards()
        .iter()
        .find(|c| c.call_id == call_id)
        .map(|c| (**c).clone())
        .unwrap_or_else(|| panic!("no card {call_id}"))
}

#[test]
fn every_call_draws_its_card_with_its_true_status() {
    let t = fold(TOUR);
    let got: Vec<(&str, &str, Option<String>, Status)> = t
        .cards()
        .iter()
        .map(|c| {
            let tag = c.result_view.as_ref().and_then(|v| v.tag());
            (c.call_id.as_str(), c.tool_name(), tag, c.status)
        })
        .collect();
    assert_eq!(
        got,
        [
            ("L20", "edit", Some("diff".into()), Status::Ok),
            ("L33", "edit", Some("diff".into()), Status::Ok),
            ("L75", "run", Some("terminal".into()), Status::Unknown),
            ("L87", "test", Some("terminal".into()), Status::Error),
        ]
    );
}

#[test]
fn edits_have_no_lines_but_a_created_file_and_commands_no_output() {
    let t = fold(TOUR);
    let view = |id: &str| card(&t, id).result_view.expect("a result view").typed().expect("typed");
    let View::Diff(d) = view("L20") else { panic!() };
    assert_eq!((d.diffs[0].start_line, d.diffs[0].old_text.as_deref()), (None, Some("def spread(xs):\n    return max(xs) - min(xs)")));
    let View::Diff(d) = view("L33") else { panic!() };
    assert_eq!((d.diffs[0].start_line, d.diffs[0].old_text.as_deref()), (Some(1), None));
    assert_eq!(d.title.as_deref(), Some("Create src/test_stats.py"));
    for id in ["L75", "L87"] {
        let View::Terminal(term) = view(id) else { panic!() };
        assert_eq!((term.output.as_deref(), term.exit_code), (None, None), "{id}");
        assert!(term.description.as_deref().unwrap().contains("output and exit code not in aider's log"));
    }
}

#[test]
fn cards() {
    let t = fold(TOUR);
    for (name, id) in [("edit_lines_unknown", "L20"), ("edit_created", "L33"), ("run_unknown", "L75"), ("test_failed", "L87")] {
        let card = card(&t, id);
        for theme_name in ["dark", "light"] {
            let theme = Theme::builtin(theme_name).expect("built-in theme");
            let mut out = String::new();
            for w in [80, 120] {
                let _ = writeln!(out, "── width {w} ──");
                let lines = render(&card, &Ctx::new(w, &theme, Density::Full));
                out.push_str(&styled(&lines, w, name));
            }
            insta::assert_snapshot!(format!("{name}__{theme_name}"), out);
        }
    }
}
