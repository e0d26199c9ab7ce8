//! `deck export --format cast`: a replay as an asciicast v2 recording of the
//! screens deck draws. The app is driven by a simulated clock (no waiting):
//! the player's records become due one after the other, the screen is drawn
//! into ratatui's crossterm backend over an in-memory writer, and the bytes
//! each draw writes (only the changed cells, as in a real terminal) become
//! one output event at that moment. Turn starts are markers. Same input and
//! options, same bytes.

use std::cell::RefCell;
use std::io::{self, Write};
use std::rc::Rc;
use std::sync::Arc;

use ratatui::backend::CrosstermBackend;
use ratatui::layout::Rect;
use ratatui::{Terminal, TerminalOptions, Viewport};
use serde_json::json;

use crate::app::backend::ClusterSafe;
use crate::app::player::Player;
use crate::app::{App, Msg};
use crate::theme::Theme;
use crate::wire::{EventKind, Record};

/// Draws closer together than this are merged into one frame (30 fps).
const FRAME_MS: f64 = 1000.0 / 30.0;

/// What to record.
#[derive(Debug, Clone)]
pub struct CastOptions {
    pub width: u16,
    pub height: u16,
    pub speed: f64,
    pub idle_limit_ms: Option<u64>,
    pub theme: Theme,
    pub title: String,
}

/// What was written.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CastStats {
    pub frames: usize,
    pub markers: usize,
    /// Length of the recording in seconds.
    pub duration: f64,
}

/// A writer that keeps what the terminal backend writes.
#[derive(Clone, Default)]
struct Capture(Rc<RefCell<Vec<u8>>>);

impl Write for Capture {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Capture {
    fn take(&self) -> Vec<u8> {
        std::mem::take(&mut self.0.borrow_mut())
    }
}

/// Write the asciicast of a replay of `records` to `out`.
pub fn write_cast(
    records: Arc<Vec<Record>>,
    session_id: Option<String>,
    opts: &CastOptions,
    out: &mut dyn Write,
) -> anyhow::Result<CastStats> {
    let (w, h) = (opts.width.max(1), opts.height.max(1));
    let start_time = records.iter().find_map(|r| match r {
        Record::Event { event, .. } if event.time > 0 => Some(event.time),
        _ => None,
    });
    // Played once through: no snapshots for seeking.
    let player = Player::forward_only(records.clone(), session_id, opts.idle_limit_ms, opts.speed);
    let mut app = App::replayer(opts.title.clone(), player, vec![opts.theme.clone()]);
    app.lay_out_synchronously();
    app.set_recording();
    app.update(Msg::Resize(w, h));
    let capture = Capture::default();
    let mut term = Terminal::with_options(
        ClusterSafe::fixed(CrosstermBackend::new(capture.clone()), w, h),
        TerminalOptions {
            viewport: Viewport::Fixed(Rect::new(0, 0, w, h)),
        },
    )?;
    let mut header = json!({
        "version": 2,
        "width": w,
        "height": h,
        "title": opts.title,
        "env": {"TERM": "xterm-256color"},
    });
    if let Some(ms) = start_time {
        header["timestamp"] = json!(ms / 1000);
    }
    writeln!(out, "{header}")?;
    let mut stats = CastStats {
        frames: 0,
        markers: 0,
        duration: 0.0,
    };
    let emit = |out: &mut dyn Write, at: f64, kind: &str, data: &str| -> io::Result<()> {
        writeln!(out, "{}", json!([round(at), kind, data]))
    };
    // The first screen: clear it, as the app does when it starts.
    let mut first = b"\x1b[2J\x1b[H".to_vec();
    term.draw(|f| crate::app::draw::frame(&mut app, f.buffer_mut()))?;
    first.extend(capture.take());
    emit(out, 0.0, "o", &String::from_utf8_lossy(&first))?;
    stats.frames += 1;
    let mut now = 0.0f64;
    let mut seen = 0usize;
    // Advance to the next record due, then on while records fall within the
    // same frame's time.
    while let Some(due) = app.player().and_then(Player::next_due_ms) {
        let mut step = due;
        let mut turns = Vec::new();
        let mut since = 0.0;
        loop {
            tick(&mut app, step);
            now += step;
            since += step;
            let Some(p) = app.player() else { break };
            let (pos, len) = (p.position(), p.len());
            for r in &records[seen..pos.min(len)] {
                if let Record::Event { event, .. } = r
                    && event.kind == EventKind::TurnStart
                {
                    let n = event.data.parse()["turn"].as_u64();
                    turns.push(n.map_or("turn".to_string(), |n| format!("turn {n}")));
                }
            }
            seen = pos;
            match p.next_due_ms() {
                Some(next) if since + next < FRAME_MS => step = next.max(0.0),
                _ => break,
            }
        }
        let at = now / 1000.0;
        for label in turns {
            emit(out, at, "m", &label)?;
            stats.markers += 1;
        }
        term.draw(|f| crate::app::draw::frame(&mut app, f.buffer_mut()))?;
        let bytes = capture.take();
        if !bytes.is_empty() {
            emit(out, at, "o", &String::from_utf8_lossy(&bytes))?;
            stats.frames += 1;
        }
        stats.duration = at;
    }
    // The player hid the cursor; the recording ends with it shown, as a
    // terminal is left.
    emit(out, stats.duration, "o", "\u{1b}[?25h")?;
    stats.frames += 1;
    Ok(stats)
}

/// Advance the app's clock by `ms` (the player, spinners, elapsed times).
fn tick(app: &mut App, ms: f64) {
    let now_ms = app.player().and_then(Player::session_time_ms).unwrap_or(0);
    app.update(Msg::Tick {
        real_ms: ms,
        now_ms,
    });
}

/// Seconds with microsecond precision (asciicast times are floats).
fn round(s: f64) -> f64 {
    (s * 1e6).round() / 1e6
}
