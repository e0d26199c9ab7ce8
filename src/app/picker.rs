//! The session picker of `deck connect` (`S`): each session's title,
//! running mark, cwd and last activity; `j`/`k` move, Enter shows one,
//! `n` creates one, Esc closes. Its keys (part of [`App::update`]) and its
//! drawing.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::draw::put;
use super::state::{App, Effect};
use crate::text::{Line, wrap};
use crate::theme::Role;

impl App {
    /// Sort the picker's rows from the book (newest activity first), and
    /// keep the picker's row inside them.
    pub(super) fn sort_sessions(&mut self) {
        let mut list = self.book.rows().to_vec();
        list.sort_by_key(|s| std::cmp::Reverse(s.updated_at));
        self.sessions = list;
        self.sessions_stale = false;
        if let Some(p) = self.picker {
            self.picker = Some(p.min(self.sessions.len().saturating_sub(1)));
        }
    }

    /// Open the session picker on the session shown.
    pub(super) fn open_picker(&mut self) {
        if self.sessions_stale {
            self.sort_sessions();
        }
        let current = self.transcript().session_id.clone();
        let at = self
            .sessions
            .iter()
            .position(|s| Some(&s.id) == current.as_ref())
            .unwrap_or(0);
        self.picker = Some(at);
    }

    pub(super) fn on_picker_key(&mut self, k: KeyEvent) -> Vec<Effect> {
        if self.sessions_stale {
            self.sort_sessions();
        }
        let Some(at) = self.picker else {
            return Vec::new();
        };
        let last = self.sessions.len().saturating_sub(1);
        match k.code {
            KeyCode::Char('c') if k.modifiers.contains(KeyModifiers::CONTROL) => {
                return vec![Effect::Quit];
            }
            KeyCode::Char('j') | KeyCode::Down => self.picker = Some((at + 1).min(last)),
            KeyCode::Char('k') | KeyCode::Up => self.picker = Some(at.saturating_sub(1)),
            KeyCode::Enter => {
                self.picker = None;
                if let Some(s) = self.sessions.get(at)
                    && self.transcript().session_id.as_deref() != Some(s.id.as_str())
                {
                    self.message = Some(format!(
                        "switching to {}",
                        s.title.as_deref().unwrap_or(&s.id)
                    ));
                    return vec![Effect::Switch(s.id.clone())];
                }
            }
            KeyCode::Char('n') if self.drive.is_some() => return self.create_session(),
            KeyCode::Esc | KeyCode::Char('q') | KeyCode::Char('S') => self.picker = None,
            _ => {}
        }
        Vec::new()
    }
}

/// The session picker: title, running mark, cwd and last activity per session.
pub(super) fn draw_picker(app: &App, buf: &mut Buffer, area: Rect) {
    let theme = app.theme();
    let Some(sel) = app.picker else { return };
    let w = area.width.saturating_sub(4).min(110);
    let inner = area.height.saturating_sub(4) as usize;
    if w < 12 || inner == 0 {
        return;
    }
    let empty = app.sessions.is_empty();
    let h = (app.sessions.len().max(usize::from(empty)).min(inner) + 3) as u16;
    let x0 = area.x + (area.width - w) / 2;
    let y0 = area.y + (area.height.saturating_sub(h)) / 2;
    let border = theme.style(Role::Border);
    for y in y0..y0 + h {
        for x in x0..x0 + w {
            if let Some(cell) = buf.cell_mut((x, y)) {
                cell.reset();
                cell.set_style(theme.style(Role::Text));
            }
        }
    }
    let iw = w.saturating_sub(4) as usize;
    buf.set_string(x0, y0, format!("┌{}┐", "─".repeat(w as usize - 2)), border);
    buf.set_string(
        x0,
        y0 + h - 1,
        format!("└{}┘", "─".repeat(w as usize - 2)),
        border,
    );
    let title = Line::styled(
        if app.drive.is_some() {
            "sessions — Enter show · n new session · j/k move · Esc close"
        } else {
            "sessions — Enter show · j/k move · Esc close"
        },
        theme.style(Role::Title),
    );
    put(buf, x0 + 2, y0 + 1, iw as u16, &wrap::truncate(&title, iw));
    let first = sel.saturating_sub(inner.saturating_sub(1));
    let newest = app
        .sessions
        .iter()
        .filter_map(|s| s.updated_at)
        .max()
        .unwrap_or(0);
    for (row, (i, s)) in app
        .sessions
        .iter()
        .enumerate()
        .skip(first)
        .take(inner)
        .enumerate()
    {
        let mark = if i == sel { "▌ " } else { "  " };
        let name = crate::text::sanitize::inline(s.title.as_deref().unwrap_or(&s.id));
        let cwd = crate::text::sanitize::inline(s.cwd.as_deref().unwrap_or(""));
        let ago = s
            .updated_at
            .map(|t| {
                format!(
                    "{} before the newest",
                    crate::cards::frame::format_duration(newest - t)
                )
            })
            .filter(|_| s.updated_at != Some(newest))
            .unwrap_or_else(|| "most recent".into());
        let mut line = Line::new()
            .with(mark, theme.style(Role::Focus))
            .with(
                if s.running { "● " } else { "○ " },
                theme.style(if s.running {
                    Role::StatusPending
                } else {
                    Role::Muted
                }),
            )
            .with(
                name,
                if i == sel {
                    theme.style(Role::Focus)
                } else {
                    theme.style(Role::Text)
                },
            );
        line.push_str(format!("  {cwd}"), theme.style(Role::Path));
        line.push_str(format!("  {ago}"), theme.style(Role::Muted));
        let y = y0 + 2 + row as u16;
        buf.set_string(x0, y, "│", border);
        buf.set_string(x0 + w - 1, y, "│", border);
        put(buf, x0 + 2, y, iw as u16, &wrap::truncate(&line, iw));
    }
    if empty {
        let l = Line::styled("no sessions yet: n creates one", theme.style(Role::Muted));
        buf.set_string(x0, y0 + 2, "│", border);
        buf.set_string(x0 + w - 1, y0 + 2, "│", border);
        put(buf, x0 + 2, y0 + 2, iw as u16, &wrap::truncate(&l, iw));
    }
    for y in y0 + 1..y0 + 2 {
        buf.set_string(x0, y, "│", border);
        buf.set_string(x0 + w - 1, y, "│", border);
    }
}
