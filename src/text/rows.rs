//! Where drawn rows go, as they are made: kept (a layout cache, a test),
//! capped for the preview density (pinned rows, then the head or the tail
//! and an exact count of the rest), or handed on one by one (`deck render`
//! writes a card as it is drawn and never holds it whole).
//!
//! Owns the preview's capping rule, so a card drawn in preview keeps only
//! the rows it shows whatever its size, and tells producers when the rows
//! they make next cannot be shown ([`Rows::showing`]): those can be made
//! plain (no syntax colours), which is far cheaper and gives the same text
//! and the same count.

use std::collections::VecDeque;

use ratatui::style::Style;

use super::line::Line;

/// Which end of a long body the preview keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keep {
    Head,
    /// Terminal output: the end matters most.
    Tail,
}

/// A sink of rows. Pinned rows ([`Rows::pin`]) come first: a preview always
/// shows them and caps only what follows.
pub struct Rows<'a> {
    out: Out<'a>,
    /// Rows pushed so far (kept or not).
    pushed: usize,
    /// Leading rows pushed with [`Rows::pin`].
    pinned: usize,
}

enum Out<'a> {
    All(Vec<Line>),
    Each(&'a mut dyn FnMut(Line)),
    Capped(Box<Capped>),
}

/// The preview's state: see [`Rows::capped`].
struct Capped {
    rows: usize,
    keep: Keep,
    pinned: Vec<Line>,
    /// Rows the capped part may show, fixed by the first row after the
    /// pinned ones.
    budget: Option<usize>,
    head: Vec<Line>,
    tail: VecDeque<Line>,
    /// Rows after the pinned ones, shown or not.
    rest: usize,
}

impl Rows<'static> {
    /// Keep every row.
    pub fn all() -> Rows<'static> {
        Rows {
            out: Out::All(Vec::new()),
            pushed: 0,
            pinned: 0,
        }
    }

    /// The preview: pinned rows, then at most `rows` rows in all (at least
    /// three after the pinned ones) — the first or the last ones, and an
    /// exact `… N more lines` marker for the others — holding only those.
    pub fn capped(rows: usize, keep: Keep) -> Rows<'static> {
        Rows {
            out: Out::Capped(Box::new(Capped {
                rows,
                keep,
                pinned: Vec::new(),
                budget: None,
                head: Vec::new(),
                tail: VecDeque::new(),
                rest: 0,
            })),
            pushed: 0,
            pinned: 0,
        }
    }
}

impl<'a> Rows<'a> {
    /// Hand every row to `f` as it is made.
    pub fn each(f: &'a mut dyn FnMut(Line)) -> Rows<'a> {
        Rows {
            out: Out::Each(f),
            pushed: 0,
            pinned: 0,
        }
    }

    /// A row the preview always shows (a command, a path header). Only
    /// leading rows can be pinned; after an ordinary row this is [`push`](Self::push).
    pub fn pin(&mut self, line: Line) {
        if self.pushed > self.pinned {
            return self.push(line);
        }
        self.pinned += 1;
        self.pushed += 1;
        match &mut self.out {
            Out::All(v) => v.push(line),
            Out::Each(f) => f(line),
            Out::Capped(c) => c.pinned.push(line),
        }
    }

    /// Pin several rows.
    pub fn pin_all(&mut self, lines: impl IntoIterator<Item = Line>) {
        for l in lines {
            self.pin(l);
        }
    }

    /// The next row.
    pub fn push(&mut self, line: Line) {
        self.pushed += 1;
        match &mut self.out {
            Out::All(v) => v.push(line),
            Out::Each(f) => f(line),
            Out::Capped(c) => c.push(line),
        }
    }

    /// Several rows.
    pub fn extend(&mut self, lines: impl IntoIterator<Item = Line>) {
        for l in lines {
            self.push(l);
        }
    }

    /// Rows pushed so far.
    pub fn len(&self) -> usize {
        self.pushed
    }

    pub fn is_empty(&self) -> bool {
        self.pushed == 0
    }

    /// Leading rows pinned so far.
    pub fn pinned(&self) -> usize {
        self.pinned
    }

    /// Whether the next row can be shown. False once a preview that keeps
    /// the head has all the rows it can show: what follows is only counted,
    /// so it may be made plain.
    pub fn showing(&self) -> bool {
        match &self.out {
            Out::Capped(c) => c.keep == Keep::Tail || c.budget.is_none_or(|b| c.head.len() < b),
            _ => true,
        }
    }

    /// The rows kept: all of them, or the preview (its marker in
    /// `marker_style`); nothing for rows handed on.
    pub fn finish(self, marker_style: Style) -> Vec<Line> {
        match self.out {
            Out::All(v) => v,
            Out::Each(_) => Vec::new(),
            Out::Capped(c) => c.finish(marker_style),
        }
    }
}

impl Capped {
    fn push(&mut self, line: Line) {
        let budget = *self
            .budget
            .get_or_insert_with(|| self.rows.saturating_sub(self.pinned.len()).max(3));
        self.rest += 1;
        match self.keep {
            Keep::Head => {
                if self.head.len() < budget {
                    self.head.push(line);
                }
            }
            Keep::Tail => {
                if self.tail.len() == budget {
                    self.tail.pop_front();
                }
                self.tail.push_back(line);
            }
        }
    }

