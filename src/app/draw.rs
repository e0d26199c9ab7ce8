//! Drawing the app into a ratatui buffer: the transcript list (through the
//! same card renderers as `deck render`), the focus margin, search
//! highlights, the player timeline, the prompt, the status bar and overlays.
//! Used by the terminal driver and by screen snapshot tests (TestBackend).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;

use super::help;
use super::state::{App, Overlay, PromptFor};
use crate::text::{Line, Span, wrap};
use crate::theme::Role;
use crate::view::list::MARGIN;
use crate::view::search::highlight;
use crate::view::status;

pub(super) fn put(buf: &mut Buffer, x: u16, y: u16, width: u16, line: &Line) {
    let rl: ratatui::text::Line<'static> = line.into();
    buf.set_line(x, y, &rl, width);
}

/// Draw the whole screen.
pub fn draw(app: &mut App, buf: &mut Buffer) {
    let area = buf.area;
    if area.width == 0 || area.height == 0 {
        return;
    }
    app.width = area.width;
    app.height = area.height;
    let w = area.width as usize;
    let mut y = area.y + area.height;

    // Bottom up: status, prompt, timeline.
    y -= 1;
    let theme = app.theme().clone();
    if matches!(app.overlay, Overlay::Pager(_)) {
        let rows = (area.height as usize).saturating_sub(1 + usize::from(app.prompt.is_some()));
        build_pager(app, w, rows);
    }
    if let Overlay::Pager(p) = &app.overlay {
        let title = p.title().to_string();
        let msg = app.message.clone().unwrap_or_else(|| {
            format!(
                "line {}/{}{} · wrap {} · / search · q back",
                (p.scroll + 1).min(p.len().max(1)),
                p.len(),
                p.progress().map(|s| format!(" · {s}")).unwrap_or_default(),
                if p.wrap { "on" } else { "off" }
            )
        });
        let info = status::StatusInfo {
            source: "pager".into(),
            title: Some(title),
            message: Some(msg),
            ..app.status()
        };
        put(
            buf,
            area.x,
            y,
            area.width,
            &status::status_line(&info, &theme, w),
        );
    } else {
        put(
            buf,
            area.x,
            y,
            area.width,
            &status::status_line(&app.status(), &theme, w),
        );
    }
    if let Some((target, text)) = &app.prompt {
        y = y.saturating_sub(1);
        let label = if *target == PromptFor::PagerSearch {
            "/"
        } else {
            "search all cards /"
        };
        let line = Line::new()
            .with(label.to_string(), theme.style(Role::Focus))
            .with(crate::text::sanitize::inline(text), theme.style(Role::Text))
            .with("█", theme.style(Role::Muted));
        put(buf, area.x, y, area.width, &wrap::truncate(&line, w));
    }
    if matches!(app.overlay, Overlay::None | Overlay::Help)
        && let Some(lines) = app.composer_lines()
    {
        for line in lines.iter().rev() {
            y = y.saturating_sub(1);
            put(buf, area.x, y, area.width, line);
        }
    }
    if let (Overlay::None | Overlay::Help, Some(p)) = (&app.overlay, &app.player) {
        y = y.saturating_sub(1);
        let tl = status::timeline(
            p.playing,
            p.clock_ms(),
            p.duration_ms(),
            p.speed(),
            p.turn_marks(),
            &theme,
            w,
        );
        put(buf, area.x, y, area.width, &tl);
    }
    let rows = y.saturating_sub(area.y) as usize;

    if matches!(app.overlay, Overlay::Pager(_)) {
        draw_pager(app, buf, rows);
        return;
    }
    draw_list(app, buf, rows);
    if app.picker.is_some() {
        super::picker::draw_picker(
            app,
            buf,
            Rect {
                x: area.x,
                y: area.y,
                width: area.width,
                height: rows as u16,
            },
        );
    }
    if matches!(app.overlay, Overlay::Help) {
        draw_help(
            app,
            buf,
            Rect {
                x: area.x,
                y: area.y,
                width: area.width,
                height: rows as u16,
            },
        );
    }
}

