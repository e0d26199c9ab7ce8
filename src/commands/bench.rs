//! `deck bench frames|pager` (hidden from `--help`; the bench scripts call
//! it): how long a screen takes to draw, measured on the
//! real app and renderer. Loads once, then draws N screens at pseudo-random
//! scroll positions and focus changes and reports the distribution.

use std::time::Instant;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::app::{App, Msg};
use crate::cli::BenchCommand;
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

/// What `deck bench frames` measured: every frame, and the layout part of
/// the frames after a jump (where never-seen cards are laid out first: what
/// a long session's frames cost more than a short one's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Frames {
    pub all: FrameTimes,
    pub jump_layout: FrameTimes,
}

impl std::fmt::Display for Frames {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Keys of their own: the scripts read the frame's `p99`.
        write!(
            f,
            "{} jump_layout_p50 {} jump_layout_p99 {}",
            self.all, self.jump_layout.p50, self.jump_layout.p99
        )
    }
}

/// Draw `iterations` screens of `width`×`height` over `t`, each after a
/// pseudo-random move (scroll, focus, jump, toggle); deterministic order.
pub fn frames(t: Transcript, width: u16, height: u16, iterations: usize) -> Frames {
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    let mut app = App::viewer("bench".into(), t, vec![Theme::dark()]);
    // As the interactive app draws: first layouts plain, colours from the
    // layout thread (taken in before each move, as the app's tick does).
    app.lay_out_progressively();
    app.update(Msg::Resize(width, height));
    let mut buf = Buffer::empty(Rect::new(0, 0, width, height));
    crate::app::draw::frame(&mut app, &mut buf);
    let entries = app.list().entries.len().max(1);
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let mut times = Vec::with_capacity(iterations);
    let mut jump_layouts = Vec::new();
    for _ in 0..iterations {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let key = |c: KeyCode| Msg::Key(KeyEvent::new(c, KeyModifiers::NONE));
        let jump = x % 8 >= 6;
        let msg = match x % 8 {
            0 => key(KeyCode::Char('j')),
            1 => key(KeyCode::Char('k')),
            2 => key(KeyCode::PageDown),
            3 => key(KeyCode::PageUp),
            4 => key(KeyCode::Enter),
            5 => Msg::Key(KeyEvent::new(KeyCode::Char('d'), KeyModifiers::CONTROL)),
            // A jump to a random place: focus an entry anywhere in the session.
            _ => {
                app.show_at_top((x >> 8) as usize % entries);
                key(KeyCode::Char('j'))
            }
        };
        app.take_layouts();
        app.update(msg);
        let start = Instant::now();
        buf.reset();
        // `draw::frame`, its two halves timed apart.
        app.prepare(buf.area);
        if jump {
            jump_layouts.push(start.elapsed().as_micros());
        }
        crate::app::draw::draw(&app, &mut buf);
        times.push(start.elapsed().as_micros());
    }
    Frames {
        all: percentiles(times),
        jump_layout: percentiles(jump_layouts),
    }
}

/// What opening the heaviest card in the pager costs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PagerTimes {
    /// From the key to the end of the first drawn frame, in microseconds.
    pub first_us: u128,
    /// Card rows the first frame had (a stand-in has none past its note).
    pub first_rows: usize,
    /// Until all the card's text was there, and until its colours were, in ms.
    pub text_ms: u128,
    pub colours_ms: u128,
    /// Frames after jumps (end, random rows) once laid out.
    pub jumps: FrameTimes,
}

impl std::fmt::Display for PagerTimes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "first {} rows {} text_ms {} colours_ms {} jumps {}",
            self.first_us, self.first_rows, self.text_ms, self.colours_ms, self.jumps
        )
    }
}

