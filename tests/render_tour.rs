//! Whole-session renders: the tour capture at 100 columns (snapshot), and the
//! promise that a live stream and a replay of the saved log draw the same cards.

mod common;

use deck::cards::{self, Ctx, Density};
use deck::headless::{self, Format};
use deck::session::Transcript;
use deck::source::load_path;
use deck::theme::Theme;
use deck::view::transcript::LayoutOptions;

fn fold(path: &str) -> Transcript {
    let l = load_path(path).unwrap();
    let s = &l.sessions[0];
    Transcript::from_records(s.id.clone(), &s.records)
}

#[test]
fn tour_at_100_columns() {
    let t = fold(&common::capture_str("tour", "frames.jsonl"));
    let out = headless::render(
        &t,
        &Theme::dark(),
        &LayoutOptions::new(100, Density::Preview),
        None,
        Format::Text,
    );
    insta::assert_snapshot!("tour_text_100", out);
}

#[test]
fn showcase_full_density_styled() {
    let t = fold("demo-sessions/showcase.jsonl");
    let out = headless::render(
        &t,
        &Theme::dark(),
        &LayoutOptions::new(100, Density::Full),
        None,
        Format::Styled,
    );
    insta::assert_snapshot!("showcase_styled_full_100", out);
}

#[test]
fn live_frames_and_saved_log_draw_the_same_cards() {
    for cap in ["tour", "approvals"] {
        let live = fold(&common::capture_str(cap, "frames.jsonl"));
        let log = fold(&common::capture_str(cap, "session.jsonl.zstd"));
        assert_eq!(live.cards.len(), log.cards.len());
        let cases = [
            (Theme::dark(), 40, Density::Preview),
            (Theme::dark(), 100, Density::Full),
            (Theme::builtin("light").unwrap(), 160, Density::Full),
            (Theme::dark(), 80, Density::Line),
        ];
        for (theme, width, density) in cases {
            {
                {
                    let ctx = Ctx::new(width, &theme, density);
                    for (a, b) in live.cards.iter().zip(&log.cards) {
                        assert_eq!(a.call_id, b.call_id);
                        assert_eq!(
                            cards::render(a, &ctx),
                            cards::render(b, &ctx),
                            "{cap} {} at {width} {density:?}",
                            a.call_id
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn every_line_fits_every_width() {
    let t = fold(&common::capture_str("tour", "frames.jsonl"));
    let s = fold("demo-sessions/showcase.jsonl");
    for tr in [&t, &s] {
        for width in [1, 2, 7, 13, 40, 79, 121, 200] {
            for density in [Density::Line, Density::Preview, Density::Full] {
                let lines = deck::view::transcript::layout(
                    tr,
                    &Theme::dark(),
                    &LayoutOptions::new(width, density),
                );
                for l in &lines {
                    assert!(l.width() <= width, "{width} {density:?}: {:?}", l.text());
                }
            }
        }
    }
}
