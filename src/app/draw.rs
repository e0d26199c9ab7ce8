//! The screen, in two steps. [`App::prepare`] lays out what the next frame
//! shows (the pager's card, the transcript rows on screen, through the same
//! card renderers as `deck render`); [`draw`] only paints the app into a
//! ratatui buffer — the transcript with its focus margin and search
//! highlights, the player's timeline, the search line, the message field,
//! the status bar and the overlays, all on the theme's background when it
//! is painted ([`App::ground`]). [`frame`] does both (exports, benches
//! and screen tests).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Widget;

use super::help::HelpView;
use super::modal::Modal;
use super::pager::{PagerPart, PagerView};
use super::paint::put;
use super::picker::PickerView;
use super::state::{App, ScreenRow};
use crate::text::{Line, wrap};
use crate::theme::{Role, Theme};
use crate::view::list::MARGIN;
use crate::view::search::highlight;
use crate::view::status;

/// What the rows under the transcript hold, bottom up after the status
/// bar: the search line, the message field, the timeline, the banner of a
/// lost host connection.
struct Bottom {
    prompt: Option<(String, bool)>,
    composer: Vec<Line>,
    timeline: bool,
    banner: Vec<Line>,
}

impl App {
    fn bottom(&self) -> Bottom {
        let under_pager = self.modal.is_pager();
        Bottom {
            prompt: self.modal.prompt().map(|(t, pager)| (t.to_string(), pager)),
            composer: if under_pager {
                Vec::new()
            } else {
                self.composer_lines().unwrap_or_default()
            },
            timeline: !under_pager && self.shown.player.is_some(),
            banner: if under_pager {
                Vec::new()
            } else {
                self.lost_banner()
            },
        }
    }

    /// Lay out the next frame for a screen of `area`: the pager's card, or
    /// the transcript's rows on screen (kept for [`draw`] and for clicks).
    pub fn prepare(&mut self, area: Rect) {
        if area.width == 0 || area.height == 0 {
            return;
        }
        let shown = self.focused_prompt().map(|(item, _)| item);
        if let Some(d) = self.drive.as_mut() {
            d.shown = Some(shown);
        }
        self.width = area.width;
        self.height = area.height;
        let b = self.bottom();
        let prompt = usize::from(b.prompt.is_some());
        let above_timeline = 1 + prompt + b.composer.len();
        self.timeline_row = b
            .timeline
            .then(|| area.y + area.height)
            .and_then(|bottom| bottom.checked_sub(above_timeline as u16 + 1));
        if self.modal.is_pager() {
            let rows = (area.height as usize).saturating_sub(1 + prompt);
            if let Modal::Pager(mut part) = std::mem::take(&mut self.modal) {
                prepare_pager(&mut part, self, rows);
                self.modal = Modal::Pager(part);
            }
            return;
        }
        let used = 1 + prompt + b.composer.len() + usize::from(b.timeline) + b.banner.len();
        let rows = (area.height as usize).saturating_sub(used);
        let (t, list, theme, opts, _) = self.parts();
        let visible = list.visible(t, theme, &opts, rows);
        list.trim_cache(rows.max(16));
        self.screen = visible;
    }
}

fn prepare_pager(part: &mut PagerPart, app: &mut App, rows: usize) {
    let cx = app.pager_cx();
    part.build(&cx);
    part.pager.scroll_by(0, rows);
}

/// Lay out and draw the whole screen into `buf`.
pub fn frame(app: &mut App, buf: &mut Buffer) {
    app.prepare(buf.area);
    draw(app, buf);
}

