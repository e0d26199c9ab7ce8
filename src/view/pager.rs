//! The pager: one card at full density, full screen, with vertical and
//! horizontal scrolling, a wrap toggle and search inside. With wrap off the
//! card is laid out at a wide width and scrolled sideways.

use crate::cards::Density;
use crate::session::Transcript;
use crate::text::{Line, wrap};
use crate::theme::{Role, Theme};
use crate::view::search::{find_in, highlight};
use crate::view::transcript::{LayoutOptions, render_item};
use crate::view::worker::{self, JobKey, Worker};

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
    /// The item's title (a card's resolved title), and the rev it is for:
    /// resolving types the card's views, too much to do on every frame.
    title: Option<(u64, String)>,
    /// Heavy cards are laid out off the UI thread; this is the job in flight.
    worker: Option<Worker>,
    waiting: Option<JobKey>,
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
            title: None,
            worker: None,
            waiting: None,
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
        if self.title.as_ref().is_none_or(|(r, _)| *r != rev) {
            let title = match t.items.get(self.item) {
                Some(crate::session::Item::Tool(i)) => {
                    t.cards.get(*i).map(|c| crate::cards::resolve(c).title)
                }
                _ => None,
            };
            self.title = Some((rev, title.unwrap_or_else(|| "item".into())));
        }
        let key = (w, rev, theme.name.clone(), self.wrap);
        if self.built.as_ref() != Some(&key)
            && let Some(crate::session::Item::Tool(ci)) = t.items.get(self.item)
            && let Some(card) = t.cards.get(*ci)
            && worker::weight(card) > worker::HEAVY_BYTES
        {
            let job = JobKey {
                item: self.item,
                rev,
                width: w,
                theme: theme.name.clone(),
                density: Density::Full,
            };
            if self.waiting.as_ref() != Some(&job) {
                self.worker
                    .get_or_insert_with(Worker::new)
                    .request(job.clone(), card, theme, None);
                self.waiting = Some(job);
                self.lines = worker::placeholder(card, theme, w);
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

    /// The title shown in the pager's status line (set by [`Pager::build`]).
    pub fn title(&self) -> &str {
        self.title.as_ref().map_or("item", |(_, t)| t.as_str())
    }

    /// Take a finished off-thread layout; true when it arrived.
    pub fn poll(&mut self) -> bool {
        let (Some(w), Some(want)) = (self.worker.as_mut(), self.waiting.clone()) else {
            return false;
        };
        let mut arrived = false;
        for done in w.poll() {
            if done.key == want {
                self.lines = done.lines;
                self.built = Some((want.width, want.rev, want.theme.clone(), self.wrap));
                self.waiting = None;
                self.refresh_matches();
                arrived = true;
            }
        }
        arrived
    }

    /// True while the card is being laid out off-thread.
    pub fn is_laying_out(&self) -> bool {
        self.waiting.is_some()
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::{Frame, Origin, Record};
    use serde_json::json;

    fn heavy_transcript() -> Transcript {
        let output = "a line of output that repeats\n".repeat(20_000);
        let frames = [
            json!({"type":"session/event","sessionId":"s","event":{"type":"tool/call","seq":0,"time":1,
                "data":{"callId":"c","name":"x","arguments":"{}"}},"view":{"for":"call","view":{"card":"terminal","title":"big"}}}),
            json!({"type":"session/event","sessionId":"s","event":{"type":"tool/result","seq":1,"time":2,
                "data":{"message":{"content":[{"type":"tool-result","toolCallId":"c","content":[],"isError":false}]}}},
                "view":{"for":"result","view":{"card":"terminal","output":output,"exitCode":0}}}),
        ];
        let records: Vec<Record> = frames
            .iter()
            .map(|f| Record::from_frame(Frame::from_value(f).unwrap(), Origin::default()))
            .collect();
        Transcript::from_records(None, &records)
    }

    #[test]
    fn heavy_cards_open_with_a_placeholder_then_fill_in() {
        let t = heavy_transcript();
        let theme = Theme::dark();
        let mut p = Pager::new(0);
        let first = p.build(&t, &theme, 80).to_vec();
        assert!(p.is_laying_out());
        assert_eq!(first.len(), 2);
        assert!(first[1].text().contains("laying out"));
        let mut arrived = false;
        for _ in 0..1200 {
            if p.poll() {
                arrived = true;
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(25));
        }
        assert!(arrived, "the layout arrives");
        assert!(!p.is_laying_out());
        assert!(p.len() > 20_000, "{}", p.len());
        // Built now: building again is a cache hit, not a new job.
        p.build(&t, &theme, 80);
        assert!(!p.is_laying_out());
        p.set_query("repeats");
        assert!(p.next_match(true, 20));
    }
}
