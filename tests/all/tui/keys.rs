//! Keys of the TUI that move and shape the transcript, driven through
//! `App::update(Msg::Key(..))` on the real tour capture: focus, scrolling,
//! top/bottom, card toggles and densities, filters, failed cards, turns,
//! copy, themes, help and quit. The state and the effects each key must
//! produce; screens are drawn only to compare what is on them. The pager,
//! search, player and mouse are in `tui/keys_pager_search_player.rs`.

use crossterm::event::KeyCode;
use deck::app::Modal;
use deck::app::{App, Effect, Msg};
use deck::cards::Density;
use deck::session::Item;
use deck::theme::Theme;

use crate::common;
use crate::common::tui::*;

#[test]
fn j_k_and_arrows_move_the_focus() {
    let mut app = tour_viewer();
    let last = app.list().entries.len() - 1;
    assert_eq!((app.list().focus, app.list().follow), (0, false));
    app.update(ch('j'));
    assert_eq!(app.list().focus, 1);
    app.update(key(KeyCode::Down));
    assert_eq!(app.list().focus, 2);
    app.update(ch('k'));
    assert_eq!(app.list().focus, 1);
    app.update(key(KeyCode::Up));
    app.update(key(KeyCode::Up));
    assert_eq!(app.list().focus, 0, "k stops at the first card");
    for _ in 0..last + 5 {
        app.update(ch('j'));
    }
    assert_eq!(app.list().focus, last, "j stops at the last card");
    assert!(
        !app.list().follow,
        "moving the focus never follows the tail"
    );
    // The focus is kept on screen: the last card is drawn, with the focus bar.
    let buf = draw(&mut app);
    assert!(app.row_map().contains(&Some(last)));
    let r = app.row_map().iter().position(|e| *e == Some(last)).unwrap();
    assert!(rows(&buf)[r].starts_with('▌'), "{}", rows(&buf)[r]);
}

#[test]
fn ctrl_d_u_and_page_keys_scroll_half_and_full_pages() {
    let tall = tall_tour();
    let mut app = tour_viewer();
    let page = app.list_rows();
    assert_eq!(page, 23, "80×24 leaves 23 rows above the status bar");
    let half = page / 2;
    let window = |top: usize| tall[top..top + page].to_vec();
    assert_eq!(list_rows(&mut app), window(0));
    app.update(ctrl('d'));
    assert_eq!(list_rows(&mut app), window(half));
    app.update(key(KeyCode::PageDown));
    assert_eq!(list_rows(&mut app), window(half + page));
    app.update(ctrl('f'));
    assert_eq!(list_rows(&mut app), window(half + 2 * page));
    app.update(ctrl('u'));
    assert_eq!(list_rows(&mut app), window(2 * page));
    app.update(key(KeyCode::PageUp));
    assert_eq!(list_rows(&mut app), window(page));
    app.update(ctrl('b'));
    app.update(ctrl('b'));
    assert_eq!(list_rows(&mut app), window(0), "clamped at the top");
    assert!(!app.list().follow);
}

#[test]
fn scrolling_keeps_the_focus_on_screen() {
    // Enter toggles the focused card: after a page down it must be one on screen.
    let mut app = tour_viewer();
    for k in [key(KeyCode::PageDown), key(KeyCode::PageDown), ctrl('d')] {
        app.update(k);
        draw(&mut app);
        assert!(
            app.row_map().contains(&Some(app.list().focus)),
            "focus {} is off screen",
            app.list().focus
        );
    }
    app.update(key(KeyCode::PageUp));
    draw(&mut app);
    assert!(app.row_map().contains(&Some(app.list().focus)));
    let before = app.list().focus;
    app.update(ch('j'));
    assert_eq!(
        app.list().focus,
        before + 1,
        "j goes on from the card on screen"
    );
}

