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
        let w = if self.wrap {
            width
        } else {
            NOWRAP_WIDTH.max(width)
        };
        if self.title.as_ref().is_none_or(|(r, _)| *r != rev) {
            let title = match t.items().get(self.item) {
                // A big read view is not typed whole for its title.
                Some(crate::session::Item::Tool(i)) => t
                    .cards()
                    .get(*i)
                    .map(|c| crate::cards::resolve_head(c, 1).title),
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
                theme: theme.name.clone(),
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
                worker.request(plain, card, theme, None);
                worker.request(job.clone(), card, theme, None);
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
                self.built = Some((want.width, want.rev, want.theme.clone(), self.wrap));
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
            out.spans.push(span.restyled(text));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::{Frame, Origin, Record};
    use serde_json::json;

    fn transcript(frames: &[serde_json::Value]) -> Transcript {
        let records: Vec<Record> = frames
            .iter()
            .map(|f| Record::from_frame(Frame::from_value(f).unwrap(), Origin::default()))
            .collect();
        Transcript::from_records(None, &records, crate::present::stock())
    }

    #[test]
    fn g_stays_at_the_end_while_the_card_grows() {
        let line = |i: usize| Line::styled(format!("row {i}"), ratatui::style::Style::default());
        let mut p = Pager::new(0);
        p.lines = (0..10).map(line).collect();
        p.go_to_end(4);
        assert_eq!(p.scroll, 6);
        // The rest of the card arrives from the layout thread.
        p.lines = (0..100).map(line).collect();
        p.scroll_by(0, 4);
        assert_eq!(p.scroll, 96, "still at the end");
        p.scroll_by(-1, 4);
        assert_eq!(p.scroll, 95);
        p.lines = (0..200).map(line).collect();
        p.scroll_by(0, 4);
        assert_eq!(p.scroll, 95, "scrolled away: stays put");
        p.go_to_end(4);
        p.go_to_top();
        p.lines = (0..300).map(line).collect();
        p.scroll_by(0, 4);
        assert_eq!(p.scroll, 0);
    }

    #[test]
    fn matches_are_numbered() {
        let mut p = Pager::new(0);
        p.lines = ["a x", "b", "x c", "x"]
            .iter()
            .map(|t| Line::styled(*t, ratatui::style::Style::default()))
            .collect();
        p.set_query("x");
        assert_eq!(p.match_note(), None);
        assert!(p.next_match(true, 2));
        assert_eq!(p.match_note().as_deref(), Some("match 1/3"));
        assert!(p.next_match(false, 2));
        assert_eq!(p.match_note().as_deref(), Some("match 3/3"));
    }

    /// A read card of `n` lines of Rust (a block comment across lines, so
    /// colours depend on state carried from line to line).
    fn read_transcript(n: usize) -> Transcript {
        let lines: Vec<_> = (1..=n)
            .map(|i| {
                let text = match i % 5 {
                    0 => format!("/* a comment {i}"),
                    1 => "   still inside */".to_string(),
                    _ => format!(
                        "fn f{i}(x: u32) -> u32 {{ x + {i} }} // a line long enough to be heavy"
                    ),
                };
                json!({"number": i, "text": text})
            })
            .collect();
        transcript(&[
            json!({"type":"session/event","sessionId":"s","event":{"type":"tool/call","seq":0,"time":1,
                "data":{"callId":"c","name":"x","arguments":"{}"}},"view":{"for":"call","view":{"card":"generic","title":"Read big.rs"}}}),
            json!({"type":"session/event","sessionId":"s","event":{"type":"tool/result","seq":1,"time":2,
                "data":{"message":{"content":[{"type":"tool-result","toolCallId":"c","content":[],"isError":false}]}}},
                "view":{"for":"result","view":{"card":"read","path":"/w/big.rs","offset":1,"lines":lines,
                "totalLines":n + 5,"lang":"rs"}}}),
        ])
    }

    fn wait_for(p: &mut Pager, mut done: impl FnMut(&Pager) -> bool) {
        for _ in 0..2400 {
            p.poll();
            if done(p) {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(25));
        }
        panic!("the layout thread did not deliver");
    }

    #[test]
    fn a_big_read_card_opens_with_its_first_rows_then_all_text_then_colours() {
        let t = read_transcript(6_000);
        let theme = Theme::dark();
        let card = &t.cards()[0];
        assert!(worker::weight(card) > worker::HEAVY_BYTES);
        let full = crate::cards::render(card, &crate::cards::Ctx::new(100, &theme, Density::Full));
        let mut p = Pager::new(0);
        let first = p.build(&t, &theme, 100).to_vec();
        // At once: the card's real first rows, colours and all (header with
        // the whole range, gutter as wide as the last number needs).
        assert_eq!(p.progress(), Some("laying out the rest …"));
        assert_eq!(first.len(), HEAD_LINES + 2);
        assert_eq!(first[..], full[..first.len()]);
        assert!(
            first[0].text().contains("lines 1–6000 of 6005"),
            "{:?}",
            first[0].text()
        );
        assert_eq!(p.title(), "Read big.rs");
        // Then all the text (the head keeps its colours)…
        wait_for(&mut p, |p| p.progress() != Some("laying out the rest …"));
        if p.progress().is_some() {
            assert_eq!(p.len(), full.len());
            assert_eq!(p.lines[..first.len()], first[..]);
            let texts = |l: &[Line]| l.iter().map(Line::text).collect::<Vec<_>>();
            assert_eq!(texts(&p.lines), texts(&full));
        }
        // …then the coloured layout, exactly the card's.
        wait_for(&mut p, |p| p.progress().is_none());
        assert_eq!(p.lines, full);
        assert!(!p.is_laying_out());
    }

    #[test]
    fn a_heavy_read_card_with_few_lines_is_drawn_whole_at_once() {
        // Heavy by its long lines, but under the head's line count.
        let long = "x".repeat(2_000);
        let lines: Vec<_> = (1..=200)
            .map(|i| json!({"number": i, "text": long}))
            .collect();
        let t = transcript(&[
            json!({"type":"session/event","sessionId":"s","event":{"type":"tool/call","seq":0,"time":1,
                "data":{"callId":"c","name":"x","arguments":"{}"}}}),
            json!({"type":"session/event","sessionId":"s","event":{"type":"tool/result","seq":1,"time":2,
                "data":{"message":{"content":[{"type":"tool-result","toolCallId":"c","content":[],"isError":false}]}}},
                "view":{"for":"result","view":{"card":"read","path":"a.txt","lines":lines,"totalLines":200}}}),
        ]);
        let theme = Theme::dark();
        assert!(worker::weight(&t.cards()[0]) > worker::HEAVY_BYTES);
        let mut p = Pager::new(0);
        let rows = p.build(&t, &theme, 80).to_vec();
        assert!(!p.is_laying_out());
        let full = crate::cards::render(
            &t.cards()[0],
            &crate::cards::Ctx::new(80, &theme, Density::Full),
        );
        assert_eq!(rows, full);
    }

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
        Transcript::from_records(None, &records, crate::present::stock())
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
        // The plain layout, then the coloured one.
        wait_for(&mut p, |p| p.progress() != Some("laying out the rest …"));
        wait_for(&mut p, |p| !p.is_laying_out());
        assert!(p.len() > 20_000, "{}", p.len());
        // Built now: building again is a cache hit, not a new job.
        p.build(&t, &theme, 80);
        assert!(!p.is_laying_out());
        p.set_query("repeats");
        assert!(p.next_match(true, 20));
    }
}
