//! Whole-session renders: the tour capture at 100 columns (snapshot), and the
//! promise that a live stream and a replay of the saved log draw the same cards.

use deck::cards::{self, Ctx, Density};
use deck::headless::{self, Format};
use deck::theme::Theme;
use deck::view::transcript::LayoutOptions;

use crate::common::dump::check_widths;
use crate::common::{self, build, fold, fold_session, load_text};

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
fn one_line_cards_read_as_a_list() {
    // At `line` density consecutive cards have no blank row between them;
    // everything else keeps its blank row. The streamed render, the whole
    // render and the TUI's list agree.
    let t = fold("demo-sessions/showcase.jsonl");
    let opts = LayoutOptions::new(100, Density::Line);
    let out = headless::render(&t, &Theme::dark(), &opts, None, Format::Text);
    insta::assert_snapshot!("showcase_text_line_100", out);
    let rows: Vec<&str> = out.lines().collect();
    let edit = rows.iter().position(|r| r.starts_with("✓ ± Edit")).unwrap();
    assert!(rows[edit + 1].starts_with("✓ ± Write"), "{out}");
    let mut streamed = Vec::new();
    headless::render_to(&mut streamed, &t, &Theme::dark(), &opts, None, Format::Text).unwrap();
    assert_eq!(String::from_utf8(streamed).unwrap(), out);
    let mut app = deck::app::App::viewer("s".into(), t, common::tui::themes());
    app.update(deck::app::Msg::Resize(102, 200));
    app.update(common::tui::ch('O'));
    app.update(common::tui::ch('O'));
    assert_eq!(app.density(), Density::Line);
    let screen = common::tui::screen(&mut app);
    let edit = screen.lines().position(|r| r.contains("✓ ± Edit")).unwrap();
    let next = screen.lines().nth(edit + 1).unwrap();
    assert!(next.contains("✓ ± Write"), "{screen}");
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
    for cap in common::CAPTURES {
        let live = fold(&common::capture_str(cap, "frames.jsonl"));
        let log = fold(&common::capture_str(cap, "session.jsonl.zstd"));
        assert_eq!(live.cards().len(), log.cards().len());
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
                    for (a, b) in live.cards().iter().zip(log.cards()) {
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
                check_widths(&lines, width, &format!("{density:?}"));
            }
        }
    }
}

#[test]
fn streamed_render_writes_the_same_bytes_as_the_whole_render() {
    // render_to lays out windows of items on every core and writes as it
    // goes; the bytes must be those of the one-piece render.
    let t = fold(&common::capture_str("tour", "frames.jsonl"));
    // More items than one window (64), so windows and their joins are
    // exercised: 150 user messages, each followed by a blank-free item.
    let lines: String = (0..150)
        .map(|i| {
            let time = 1_796_069_109_000 + i as i64;
            build::user_message(i, time, &format!("message {i}")).to_string() + "\n"
        })
        .collect();
    let many = fold_session(&load_text(&lines));
    assert!(many.items().len() > 128, "{} items", many.items().len());
    let big = fold("demo-sessions/showcase.jsonl");
    for t in [&t, &big, &many] {
        for (format, density) in [
            (Format::Ansi, Density::Full),
            (Format::Styled, Density::Preview),
            (Format::Text, Density::Line),
        ] {
            let opts = LayoutOptions::new(90, density);
            let whole = headless::render(t, &Theme::dark(), &opts, None, format);
            let mut streamed = Vec::new();
            headless::render_to(&mut streamed, t, &Theme::dark(), &opts, None, format).unwrap();
            assert_eq!(String::from_utf8(streamed).unwrap(), whole);
            let mut tail = Vec::new();
            headless::render_to(&mut tail, t, &Theme::dark(), &opts, Some(7), format).unwrap();
            let want = headless::render(t, &Theme::dark(), &opts, Some(7), format);
            assert_eq!(String::from_utf8(tail).unwrap(), want);
        }
    }
}

/// A session of one read card too big to lay out at once (over
/// `headless::HEAVY`): `deck render` streams its rows.
fn big_read() -> deck::session::Transcript {
    let lines: Vec<String> = (1..=9000)
        .map(|i| format!("line {i} of a long file"))
        .collect();
    let view = serde_json::json!({"card": "read", "path": "/w/big.txt", "offset": 1,
        "lines": lines.iter().enumerate()
            .map(|(i, l)| serde_json::json!({"number": i + 1, "text": l})).collect::<Vec<_>>()});
    let text = [
        build::frame(build::user_message(1, 1_000, "read it"), None),
        build::frame(
            build::event(
                "tool/call",
                2,
                1_001,
                build::in_turn(build::call_data("c1", "read", "{\"path\":\"/w/big.txt\"}")),
            ),
            None,
        ),
        build::frame(
            build::event(
                "tool/result",
                3,
                1_002,
                build::in_turn(build::result_data(
                    "c1",
                    serde_json::json!([build::text(&lines.join("\n"))]),
                    false,
                )),
            ),
            Some(("result", view)),
        ),
    ]
    .map(|v| v.to_string() + "\n")
    .concat();
    let t = fold_session(&load_text(&text));
    assert!(
        t.items()
            .iter()
            .any(|i| deck::view::transcript::item_weight(&t, i) >= headless::HEAVY)
    );
    t
}

/// A big card's rows follow each other: no empty row between them
/// (`deck render` streamed them with the item separator before every
/// row), in every format and density, the same bytes as the whole render;
/// a snapshot of its head at 60 columns.
#[test]
fn a_big_card_is_rendered_row_after_row() {
    let t = big_read();
    let visible = |l: &str| {
        let mut out = String::new();
        let mut esc = false;
        for c in l.chars() {
            match (esc, c) {
                (false, '\u{1b}') => esc = true,
                (true, c) if c.is_ascii_alphabetic() => esc = false,
                (false, c) => out.push(c),
                _ => {}
            }
        }
        out
    };
    for density in [Density::Preview, Density::Full] {
        let opts = LayoutOptions::new(60, density);
        let streamed = |format| {
            let mut out = Vec::new();
            headless::render_to(&mut out, &t, &Theme::dark(), &opts, None, format).unwrap();
            String::from_utf8(out).unwrap()
        };
        for format in [Format::Text, Format::Ansi] {
            let out = streamed(format);
            let empty = out.lines().filter(|l| visible(l).trim().is_empty()).count();
            // One between the prompt and the card at most.
            assert!(empty <= 1, "{density:?} {format:?}: {empty} empty rows");
            assert!(out == headless::render(&t, &Theme::dark(), &opts, None, format));
        }
        let text = streamed(Format::Text);
        let head: Vec<&str> = text.lines().take(12).collect();
        insta::assert_snapshot!(format!("big_read_{density:?}"), head.join("\n"));
    }
}
