//! Inputs the fuzzers (`fuzz/`, see the README's Robustness section) found
//! crashing, kept as ordinary tests once fixed. Each test names its target
//! and what went wrong; the input is rebuilt here as frames (a structured
//! target's raw bytes depend on the `arbitrary` crate's decoding).

use deck::cards::Density;
use deck::session::Transcript;
use deck::theme::Theme;
use deck::view::transcript::{LayoutOptions, layout};
use deck::wire::{Frame, Origin, Record};
use serde_json::{Value, json};

fn card(result_view: Value) -> Transcript {
    let frames = [
        json!({"type":"session/event","sessionId":"s","event":{"type":"tool/call","seq":0,"time":1,
            "data":{"callId":"c","name":"x","arguments":"{}"}}}),
        json!({"type":"session/event","sessionId":"s","event":{"type":"tool/result","seq":1,"time":2,
            "data":{"message":{"content":[{"type":"tool-result","toolCallId":"c","content":[],"isError":false}]}}},
            "view":{"for":"result","view":result_view}}),
    ];
    let records: Vec<Record> = frames
        .iter()
        .map(|f| Record::from_frame(Frame::from_value(f).expect("frame"), Origin::default()))
        .collect();
    Transcript::from_records(Some("s".into()), &records)
}

/// Every width and density of interest: nothing panics, every line fits.
fn draws_everywhere(t: &Transcript) {
    let theme = Theme::dark();
    for width in [0, 1, 2, 40, 120] {
        for density in [Density::Line, Density::Preview, Density::Full] {
            for l in layout(t, &theme, &LayoutOptions::new(width, density)) {
                assert!(l.width() <= width, "{width}: {:?}", l.text());
            }
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
