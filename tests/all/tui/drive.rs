//! `deck connect` driving a session, through `App::update`: the composer
//! (typing, new lines, paste, history, Enter → `session.prompt` queued or
//! steering), cancelling (Ctrl-c, Esc Esc), approvals and questions from
//! the real approvals capture fed frame by frame (focused on arrival, the
//! call's own card shown, answered with keys, closed when resolved), and a
//! new session from the picker. The effects are the exact host requests.

use crossterm::event::{KeyCode, KeyModifiers};
use deck::app::{App, Effect, Msg};
use deck::clients::dsh::Control;
use deck::session::Item;
use serde_json::json;

use crate::common;
use crate::common::tui::*;

const SESSION: &str = "session-ca722025-42fa-48fb-abdd-168da0cd8f1b";

/// The approvals capture fed to a connect app a line at a time.
struct Feed {
    lines: Vec<String>,
    records: Vec<deck::wire::Record>,
    /// Lines fed so far.
    at: usize,
}

impl Feed {
    fn approvals() -> Feed {
        let path = common::capture_str("approvals", "frames.jsonl");
        let text = common::capture_text("approvals", "frames.jsonl");
        let mut records = common::load(&path).records;
        records.sort_by_key(|r| r.origin().line);
        Feed {
            lines: text.lines().map(str::to_string).collect(),
            records,
            at: 0,
        }
    }

    /// Feed lines up to (not including) the first one after the current
    /// position that contains `marker`.
    fn until(&mut self, app: &mut App, marker: &str) {
        let end = self.lines[self.at..]
            .iter()
            .position(|l| l.contains(marker))
            .map(|i| self.at + i)
            .unwrap_or_else(|| panic!("no line with {marker}"));
        self.feed(app, end);
    }

    /// Feed the next `n` lines.
    fn next(&mut self, app: &mut App, n: usize) {
        self.feed(app, self.at + n);
    }

    fn feed(&mut self, app: &mut App, end: usize) {
        // Origins count lines from 1.
        let batch: Vec<_> = self
            .records
            .iter()
            .filter(|r| (self.at + 1..=end).contains(&r.origin().line))
            .cloned()
            .collect();
        self.at = end;
        app.update(Msg::Records(batch));
    }
}

/// One frame, read as a line of a frame log, as the records it makes.
fn frame_msg(v: serde_json::Value) -> Msg {
    Msg::Records(common::load_text(&format!("{v}\n")).records)
}

fn connect_app() -> App {
    let mut app = App::live("host".into(), Some(SESSION.into()), themes());
    app.enable_driving(vec!["an older message".into()]);
    app.update(Msg::Resize(100, 30));
    app.update(Msg::Tick {
        real_ms: 0.0,
        now_ms: NOW_MS,
    });
    app
}

fn hosts(fx: &[Effect]) -> Vec<Control> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Host(c) => Some(c.clone()),
            _ => None,
        })
        .collect()
}

fn alt_enter() -> Msg {
    key_mod(KeyCode::Enter, KeyModifiers::ALT)
}

fn composer_text(app: &App) -> String {
    app.driving().unwrap().composer.text().to_string()
}

fn focused_item(app: &App) -> Item {
    let i = app.focused_item().unwrap();
    app.transcript().items()[i].clone()
}

