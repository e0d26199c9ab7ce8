//! The library's screen: a top line (how many sessions, the filter, the
//! indexing progress or a notice), the column heads, one row per session
//! — agent, title (a problem marked), cwd, start (UTC), length, calls,
//! errors, size — or, after a search, two rows per hit (its session and
//! card, then the snippet with the matched words marked), and at the
//! bottom the search line being typed or the keys. Every text from the
//! files is sanitized to one line.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Widget;

use super::{LibraryPart, Results, Sort};
use crate::app::paint::put;
use crate::cards::chrome::format_duration;
use crate::library::SessionRow;
use crate::library::filter::iso;
use crate::source::limits::human;
use crate::text::sanitize::inline;
use crate::text::{Line, wrap};
use crate::theme::{Role, Theme};

/// The library, full screen.
pub struct LibraryView<'a> {
    pub part: &'a LibraryPart,
    pub theme: &'a Theme,
    pub ground: Style,
    /// The app's message (cleared by the next key).
    pub message: Option<&'a str>,
    /// `R`: secrets and the home folder hidden in every text shown.
    pub redacted: bool,
}

/// `text` on one line, redacted when `on` (the same rules as an export;
/// a text that cannot be redacted is not shown).
fn scrub(text: &str, on: bool) -> String {
    if !on {
        return inline(text);
    }
    let mut tally = crate::text::redact::Tally::default();
    match crate::text::redact::Redactor::stock().and_then(|r| r.redact(text, &mut tally)) {
        Ok(t) => inline(&t),
        Err(_) => "‹not shown: cannot redact›".into(),
    }
}

/// Rows a hit takes.
const HIT_ROWS: usize = 2;

impl LibraryView<'_> {
    /// Rows of the list between the heads and the bottom line.
    pub fn list_rows(height: u16) -> usize {
        usize::from(height.saturating_sub(3))
    }
}

impl Widget for LibraryView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        if area.width < 10 || area.height < 4 {
            return;
        }
        let (p, theme) = (self.part, self.theme);
        let w = usize::from(area.width);
        let st = |r: Role| self.ground.patch(theme.style(r));
        buf.set_style(area, self.ground);
        put(buf, area.x, area.y, area.width, &wrap::truncate(&self.top(w), w));
        let rows = LibraryView::list_rows(area.height);
        match &p.results {
            Some(r) => self.hits(r, area, rows, buf),
            None => {
                let head = Line::styled(header(w, p.sort), st(Role::Muted));
                put(buf, area.x, area.y + 1, area.width, &wrap::truncate(&head, w));
                let first = p.row.saturating_sub(rows.saturating_sub(1));
                for (i, r) in p.rows().enumerate().skip(first).take(rows) {
                    let y = area.y + 2 + (i - first) as u16;
                    let line = session_line(r, i == p.row, w, p.sort, theme, self.redacted);
                    put(buf, area.x, y, area.width, &wrap::truncate(&line, w));
                }
                if p.kept.is_empty() {
                    let what = if p.updating() {
                        "no sessions yet: indexing…"
                    } else if p.filter.is_empty() {
                        "no sessions found (deck looks in ~/.dsh, ~/.claude, ~/.codex, and --dir)"
                    } else {
                        "no session matches the filter (a agent · c this directory · d date)"
                    };
                    put(buf, area.x + 2, area.y + 2, area.width - 2, &Line::styled(what, st(Role::Muted)));
                }
            }
        }
        let bottom = match &p.prompt {
            Some(pr) => Line::styled("/", st(Role::Focus)).with(format!("{}▏", inline(&pr.text)), st(Role::Text)),
            None => match (self.message, &p.opening) {
                (_, Some(o)) => Line::styled(
                    format!("opening {}…", scrub(&o.target.path.display().to_string(), self.redacted)),
                    st(Role::Muted),
                ),
                (Some(m), None) => Line::styled(inline(m), st(Role::Text)),
                (None, None) => Line::styled(
                    if p.results.is_some() {
                        "Enter open at the card · r replay · j/k move · / search · Esc back to the list · ? help · q quit"
                    } else {
                        "Enter view · r replay · / search all sessions · a agent · c this directory · d date · s sort · t theme · ? help · q quit"
                    },
                    st(Role::Muted),
                ),
            },
        };
        put(buf, area.x, area.y + area.height - 1, area.width, &wrap::truncate(&bottom, w));
    }
}