#[test]
fn g_home_go_to_the_top_and_capital_g_end_to_the_bottom() {
    let mut app = tour_viewer();
    let last = app.list().entries.len() - 1;
    app.update(ch('G'));
    assert_eq!((app.list().focus, app.list().follow), (last, true));
    let s = screen(&mut app);
    assert!(s.contains("turn 4 · error"), "{s}");
    assert!(!s.contains("turn 1 ──"), "{s}");
    app.update(ch('g'));
    assert_eq!((app.list().focus, app.list().follow), (0, false));
    assert_eq!((app.list().anchor.entry, app.list().anchor.row), (0, 0));
    assert!(screen(&mut app).starts_with("▌ ── turn 1 ─"));
    app.update(key(KeyCode::End));
    assert_eq!((app.list().focus, app.list().follow), (last, true));
    app.update(key(KeyCode::Home));
    assert_eq!((app.list().focus, app.list().follow), (0, false));
}

#[test]
fn capital_g_resumes_following_the_tail_of_a_replay() {
    let mut app = replayer_sized(&tour_path(), None, 80, 24);
    app.update(ch('5'));
    assert!(app.list().follow, "a replay follows the tail");
    app.update(ch('g'));
    let n = app.list().entries.len();
    while app.list().entries.len() == n {
        app.update(ch('.'));
    }
    let grown = app.list().entries.len() - n;
    assert_eq!(
        (app.list().focus, app.unseen()),
        (0, grown),
        "scrolled up: counted"
    );
    assert!(screen(&mut app).contains(&format!("↓ {grown} new")));
    app.update(ch('G'));
    assert_eq!(app.unseen(), 0);
    assert!(app.list().follow);
    let n = app.list().entries.len();
    while app.list().entries.len() == n {
        app.update(ch('.'));
    }
    assert_eq!(
        app.list().focus,
        app.list().entries.len() - 1,
        "follows new cards"
    );
    assert_eq!(app.unseen(), 0);
}

#[test]
fn enter_and_o_toggle_the_focused_card() {
    let mut app = tour_viewer();
    let t = common::fold(&tour_path());
    let item = card_item(&t, "ls -la");
    for _ in 0..item {
        app.update(ch('j'));
    }
    assert_eq!(focused(&app), item);
    assert_eq!(app.list().overrides.get(&item), None);
    app.update(key(KeyCode::Enter));
    assert_eq!(app.list().overrides.get(&item), Some(&Density::Full));
    app.update(key(KeyCode::Enter));
    assert_eq!(app.list().overrides.get(&item), Some(&Density::Preview));
    app.update(ch('o'));
    assert_eq!(app.list().overrides.get(&item), Some(&Density::Full));
    assert_eq!(app.list().overrides.len(), 1, "only the focused card");
}

#[test]
fn capital_o_cycles_every_card_line_preview_full() {
    let mut app = tour_viewer();
    app.update(key(KeyCode::Enter));
    assert_eq!(app.density(), Density::Preview);
    app.update(ch('O'));
    assert_eq!(app.density(), Density::Full);
    assert!(app.list().overrides.is_empty(), "per-card toggles reset");
    assert_eq!(app.message(), Some("all cards: full"));
    app.update(ch('O'));
    assert_eq!(app.density(), Density::Line);
    assert_eq!(app.message(), Some("all cards: line"));
    // One line per card: the ls card's output is gone.
    assert!(!screen(&mut app).contains("List workspace files"));
    app.update(ch('O'));
    assert_eq!(app.density(), Density::Preview);
}

#[test]
fn h_hides_tool_cards_and_r_hides_reasoning() {
    let t = common::fold(&tour_path());
    let mut app = tour_viewer();
    // Every item has an entry but the ends of turns that completed without
    // saying their usage (they draw nothing: none here, every turn of the
    // tour says it) and the answered question (drawn on its call's card).
    let silent = t
        .items()
        .iter()
        .filter(|i| matches!(i, Item::Turn(m) if deck::cards::conversation::turn_is_silent(m)))
        .count();
    assert_eq!(silent, 0);
    let merged = t.items().iter().filter(|i| t.merged(i)).count();
    assert_eq!(merged, 1);
    let shown = t.items().len() - silent - merged;
    assert_eq!(app.list().entries.len(), shown);
    app.update(ch('h'));
    assert!(app.hide_tools());
    // The question and the plan are conversation: they stay.
    let conversing = t.cards().iter().filter(|c| c.converses()).count();
    assert_eq!(conversing, 2);
    assert_eq!(
        app.list().entries.len(),
        shown - t.cards().len() + conversing
    );
    assert!(
        app.list()
            .entries
            .iter()
            .all(|&i| !matches!(t.items()[i], Item::Tool(c) if !t.cards()[c].converses()))
    );
    assert_eq!(app.message(), Some("tool cards hidden"));
    assert!(!screen(&mut app).contains("ls -la"));
    app.update(ch('h'));
    assert_eq!(app.list().entries.len(), shown);
    assert_eq!(app.message(), Some("tool cards shown"));

    assert!(screen(&mut app).contains("∴ thinking"));
    app.update(ch('r'));
    assert!(!app.show_reasoning());
    assert_eq!(app.message(), Some("reasoning hidden"));
    let s = screen(&mut app);
    assert!(!s.contains("∴ thinking"), "{s}");
    assert!(
        s.contains("I will start by looking at the workspace."),
        "{s}"
    );
    app.update(ch('r'));
    assert!(screen(&mut app).contains("∴ thinking"));
}