#[test]
fn typing_sends_a_queued_prompt_and_keeps_history() {
    let mut app = connect_app();
    assert!(!app.typing(), "the transcript has the keys first");
    // `i` gives the keys to the composer; letters now type (j is not "next").
    app.update(ch('i'));
    assert!(app.typing());
    typed(&mut app, "hello j");
    app.update(alt_enter());
    typed(&mut app, "second");
    app.update(ctrl('j'));
    typed(&mut app, "third");
    assert_eq!(composer_text(&app), "hello j\nsecond\nthird");
    // The composer shows every line above the status bar, the cursor after "third".
    let s = screen(&mut app);
    let bottom: Vec<&str> = s.lines().rev().skip(1).take(3).collect();
    assert_eq!(bottom, ["  third", "  second", "› hello j"], "{s}");
    assert_eq!(app.list_rows(), 30 - 1 - 3);
    let fx = app.update(key(KeyCode::Enter));
    assert_eq!(
        hosts(&fx),
        [Control::Prompt {
            text: "hello j\nsecond\nthird".into(),
            steer: false
        }]
    );
    assert_eq!(composer_text(&app), "");
    // ↑ on the empty field: the history, newest first, then back down.
    app.update(key(KeyCode::Up));
    assert_eq!(composer_text(&app), "hello j\nsecond\nthird");
    app.update(key(KeyCode::Up));
    assert_eq!(composer_text(&app), "an older message");
    app.update(key(KeyCode::Down));
    app.update(key(KeyCode::Down));
    assert_eq!(composer_text(&app), "");
    // Blank text sends nothing; Esc hands the keys back (j moves again).
    typed(&mut app, "   ");
    assert!(hosts(&app.update(key(KeyCode::Enter))).is_empty());
    app.update(key(KeyCode::Esc));
    assert!(!app.typing());
    // Ctrl-c with text clears it; on an empty field (idle) it quits.
    app.update(key(KeyCode::Tab));
    typed(&mut app, "oops");
    assert!(!app.update(ctrl('c')).contains(&Effect::Quit));
    assert_eq!(composer_text(&app), "");
    assert!(app.update(ctrl('c')).contains(&Effect::Quit));
}

#[test]
fn pasted_text_lands_whole_and_without_controls() {
    let mut app = connect_app();
    app.update(Msg::Paste("line one\r\nline two\x1b[2J\tend".into()));
    assert!(app.typing(), "a paste gives the composer the keys");
    assert_eq!(composer_text(&app), "line one\nline two[2J    end");
    let fx = app.update(key(KeyCode::Enter));
    assert_eq!(
        hosts(&fx),
        [Control::Prompt {
            text: "line one\nline two[2J    end".into(),
            steer: false
        }]
    );
    // A paste into the search prompt takes its first line.
    app.update(key(KeyCode::Esc));
    app.update(ch('/'));
    app.update(Msg::Paste("needle\nrest".into()));
    assert_eq!(app.modal().prompt().unwrap().0, "needle");
}

#[test]
fn while_a_turn_runs_enter_steers_and_ctrl_c_or_esc_esc_cancel() {
    let mut app = connect_app();
    let mut feed = Feed::approvals();
    feed.until(&mut app, "\"type\":\"turn/end\"");
    assert!(app.turn_running());
    let s = screen(&mut app);
    assert!(
        s.lines().rev().nth(1).unwrap().starts_with("steer › "),
        "{s}"
    );
    app.update(ch('i'));
    typed(&mut app, "also check the tests");
    let fx = app.update(key(KeyCode::Enter));
    assert_eq!(
        hosts(&fx),
        [Control::Prompt {
            text: "also check the tests".into(),
            steer: true
        }]
    );
    // Ctrl-c while the turn runs cancels it (typing or not).
    assert_eq!(hosts(&app.update(ctrl('c'))), [Control::Cancel]);
    app.update(key(KeyCode::Esc));
    assert_eq!(hosts(&app.update(ctrl('c'))), [Control::Cancel]);
    // Esc Esc cancels; the first Esc alone only warns.
    let fx = app.update(key(KeyCode::Esc));
    assert!(hosts(&fx).is_empty());
    assert!(app.message().unwrap().contains("Esc again"));
    assert_eq!(hosts(&app.update(key(KeyCode::Esc))), [Control::Cancel]);
    // Two Esc more than a second apart do not.
    app.update(key(KeyCode::Esc));
    app.update(Msg::Tick {
        real_ms: 1200.0,
        now_ms: NOW_MS + 1200,
    });
    assert!(hosts(&app.update(key(KeyCode::Esc))).is_empty());
    // Nor does an Esc, another key, then Esc.
    app.update(key(KeyCode::Esc));
    app.update(ch('j'));
    assert!(hosts(&app.update(key(KeyCode::Esc))).is_empty());
    // Once the turn ended, Enter queues and Ctrl-c (transcript) quits.
    feed.next(&mut app, 1);
    assert!(!app.turn_running());
    app.update(ch('i'));
    typed(&mut app, "next");
    assert_eq!(
        hosts(&app.update(key(KeyCode::Enter))),
        [Control::Prompt {
            text: "next".into(),
            steer: false
        }]
    );
    app.update(key(KeyCode::Esc));
    assert!(app.update(ctrl('c')).contains(&Effect::Quit));
}

