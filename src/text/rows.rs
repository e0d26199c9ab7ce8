//! Where drawn rows go, as they are made: kept (a layout cache, a test),
//! capped for the preview density (pinned rows, then the head or the tail
//! and an exact count of the rest), or handed on one by one (`deck render`
//! writes a card as it is drawn and never holds it whole).
//!
//! A window ([`Rows::window`]) keeps only the rows of one stretch and
//! counts the others: the list's layout of a giant item (an answer of
//! megabytes) holds the rows near the screen, not all of them.
//!
//! Owns the preview's capping rule, so a card drawn in preview keeps only
//! the rows it shows whatever its size, and tells producers when the rows
//! they make next cannot be shown ([`Rows::showing`]): those can be made
//! plain (no syntax colours), which is far cheaper and gives the same text
//! and the same count.

use std::collections::VecDeque;
use std::sync::Arc;

use ratatui::style::Style;

use super::line::Line;

/// Which end of a long body the preview keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keep {
    /// The first rows.
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
    /// An empty row goes before the next row (see [`Rows::gap`]).
    gap: bool,
}

enum Out<'a> {
    All(Laid),
    Each(&'a mut dyn FnMut(Line)),
    Capped(Box<Capped>),
    Window(Laid, Window),
}

/// The rows a window keeps (see [`Rows::window`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Window {
    /// Rows `from..to`.
    Range(usize, usize),
    /// The last rows, this many.
    Last(usize),
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
    /// Source lines among them: rows that are not continuations of a
    /// wrapped line ([`Line::cont`]).
    rest_lines: usize,
}