#[test]
fn e_and_capital_e_visit_every_failed_card() {
    let t = common::fold(&tour_path());
    let bad = bad_items(&t);
    assert_eq!(bad.len(), t.error_count());
    let mut app = tour_viewer();
    for &want in &bad {
        app.update(ch('e'));
        assert_eq!(focused(&app), want);
    }
    app.update(ch('e'));
    assert_eq!(focused(&app), *bad.last().unwrap());
    assert_eq!(app.message(), Some("no more failed cards"));
    for &want in bad.iter().rev().skip(1) {
        app.update(ch('E'));
        assert_eq!(focused(&app), want);
    }
    app.update(ch('E'));
    assert_eq!(app.message(), Some("no more failed cards"));
}

#[test]
fn brackets_go_to_the_previous_and_next_turn() {
    let t = common::fold(&tour_path());
    let turns: Vec<usize> = t
        .items()
        .iter()
        .enumerate()
        .filter(|(_, it)| matches!(it, Item::Turn(m) if m.end.is_none()))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(turns.len(), 4);
    let mut app = tour_viewer();
    for &want in &turns[1..] {
        app.update(ch(']'));
        assert_eq!(focused(&app), want);
    }
    app.update(ch(']'));
    assert_eq!(app.message(), Some("no more turns"));
    app.update(ch('['));
    assert_eq!(focused(&app), turns[2]);
    assert_eq!(
        app.list().entries[app.list().anchor.entry],
        turns[2],
        "the turn is at the top"
    );
}

#[test]
fn y_copies_the_card_text_and_capital_y_its_target() {
    let t = common::fold(&tour_path());
    let mut app = tour_viewer();
    let goto = |app: &mut App, item: usize| {
        app.update(ch('g'));
        for _ in 0..item {
            app.update(ch('j'));
        }
    };
    goto(&mut app, card_item(&t, "ls -la"));
    let fx = app.update(ch('y'));
    let Some(Effect::Copy(text)) = fx.first() else {
        panic!("{fx:?}")
    };
    assert!(
        text.starts_with("ls -la\nList workspace files\ntotal 24\n"),
        "{text}"
    );
    assert!(text.contains("README.md") && text.ends_with("[exit code: 0]"));
    assert!(!text.contains('│') && !text.contains('✓'), "{text}");
    assert!(app.message().unwrap().starts_with("copied "));
    assert_eq!(app.update(ch('c'))[0], Effect::Copy("ls -la".into()));
    goto(&mut app, card_item(&t, "Read /workspace/demo/notes.md"));
    assert_eq!(
        app.update(ch('c'))[0],
        Effect::Copy("/workspace/demo/notes.md".into())
    );
    goto(&mut app, card_item(&t, "http://127.0.0.1"));
    assert_eq!(
        app.update(ch('c'))[0],
        Effect::Copy("http://127.0.0.1:18431/page.html".into())
    );
    // A user message has text but no target.
    goto(&mut app, 1);
    let Effect::Copy(text) = &app.update(ch('y'))[0] else {
        panic!()
    };
    assert!(text.starts_with("[capture-turn-1] Please take a tour"));
    assert_eq!(app.update(ch('c')), vec![Effect::Redraw]);
    assert_eq!(app.message(), Some("nothing to copy"));
    assert_eq!(app.update(ch('Y')), vec![Effect::Redraw]);
    assert_eq!(app.message(), Some("nothing to copy"));
}

