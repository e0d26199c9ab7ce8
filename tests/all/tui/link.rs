//! `deck connect` and the state of its link, through `App::update`: while
//! no host has answered, the first screen says the host cannot be reached,
//! how to start one and how deck retries; Enter while not connected sends
//! nothing and keeps the draft (`not sent: not connected`); a lost
//! connection shows a banner above the message field; both go once the
//! link is back. Other live sources keep the status bar alone.

use crossterm::event::KeyCode;
use deck::app::{App, Effect, Msg};
use deck::clients::dsh::Control;
use deck::source::live::LinkStatus;

use crate::common;
use crate::common::tui::*;

const URL: &str = "http://127.0.0.1:3080";
const REFUSED: &str = "cannot connect to 127.0.0.1:3080: Connection refused (os error 111)";

/// `deck connect` as `commands::connect` makes it, `w`×`h`, no session yet.
fn connect_app(w: u16, h: u16) -> App {
    let mut app = App::live("127.0.0.1:3080".into(), None, themes());
    app.enable_driving(Vec::new());
    app.driving_mut().unwrap().host = Some(URL.into());
    app.update(Msg::Resize(w, h));
    app.update(Msg::Tick {
        real_ms: 0.0,
        now_ms: NOW_MS,
    });
    app
}

fn connecting(attempt: u32) -> Msg {
    Msg::Link(LinkStatus::Connecting { attempt })
}

fn refused(retry_in_ms: u64) -> Msg {
    Msg::Link(LinkStatus::Disconnected {
        reason: REFUSED.into(),
        retry_in_ms,
    })
}

/// The screen's words on one line: text wrapped across rows reads whole.
fn flat(screen: &str) -> String {
    screen.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn hosts(fx: &[Effect]) -> Vec<Control> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Host(c) => Some(c.clone()),
            _ => None,
        })
        .collect()
}

fn composer_text(app: &App) -> String {
    app.driving().unwrap().composer.text().to_string()
}

/// The tour, as a connected host's session shows it.
fn tour_records() -> Msg {
    Msg::Records(common::load(&tour_path()).records)
}

#[test]
fn the_first_screen_without_a_host_says_what_to_do() {
    let mut app = connect_app(80, 24);
    // The first try: nothing to say yet but the status bar's.
    app.update(connecting(1));
    let s = screen(&mut app);
    assert!(!s.contains("Cannot reach"), "{s}");
    assert!(s.lines().last().unwrap().contains("connecting…"), "{s}");
    // It failed: what is wrong, how to start a host, how deck retries.
    app.update(refused(250));
    let s = screen(&mut app);
    insta::assert_snapshot!("connect_no_host_80x24", s);
    let words = flat(&s);
    for said in [
        "Cannot reach the DSH host at http://127.0.0.1:3080",
        REFUSED,
        "Start one with dsh web (the dsh command of the npm package @deepseek-ai/dsh), \
         or give deck the URL of one that runs: deck connect http://HOST:PORT",
        "deck tries again by itself: after 250 ms, then twice as long each time, \
         at most every 5 s; 1 try failed so far.",
        "q quits",
    ] {
        assert!(words.contains(said), "{said:?} in:\n{s}");
    }
    // The status bar's link state as before (drawn when it fits).
    let position = app.status().position.unwrap();
    assert!(
        position.starts_with("disconnected (cannot connect")
            && position.ends_with("retry in 250 ms"),
        "{position}"
    );
    // It keeps saying so while trying again, counting the tries.
    app.update(connecting(2));
    app.update(refused(500));
    app.update(connecting(3));
    let s = screen(&mut app);
    assert!(flat(&s).contains("2 tries failed so far"), "{s}");
    // Connected: the notice goes, the normal screen shows.
    app.update(Msg::Link(LinkStatus::Backfilling { from_seq: 0 }));
    app.update(Msg::Reset {
        session_id: Some("session-x".into()),
    });
    app.update(tour_records());
    app.update(Msg::Link(LinkStatus::Live));
    let s = screen(&mut app);
    assert!(!s.contains("Cannot reach"), "{s}");
    assert!(!s.contains("dsh web"), "{s}");
    assert!(
        s.contains("› [capture-turn-4]"),
        "the session, at its tail: {s}"
    );
    assert!(s.lines().last().unwrap().contains("● live"), "{s}");
}

#[test]
fn a_host_url_elsewhere_gets_its_own_start_command() {
    let mut app = connect_app(100, 30);
    app.driving_mut().unwrap().host = Some("http://127.0.0.1:8080".into());
    app.update(refused(250));
    let s = flat(&screen(&mut app));
    assert!(
        s.contains("Cannot reach the DSH host at http://127.0.0.1:8080"),
        "{s}"
    );
    assert!(s.contains("Start one with dsh web --port 8080 "), "{s}");
}

