//! Helpers for the TUI tests: apps over the real tour capture and the
//! showcase, key and mouse messages, and screens drawn by
//! `deck::app::draw::draw` read back as text (or text plus styles).
//! Everything is deterministic: dark theme first, a fixed clock, no env.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use deck::app::{App, Effect, Msg};
use deck::cli::PlayerArgs;
use deck::commands::replay::replay_app;
use deck::session::{Item, Transcript};
use deck::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};

/// The epoch time every test clock says (2026-11-30 00:00 UTC).
pub const NOW_MS: i64 = 1_796_000_000_000;

pub fn tour_path() -> String {
    super::capture_str("tour", "frames.jsonl")
}

pub const SHOWCASE: &str = "demo-sessions/showcase.jsonl";

/// `dark` first (the one in use), then `light`.
pub fn themes() -> Vec<Theme> {
    vec![Theme::dark(), Theme::builtin("light").unwrap()]
}

/// A viewer over the final state of `path`, sized `w`×`h`, clock fixed.
pub fn viewer_sized(path: &str, w: u16, h: u16) -> App {
    let mut app = App::viewer("tour".into(), super::fold(path), themes());
    app.update(Msg::Resize(w, h));
    app.update(Msg::Tick {
        real_ms: 0.0,
        now_ms: NOW_MS,
    });
    app
}

/// `app` made ready to be looked at: the themes, every layout done at
/// once, `w`×`h`, the test clock.
pub fn ready(mut app: App, w: u16, h: u16) -> App {
    app.set_themes(themes(), 0);
    app.lay_out_synchronously();
    app.update(Msg::Resize(w, h));
    app.update(Msg::Tick {
        real_ms: 0.0,
        now_ms: NOW_MS,
    });
    app
}

/// The tour in a viewer at 80×24.
pub fn tour_viewer() -> App {
    viewer_sized(&tour_path(), 80, 24)
}

/// A paused replay of `path` (idle gaps capped as given), sized `w`×`h`.
pub fn replayer_sized(path: &str, idle_limit: Option<f64>, w: u16, h: u16) -> App {
    let loaded = deck::source::load_path(path).unwrap();
    let args = PlayerArgs {
        paused: true,
        idle_limit,
        ..Default::default()
    };
    let mut app = replay_app("tour".into(), &loaded, None, &args, &Default::default()).unwrap();
    app.set_themes(themes(), 0);
    app.update(Msg::Resize(w, h));
    app.update(Msg::Tick {
        real_ms: 0.0,
        now_ms: NOW_MS,
    });
    app
}

pub fn key_mod(code: KeyCode, modifiers: KeyModifiers) -> Msg {
    Msg::Key(KeyEvent::new(code, modifiers))
}

pub fn key(code: KeyCode) -> Msg {
    key_mod(code, KeyModifiers::NONE)
}

/// A typed character (upper case comes with Shift, as terminals send it).
pub fn ch(c: char) -> Msg {
    let m = if c.is_uppercase() {
        KeyModifiers::SHIFT
    } else {
        KeyModifiers::NONE
    };
    key_mod(KeyCode::Char(c), m)
}

pub fn ctrl(c: char) -> Msg {
    key_mod(KeyCode::Char(c), KeyModifiers::CONTROL)
}

/// Type every character of `keys`; the effects of all of them.
pub fn typed(app: &mut App, keys: &str) -> Vec<Effect> {
    keys.chars().flat_map(|c| app.update(ch(c))).collect()
}

pub fn mouse(kind: MouseEventKind, column: u16, row: u16) -> Msg {
    Msg::Mouse(MouseEvent {
        kind,
        column,
        row,
        modifiers: KeyModifiers::NONE,
    })
}

pub fn click(row: u16) -> Msg {
    mouse(MouseEventKind::Down(MouseButton::Left), 10, row)
}

/// Draw the whole screen at the app's size.
pub fn draw(app: &mut App) -> Buffer {
    let mut buf = Buffer::empty(Rect::new(0, 0, app.width(), app.height()));
    deck::app::draw::frame(app, &mut buf);
    buf
}

