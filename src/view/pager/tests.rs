use super::*;
use crate::wire::{Frame, Origin, Record};
use serde_json::json;

fn transcript(frames: &[serde_json::Value]) -> Transcript {
    let records: Vec<Record> = frames
        .iter()
        .map(|f| Record::from_frame(Frame::from_value(f).unwrap(), Origin::default()))
        .collect();
    Transcript::from_records(None, &records, crate::agents::stock())
}

#[test]
fn g_stays_at_the_end_while_the_card_grows() {
    let line = |i: usize| Line::styled(format!("row {i}"), ratatui::style::Style::default());
    let mut p = Pager::new(0);
    p.lines = (0..10).map(line).collect();
    p.go_to_end(4);
    assert_eq!(p.scroll, 6);
    // The rest of the card arrives from the layout thread.
    p.lines = (0..100).map(line).collect();
    p.scroll_by(0, 4);
    assert_eq!(p.scroll, 96, "still at the end");
    p.scroll_by(-1, 4);
    assert_eq!(p.scroll, 95);
    p.lines = (0..200).map(line).collect();
    p.scroll_by(0, 4);
    assert_eq!(p.scroll, 95, "scrolled away: stays put");
    p.go_to_end(4);
    p.go_to_top();
    p.lines = (0..300).map(line).collect();
    p.scroll_by(0, 4);
    assert_eq!(p.scroll, 0);
}

#[test]
fn matches_are_numbered() {
    let mut p = Pager::new(0);
    p.lines = ["a x", "b", "x c", "x"]
        .iter()
        .map(|t| Line::styled(*t, ratatui::style::Style::default()))
        .collect();
    p.set_query("x");
    assert_eq!(p.match_note(), None);
    assert!(p.next_match(true, 2));
    assert_eq!(p.match_note().as_deref(), Some("match 1/3"));
    assert!(p.next_match(false, 2));
    assert_eq!(p.match_note().as_deref(), Some("match 3/3"));
}

/// A read card of `n` lines of Rust (a block comment across lines, so
/// colours depend on state carried from line to line).
fn read_transcript(n: usize) -> Transcript {
    let lines: Vec<_> = (1..=n)
        .map(|i| {
            let text = match i % 5 {
                0 => format!("/* a comment {i}"),
                1 => "   still inside */".to_string(),
                _ => format!(
                    "fn f{i}(x: u32) -> u32 {{ x + {i} }} // a line long enough to be heavy"
                ),
            };
            json!({"number": i, "text": text})
        })
        .collect();
    transcript(&[
        json!({"type":"session/event","sessionId":"s","event":{"type":"tool/call","seq":0,"time":1,
            "data":{"callId":"c","name":"x","arguments":"{}"}},"view":{"for":"call","view":{"card":"generic","title":"Read big.rs"}}}),
        json!({"type":"session/event","sessionId":"s","event":{"type":"tool/result","seq":1,"time":2,
            "data":{"message":{"content":[{"type":"tool-result","toolCallId":"c","content":[],"isError":false}]}}},
            "view":{"for":"result","view":{"card":"read","path":"/w/big.rs","offset":1,"lines":lines,
            "totalLines":n + 5,"lang":"rs"}}}),
    ])
}

fn wait_for(p: &mut Pager, mut done: impl FnMut(&Pager) -> bool) {
    for _ in 0..2400 {
        p.poll();
        if done(p) {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(25));
    }
    panic!("the layout thread did not deliver");
}

