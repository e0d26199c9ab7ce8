//! The status bar and the player's timeline: one line each.

use ratatui::style::Style;
use unicode_width::UnicodeWidthStr;

use crate::text::{Line, Span, sanitize, wrap};
use crate::theme::{Role, Theme};

/// What the status bar shows.
#[derive(Debug, Clone, Default)]
pub struct StatusInfo {
    pub source: String,
    pub title: Option<String>,
    pub cards: usize,
    pub errors: usize,
    pub diagnostics: usize,
    /// e.g. `event 120/359 · 00:42/02:10 · 2×`.
    pub position: Option<String>,
    pub theme: String,
    /// A transient message (copied, search results …) or a badge (`↓ 3 new`).
    pub message: Option<String>,
    /// Live session activity: `2 queued · jobs 1/2 running`.
    pub activity: Option<String>,
    /// What the agent says of itself: `mode: default · 12 commands`.
    pub agent: Option<String>,
    /// A recording (`deck export --format cast`): no `? help`, nobody can
    /// press it.
    pub recording: bool,
    /// Shown redacted (`R`): said for as long as it is on.
    pub redacted: bool,
    /// The counts are of what is read so far (the file is still being
    /// read): said `12… cards` until they are known.
    pub partial: bool,
}

/// `mm:ss` (or `h:mm:ss`).
pub fn clock(ms: u64) -> String {
    let s = ms / 1000;
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60)
    } else {
        format!("{:02}:{:02}", s / 60, s % 60)
    }
}

/// Format a speed: `2×`, `0.25×`.
pub fn speed(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{}×", x as u64)
    } else {
        format!("{x}×")
    }
}

/// The queued-messages badge and the jobs line of the status bar (only
/// while something is queued or running): `2 queued · jobs 1/3 running`.
pub fn activity(queued: usize, steering: usize, (jobs, running): (usize, usize)) -> Option<String> {
    let mut parts = Vec::new();
    if queued > 0 {
        parts.push(format!("{queued} queued"));
    }
    if steering > 0 {
        parts.push(format!("{steering} steering"));
    }
    // Finished jobs are history: the line shows while any runs.
    if running > 0 {
        parts.push(format!("jobs {running}/{jobs} running"));
    }
    (!parts.is_empty()).then(|| parts.join(" · "))
}

/// The agent's mode and how many commands it offers, as the status bar
/// says them (`mode: default · 12 commands`); `None` when it said neither.
pub fn agent(mode: Option<&str>, commands: Option<usize>) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(m) = mode {
        parts.push(format!("mode: {}", sanitize::inline(m)));
    }
    if let Some(n) = commands {
        parts.push(count(n, "command"));
    }
    (!parts.is_empty()).then(|| parts.join(" · "))
}

/// `1 card`, `2 cards`.
pub fn count(n: usize, one: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {one}s")
    }
}

/// One part of the status bar's right side; the least important go first
/// when the bar is too narrow (`? help` never does).
struct Part {
    text: String,
    style: Style,
    keep: u8,
}

/// Columns the left side (source and title) keeps at least, when it can.
const LEFT_MIN: usize = 12;

/// The status bar at `width` columns: source and title on the left; on the
/// right the message, the agent's mode and commands, activity, counts,
/// position, theme and `? help`. When they do not fit, the theme goes
/// first, then the activity and the diagnostics, the position, the cards
/// count, the agent's, the errors and the message; `? help` stays.
pub fn status_line(info: &StatusInfo, theme: &Theme, width: usize) -> Line {
    let bar = theme.style(Role::StatusBar);
    let bold = bar.add_modifier(ratatui::style::Modifier::BOLD);
    let bad = theme
        .style(Role::StatusError)
        .bg(bar.bg.unwrap_or_default());
    let mut left = Line::new();
    left.push_str(" ", bar);
    left.push_str(sanitize::inline(&info.source), bold);
    if let Some(t) = &info.title {
        left.push_str(" · ", bar);
        left.push_str(sanitize::inline(t), bar);
    }
    let part = |text: String, style: Style, keep: u8| Part { text, style, keep };
    let message = info
        .message
        .as_ref()
        .map(|m| part(sanitize::inline(m), bold, 7));
    let mut parts: Vec<Part> = Vec::new();
    if info.redacted {
        // Never dropped: whoever shares the screen can see it is on.
        parts.push(part("redacted".into(), bold, u8::MAX));
    }
    if let Some(a) = &info.agent {
        parts.push(part(sanitize::inline(a), bar, 5));
    }
    if let Some(a) = &info.activity {
        parts.push(part(a.clone(), bar, 2));
    }
    let count = |n: usize, one: &str| {
        if info.partial {
            // Not known yet: at least this many.
            format!("{n}… {one}s")
        } else {
            count(n, one)
        }
    };
    parts.push(part(count(info.cards, "card"), bar, 4));
    if info.errors > 0 {
        let style = if theme.monochrome { bar } else { bad };
        parts.push(part(count(info.errors, "error"), style, 6));
    }
    if info.diagnostics > 0 {
        parts.push(part(count(info.diagnostics, "diagnostic"), bar, 2));
    }
    if let Some(p) = &info.position {
        parts.push(part(p.clone(), bar, 3));
    }
    parts.push(part(info.theme.clone(), bar, 1));
    if !info.recording {
        parts.push(part("? help".into(), bar, u8::MAX));
    }
    let mut message = message;
    let right = loop {
        let right = right_side(message.as_ref(), &parts);
        let room = width.saturating_sub(left.width().min(LEFT_MIN) + 1);
        if right.width() <= room {
            break right;
        }
        // Drop the least important part (the message competes too).
        let least = parts
            .iter()
            .enumerate()
            .filter(|(_, p)| p.keep < u8::MAX)
            .min_by_key(|(_, p)| p.keep)
            .map(|(i, p)| (i, p.keep));
        match least {
            Some((_, keep)) if message.as_ref().is_some_and(|m| m.keep < keep) => message = None,
            Some((i, _)) => {
                parts.remove(i);
            }
            None if message.is_some() => message = None,
            None => break right,
        }
    };
    let rw = right.width();
    if rw >= width {
        return wrap::truncate(&right, width).pad_to(width, bar);
    }
    let left = wrap::truncate(&left, width - rw - 1);
    let pad = width - rw - left.width();
    let mut line = left;
    line.push(Span::new(" ".repeat(pad), bar));
    line.spans.extend(right.spans);
    line
}

