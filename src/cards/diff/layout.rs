//! Laying out one file's hunks as styled rows: unified (old and new line
//! numbers, `+`/`-` markers) or side by side (old left, new right). Code is
//! syntax-highlighted by the file's language, then blended with the diff
//! roles: the foreground comes from the syntax, the background (and
//! emphasis) from the diff. Long lines hard-wrap with a `↪` in the gutter.
//! Every row is at most the given width. Which lines make a row is
//! `rows.rs`'s.

use std::ops::Range;

use ratatui::style::Style;
use similar::DiffOp;

use super::model::FileModel;
use super::rows::{Block, Cell, Kind, blocks, rows};
use crate::text::highlight::{Highlighter, colours};
use crate::text::{Line, Span, wrap};
use crate::theme::{Role, Theme};

/// Lines of one file highlighted at most; the lines shown past them are plain.
const MAX_HIGHLIGHT_LINES: usize = 20_000;
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

/// Styles for one file: the theme's diff roles plus the highlighting of the
/// lines shown (indexed by line of each side; `None`: not highlighted).
pub struct Painter<'a> {
    theme: &'a Theme,
    model: &'a FileModel,
    /// Changed words emphasised (not for rows only counted, or laid out
    /// plain first).
    emphasise: bool,
    old_hl: Vec<Option<Line>>,
    new_hl: Vec<Option<Line>>,
}