/// Open the pager (`v`) on the heaviest tool card of `t` at `width`×`height`
/// and time it: the first frame, the full text, the colours (waiting at most
/// `wait_ms` for the layout thread), then `jumps` frames after jumps.
pub fn pager(t: Transcript, width: u16, height: u16, jumps: usize, wait_ms: u64) -> PagerTimes {
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    let heaviest = t
        .items()
        .iter()
        .enumerate()
        .filter_map(|(i, it)| match it {
            crate::session::Item::Tool(c) => Some((crate::view::worker::weight(&t.cards()[*c]), i)),
            _ => None,
        })
        .max()
        .map(|(_, i)| i);
    let mut app = App::viewer("bench".into(), t, vec![Theme::dark()]);
    app.update(Msg::Resize(width, height));
    let mut buf = Buffer::empty(Rect::new(0, 0, width, height));
    // No list drawn first: its stand-in for the card would already have
    // scanned the view; this is the cold open.
    if let Some(entry) = heaviest.and_then(|i| app.list().entries.iter().position(|&e| e == i)) {
        app.set_focus(entry);
    }
    let key = |c: KeyCode| Msg::Key(KeyEvent::new(c, KeyModifiers::NONE));
    let start = Instant::now();
    app.update(key(KeyCode::Char('v')));
    buf.reset();
    crate::app::draw::frame(&mut app, &mut buf);
    let first_us = start.elapsed().as_micros();
    let pager = |app: &App| app.modal().pager().map(|p| (p.len(), p.progress()));
    let first_rows = pager(&app).map_or(0, |(n, _)| n);
    let (mut text_ms, mut colours_ms) = (None, None);
    let tick = Msg::Tick {
        real_ms: 5.0,
        now_ms: 0,
    };
    while colours_ms.is_none() && start.elapsed().as_millis() < u128::from(wait_ms) {
        std::thread::sleep(std::time::Duration::from_millis(5));
        app.update(tick.clone());
        let progress = pager(&app).and_then(|(_, p)| p);
        if text_ms.is_none() && progress != Some("laying out the rest …") {
            text_ms = Some(start.elapsed().as_millis());
        }
        if progress.is_none() {
            colours_ms = Some(start.elapsed().as_millis());
        }
    }
    buf.reset();
    crate::app::draw::frame(&mut app, &mut buf);
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut times = Vec::with_capacity(jumps);
    for n in 0..jumps {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let msg = match n % 4 {
            0 => key(KeyCode::Char('G')),
            1 => key(KeyCode::Char('g')),
            2 => key(KeyCode::PageDown),
            _ => {
                let len = app.modal().pager().map_or(1, |p| p.len().max(1));
                app.scroll_pager_to((x >> 8) as usize % len);
                key(KeyCode::Char('j'))
            }
        };
        let start = Instant::now();
        app.update(msg);
        buf.reset();
        crate::app::draw::frame(&mut app, &mut buf);
        times.push(start.elapsed().as_micros());
    }
    PagerTimes {
        first_us,
        first_rows,
        text_ms: text_ms.unwrap_or(u128::MAX),
        colours_ms: colours_ms.unwrap_or(u128::MAX),
        jumps: percentiles(times),
    }
}

fn percentiles(mut times: Vec<u128>) -> FrameTimes {
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

/// Run `deck bench frames|pager`: load once, measure, print one line.
pub fn run(what: BenchCommand) -> anyhow::Result<()> {
    let line = match what {
        BenchCommand::Frames {
            path,
            width,
            height,
            iterations,
            session,
        } => frames(
            load(&path, session.as_deref())?,
            width,
            height,
            iterations.max(1),
        )
        .to_string(),
        BenchCommand::Pager {
            path,
            width,
            height,
            jumps,
            wait_ms,
            session,
        } => pager(
            load(&path, session.as_deref())?,
            width,
            height,
            jumps.max(1),
            wait_ms,
        )
        .to_string(),
    };
    super::shared::output::write_stdout(format!("{line}\n").as_bytes())
}

fn load(path: &str, session: Option<&str>) -> anyhow::Result<Transcript> {
    let loaded = crate::source::load_path(path)?;
    let s = loaded.session(session)?;
    Ok(Transcript::from_records(
        s.id.clone(),
        &s.records,
        crate::agents::stock(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::load_bytes;

    #[test]
    fn frames_reports_ordered_percentiles() {
        let l = load_bytes("demo", crate::source::demo::SHOWCASE).unwrap();
        let s = &l.sessions[0];
        let t = Transcript::from_records(s.id.clone(), &s.records, crate::agents::stock());
        let f = frames(t, 120, 40, 50);
        for ft in [f.all, f.jump_layout] {
            assert!(ft.p50 <= ft.p99 && ft.p99 <= ft.max, "{f}");
        }
        assert!(f.all.max > 0);
        // A jump's layout is part of its frame.
        assert!(f.jump_layout.max <= f.all.max, "{f}");
        let line = f.to_string();
        assert!(line.starts_with("p50 "), "{line}");
        // One `p99` key: the frame's (the scripts read it by its key).
        assert_eq!(line.split(' ').filter(|w| *w == "p99").count(), 1, "{line}");
        assert!(line.contains(" jump_layout_p99 "), "{line}");
    }
}