#[test]
fn a_new_approval_takes_the_focus_shows_its_call_and_closes_when_resolved() {
    let mut app = connect_app();
    let mut feed = Feed::approvals();
    feed.until(&mut app, "\"method\":\"approval/requested\"");
    // The approval/asked event came first: no rpc id yet, nothing focused.
    assert!(app.list().follow);
    app.update(ch('i'));
    typed(&mut app, "half a thought");
    app.update(Msg::Notice("prompt sent".into()));
    feed.next(&mut app, 1);
    let Item::Prompt(p) = focused_item(&app) else {
        panic!("the approval is focused");
    };
    assert!(p.is_waiting());
    assert!(!app.typing(), "y / n must answer it, not type");
    let d = app.driving().unwrap();
    assert_eq!(d.composer.text(), "half a thought", "the draft is kept");
    let s = screen(&mut app);
    assert!(s.contains("◌ ⚑ Approval · bash"), "{s}");
    // The call's own card, in the approval: the command it would run.
    assert!(
        s.contains(
            "│ ⋯ $ echo probe > /var/tmp/dsh-capture-probe.txt && echo wrote-outside-escalated"
        ) || s.contains("$ echo probe > /var/tmp/dsh-capture-probe.txt"),
        "{s}"
    );
    let approval_rows: Vec<&str> = s
        .lines()
        .skip_while(|l| !l.contains("⚑ Approval · bash"))
        .take_while(|l| !l.trim().is_empty())
        .collect();
    assert!(
        approval_rows.iter().any(|l| l.contains("$ echo probe")),
        "the command is inside the approval card: {approval_rows:#?}"
    );
    // And only there: the approval stands in for the call's own card.
    assert_eq!(s.matches("echo wrote-outside-escalated").count(), 1, "{s}");
    assert!(
        s.lines()
            .last()
            .unwrap()
            .contains("approval: y allow once · n reject"),
        "the keys, in the status bar: {s}"
    );
    assert!(
        s.lines()
            .rev()
            .nth(1)
            .unwrap()
            .starts_with("› half a thought")
    );
    let fx = app.update(ch('y'));
    assert_eq!(
        hosts(&fx),
        [Control::Respond {
            rpc_id: "5591933c-b781-4e27-8d43-cee9737229ae".into(),
            value: json!({"sessionId": SESSION,
                "approvalId": "253f2666-fb4d-4cea-a285-ce52ec8b154b",
                "outcome": "allowed-once"}),
            what: "allowed once".into(),
        }]
    );
    // approval/resolved (here or answered elsewhere): the outcome moves
    // onto the call's card, the tail is followed again, the draft has the
    // keys back.
    feed.next(&mut app, 1);
    let s = screen(&mut app);
    assert!(!s.contains("⚑ Approval · bash"), "{s}");
    assert!(
        s.lines().any(
            |l| l.contains("$ echo probe > /var/tmp/dsh-capture-probe.txt")
                && l.contains("⚑ allowed once")
        ),
        "the call's card carries the outcome: {s}"
    );
    assert!(app.list().follow);
    assert!(app.typing());
    let d = app.driving().unwrap();
    assert_eq!(d.composer.text(), "half a thought");
    // A later key does not answer anything.
    assert!(hosts(&app.update(key(KeyCode::Esc))).is_empty());
    assert!(hosts(&app.update(ch('y'))).is_empty());
}

