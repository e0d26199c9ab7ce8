//! The theme's own background: a theme that declares one (`light`, `dark`,
//! `high-contrast`) has it under every cell of the screen — empty rows,
//! margins, around the status bar, inside overlays — with its foreground as
//! the text colour; the `ansi-*` themes and `no-color` paint none. Where a
//! declared background is not painted (`NO_COLOR`, no truecolour in
//! `COLORTERM`) the app says why, once, and the real binary says it on its
//! status bar and in its log.

use deck::app::App;
use deck::app::backdrop::{Colours, NO_COLOR_NOTE};
use deck::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::style::Color;

use crate::common::tui::*;
use crate::tui::pty::Tui;

const WHITE: Color = Color::Rgb(0xff, 0xff, 0xff);
const INK: Color = Color::Rgb(0x1f, 0x23, 0x28);

/// The showcase at 80×24 in the given built-in themes, the first in use.
fn showcase_in(themes: &[&str]) -> App {
    let mut app = viewer_sized(SHOWCASE, 80, 24);
    let themes = themes.iter().map(|n| Theme::builtin(n).unwrap()).collect();
    app.set_themes(themes, 0);
    app
}

/// Rows of the screen with nothing on them.
fn blank_rows(buf: &Buffer) -> Vec<u16> {
    let text = rows(buf);
    (0..buf.area.height)
        .filter(|&y| text[y as usize].is_empty())
        .collect()
}

/// Every cell of row `y` has background `bg`.
fn row_has_bg(buf: &Buffer, y: u16, bg: Option<Color>) -> bool {
    (0..buf.area.width).all(|x| buf[(x, y)].bg == bg.unwrap_or(Color::Reset))
}

#[test]
fn the_light_theme_paints_its_background_under_every_cell() {
    let mut app = showcase_in(&["light"]);
    let buf = draw(&mut app);
    let blank = blank_rows(&buf);
    assert!(!blank.is_empty(), "{}", rows(&buf).join("\n"));
    for y in blank {
        assert!(row_has_bg(&buf, y, Some(WHITE)), "row {y}");
        assert_eq!(buf[(0, y)].fg, INK, "row {y}");
    }
    // No cell is left to the terminal's background.
    for y in 0..buf.area.height {
        for x in 0..buf.area.width {
            assert_ne!(buf[(x, y)].bg, Color::Reset, "cell {x},{y}");
        }
    }
    // Unstyled text (the margin, a message's words) is in the foreground.
    let first = rows(&buf)
        .iter()
        .position(|r| r.contains("Tidy up the parser"))
        .expect("the first prompt") as u16;
    assert_eq!(buf[(0, first)].fg, INK);
    assert_eq!(buf[(0, first)].bg, WHITE);
}

#[test]
fn overlays_sit_on_the_theme_background_too() {
    for (theme, bg) in [
        ("light", WHITE),
        ("high-contrast", Color::Rgb(0, 0, 0)),
        ("dark", Color::Rgb(0x1e, 0x1e, 0x2e)),
    ] {
        let mut app = showcase_in(&[theme]);
        app.update(ch('?'));
        let buf = draw(&mut app);
        let text = rows(&buf);
        // The row under the help box's title: blank inside the box.
        let y = text.iter().position(|r| r.contains('┌')).expect("a box") as u16 + 2;
        let row = &text[y as usize];
        let inside = row.find('│').expect("the box's side") as u16 + 1;
        let x = (inside..buf.area.width)
            .find(|&x| buf[(x, y)].symbol() == " ")
            .expect("a blank cell in the box");
        assert_eq!(buf[(x, y)].bg, bg, "{theme}: {row}");
    }
}

#[test]
fn the_session_picker_sits_on_the_theme_background() {
    let light = vec![Theme::builtin("light").unwrap()];
    let mut app = App::live("host".into(), None, light);
    app.update(deck::app::Msg::Resize(100, 30));
    app.pick_on_start();
    // The picker opens at start on two sessions or more.
    let session = |id: &str, title: &str| deck::source::sessions::SessionSummary {
        id: id.into(),
        title: Some(title.into()),
        cwd: None,
        running: false,
        updated_at: Some(1_000),
        last_seq: None,
    };
    let two = vec![session("a", "One session"), session("b", "Another")];
    app.update(deck::app::Msg::Sessions(two));
    assert_eq!(app.modal().picker(), Some(0));
    let buf = draw(&mut app);
    let text = rows(&buf);
    let y = text
        .iter()
        .position(|r| r.contains("One session"))
        .expect("the session's row") as u16;
    // The blank cell just left of the box's right side.
    let right = text[y as usize].chars().count() as u16 - 1;
    assert_eq!(buf[(right, y)].symbol(), "│");
    assert_eq!(buf[(right - 1, y)].symbol(), " ");
    assert_eq!(buf[(right - 1, y)].bg, WHITE);
}

