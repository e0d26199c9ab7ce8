//! Grapheme clusters on a real terminal (issue "Every card tells the
//! truth", stray glyphs): Devanagari, flags, ZWJ and skin-tone emoji and
//! combining accents, scrolled over with search and `g`. Terminals disagree
//! on how wide such clusters are (the emulator here gives a ZWJ family six
//! columns where deck's layout gives it two), so what is shown after
//! scrolling must be exactly what a full redraw shows: no fragment of an
//! earlier frame may stay until a resize.

use std::time::Duration;

use serde_json::json;

use crate::common::build::{call_data, event, frame, in_turn, result_data, text};
use crate::tui::pty::Tui;

/// Lines mixing every kind of cluster, shifted so scrolling moves different
/// clusters onto the same columns.
fn clustered(i: usize) -> String {
    let parts = [
        "नमस्ते दुनिया कि",
        "🇵🇹🇯🇵 flags",
        "👨‍👩‍👧 family",
        "👍🏽 thumbs",
        "cafe\u{301} combining",
        "x",
    ];
    let pad = " ".repeat(i % 7);
    let mut line = format!("{pad}{i:02}");
    for k in 0..parts.len() {
        line.push(' ');
        line.push_str(parts[(i + k) % parts.len()]);
    }
    line
}

/// A frame log of 14 calls, each printing a few such lines.
fn log(dir: &std::path::Path) -> String {
    let mut out = String::new();
    for c in 0..14u64 {
        let id = format!("call_{c}");
        let output: String = (0..4)
            .map(|k| clustered(c as usize * 4 + k) + "\n")
            .collect();
        let view = json!({"card": "terminal", "title": format!("show {c}"), "output": output, "exitCode": 0});
        let call = frame(
            event(
                "tool/call",
                c * 2 + 1,
                1_000 + c as i64,
                in_turn(call_data(&id, "bash", "{}")),
            ),
            None,
        );
        let result = frame(
            event(
                "tool/result",
                c * 2 + 2,
                1_001 + c as i64,
                in_turn(result_data(&id, json!([text(&output)]), false)),
            ),
            Some(("result", view)),
        );
        out.push_str(&format!("{call}\n{result}\n"));
    }
    let path = dir.join("clusters.jsonl");
    std::fs::write(&path, out).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn scrolling_over_clusters_leaves_what_a_full_redraw_shows() {
    let dir = tempfile::tempdir().unwrap();
    let path = log(dir.path());
    let mut tui = Tui::spawn(&["view", &path, "--theme", "dark"]);
    tui.wait_for("the first screen", |s| {
        s.contains("show 13") || s.contains("show 0")
    });
    tui.settle(Duration::from_millis(300));
    // Search for a word on many rows, step through matches, go to the top,
    // and scroll down and up again: every step redraws only what changed.
    tui.send("/combining\r");
    tui.wait_for("the match", |s| s.contains("match 1/"));
    for keys in ["n", "n", "g", "j", "j", "j", "k", "G", "g"] {
        tui.send(keys);
        tui.settle(Duration::from_millis(150));
    }
    let scrolled = tui.settle(Duration::from_millis(300));
    // A resize makes deck clear and draw everything again: the screen it
    // leaves at the same size is the expected one.
    tui.resize(90, 30);
    tui.settle(Duration::from_millis(300));
    tui.resize(100, 30);
    let redrawn = tui.settle(Duration::from_millis(400));
    // A blank cell is blank whether it was written as a space or never.
    let blank = |rows: Vec<Vec<(String, bool)>>| -> Vec<Vec<(String, bool)>> {
        rows.into_iter()
            .map(|row| {
                row.into_iter()
                    .map(|(c, w)| (if c.is_empty() { " ".into() } else { c }, w))
                    .collect()
            })
            .collect()
    };
    let (scrolled, redrawn) = (blank(scrolled), blank(redrawn));
    for (r, (a, b)) in scrolled.iter().zip(&redrawn).enumerate() {
        let text = |row: &Vec<(String, bool)>| row.iter().map(|c| c.0.as_str()).collect::<String>();
        assert_eq!(
            a,
            b,
            "row {r}: after scrolling\n{}\nafter a redraw\n{}",
            text(a),
            text(b)
        );
    }
    // The clusters themselves are on screen whole (combining accent with
    // its letter, in one cell).
    let all: Vec<String> = redrawn.iter().flatten().map(|c| c.0.clone()).collect();
    assert!(
        all.iter().any(|c| c == "e\u{301}"),
        "the accent stays on its letter"
    );
    tui.send("q");
    tui.wait_exit();
}
