//! Whole screens of the TUI, drawn by `deck::app::draw::draw` into a ratatui
//! buffer at 80×24 and 140×45 and snapshotted as text (one also with its
//! styles): the tour in the viewer, a card expanded, the pager, a search,
//! the help overlay and the player at 0 %, 50 % and 100 %. Deterministic:
//! the dark theme, a fixed clock, no environment. Also: running cards count
//! time on the session's clock, and tiny terminals draw without panicking.

use crossterm::event::KeyCode;
use deck::app::keys::Action;
use deck::app::{App, Msg};
use deck::cards::chrome::format_duration;
use deck::session::Status;

use crate::common;
use crate::common::tui::*;

const SIZES: [(u16, u16); 2] = [(80, 24), (140, 45)];

/// Snapshot the screen of `app` after `keys`, at both sizes.
fn snap_both(name: &str, make: impl Fn(u16, u16) -> App, keys: impl Fn(&mut App)) {
    for (w, h) in SIZES {
        let mut app = make(w, h);
        keys(&mut app);
        let s = screen(&mut app);
        assert_eq!(s.lines().count(), h as usize);
        insta::assert_snapshot!(format!("{name}_{w}x{h}"), s);
    }
}

fn tour_at(w: u16, h: u16) -> App {
    viewer_sized(&tour_path(), w, h)
}

fn tour_replay(w: u16, h: u16) -> App {
    replayer_sized(&tour_path(), None, w, h)
}

#[test]
fn transcript() {
    snap_both("transcript", tour_at, |_| {});
}

#[test]
fn focused_card_expanded() {
    // The todo card: its preview is capped, in full it shows every line.
    snap_both("card_expanded", tour_at, |app| {
        for _ in 0..20 {
            app.update(ch('j'));
        }
        app.update(key(KeyCode::Enter));
    });
}

#[test]
fn pager() {
    // The first Edit card (a diff), full screen.
    snap_both("pager", tour_at, |app| {
        for _ in 0..9 {
            app.update(ch('j'));
        }
        app.update(ch('v'));
    });
}

#[test]
fn search_with_matches() {
    snap_both("search", tour_at, |app| {
        typed(app, "/notes.md");
        app.update(key(KeyCode::Enter));
        app.update(ch('n'));
    });
}

#[test]
fn search_prompt() {
    snap_both("search_prompt", tour_at, |app| {
        typed(app, "/exit co");
    });
}

#[test]
fn help_overlay() {
    snap_both("help", tour_at, |app| {
        app.update(ch('?'));
    });
}

#[test]
fn player_at_0_50_and_100_percent() {
    snap_both("player_0", tour_replay, |app| {
        app.update(ch('0'));
    });
    snap_both("player_50", tour_replay, |app| {
        app.update(ch('5'));
    });
    snap_both("player_100", tour_replay, |app| {
        app.act(Action::Jump(10));
    });
    let mut app = tour_replay(80, 24);
    app.act(Action::Jump(10));
    let p = app.player().unwrap();
    assert!(p.at_end() && !p.playing);
    let (done, all) = p.events();
    assert_eq!(done, all);
    let end = format!("event {all}/{all}");
    assert!(screen(&mut app).contains(&end));
}

#[test]
fn search_with_styles() {
    let mut app = tour_at(80, 24);
    typed(&mut app, "/notes.md");
    app.update(key(KeyCode::Enter));
    let buf = draw(&mut app);
    let out = styled(&buf);
    // The dark theme's match style is on the hits.
    let hl = deck::headless::writer::describe_style(app.theme().style(deck::theme::Role::Match));
    assert!(out.contains(&hl), "{out}");
    insta::assert_snapshot!("search_styled_80x24", out);
}

/// The item of the first running card.
fn running_card(app: &App) -> deck::session::ToolCard {
    let t = app.transcript();
    t.cards()
        .iter()
        .find(|c| c.status == Status::Pending)
        .map(|c| (**c).clone())
        .expect("a running card")
}

#[test]
fn running_cards_count_time_on_the_session_clock() {
    // A saved session: its running card ran until the last event, however
    // old the file is and whatever the wall clock says.
    let mut app = viewer_sized(SHOWCASE, 80, 24);
    app.update(ch('G'));
    let card = running_card(&app);
    let last = app.transcript().last_time().unwrap();
    let want = format!("running {}", format_duration(last - card.started.unwrap()));
    let before = screen(&mut app);
    assert!(before.contains(&want), "{want}\n{before}");
    app.update(Msg::Tick {
        real_ms: 0.0,
        now_ms: NOW_MS + 86_400_000,
    });
    assert_eq!(screen(&mut app), before, "a day later, the same screen");

    // A replay: the player's clock, also when the wall clock moves.
    let mut app = tour_replay(80, 24);
    app.update(ch('5'));
    let a = screen(&mut app);
    app.update(Msg::Tick {
        real_ms: 0.0,
        now_ms: NOW_MS + 86_400_000,
    });
    assert_eq!(screen(&mut app), a);
    let card = running_card(&app);
    let now = app.player().unwrap().session_time_ms().unwrap();
    let want = format!("running {}", format_duration(now - card.started.unwrap()));
    assert!(a.contains(&want), "{want}\n{a}");

    // A live session: the wall clock.
    let records = common::load(SHOWCASE).records;
    let mut app = App::live("live".into(), None, themes());
    app.update(Msg::Resize(80, 24));
    app.update(Msg::Records(records));
    let started = running_card(&app).started.unwrap();
    app.update(Msg::Tick {
        real_ms: 0.0,
        now_ms: started + 65_000,
    });
    assert!(screen(&mut app).contains("running 1m05s"));
}

#[test]
fn tiny_terminals_draw_without_panicking() {
    for (w, h) in [(80, 1), (80, 2), (1, 1), (2, 3), (10, 3), (20, 6)] {
        for keys in ["", "?", "v", "/ab", "v/ab", "G?", "v?"] {
            let mut app = tour_viewer();
            typed(&mut app, keys);
            app.update(Msg::Resize(w, h));
            let rows = rows(&draw(&mut app));
            assert_eq!(rows.len(), h as usize, "{w}×{h} {keys:?}");
        }
        let mut app = replayer_sized(&tour_path(), None, w, h);
        typed(&mut app, "5?");
        let rows = rows(&draw(&mut app));
        assert_eq!(rows.len(), h as usize, "replay {w}×{h}");
    }
    // One row: the status bar alone.
    let mut app = tour_viewer();
    app.update(ch('?'));
    app.update(Msg::Resize(80, 1));
    assert!(screen(&mut app).contains("31 cards · 10 errors"));
}
