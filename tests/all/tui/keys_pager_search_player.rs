//! Keys of the TUI's pager, search and replay player, and the mouse, driven
//! through `App::update` on the real tour capture (the showcase for the
//! player): the state and the effects each must produce. Mouse hits need a
//! drawn screen (`app.row_map()`), so those tests draw first.

use crossterm::event::{KeyCode, KeyModifiers, MouseEventKind};
use deck::app::Modal;
use deck::app::keys::Action;
use deck::app::{App, Effect, Msg};
use deck::cards::Density;
use deck::view::transcript::{LayoutOptions, layout, render_item};

use crate::common;
use crate::common::tui::*;

#[test]
fn v_opens_the_pager_and_its_keys_work() {
    let mut app = tour_viewer();
    let t = common::fold(&tour_path());
    let item = card_item(&t, "seq 1 20000");
    for _ in 0..item {
        app.update(ch('j'));
    }
    app.update(ch('v'));
    assert_eq!(pager(&app).item, item);
    let s = screen(&mut app);
    let len = pager(&app).len();
    assert!(len > 100, "{len}");
    // `line a/b` counts the card's lines: rows but for wrapped ones.
    let (_, lines) = pager(&app).line_position();
    assert!(lines > 100 && lines <= len, "{lines}");
    assert!(s.contains(&format!("line 1/{lines} · wrap on · / search · q back")));
    assert!(s.starts_with("✓ $ seq 1 20000"), "{s}");
    let rows = 23;
    app.update(ch('j'));
    app.update(key(KeyCode::Down));
    assert_eq!(pager(&app).scroll, 2);
    app.update(ch('k'));
    assert_eq!(pager(&app).scroll, 1);
    app.update(ch(' '));
    assert_eq!(pager(&app).scroll, 1 + rows);
    app.update(ch('G'));
    assert_eq!(pager(&app).scroll, len - rows);
    // The last page: its top row is in one of the last `rows` lines.
    let (at, of) = pager(&app).line_position();
    assert!(of == lines && at > lines - rows && at <= lines, "{at}/{of}");
    assert!(screen(&mut app).contains(&format!("line {at}/{lines}")));
    app.update(ch('g'));
    assert_eq!(pager(&app).scroll, 0);

    // Search inside the card: the rows holding "1000", in order.
    app.update(ch('/'));
    assert!(app.modal().prompt().is_some_and(|(_, pager)| pager));
    typed(&mut app, "1000");
    app.update(key(KeyCode::Enter));
    assert_eq!(app.modal().prompt(), None);
    let full = render_item(
        &t,
        &t.items()[item],
        app.theme(),
        &LayoutOptions::new(80, Density::Full),
    );
    assert_eq!(full.len(), len);
    let want: Vec<usize> = (0..len)
        .filter(|&r| full[r].text().contains("1000"))
        .collect();
    assert!(want.len() > 2, "{want:?}");
    assert_eq!(pager(&app).matches, want);
    assert_eq!(pager(&app).current, Some(0));
    assert!(pager(&app).scroll <= want[0] && want[0] < pager(&app).scroll + rows);
    app.update(ch('n'));
    assert_eq!(pager(&app).current, Some(1));
    app.update(ch('N'));
    app.update(ch('N'));
    assert_eq!(pager(&app).current, Some(want.len() - 1), "N wraps around");
    let last = want[want.len() - 1];
    assert!(pager(&app).scroll <= last && last < pager(&app).scroll + rows);

    app.update(ch('w'));
    assert!(!pager(&app).wrap);
    assert_eq!(app.message(), Some("wrap off: h/l scroll sideways"));
    app.update(ch('w'));
    assert!(pager(&app).wrap);
    assert_eq!(app.message(), Some("wrap on"));

    assert_eq!(
        app.update(ch('q')),
        vec![Effect::Redraw],
        "q leaves the pager"
    );
    assert!(matches!(app.modal(), Modal::None));
    assert_eq!(focused(&app), item);
    app.update(ch('v'));
    app.update(key(KeyCode::Esc));
    assert!(matches!(app.modal(), Modal::None));
}

#[test]
fn pager_keys_typed_before_its_first_draw_work() {
    // The driver handles every queued key before it draws: `v` then `G` or a
    // search typed fast must act on the card, not on an empty pager.
    let mut app = tour_viewer();
    let t = common::fold(&tour_path());
    for _ in 0..card_item(&t, "seq 1 20000") {
        app.update(ch('j'));
    }
    app.update(ch('v'));
    app.update(ch('G'));
    assert!(pager(&app).scroll > 100, "{}", pager(&app).scroll);
    app.update(ch('g'));
    typed(&mut app, "/19999");
    app.update(key(KeyCode::Enter));
    assert_eq!(pager(&app).matches.len(), 1);
    assert_eq!(pager(&app).current, Some(0));
    assert_eq!(app.message(), Some("match 1/1"), "found: which of how many");
    app.update(ch('n'));
    assert_eq!(app.message(), Some("match 1/1"));
}