    fn finish(self, marker_style: Style) -> Vec<Line> {
        let mut out = self.pinned;
        let budget = self.budget.unwrap_or(0);
        let kept: Vec<Line> = match self.keep {
            Keep::Head => self.head,
            Keep::Tail => self.tail.into(),
        };
        if self.rest <= budget || self.rows == 0 {
            out.extend(kept);
            return out;
        }
        // The marker takes one of the budget's rows.
        let shown = budget.saturating_sub(1).max(1);
        let hidden = self.rest - shown;
        let marker = Line::styled(more_lines(hidden), marker_style);
        match self.keep {
            Keep::Head => {
                out.extend(kept.into_iter().take(shown));
                out.push(marker);
            }
            Keep::Tail => {
                out.push(marker);
                let skip = kept.len() - shown;
                out.extend(kept.into_iter().skip(skip));
            }
        }
        out
    }
}

/// `… 1 more line`, `… N more lines`.
pub fn more_lines(hidden: usize) -> String {
    format!("… {hidden} more line{}", if hidden == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(lines: &[Line]) -> Vec<String> {
        lines.iter().map(Line::text).collect()
    }

    fn numbered(n: usize) -> impl Iterator<Item = Line> {
        (0..n).map(|i| Line::plain(i.to_string()))
    }

    #[test]
    fn the_preview_keeps_pinned_rows_and_a_capped_head_or_tail() {
        let mut r = Rows::capped(5, Keep::Head);
        r.pin(Line::plain("p"));
        r.extend(numbered(20));
        assert!(!r.showing());
        assert_eq!(
            texts(&r.finish(Style::default())),
            ["p", "0", "1", "2", "… 17 more lines"]
        );
        let mut r = Rows::capped(5, Keep::Tail);
        r.extend(numbered(20));
        assert!(r.showing());
        assert_eq!(
            texts(&r.finish(Style::default())),
            ["… 16 more lines", "16", "17", "18", "19"]
        );
        // Short enough: everything, no marker.
        let mut r = Rows::capped(5, Keep::Head);
        r.extend(numbered(5));
        assert_eq!(r.finish(Style::default()).len(), 5);
        // Many pinned rows still leave three for the rest.
        let mut r = Rows::capped(2, Keep::Head);
        r.pin_all(numbered(4));
        r.extend(numbered(10));
        assert_eq!(r.finish(Style::default()).len(), 4 + 3);
    }

    #[test]
    fn a_pin_after_an_ordinary_row_is_an_ordinary_row() {
        let mut r = Rows::all();
        r.pin(Line::plain("a"));
        r.push(Line::plain("b"));
        r.pin(Line::plain("c"));
        assert_eq!((r.len(), r.pinned()), (3, 1));
        assert_eq!(texts(&r.finish(Style::default())), ["a", "b", "c"]);
    }

    #[test]
    fn rows_handed_on_are_not_kept() {
        let mut seen = Vec::new();
        let mut f = |l: Line| seen.push(l.text());
        let mut r = Rows::each(&mut f);
        r.extend(numbered(3));
        assert!(r.finish(Style::default()).is_empty());
        assert_eq!(seen, ["0", "1", "2"]);
    }

    #[test]
    fn a_million_rows_in_preview_hold_only_what_shows() {
        let mut r = Rows::capped(12, Keep::Tail);
        r.extend(numbered(1_000_000));
        let out = r.finish(Style::default());
        assert_eq!(out.len(), 12);
        assert_eq!(out[0].text(), "… 999989 more lines");
    }
}
