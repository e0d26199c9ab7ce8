//! The presenters on the tour fixture (`tests/fixtures/agents/atif/tour/`),
//! folded as deck folds it, and snapshots of its cards at 80 and 120
//! columns, dark and light.

use std::fmt::Write as _;
use std::sync::Arc;

use serde_json::Value;

use super::Atif;
use crate::agents::atif::read::{Reader, lines};
use crate::agents::read::{Out, Translate};
use crate::cards::{Ctx, Density, render};
use crate::session::{Status, Transcript};
use crate::theme::Theme;
use crate::wire::Origin;

const TOUR: &str = include_str!("../../../../tests/fixtures/agents/atif/tour/trajectory.json");

fn fold() -> Transcript {
    let doc: Value = serde_json::from_str(TOUR).unwrap();
    let mut reader = Reader::default();
    let mut out = Out::new();
    for l in lines(&doc).unwrap() {
        reader.line(&l, Origin::default(), &mut out);
    }
    reader.finish(&mut out);
    Transcript::from_records(None, out.iter().map(|(_, r)| r), Arc::new(Atif))
}

#[test]
fn every_call_is_a_generic_card_whose_outcome_is_unknown() {
    let t = fold();
    let got: Vec<(&str, Status)> = t.cards().iter().map(|c| (c.tool_name(), c.status)).collect();
    let tools: Vec<&str> = got.iter().map(|g| g.0).collect();
    assert_eq!(tools, ["LS", "Read", "Grep", "Read", "Edit", "Bash", "Bash", "WebFetch"]);
    assert!(got.iter().all(|g| g.1 == Status::Unknown), "{got:?}");
    assert!(t.cards().iter().all(|c| c.result_view.as_ref().and_then(|v| v.tag()).as_deref() == Some("generic")));
}

#[test]
fn snapshots_of_the_tour() {
    let t = fold();
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
        insta::assert_snapshot!(format!("atif_tour__{theme_name}"), out);
    }
}