impl LibraryView<'_> {
    /// `deck sessions · 40 sessions · codex · in /w` and, on the right, the
    /// progress or the notice.
    fn top(&self, w: usize) -> Line {
        let (p, theme) = (self.part, self.theme);
        let st = |r: Role| self.ground.patch(theme.style(r));
        let n = p.kept.len();
        let mut left = format!("deck sessions · {n} session{}", if n == 1 { "" } else { "s" });
        if !p.filter.is_empty() {
            left.push_str(&format!(" · {}", p.filter.describe()));
        }
        if p.sort != super::Sort::default() {
            left.push_str(&format!(" · by {}", p.sort.name()));
        }
        let mut line = Line::styled(inline(&left), st(Role::Title));
        let right = p
            .progress()
            .map(|s| (s, Role::Muted))
            .or_else(|| p.note.clone().map(|s| (s, Role::Warning)));
        if let Some((text, role)) = right {
            let text = inline(&text);
            let used = unicode_width::UnicodeWidthStr::width(left.as_str());
            let tw = unicode_width::UnicodeWidthStr::width(text.as_str());
            let gap = w.saturating_sub(used + tw).max(2);
            line.push_str(" ".repeat(gap), st(Role::Text));
            line.push_str(text, st(role));
        }
        line
    }

    fn hits(&self, r: &Results, area: Rect, rows: usize, buf: &mut Buffer) {
        let theme = self.theme;
        let st = |role: Role| self.ground.patch(theme.style(role));
        let w = usize::from(area.width);
        let n = r.hits.len();
        let count = match (r.more, r.total) {
            (true, Some(total)) => format!("the best {n} of {total} hits"),
            (true, None) => format!("the best {n} hits, more match"),
            (false, _) => format!("{n} hit{}", if n == 1 { "" } else { "s" }),
        };
        let head = Line::styled(
            format!("search {:?} · {count} · Esc back to the list", inline(&r.query)),
            st(Role::Muted),
        );
        put(buf, area.x, area.y + 1, area.width, &wrap::truncate(&head, w));
        if r.hits.is_empty() {
            put(buf, area.x + 2, area.y + 2, area.width - 2, &Line::styled("no match", st(Role::Muted)));
            return;
        }
        let fit = (rows / HIT_ROWS).max(1);
        let first = r.row.saturating_sub(fit - 1);
        for (i, h) in r.hits.iter().enumerate().skip(first).take(fit) {
            let y = area.y + 2 + ((i - first) * HIT_ROWS) as u16;
            let sel = i == r.row;
            let mut line = Line::styled(if sel { "▌ " } else { "  " }, st(Role::Focus));
            line.push_str(format!("{:<12}", h.row.agent), st(Role::Muted));
            line.push_str(
                scrub(h.row.title.as_deref().or(h.row.id.as_deref()).unwrap_or("(untitled)"), self.redacted),
                st(if sel { Role::Focus } else { Role::Text }),
            );
            let part = if h.part.is_empty() { &h.kind } else { &h.part };
            let place = match (&h.tool, &h.call) {
                (Some(t), _) => format!("  · {} card · {t} · {part}", h.kind),
                _ => format!("  · {part}"),
            };
            line.push_str(inline(&place), st(Role::Muted));
            if let Some(t) = h.time {
                line.push_str(format!("  · {}", minute(t)), st(Role::Muted));
            }
            put(buf, area.x, y, area.width, &wrap::truncate(&line, w));
            if usize::from(y - area.y) + 1 < usize::from(area.height) - 1 {
                let snip = if self.redacted {
                    // Marks are of the text as it came: the redacted one unmarked.
                    Line::styled(scrub(&h.snippet, true), st(Role::Text))
                } else {
                    snippet_line(&h.snippet, &h.marks, theme, self.ground)
                };
                put(buf, area.x + 4, y + 1, area.width.saturating_sub(4), &wrap::truncate(&snip, w.saturating_sub(4)));
            }
        }
    }
}