/// `message  part · part · … · ? help `.
fn right_side(message: Option<&Part>, parts: &[Part]) -> Line {
    let bar = parts.last().map_or_else(Style::default, |p| p.style);
    let mut right = Line::new();
    if let Some(m) = message {
        right.push_str(format!("{}  ", m.text), m.style);
    }
    for (i, p) in parts.iter().enumerate() {
        if i > 0 {
            right.push_str(" · ", bar);
        }
        right.push_str(p.text.clone(), p.style);
    }
    right.push_str(" ", bar);
    right
}

/// The player's timeline: state glyph, a bar with the position and turn
/// marks, times and speed. `marks` are sorted: each cell of the bar looks
/// for a mark of its own (O(width · log marks), whatever the session's
/// length).
pub fn timeline(
    playing: bool,
    clock_ms: u64,
    duration_ms: u64,
    speed_x: f64,
    marks: &[u64],
    theme: &Theme,
    width: usize,
) -> Line {
    let muted = theme.style(Role::Muted);
    let focus = theme.style(Role::Focus);
    let head = if playing { " ▶ " } else { " ⏸ " };
    let tail = timeline_tail(clock_ms, duration_ms, speed_x);
    let bar_w = width.saturating_sub(head.width() + tail.width());
    let mut line = Line::new();
    line.push_str(head, focus);
    if bar_w > 0 {
        let frac = if duration_ms == 0 {
            1.0
        } else {
            clock_ms as f64 / duration_ms as f64
        };
        let pos = ((bar_w - 1) as f64 * frac.clamp(0.0, 1.0)).round() as usize;
        let mut cells: Vec<(char, Style)> = (0..bar_w)
            .map(|i| {
                if i < pos {
                    ('━', focus)
                } else {
                    ('─', muted)
                }
            })
            .collect();
        let cell_of = |m: u64| {
            let f = if duration_ms == 0 {
                0.0
            } else {
                m as f64 / duration_ms as f64
            };
            ((bar_w - 1) as f64 * f.clamp(0.0, 1.0)).round() as usize
        };
        debug_assert!(marks.is_sorted());
        for (i, cell) in cells.iter_mut().enumerate() {
            let first = marks.partition_point(|&m| cell_of(m) < i);
            if marks.get(first).is_some_and(|&m| cell_of(m) == i) {
                *cell = ('┃', if i < pos { focus } else { muted });
            }
        }
        cells[pos] = ('●', focus);
        for (c, st) in cells {
            line.push_str(c.to_string(), st);
        }
    }
    line.push_str(tail, muted);
    wrap::fit(line, width)
}

/// The times and speed at the timeline's right end.
fn timeline_tail(clock_ms: u64, duration_ms: u64, speed_x: f64) -> String {
    format!(
        " {}/{} · {} ",
        clock(clock_ms),
        clock(duration_ms),
        speed(speed_x)
    )
}