fn build_pager(app: &mut App, w: usize, rows: usize) {
    let theme = app.theme().clone();
    let Overlay::Pager(mut p) = std::mem::replace(&mut app.overlay, Overlay::None) else {
        return;
    };
    p.build(app.transcript(), &theme, w);
    p.scroll_by(0, rows);
    app.overlay = Overlay::Pager(p);
}

fn draw_pager(app: &mut App, buf: &mut Buffer, rows: usize) {
    let area = buf.area;
    let w = area.width as usize;
    let theme = app.theme().clone();
    let Overlay::Pager(p) = std::mem::replace(&mut app.overlay, Overlay::None) else {
        return;
    };
    for (i, line) in p.visible(&theme, w, rows).iter().enumerate() {
        put(buf, area.x, area.y + i as u16, area.width, line);
    }
    app.overlay = Overlay::Pager(p);
}

fn draw_list(app: &mut App, buf: &mut Buffer, rows: usize) {
    let area = buf.area;
    let query = app.query.clone();
    let theme = app.theme().clone();
    let (t, list, _, opts, _) = app.parts();
    let visible = list.visible(t, &theme, &opts, rows);
    list.trim_cache(rows.max(16));
    app.row_map = visible.iter().map(|(e, _, _)| Some(*e)).collect();
    let focus = app.list.focus;
    let bar = Span::new("▌ ", theme.style(Role::Focus));
    let blank = Span::new(" ".repeat(MARGIN), Style::default());
    let hl = theme.style(Role::Match);
    for (i, (entry, _, line)) in visible.iter().enumerate() {
        let y = area.y + i as u16;
        let Some(line) = line else { continue };
        let line = if query.is_empty() {
            line.clone()
        } else {
            highlight(line, &query, hl)
        };
        let margin = if *entry == focus && !app.list.follow {
            &bar
        } else {
            &blank
        };
        put(
            buf,
            area.x,
            y,
            area.width,
            &line.prefixed(std::slice::from_ref(margin)),
        );
    }
}

fn draw_help(app: &App, buf: &mut Buffer, area: Rect) {
    let theme = app.theme();
    let lines = help::lines(theme);
    let w = (lines.iter().map(Line::width).max().unwrap_or(0) + 4).min(area.width as usize) as u16;
    let h = (lines.len() + 2).min(area.height as usize) as u16;
    if w < 2 || h < 2 {
        // No room for a box (a terminal one or two rows high).
        return;
    }
    let x0 = area.x + (area.width - w) / 2;
    let y0 = area.y + (area.height - h) / 2;
    let border = theme.style(Role::Border);
    let fill = theme.style(Role::Text);
    for y in y0..y0 + h {
        for x in x0..x0 + w {
            if let Some(cell) = buf.cell_mut((x, y)) {
                cell.reset();
                cell.set_style(fill);
            }
        }
    }
    let top = format!("┌{}┐", "─".repeat(w.saturating_sub(2) as usize));
    let inner = h.saturating_sub(2) as usize;
    let max_scroll = lines.len().saturating_sub(inner);
    let scroll = app.help_scroll.min(max_scroll);
    // When the help does not fit, the bottom border says how to see the rest.
    let hint = if max_scroll == 0 {
        String::new()
    } else if scroll < max_scroll {
        " ↓ j/k scroll · q close ".to_string()
    } else {
        " ↑ j/k scroll · q close ".to_string()
    };
    let dashes = (w.saturating_sub(2) as usize).saturating_sub(hint.chars().count());
    let bottom = if dashes + hint.chars().count() == w.saturating_sub(2) as usize {
        format!("└{hint}{}┘", "─".repeat(dashes))
    } else {
        format!("└{}┘", "─".repeat(w.saturating_sub(2) as usize))
    };
    buf.set_string(x0, y0, &top, border);
    buf.set_string(x0, y0 + h - 1, &bottom, border);
    for (i, line) in lines.iter().skip(scroll).take(inner).enumerate() {
        let y = y0 + 1 + i as u16;
        buf.set_string(x0, y, "│", border);
        buf.set_string(x0 + w - 1, y, "│", border);
        put(buf, x0 + 2, y, w.saturating_sub(4), line);
    }
}