impl Rows<'static> {
    /// Keep every row.
    pub fn all() -> Rows<'static> {
        Rows {
            out: Out::All(Laid::default()),
            pushed: 0,
            pinned: 0,
            gap: false,
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
                rest_lines: 0,
            })),
            pushed: 0,
            pinned: 0,
            gap: false,
        }
    }

    /// Keep the rows `window` names, count the others: the result's
    /// `Laid::len` is every row, `Laid::get` has only those kept.
    pub fn window(window: Window) -> Rows<'static> {
        Rows {
            out: Out::Window(Laid::default(), window),
            pushed: 0,
            pinned: 0,
            gap: false,
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
            gap: false,
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
            Out::Window(laid, w) => laid.keep(line, self.pushed - 1, *w),
        }
    }

    /// Pin several rows.
    pub fn pin_all(&mut self, lines: impl IntoIterator<Item = Line>) {
        for l in lines {
            self.pin(l);
        }
    }

    /// An empty row before the next row, if one comes (what separates two
    /// blocks laid out apart).
    pub fn gap(&mut self) {
        self.gap = true;
    }

    /// No empty row after all (nothing followed the blocks it was for).
    pub fn cancel_gap(&mut self) {
        self.gap = false;
    }

    /// The next row.
    pub fn push(&mut self, line: Line) {
        if std::mem::take(&mut self.gap) {
            self.push(Line::new());
        }
        self.pushed += 1;
        match &mut self.out {
            Out::All(v) => v.push(line),
            Out::Each(f) => f(line),
            Out::Capped(c) => c.push(line),
            Out::Window(laid, w) => laid.keep(line, self.pushed - 1, *w),
        }
    }

    /// Several rows.
    pub fn extend(&mut self, lines: impl IntoIterator<Item = Line>) {
        for l in lines {
            self.push(l);
        }
    }

    /// Rows laid out before and kept by their maker: shared, not copied,
    /// when every row is kept ([`Rows::all`]); else as
    /// [`extend_from_slice`](Self::extend_from_slice).
    pub fn share(&mut self, rows: &Arc<Vec<Line>>) {
        if rows.is_empty() {
            return;
        }
        if std::mem::take(&mut self.gap) {
            self.push(Line::new());
        }
        match &mut self.out {
            Out::All(laid) => {
                self.pushed += rows.len();
                laid.share(rows);
            }
            _ => self.extend_from_slice(rows),
        }
    }

    /// Copies of `lines`, as many as can be shown; the rest only counted
    /// (a preview's hidden rows cost no copy).
    pub fn extend_from_slice(&mut self, lines: &[Line]) {
        if !lines.is_empty() && std::mem::take(&mut self.gap) {
            self.push(Line::new());
        }
        if let Out::Window(laid, w) = &mut self.out {
            // Only the rows the window can keep are copied.
            let (start, len) = (self.pushed, lines.len());
            let (lo, hi) = match *w {
                Window::Range(from, to) => (
                    from.saturating_sub(start).min(len),
                    to.saturating_sub(start).min(len),
                ),
                Window::Last(n) => {
                    let lo = len.saturating_sub(n);
                    laid.before += lo;
                    (lo, len)
                }
            };
            for (i, l) in lines[lo..hi].iter().enumerate() {
                laid.keep(l.clone(), start + lo + i, *w);
            }
            self.pushed += len;
            return;
        }
        for (i, l) in lines.iter().enumerate() {
            if !self.showing() {
                let rest = &lines[i..];
                self.pushed += rest.len();
                if let Out::Capped(c) = &mut self.out {
                    if c.budget.is_none() {
                        c.budget = Some(c.rows.saturating_sub(c.pinned.len()).max(3));
                    }
                    c.rest += rest.len();
                    c.rest_lines += rest.iter().filter(|l| !l.cont).count();
                }
                return;
            }
            self.push(l.clone());
        }
    }

    /// `n` more rows, `lines` of them starting a source line, that cannot
    /// be shown, only counted: for producers that know how many lines the
    /// rest makes without making them, once [`showing`](Self::showing) is
    /// false. `lines` must be exact (the preview's `… N more lines`); `n`
    /// may be any count from `lines` up (past the preview, only whether
    /// rows are hidden matters).
    pub fn skip(&mut self, n: usize, lines: usize) {
        debug_assert!(!self.showing(), "skip only rows that cannot be shown");
        match &mut self.out {
            Out::Capped(c) => {
                self.pushed += n;
                c.rest += n;
                c.rest_lines += lines;
            }
            Out::Window(..) => self.pushed += n,
            _ => {}
        }
    }

    /// Rows pushed so far.
    pub fn len(&self) -> usize {
        self.pushed
    }

    /// No row pushed yet.
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
            // Rows before the window are made all the same: later ones show.
            Out::Window(_, Window::Range(_, to)) => self.pushed < *to,
            _ => true,
        }
    }

    /// The rows kept: all of them, or the preview (its marker in
    /// `marker_style`); nothing for rows handed on.
    pub fn finish(self, marker_style: Style) -> Vec<Line> {
        match self.out {
            Out::All(v) => v.into_vec(),
            Out::Each(_) => Vec::new(),
            Out::Capped(c) => c.finish(marker_style),
            // The rows kept.
            out @ Out::Window(..) => Rows { out, ..self }.finish_laid(marker_style).into_vec(),
        }
    }

    /// [`finish`](Self::finish), rows shared with their makers kept shared.
    pub fn finish_laid(self, marker_style: Style) -> Laid {
        match self.out {
            Out::All(v) => v,
            Out::Window(mut laid, w) => {
                match w {
                    Window::Range(from, _) => laid.before = self.pushed.min(from),
                    Window::Last(n) => laid.trim_to_last(n),
                }
                laid.after = self.pushed - laid.before - laid.own.len();
                laid
            }
            out => Laid::from(Rows { out, ..self }.finish(marker_style)),
        }
    }
}

/// Laid-out rows, in pieces that may be shared with whoever made them (a
/// streaming answer's settled part is not copied for every frame) — or,
/// from a [`Rows::window`], one stretch of them held and the rest only
/// counted.
#[derive(Debug, Clone, Default)]
pub struct Laid {
    /// Settled pieces, and the cumulative row count at the end of each.
    pieces: Vec<(Arc<Vec<Line>>, usize)>,
    /// Rows after the pieces.
    own: Vec<Line>,
    /// A window's rows not held, before and after those held.
    before: usize,
    after: usize,
}

impl Laid {
    fn push(&mut self, mut line: Line) {
        line.fit();
        self.own.push(line);
    }

    /// Row `at` of a window: held if the window keeps it.
    fn keep(&mut self, line: Line, at: usize, window: Window) {
        match window {
            Window::Range(from, to) => {
                if (from..to).contains(&at) {
                    self.push(line);
                }
            }
            Window::Last(n) => {
                self.push(line);
                // Let go of the older half now and then: linear, bounded.
                if self.own.len() >= 2 * n.max(1) {
                    self.trim_to_last(n);
                }
            }
        }
    }

