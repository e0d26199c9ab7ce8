//! A file shown while it is still read (`deck view` of a big log,
//! `app::opening`): the records read so far on screen, the rest folded in
//! as they come, the status bar saying how far the read is and that its
//! counts are not final (`12… cards`); at the end the same app a whole load
//! makes — the same cards, the counts known, a second session found late
//! given its picker, a read out of order shown as read whole, a read that
//! stopped said. Through the real binary: `pty_opening` below.

use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use crossterm::event::KeyCode;
use deck::app::file_sessions::FileMode;
use deck::app::loading::{LoadEnd, Loading};
use deck::app::{App, Msg};
use deck::wire::Record;

use crate::common::build::two_sessions;
use crate::common::tui::*;
use crate::tui::pty::Tui;

/// An app of `records` so far shown as `mode` says, read 3 of 10 bytes,
/// 100×40.
fn opening_as(mode: FileMode, id: Option<String>, records: Vec<Record>) -> (App, Arc<AtomicU64>) {
    let bytes = Arc::new(AtomicU64::new(3));
    let loading = Loading {
        bytes: bytes.clone(),
        total: 10,
        mode,
        refocus: None,
    };
    (
        ready(App::opening("f".into(), id, records, loading), 100, 40),
        bytes,
    )
}

fn opening(id: Option<String>, records: Vec<Record>) -> (App, Arc<AtomicU64>) {
    opening_as(FileMode::View, id, records)
}

/// `path` loaded whole and shown as `mode` says, 100×40.
fn whole_as(mode: FileMode, path: &str) -> App {
    let loaded = deck::source::load_path(path).unwrap();
    ready(
        App::from_file("f".into(), loaded, None, mode).unwrap(),
        100,
        40,
    )
}

fn whole(path: &str) -> App {
    whole_as(FileMode::View, path)
}

fn end(id: Option<String>) -> LoadEnd {
    LoadEnd {
        shown: 0,
        id,
        sessions: Vec::new(),
        whole: None,
        failed: None,
    }
}

fn loaded_records(path: &str) -> Vec<Record> {
    deck::source::load_path(path)
        .unwrap()
        .sessions
        .remove(0)
        .records
}

fn status(app: &mut App) -> String {
    screen(app).lines().last().unwrap().to_string()
}

#[test]
fn a_file_shown_as_it_is_read_ends_as_the_whole_load_shows_it() {
    let path = SHOWCASE;
    let loaded = deck::source::load_path(path).unwrap();
    let session = loaded.sessions.into_iter().next().unwrap();
    let mut records = session.records;
    let rest = records.split_off(5);
    let (mut app, bytes) = opening(None, records);
    let s = status(&mut app);
    assert!(s.contains("loading 30%"), "{s}");
    assert!(s.contains("… cards"), "{s}");
    // What is read comes in batches; the screen stays at the start.
    let first = screen(&mut app).lines().next().unwrap().to_string();
    for batch in rest.chunks(7) {
        app.update(Msg::Records(batch.to_vec()));
        bytes.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }
    assert_eq!(
        screen(&mut app).lines().next().unwrap(),
        first,
        "not moved, no news badge"
    );
    assert!(!screen(&mut app).contains(" new"), "{}", screen(&mut app));
    // A search while it is read finds what is read; at the end, all of it.
    let all_records = loaded_records(path);
    let (mut part, _) = opening(None, all_records[..40].to_vec());
    typed(&mut part, "/test");
    part.update(key(KeyCode::Enter));
    let some = status(&mut part);
    part.update(Msg::Records(all_records[40..].to_vec()));
    part.update(Msg::Loaded(Box::new(end(None))));
    let all = status(&mut part);
    let mut want = whole(path);
    typed(&mut want, "/test");
    want.update(key(KeyCode::Enter));
    let of = |s: &str| -> usize {
        let m = s.split(" for ").next().unwrap();
        m.rsplit('/')
            .next()
            .unwrap()
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("{s}"))
    };
    assert!(some.contains("match 1/46 for \"test\""), "{some}");
    assert!(
        all.contains("read to the end: \"test\" found again"),
        "{all}"
    );
    part.update(ch('n'));
    want.update(ch('n'));
    let (got, wanted) = (status(&mut part), status(&mut want));
    assert_eq!(of(&got), of(&wanted), "{got} / {wanted}");
    assert!(of(&wanted) > 46, "{wanted}");
    app.update(Msg::Loaded(Box::new(end(session.id.clone()))));
    let mut want = whole(path);
    assert_eq!(
        app.transcript().cards().len(),
        want.transcript().cards().len()
    );
    assert_eq!(
        app.transcript().session_id(),
        want.transcript().session_id()
    );
    let s = status(&mut app);
    assert!(!s.contains("… cards") && !s.contains("loading"), "{s}");
    assert_eq!(screen(&mut app), screen(&mut want));
    // And at the end (`G`), the same.
    app.update(ch('G'));
    want.update(ch('G'));
    assert_eq!(screen(&mut app), screen(&mut want));
}