/// Paint the screen as [`App::prepare`] laid it out.
pub fn draw(app: &App, buf: &mut Buffer) {
    let area = buf.area;
    if area.width == 0 || area.height == 0 {
        return;
    }
    let w = area.width as usize;
    let theme = app.theme();
    // The theme's own background under every cell (when it is painted).
    let ground = app.ground();
    if ground != Style::default() {
        buf.set_style(area, ground);
    }
    if let Some(part) = app.modal.library() {
        super::library::LibraryView {
            part,
            theme,
            ground,
            message: app.message.as_deref(),
            redacted: app.redacted(),
        }
        .render(area, buf);
        if let Modal::Help { help, .. } = &app.modal {
            HelpView {
                help,
                theme,
                ground,
            }
            .render(area, buf);
        }
        return;
    }
    let b = app.bottom();
    // Bottom up: status, search line, message field, timeline.
    let mut y = area.y + area.height - 1;
    put(buf, area.x, y, area.width, &status_line(app, theme, w));
    let mut row = |height: u16| {
        y = y.saturating_sub(height);
        Rect {
            y,
            height,
            ..area
        }
    };
    if let Some((text, in_pager)) = &b.prompt {
        SearchLineView {
            text,
            in_pager: *in_pager,
            theme,
        }
        .render(row(1), buf);
    }
    if !b.composer.is_empty() {
        RowsView { lines: &b.composer }.render(row(b.composer.len() as u16), buf);
    }
    if b.timeline
        && let Some(player) = &app.shown.player
    {
        TimelineView { player, theme }.render(row(1), buf);
    }
    if !b.banner.is_empty() {
        RowsView { lines: &b.banner }.render(row(b.banner.len() as u16), buf);
    }
    let above = Rect {
        height: y.saturating_sub(area.y),
        ..area
    };
    if let Some(pager) = app.modal.pager() {
        PagerView { pager, theme }.render(above, buf);
        return;
    }
    // `deck connect` with no host yet: what to do about it, not a blank.
    let notice = app.drive.as_ref().and_then(|d| {
        app.link
            .unreachable_notice(d.host.as_deref(), theme, usize::from(above.width))
    });
    match notice {
        Some(lines) => RowsView { lines: &lines }.render(above, buf),
        None => TranscriptView {
            rows: &app.screen,
            focus: (!app.list.follow).then_some(app.list.focus),
            query: &app.found.query,
            theme,
        }
        .render(above, buf),
    }
    match &app.modal {
        Modal::Picker(picker) => PickerView {
            picker: *picker,
            sessions: &app.sessions,
            theme,
            ground,
            can_create: app.drive.is_some(),
            file: app.file.as_ref().map(|f| (f, app.label.as_str())),
        }
        .render(above, buf),
        Modal::Help { help, .. } => HelpView {
            help,
            theme,
            ground,
        }
        .render(above, buf),
        _ => {}
    }
}

/// The search line being typed: `search all cards /` (or the pager's `/`),
/// the text, a cursor block.
struct SearchLineView<'a> {
    text: &'a str,
    in_pager: bool,
    theme: &'a Theme,
}

impl Widget for SearchLineView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme;
        let label = if self.in_pager {
            "/"
        } else {
            "search all cards /"
        };
        let line = Line::new()
            .with(label.to_string(), theme.style(Role::Focus))
            .with(crate::text::sanitize::inline(self.text), theme.style(Role::Text))
            .with("█", theme.style(Role::Muted));
        let w = usize::from(area.width);
        put(buf, area.x, area.y, area.width, &wrap::truncate(&line, w));
    }
}

/// Rows laid out beforehand, from the top of the area (`deck connect`'s
/// message field, its notices).
struct RowsView<'a> {
    lines: &'a [Line],
}

impl Widget for RowsView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        for (line, y) in self.lines.iter().zip(area.y..area.y + area.height) {
            put(buf, area.x, y, area.width, line);
        }
    }
}

/// The player's timeline: play state, the bar with turn marks, times and
/// speed.
struct TimelineView<'a> {
    player: &'a crate::app::player::Player,
    theme: &'a Theme,
}

impl Widget for TimelineView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let p = self.player;
        let line = status::timeline(
            p.playing,
            p.clock_ms(),
            p.duration_ms(),
            p.speed(),
            p.turn_marks(),
            self.theme,
            usize::from(area.width),
        );
        put(buf, area.x, area.y, area.width, &line);
    }
}

/// The status bar; the pager's says where in the card it is.
fn status_line(app: &App, theme: &Theme, w: usize) -> Line {
    let Some(p) = app.modal.pager() else {
        return status::status_line(&app.status(), theme, w);
    };
    let msg = app.message.clone().unwrap_or_else(|| {
        let (line, lines) = p.line_position();
        format!(
            "line {line}/{lines}{} · wrap {} · / search · q back",
            p.progress().map(|s| format!(" · {s}")).unwrap_or_default(),
            if p.wrap { "on" } else { "off" }
        )
    });
    let info = status::StatusInfo {
        source: "pager".into(),
        title: Some(p.title().to_string()),
        message: Some(msg),
        ..app.status()
    };
    status::status_line(&info, theme, w)
}

/// The transcript's rows as laid out, the focused entry marked in the
/// margin, matches of the search highlighted.
pub struct TranscriptView<'a> {
    pub rows: &'a [ScreenRow],
    /// The entry with the focus mark (none while following the tail).
    pub focus: Option<usize>,
    pub query: &'a str,
    pub theme: &'a Theme,
}

impl Widget for TranscriptView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme;
        let bar = Line::styled("▌ ", theme.style(Role::Focus));
        let hl = theme.style(Role::Match);
        // The margin, then the line beside it: painted where they are,
        // not copied into one line.
        let margin = MARGIN.min(usize::from(area.width)) as u16;
        for (i, shown) in self.rows.iter().take(area.height as usize).enumerate() {
            let Some(line) = shown.line() else { continue };
            let y = area.y + i as u16;
            if Some(shown.entry) == self.focus {
                put(buf, area.x, y, margin, &bar);
            }
            let (x, width) = (area.x + margin, area.width - margin);
            if self.query.is_empty() {
                put(buf, x, y, width, line);
            } else {
                put(buf, x, y, width, &highlight(line, self.query, hl));
            }
        }
    }
}