/// Where a click at `column` of a [`timeline`] of `width` columns seeks to,
/// as a fraction of the duration: its bar's first cell is 0, its last 1;
/// `None` off the bar.
pub fn timeline_fraction(
    column: usize,
    clock_ms: u64,
    duration_ms: u64,
    speed_x: f64,
    width: usize,
) -> Option<f64> {
    const HEAD: usize = 3;
    let tail = timeline_tail(clock_ms, duration_ms, speed_x);
    let bar_w = width.saturating_sub(HEAD + tail.width());
    if bar_w < 2 || column < HEAD || column >= HEAD + bar_w {
        return None;
    }
    Some((column - HEAD) as f64 / (bar_w - 1) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_click_on_the_timeline_bar_is_a_fraction_of_it() {
        let theme = Theme::dark();
        let width = 60;
        let line = timeline(false, 0, 100_000, 1.0, &[], &theme, width).text();
        let first = line.chars().position(|c| c == '●').unwrap();
        let last = line.chars().count() - 1 - line.chars().rev().position(|c| c == '─').unwrap();
        let at = |col| timeline_fraction(col, 0, 100_000, 1.0, width);
        assert_eq!(at(first), Some(0.0));
        assert_eq!(at(last), Some(1.0));
        let mid = at((first + last) / 2).unwrap();
        assert!((mid - 0.5).abs() < 0.05, "{mid}");
        assert_eq!(at(first - 1), None);
        assert_eq!(at(last + 1), None);
        assert_eq!(timeline_fraction(3, 0, 100_000, 1.0, 10), None);
    }

    #[test]
    fn queue_badge_and_jobs_line_show_only_while_there_is_something() {
        assert_eq!(activity(0, 0, (0, 0)), None);
        assert_eq!(activity(0, 0, (3, 0)), None);
        assert_eq!(activity(2, 0, (0, 0)).as_deref(), Some("2 queued"));
        assert_eq!(
            activity(1, 1, (3, 2)).as_deref(),
            Some("1 queued · 1 steering · jobs 2/3 running")
        );
    }

    #[test]
    fn clocks_and_speeds() {
        assert_eq!(clock(42_000), "00:42");
        assert_eq!(clock(130_000), "02:10");
        assert_eq!(clock(3_723_000), "1:02:03");
        assert_eq!(speed(2.0), "2×");
        assert_eq!(speed(0.25), "0.25×");
    }

    #[test]
    fn status_fits_every_width() {
        let info = StatusInfo {
            source: "tour.jsonl".into(),
            title: Some("A title".into()),
            cards: 31,
            errors: 9,
            diagnostics: 1,
            position: Some("event 120/359 · 00:42/02:10 · 2×".into()),
            theme: "dark".into(),
            message: None,
            activity: Some("2 queued · jobs 1/2 running".into()),
            agent: Some("mode: plan · 3 commands".into()),
            recording: false,
            redacted: false,
            partial: false,
        };
        let theme = Theme::dark();
        for w in 0..200 {
            let l = status_line(&info, &theme, w);
            assert!(l.width() <= w.max(1), "{w}");
        }
        let recorded = StatusInfo {
            recording: true,
            ..info.clone()
        };
        assert!(status_line(&recorded, &theme, 170).text().ends_with("dark "));
        let l = status_line(&info, &theme, 170).text();
        assert!(
            l.contains(
                "mode: plan · 3 commands · 2 queued · jobs 1/2 running · 31 cards · 9 errors · 1 diagnostic · event 120/359"
            ),
            "{l}"
        );
        assert!(l.ends_with("dark · ? help "));
        // The file still being read: counts so far, and how far.
        let reading = StatusInfo {
            partial: true,
            position: Some("loading 34%".into()),
            ..info.clone()
        };
        let l = status_line(&reading, &theme, 170).text();
        assert!(l.contains("31… cards · 9… errors · 1… diagnostics · loading 34%"), "{l}");
    }

    #[test]
    fn a_narrow_bar_drops_the_least_first_and_keeps_help() {
        let info = StatusInfo {
            source: "tour.frames.jsonl".into(),
            title: Some("Capture run: tool tour".into()),
            cards: 1,
            errors: 1,
            diagnostics: 2,
            position: Some("event 120/359 · 00:42/02:10 · 2×".into()),
            theme: "high-contrast".into(),
            message: Some("↓ 3 new".into()),
            activity: None,
            agent: None,
            recording: false,
            redacted: false,
            partial: false,
        };
        let theme = Theme::dark();
        let at = |w| status_line(&info, &theme, w).text();
        let wide = at(200);
        assert!(
            wide.ends_with(
                "↓ 3 new  1 card · 1 error · 2 diagnostics · event 120/359 · 00:42/02:10 · 2× · high-contrast · ? help "
            ),
            "{wide}"
        );
        let narrow = at(80);
        assert!(narrow.ends_with("? help "), "{narrow}");
        assert!(!narrow.contains("high-contrast"), "{narrow}");
        assert!(narrow.contains("↓ 3 new") && narrow.contains("1 error"), "{narrow}");
        assert!(narrow.starts_with(" tour.frames"), "{narrow}");
        for w in [40, 30, 20, 12, 7] {
            assert!(at(w).ends_with("? help "), "{w}: {}", at(w));
        }
        // `redacted` (R) stays as long as `? help` does.
        let redacted = StatusInfo {
            redacted: true,
            ..info.clone()
        };
        for w in [200, 80, 40, 30] {
            let l = status_line(&redacted, &theme, w).text();
            assert!(l.contains("redacted") && l.ends_with("? help "), "{w}: {l}");
        }
        assert_eq!(count(0, "error"), "0 errors");
    }

    #[test]
    fn timeline_marks_turns() {
        let l = timeline(true, 500, 1000, 2.0, &[0, 800], &Theme::dark(), 40).text();
        assert!(l.contains('●'));
        assert_eq!(l.matches('┃').count(), 2, "{l}");
        assert!(l.contains("00:00/00:01 · 2×"));
    }
}
