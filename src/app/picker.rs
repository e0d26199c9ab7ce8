//! The session picker (`S`): the host's sessions in `deck connect`
//! ([`Sessions`], newest activity first), or the sessions of a file holding
//! several (`deck view`, `deck replay`: in the file's order, see
//! `file_sessions.rs`); a row to move with `j`/`k`, Enter to show one, `n` to
//! create one (a host), Esc to close; and its box, drawn over the
//! transcript ([`PickerView`]): each host session's title, running mark,
//! cwd and last activity, or each file session's title (else its first
//! prompt), id, events and calls, start and length.

use crossterm::event::KeyEvent;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use super::file_sessions::{FileSession, FileSessions};
use super::keys::{self, Action, Part};
use super::msg::Effect;
use super::paint::{clear, put};
use super::outcome::Outcome;
use crate::source::sessions::{SessionBook, SessionChange, SessionSummary};
use crate::text::{Line, wrap};
use crate::theme::{Role, Theme};

/// The host's sessions: every one reported, indexed by id, and the
/// picker's rows sorted from them (again when they changed, at most once a
/// tick).
#[derive(Default)]
pub struct Sessions {
    /// Newest activity first.
    rows: Vec<SessionSummary>,
    book: SessionBook,
    /// `book` changed since `rows` were sorted.
    stale: bool,
    /// Open the picker when the first list arrives (`deck connect` without
    /// `--session` or `--latest`).
    pub pick_on_start: bool,
}

impl Sessions {
    pub fn rows(&self) -> &[SessionSummary] {
        &self.rows
    }

    pub fn is_empty(&self) -> bool {
        self.book.is_empty()
    }

    /// The working directory of session `id`, when the host said.
    pub fn cwd_of(&self, id: &str) -> Option<&str> {
        self.book.get(id).and_then(|s| s.cwd.as_deref())
    }

    pub fn is_stale(&self) -> bool {
        self.stale
    }

    /// Rows in the order given, never sorted (the sessions of a file, in
    /// the file's order).
    pub fn in_order(rows: Vec<SessionSummary>) -> Sessions {
        let mut book = SessionBook::default();
        book.replace(rows.clone());
        Sessions {
            rows,
            book,
            stale: false,
            pick_on_start: false,
        }
    }

    /// A whole new list.
    pub fn replace(&mut self, list: Vec<SessionSummary>) {
        self.book.replace(list);
        self.sort();
    }

    /// One session new, changed or gone: O(1) here; the rows are sorted
    /// again later ([`Sessions::sort`]).
    pub fn apply(&mut self, change: SessionChange) {
        self.book.apply(change);
        self.stale = true;
    }

    /// Sort the rows from the book, newest activity first.
    pub fn sort(&mut self) {
        let mut list = self.book.rows().to_vec();
        list.sort_by_key(|s| std::cmp::Reverse(s.updated_at));
        self.rows = list;
        self.stale = false;
    }
}

/// The picker, open on a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Picker {
    pub row: usize,
}

impl Picker {
    /// Open on the session shown (else the first).
    pub fn open(sessions: &Sessions, current: Option<&str>) -> Picker {
        let row = sessions
            .rows
            .iter()
            .position(|s| Some(s.id.as_str()) == current)
            .unwrap_or(0);
        Picker { row }
    }

    /// Keep the row inside the rows.
    pub fn clamp(&mut self, sessions: &Sessions) {
        self.row = self.row.min(sessions.rows.len().saturating_sub(1));
    }

    /// A key. Enter on another session than `current` closes the picker
    /// with a switch; `n` asks the app for a new session (when it can make
    /// one).
    pub fn handle(
        &mut self,
        key: KeyEvent,
        sessions: &Sessions,
        current: Option<&str>,
        can_create: bool,
        message: &mut Option<String>,
    ) -> Outcome {
        let last = sessions.rows.len().saturating_sub(1);
        match keys::action(Part::Picker, key) {
            Some(Action::Quit) => Outcome::Quit,
            Some(Action::Next) => {
                self.row = (self.row + 1).min(last);
                Outcome::Stay
            }
            Some(Action::Prev) => {
                self.row = self.row.saturating_sub(1);
                Outcome::Stay
            }
            Some(Action::Show) => match sessions.rows.get(self.row) {
                Some(s) if current != Some(s.id.as_str()) => {
                    *message = Some(format!(
                        "switching to {}",
                        s.title.as_deref().unwrap_or(&s.id)
                    ));
                    Outcome::Close(vec![Effect::Switch(s.id.clone())])
                }
                _ => Outcome::Close(Vec::new()),
            },
            Some(Action::NewSession) if can_create => Outcome::App(Action::NewSession),
            Some(Action::Back) => Outcome::Close(Vec::new()),
            _ => Outcome::Stay,
        }
    }
}

/// The picker's box: title, running mark, cwd and last activity per session.
pub struct PickerView<'a> {
    pub picker: Picker,
    pub sessions: &'a Sessions,
    pub theme: &'a Theme,
    /// The screen's style under the box ([`App::ground`](super::App::ground)).
    pub ground: ratatui::style::Style,
    /// `n` makes a session (`deck connect`).
    pub can_create: bool,
    /// The sessions of a file (its rows are drawn from these), and the
    /// file's name.
    pub file: Option<(&'a FileSessions, &'a str)>,
}

