//! A file holding several sessions in `deck view` and `deck replay`: the
//! session picker comes first (`q` there quits), Enter shows the chosen
//! session, `S` switches to another (a replay starts it from its start),
//! and a file of one session says so. The same through the real binary:
//! `tui/pty_sessions.rs`.

use crossterm::event::KeyCode;
use deck::app::file_sessions::{FileMode, ReplayOpts};
use deck::app::{App, Effect, Msg};
use deck::cli::PlayerArgs;
use deck::commands::replay::replay_app;

use crate::common::build::two_sessions;
use crate::common::tui::*;

const NAME: &str = "two.frames.jsonl";

fn loaded() -> deck::source::Loaded {
    deck::source::load_bytes(NAME, two_sessions().as_bytes()).unwrap()
}

/// An app over the two sessions as `mode` shows them, 100×30.
fn file_app(session: Option<&str>, mode: FileMode) -> App {
    ready(
        App::from_file(NAME.into(), loaded(), session, mode).unwrap(),
        100,
        30,
    )
}

/// A paused replay of the two sessions (through `deck replay`'s builder).
fn replay(session: Option<&str>) -> App {
    let args = PlayerArgs {
        paused: true,
        speed: Some(2.0),
        ..Default::default()
    };
    let mut app = replay_app(NAME.into(), &loaded(), session, &args, &Default::default()).unwrap();
    app.set_themes(themes(), 0);
    app.update(Msg::Resize(100, 30));
    app
}

fn sid(app: &App) -> Option<&str> {
    app.transcript().session_id()
}

#[test]
fn view_of_two_sessions_opens_the_picker_and_enter_shows_one() {
    let mut app = file_app(None, FileMode::View);
    assert_eq!(app.modal().picker(), Some(0), "the picker comes first");
    assert_eq!(app.transcript().items().len(), 0, "nothing shown behind it");
    let s = screen(&mut app);
    assert!(s.contains("2 sessions in two.frames.jsonl"), "{s}");
    assert!(s.contains("q quit"), "{s}");
    // Title (else first prompt), id, events and calls, start and length.
    assert!(
        s.contains("Alpha work  alpha-1  4 events · 1 call · 2026-11-30 20:05 UTC · 1.0s"),
        "{s}"
    );
    assert!(
        s.contains("Beta prompt here  beta-2  5 events · 2 calls · 2026-11-30 20:06 UTC"),
        "{s}"
    );
    assert!(!s.contains("second line"), "one line of the prompt: {s}");
    app.update(ch('j'));
    let fx = app.update(key(KeyCode::Enter));
    assert!(!fx.contains(&Effect::Quit));
    assert!(app.modal().picker().is_none());
    assert_eq!(sid(&app), Some("beta-2"));
    let s = screen(&mut app);
    assert!(
        s.contains("beta output 1") && !s.contains("alpha output"),
        "{s}"
    );
    assert_eq!(app.transcript().cards().len(), 2);
}

#[test]
fn capital_s_switches_the_session_of_a_view() {
    let mut app = file_app(None, FileMode::View);
    app.update(key(KeyCode::Enter));
    assert_eq!(sid(&app), Some("alpha-1"));
    app.update(ch('v'));
    assert!(app.modal().is_pager());
    app.update(ch('q'));
    // S opens the picker on the session shown; Esc closes it, nothing quits.
    app.update(ch('S'));
    assert_eq!(app.modal().picker(), Some(0));
    let s = screen(&mut app);
    assert!(s.contains("Esc close") && s.contains("· shown"), "{s}");
    let fx = app.update(key(KeyCode::Esc));
    assert!(!fx.contains(&Effect::Quit), "{fx:?}");
    assert!(app.modal().picker().is_none());
    assert_eq!(sid(&app), Some("alpha-1"));
    // Enter on the session shown keeps it.
    app.update(ch('S'));
    app.update(key(KeyCode::Enter));
    assert_eq!(sid(&app), Some("alpha-1"));
    // Another one: shown from its top, the status line says which.
    app.update(ch('S'));
    app.update(ch('j'));
    app.update(key(KeyCode::Enter));
    assert_eq!(sid(&app), Some("beta-2"));
    assert_eq!(app.message(), Some("session 2/2: Beta prompt here"));
    assert_eq!(app.list().focus, 0, "the new session starts at its top");
    assert!(screen(&mut app).contains("beta output 2"));
}