#[test]
fn a_second_session_found_late_is_offered_by_its_picker() {
    let loaded = deck::source::load_bytes("two", two_sessions().as_bytes()).unwrap();
    assert_eq!(loaded.sessions.len(), 2);
    let mut sessions = loaded.sessions;
    let first = std::mem::take(&mut sessions[0].records);
    let id = sessions[0].id.clone();
    let (mut app, _) = opening(id.clone(), first);
    let cards = app.transcript().cards().len();
    app.update(Msg::Loaded(Box::new(LoadEnd {
        sessions,
        ..end(id.clone())
    })));
    let s = screen(&mut app);
    assert!(
        s.contains("this file holds 2 sessions · S picks one"),
        "{s}"
    );
    app.update(ch('S'));
    assert_eq!(app.modal().picker(), Some(0), "on the session shown");
    app.update(ch('j'));
    app.update(key(KeyCode::Enter));
    assert!(screen(&mut app).contains("beta output 1"));
    // Back to the first: its records are those the app held.
    app.update(ch('S'));
    app.update(ch('k'));
    app.update(key(KeyCode::Enter));
    assert_eq!(app.transcript().session_id(), id.as_deref());
    assert_eq!(app.transcript().cards().len(), cards);
    assert!(screen(&mut app).contains("alpha output"));
}

#[test]
fn a_read_that_may_differ_is_shown_as_read_whole_and_one_that_stopped_says_so() {
    let path = SHOWCASE;
    let loaded = deck::source::load_path(path).unwrap();
    let mut records = loaded.sessions[0].records.clone();
    // As if it came out of order: the end first.
    records.reverse();
    let (mut app, _) = opening(None, records);
    app.update(Msg::Loaded(Box::new(LoadEnd {
        whole: Some((loaded, "events out of seq order".into())),
        ..end(None)
    })));
    let mut want = whole(path);
    assert_eq!(screen(&mut app), screen(&mut want));

    let loaded = deck::source::load_path(path).unwrap();
    let mut records = loaded.sessions[0].records.clone();
    records.truncate(9);
    let (mut app, _) = opening(None, records);
    app.update(Msg::Loaded(Box::new(LoadEnd {
        failed: Some("disk gone".into()),
        ..end(None)
    })));
    let s = status(&mut app);
    assert!(s.contains("the read stopped: disk gone"), "{s}");
    assert!(s.contains(" 0 cards ·") && !s.contains("loading"), "{s}");
}

/// The file opened through the binary as a big one is (shown at once, the
/// rest read behind it) ends on the screen a whole load draws.
#[test]
fn pty_opening_ends_on_the_screen_of_a_whole_load() {
    let path = SHOWCASE;
    let at = |after: &str| {
        let mut tui = Tui::spawn_with(
            &["view", path, "--theme", "dark"],
            &[("DECK_OPEN_AFTER_MS", after)],
        );
        let s = tui.wait_for("the cards, counted", |s| {
            s.lines()
                .last()
                .is_some_and(|l| l.contains(" cards ·") && !l.contains("… cards"))
        });
        tui.send("q");
        assert!(tui.wait_exit().success());
        tui.assert_restored();
        s
    };
    // (A running card's spinner turns with the clock: not compared.)
    let calm = |s: String| s.replace(|c: char| ('\u{2800}'..='\u{28ff}').contains(&c), "*");
    assert_eq!(calm(at("0")), calm(at("60000")));
}