#[test]
fn slash_searches_the_whole_transcript_and_n_cycles() {
    let t = common::fold(&tour_path());
    let mut app = tour_viewer();
    app.update(ch('/'));
    assert!(app.modal().prompt().is_some_and(|(_, pager)| !pager));
    assert!(screen(&mut app).contains("search all cards /"));
    typed(&mut app, "notes.mdx");
    app.update(key(KeyCode::Backspace));
    assert_eq!(app.modal().prompt(), Some(("notes.md", false)));
    app.update(key(KeyCode::Enter));
    // Independently: rows of the full-density layout that hold the query.
    let full = layout(&t, app.theme(), &LayoutOptions::new(78, Density::Full));
    let n = full
        .iter()
        .filter(|l| l.text().contains("notes.md"))
        .count();
    assert!(n > 3, "{n}");
    assert_eq!(app.found().matches.len(), n);
    assert_eq!(app.found().current, Some(0));
    assert_eq!(
        app.message(),
        Some(format!("match 1/{n} for \"notes.md\"").as_str())
    );
    let m = app.found().matches[0];
    assert_eq!(app.list().focus, m.entry);
    assert_eq!(
        app.list().overrides.get(&app.list().entries[m.entry]),
        Some(&Density::Full),
        "the card holding the match is shown in full"
    );
    app.update(ch('n'));
    assert_eq!(app.found().current, Some(1));
    assert!(app.message().unwrap().starts_with("match 2/"));
    app.update(ch('N'));
    app.update(ch('N'));
    assert_eq!(app.found().current, Some(n - 1), "N wraps to the last");
    assert_eq!(app.list().focus, app.found().matches[n - 1].entry);
    // The match is drawn on screen, highlighted.
    let s = screen(&mut app);
    assert!(s.contains("notes.md"), "{s}");

    // Esc in the prompt cancels; Esc after a search clears it.
    typed(&mut app, "/zzz");
    app.update(key(KeyCode::Esc));
    assert_eq!(
        (app.modal().prompt().is_none(), app.found().matches.len()),
        (true, n)
    );
    app.update(key(KeyCode::Esc));
    assert!(app.found().matches.is_empty() && app.found().query.is_empty());
    typed(&mut app, "/no-such-text-anywhere");
    app.update(key(KeyCode::Enter));
    assert_eq!(
        app.message(),
        Some("no match for \"no-such-text-anywhere\"")
    );
}

#[test]
fn search_matches_follow_the_hidden_tools_filter() {
    // Matches are positions in the list; hiding tool cards reshuffles the list.
    let mut app = tour_viewer();
    typed(&mut app, "/bg-done");
    app.update(key(KeyCode::Enter));
    assert!(!app.found().matches.is_empty());
    app.update(ch('h'));
    app.update(ch('n'));
    let item = app.list().entries[app.list().focus];
    let t = common::fold(&tour_path());
    let text = deck::view::transcript::item_text(&t, &t.items()[item]);
    assert!(text.contains("bg-done"), "n landed on {text:?}");
}

#[test]
fn n_after_a_replay_seeked_back_stays_in_the_list() {
    let mut app = replayer_sized(&tour_path(), None, 80, 24);
    app.act(Action::Jump(10));
    typed(&mut app, "/bg-done");
    app.update(key(KeyCode::Enter));
    let found = app.found().matches.len();
    assert!(found > 0);
    app.update(ch('0'));
    while app.list().entries.len() < 5 {
        app.update(ch('.'));
    }
    let n = app.list().entries.len();
    assert!(
        app.found().matches.iter().all(|m| m.entry >= n),
        "all behind the clock: {n} {:?}",
        app.found().matches
    );
    for _ in 0..=found {
        app.update(ch('n'));
        assert!(app.list().focus < n, "focus {} of {n}", app.list().focus);
    }
    assert_eq!(app.message(), Some("no match for \"bg-done\""));
}