#[test]
fn palette_themes_and_no_color_paint_no_background() {
    for theme in ["ansi-dark", "ansi-light", "no-color"] {
        let mut app = showcase_in(&[theme]);
        assert_eq!(app.set_colours(Colours::default()), None, "{theme}");
        let buf = draw(&mut app);
        let blank = blank_rows(&buf);
        assert!(!blank.is_empty());
        for y in blank {
            assert!(row_has_bg(&buf, y, None), "{theme} row {y}");
        }
    }
}

#[test]
fn without_truecolour_the_background_is_not_painted_and_the_app_says_why() {
    let no_truecolour = Colours {
        no_color: false,
        truecolor: false,
    };
    let mut app = showcase_in(&["light"]);
    let note = app.set_colours(no_truecolour).expect("a notice");
    assert_eq!(
        note,
        "theme light: background not painted, COLORTERM does not say truecolor"
    );
    let buf = draw(&mut app);
    for y in blank_rows(&buf) {
        assert!(row_has_bg(&buf, y, None), "row {y}");
    }
    // A theme that wants no background of its own has nothing to say.
    let mut app = showcase_in(&["ansi-dark", "light"]);
    assert_eq!(app.set_colours(no_truecolour), None);
    // Cycling to a theme whose background is not painted says so.
    app.update(ch('t'));
    assert_eq!(app.message(), Some(note.as_str()));
    app.update(ch('t'));
    assert_eq!(app.message(), Some("theme ansi-dark"));
}

#[test]
fn no_color_says_why_there_is_no_background() {
    let mut app = showcase_in(&["no-color", "light"]);
    let no_color = Colours {
        no_color: true,
        truecolor: true,
    };
    assert_eq!(app.set_colours(no_color).as_deref(), Some(NO_COLOR_NOTE));
    // Colours off: not painted even for a theme that has one.
    app.update(ch('t'));
    assert_eq!(
        app.message(),
        Some("theme light: background not painted, NO_COLOR is set")
    );
    let buf = draw(&mut app);
    for y in blank_rows(&buf) {
        assert!(row_has_bg(&buf, y, None), "row {y}");
    }
}

#[test]
fn the_binary_paints_the_background_on_a_truecolour_terminal() {
    let mut tui = Tui::spawn_with(
        &["view", SHOWCASE, "--theme", "light"],
        &[("COLORTERM", "truecolor")],
    );
    tui.wait_for("the first screen", |s| {
        s.lines().last().is_some_and(|l| l.contains("? help"))
    });
    assert!(!tui.status().contains("not painted"), "{}", tui.status());
    // A cell far right on the first row: nothing is drawn there.
    assert_eq!(tui.bg(0, 99), Some(vt100::Color::Rgb(0xff, 0xff, 0xff)));
    tui.send("q");
    assert!(tui.wait_exit().success());
}

#[test]
fn the_binary_says_why_without_truecolour_on_the_status_bar_and_in_the_log() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().to_string_lossy().into_owned();
    let mut tui = Tui::spawn_with(
        &["view", SHOWCASE, "--theme", "light"],
        &[
            ("COLORTERM", ""),
            ("DECK_LOG", "info"),
            ("XDG_STATE_HOME", &state),
        ],
    );
    let note = "background not painted, COLORTERM does not say truecolor";
    tui.wait_for("the notice", |s| {
        s.lines().last().is_some_and(|l| l.contains(note))
    });
    assert_eq!(tui.bg(0, 99), Some(vt100::Color::Default));
    tui.send("q");
    assert!(tui.wait_exit().success());
    let log = std::fs::read_to_string(dir.path().join("deck").join("deck.log")).unwrap();
    assert!(log.contains(note), "{log}");
}
