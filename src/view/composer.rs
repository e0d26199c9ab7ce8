//! Laying out the composer of `deck connect`: its text wrapped to the width
//! after a label (`› `, `steer › `, `answer › `), the cursor as a
//! reverse-video cell, a hint in place of empty text, and only as many rows
//! as fit (scrolled to keep the cursor in view).

use ratatui::style::Modifier;
use unicode_segmentation::UnicodeSegmentation;
use unicode_width::UnicodeWidthStr;

use crate::text::{Line, Span};
use crate::theme::{Role, Theme};

/// What to draw.
pub struct ComposerView<'a> {
    pub label: &'a str,
    pub text: &'a str,
    /// Byte offset of the cursor in `text`.
    pub cursor: usize,
    /// The composer has the keys: the cursor shows.
    pub focused: bool,
    /// Shown (muted) when the text is empty.
    pub hint: &'a str,
}

/// Rows of `text` wrapped at `width` after the label, and the row the
/// cursor is on. Each row: (byte range in `text`).
fn rows(text: &str, cursor: usize, room: usize) -> (Vec<(usize, usize)>, usize) {
    let room = room.max(1);
    let mut out = Vec::new();
    let mut cursor_row = 0;
    let mut start = 0;
    for line in text.split('\n') {
        let base = start;
        let mut row_start = base;
        let mut w = 0;
        // After the last blank of the row: where a word wrap may break.
        let mut brk: Option<usize> = None;
        for (i, g) in line.grapheme_indices(true) {
            let gw = g.width();
            if w + gw > room && w > 0 {
                // Words move to the next row whole when they fit one.
                let blank = g.trim().is_empty();
                let at = brk.filter(|&b| b > row_start && !blank).unwrap_or(base + i);
                out.push((row_start, at));
                row_start = at;
                w = text[at..base + i].width();
                brk = None;
            }
            w += gw;
            if g.trim().is_empty() {
                brk = Some(base + i + g.len());
            }
        }
        // A row ending exactly at the width keeps its cursor on a new row.
        if w >= room && cursor == base + line.len() {
            out.push((row_start, base + line.len()));
            row_start = base + line.len();
        }
        out.push((row_start, base + line.len()));
        start = base + line.len() + 1;
    }
    for (r, &(a, b)) in out.iter().enumerate() {
        if cursor >= a && cursor <= b {
            cursor_row = r;
            // The end of a row is also the start of the next one: prefer
            // the later row only when this one ends a wrapped line exactly.
            if cursor == b && out.get(r + 1).is_some_and(|n| n.0 == b) {
                continue;
            }
            break;
        }
    }
    (out, cursor_row)
}

/// Every row of the composer at `width` (label and cursor included), and
/// the row of the cursor.
pub fn layout(v: &ComposerView, theme: &Theme, width: usize) -> (Vec<Line>, usize) {
    let label_w = v.label.width();
    let label = Span::new(v.label.to_string(), theme.style(Role::Focus));
    let pad = Span::plain(" ".repeat(label_w));
    let cursor_style = theme.style(Role::Text).add_modifier(Modifier::REVERSED);
    if v.text.is_empty() {
        let mut l = Line::new();
        l.spans.push(label);
        if v.focused {
            l.push_str(" ", cursor_style);
        }
        l.push_str(v.hint.to_string(), theme.style(Role::Muted));
        return (vec![crate::text::wrap::truncate(&l, width)], 0);
    }
    let room = width.saturating_sub(label_w).max(1);
    let (rows, cursor_row) = rows(v.text, v.cursor, room);
    let text_style = theme.style(Role::Text);
    let mut out = Vec::with_capacity(rows.len());
    for (r, &(a, b)) in rows.iter().enumerate() {
        let mut l = Line::new();
        l.spans
            .push(if r == 0 { label.clone() } else { pad.clone() });
        let s = &v.text[a..b];
        if v.focused && r == cursor_row {
            let at = v.cursor.clamp(a, b) - a;
            l.push_str(s[..at].to_string(), text_style);
            let rest = &s[at..];
            match rest.graphemes(true).next() {
                Some(g) => {
                    l.push_str(g.to_string(), cursor_style);
                    l.push_str(rest[g.len()..].to_string(), text_style);
                }
                None => l.push_str(" ", cursor_style),
            }
        } else {
            l.push_str(s.to_string(), text_style);
        }
        out.push(crate::text::wrap::truncate(&l, width));
    }
    (out, cursor_row)
}