#[test]
fn q_or_esc_on_the_first_picker_quits() {
    for k in [ch('q'), key(KeyCode::Esc)] {
        let mut app = file_app(None, FileMode::View);
        let fx = app.update(k);
        assert!(fx.contains(&Effect::Quit), "{fx:?}");
    }
    let mut app = replay(None);
    assert!(app.update(ch('q')).contains(&Effect::Quit));
}

#[test]
fn replay_of_two_sessions_picks_then_switches_from_the_start() {
    let mut app = replay(None);
    assert_eq!(app.modal().picker(), Some(0));
    assert!(app.player().is_none(), "nothing plays behind the picker");
    app.update(key(KeyCode::Enter));
    let p = app.player().expect("a player");
    assert_eq!(sid(&app), Some("alpha-1"));
    // The command line's options apply to the first session shown.
    assert!(!p.playing, "--paused");
    assert_eq!(p.speed(), 2.0);
    assert_eq!(p.events(), (0, 4));
    app.update(ch('9'));
    app.update(ch('+'));
    assert!(app.player().unwrap().events().0 > 0);
    // S: the other session's player, from its start, playing, at the speed
    // in use.
    app.update(ch('S'));
    app.update(ch('j'));
    app.update(key(KeyCode::Enter));
    assert_eq!(sid(&app), Some("beta-2"));
    let p = app.player().expect("a player");
    assert_eq!(p.events(), (0, 5));
    assert!(p.playing);
    assert_eq!(p.speed(), 4.0);
    app.update(Msg::Tick {
        real_ms: 60_000.0,
        now_ms: NOW_MS,
    });
    assert!(screen(&mut app).contains("beta output 2"));
}

#[test]
fn a_session_asked_for_opens_at_once_and_s_still_switches() {
    let mut app = file_app(Some("beta-2"), FileMode::View);
    assert!(app.modal().picker().is_none());
    assert_eq!(sid(&app), Some("beta-2"));
    app.update(ch('S'));
    assert_eq!(app.modal().picker(), Some(1), "on the session shown");
    let replay_opts = ReplayOpts {
        idle_ms: None,
        speed: 1.0,
        at: None,
        paused: false,
    };
    let mut app = file_app(Some("alpha-1"), FileMode::Replay(replay_opts));
    assert_eq!(sid(&app), Some("alpha-1"));
    assert!(app.player().is_some());
    app.update(ch('S'));
    assert_eq!(app.modal().picker(), Some(0));
    let err = App::from_file(NAME.into(), loaded(), Some("gamma"), FileMode::View)
        .err()
        .expect("an unknown session is an error")
        .to_string();
    assert!(err.contains("alpha-1, beta-2"), "{err}");
}

#[test]
fn capital_s_in_a_file_of_one_session_says_so() {
    let one = deck::source::load_path(&tour_path()).unwrap();
    let mut app = App::from_file("tour".into(), one, None, FileMode::View).unwrap();
    assert!(app.modal().picker().is_none());
    assert!(!app.transcript().cards().is_empty());
    app.update(ch('S'));
    assert!(app.modal().picker().is_none());
    let said = app.message().unwrap_or("");
    assert!(said.contains("one session here"), "{said:?}");
    // The replay of one session (and the demo) too.
    let mut app = replayer_sized(&tour_path(), None, 80, 24);
    app.update(ch('S'));
    assert!(app.message().unwrap_or("").contains("one session here"));
}

#[test]
fn help_lists_s_for_a_file_of_several() {
    let help = deck::app::keys::help_lines();
    let s = help
        .iter()
        .find(|l| l.keys == "S")
        .expect("S is in the help");
    assert!(s.what.contains("a file of several"), "{s:?}");
    let mut app = file_app(None, FileMode::View);
    app.update(key(KeyCode::Enter));
    app.update(Msg::Resize(100, 120));
    app.update(ch('?'));
    assert!(screen(&mut app).contains("a file of several"));
}

#[test]
fn the_first_picker_screen() {
    let mut app = file_app(None, FileMode::View);
    app.update(Msg::Resize(100, 14));
    insta::assert_snapshot!(screen(&mut app));
}
