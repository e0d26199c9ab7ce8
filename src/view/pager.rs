//! The pager: one card at full density, full screen, with vertical and
//! horizontal scrolling, a wrap toggle and search inside. With wrap off the
//! card is laid out at a wide width and scrolled sideways.

use crate::cards::Density;
use crate::session::Transcript;
use crate::text::{Line, wrap};
use crate::theme::{Role, Theme};
use crate::view::search::{find_in, highlight};
use crate::view::transcript::{LayoutOptions, render_item};

/// Width cards are laid out at when wrapping is off.
pub const NOWRAP_WIDTH: usize = 400;

pub struct Pager {
    /// Index into `Transcript::items`.
    pub item: usize,
    pub scroll: usize,
    pub hscroll: usize,
    pub wrap: bool,
    pub query: String,
    pub matches: Vec<usize>,
    pub current: Option<usize>,
    lines: Vec<Line>,
    built: Option<(usize, u64, String, bool)>,
}

impl Pager {
    pub fn new(item: usize) -> Pager {
        Pager {
            item,
            scroll: 0,
            hscroll: 0,
            wrap: true,
            query: String::new(),
            matches: Vec::new(),
            current: None,
            lines: Vec::new(),
            built: None,
        }
    }

    /// Lay the card out (cached by width, revision, theme, wrap).
    pub fn build(&mut self, t: &Transcript, theme: &Theme, width: usize) -> &[Line] {
        let rev = t
            .items
            .get(self.item)
            .map_or(0, |i| crate::view::list::item_rev(t, i));
        let w = if self.wrap {
            width
        } else {
            NOWRAP_WIDTH.max(width)
        };
        let key = (w, rev, theme.name.clone(), self.wrap);
        if self.built.as_ref() != Some(&key) {
            let opts = LayoutOptions {
                width: w,
                density: Density::Full,
                show_reasoning: true,
                hide_tools: false,
                now_ms: None,
            };
            self.lines = t
                .items
                .get(self.item)
                .map(|it| render_item(t, it, theme, &opts))
                .unwrap_or_default();
            self.built = Some(key);
            self.refresh_matches();
        }
        &self.lines
    }

    pub fn len(&self) -> usize {
        self.lines.len()
    }

    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// Scroll by rows, clamped so the last page stays full.
    pub fn scroll_by(&mut self, delta: isize, rows: usize) {
        let max = self.lines.len().saturating_sub(rows);
        self.scroll = (self.scroll as isize + delta).clamp(0, max as isize) as usize;
    }

    pub fn scroll_sideways(&mut self, delta: isize) {
        if self.wrap {
            return;
        }
        self.hscroll = (self.hscroll as isize + delta).clamp(0, NOWRAP_WIDTH as isize) as usize;
    }

    pub fn toggle_wrap(&mut self) {
        self.wrap = !self.wrap;
        self.hscroll = 0;
    }

    pub fn set_query(&mut self, q: &str) {
        self.query = q.to_string();
        self.refresh_matches();
        self.current = None;
    }

    fn refresh_matches(&mut self) {
        self.matches = self
            .lines
            .iter()
            .enumerate()
            .filter(|(_, l)| !find_in(&l.text(), &self.query).is_empty())
            .map(|(i, _)| i)
            .collect();
    }

    /// Go to the next (or previous) match; returns false when there is none.
    pub fn next_match(&mut self, forward: bool, rows: usize) -> bool {
        if self.matches.is_empty() {
            return false;
        }
        let n = self.matches.len();
        let i = match (self.current, forward) {
            (None, true) => self
                .matches
                .iter()
                .position(|&r| r >= self.scroll)
                .unwrap_or(0),
            (None, false) => self
                .matches
                .iter()
                .rposition(|&r| r < self.scroll)
                .unwrap_or(n - 1),
            (Some(c), true) => (c + 1) % n,
            (Some(c), false) => (c + n - 1) % n,
        };
        self.current = Some(i);
        let row = self.matches[i];
        if row < self.scroll || row >= self.scroll + rows {
            self.scroll = row.saturating_sub(rows / 3);
        }
        true
    }

    /// The rows to draw, cut to `width` columns after the horizontal scroll.
    pub fn visible(&self, theme: &Theme, width: usize, rows: usize) -> Vec<Line> {
        let hl = theme.style(Role::Match);
        self.lines
            .iter()
            .skip(self.scroll)
            .take(rows)
            .map(|l| {
                let l = if self.query.is_empty() {
                    l.clone()
                } else {
                    highlight(l, &self.query, hl)
                };
                let l = if self.hscroll > 0 {
                    skip_cols(&l, self.hscroll)
                } else {
                    l
                };
                wrap::fit(l, width)
            })
            .collect()
    }
}

/// Drop the first `n` columns of a line.
fn skip_cols(line: &Line, n: usize) -> Line {
    use unicode_width::UnicodeWidthChar;
    let mut out = Line::new();
    let mut col = 0;
    for span in &line.spans {
        let mut text = String::new();
        for c in span.text.chars() {
            let w = c.width().unwrap_or(0);
            if col >= n {
                text.push(c);
            }
            col += w;
        }
        if !text.is_empty() {
            out.spans.push(crate::text::Span {
                text,
                ..span.clone()
            });
        }
    }
    out
}
