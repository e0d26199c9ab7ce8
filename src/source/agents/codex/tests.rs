//! Tests of the Codex rollout reader: the real 0.169 capture folded into
//! cards with the Codex presenters, the two older generations' shapes,
//! and lines the reader must take quietly or report.

use std::sync::Arc;

use serde_json::Value;

use super::Reader;
use crate::cards::resolve;
use crate::present::codex::Codex;
use crate::session::{Item, Status, Transcript};
use crate::source::agents::{Agent, Out, Translate};
use crate::wire::{Origin, Record};

const TOUR: &str = include_str!("../../../../tests/fixtures/agents/codex/tour.rollout.jsonl");

/// Every line of `text` read in order (lines that are not JSON skipped, as
/// the loader reports those itself).
pub(crate) fn read(text: &str) -> Out {
    let mut reader = Reader::default();
    let mut out = Out::new();
    for (i, line) in text.lines().enumerate() {
        if let Ok(v) = serde_json::from_str::<Value>(line) {
            let origin = Origin {
                line: i + 1,
                offset: 0,
            };
            reader.line(&v, origin, &mut out);
        }
    }
    reader.finish(&mut out);
    out
}

/// The records folded with the Codex presenters.
pub(crate) fn fold(out: &Out) -> Transcript {
    let id = out.first().and_then(|(id, _)| id.clone());
    Transcript::from_records(id, out.iter().map(|(_, r)| r), Arc::new(Codex))
}

/// Each card as `tool → tag status`.
fn cards(t: &Transcript) -> Vec<String> {
    t.cards()
        .iter()
        .map(|c| {
            let r = resolve(c);
            format!("{} → {} {:?}", c.tool_name(), r.view.tag(), c.status)
        })
        .collect()
}

#[test]
fn tour_dump() {
    let out = read(TOUR);
    let t = fold(&out);
    for c in cards(&t) {
        eprintln!("{c}");
    }
    for (_, r) in &out {
        if let Record::Diagnostic(d) = r {
            eprintln!("diag {d:?}");
        }
    }
    for d in t.diagnostics() {
        eprintln!("tdiag {d:?}");
    }
    let _ = (Agent::Codex, Status::Ok, Item::Tool(0));
    panic!();
}