#[test]
fn n_rejects_and_outside_connect_y_n_keep_their_meaning() {
    let mut app = connect_app();
    let mut feed = Feed::approvals();
    feed.until(&mut app, "\"method\":\"approval/resolved\"");
    let fx = app.update(ch('n'));
    assert!(
        matches!(&hosts(&fx)[..], [Control::Respond { value, .. }] if value["outcome"] == "rejected")
    );
    // A viewer: y copies, n is "next match".
    let mut viewer = App::live("file".into(), Some(SESSION.into()), themes());
    viewer.update(Msg::Resize(100, 30));
    Feed::approvals().until(&mut viewer, "\"method\":\"approval/resolved\"");
    assert!(hosts(&viewer.update(ch('y'))).is_empty());
}

#[test]
fn a_question_is_focused_numbered_and_answered_by_option_key() {
    let mut app = connect_app();
    let mut feed = Feed::approvals();
    feed.until(&mut app, "\"method\":\"question/requested\"");
    feed.next(&mut app, 1);
    let Item::Prompt(p) = focused_item(&app) else {
        panic!("the question is focused");
    };
    assert!(p.is_waiting());
    let s = screen(&mut app);
    assert!(s.contains("  1 Yes (Recommended) — Keep going"), "{s}");
    assert!(s.contains("  2 No"), "{s}");
    assert!(
        s.lines().rev().nth(1).unwrap().starts_with("answer › "),
        "{s}"
    );
    assert!(
        s.lines().last().unwrap().contains("question: 1–2 choose"),
        "{s}"
    );
    // An option that does not exist says so.
    assert!(hosts(&app.update(ch('5'))).is_empty());
    assert!(app.message().unwrap().contains("no option 5"));
    let fx = app.update(ch('1'));
    assert_eq!(
        hosts(&fx),
        [Control::Respond {
            rpc_id: "1e5ca53c-aa90-4f67-a86a-e0e4a04a98fa".into(),
            value: json!({"sessionId": SESSION, "answer": {"answers": [
                {"id": "q1", "selected": ["Yes (Recommended)"]}
            ]}}),
            what: "answered".into(),
        }]
    );
    // question/resolved: closed onto the asking call's card (one question
    // on screen, not numbered), the tail followed again.
    feed.next(&mut app, 1);
    assert!(app.list().follow);
    let s = screen(&mut app);
    assert_eq!(s.matches("? Question · Confirm").count(), 1, "{s}");
    assert!(!s.contains("  1 Yes (Recommended)"), "{s}");
    assert!(!s.contains("ask_user_question"), "{s}");
}

#[test]
fn a_typed_answer_goes_as_custom_text() {
    let mut app = connect_app();
    let mut feed = Feed::approvals();
    feed.until(&mut app, "\"method\":\"question/requested\"");
    feed.next(&mut app, 1);
    app.update(ch('i'));
    typed(&mut app, "only the docs");
    let fx = app.update(key(KeyCode::Enter));
    assert_eq!(
        hosts(&fx),
        [Control::Respond {
            rpc_id: "1e5ca53c-aa90-4f67-a86a-e0e4a04a98fa".into(),
            value: json!({"sessionId": SESSION, "answer": {"answers": [
                {"id": "q1", "selected": [], "custom": "only the docs"}
            ]}}),
            what: "answered".into(),
        }]
    );
}

#[test]
fn several_questions_and_several_choices() {
    let mut app = connect_app();
    let frame = json!({"type": "server-request", "rpcId": "rq-2", "method": "question/requested",
    "payload": {"type": "question/requested", "sessionId": SESSION, "questions": [
        {"id": "lang", "question": "Which language?", "header": "Lang",
         "options": [{"label": "Rust"}, {"label": "Go"}]},
        {"id": "parts", "question": "Which parts?", "header": "Parts", "multiSelect": true,
         "options": [{"label": "cli"}, {"label": "tui"}, {"label": "docs"}]}
    ]}});
    app.update(frame_msg(frame));
    assert!(matches!(focused_item(&app), Item::Prompt(_)));
    assert!(hosts(&app.update(ch('2'))).is_empty(), "first question: Go");
    assert!(app.message().unwrap().starts_with("question 2/2"));
    // Enter before any choice says what to do.
    assert!(hosts(&app.update(key(KeyCode::Enter))).is_empty());
    assert!(app.message().unwrap().contains("choose"));
    app.update(ch('1'));
    app.update(ch('3'));
    app.update(ch('2'));
    app.update(ch('2'));
    assert!(app.message().unwrap().contains("cli, docs"));
    let fx = app.update(key(KeyCode::Enter));
    assert_eq!(
        hosts(&fx),
        [Control::Respond {
            rpc_id: "rq-2".into(),
            value: json!({"sessionId": SESSION, "answer": {"answers": [
                {"id": "lang", "selected": ["Go"]},
                {"id": "parts", "selected": ["cli", "docs"]}
            ]}}),
            what: "answered".into(),
        }]
    );
}

