//! The pager: one card at full density, full screen, with vertical and
//! horizontal scrolling, a wrap toggle and search inside. With wrap off the
//! card is laid out unwrapped (`text::UNBOUNDED`): every line on one row,
//! scrolled sideways.

use std::sync::Arc;

use crate::cards::Density;
use crate::session::Transcript;
use crate::text::{self, Line, wrap};
use crate::theme::{Role, Theme};
use crate::view::search::{find_in, highlight};
use crate::view::transcript::{LayoutOptions, render_item};
use crate::view::worker::{self, JobKey, Worker};


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
    /// The rows that start a source line (not continuations of a wrapped
    /// one): `line a/b` counts lines, not rows.
    starts: Vec<usize>,
    built: Option<(usize, u64, String, bool)>,
    /// The item's title (a card's resolved title), and the rev it is for:
    /// resolving types the card's views, too much to do on every frame.
    title: Option<(u64, String)>,
    /// Heavy cards are laid out off the UI thread, all the text first
    /// (plain), then with colours; this is the coloured job in flight.
    worker: Option<Worker>,
    waiting: Option<JobKey>,
    /// `lines` are only the card's first rows (or a stand-in) until the
    /// plain layout arrives.
    partial: bool,
    /// `G` was pressed and nothing has scrolled since: the view stays at
    /// the end as the rest of the card arrives.
    at_end: bool,
}