#[test]
fn enter_while_not_connected_keeps_the_draft() {
    let mut app = connect_app(100, 30);
    app.update(connecting(1));
    app.update(refused(250));
    app.update(key(KeyCode::Char('i')));
    typed(&mut app, "hello host");
    let s = screen(&mut app);
    assert!(
        s.lines().rev().nth(1).unwrap().starts_with("› hello host"),
        "{s}"
    );
    for link in [
        refused(1000),
        connecting(4),
        Msg::Link(LinkStatus::Failed {
            reason: "the host has no session x".into(),
        }),
    ] {
        app.update(link);
        let fx = app.update(key(KeyCode::Enter));
        assert!(hosts(&fx).is_empty(), "nothing sent: {fx:?}");
        assert_eq!(composer_text(&app), "hello host", "the draft stays");
        assert_eq!(app.message(), Some("not sent: not connected"));
        assert!(app.typing(), "the field keeps the keys");
        let s = screen(&mut app);
        assert!(
            s.lines()
                .last()
                .unwrap()
                .contains("not sent: not connected"),
            "{s}"
        );
    }
    // Once connected, the same Enter sends it.
    app.update(Msg::Link(LinkStatus::Live));
    app.update(Msg::Reset {
        session_id: Some("session-x".into()),
    });
    let fx = app.update(key(KeyCode::Enter));
    assert_eq!(
        hosts(&fx),
        [Control::Prompt {
            text: "hello host".into(),
            steer: false
        }]
    );
    assert_eq!(composer_text(&app), "");
}

#[test]
fn the_message_field_says_it_is_not_connected() {
    let mut app = connect_app(100, 30);
    app.update(refused(250));
    let s = screen(&mut app);
    assert!(
        s.lines()
            .rev()
            .nth(1)
            .unwrap()
            .contains("not connected to the host · i or Tab to type a message"),
        "{s}"
    );
    app.update(key(KeyCode::Tab));
    let s = screen(&mut app);
    assert!(
        s.contains("not connected: what you type stays here until the host is back"),
        "{s}"
    );
}

#[test]
fn a_lost_connection_shows_a_banner_until_it_is_back() {
    let mut app = connect_app(80, 24);
    app.update(connecting(1));
    app.update(Msg::Link(LinkStatus::Backfilling { from_seq: 0 }));
    app.update(Msg::Reset {
        session_id: Some("session-x".into()),
    });
    app.update(tour_records());
    app.update(Msg::Link(LinkStatus::Live));
    let rows = app.list_rows();
    let before = screen(&mut app);
    app.update(Msg::Link(LinkStatus::Disconnected {
        reason: "the host closed the event stream".into(),
        retry_in_ms: 250,
    }));
    let s = screen(&mut app);
    insta::assert_snapshot!("connect_host_lost_80x24", s);
    let words = flat(&s);
    assert!(
        words.contains(
            "⚠ lost the DSH host at http://127.0.0.1:3080 (the host closed the event stream): \
             deck reconnects by itself (after 250 ms, then twice as long each time, at most \
             every 5 s) and fills in what it missed; Enter sends nothing until then"
        ),
        "{s}"
    );
    // The banner sits above the message field; the transcript gives it room.
    let banner = app.list_rows().abs_diff(rows);
    assert!((1..=3).contains(&banner), "{banner} rows");
    let lines: Vec<&str> = s.lines().collect();
    assert!(lines[lines.len() - 2].starts_with("› "), "{s}");
    assert!(
        lines[lines.len() - 3].contains("Enter sends nothing"),
        "{s}"
    );
    assert!(!s.contains("Cannot reach"), "not the first screen's notice");
    // Still there while reconnecting; gone once the link is back.
    app.update(connecting(2));
    assert!(screen(&mut app).contains("⚠ lost the DSH host"));
    app.update(Msg::Link(LinkStatus::Backfilling { from_seq: 300 }));
    app.update(Msg::Link(LinkStatus::Live));
    assert_eq!(app.list_rows(), rows);
    assert_eq!(screen(&mut app), before);
}

#[test]
fn other_live_sources_keep_the_status_bar_alone() {
    // `deck follow` / `deck listen`: no message field, no host to start.
    let mut app = App::live("file".into(), None, themes());
    app.update(Msg::Resize(80, 24));
    app.update(Msg::Link(LinkStatus::Disconnected {
        reason: "gone".into(),
        retry_in_ms: 1500,
    }));
    let s = screen(&mut app);
    assert!(!s.contains("Cannot reach") && !s.contains("⚠ lost"), "{s}");
    assert!(
        s.lines()
            .last()
            .unwrap()
            .contains("disconnected (gone); retry in 1.5s"),
        "{s}"
    );
}