#[test]
fn a_replay_of_a_file_still_read_plays_on_as_it_comes_and_ends_as_a_whole_one() {
    use deck::app::file_sessions::ReplayOpts;
    let opts = ReplayOpts {
        idle_ms: Some(3000),
        speed: 64.0,
        at: None,
        paused: false,
    };
    let loaded = deck::source::load_path(SHOWCASE).unwrap();
    let mut records = loaded.sessions[0].records.clone();
    let rest = records.split_off(5);
    let (mut app, _) = opening_as(FileMode::Replay(opts), None, records);
    let tick = |app: &mut App| {
        app.update(Msg::Tick {
            real_ms: 1e9,
            now_ms: NOW_MS,
        });
    };
    // Played past what is read: it waits for more, it does not end.
    tick(&mut app);
    let p = app.player().unwrap();
    assert!(p.playing && p.at_end() && p.is_growing());
    let s = status(&mut app);
    assert!(
        s.contains("event 4/4") && s.contains("· loading 30%"),
        "{s}"
    );
    for batch in rest.chunks(9) {
        app.update(Msg::Records(batch.to_vec()));
        tick(&mut app);
    }
    app.update(Msg::Loaded(Box::new(end(None))));
    tick(&mut app);
    assert!(
        !app.player().unwrap().playing,
        "the end of the file ends the play"
    );

    let mut want = whole_as(FileMode::Replay(opts), SHOWCASE);
    tick(&mut want);
    assert_eq!(
        app.player().unwrap().events(),
        want.player().unwrap().events()
    );
    assert_eq!(
        app.player().unwrap().duration_ms(),
        want.player().unwrap().duration_ms()
    );
    assert_eq!(
        app.player().unwrap().turn_marks(),
        want.player().unwrap().turn_marks()
    );
    // (Running cards' spinners turn with the ticks each was given.)
    let calm = |s: String| s.replace(|c: char| ('\u{2800}'..='\u{28ff}').contains(&c), "*");
    assert_eq!(calm(screen(&mut app)), calm(screen(&mut want)));
    // And a seek back plays the same.
    app.update(ch('0'));
    want.update(ch('0'));
    assert_eq!(calm(screen(&mut app)), calm(screen(&mut want)));
}

#[test]
fn redaction_in_a_replay_waits_for_the_end_of_the_read() {
    use deck::app::file_sessions::ReplayOpts;
    let opts = ReplayOpts {
        idle_ms: None,
        speed: 1.0,
        at: None,
        paused: true,
    };
    let loaded = deck::source::load_path(SHOWCASE).unwrap();
    let records = loaded.sessions[0].records[..20].to_vec();
    let (mut app, _) = opening_as(FileMode::Replay(opts), None, records);
    app.update(ch('R'));
    let s = status(&mut app);
    assert!(s.contains("R: the file is still being read"), "{s}");
    app.update(Msg::Loaded(Box::new(end(None))));
    app.update(ch('R'));
    let s = status(&mut app);
    assert!(s.contains("redacted"), "{s}");
}

/// A file found to hold a second session after its first screen, through
/// the binary: read again whole at the end (the view kept no records), its
/// picker offered, the other session shown from it.
#[test]
fn pty_a_second_session_found_late_is_offered_by_its_picker() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("two.frames.jsonl");
    std::fs::write(&path, two_sessions()).unwrap();
    let path = path.to_string_lossy().into_owned();
    let mut tui = Tui::spawn_with(
        &["view", &path, "--theme", "dark"],
        &[("DECK_OPEN_AFTER_MS", "0")],
    );
    tui.wait_for("the picker offered", |s| {
        s.contains("this file holds 2 sessions · S picks one")
    });
    tui.send("S");
    tui.wait_for("the picker", |s| s.contains("Esc close"));
    tui.send("j\r");
    tui.wait_for("the second session", |s| s.contains("beta output 1"));
    tui.send("q");
    assert!(tui.wait_exit().success());
    tui.assert_restored();
}
