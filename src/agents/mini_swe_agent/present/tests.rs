//! The presenters on the real trajectory's actions
//! (`tests/fixtures/agents/mini-swe-agent/tour/`) and on the SWE-agent
//! `.traj` (`…/swe-agent/`), folded as deck folds them: each action's card
//! and true status, reads at the lines the command fixes, and snapshots of
//! every card at 80 and 120 columns in the dark and light themes.

use std::fmt::Write as _;
use std::sync::Arc;


use super::MiniSweAgent;
use crate::agents::mini_swe_agent::read::Reader;
use crate::cards::{Ctx, Density, render};
use crate::agents::card_dump::{fold_document, styled};
use crate::session::{Status, ToolCard, Transcript};
use crate::theme::Theme;
use crate::wire::view::{SearchBody, View};

const TOUR: &str = include_str!("../../../../tests/fixtures/agents/mini-swe-agent/tour/last_mini_run.traj.json");
const SWE: &str = include_str!("../../../../tests/fixtures/agents/mini-swe-agent/swe-agent/demo__demo-1.traj");

fn fold(text: &str) -> Transcript {
    fold_document(Reader::default(), Arc::new(MiniSweAgent), text)
}

fn cards(t: &Transcript) -> Vec<ToolCard> {
    t.cards().iter().map(|c| (**c).clone()).collect()
}

fn view(c: &ToolCard) -> View {
    c.result_view.as_ref().expect("a result view").typed().expect("a view")
}

#[test]
fn every_action_draws_its_card_with_its_true_status() {
    let t = fold(TOUR);
    let got: Vec<(String, String, Status, Option<i64>)> = cards(&t)
        .iter()
        .map(|c| {
            let v = view(c);
            let code = match &v {
                View::Terminal(t) => t.exit_code,
                _ => None,
            };
            (c.call_id.to_string(), v.tag().to_string(), c.status, code)
        })
        .collect();
    let want: Vec<(&str, &str, Status, Option<i64>)> = vec![
        ("call_1_0_0", "terminal", Status::Ok, Some(0)),
        ("call_1_1_0", "read", Status::Ok, None),
        ("call_1_2_0", "read", Status::Ok, None),
        ("call_1_3_0", "search", Status::Ok, None),
        ("call_1_3_1", "search", Status::Ok, None),
        ("call_1_4_0", "terminal", Status::Ok, Some(0)),
        ("call_1_5_0", "terminal", Status::Ok, Some(0)),
        ("call_1_6_0", "terminal", Status::Ok, Some(0)),
        ("call_1_7_0", "terminal", Status::Failed, Some(1)),
        ("call_1_8_0", "terminal", Status::Failed, Some(7)),
        ("call_1_9_0", "terminal", Status::Rejected, None),
        ("call_1_10_0", "terminal", Status::Ok, None),
        ("call_2_0_0", "read", Status::Ok, None),
        ("call_2_1_0", "terminal", Status::Ok, None),
    ];
    let got: Vec<(&str, &str, Status, Option<i64>)> =
        got.iter().map(|(a, b, s, c)| (a.as_str(), b.as_str(), *s, *c)).collect();
    assert_eq!(got, want);
}

#[test]
fn reads_sit_at_the_lines_the_command_fixes() {
    let t = fold(TOUR);
    let cs = cards(&t);
    let read = |id: &str| match view(cs.iter().find(|c| &*c.call_id == id).unwrap()) {
        View::Read(r) => r,
        other => panic!("{other:?}"),
    };
    // `cat src/stats.py`: the whole file, its length known.
    let whole = read("call_1_1_0");
    assert_eq!((whole.offset, whole.lines.len() as u64, whole.total_lines), (1, 21, 21));
    // `sed -n '12,18p'`: lines 12-18, the length not claimed.
    let range = read("call_1_2_0");
    let numbers: Vec<u64> = range.lines.iter().map(|l| l.number).collect();
    assert_eq!((numbers, range.total_lines), ((12..=18).collect(), 0));
    assert_eq!(range.lines[0].text, "def median(xs):");
    // `head -n 5`, after the edit: lines 1-5.
    let head = read("call_2_0_0");
    assert_eq!((head.offset, head.lines.len()), (1, 5));
    // `grep -n 'def '`: the matches at their lines, in the one file.
    let grep = view(cs.iter().find(|c| &*c.call_id == "call_1_3_0").unwrap());
    let View::Search(s) = grep else { panic!() };
    let SearchBody::Matches(files) = &s.body else { panic!("{s:?}") };
    let at: Vec<u64> = files[0].matches.iter().map(|m| m.line_number).collect();
    assert_eq!((files[0].path.as_str(), at), ("src/stats.py", vec![4, 8, 12]));
    // The rejected action: its command and why it did not run.
    let View::Terminal(rm) = view(cs.iter().find(|c| &*c.call_id == "call_1_9_0").unwrap()) else { panic!() };
    assert_eq!((rm.title.as_deref(), rm.output.as_deref()), (Some("rm README.md"), Some("action was not executed")));
}

#[test]
fn swe_agent_steps_are_of_unknown_outcome_and_its_listing_a_read() {
    let t = fold(SWE);
    let cs = cards(&t);
    let got: Vec<(String, Status)> = cs
        .iter()
        .map(|c| (view(c).tag().to_string(), c.status))
        .collect();
    let tags: Vec<&str> = got.iter().map(|g| g.0.as_str()).collect();
    assert_eq!(tags, ["terminal", "read", "terminal", "terminal", "diff"]);
    assert!(got.iter().all(|g| g.1 == Status::Unknown), "{got:?}");
    let View::Read(r) = view(&cs[1]) else { panic!() };
    assert_eq!((r.path.as_str(), r.lines.len(), r.lines[8].number), ("/testbed/src/stats.py", 9, 9));
    // The submission, at the hunk's lines (`@@ -6,4 +6,4 @@`).
    let View::Diff(d) = view(&cs[4]) else { panic!() };
    assert_eq!((d.diffs[0].path.as_str(), d.diffs[0].start_line), ("src/stats.py", Some(6)));
    assert!(d.diffs[0].new_text.contains("if xs else 0"), "{d:?}");
}

/// Every card of a fixture at 80 and 120 columns, one snapshot per theme.
fn snapshot(name: &str, text: &str) {
    let t = fold(text);
    for theme_name in ["dark", "light"] {
        let theme = Theme::builtin(theme_name).expect("built-in theme");
        let mut out = String::new();
        for card in cards(&t) {
            for w in [80, 120] {
                let _ = writeln!(out, "── {} at width {w} ──", card.call_id);
                let lines = render(&card, &Ctx::new(w, &theme, Density::Full));
                out.push_str(&styled(&lines, w, name));
            }
        }
        insta::assert_snapshot!(format!("{name}__{theme_name}"), out);
    }
}

#[test]
fn snapshots_of_the_tour() {
    snapshot("tour", TOUR);
}

#[test]
fn snapshots_of_the_swe_agent_trajectory() {
    snapshot("swe_agent", SWE);
}