#[test]
fn t_cycles_themes() {
    let mut app = tour_viewer();
    assert_eq!(app.theme().name, "dark");
    app.update(ch('t'));
    assert_eq!((app.theme_idx(), app.theme().name.as_str()), (1, "light"));
    assert_eq!(app.message(), Some("theme light"));
    assert!(screen(&mut app).contains("· light · ? help"));
    app.update(ch('t'));
    assert_eq!(app.theme().name, "dark");
}

#[test]
fn question_mark_opens_help_and_other_keys_close_it() {
    let mut app = tour_viewer();
    app.update(ch('?'));
    assert!(app.modal().is_help());
    assert!(screen(&mut app).contains("deck — keys"));
    assert_eq!(app.update(ch('x')), vec![Effect::Redraw]);
    assert!(matches!(app.modal(), Modal::None));
    assert_eq!(app.list().focus, 0, "the closing key does nothing else");
    app.update(ch('?'));
    app.update(key(KeyCode::Esc));
    assert!(matches!(app.modal(), Modal::None), "Esc closes too");
    app.update(ch('?'));
    assert!(app.update(ctrl('c')).contains(&Effect::Quit));
}

#[test]
fn help_opened_from_the_pager_returns_to_the_pager() {
    let mut app = tour_viewer();
    app.update(ch('v'));
    app.update(ch('?'));
    assert!(app.modal().is_help());
    app.update(key(KeyCode::Esc));
    assert_eq!(pager(&app).item, 0);
}

#[test]
fn q_and_ctrl_c_quit() {
    let mut app = tour_viewer();
    assert_eq!(app.update(ch('q')), vec![Effect::Quit, Effect::Redraw]);
    assert_eq!(app.update(ctrl('c')), vec![Effect::Quit, Effect::Redraw]);
    app.update(ch('v'));
    assert!(app.update(ctrl('c')).contains(&Effect::Quit));
    // In the search prompt, q is text and Ctrl-c only cancels.
    let mut app = tour_viewer();
    app.update(ch('/'));
    assert_eq!(app.update(ch('q')), vec![Effect::Redraw]);
    assert_eq!(app.update(ctrl('c')), vec![Effect::Redraw]);
    assert_eq!(app.modal().prompt(), None);
}

#[test]
fn help_taller_than_the_screen_scrolls_with_j_and_k() {
    let mut app = viewer_sized(&tour_path(), 80, 24);
    app.update(ch('?'));
    let first = screen(&mut app);
    assert!(first.contains("↓ j/k scroll · q close"), "{first}");
    assert!(
        !first.contains("mouse: wheel scrolls"),
        "the end is below the fold"
    );
    for _ in 0..200 {
        app.update(ch('j'));
    }
    assert!(app.modal().is_help(), "j scrolls, it does not close");
    let end = screen(&mut app);
    assert!(end.contains("mouse: wheel scrolls"), "{end}");
    assert!(end.contains("↑ j/k scroll"), "{end}");
    app.update(ch('k'));
    assert!(app.modal().help_scroll() > Some(0));
    app.update(ch('x'));
    assert!(matches!(app.modal(), Modal::None));
    app.update(ch('?'));
    assert_eq!(
        app.modal().help_scroll(),
        Some(0),
        "the next help starts at the top"
    );
}

fn summaries() -> Vec<deck::source::sessions::SessionSummary> {
    (0..3)
        .map(|i| deck::source::sessions::SessionSummary {
            id: format!("session-{i}"),
            title: Some(format!("Session number {i}")),
            cwd: Some(format!("/work/s{i}")),
            running: i == 1,
            updated_at: Some(1_000 + i as i64 * 1_000),
            last_seq: Some(10),
        })
        .collect()
}