impl Widget for PickerView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme;
        let rows = &self.sessions.rows;
        let sel = self.picker.row;
        let w = area.width.saturating_sub(4).min(110);
        let inner = area.height.saturating_sub(4) as usize;
        if w < 12 || inner == 0 {
            return;
        }
        let empty = rows.is_empty();
        let h = (rows.len().max(usize::from(empty)).min(inner) + 3) as u16;
        let x0 = area.x + (area.width - w) / 2;
        let y0 = area.y + (area.height.saturating_sub(h)) / 2;
        let border = theme.style(Role::Border);
        let text = self.ground.patch(theme.style(Role::Text));
        clear(buf, Rect::new(x0, y0, w, h), text);
        let iw = w.saturating_sub(4) as usize;
        buf.set_string(x0, y0, format!("┌{}┐", "─".repeat(w as usize - 2)), border);
        buf.set_string(
            x0,
            y0 + h - 1,
            format!("└{}┘", "─".repeat(w as usize - 2)),
            border,
        );
        let title = Line::styled(
            match self.file {
                // Nothing shown yet: closing quits.
                Some((f, name)) if f.shown().is_none() => format!(
                    "{} sessions in {} — Enter show · j/k move · q quit",
                    f.sessions.len(),
                    crate::text::sanitize::inline(name)
                ),
                Some((f, name)) => format!(
                    "{} sessions in {} — Enter show · j/k move · Esc close",
                    f.sessions.len(),
                    crate::text::sanitize::inline(name)
                ),
                None if self.can_create => {
                    "sessions — Enter show · n new session · j/k move · Esc close".into()
                }
                None => "sessions — Enter show · j/k move · Esc close".into(),
            },
            theme.style(Role::Title),
        );
        put(buf, x0 + 2, y0 + 1, iw as u16, &wrap::truncate(&title, iw));
        let first = sel.saturating_sub(inner.saturating_sub(1));
        let newest = rows.iter().filter_map(|s| s.updated_at).max().unwrap_or(0);
        for (row, (i, s)) in rows.iter().enumerate().skip(first).take(inner).enumerate() {
            let line = match self.file.and_then(|(f, _)| f.sessions.get(i).map(|s| (f, s))) {
                Some((f, fs)) => file_line(fs, i == sel, f.shown() == Some(i), theme),
                None => session_line(s, i == sel, newest, theme),
            };
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
        buf.set_string(x0, y0 + 1, "│", border);
        buf.set_string(x0 + w - 1, y0 + 1, "│", border);
    }
}

/// One session's row: mark, running dot, title, cwd, age.
fn session_line(s: &SessionSummary, selected: bool, newest: i64, theme: &Theme) -> Line {
    let mark = if selected { "▌ " } else { "  " };
    let name = crate::text::sanitize::inline(s.title.as_deref().unwrap_or(&s.id));
    let cwd = crate::text::sanitize::inline(s.cwd.as_deref().unwrap_or(""));
    let ago = s
        .updated_at
        .map(|t| {
            format!(
                "{} before the newest",
                crate::cards::chrome::format_duration(newest - t)
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
            theme.style(if selected { Role::Focus } else { Role::Text }),
        );
    line.push_str(format!("  {cwd}"), theme.style(Role::Path));
    line.push_str(format!("  {ago}"), theme.style(Role::Muted));
    line
}

/// One session of a file: mark, title (else first prompt, else id), id,
/// events and calls, start (UTC) and length when its events have times.
fn file_line(s: &FileSession, selected: bool, shown: bool, theme: &Theme) -> Line {
    let mark = if selected { "▌ " } else { "  " };
    let id = s.id.as_deref().unwrap_or("(no id)");
    let name = crate::text::sanitize::inline(s.outline.title.as_deref().unwrap_or(id));
    let o = &s.outline;
    let mut line = Line::new().with(mark, theme.style(Role::Focus)).with(
        name,
        theme.style(if selected { Role::Focus } else { Role::Text }),
    );
    if s.outline.title.is_some() {
        line.push_str(
            format!("  {}", crate::text::sanitize::inline(id)),
            theme.style(Role::Path),
        );
    }
    let plural = |n: usize, one: &str| format!("{n} {one}{}", if n == 1 { "" } else { "s" });
    let mut facts = format!("  {} · {}", plural(o.events, "event"), plural(o.calls, "call"));
    if let (Some(first), Some(last)) = (o.first_time, o.last_time) {
        facts.push_str(&format!(
            " · {} · {}",
            utc_minute(first),
            crate::cards::chrome::format_duration(last - first)
        ));
    }
    if shown {
        facts.push_str(" · shown");
    }
    line.push_str(facts, theme.style(Role::Muted));
    line
}

/// Epoch ms as `2026-11-30 20:05 UTC`.
fn utc_minute(ms: i64) -> String {
    let s = crate::library::filter::iso(ms);
    format!("{} {} UTC", &s[..10], &s[11..16])
}

#[cfg(test)]
mod date_tests {
    use super::utc_minute;

    #[test]
    fn utc_minutes() {
        assert_eq!(utc_minute(0), "1970-01-01 00:00 UTC");
        assert_eq!(utc_minute(1_796_000_000_000), "2026-11-30 00:53 UTC");
        // A leap day.
        assert_eq!(utc_minute(951_782_400_000), "2000-02-29 00:00 UTC");
        assert_eq!(utc_minute(-60_000), "1969-12-31 23:59 UTC");
    }
}