/// The rows shown when at most `max_rows` fit: a window that holds the cursor.
pub fn window(lines: Vec<Line>, cursor_row: usize, max_rows: usize) -> Vec<Line> {
    let max_rows = max_rows.max(1);
    if lines.len() <= max_rows {
        return lines;
    }
    let first = cursor_row.saturating_sub(max_rows - 1);
    lines.into_iter().skip(first).take(max_rows).collect()
}

#[cfg(any(test, feature = "internals"))]
/// The style of the cursor cell (for tests that look for it).
pub fn cursor_style(theme: &Theme) -> ratatui::style::Style {
    theme.style(Role::Text).add_modifier(Modifier::REVERSED)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(v: &ComposerView, width: usize) -> (Vec<String>, usize) {
        let theme = Theme::dark();
        let (lines, row) = layout(v, &theme, width);
        (lines.iter().map(Line::text).collect(), row)
    }

    fn view<'a>(text: &'a str, cursor: usize) -> ComposerView<'a> {
        ComposerView {
            label: "› ",
            text,
            cursor,
            focused: true,
            hint: "type a message",
        }
    }

    #[test]
    fn wraps_after_the_label_and_finds_the_cursor() {
        let (rows, at) = texts(&view("abcdefgh\nij", 3), 6);
        assert_eq!(rows, vec!["› abcd", "  efgh", "  ij"]);
        // Words wrap whole; blanks stay at the end of their row.
        let (rows, _) = texts(&view("ab cd efghij", 0), 8);
        assert_eq!(rows, vec!["› ab cd ", "  efghij"]);
        let (rows, _) = texts(&view("a  bcdefghij", 0), 8);
        assert_eq!(rows, vec!["› a  ", "  bcdefg", "  hij"]);
        let (rows, _) = texts(&view("abcdef   x", 0), 8);
        assert_eq!(rows, vec!["› abcdef", "     x"]);
        assert_eq!(at, 0);
        let (_, at) = texts(&view("abcdefgh\nij", 5), 6);
        assert_eq!(at, 1);
        let (rows, at) = texts(&view("abcdefgh\nij", 11), 6);
        assert_eq!(at, 2);
        assert_eq!(
            rows[2], "  ij ",
            "the cursor after the text is a blank cell"
        );
        // Exactly full row with the cursor at its end: the cursor goes on
        // a fresh row instead of past the edge.
        let (rows, at) = texts(&view("abcd", 4), 6);
        assert_eq!(rows, vec!["› abcd", "   "]);
        assert_eq!(at, 1);
        // Wide characters are not split.
        let (rows, _) = texts(&view("日本語テキスト", 0), 8);
        assert_eq!(rows, vec!["› 日本語", "  テキス", "  ト"]);
    }

    #[test]
    fn empty_shows_the_hint_and_the_cursor_cell() {
        let theme = Theme::dark();
        let (lines, _) = layout(&view("", 0), &theme, 40);
        assert_eq!(lines[0].text(), "›  type a message");
        assert_eq!(lines[0].spans[1].style, cursor_style(&theme));
        let unfocused = ComposerView {
            focused: false,
            ..view("", 0)
        };
        let (lines, _) = layout(&unfocused, &theme, 40);
        assert_eq!(lines[0].text(), "› type a message");
    }

    #[test]
    fn the_window_keeps_the_cursor() {
        let lines: Vec<Line> = (0..10)
            .map(|i| Line::styled(i.to_string(), ratatui::style::Style::default()))
            .collect();
        let shown = window(lines.clone(), 7, 3);
        assert_eq!(
            shown.iter().map(Line::text).collect::<Vec<_>>(),
            vec!["5", "6", "7"]
        );
        assert_eq!(window(lines.clone(), 0, 3)[0].text(), "0");
        assert_eq!(window(lines, 0, 20).len(), 10);
    }
}
