//! The presenters on the Cursor transcript written from the documented
//! format (`tests/fixtures/agents/cursor/tour/`), folded as deck folds it:
//! each card drawn from its call, its status unknown; snapshots at 80 and
//! 120 columns, dark and light.

use std::fmt::Write as _;
use std::sync::Arc;


use super::Cursor;
use crate::agents::cursor::read::Reader;
use crate::cards::{Ctx, Density, render};
use crate::agents::card_dump::{fold_lines, styled};
use crate::session::{Status, ToolCard, Transcript};
use crate::theme::Theme;
use crate::wire::view::View;

const TOUR: &str = include_str!("../../../../tests/fixtures/agents/cursor/tour/5f0c2a8e-3b1d-4c7a-9e62-0d8b7a41c9f3.jsonl");

fn fold(text: &str) -> Transcript {
    fold_lines(Reader::default(), Arc::new(Cursor), text)
}

#[test]
fn every_call_is_drawn_from_its_input_and_claims_no_outcome() {
    let t = fold(TOUR);
    let got: Vec<(&str, String, Status)> = t
        .cards()
        .iter()
        .map(|c| {
            let view = c.result_view.as_ref().or(c.call_view.as_ref());
            (c.tool_name(), view.and_then(|v| v.tag()).unwrap_or_default(), c.status)
        })
        .collect();
    let tags: Vec<(&str, &str)> = got.iter().map(|g| (g.0, g.1.as_str())).collect();
    assert_eq!(
        tags,
        [
            ("Glob", "generic"),
            ("Grep", "generic"),
            ("Read", "generic"),
            ("Read", "generic"),
            ("StrReplace", "diff"),
            ("Write", "diff"),
            ("Shell", "terminal"),
            ("Shell", "terminal"),
            ("Shell", "terminal"),
        ]
    );
    assert!(got.iter().all(|g| g.2 == Status::Unknown), "{got:?}");
    // The edit: the text replaced, at no line (the log does not say).
    let edit = t.cards().iter().find(|c| c.tool.as_deref() == Some("StrReplace")).unwrap();
    let Ok(View::Diff(d)) = edit.call_view.as_ref().unwrap().typed() else { panic!("no diff") };
    assert_eq!(d.diffs[0].start_line, None);
    assert!(d.diffs[0].new_text.contains("if not xs:"));
    // A written file: its contents whole, from line 1.
    let write = t.cards().iter().find(|c| c.tool.as_deref() == Some("Write")).unwrap();
    let Ok(View::Diff(d)) = write.call_view.as_ref().unwrap().typed() else { panic!("no diff") };
    assert_eq!((d.diffs[0].old_text.as_deref(), d.diffs[0].start_line), (None, Some(1)));
    // A shell: the command, no output, no exit code.
    let shell = t.cards().iter().find(|c| c.call_id == "L11.1").unwrap();
    let Ok(View::Terminal(s)) = shell.call_view.as_ref().unwrap().typed() else { panic!("no terminal") };
    assert_eq!((s.title.as_deref(), s.exit_code, s.output.as_deref()), (Some("ls missing-dir"), None, None));
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
        ("glob", "L2.2"),
        ("grep", "L2.3"),
        ("read_whole", "L3.1"),
        ("read_window", "L4.2"),
        ("str_replace", "L5.2"),
        ("write", "L6.1"),
        ("shell", "L7.2"),
        ("shell_aborted_turn", "L15.2"),
    ] {
        let card = t.cards().iter().find(|c| c.call_id == id).map(|c| (**c).clone());
        snapshot(name, &card.unwrap_or_else(|| panic!("no card {id}")));
    }
}
