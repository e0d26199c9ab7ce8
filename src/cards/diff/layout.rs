//! Laying out one file's hunks as styled rows: unified (old and new line
//! numbers, `+`/`-` markers) or side by side (old left, new right). Code is
//! syntax-highlighted by the file's language, then blended with the diff
//! roles: the foreground comes from the syntax, the background (and
//! emphasis) from the diff. Long lines hard-wrap with a `↪` in the gutter.
//! Every row is at most the given width.

use std::ops::Range;

use ratatui::style::Style;
use similar::DiffOp;

use super::model::{FileModel, emphasis};
use crate::text::highlight::{colours, highlight_lines};
use crate::text::{Line, Span, wrap};
use crate::theme::{Role, Theme};

/// Lines of a side highlighted at most; past that the file is shown plain
/// (syntect is stateful, so highlighting a line means highlighting all before it).
const MAX_HIGHLIGHT_LINES: usize = 5_000;
/// Lines per side from which both sides are highlighted at once.
const PARALLEL_SIDES: usize = 100;
/// Mark of a hard-wrapped continuation row.
const CONTINUATION: &str = "↪";
/// The hunk separator.
pub const SEPARATOR: &str = "⋯";
/// Between the old and the new column of the side-by-side layout.
const COLUMN_SEPARATOR: &str = " │ ";
const SEPARATOR_WIDTH: usize = 3;
/// A marker and its space.
const MARKER_WIDTH: usize = 2;
/// Content columns below which the line numbers are dropped.
const MIN_CONTENT: usize = 8;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Context,
    Added,
    Removed,
}

impl Kind {
    fn marker(self) -> &'static str {
        match self {
            Kind::Context => " ",
            Kind::Added => "+",
            Kind::Removed => "-",
        }
    }
}

/// One side of a row: which line, how it changed, what to emphasise.
#[derive(Debug, Clone)]
struct Cell {
    kind: Kind,
    /// 0-based index into the side's lines.
    index: usize,
    emph: Vec<Range<usize>>,
}

/// A row of the diff: unified rows fill one side (context fills both).
#[derive(Debug, Clone)]
struct Row {
    old: Option<Cell>,
    new: Option<Cell>,
}

/// Styles for one file: the theme's diff roles plus both sides' highlighting.
pub struct Painter<'a> {
    theme: &'a Theme,
    model: &'a FileModel,
    old_hl: Option<Vec<Line>>,
    new_hl: Option<Vec<Line>>,
}

