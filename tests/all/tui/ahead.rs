//! A big followed file's end shown first (`deck follow`, `app::ahead`):
//! the end's cards on screen at once, the status bar saying the end is
//! shown and how far the read from the start is, its counts not final;
//! the whole folded behind, not shown, until the read is at the end — then
//! the same screen a follow of the whole shows. Turn numbers a reader
//! counted from the end's start are not shown (`turn …`). Through the
//! source: `live/follow.rs`; the real binary: `bench/first_screen.py`.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use crossterm::event::KeyCode;
use deck::app::{App, Msg};
use deck::source::live::Ahead;
use deck::wire::Record;

use crate::common::tui::*;

fn records(path: &str) -> (Option<String>, Vec<Record>) {
    let s = deck::source::load_path(path).unwrap().sessions.remove(0);
    (s.id, s.records)
}

fn follow(id: Option<String>) -> App {
    ready(App::live("f".into(), id, themes()), 100, 40)
}

fn status(app: &mut App) -> String {
    screen(app).lines().last().unwrap().to_string()
}

#[test]
fn a_followed_files_end_is_shown_first_then_the_whole_once_read_from_its_start() {
    let (id, all) = records(SHOWCASE);
    let mut reference = follow(id.clone());
    reference.update(Msg::Records(all.clone()));
    let want = screen(&mut reference);

    let mut app = follow(id);
    let read = Arc::new(AtomicU64::new(0));
    let end = all[all.len() * 2 / 3..].to_vec();
    app.update(Msg::Ahead(Ahead {
        records: end.clone(),
        read: read.clone(),
        size: 400,
        numbered: true,
    }));
    assert!(app.is_ahead());
    let shown = screen(&mut app);
    let s = status(&mut app);
    assert!(
        s.contains("the end first · reading from the start 0%"),
        "{s}"
    );
    assert!(s.contains("… cards"), "counts of the end only: {s}");
    // The end of a follow is the end of the whole: the last rows agree.
    let tail = |s: &str| {
        s.lines()
            .rev()
            .skip(1)
            .take(6)
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(tail(&shown), tail(&want), "{shown}");

    // The whole comes from its start, folded behind: the end stays shown.
    app.update(Msg::Records(all[..all.len() / 2].to_vec()));
    read.store(200, Ordering::Relaxed);
    let s = status(&mut app);
    assert!(s.contains("reading from the start 50%"), "{s}");
    assert_eq!(
        screen(&mut app).lines().rev().nth(2),
        shown.lines().rev().nth(2)
    );

    // `R` waits for the whole (a redacted copy of the end would be cut).
    app.update(key(KeyCode::Char('R')));
    assert!(
        status(&mut app).contains("still being read"),
        "{}",
        status(&mut app)
    );
    app.update(key(KeyCode::Esc));
    app.update(Msg::Records(all[all.len() / 2..].to_vec()));
    app.update(Msg::CaughtUp);
    assert!(!app.is_ahead());
    let got = screen(&mut app);
    assert_eq!(got, want, "once caught up, the whole as a follow shows it");
}

#[test]
fn turns_a_reader_counted_from_the_ends_start_are_not_numbered() {
    let (id, all) = records(
        "tests/fixtures/agents/claude-code/tour/7a3f1c2e-0d4b-4e8a-9c61-2b5d8e0f4a17.jsonl",
    );
    let mut app = follow(id);
    app.update(Msg::Ahead(Ahead {
        records: all,
        read: Arc::new(AtomicU64::new(0)),
        size: 1,
        numbered: false,
    }));
    let s = screen(&mut app);
    assert!(s.contains("── turn … "), "{s}");
    assert!(!s.contains("── turn 1"), "{s}");
}
