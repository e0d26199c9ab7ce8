//! `deck acp`'s terminal view without a terminal: the real ACP capture
//! (`tests/fixtures/agents/acp/tour/acp-trace.jsonl`) fed a line at a time
//! to an app driving as `deck acp` does (prompts held during a turn), as
//! the client's trace feeds it live. The status bar says the agent's mode
//! and commands, the composer's label where Enter sends, a permission
//! request shows the agent's options and the keys pick them (the effect is
//! the exact answer the client sends), and snapshots of the live screen:
//! a waiting permission card, a terminal still running, at 40, 80 and 120
//! columns in the dark and light themes.

use deck::app::{App, Effect, Msg};
use deck::clients::dsh::Control;
use deck::theme::Theme;

use crate::common;
use crate::common::tui::*;

const SESSION: &str = "43e60b42-56a6-4e36-bf2d-d1c55b5e9aa6";

fn trace() -> String {
    format!(
        "{}/tests/fixtures/agents/acp/tour/acp-trace.jsonl",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// The capture's records, by the line that made them.
struct Feed {
    records: Vec<deck::wire::Record>,
    at: usize,
}

impl Feed {
    fn new() -> Feed {
        let mut records = common::load(&trace()).records;
        records.sort_by_key(|r| r.origin().line);
        Feed { records, at: 0 }
    }

    /// Feed lines up to `line` (1-based, included): what the live reader
    /// made of them.
    fn to(&mut self, app: &mut App, line: usize) {
        let batch: Vec<_> = self
            .records
            .iter()
            .filter(|r| (self.at + 1..=line).contains(&r.origin().line))
            .cloned()
            .collect();
        self.at = line;
        app.update(Msg::Records(batch));
    }
}

/// An app as `deck acp` makes it: live, driving, prompts held, the
/// message field with the keys; `theme` first.
fn acp_app(theme: Theme, w: u16, h: u16) -> App {
    let mut app = App::live(
        "acp claude-code-acp".into(),
        Some(SESSION.into()),
        vec![theme],
    );
    app.enable_driving(Vec::new());
    app.driving_mut().unwrap().held = true;
    // The trace's times count from the agent's start, 6 s before now.
    app.set_clock_origin(NOW_MS - 6_000);
    app.start_typing();
    app.update(Msg::Resize(w, h));
    app.update(Msg::Tick {
        real_ms: 0.0,
        now_ms: NOW_MS,
    });
    app
}

fn light() -> Theme {
    Theme::builtin("light").unwrap()
}

fn hosts(fx: &[Effect]) -> Vec<Control> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Host(c) => Some(c.clone()),
            _ => None,
        })
        .collect()
}

fn status_bar(app: &mut App) -> String {
    screen(app).lines().last().unwrap().to_string()
}

/// The row the composer is on (the one above the status bar).
fn composer_row(app: &mut App) -> String {
    screen(app).lines().rev().nth(1).unwrap().to_string()
}