impl<'a> Painter<'a> {
    /// `rows`: rows of the diff that will be shown (a preview's budget);
    /// lines past them are not highlighted.
    pub fn new(
        model: &'a FileModel,
        lang: Option<&str>,
        theme: &'a Theme,
        rows: usize,
    ) -> Painter<'a> {
        let (mut old_need, mut new_need) = (0, 0);
        for op in model.hunks.iter().flatten() {
            old_need = old_need.max(op.old_range().end);
            new_need = new_need.max(op.new_range().end);
        }
        match model.hunks.iter().flatten().next() {
            _ if rows == 0 => (old_need, new_need) = (0, 0),
            Some(first) => {
                old_need = old_need.min(first.old_range().start.saturating_add(rows));
                new_need = new_need.min(first.new_range().start.saturating_add(rows));
            }
            None => {}
        }
        let hl = |lines: &[String], need: usize| -> Option<Vec<Line>> {
            if need == 0 || need > MAX_HIGHLIGHT_LINES {
                return None;
            }
            if !colours(lang, theme) {
                return None;
            }
            let texts: Vec<&str> = lines[..need.min(lines.len())]
                .iter()
                .map(String::as_str)
                .collect();
            Some(highlight_lines(
                &texts,
                lang,
                theme,
                Style::default(),
                usize::MAX,
            ))
        };
        // The two sides are independent texts: big enough, they are
        // highlighted side by side on two threads.
        let (old_hl, new_hl) = if old_need.min(new_need) >= PARALLEL_SIDES {
            std::thread::scope(|s| {
                let old = s.spawn(|| hl(&model.old, old_need));
                let new = hl(&model.new, new_need);
                (old.join().unwrap_or(None), new)
            })
        } else {
            (hl(&model.old, old_need), hl(&model.new, new_need))
        };
        Painter {
            theme,
            model,
            old_hl,
            new_hl,
        }
    }

    fn role(&self, kind: Kind, emph: bool) -> Style {
        self.theme.style(match (kind, emph) {
            (Kind::Context, _) => Role::DiffContext,
            (Kind::Added, false) => Role::DiffAdded,
            (Kind::Added, true) => Role::DiffAddedEmph,
            (Kind::Removed, false) => Role::DiffRemoved,
            (Kind::Removed, true) => Role::DiffRemovedEmph,
        })
    }

    /// Syntax foreground and modifiers over the diff role's background.
    fn blend(&self, syntax: Option<Style>, role: Style) -> Style {
        let st = match syntax {
            None => role,
            Some(s) => {
                let mut st = role;
                st.fg = s.fg.or(role.fg);
                st.add_modifier |= s.add_modifier;
                st
            }
        };
        if self.theme.monochrome {
            Style {
                fg: None,
                bg: None,
                ..st
            }
        } else {
            st
        }
    }

    /// The styled content of a cell (no gutter, unwrapped).
    fn content(&self, old_side: bool, cell: &Cell) -> Line {
        let (lines, hl) = if old_side {
            (&self.model.old, &self.old_hl)
        } else {
            (&self.model.new, &self.new_hl)
        };
        let text = lines.get(cell.index).map_or("", String::as_str);
        let spans: Vec<(Option<Style>, &str)> = match hl.as_ref().and_then(|h| h.get(cell.index)) {
            // Highlighting only re-styles the same (already sanitized) text.
            Some(l) if l.text() == text => l
                .spans
                .iter()
                .map(|s| (Some(s.style), s.text.as_str()))
                .collect(),
            _ => vec![(None, text)],
        };
        let mut out = Line::new();
        let mut offset = 0;
        for (syntax, piece) in spans {
            let end = offset + piece.len();
            let mut pos = offset;
            while pos < end {
                let emph_here = cell.emph.iter().find(|r| r.start <= pos && pos < r.end);
                let next = match emph_here {
                    Some(r) => r.end.min(end),
                    None => cell
                        .emph
                        .iter()
                        .map(|r| r.start)
                        .filter(|&s| s > pos)
                        .min()
                        .unwrap_or(end)
                        .min(end),
                };
                let next = floor_boundary(piece, next - offset, pos - offset) + offset;
                let style = self.blend(syntax, self.role(cell.kind, emph_here.is_some()));
                out.push(Span::new(&piece[pos - offset..next - offset], style));
                pos = next;
            }
            offset = end;
        }
        out
    }

    fn gutter_style(&self) -> Style {
        self.theme.style(Role::Gutter)
    }

    /// Rows of one cell at `width`: gutter + content, hard-wrapped, padded to
    /// `width` (with the role's background where it has one when `fill`).
    fn cell_rows(
        &self,
        old_side: bool,
        cell: &Cell,
        numbers: &[Option<usize>],
        digits: usize,
        width: usize,
        fill: bool,
    ) -> Vec<Line> {
        let content = self.content(old_side, cell);
        let band = self.role(cell.kind, false);
        let band = if self.theme.monochrome {
            Style::default()
        } else {
            band
        };
        let marker = Span::new(format!("{} ", cell.kind.marker()), band);
        let num_w = numbers.len() * (digits + 1);
        let rows = if width >= num_w + MARKER_WIDTH + MIN_CONTENT {
            let mut first: Vec<Span> = numbers
                .iter()
                .map(|n| {
                    Span::new(
                        format!("{:>digits$} ", n.map(|n| n.to_string()).unwrap_or_default()),
                        self.gutter_style(),
                    )
                })
                .collect();
            first.push(marker.clone());
            let cont = vec![
                Span::new(
                    format!("{:>w$} ", CONTINUATION, w = num_w.saturating_sub(1)),
                    self.gutter_style(),
                ),
                marker,
            ];
            wrap::with_gutter(&content, width, &first, &cont, true)
        } else if width > MARKER_WIDTH {
            let cont = [Span::new(format!("{CONTINUATION} "), band)];
            wrap::with_gutter(&content, width, &[marker], &cont, true)
        } else {
            wrap::chars(&content, width)
        };
        let pad = if band.bg.is_some() && cell.kind != Kind::Context {
            band
        } else {
            Style::default()
        };
        rows.into_iter()
            .map(|r| {
                let r = wrap::fit(r, width);
                if fill || pad.bg.is_some() {
                    r.pad_to(width, pad)
                } else {
                    r
                }
            })
            .collect()
    }

    /// The hunk separator row.
    pub fn separator(&self, width: usize) -> Line {
        wrap::fit(
            Line::styled(SEPARATOR, self.theme.style(Role::DiffHunk)),
            width,
        )
    }

    /// One hunk, unified: context, then removed lines, then added lines.
    pub fn unified(&self, hunk: &[DiffOp], digits: usize, width: usize) -> Vec<Line> {
        let mut out = Vec::new();
        for row in rows(self.model, hunk, false) {
            let (old_side, cell) = match (&row.old, &row.new) {
                (_, Some(n)) => (false, n),
                (Some(o), None) => (true, o),
                (None, None) => continue,
            };
            let nums = [
                row.old.as_ref().map(|c| c.index + 1),
                row.new.as_ref().map(|c| c.index + 1),
            ];
            out.extend(self.cell_rows(old_side, cell, &nums, digits, width, false));
        }
        out
    }

    /// One hunk, side by side: old on the left, new on the right, changed
    /// lines paired row by row.
    pub fn side_by_side(&self, hunk: &[DiffOp], digits: usize, width: usize) -> Vec<Line> {
        let left_w = width.saturating_sub(SEPARATOR_WIDTH) / 2;
        let right_w = width.saturating_sub(SEPARATOR_WIDTH + left_w);
        let sep = Span::new(COLUMN_SEPARATOR, self.theme.style(Role::Gutter));
        let mut out = Vec::new();
        for row in rows(self.model, hunk, true) {
            let side = |old_side: bool, cell: &Option<Cell>, w: usize| -> Vec<Line> {
                match cell {
                    Some(c) => {
                        self.cell_rows(old_side, c, &[Some(c.index + 1)], digits, w, old_side)
                    }
                    None => Vec::new(),
                }
            };
            let left = side(true, &row.old, left_w);
            let right = side(false, &row.new, right_w);
            for i in 0..left.len().max(right.len()) {
                let l = left
                    .get(i)
                    .cloned()
                    .unwrap_or_else(|| Line::plain(" ".repeat(left_w)));
                let mut line = l;
                line.push(sep.clone());
                if let Some(r) = right.get(i) {
                    line.spans.extend(r.spans.iter().cloned());
                }
                out.push(wrap::fit(line, width));
            }
        }
        out
    }
}

