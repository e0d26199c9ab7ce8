//! The help overlay: every key of [`keys::TABLE`](super::keys::TABLE), by
//! section, in a box that scrolls when the screen is short. What it was
//! opened over, and goes back to when closed, is the modal's
//! ([`Modal::Help`](super::modal::Modal::Help)).

use crossterm::event::KeyEvent;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use super::keys::{self, Action, Part};
use super::paint::{clear, put};
use super::outcome::Outcome;
use crate::text::Line;
use crate::theme::{Role, Theme};

/// The help overlay's state.
#[derive(Default)]
pub struct Help {
    /// First line shown.
    pub scroll: usize,
    /// The section shown first: the keys of the part it was opened from
    /// (the library's list opens on the library's keys).
    pub first: Option<&'static str>,
}

impl Help {
    pub fn new() -> Help {
        Help {
            scroll: 0,
            first: None,
        }
    }

    /// Help opened from the library's list: its keys first.
    pub fn for_library() -> Help {
        Help {
            first: Some(LIBRARY_SECTION),
            ..Help::new()
        }
    }

    /// j/k and the page keys scroll a help taller than the screen; any
    /// other key closes it.
    pub fn handle(&mut self, key: KeyEvent, height: u16) -> Outcome {
        let page = (height as usize).saturating_sub(4).max(1);
        match keys::action(Part::Help, key) {
            Some(Action::Quit) => return Outcome::Quit,
            Some(Action::Next) => self.scroll += 1,
            Some(Action::Prev) => self.scroll = self.scroll.saturating_sub(1),
            Some(Action::PageDown) => self.scroll += page,
            Some(Action::PageUp) => self.scroll = self.scroll.saturating_sub(page),
            _ => return Outcome::Close(Vec::new()),
        }
        self.scroll = self.scroll.min(line_count());
        Outcome::Stay
    }
}

/// The section of the library's keys.
pub const LIBRARY_SECTION: &str = "deck sessions";

/// Help's rows, the `first` section's before the others (in table order
/// otherwise).
fn rows(first: Option<&str>) -> Vec<keys::HelpLine> {
    let mut rows = keys::help_lines();
    if let Some(f) = first {
        rows.sort_by_key(|l| l.section != f);
    }
    rows
}

/// Lines of the help overlay, the `first` section first.
pub fn lines(theme: &Theme, first: Option<&str>) -> Vec<Line> {
    let mut out = vec![
        Line::styled("deck — keys", theme.style(Role::Title)),
        Line::new(),
    ];
    let mut section = "";
    for l in rows(first) {
        if l.section != section {
            if !section.is_empty() {
                out.push(Line::new());
            }
            out.push(Line::styled(l.section, theme.style(Role::Heading)));
            section = l.section;
        }
        out.push(
            Line::new()
                .with(format!("  {:<20}", l.keys), theme.style(Role::Command))
                .with(l.what, theme.style(Role::Text)),
        );
    }
    out.push(Line::new());
    out.push(Line::styled(
        "mouse: wheel scrolls · click focuses · click again toggles",
        theme.style(Role::Muted),
    ));
    out
}

/// How many lines [`lines`] has.
fn line_count() -> usize {
    let rows = keys::help_lines();
    let mut sections = rows.iter().map(|l| l.section).collect::<Vec<_>>();
    sections.dedup();
    // Title and blank, the rows, a heading per section and a blank between
    // sections, then a blank and the mouse line.
    2 + rows.len() + sections.len() * 2 - 1 + 2
}

/// The help box, centred in the area.
pub struct HelpView<'a> {
    pub help: &'a Help,
    pub theme: &'a Theme,
    /// The screen's style under the box ([`App::ground`](super::App::ground)).
    pub ground: ratatui::style::Style,
}

impl Widget for HelpView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme;
        let lines = lines(theme, self.help.first);
        let w =
            (lines.iter().map(Line::width).max().unwrap_or(0) + 4).min(area.width as usize) as u16;
        let h = (lines.len() + 2).min(area.height as usize) as u16;
        if w < 2 || h < 2 {
            // No room for a box (a terminal one or two rows high).
            return;
        }
        let x0 = area.x + (area.width - w) / 2;
        let y0 = area.y + (area.height - h) / 2;
        let border = theme.style(Role::Border);
        let text = self.ground.patch(theme.style(Role::Text));
        clear(buf, Rect::new(x0, y0, w, h), text);
        let top = format!("┌{}┐", "─".repeat(w.saturating_sub(2) as usize));
        let inner = h.saturating_sub(2) as usize;
        let max_scroll = lines.len().saturating_sub(inner);
        let scroll = self.help.scroll.min(max_scroll);
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_count_is_the_number_of_lines() {
        assert_eq!(line_count(), lines(&Theme::dark(), None).len());
        assert_eq!(line_count(), lines(&Theme::dark(), Some(LIBRARY_SECTION)).len());
    }

    #[test]
    fn the_first_section_asked_for_comes_first() {
        let heading = |first| lines(&Theme::dark(), first)[2].text();
        assert_ne!(heading(None), LIBRARY_SECTION);
        assert_eq!(heading(Some(LIBRARY_SECTION)), LIBRARY_SECTION);
    }
}