/// The rows of a buffer as text, trailing blanks trimmed.
pub fn rows(buf: &Buffer) -> Vec<String> {
    let a = buf.area;
    (a.y..a.y + a.height)
        .map(|y| {
            let mut s = String::new();
            for x in a.x..a.x + a.width {
                s.push_str(buf[(x, y)].symbol());
            }
            s.trim_end().to_string()
        })
        .collect()
}

/// Draw and return the screen as text, rows joined with `\n`.
pub fn screen(app: &mut App) -> String {
    rows(&draw(app)).join("\n")
}

/// The screen as text plus, under each row, its styled runs
/// (`@from-to fg=… bg=… bold`), in the format of `deck render --format styled`.
pub fn styled(buf: &Buffer) -> String {
    use deck::headless::writer::describe_style;
    let a = buf.area;
    let text = rows(buf);
    let mut out = String::new();
    for (i, y) in (a.y..a.y + a.height).enumerate() {
        out.push_str(&text[i]);
        out.push('\n');
        let mut x = a.x;
        while x < a.x + a.width {
            let style = plain_reset(buf[(x, y)].style());
            let start = x;
            while x < a.x + a.width && plain_reset(buf[(x, y)].style()) == style {
                x += 1;
            }
            let desc = describe_style(style);
            if !desc.is_empty() {
                out.push_str(&format!("    @{}-{} {desc}\n", start - a.x, x - a.x));
            }
        }
    }
    out
}

/// A cell's style with the terminal's default colours (`Reset`) as no colour.
fn plain_reset(mut style: Style) -> Style {
    if style.fg == Some(Color::Reset) {
        style.fg = None;
    }
    if style.bg == Some(Color::Reset) {
        style.bg = None;
    }
    style
}

/// The item index under the focus.
pub fn focused(app: &App) -> usize {
    app.focused_item().expect("something is focused")
}

/// Item indices of tool cards whose status is error or failed.
pub fn bad_items(t: &Transcript) -> Vec<usize> {
    t.items()
        .iter()
        .enumerate()
        .filter(|(_, it)| matches!(it, Item::Tool(c) if t.cards()[*c].status.is_bad()))
        .map(|(i, _)| i)
        .collect()
}

/// Item index of the first tool card whose title starts with `title`.
pub fn card_item(t: &Transcript, title: &str) -> usize {
    t.items()
        .iter()
        .position(|it| {
            matches!(it, Item::Tool(c) if deck::cards::resolve(&t.cards()[*c]).title.starts_with(title))
        })
        .unwrap_or_else(|| panic!("no card {title:?}"))
}

/// The screen's list rows with the 2-column focus margin cut off.
pub fn list_rows(app: &mut App) -> Vec<String> {
    let n = app.list_rows();
    rows(&draw(app))
        .into_iter()
        .take(n)
        .map(|r| r.chars().skip(2).collect())
        .collect()
}

/// The whole tour as the list draws it from the top, on one very tall screen.
pub fn tall_tour() -> Vec<String> {
    let mut app = viewer_sized(&tour_path(), 80, 3000);
    list_rows(&mut app)
}

pub fn pager(app: &App) -> &deck::view::pager::Pager {
    app.modal().pager().expect("the pager is not open")
}

/// The screen a replay of `recs` ends on, as the app draws it (every
/// layout done at once, clock simulated, recorded: no `? help`), `w`×`h`.
pub fn replay_final_screen(
    sid: Option<String>,
    recs: std::sync::Arc<Vec<deck::wire::Record>>,
    idle_limit_ms: Option<u64>,
    speed: f64,
    theme: &Theme,
    (w, h): (u16, u16),
) -> Vec<String> {
    use deck::app::player::Player;
    let player = Player::new(recs, sid, idle_limit_ms, speed);
    let mut app = App::replayer("test".into(), player, vec![theme.clone()]);
    app.lay_out_synchronously();
    app.set_recording();
    app.update(Msg::Resize(w, h));
    while let Some(due) = app.player().and_then(Player::next_due_ms) {
        let now_ms = app.player().and_then(Player::session_time_ms).unwrap_or(0);
        app.update(Msg::Tick {
            real_ms: due,
            now_ms,
        });
    }
    rows(&draw(&mut app))
}