/// Largest char boundary of `s` at or below `at`, but above `floor`
/// (emphasis ranges come from the same text, so this only guards).
fn floor_boundary(s: &str, at: usize, floor: usize) -> usize {
    let mut at = at.min(s.len());
    while at > floor && !s.is_char_boundary(at) {
        at -= 1;
    }
    if at == floor {
        // Never stall: step to the next boundary instead.
        at = floor + 1;
        while at < s.len() && !s.is_char_boundary(at) {
            at += 1;
        }
    }
    at.min(s.len())
}

/// The rows of a hunk. Changed blocks (a delete, an insert, or a replace)
/// pair their i-th old and new lines for word emphasis; `paired` puts a pair
/// on one row (side by side), otherwise all old rows come before all new ones.
fn rows(model: &FileModel, hunk: &[DiffOp], paired: bool) -> Vec<Row> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < hunk.len() {
        let op = &hunk[i];
        if let DiffOp::Equal {
            old_index,
            new_index,
            len,
        } = *op
        {
            for k in 0..len {
                out.push(Row {
                    old: Some(Cell {
                        kind: Kind::Context,
                        index: old_index + k,
                        emph: Vec::new(),
                    }),
                    new: Some(Cell {
                        kind: Kind::Context,
                        index: new_index + k,
                        emph: Vec::new(),
                    }),
                });
            }
            i += 1;
            continue;
        }
        // Merge a run of non-equal ops into one changed block.
        let (mut old_r, mut new_r) = (op.old_range(), op.new_range());
        i += 1;
        while let Some(next) = hunk.get(i).filter(|o| !matches!(o, DiffOp::Equal { .. })) {
            old_r.end = old_r.end.max(next.old_range().end);
            new_r.end = new_r.end.max(next.new_range().end);
            i += 1;
        }
        let mut olds: Vec<Cell> = old_r
            .map(|index| Cell {
                kind: Kind::Removed,
                index,
                emph: Vec::new(),
            })
            .collect();
        let mut news: Vec<Cell> = new_r
            .map(|index| Cell {
                kind: Kind::Added,
                index,
                emph: Vec::new(),
            })
            .collect();
        for (o, n) in olds.iter_mut().zip(news.iter_mut()) {
            let (a, b) = (model.old.get(o.index), model.new.get(n.index));
            if let (Some(a), Some(b)) = (a, b)
                && let Some(e) = emphasis(a, b)
            {
                o.emph = e.old;
                n.emph = e.new;
            }
        }
        if paired {
            let n = olds.len().max(news.len());
            let mut olds = olds.into_iter();
            let mut news = news.into_iter();
            for _ in 0..n {
                out.push(Row {
                    old: olds.next(),
                    new: news.next(),
                });
            }
        } else {
            out.extend(olds.into_iter().map(|c| Row {
                old: Some(c),
                new: None,
            }));
            out.extend(news.into_iter().map(|c| Row {
                old: None,
                new: Some(c),
            }));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::highlight::highlight_lines;

    #[test]
    fn both_sides_highlighted_on_two_threads_match_one_at_a_time() {
        let theme = Theme::dark();
        let old: String = (0..400)
            .map(|i| format!("fn f{i}() -> u32 {{ {i} }}\n"))
            .collect();
        let new = old
            .replace("fn f7()", "fn seven()")
            .replace("{ 300 }", "{ 3 }");
        let model = FileModel::compute(Some(&old), &new);
        let p = Painter::new(&model, Some("rs"), &theme, usize::MAX);
        let side = |lines: &[String]| {
            let texts: Vec<&str> = lines.iter().map(String::as_str).collect();
            highlight_lines(&texts, Some("rs"), &theme, Style::default(), usize::MAX)
        };
        let old_hl = p.old_hl.as_ref().expect("old side highlighted");
        let new_hl = p.new_hl.as_ref().expect("new side highlighted");
        assert!(old_hl.len() >= PARALLEL_SIDES);
        assert_eq!(old_hl[..], side(&model.old)[..old_hl.len()]);
        assert_eq!(new_hl[..], side(&model.new)[..new_hl.len()]);
    }
}