#[test]
fn a_big_read_card_opens_with_its_first_rows_then_all_text_then_colours() {
    let t = read_transcript(6_000);
    let theme = Theme::dark();
    let card = &t.cards()[0];
    assert!(worker::weight(card) > worker::HEAVY_BYTES);
    let full = crate::cards::render(card, &crate::cards::Ctx::new(100, &theme, Density::Full));
    let mut p = Pager::new(0);
    let first = p.build(&t, &theme, 100).to_vec();
    // At once: the card's real first rows, colours and all (header with
    // the whole range, gutter as wide as the last number needs).
    assert_eq!(p.progress(), Some("laying out the rest …"));
    assert_eq!(first.len(), HEAD_LINES + 2);
    assert_eq!(first[..], full[..first.len()]);
    assert!(
        first[0].text().contains("lines 1–6000 of 6005"),
        "{:?}",
        first[0].text()
    );
    assert_eq!(p.title(), "Read big.rs");
    // Then all the text (the head keeps its colours)…
    wait_for(&mut p, |p| p.progress() != Some("laying out the rest …"));
    if p.progress().is_some() {
        assert_eq!(p.len(), full.len());
        assert_eq!(p.lines[..first.len()], first[..]);
        let texts = |l: &[Line]| l.iter().map(Line::text).collect::<Vec<_>>();
        assert_eq!(texts(&p.lines), texts(&full));
    }
    // …then the coloured layout, exactly the card's.
    wait_for(&mut p, |p| p.progress().is_none());
    assert_eq!(p.lines, full);
    assert!(!p.is_laying_out());
}

#[test]
fn a_heavy_read_card_with_few_lines_is_drawn_whole_at_once() {
    // Heavy by its long lines, but under the head's line count.
    let long = "x".repeat(2_000);
    let lines: Vec<_> = (1..=200)
        .map(|i| json!({"number": i, "text": long}))
        .collect();
    let t = transcript(&[
        json!({"type":"session/event","sessionId":"s","event":{"type":"tool/call","seq":0,"time":1,
            "data":{"callId":"c","name":"x","arguments":"{}"}}}),
        json!({"type":"session/event","sessionId":"s","event":{"type":"tool/result","seq":1,"time":2,
            "data":{"message":{"content":[{"type":"tool-result","toolCallId":"c","content":[],"isError":false}]}}},
            "view":{"for":"result","view":{"card":"read","path":"a.txt","lines":lines,"totalLines":200}}}),
    ]);
    let theme = Theme::dark();
    assert!(worker::weight(&t.cards()[0]) > worker::HEAVY_BYTES);
    let mut p = Pager::new(0);
    let rows = p.build(&t, &theme, 80).to_vec();
    assert!(!p.is_laying_out());
    let full = crate::cards::render(
        &t.cards()[0],
        &crate::cards::Ctx::new(80, &theme, Density::Full),
    );
    assert_eq!(rows, full);
}

fn heavy_transcript() -> Transcript {
    let output = "a line of output that repeats\n".repeat(20_000);
    let frames = [
        json!({"type":"session/event","sessionId":"s","event":{"type":"tool/call","seq":0,"time":1,
            "data":{"callId":"c","name":"x","arguments":"{}"}},"view":{"for":"call","view":{"card":"terminal","title":"big"}}}),
        json!({"type":"session/event","sessionId":"s","event":{"type":"tool/result","seq":1,"time":2,
            "data":{"message":{"content":[{"type":"tool-result","toolCallId":"c","content":[],"isError":false}]}}},
            "view":{"for":"result","view":{"card":"terminal","output":output,"exitCode":0}}}),
    ];
    let records: Vec<Record> = frames
        .iter()
        .map(|f| Record::from_frame(Frame::from_value(f).unwrap(), Origin::default()))
        .collect();
    Transcript::from_records(None, &records, crate::agents::stock())
}

#[test]
fn heavy_cards_open_with_a_placeholder_then_fill_in() {
    let t = heavy_transcript();
    let theme = Theme::dark();
    let mut p = Pager::new(0);
    let first = p.build(&t, &theme, 80).to_vec();
    assert!(p.is_laying_out());
    assert_eq!(first.len(), 2);
    assert!(first[1].text().contains("laying out"));
    // The plain layout, then the coloured one.
    wait_for(&mut p, |p| p.progress() != Some("laying out the rest …"));
    wait_for(&mut p, |p| !p.is_laying_out());
    assert!(p.len() > 20_000, "{}", p.len());
    // Built now: building again is a cache hit, not a new job.
    p.build(&t, &theme, 80);
    assert!(!p.is_laying_out());
    p.set_query("repeats");
    assert!(p.next_match(true, 20));
}
