//! The loading screen shown while a big input loads on its thread: what is
//! loaded, how far (a bar when the size is known), and how to leave; and
//! for a file shown while it is read (`opening.rs`), how far the read is
//! ([`Loading`]) and how it ended ([`LoadEnd`]); and for a big followed
//! file whose end is shown first, the whole read behind it ([`Ahead`]).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use crossterm::event;

use crate::load::{Loaded, LoadedSession};

use crate::text::sanitize;

/// How far a load got, shared with the loading screen.
#[derive(Debug, Default)]
pub struct Progress {
    /// Input bytes read so far.
    pub bytes: Arc<AtomicU64>,
    /// Input size, 0 when unknown (stdin).
    pub total: AtomicU64,
    /// After reading: folding the events.
    pub folding: AtomicBool,
}

/// Keys that leave the loading screen.
pub(super) fn loading_quits(k: &event::KeyEvent) -> bool {
    use crossterm::event::{KeyCode, KeyModifiers};
    k.kind != event::KeyEventKind::Release
        && (matches!(k.code, KeyCode::Char('q') | KeyCode::Esc)
            || (k.code == KeyCode::Char('c') && k.modifiers.contains(KeyModifiers::CONTROL)))
}

/// The loading screen: what, how far (a bar when the size is known), and how to leave.
pub fn draw_loading(
    buf: &mut ratatui::buffer::Buffer,
    label: &str,
    progress: &Progress,
    started: Instant,
) {
    use ratatui::style::{Modifier, Style};
    let area = buf.area;
    let done = progress.bytes.load(Ordering::Relaxed);
    let total = progress.total.load(Ordering::Relaxed);
    let mb = |b: u64| b as f64 / 1e6;
    let what = if progress.folding.load(Ordering::Relaxed) {
        format!("folding {label}")
    } else {
        format!("loading {label}")
    };
    let bar_w = (area.width as usize).saturating_sub(24).clamp(10, 50);
    let amount = if total > 0 {
        let frac = (done as f64 / total as f64).clamp(0.0, 1.0);
        let full = (frac * bar_w as f64).round() as usize;
        format!(
            "{}{} {:>3.0}%  {:.0} of {:.0} MB",
            "█".repeat(full),
            "░".repeat(bar_w - full),
            frac * 100.0,
            mb(done),
            mb(total)
        )
    } else {
        format!("{:.0} MB read", mb(done))
    };
    let lines = [
        (what, Style::default().add_modifier(Modifier::BOLD)),
        (amount, Style::default()),
        (
            format!("{:.1} s · q quits", started.elapsed().as_secs_f64()),
            Style::default().add_modifier(Modifier::DIM),
        ),
    ];
    buf.reset();
    let top = area.height.saturating_sub(lines.len() as u16) / 2;
    for (i, (text, style)) in lines.iter().enumerate() {
        let text = crate::text::wrap::truncate_str(&sanitize::inline(text), area.width as usize);
        let w = unicode_width::UnicodeWidthStr::width(text.as_str()) as u16;
        let x = area.x + area.width.saturating_sub(w) / 2;
        let y = area.y + top + i as u16;
        if y < area.y + area.height {
            buf.set_string(x, y, text, *style);
        }
    }
}

/// How far the file shown is read.
#[derive(Debug, Clone)]
pub struct Loading {
    /// Input bytes read so far.
    pub bytes: Arc<AtomicU64>,
    /// The input's size (0: not known, stdin).
    pub total: u64,
    /// How it is shown: read (`deck view`) or played (`deck replay`).
    pub mode: crate::app::file_sessions::FileMode,
    /// The item to focus at the end (the one focused when `R` read the
    /// file again).
    pub refocus: Option<usize>,
}

impl Loading {
    /// What the status bar says: `loading 34%`, or `loading 12 MB` when
    /// the size is not known.
    pub(super) fn said(&self) -> String {
        let done = self.bytes.load(Ordering::Relaxed);
        if self.total > 0 {
            let pct = (done as f64 * 100.0 / self.total as f64).clamp(0.0, 99.0);
            format!("loading {pct:.0}%")
        } else {
            format!("loading {:.0} MB", done as f64 / 1e6)
        }
    }
}

/// How the read of the file shown ended.
#[derive(Debug, Clone)]
pub struct LoadEnd {
    /// The shown session's place among the file's, and its id.
    pub shown: usize,
    pub id: Option<String>,
    /// Every session of the file in file order, the shown one's records
    /// left out (the app holds them); empty when it holds only that one.
    pub sessions: Vec<LoadedSession>,
    /// The file read again whole, when the records as they came may
    /// differ from a whole read's, and why.
    pub whole: Option<(Loaded, String)>,
    /// Why the read stopped before the end, if it did.
    pub failed: Option<String>,
}

/// The whole of a followed file, folded from its start behind its end
/// while the end is shown (`ahead.rs`).
pub struct Ahead {
    /// Folded from the file's start as it is read (kept for `R` as live
    /// records are), shown once caught up.
    pub(super) whole: crate::session::Transcript,
    /// Bytes read from the start, and the file's size when its end was
    /// read.
    pub(super) read: Arc<AtomicU64>,
    pub(super) size: u64,
}

impl Ahead {
    /// What the status bar says: `the end first · reading the start 34%`.
    pub(super) fn said(&self) -> String {
        let done = self.read.load(Ordering::Relaxed);
        let pct = (done as f64 * 100.0 / self.size.max(1) as f64).clamp(0.0, 99.0);
        format!("the end first · reading from the start {pct:.0}%")
    }
}