#[test]
fn capital_s_opens_the_session_picker_and_enter_switches() {
    let mut app = App::live("host".into(), Some("session-2".into()), themes());
    app.update(deck::app::Msg::Resize(100, 30));
    app.update(ch('S'));
    assert!(app.modal().picker().is_none());
    assert!(app.message().unwrap_or("").contains("deck connect"));
    app.update(deck::app::Msg::Sessions(summaries()));
    app.update(ch('S'));
    // Newest first, on the session shown.
    assert_eq!(app.sessions()[0].id, "session-2");
    assert_eq!(app.modal().picker(), Some(0));
    let s = screen(&mut app);
    assert!(
        s.contains("Session number 1") && s.contains("/work/s1") && s.contains("● "),
        "{s}"
    );
    app.update(ch('j'));
    assert_eq!(app.modal().picker(), Some(1));
    let fx = app.update(key(KeyCode::Enter));
    assert!(fx.contains(&Effect::Switch("session-1".into())), "{fx:?}");
    assert!(app.modal().picker().is_none());
    assert!(app.message().unwrap_or("").starts_with("switching to"));
    // The client answers with a reset: the message goes, the new session shows.
    app.update(deck::app::Msg::Reset {
        session_id: Some("session-1".into()),
    });
    assert!(app.message().is_none());
    assert_eq!(app.transcript().session_id(), Some("session-1"));
    // Enter on the session already shown only closes.
    app.update(ch('S'));
    assert_eq!(app.modal().picker(), Some(1));
    let fx = app.update(key(KeyCode::Enter));
    assert!(!fx.iter().any(|e| matches!(e, Effect::Switch(_))));
    app.update(ch('S'));
    app.update(key(KeyCode::Esc));
    assert!(app.modal().picker().is_none());
}

#[test]
fn the_picker_opens_at_start_unless_a_session_was_chosen() {
    let mut app = App::live("host".into(), None, themes());
    app.pick_on_start();
    app.update(deck::app::Msg::Sessions(summaries()));
    assert_eq!(app.modal().picker(), Some(0));
    // Only the first list opens it.
    app.update(key(KeyCode::Esc));
    app.update(deck::app::Msg::Sessions(summaries()));
    assert!(app.modal().picker().is_none());
}

/// The approvals capture up to its first `approval/requested` frame: the
/// approval waits for an answer.
fn waiting_approval_app(answers: bool) -> App {
    let text = common::capture_text("approvals", "frames.jsonl");
    let upto: Vec<&str> = text
        .lines()
        .take_while(|l| !l.contains("\"approval/resolved\"") && !l.contains("\"approval/decided\""))
        .collect();
    let s = common::load_text(&(upto.join("\n") + "\n"));
    let mut app = App::live("test".into(), s.id.clone(), vec![Theme::dark()]);
    if answers {
        app.enable_driving(Vec::new());
    }
    app.update(Msg::Resize(100, 30));
    app.update(Msg::Records(s.records));
    let entry = app
        .list()
        .entries
        .iter()
        .position(|&i| matches!(app_item(&app, i), Some(deck::session::Item::Prompt(p)) if p.is_waiting()))
        .expect("a waiting approval");
    app.set_focus(entry);
    app
}

fn app_item(app: &App, i: usize) -> Option<deck::session::Item> {
    app.transcript().items().get(i).cloned()
}

#[test]
fn y_and_n_answer_the_focused_waiting_approval_in_connect() {
    use deck::clients::dsh::Control;
    let mut app = waiting_approval_app(true);
    let fx = app.update(ch('y'));
    let want = |outcome: &str, what: &str| Control::Respond {
        rpc_id: "5591933c-b781-4e27-8d43-cee9737229ae".into(),
        value: serde_json::json!({
            "sessionId": "session-ca722025-42fa-48fb-abdd-168da0cd8f1b",
            "approvalId": "253f2666-fb4d-4cea-a285-ce52ec8b154b",
            "outcome": outcome,
        }),
        what: what.into(),
    };
    assert!(
        fx.contains(&Effect::Host(want("allowed-once", "allowed once"))),
        "{fx:?}"
    );
    let fx = app.update(ch('n'));
    assert!(
        fx.contains(&Effect::Host(want("rejected", "rejected"))),
        "{fx:?}"
    );
    // Anywhere else, and outside `deck connect`, the keys keep their meaning.
    let mut app = waiting_approval_app(false);
    let fx = app.update(ch('y'));
    assert!(fx.iter().any(|f| matches!(f, Effect::Copy(_))), "{fx:?}");
    assert!(!fx.iter().any(|f| matches!(f, Effect::Host(_))));
    let mut app = waiting_approval_app(true);
    app.update(key(KeyCode::Char('g')));
    let fx = app.update(ch('y'));
    assert!(fx.iter().any(|f| matches!(f, Effect::Copy(_))), "{fx:?}");
}