impl<'a> Painter<'a> {
    /// Highlights the lines the hunks show — and only those, as delta does —
    /// in the order they are shown, with one running syntax state: context
    /// and added lines continue the new side, and the removed lines of a
    /// changed block start from the state the context before it left
    /// (so a removed `/*` cannot colour the added lines as a comment).
    /// Lines between hunks are skipped: the state carries over the gap.
    /// `rows`: rows of the diff that will be shown (a preview's budget);
    /// lines past them are not highlighted.
    pub fn new(
        model: &'a FileModel,
        lang: Option<&str>,
        theme: &'a Theme,
        rows: usize,
    ) -> Painter<'a> {
        let mut p = Painter {
            theme,
            model,
            emphasise: rows > 0,
            old_hl: Vec::new(),
            new_hl: Vec::new(),
        };
        let mut left = rows.min(MAX_HIGHLIGHT_LINES);
        if left == 0 || !colours(lang, theme) {
            return p;
        }
        p.old_hl = vec![None; model.old.len()];
        p.new_hl = vec![None; model.new.len()];
        let mut h = Highlighter::new(lang, theme, Style::default());
        let mut run =
            |h: &mut Highlighter, lines: &[String], out: &mut [Option<Line>], r: Range<usize>| {
                for i in r {
                    if left == 0 {
                        return;
                    }
                    left -= 1;
                    if let (Some(text), Some(slot)) = (lines.get(i), out.get_mut(i)) {
                        *slot = Some(h.line(text));
                    }
                }
            };
        for hunk in &model.hunks {
            for block in blocks(hunk) {
                match block {
                    Block::Same { old, new } => {
                        run(&mut h, &model.new, &mut p.new_hl, new.clone());
                        for (o, n) in old.zip(new) {
                            if let (Some(slot), Some(l)) = (p.old_hl.get_mut(o), p.new_hl.get(n)) {
                                slot.clone_from(l);
                            }
                        }
                    }
                    Block::Changed { old, new } => {
                        let before = h.checkpoint();
                        run(&mut h, &model.old, &mut p.old_hl, old);
                        h.resume(&before);
                        run(&mut h, &model.new, &mut p.new_hl, new);
                    }
                }
            }
        }
        p
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
        let spans: Vec<(Option<Style>, &str)> = match hl.get(cell.index).and_then(Option::as_ref) {
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
            wrap::with_gutter(content, width, &first, &cont, true)
        } else if width > MARKER_WIDTH {
            let cont = [Span::new(format!("{CONTINUATION} "), band)];
            wrap::with_gutter(content, width, &[marker], &cont, true)
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
        for row in rows(self.model, hunk, false, self.emphasise) {
            let (old_side, cell) = match (&row.old, &row.new) {
                (_, Some(n)) => (false, n),
                (Some(o), None) => (true, o),
                (None, None) => continue,
            };
            let nums = [
                row.old.as_ref().and_then(|c| self.model.old_number(c.index)),
                row.new.as_ref().and_then(|c| self.model.new_number(c.index)),
            ];
            let nums: &[Option<usize>] = if self.model.start.is_some() {
                &nums
            } else {
                &[]
            };
            out.extend(self.cell_rows(old_side, cell, nums, digits, width, false));
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
        for row in rows(self.model, hunk, true, self.emphasise) {
            let side = |old_side: bool, cell: &Option<Cell>, w: usize| -> Vec<Line> {
                match cell {
                    Some(c) => {
                        let n = [if old_side {
                            self.model.old_number(c.index)
                        } else {
                            self.model.new_number(c.index)
                        }];
                        let nums: &[Option<usize>] = if self.model.start.is_some() {
                            &n
                        } else {
                            &[]
                        };
                        self.cell_rows(old_side, c, nums, digits, w, old_side)
                    }
                    None => Vec::new(),
                }
            };
            let left = side(true, &row.old, left_w);
            let right = side(false, &row.new, right_w);
            let n = left.len().max(right.len());
            let (mut left, mut right) = (left.into_iter(), right.into_iter());
            for _ in 0..n {
                let mut line = left
                    .next()
                    .unwrap_or_else(|| Line::plain(" ".repeat(left_w)));
                line.push(sep.clone());
                if let Some(mut r) = right.next() {
                    line.spans.append(&mut r.spans);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::highlight::highlight;

    fn shown(hl: &[Option<Line>]) -> Vec<usize> {
        (0..hl.len()).filter(|&i| hl[i].is_some()).collect()
    }

    #[test]
    fn only_the_lines_shown_are_highlighted() {
        let theme = Theme::dark();
        let old: String = (0..60)
            .map(|i| format!("fn f{i}() -> u32 {{ {i} }}\n"))
            .collect();
        let new = old.replace("{ 5 }", "{ 50 }").replace("{ 40 }", "{ 4 }");
        let model = FileModel::compute(Some(&old), &new);
        assert_eq!(model.hunks.len(), 2);
        let p = Painter::new(&model, Some("rs"), &theme, usize::MAX);
        // Hunks: lines 2..=8 and 37..=43 (0-based), three lines of context.
        let want: Vec<usize> = (2..9).chain(37..44).collect();
        assert_eq!(shown(&p.new_hl), want);
        assert_eq!(shown(&p.old_hl), want);
        // Within a hunk starting at the top level the colours are exact.
        let full = highlight(&new, Some("rs"), &theme, Style::default());
        for i in want {
            assert_eq!(p.new_hl[i].as_ref(), Some(&full[i]), "line {i}");
        }
        // A preview budget stops early.
        let p = Painter::new(&model, Some("rs"), &theme, 4);
        assert_eq!(shown(&p.new_hl).len() + shown(&p.old_hl).len() - 3, 4);
        let p = Painter::new(&model, Some("rs"), &theme, 0);
        assert!(p.new_hl.is_empty() && p.old_hl.is_empty());
    }

    #[test]
    fn added_lines_continue_from_the_context_not_from_the_removed_ones() {
        let theme = Theme::dark();
        let old = "fn a() {}\n/* opened\nfn b() {}\n";
        let new = "fn a() {}\nlet x = 1;\nfn b() {}\n";
        let model = FileModel::compute(Some(old), new);
        let p = Painter::new(&model, Some("rs"), &theme, usize::MAX);
        let new_full = highlight(new, Some("rs"), &theme, Style::default());
        let old_full = highlight(old, Some("rs"), &theme, Style::default());
        // The removed line is coloured as the old side reads it…
        assert_eq!(p.old_hl[1].as_ref(), Some(&old_full[1]));
        // …and the added line as the new side reads it: not as a comment.
        assert_eq!(p.new_hl[1].as_ref(), Some(&new_full[1]));
        // The context after the block continues the new side.
        assert_eq!(p.new_hl[2].as_ref(), Some(&new_full[2]));
        assert_ne!(p.new_hl[1], p.old_hl[1]);
    }
}