/// Lines of a big `read` view drawn at once when its pager opens (a few
/// screens; the whole card follows from the layout thread).
pub const HEAD_LINES: usize = 250;

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
            starts: Vec::new(),
            built: None,
            title: None,
            worker: None,
            waiting: None,
            partial: false,
            at_end: false,
        }
    }

    /// Lay the card out (cached by width, revision, theme, wrap).
    pub fn build(&mut self, t: &Transcript, theme: &Theme, width: usize) -> &[Line] {
        let rev = t
            .items()
            .get(self.item)
            .map_or(0, |i| crate::view::list::item_rev(t, i));
        let w = if self.wrap { width } else { text::UNBOUNDED };
        if self.title.as_ref().is_none_or(|(r, _)| *r != rev) {
            let title = match t.items().get(self.item) {
                // A big read view is not typed whole for its title.
                Some(crate::session::Item::Tool(i)) => t
                    .cards()
                    .get(*i)
                    .map(|c| crate::cards::resolve_head(c, 1).title),
                Some(crate::session::Item::Compaction(c)) => {
                    Some(crate::cards::conversation::compaction_title(c).to_string())
                }
                _ => None,
            };
            self.title = Some((rev, title.unwrap_or_else(|| "item".into())));
        }
        let key = (w, rev, theme.name.clone(), self.wrap);
        if self.built.as_ref() != Some(&key)
            && let Some(crate::session::Item::Tool(ci)) = t.items().get(self.item)
            && let Some(card) = t.cards().get(*ci)
            && worker::heavy(card)
        {
            let job = JobKey {
                item: self.item,
                rev,
                width: w,
                theme: Arc::from(theme.name.as_str()),
                density: Density::Full,
                plain: false,
            };
            if self.waiting.as_ref() != Some(&job) {
                // At once: the first rows of a big read view (exact, coloured),
                // else a stand-in.
                let ctx = crate::cards::Ctx::new(w, theme, Density::Full);
                match crate::cards::render_head(card, &ctx, HEAD_LINES) {
                    Some((rows, true)) => {
                        // The view was small after all: these are all its rows.
                        self.lines = rows;
                        self.built = Some(key);
                        self.partial = false;
                        self.waiting = None;
                        self.refresh_matches();
                        return &self.lines;
                    }
                    Some((rows, false)) => self.lines = rows,
                    None => self.lines = worker::placeholder(card, theme, w),
                }
                let worker = self.worker.get_or_insert_with(Worker::new);
                let plain = JobKey {
                    plain: true,
                    ..job.clone()
                };
                worker.request(plain, card, theme, None, None);
                worker.request(job.clone(), card, theme, None, None);
                self.waiting = Some(job);
                self.partial = true;
                self.refresh_matches();
            }
            return &self.lines;
        }
        if self.built.as_ref() != Some(&key) {
            let opts = LayoutOptions {
                width: w,
                density: Density::Full,
                show_reasoning: true,
                hide_tools: false,
                now_ms: None,
                plain_code: false,
                // The pager shows paths in full.
                full_paths: true,
            open_nested: true,
            };
            self.lines = t
                .items()
                .get(self.item)
                .map(|it| render_item(t, it, theme, &opts))
                .unwrap_or_default();
            self.built = Some(key);
            self.refresh_matches();
        }
        &self.lines
    }

    /// The title shown in the pager's status line (set by [`Pager::build`]).
    pub fn title(&self) -> &str {
        self.title.as_ref().map_or("item", |(_, t)| t.as_str())
    }

    /// Take finished off-thread layouts; true when one arrived.
    pub fn poll(&mut self) -> bool {
        let (Some(w), Some(want)) = (self.worker.as_mut(), self.waiting.clone()) else {
            return false;
        };
        let mut arrived = false;
        for done in w.poll() {
            if done.key == want {
                self.lines = done.lines;
                self.built = Some((want.width, want.rev, want.theme.to_string(), self.wrap));
                self.waiting = None;
                self.partial = false;
            } else if done.key.plain
                && self.partial
                && done.key
                    == (JobKey {
                        plain: true,
                        ..want.clone()
                    })
            {
                // All the text; the head's rows keep their colours.
                let mut lines = done.lines;
                for (row, head) in lines.iter_mut().zip(&self.lines) {
                    if row.text() == head.text() {
                        row.clone_from(head);
                    }
                }
                self.lines = lines;
                self.partial = false;
            } else {
                continue;
            }
            self.refresh_matches();
            arrived = true;
        }
        arrived
    }

    /// True while the card is being laid out off-thread.
    pub fn is_laying_out(&self) -> bool {
        self.waiting.is_some()
    }

    /// What the layout thread is still doing, for the status line.
    pub fn progress(&self) -> Option<&'static str> {
        match (self.waiting.is_some(), self.partial) {
            (false, _) => None,
            (true, true) => Some("laying out the rest …"),
            (true, false) => Some("colouring …"),
        }
    }

    pub fn len(&self) -> usize {
        self.lines.len()
    }

    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// Scroll by rows, clamped so the last page stays full; after
    /// [`Pager::go_to_end`], at the end however far the card has grown.
    pub fn scroll_by(&mut self, delta: isize, rows: usize) {
        let max = self.lines.len().saturating_sub(rows);
        if delta < 0 {
            self.at_end = false;
        }
        self.scroll = if self.at_end {
            max
        } else {
            (self.scroll as isize + delta).clamp(0, max as isize) as usize
        };
    }

    /// `G`: the last page, and stay there while the card is still being
    /// laid out.
    pub fn go_to_end(&mut self, rows: usize) {
        self.at_end = true;
        self.scroll_by(0, rows);
    }

    /// `g`: the first page.
    pub fn go_to_top(&mut self) {
        self.at_end = false;
        self.scroll = 0;
    }

    /// `match i/N` for the current match.
    pub fn match_note(&self) -> Option<String> {
        self.current
            .map(|c| format!("match {}/{}", c + 1, self.matches.len()))
    }

    /// Scroll sideways (wrap off), at most to where the longest row's end
    /// is on screen.
    pub fn scroll_sideways(&mut self, delta: isize, width: usize) {
        if self.wrap {
            return;
        }
        let widest = self.lines.iter().map(Line::width).max().unwrap_or(0);
        let max = widest.saturating_sub(width / 2);
        self.hscroll = self.hscroll.saturating_add_signed(delta).min(max);
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

    /// The source line the top row is in (from 1) and how many lines the
    /// card has: what `line a/b` says.
    pub fn line_position(&self) -> (usize, usize) {
        let at = self.starts.partition_point(|&r| r <= self.scroll);
        (at.max(1).min(self.starts.len().max(1)), self.starts.len())
    }

    /// After the rows changed: where lines start, and the matches.
    fn refresh_matches(&mut self) {
        self.starts = self
            .lines
            .iter()
            .enumerate()
            .filter(|(_, l)| !l.cont)
            .map(|(i, _)| i)
            .collect();
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
        self.at_end = false;
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

/// Drop the first `n` columns of a line, by grapheme cluster: a cluster
/// that starts before column `n` goes whole (a wide one leaves a space).
fn skip_cols(line: &Line, n: usize) -> Line {
    use unicode_segmentation::UnicodeSegmentation;
    let mut out = Line::new();
    let mut col = 0;
    for span in &line.spans {
        let mut text = String::new();
        for g in span.text.graphemes(true) {
            let w = crate::text::line::str_width(g);
            if col >= n {
                text.push_str(g);
            } else if col + w > n {
                text.push_str(&" ".repeat(col + w - n));
            }
            col += w;
        }
        if !text.is_empty() {
            out.spans.push(span.restyled(text));
        }
    }
    out
}

#[cfg(test)]
mod tests;