#[test]
fn n_in_the_picker_creates_a_session_where_asked() {
    let mut app = connect_app();
    if let Some(d) = app.driving_mut() {
        d.cwd = Some("/work/project".into());
        d.preset = Some("capture".into());
    }
    app.update(ch('S'));
    assert!(
        app.modal().picker().is_some(),
        "connected, S opens even an empty list"
    );
    let s = screen(&mut app);
    assert!(s.contains("n new session"), "{s}");
    assert!(s.contains("no sessions yet: n creates one"), "{s}");
    let fx = app.update(ch('n'));
    assert_eq!(
        hosts(&fx),
        [Control::Create {
            cwd: Some("/work/project".into()),
            preset: Some("capture".into()),
        }]
    );
    assert!(app.modal().picker().is_none());
    // No session shown yet: the field says how to get one.
    let mut empty = App::live("host".into(), None, themes());
    empty.enable_driving(Vec::new());
    empty.update(Msg::Resize(100, 30));
    let s = screen(&mut empty);
    assert!(
        s.contains("› no session shown: S picks one (n there creates one)"),
        "{s}"
    );
    // Without a host client the picker's n does nothing.
    let mut viewer = App::live("file".into(), None, themes());
    viewer.update(ch('S'));
    assert!(hosts(&viewer.update(ch('n'))).is_empty());
}

#[test]
fn connect_screens() {
    let mut app = connect_app();
    let mut feed = Feed::approvals();
    feed.until(&mut app, "\"method\":\"approval/resolved\"");
    insta::assert_snapshot!("connect_approval_waiting_100x30", screen(&mut app));
    feed.until(&mut app, "\"type\":\"turn/start\"");
    app.update(ch('i'));
    typed(
        &mut app,
        "a message of many words that wraps onto a second row of the composer, \
         because it is longer than the screen is wide",
    );
    let s = screen(&mut app);
    assert!(!s.contains(" new "), "the tail is followed again: {s}");
    insta::assert_snapshot!("connect_composer_100x30", s);
}

#[test]
fn approvals_asked_together_are_answered_one_after_the_other() {
    let mut app = connect_app();
    let asked = |rpc: &str, id: &str| {
        frame_msg(
            json!({"type": "server-request", "rpcId": rpc, "method": "approval/requested",
            "payload": {"type": "approval/requested", "sessionId": SESSION, "approvalId": id,
                "toolName": "bash", "reason": format!("reason {id}")}}),
        )
    };
    let resolved = |rpc: &str, id: &str| {
        frame_msg(
            json!({"type": "server-request", "rpcId": rpc, "method": "approval/resolved",
            "payload": {"type": "approval/resolved", "sessionId": SESSION, "approvalId": id,
                "outcome": "allowed-once"}}),
        )
    };
    app.update(ch('i'));
    app.update(asked("r1", "a1"));
    app.update(asked("r2", "a2"));
    let approval_id = |fx: &[Effect]| match &hosts(fx)[..] {
        [Control::Respond { value, .. }] => value["approvalId"].as_str().unwrap().to_string(),
        other => panic!("{other:?}"),
    };
    // The newest first; once it is resolved, the one still waiting.
    assert_eq!(approval_id(&app.update(ch('y'))), "a2");
    app.update(resolved("r3", "a2"));
    assert!(!app.typing());
    assert!(!app.list().follow);
    assert_eq!(approval_id(&app.update(ch('n'))), "a1");
    app.update(resolved("r4", "a1"));
    // Both done: the tail and the message field as they were before.
    assert!(app.list().follow);
    assert!(app.typing());
}
