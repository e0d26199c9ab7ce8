//! Inputs the fuzzers (`fuzz/`, see the Robustness section of
//! `docs/limits.md`) found crashing, kept as ordinary tests once fixed. Each
//! test names its target and what went wrong; the input is rebuilt here as
//! frames (a structured target's raw bytes depend on the `arbitrary` crate's
//! decoding).

use deck::cards::Density;
use deck::session::Transcript;
use deck::theme::Theme;
use deck::view::transcript::{LayoutOptions, layout};
use serde_json::{Value, json};

use crate::common::build::{call_data, event, frame, rec, result_data};
use crate::common::dump::check_widths;
use crate::common::fold_records;

/// One call of tool `x` whose result came with `result_view`.
fn card(result_view: Value) -> Transcript {
    fold_records(&[
        rec(frame(
            event("tool/call", 0, 1, call_data("c", "x", "{}")),
            None,
        )),
        rec(frame(
            event("tool/result", 1, 2, result_data("c", json!([]), false)),
            Some(("result", result_view)),
        )),
    ])
}

/// Every width and density of interest: nothing panics, every line fits.
fn draws_everywhere(t: &Transcript) {
    let theme = Theme::dark();
    for width in [0, 1, 2, 40, 120] {
        for density in [Density::Line, Density::Preview, Density::Full] {
            let lines = layout(t, &theme, &LayoutOptions::new(width, density));
            check_widths(&lines, width, &format!("{density:?}"));
        }
    }
}

/// `cards`: a read card whose line numbers reach `u64::MAX` overflowed
/// looking for a gap after the last number (`p + 1`).
#[test]
fn read_card_line_number_at_u64_max() {
    let max = u64::MAX;
    let t = card(
        json!({"card":"read","path":"t","offset":max,"totalLines":max,
        "lines":[{"number":max,"text":""},{"number":max,"text":""},{"number":2_416_462_679_355_949_055u64,"text":"d"}]}),
    );
    draws_everywhere(&t);
    let t = card(json!({"card":"read","path":"t",
        "lines":[{"number":max - 1,"text":"a"},{"number":max,"text":"b"}]}));
    draws_everywhere(&t);
}