#[test]
fn player_keys_play_pause_speed_seek_jump_and_step() {
    let mut app = replayer_sized(SHOWCASE, Some(0.0), 80, 24);
    let p = |app: &App| {
        let p = app.player().unwrap();
        (p.playing, p.clock_ms(), p.position())
    };
    let dur = app.player().unwrap().duration_ms();
    let records = common::load(SHOWCASE).records;
    let times = deck::app::player::effective_times(&records, None);
    assert_eq!(times.last().copied(), Some(dur));
    let at = |ms: u64| times.partition_point(|&t| t <= ms);
    assert_eq!(p(&app), (false, 0, 0), "--paused starts at the beginning");

    app.update(ch(' '));
    assert!(p(&app).0);
    app.update(ch(' '));
    assert!(!p(&app).0);

    let speed = |app: &App| app.player().unwrap().speed();
    app.update(ch('+'));
    assert_eq!(speed(&app), 2.0);
    for _ in 0..10 {
        app.update(ch('+'));
    }
    assert_eq!(speed(&app), 64.0);
    assert_eq!(app.message(), Some("speed 64×"));
    for _ in 0..12 {
        app.update(ch('-'));
    }
    assert_eq!(speed(&app), 0.25);
    assert_eq!(app.message(), Some("speed 0.25×"));

    app.update(key(KeyCode::Right));
    assert_eq!(p(&app), (false, 5_000, at(5_000)));
    app.update(key(KeyCode::Right));
    app.update(key(KeyCode::Left));
    assert_eq!(p(&app), (false, 5_000, at(5_000)));
    app.update(key_mod(KeyCode::Right, KeyModifiers::SHIFT));
    let far = 5_000 + dur / 10;
    assert_eq!(p(&app), (false, far, at(far)));
    app.update(key_mod(KeyCode::Left, KeyModifiers::SHIFT));
    assert_eq!(p(&app).1, 5_000);

    for d in 0..=9u64 {
        app.update(ch(char::from(b'0' + d as u8)));
        let ms = (dur as f64 * d as f64 / 10.0) as u64;
        assert_eq!(p(&app), (false, ms, at(ms)), "jump {d}");
    }
    let s = screen(&mut app);
    // The status bar counts session events, not other frames.
    let events = |n: usize| {
        records[..n]
            .iter()
            .filter(|r| matches!(r, deck::wire::Record::Event { .. }))
            .count()
    };
    assert!(
        s.contains(&format!(
            "event {}/{}",
            events(at(dur * 9 / 10)),
            events(records.len())
        )),
        "{s}"
    );

    app.update(ch('5'));
    let pos = p(&app).2;
    app.update(ch('.'));
    assert_eq!(p(&app).2, pos + 1);
    app.update(ch(','));
    app.update(ch(','));
    assert_eq!(p(&app).2, pos - 1);
    assert_eq!(
        app.transcript().events(),
        common::fold_records(&records[..pos - 1]).events()
    );
    app.update(ch(' '));
    app.update(ch('.'));
    assert_eq!((p(&app).0, p(&app).2), (false, pos), "a step pauses");

    // A viewer has no player: the keys say so.
    let mut v = tour_viewer();
    v.update(ch(' '));
    assert_eq!(
        v.message(),
        Some("not a replay: player keys need `deck replay`")
    );
}

#[test]
fn mouse_wheel_scrolls_and_clicks_focus_then_toggle() {
    let tall = tall_tour();
    let mut app = tour_viewer();
    draw(&mut app);
    app.update(mouse(MouseEventKind::ScrollDown, 10, 5));
    assert_eq!(list_rows(&mut app), tall[3..26].to_vec());
    app.update(mouse(MouseEventKind::ScrollDown, 10, 5));
    app.update(mouse(MouseEventKind::ScrollUp, 10, 5));
    assert_eq!(list_rows(&mut app), tall[3..26].to_vec());

    app.update(ch('g'));
    draw(&mut app);
    let row = app.row_map().iter().position(|e| *e == Some(4)).unwrap() as u16;
    assert_eq!(app.update(click(row)), vec![Effect::Redraw]);
    assert_eq!((app.list().focus, app.list().follow), (4, false));
    assert!(
        app.list().overrides.is_empty(),
        "the first click only focuses"
    );
    draw(&mut app);
    app.update(click(row));
    assert_eq!(app.list().overrides.get(&4), Some(&Density::Full));
    draw(&mut app);
    app.update(click(row));
    assert_eq!(app.list().overrides.get(&4), Some(&Density::Preview));
    // The status bar is not an entry.
    assert_eq!(app.update(click(23)), Vec::<Effect>::new());
    assert_eq!(app.list().focus, 4);

    // While following the tail, a click on the last card focuses it first.
    app.update(ch('G'));
    draw(&mut app);
    let last = app.list().entries.len() - 1;
    let row = app.row_map().iter().position(|e| *e == Some(last)).unwrap() as u16;
    app.update(click(row));
    assert_eq!((app.list().focus, app.list().follow), (last, false));
    assert_eq!(app.list().overrides.get(&last), None);
}

#[test]
fn resize_and_ticks_change_the_layout_only() {
    let mut app = tour_viewer();
    assert_eq!(app.update(Msg::Resize(120, 40)), vec![Effect::Redraw]);
    assert_eq!((app.width(), app.height(), app.list_rows()), (120, 40, 39));
    assert!(
        app.update(Msg::Tick {
            real_ms: 1000.0,
            now_ms: NOW_MS
        })
        .is_empty(),
        "a finished session has nothing to animate"
    );
}
