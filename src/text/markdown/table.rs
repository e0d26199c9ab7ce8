//! Markdown tables: column widths fitted to the available width (narrow
//! columns keep their natural width, wide ones share the rest), cells cut with
//! `…` when they do not fit, alignment from the delimiter row, a bold header
//! and a rule under it. Cells arrive already styled and sanitized.

use pulldown_cmark::Alignment;
use ratatui::style::Style;
use unicode_width::UnicodeWidthStr;

use crate::text::{Line, Span, wrap};
use crate::theme::{Role, Theme};

pub(super) struct Table {
    aligns: Vec<Alignment>,
    pub(super) rows: Vec<Vec<Line>>,
    /// How many leading rows are the header.
    pub(super) head_rows: usize,
}

/// Column separators: the roomy one, and the one used when space is short.
const WIDE_SEP: &str = " │ ";
const NARROW_SEP: &str = "│";

impl Table {
    pub(super) fn new(aligns: Vec<Alignment>) -> Table {
        Table {
            aligns,
            rows: Vec::new(),
            head_rows: 0,
        }
    }

    /// Lay the table out in at most `width` columns.
    pub(super) fn layout(&self, width: usize, theme: &Theme) -> Vec<Line> {
        let cols = self
            .rows
            .iter()
            .map(Vec::len)
            .max()
            .unwrap_or(0)
            .max(self.aligns.len());
        if cols == 0 {
            return Vec::new();
        }
        let natural: Vec<usize> = (0..cols)
            .map(|c| {
                self.rows
                    .iter()
                    .filter_map(|r| r.get(c))
                    .map(Line::width)
                    .max()
                    .unwrap_or(0)
                    .max(1)
            })
            .collect();
        let wide_total = natural.iter().sum::<usize>() + WIDE_SEP.width() * (cols - 1);
        let sep = if wide_total <= width || width >= cols * 4 {
            WIDE_SEP
        } else {
            NARROW_SEP
        };
        let budget = width.saturating_sub(sep.width() * (cols - 1));
        let widths = fit_columns(&natural, budget);

        let border = theme.style(Role::Border);
        let strong = theme.style(Role::Strong);
        let mut out = Vec::new();
        for (i, row) in self.rows.iter().enumerate() {
            let mut line = Line::new();
            for (c, w) in widths.iter().enumerate() {
                if c > 0 {
                    line.push(Span::new(sep, border));
                }
                let cell = row.get(c).cloned().unwrap_or_default();
                let cell = if i < self.head_rows {
                    cell.patch_under(strong)
                } else {
                    cell
                };
                let align = self.aligns.get(c).copied().unwrap_or(Alignment::None);
                line.spans
                    .extend(aligned(wrap::truncate(&cell, *w), *w, align).spans);
            }
            super::trim_end(&mut line);
            out.push(wrap::fit(line, width));
            if i + 1 == self.head_rows {
                out.push(wrap::fit(rule(&widths, sep, border), width));
            }
        }
        out
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
