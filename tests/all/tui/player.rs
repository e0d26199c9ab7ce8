//! The replay player as a user meets it: seeking starts the `↓ N new` badge
//! again, and a click on the timeline seeks there.

use crossterm::event::{MouseButton, MouseEventKind};
use deck::app::Msg;

use crate::common::tui::*;

#[test]
fn the_new_badge_counts_arrivals_not_seeks() {
    let mut app = replayer_sized(&tour_path(), Some(0.0), 80, 24);
    app.update(ch('5'));
    app.update(ch('g'));
    assert!(!app.list().follow, "g leaves the tail");
    // Seeking back folds the transcript anew: none of it is new.
    app.update(ch('0'));
    assert_eq!(app.unseen(), 0);
    app.update(ch('9'));
    assert_eq!(app.unseen(), 0, "a seek forward is the user's own move");
    app.update(ch('3'));
    app.update(ch(','));
    assert_eq!(app.unseen(), 0);
    assert!(!screen(&mut app).contains("new"));
    // Playing on while scrolled away: what arrives is counted.
    app.update(ch('0'));
    app.update(ch(' '));
    app.update(Msg::Tick {
        real_ms: 20_000.0,
        now_ms: NOW_MS,
    });
    let unseen = app.unseen();
    assert!(unseen > 0);
    assert!(
        screen(&mut app).contains(&format!("↓ {unseen} new")),
        "{}",
        screen(&mut app)
    );
    assert!(unseen <= app.list().entries.len());
}

#[test]
fn a_click_on_the_timeline_seeks_there() {
    let mut app = replayer_sized(&tour_path(), Some(0.0), 80, 24);
    let rows = rows(&draw(&mut app));
    let row = rows.iter().position(|r| r.contains('●')).unwrap() as u16;
    assert_eq!(row, 22, "the timeline sits above the status bar");
    let bar: Vec<char> = rows[row as usize].chars().collect();
    let first = bar.iter().position(|&c| c == '●').unwrap();
    let last = bar.iter().rposition(|&c| c == '─').unwrap();
    let dur = app.player().unwrap().duration_ms();
    let click = |col: usize| mouse(MouseEventKind::Down(MouseButton::Left), col as u16, row);
    app.update(click(last));
    assert_eq!(app.player().unwrap().clock_ms(), dur);
    app.update(click((first + last) / 2));
    let mid = app.player().unwrap().clock_ms() as f64 / dur as f64;
    assert!((mid - 0.5).abs() < 0.03, "{mid}");
    app.update(click(first));
    assert_eq!(app.player().unwrap().clock_ms(), 0);
    // Off the bar (its head, its times): nothing moves.
    app.update(click(last));
    app.update(click(1));
    app.update(click(79));
    assert_eq!(app.player().unwrap().clock_ms(), dur);
}

#[test]
fn every_step_changes_the_screen() {
    let mut app = replayer_sized(&tour_path(), Some(0.0), 100, 30);
    // The screen but the timeline and the player's position in the status
    // bar, which move with every record, shown or not.
    let shown = |app: &mut deck::app::App| {
        let s = screen(app);
        let mut rows: Vec<String> = s.lines().map(str::to_string).collect();
        let status = rows.pop().unwrap_or_default();
        rows.pop();
        let status = match (status.find("event "), status.find('×')) {
            (Some(a), Some(b)) if a < b => format!("{}{}", &status[..a], &status[b..]),
            _ => status,
        };
        rows.push(status);
        rows.join("\n")
    };
    let end = app.player().unwrap().len();
    let mut steps = 0;
    let mut before = shown(&mut app);
    while app.player().unwrap().position() < end {
        app.update(ch('.'));
        let now = shown(&mut app);
        let pos = app.player().unwrap().position();
        assert!(
            pos == end || now != before,
            "`.` to record {pos} drew nothing new"
        );
        before = now;
        steps += 1;
    }
    assert!(steps > 20, "{steps}");
    let mut back = 0;
    while app.player().unwrap().position() > 0 {
        app.update(ch(','));
        let now = shown(&mut app);
        let pos = app.player().unwrap().position();
        assert!(
            pos == 0 || now != before,
            "`,` to record {pos} drew nothing new"
        );
        before = now;
        back += 1;
    }
    assert!(back > 20, "{back}");
}
