//! `deck export`: the asciicast is a valid asciicast v2 file whose output,
//! played through a terminal emulator, ends on the screen deck draws (on
//! the theme's own background, as the TUI paints it); the HTML page is
//! well-formed, self-contained and holds every card.

use std::sync::Arc;

use deck::commands::export::cast::{CastOptions, write_cast};
use deck::theme::Theme;
use serde_json::Value;

use crate::common;

fn records(path: &str) -> (Option<String>, Arc<Vec<deck::wire::Record>>) {
    let s = common::load(path);
    (s.id, Arc::new(s.records))
}

fn opts(w: u16, h: u16) -> CastOptions {
    CastOptions {
        width: w,
        height: h,
        speed: 2.0,
        idle_limit_ms: Some(1500),
        theme: Theme::dark(),
        title: "test".into(),
    }
}

/// The screen deck itself draws at the end of the replay.
fn final_screen(
    sid: Option<String>,
    recs: Arc<Vec<deck::wire::Record>>,
    o: &CastOptions,
) -> Vec<String> {
    common::tui::replay_final_screen(
        sid,
        recs,
        o.idle_limit_ms,
        o.speed,
        &o.theme,
        (o.width, o.height),
    )
}

#[test]
fn the_cast_records_the_theme_background_as_the_tui_paints_it() {
    let (sid, recs) = records("demo-sessions/showcase.jsonl");
    let o = CastOptions {
        theme: Theme::builtin("light").unwrap(),
        ..opts(80, 24)
    };
    let mut out = Vec::new();
    write_cast(recs, sid, &o, &mut out).unwrap();
    let mut vt = vt100::Parser::new(24, 80, 0);
    for l in String::from_utf8(out).unwrap().lines().skip(1) {
        let ev: Vec<Value> = serde_json::from_str(l).unwrap();
        if ev[1] == "o" {
            vt.process(ev[2].as_str().unwrap().as_bytes());
        }
    }
    // The top right corner: nothing drawn there but the background.
    let corner = vt.screen().cell(0, 79).map(vt100::Cell::bgcolor);
    assert_eq!(corner, Some(vt100::Color::Rgb(0xff, 0xff, 0xff)));
}

