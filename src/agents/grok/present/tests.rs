//! The presenters on the tour fixture (`tests/fixtures/agents/grok/tour/`,
//! written from the documented format), folded as deck folds it, and
//! snapshots of its cards at 80 and 120 columns, dark and light.

use std::fmt::Write as _;
use std::sync::Arc;


use super::Grok;
use crate::agents::grok::read::Reader;
use crate::agents::card_dump::fold_lines;
use crate::cards::{Ctx, Density, render};
use crate::session::{Status, Transcript};
use crate::theme::Theme;
use crate::wire::view::{SearchBody, View};

const TOUR: &str = include_str!("../../../../tests/fixtures/agents/grok/tour/updates.jsonl");

fn fold(text: &str) -> Transcript {
    fold_lines(Reader::default(), Arc::new(Grok), text)
}

fn view(t: &Transcript, id: &str) -> View {
    let card = t.cards().iter().find(|c| c.call_id == id).expect("the card");
    card.result_view.as_ref().expect("a result view").typed().expect("a typed view")
}

#[test]
fn every_call_draws_its_card_with_its_true_status() {
    let t = fold(TOUR);
    let got: Vec<(&str, Status)> = t.cards().iter().map(|c| (c.tool_name(), c.status)).collect();
    assert_eq!(
        got,
        [
            ("list_dir", Status::Ok),
            ("read_file", Status::Ok),
            ("grep", Status::Ok),
            ("read_file", Status::Ok),
            ("search_replace", Status::Ok),
            ("run_terminal_cmd", Status::Ok),
            ("run_terminal_cmd", Status::Failed),
            ("web_fetch", Status::Error),
        ]
    );
    let tags: Vec<String> = t
        .cards()
        .iter()
        .map(|c| c.result_view.as_ref().and_then(|v| v.tag()).unwrap_or_default().to_string())
        .collect();
    assert_eq!(tags, ["generic", "read", "search", "read", "diff", "terminal", "terminal", "generic"]);
}

#[test]
fn reads_edits_commands_and_searches_say_what_the_log_says() {
    let t = fold(TOUR);
    let View::Read(whole) = view(&t, "call_02") else { panic!() };
    assert_eq!((whole.offset, whole.lines.len(), whole.total_lines), (1, 19, 19));
    let View::Read(range) = view(&t, "call_04") else { panic!() };
    let numbers: Vec<u64> = range.lines.iter().map(|l| l.number).collect();
    assert_eq!((numbers, range.total_lines), (vec![8, 9, 10], 0));
    assert_eq!(range.lines[0].text, "def spread(xs):");
    let View::Diff(d) = view(&t, "call_05") else { panic!() };
    assert_eq!(d.diffs[0].start_line, Some(9));
    assert!(d.diffs[0].new_text.contains("if not xs:"));
    let View::Terminal(ok) = view(&t, "call_06") else { panic!() };
    assert_eq!((ok.title.as_deref(), ok.exit_code), (Some("python -m pytest -q"), Some(0)));
    let View::Terminal(ls) = view(&t, "call_07") else { panic!() };
    assert_eq!(ls.exit_code, Some(2));
    assert_eq!(ls.output.as_deref(), Some("ls: cannot access 'missing-dir': No such file or directory"));
    let View::Search(s) = view(&t, "call_03") else { panic!() };
    let SearchBody::Matches(files) = &s.body else { panic!("{s:?}") };
    let lines: Vec<u64> = files[0].matches.iter().map(|m| m.line_number).collect();
    assert_eq!(lines, [4, 8, 13]);
    let View::Generic(fetch) = view(&t, "call_08") else { panic!() };
    assert!(format!("{:?}", fetch.content).contains("dns error"));
}

#[test]
fn snapshots_of_the_tour() {
    let t = fold(TOUR);
    for theme_name in ["dark", "light"] {
        let theme = Theme::builtin(theme_name).expect("built-in theme");
        let mut out = String::new();
        for card in t.cards() {
            for w in [80, 120] {
                let _ = writeln!(out, "── {} {} at {w} ──", card.tool_name(), card.call_id);
                for line in render(card, &Ctx::new(w, &theme, Density::Full)) {
                    out.push_str(line.text().trim_end());
                    out.push('\n');
                }
            }
        }
        insta::assert_snapshot!(format!("grok_tour__{theme_name}"), out);
    }
}