/// A snippet with its marks in the match style.
fn snippet_line(s: &str, marks: &[std::ops::Range<usize>], theme: &Theme, ground: Style) -> Line {
    let mut line = Line::new();
    let mut at = 0;
    for m in marks {
        if m.start < at || m.end > s.len() {
            continue;
        }
        line.push_str(inline(&s[at..m.start]), ground.patch(theme.style(Role::Text)));
        line.push_str(inline(&s[m.start..m.end]), ground.patch(theme.style(Role::Match)));
        at = m.end;
    }
    line.push_str(inline(&s[at..]), ground.patch(theme.style(Role::Text)));
    line
}

/// `2026-11-30 20:05`.
fn minute(ms: i64) -> String {
    let s = iso(ms);
    format!("{} {}", &s[..10], &s[11..16])
}

/// The columns laid out for `w`: the fixed ones on the right (dropped
/// when they would leave the title less than 30 columns), title and cwd
/// sharing what is left (cwd a third of it, dropped when under 56 or the facts are).
#[allow(clippy::too_many_arguments)]
fn columns(
    w: usize,
    agent: &str,
    title: &str,
    cwd: &str,
    started: &str,
    length: &str,
    calls: &str,
    errors: &str,
    size: &str,
) -> String {
    // Wide enough for a heading and its sort mark.
    let mut right = format!("  {started:<16}  {length:>8}  {calls:>7}  {errors:>8}  {size:>9}");
    if w.saturating_sub(2 + right.chars().count()) < 30 {
        // Too narrow for the facts: the title is what matters.
        right.clear();
    }
    let left_w = w.saturating_sub(2 + right.chars().count());
    let (agent_w, cwd_w) = (12, if left_w >= 56 && !right.is_empty() { left_w / 3 } else { 0 });
    let title_w = left_w.saturating_sub(agent_w + cwd_w);
    let cell = |s: &str, n: usize| {
        let t = wrap::truncate_str(s, n.saturating_sub(1));
        let pad = n.saturating_sub(unicode_width::UnicodeWidthStr::width(t.as_str()));
        format!("{t}{}", " ".repeat(pad))
    };
    let mut out = format!("  {}{}", cell(agent, agent_w), cell(title, title_w));
    if cwd_w > 0 {
        out.push_str(&cell(cwd, cwd_w));
    }
    out.push_str(&right);
    out
}

/// The list's column headings, the time column's saying which time it
/// shows (the one the list is sorted by: the last event's, or the start's)
/// and the column sorted by marked `▾`.
fn header(w: usize, sort: Sort) -> String {
    let mark = |name: &str, by: bool| if by { format!("{name} ▾") } else { name.to_string() };
    let time = match sort {
        Sort::Started => mark("started (UTC)", true),
        s => mark("last (UTC)", s == Sort::Ended),
    };
    columns(
        w,
        "agent",
        "title",
        "cwd",
        &time,
        &mark("length", sort == Sort::Length),
        &mark("calls", sort == Sort::Calls),
        &mark("errors", sort == Sort::Errors),
        &mark("size", sort == Sort::Size),
    )
}

/// One session's row: its time column the start when sorted by it, else
/// the last event's time (the first's when it has one only).
fn session_line(r: &SessionRow, selected: bool, w: usize, sort: Sort, theme: &Theme, redacted: bool) -> Line {
    let time = match sort {
        Sort::Started => r.started,
        _ => r.ended.or(r.started),
    };
    let title = scrub(r.title.as_deref().or(r.id.as_deref()).unwrap_or("(untitled)"), redacted);
    let title = match &r.problem {
        Some(p) => format!("⚠ {title} — {}", scrub(p, redacted)),
        None => title,
    };
    let text = columns(
        w,
        &r.agent,
        &title,
        &scrub(r.cwd.as_deref().unwrap_or(""), redacted),
        &time.map(minute).unwrap_or_default(),
        &r.started
            .zip(r.ended)
            .map(|(a, b)| format_duration(b - a))
            .unwrap_or_default(),
        &r.calls.to_string(),
        &r.errors.to_string(),
        &human(r.bytes),
    );
    let role = match (selected, r.problem.is_some()) {
        (true, _) => Role::Focus,
        (false, true) => Role::Warning,
        (false, false) => Role::Text,
    };
    let mut line = Line::styled(if selected { "▌" } else { " " }, theme.style(Role::Focus));
    line.push_str(text.chars().skip(1).collect::<String>(), theme.style(role));
    line
}
