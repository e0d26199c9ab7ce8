//! Text into frames and views: every line decoded as a frame (fast and
//! lenient paths), the whole input also typed as a bare view on a synthetic
//! card; the transcript folded, every card resolved, exported and drawn at a
//! width and density taken from the input. Every line must fit the width.
#![no_main]

use deck::cards::{self, Ctx};
use deck::session::{AttachedView, Status, ToolCard, ToolResult, Transcript, ViewSource};
use deck::view::transcript::{LayoutOptions, render_item};
use deck::wire::{Frame, Origin, Record, View};
use deck_fuzz::{check_lines, theme, width_and_density};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (width, density) = width_and_density(data);
    let theme = theme(data.len() as u8);
    let records: Vec<Record> = text
        .lines()
        .filter_map(|l| Frame::from_text(l).ok())
        .map(|f| Record::from_frame(f, Origin::default()))
        .collect();
    let t = Transcript::from_records(None, &records);
    let opts = LayoutOptions::new(width, density);
    for item in t.items.iter() {
        check_lines(&render_item(&t, item, &theme, &opts), width, "item");
    }
    for card in t.cards.iter() {
        let _ = cards::resolution(card);
        let _ = cards::export::plain_text(card);
        let _ = cards::export::target(card);
    }
    // The whole input as one view, in both slots of a settled card.
    if let Ok(v) = serde_json::from_str::<serde_json::Value>(text) {
        let _ = View::parse(&v);
        let view = AttachedView::new(ViewSource::Wire, v);
        let card = ToolCard {
            call_id: "c".into(),
            tool: Some("fuzz".into()),
            arguments: text.into(),
            turn: Some(1),
            step: Some(1),
            call_seq: Some(0),
            started: Some(0),
            ended: Some(5),
            call_view: Some(view.clone()),
            result_view: Some(view),
            result: Some(ToolResult::new(1, Vec::new(), false, None, None)),
            status: Status::Ok,
            rev: 0,
        };
        let ctx = Ctx::new(width, &theme, density);
        check_lines(&cards::render(&card, &ctx), width, "view");
        let _ = cards::export::plain_text(&card);
    }
});
