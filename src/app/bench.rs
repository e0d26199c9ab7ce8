//! `deck bench frames`: how long a screen takes to draw, measured on the
//! real app and renderer. Loads once, then draws N screens at pseudo-random
//! scroll positions and focus changes and reports the distribution.

use std::time::Instant;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::state::{App, Msg};
use crate::session::Transcript;
use crate::theme::Theme;

/// Frame-time percentiles in microseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FrameTimes {
    pub p50: u128,
    pub p99: u128,
    pub max: u128,
}

impl std::fmt::Display for FrameTimes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "p50 {} p99 {} max {}", self.p50, self.p99, self.max)
    }
}

/// Draw `iterations` screens of `width`×`height` over `t`, each after a
/// pseudo-random move (scroll, focus, jump, toggle); deterministic order.
pub fn frames(t: Transcript, width: u16, height: u16, iterations: usize) -> FrameTimes {
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    let mut app = App::viewer("bench".into(), t, vec![Theme::dark()]);
    // As the interactive app draws: first layouts plain, colours from the
    // layout thread (taken in before each move, as the app's tick does).
    app.list.progressive = true;
    app.update(Msg::Resize(width, height));
    let mut buf = Buffer::empty(Rect::new(0, 0, width, height));
    super::draw::draw(&mut app, &mut buf);
    let entries = app.list.entries.len().max(1);
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let mut times = Vec::with_capacity(iterations);
    for _ in 0..iterations {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let key = |c: KeyCode| Msg::Key(KeyEvent::new(c, KeyModifiers::NONE));
        let msg = match x % 8 {
            0 => key(KeyCode::Char('j')),
            1 => key(KeyCode::Char('k')),
            2 => key(KeyCode::PageDown),
            3 => key(KeyCode::PageUp),
            4 => key(KeyCode::Enter),
            5 => Msg::Key(KeyEvent::new(KeyCode::Char('d'), KeyModifiers::CONTROL)),
            // A jump to a random place: focus an entry anywhere in the session.
            _ => {
                app.list.follow = false;
                app.list.focus = (x >> 8) as usize % entries;
                app.list.anchor = crate::view::list::Anchor {
                    entry: app.list.focus,
                    row: 0,
                };
                key(KeyCode::Char('j'))
            }
        };
        app.list.poll_layouts();
        app.update(msg);
        let start = Instant::now();
        buf.reset();
        super::draw::draw(&mut app, &mut buf);
        times.push(start.elapsed().as_micros());
    }
    times.sort_unstable();
    let pick = |q: f64| {
        times
            .get(((times.len() as f64 - 1.0) * q).round() as usize)
            .copied()
            .unwrap_or(0)
    };
    FrameTimes {
        p50: pick(0.5),
        p99: pick(0.99),
        max: times.last().copied().unwrap_or(0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::load_bytes;

    #[test]
    fn frames_reports_ordered_percentiles() {
        let l = load_bytes("demo", crate::source::demo::SHOWCASE).unwrap();
        let s = &l.sessions[0];
        let t = Transcript::from_records(s.id.clone(), &s.records);
        let ft = frames(t, 120, 40, 50);
        assert!(ft.p50 <= ft.p99 && ft.p99 <= ft.max, "{ft}");
        assert!(ft.max > 0);
        assert!(ft.to_string().starts_with("p50 "));
    }
}