    fn trim_to_last(&mut self, n: usize) {
        let drop = self.own.len().saturating_sub(n);
        self.own.drain(..drop);
        self.before += drop;
    }

    /// Rows held (every row, unless this is a window's).
    pub fn held(&self) -> usize {
        self.pieces_len() + self.own.len()
    }

    /// Whether rows `from..to` (cut at the end) are all held.
    pub fn holds(&self, from: usize, to: usize) -> bool {
        let to = to.min(self.len());
        from >= to || (from >= self.before && to <= self.before + self.held())
    }

    /// The first row held, when rows before it are not.
    pub fn window_start(&self) -> Option<usize> {
        (self.before + self.after > 0).then_some(self.before)
    }

    fn share(&mut self, rows: &Arc<Vec<Line>>) {
        if rows.is_empty() {
            return;
        }
        if !self.own.is_empty() {
            let own = std::mem::take(&mut self.own);
            let end = self.pieces_len() + own.len();
            self.pieces.push((Arc::new(own), end));
        }
        let end = self.pieces_len() + rows.len();
        self.pieces.push((rows.clone(), end));
    }

    fn pieces_len(&self) -> usize {
        self.pieces.last().map_or(0, |p| p.1)
    }

    /// Number of rows (held or not).
    pub fn len(&self) -> usize {
        self.before + self.held() + self.after
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Row `i`, if held.
    pub fn get(&self, i: usize) -> Option<&Line> {
        let i = i.checked_sub(self.before)?;
        let before = self.pieces_len();
        if i >= before {
            return self.own.get(i - before);
        }
        let k = self.pieces.partition_point(|p| p.1 <= i);
        let start = if k == 0 { 0 } else { self.pieces[k - 1].1 };
        self.pieces.get(k).and_then(|p| p.0.get(i - start))
    }

    /// Every row held, in order.
    pub fn iter(&self) -> impl Iterator<Item = &Line> {
        self.pieces
            .iter()
            .flat_map(|p| p.0.iter())
            .chain(self.own.iter())
    }

    /// The rows held as one vector (shared pieces copied).
    pub fn into_vec(self) -> Vec<Line> {
        if self.pieces.is_empty() {
            return self.own;
        }
        let mut out = Vec::with_capacity(self.len());
        for (p, _) in self.pieces {
            out.extend(Arc::try_unwrap(p).unwrap_or_else(|p| (*p).clone()));
        }
        out.extend(self.own);
        out
    }
}

impl From<Vec<Line>> for Laid {
    fn from(own: Vec<Line>) -> Laid {
        Laid {
            own,
            ..Laid::default()
        }
    }
}

impl PartialEq for Laid {
    fn eq(&self, other: &Laid) -> bool {
        self.len() == other.len() && self.before == other.before && self.iter().eq(other.iter())
    }
}

impl Capped {
    fn push(&mut self, line: Line) {
        let budget = *self
            .budget
            .get_or_insert_with(|| self.rows.saturating_sub(self.pinned.len()).max(3));
        self.rest += 1;
        self.rest_lines += usize::from(!line.cont);
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
        // The marker takes one of the budget's rows. It counts source
        // lines, not rows: a line wrapped over several rows is one, and a
        // line cut by the marker counts as hidden.
        // Whole lines are shown where a line starts in the rows kept: the
        // rows of a line the marker would cut go with it.
        let shown = budget.saturating_sub(1).max(1);
        let starts = |rows: &[Line]| rows.iter().filter(|l| !l.cont).count();
        match self.keep {
            Keep::Head => {
                let mut shown = shown.min(kept.len());
                if kept.get(shown).is_some_and(|l| l.cont)
                    && let Some(s) = kept[..shown].iter().rposition(|l| !l.cont)
                    && s > 0
                {
                    shown = s;
                }
                let cut = kept.get(shown).is_some_and(|l| l.cont);
                let hidden = self.rest_lines - starts(&kept[..shown]) + usize::from(cut);
                out.extend(kept.into_iter().take(shown));
                out.push(Line::styled(more_lines(hidden), marker_style));
            }
            Keep::Tail => {
                let mut skip = kept.len().saturating_sub(shown);
                if let Some(s) = kept[skip..].iter().position(|l| !l.cont) {
                    skip += s;
                }
                let hidden = self.rest_lines - starts(&kept[skip..]);
                out.push(Line::styled(more_lines(hidden), marker_style));
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
mod tests;
