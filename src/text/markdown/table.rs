//! Markdown tables: column widths fitted to the available width (narrow
//! columns keep their natural width, wide ones share the rest), cells cut with
//! `…` when they do not fit, alignment from the delimiter row, a bold header
//! and a rule under it. Cells arrive already styled and sanitized.
//!
//! Laid out in two passes so a table of any length is never held: the
//! columns' natural widths are measured first ([`Measure`]), then each row
//! is laid out as it is read ([`Table`]).

use pulldown_cmark::Alignment;
use ratatui::style::Style;
use unicode_width::UnicodeWidthStr;

use crate::text::{Line, Span, wrap};
use crate::theme::{Role, Theme};

/// Column separators: the roomy one, and the one used when space is short.
const WIDE_SEP: &str = " │ ";
const NARROW_SEP: &str = "│";

/// One table's column widths, measured cell by cell (the first pass).
pub(super) struct Measure {
    aligns: usize,
    natural: Vec<usize>,
    col: usize,
}

impl Measure {
    pub(super) fn new(aligns: usize) -> Measure {
        Measure {
            aligns,
            natural: Vec::new(),
            col: 0,
        }
    }

    pub(super) fn start_row(&mut self) {
        self.col = 0;
    }

    pub(super) fn cell(&mut self, cell: &Line) {
        if self.natural.len() <= self.col {
            self.natural.resize(self.col + 1, 1);
        }
        self.natural[self.col] = self.natural[self.col].max(cell.width());
        self.col += 1;
    }

    /// Every column's natural width (at least 1): as many as the widest
    /// row or the delimiter row has.
    pub(super) fn finish(mut self) -> Vec<usize> {
        let cols = self.natural.len().max(self.aligns);
        self.natural.resize(cols, 1);
        self.natural
    }
}

/// A table being laid out row by row, its column widths known.
pub(super) struct Table {
    aligns: Vec<Alignment>,
    widths: Vec<usize>,
    sep: &'static str,
    width: usize,
    row: Vec<Line>,
}

impl Table {
    /// A table in at most `width` columns whose columns' natural widths are
    /// `natural` (from [`Measure`]).
    pub(super) fn new(aligns: Vec<Alignment>, natural: &[usize], width: usize) -> Table {
        let cols = natural.len();
        let (sep, widths) = if cols == 0 {
            (WIDE_SEP, Vec::new())
        } else {
            let wide_total = natural.iter().sum::<usize>() + WIDE_SEP.width() * (cols - 1);
            let sep = if wide_total <= width || width >= cols * 4 {
                WIDE_SEP
            } else {
                NARROW_SEP
            };
            let budget = width.saturating_sub(sep.width() * (cols - 1));
            (sep, fit_columns(natural, budget))
        };
        Table {
            aligns,
            widths,
            sep,
            width,
            row: Vec::new(),
        }
    }

    pub(super) fn start_row(&mut self) {
        self.row.clear();
    }

    pub(super) fn cell(&mut self, cell: Line) {
        self.row.push(cell);
    }

    /// The row just read, laid out (a header row bold); `None` for a table
    /// without columns.
    pub(super) fn row_line(&mut self, head: bool, theme: &Theme) -> Option<Line> {
        if self.widths.is_empty() {
            return None;
        }
        let border = theme.style(Role::Border);
        let strong = theme.style(Role::Strong);
        let mut cells = std::mem::take(&mut self.row).into_iter();
        let mut line = Line::new();
        for (c, w) in self.widths.iter().enumerate() {
            if c > 0 {
                line.push(Span::new(self.sep, border));
            }
            let cell = cells.next().unwrap_or_default();
            let cell = if head { cell.patch_under(strong) } else { cell };
            let align = self.aligns.get(c).copied().unwrap_or(Alignment::None);
            line.spans
                .extend(aligned(wrap::truncate(&cell, *w), *w, align).spans);
        }
        line.trim_end();
        Some(wrap::fit(line, self.width))
    }

    /// The rule under the header.
    pub(super) fn rule(&self, theme: &Theme) -> Option<Line> {
        (!self.widths.is_empty()).then(|| {
            wrap::fit(
                rule(&self.widths, self.sep, theme.style(Role::Border)),
                self.width,
            )
        })
    }
}

/// Share `budget` columns: every column gets at most its natural width, and
/// columns that need more than an equal share split what the narrow ones leave.
pub(super) fn fit_columns(natural: &[usize], budget: usize) -> Vec<usize> {
    let n = natural.len();
    if natural.iter().sum::<usize>() <= budget {
        return natural.to_vec();
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&c| natural[c]);
    let mut widths = vec![1; n];
    let mut left = budget;
    for (k, &c) in order.iter().enumerate() {
        let share = left / (n - k);
        let w = natural[c].min(share).max(1);
        widths[c] = w;
        left = left.saturating_sub(w);
    }
    widths
}

fn aligned(cell: Line, width: usize, align: Alignment) -> Line {
    let gap = width.saturating_sub(cell.width());
    let (before, after) = match align {
        Alignment::Right => (gap, 0),
        Alignment::Center => (gap / 2, gap - gap / 2),
        Alignment::Left | Alignment::None => (0, gap),
    };
    let mut line = Line::new();
    line.push(Span::plain(" ".repeat(before)));
    line.spans.extend(cell.spans);
    line.push(Span::plain(" ".repeat(after)));
    line
}

fn rule(widths: &[usize], sep: &str, style: Style) -> Line {
    let cross = if sep == WIDE_SEP { "─┼─" } else { "┼" };
    let text = widths
        .iter()
        .map(|w| "─".repeat(*w))
        .collect::<Vec<_>>()
        .join(cross);
    Line::styled(text, style)
}
