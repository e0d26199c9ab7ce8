//! The presenters on the real session's calls and results
//! (`tests/fixtures/agents/pi/tour/`), folded as deck folds it, and
//! snapshots of its cards at 80 and 120 columns in the dark and light
//! themes.

use std::fmt::Write as _;
use std::sync::Arc;


use super::Pi;
use crate::agents::pi::read::Reader;
use crate::cards::{Ctx, Density, render};
use crate::agents::card_dump::{fold_lines, styled};
use crate::session::{Status, ToolCard, Transcript};
use crate::theme::Theme;
use crate::wire::view::{SearchBody, View};
use crate::wire::WireError;

const TOUR: &str = include_str!("../../../../tests/fixtures/agents/pi/tour/2026-12-04T10-19-52-759Z_01a24091-4836-74ba-9643-b89fe1f6b26a.jsonl");

fn fold(text: &str) -> Transcript {
    fold_lines(Reader::default(), Arc::new(Pi), text)
}

fn views(t: &Transcript, tool: &str) -> Vec<(Result<View, WireError>, Status)> {
    t.cards()
        .iter()
        .filter(|c| c.tool.as_deref() == Some(tool))
        .map(|c| (c.result_view.as_ref().expect("a result view").typed(), c.status))
        .collect()
}

#[test]
fn every_call_on_the_path_draws_its_card_with_its_true_status() {
    let t = fold(TOUR);
    let got: Vec<(&str, String, Status)> = t
        .cards()
        .iter()
        .map(|c| {
            let tag = c.result_view.as_ref().and_then(|v| v.tag()).unwrap_or_default().to_string();
            (c.tool_name(), tag, c.status)
        })
        .collect();
    let want = [
        ("ls", "generic", Status::Ok),
        ("find", "search", Status::Ok),
        ("grep", "search", Status::Ok),
        ("read", "read", Status::Ok),
        ("read", "read", Status::Ok),
        ("edit", "diff", Status::Ok),
        ("write", "diff", Status::Ok),
        ("bash", "terminal", Status::Ok),
        ("bash", "terminal", Status::Failed),
        ("bash", "terminal", Status::Ok),
    ];
    let got: Vec<(&str, &str, Status)> = got.iter().map(|g| (g.0, g.1.as_str(), g.2)).collect();
    assert_eq!(got, want);
}

#[test]
fn edits_sit_at_their_real_lines_and_reads_at_theirs() {
    let t = fold(TOUR);
    let edit = views(&t, "edit");
    let Ok(View::Diff(d)) = &edit[0].0 else {
        panic!("{:?}", edit[0]);
    };
    // The listing shows old lines 5-12 around new lines 9-10: one hunk from
    // line 5, the same in both files.
    assert_eq!(d.diffs.len(), 1, "{d:?}");
    assert_eq!((d.diffs[0].start_line, d.diffs[0].new_start_line), (Some(5), None));
    assert!(d.diffs[0].new_text.contains("    if not xs:\n        return 0\n"), "{d:?}");
    assert!(!d.diffs[0].old_text.as_deref().unwrap_or_default().contains("if not xs"), "{d:?}");
    let write = views(&t, "write");
    let Ok(View::Diff(w)) = &write[0].0 else {
        panic!("{:?}", write[0]);
    };
    assert_eq!((w.diffs[0].old_text.as_deref(), w.diffs[0].start_line), (None, Some(1)));
    let reads = views(&t, "read");
    let Ok(View::Read(whole)) = &reads[0].0 else {
        panic!("{:?}", reads[0]);
    };
    assert_eq!((whole.offset, whole.lines.len() as u64, whole.total_lines), (1, 21, 21));
    let Ok(View::Read(range)) = &reads[1].0 else {
        panic!("{:?}", reads[1]);
    };
    // offset 7, limit 3: lines 7-9, the note taken off, the length not claimed.
    let numbers: Vec<u64> = range.lines.iter().map(|l| l.number).collect();
    assert_eq!((numbers, range.total_lines), (vec![7, 8, 9], 0));
    assert_eq!(range.lines[1].text, "def spread(xs):");
}

#[test]
fn shell_and_search_cards() {
    let t = fold(TOUR);
    let shells = views(&t, "bash");
    let got: Vec<(Option<i64>, Option<String>)> = shells
        .iter()
        .map(|(v, _)| match v {
            Ok(View::Terminal(t)) => (t.exit_code, t.output.clone()),
            other => panic!("{other:?}"),
        })
        .collect();
    // Only the failure's code is written; the others' are unknown.
    assert_eq!(got[0].0, None);
    assert!(got[0].1.as_deref().unwrap().ends_with("OK"), "{got:?}");
    assert_eq!(got[1], (Some(2), Some("ls: cannot access 'missing-dir': No such file or directory".into())));
    assert_eq!(got[2], (None, Some("a\nb\nc\ndone".into())));
    let grep = views(&t, "grep");
    let Ok(View::Search(s)) = &grep[0].0 else {
        panic!("{:?}", grep[0]);
    };
    let SearchBody::Matches(files) = &s.body else { panic!("{s:?}") };
    let lines: Vec<u64> = files[0].matches.iter().map(|m| m.line_number).collect();
    assert_eq!((files[0].path.as_str(), lines), ("src/stats.py", vec![4, 8, 12]));
    let find = views(&t, "find");
    let Ok(View::Search(f)) = &find[0].0 else {
        panic!("{:?}", find[0]);
    };
    assert!(matches!(&f.body, SearchBody::Paths(p) if p == &["src/stats.py"]), "{f:?}");
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
        ("pi_ls", "call_1_0_0"),
        ("pi_find", "call_1_1_0"),
        ("pi_grep", "call_1_1_1"),
        ("pi_read_whole", "call_1_2_0"),
        ("pi_read_range", "call_3_0_0"),
        ("pi_edit", "call_3_1_0"),
        ("pi_write", "call_3_2_0"),
        ("pi_bash_ok", "call_3_3_0"),
        ("pi_bash_exit_2", "call_3_4_0"),
        ("pi_bash_printf", "call_3_5_0"),
    ] {
        let card = t
            .cards()
            .iter()
            .find(|c| c.call_id == id)
            .map(|c| (**c).clone())
            .unwrap_or_else(|| panic!("no card {id}"));
        snapshot(name, &card);
    }
}