/// The option a key picked on the first permission request of the
/// capture (asked on line 17): the `optionId` the client would send, or
/// what the status bar said instead.
fn answer_with(key: char) -> Result<String, String> {
    let mut app = acp_app(Theme::dark(), 100, 30);
    let mut feed = Feed::new();
    feed.to(&mut app, 17);
    // The request is on screen before a key answers it.
    screen(&mut app);
    match &hosts(&app.update(ch(key)))[..] {
        [Control::Respond { rpc_id, value, .. }] => {
            assert_eq!(rpc_id, "0", "the JSON-RPC id of the request");
            assert_eq!(value["approvalId"], "permission-0");
            Ok(value["optionId"].as_str().unwrap().to_string())
        }
        [] => Err(status_bar(&mut app)),
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_agents_options_are_shown_and_the_keys_pick_them() {
    assert_eq!(answer_with('1').as_deref(), Ok("allow_always"));
    assert_eq!(answer_with('2').as_deref(), Ok("allow"));
    assert_eq!(answer_with('3').as_deref(), Ok("reject"));
    assert_eq!(answer_with('y').as_deref(), Ok("allow"));
    assert_eq!(answer_with('n').as_deref(), Ok("reject"));
    let no = answer_with('4').unwrap_err();
    assert!(no.contains("no option 4: 1–3"), "{no}");

    let mut app = acp_app(Theme::dark(), 100, 30);
    let mut feed = Feed::new();
    feed.to(&mut app, 17);
    assert!(!app.typing(), "the request takes the keys");
    assert!(composer_row(&mut app).starts_with("steer › approval: 1–3 choose"));
    let s = screen(&mut app);
    for want in [
        "◌ ⚑ Approval · mcp__acp__Bash",
        "│   1 Always Allow · allow always",
        "│   2 Allow · allow once",
        "│   3 Reject · reject once",
    ] {
        assert!(s.contains(want), "{want}: {s}");
    }
    assert!(
        status_bar(&mut app).contains("approval: 1–3 choose · y allow once · n reject once"),
        "{s}"
    );
    let fx = app.update(ch('1'));
    assert!(matches!(&hosts(&fx)[..], [Control::Respond { what, .. }] if what == "allowed always"));
    // The capture's client chose allow once: the card says so, once answered.
    feed.to(&mut app, 30);
    let s = screen(&mut app);
    assert!(
        s.lines()
            .any(|l| l.contains("$ ls -la && ls -la src") && l.contains("⚑ allowed once")),
        "{s}"
    );
    assert!(
        !s.contains("Always Allow"),
        "the options go once answered: {s}"
    );
    assert!(app.typing(), "the message field has the keys back");
}

/// Issue 28 §2: a key answers the request that is on screen: one that
/// took the focus since the screen was last drawn is shown first, and the
/// key answers nothing.
#[test]
fn a_key_answers_the_request_on_screen_not_one_come_since() {
    let mut app = acp_app(Theme::dark(), 100, 30);
    let mut feed = Feed::new();
    feed.to(&mut app, 17);
    assert!(screen(&mut app).contains("y allow once"));
    // The capture's client answers request 0; request 7 comes and takes the focus.
    feed.to(&mut app, 60);
    assert!(
        hosts(&app.update(ch('y'))).is_empty(),
        "a request never drawn was answered"
    );
    let bar = status_bar(&mut app);
    assert!(bar.contains("another request came in"), "{bar}");
    match &hosts(&app.update(ch('y')))[..] {
        [Control::Respond { rpc_id, value, .. }] => {
            assert_eq!(rpc_id, "7");
            assert_eq!(value["approvalId"], "permission-7");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_status_bar_says_the_mode_and_commands_and_the_label_where_enter_sends() {
    let mut app = acp_app(Theme::dark(), 120, 30);
    let mut feed = Feed::new();
    // session/new answered: the mode is known, the commands not yet.
    feed.to(&mut app, 4);
    assert!(
        composer_row(&mut app).starts_with("prompt › "),
        "{}",
        screen(&mut app)
    );
    feed.to(&mut app, 6);
    let bar = status_bar(&mut app);
    assert!(bar.contains("mode: default · 8 commands"), "{bar}");
    // A running turn: what is typed waits for its end.
    assert!(app.turn_running());
    assert!(composer_row(&mut app).starts_with("steer › "));
    typed(&mut app, "and then the tests");
    let fx = app.update(key(crossterm::event::KeyCode::Enter));
    assert_eq!(
        hosts(&fx),
        [Control::Prompt {
            text: "and then the tests".into(),
            steer: false,
        }]
    );
    assert!(status_bar(&mut app).contains("held: sent when the turn ends"));
    // `/` lists the commands it could name.
    typed(&mut app, "/re");
    let bar = status_bar(&mut app);
    assert!(bar.contains("1 command: /review"), "{bar}");
    typed(&mut app, "x");
    let bar = status_bar(&mut app);
    assert!(bar.contains("no command /rex among the agent's 8"), "{bar}");
    app.update(key(crossterm::event::KeyCode::Backspace));
    // The turn's end: a new prompt again.
    feed.to(&mut app, 148);
    assert!(!app.turn_running());
    assert!(composer_row(&mut app).starts_with("prompt › /re"));
}

/// The live screen with its styles, at each width in both themes, after
/// the capture's first `line` lines.
fn screens(line: usize, name: &str) {
    for (theme_name, theme) in [("dark", Theme::dark()), ("light", light())] {
        for w in [40u16, 80, 120] {
            let mut app = acp_app(theme.clone(), w, 24);
            Feed::new().to(&mut app, line);
            let s = styled(&draw(&mut app));
            insta::assert_snapshot!(format!("acp_live_{name}_{theme_name}_{w}"), s);
        }
    }
}

#[test]
fn acp_live_screens() {
    // A running turn, its first permission request waiting with its options.
    screens(17, "permission");
    // A terminal still running (the turn cancelled later).
    screens(174, "terminal");
}