#[test]
fn the_cast_is_asciicast_v2_and_replays_to_the_screen_deck_draws() {
    for (path, w, h) in [
        (common::capture_str("tour", "frames.jsonl"), 100, 30),
        ("demo-sessions/showcase.jsonl".to_string(), 120, 40),
        (common::capture_str("approvals", "frames.jsonl"), 80, 24),
    ] {
        let (sid, recs) = records(&path);
        let o = opts(w, h);
        let mut out = Vec::new();
        let stats = write_cast(recs.clone(), sid.clone(), &o, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let mut lines = text.lines();
        let header: Value = serde_json::from_str(lines.next().unwrap()).unwrap();
        assert_eq!(header["version"], 2);
        assert_eq!(
            (header["width"].as_u64(), header["height"].as_u64()),
            (Some(w as u64), Some(h as u64))
        );
        let mut vt = vt100::Parser::new(h, w, 0);
        let (mut last, mut frames, mut markers) = (0.0f64, 0, 0);
        for l in lines {
            let ev: Vec<Value> = serde_json::from_str(l).unwrap();
            assert_eq!(ev.len(), 3, "{l}");
            let t = ev[0].as_f64().unwrap();
            assert!(t >= last, "times go forward: {t} after {last}");
            last = t;
            let data = ev[2].as_str().unwrap();
            match ev[1].as_str().unwrap() {
                "o" => {
                    vt.process(data.as_bytes());
                    frames += 1;
                }
                "m" => {
                    assert!(data.starts_with("turn "), "{data}");
                    markers += 1;
                }
                other => panic!("event type {other}"),
            }
        }
        assert_eq!((frames, markers), (stats.frames, stats.markers));
        assert!(frames > 2, "{path}: {frames} frames");
        let turns = recs
            .iter()
            .filter(|r| matches!(r, deck::wire::Record::Event { event, .. } if event.kind == deck::wire::EventKind::TurnStart))
            .count();
        assert_eq!(markers, turns);
        // The emulator's screen is the one deck draws at the end.
        let played: Vec<String> = vt
            .screen()
            .rows(0, w)
            .map(|r| r.trim_end().to_string())
            .collect();
        assert!(played.iter().any(|r| r.contains("turn")), "{played:?}");
        assert_eq!(played, final_screen(sid, recs, &o), "{path}");
        // A recording: no `? help` to press; the cursor shown at the end.
        assert!(!text.contains("? help"), "{path}");
        assert!(text.trim_end().ends_with(r#""o","\u001b[?25h"]"#), "{path}");
        // Same input, same bytes.
        let (sid2, recs2) = records(&path);
        let mut again = Vec::new();
        write_cast(recs2, sid2, &o, &mut again).unwrap();
        assert_eq!(String::from_utf8(again).unwrap(), text);
    }
}

#[test]
fn the_html_page_is_well_formed_self_contained_and_has_every_card() {
    let dir = tempfile::tempdir().unwrap();
    for (path, theme) in [
        (common::capture_str("tour", "frames.jsonl"), "dark"),
        ("demo-sessions/showcase.jsonl".to_string(), "light"),
    ] {
        let out = dir.path().join("page.html");
        common::deck_ok(&[
            "export",
            &path,
            "--format",
            "html",
            "--theme",
            theme,
            "-o",
            out.to_str().unwrap(),
        ]);
        let html = std::fs::read_to_string(&out).unwrap();
        // Titled by the session's title (the showcase has one too); cards
        // folded to their header, but those that went wrong.
        let t = common::fold(&path);
        let title = t.title().unwrap();
        assert!(html.contains(&format!("<title>{title}</title>")), "{path}");
        assert!(html.contains(&format!("<h1>{title}</h1>")), "{path}");
        assert_eq!(
            html.matches("open=\"open\"").count(),
            t.cards().iter().filter(|c| c.status.is_bad()).count(),
            "{path}"
        );
        // Well-formed: every element closed, every entity valid.
        let mut reader = quick_xml::Reader::from_str(&html);
        let mut text = String::new();
        let (mut depth, mut details) = (0i64, 0);
        loop {
            match reader.read_event() {
                Ok(quick_xml::events::Event::Start(e)) => {
                    depth += 1;
                    if e.name().as_ref() == b"details" {
                        details += 1;
                    }
                }
                Ok(quick_xml::events::Event::End(_)) => depth -= 1,
                Ok(quick_xml::events::Event::Text(t)) => {
                    text.push_str(&t.decode().unwrap());
                }
                Ok(quick_xml::events::Event::GeneralRef(r)) => {
                    let name = r.decode().unwrap();
                    text.push_str(match name.as_ref() {
                        "amp" => "&",
                        "lt" => "<",
                        "gt" => ">",
                        "quot" => "\"",
                        "#39" => "'",
                        other => panic!("unexpected entity {other}"),
                    });
                }
                Ok(quick_xml::events::Event::Eof) => break,
                Ok(_) => {}
                Err(e) => panic!("not well-formed at {}: {e}", reader.buffer_position()),
            }
            assert!(depth >= 0);
        }
        assert_eq!(depth, 0, "every element closed");
        // Self-contained: nothing to fetch, nothing to run.
        for banned in ["<script", " src=", "<link", "@import", "url("] {
            assert!(!html.contains(banned), "{banned}");
        }
        // Every card, foldable, with its title.
        let t = common::fold(&path);
        assert_eq!(details, t.cards().len());
        for card in t.cards().iter() {
            let title = deck::cards::resolve(card).title;
            let shown = deck::text::sanitize::inline(&title);
            let head: String = shown.chars().take(30).collect();
            assert!(text.contains(&head), "{head}");
        }
        // The theme's colours are there.
        assert!(html.contains("style=\"color:#"), "coloured spans");
        // Text wraps to the browser's window, not at a fixed width: no
        // continuation marks, no header padded out to a column.
        assert!(html.contains("white-space: pre-wrap"), "{path}");
        assert!(!text.contains('↪'), "{path}");
        assert!(!text.contains("          exit 0"), "{path}");
    }
}
