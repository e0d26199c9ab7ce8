//! Painting deck's lines into a ratatui buffer (the one conversion every
//! widget of the app uses).

use ratatui::buffer::Buffer;

use crate::text::Line;

/// Paint `line` at (`x`, `y`), at most `width` cells.
///
/// Cell by grapheme cluster of the whole line, not of each span: a cluster
/// split over two spans (a search hit or a colour ending inside it) stays
/// one cell, with the style of its first span, and never loses its
/// combining marks or modifiers. An ASCII character followed by another
/// (or by nothing) is a cluster of its own: it is written without a
/// segmentation, and the span it is in is found by walking forward (every
/// row of every frame comes through here).
pub fn put(buf: &mut Buffer, x: u16, y: u16, width: u16, line: &Line) {
    use ratatui::buffer::CellWidth;
    use unicode_segmentation::UnicodeSegmentation;
    let area = buf.area;
    let end = x.saturating_add(width).min(area.right());
    if y < area.y || y >= area.bottom() || x < area.x || x >= end {
        return;
    }
    let row = buf.index_of(x, y);
    let joined;
    let text = match line.spans.as_slice() {
        [one] => one.text.as_str(),
        _ => {
            joined = line.text();
            joined.as_str()
        }
    };
    let bytes = text.as_bytes();
    let mut span = 0;
    let mut span_end = line.spans.first().map_or(0, |s| s.text.len());
    let mut col = x;
    let mut i = 0;
    while i < bytes.len() {
        while i >= span_end && span + 1 < line.spans.len() {
            span += 1;
            span_end += line.spans[span].text.len();
        }
        let style = line.spans.get(span).map(|s| s.style).unwrap_or_default();
        let b = bytes[i];
        if b.is_ascii() && bytes.get(i + 1).is_none_or(u8::is_ascii) {
            i += 1;
            if b.is_ascii_control() {
                continue;
            }
            if col >= end {
                break;
            }
            buf.content[row + usize::from(col - x)]
                .set_char(char::from(b))
                .set_style(style);
            col += 1;
            continue;
        }
        let g = text[i..].graphemes(true).next().unwrap_or_default();
        i += g.len().max(1);
        if g.contains(char::is_control) {
            continue;
        }
        let w = g.cell_width();
        if w == 0 {
            continue;
        }
        if col.saturating_add(w) > end {
            break;
        }
        let at = row + usize::from(col - x);
        buf.content[at].set_symbol(g).set_style(style);
        for cell in &mut buf.content[at + 1..at + usize::from(w)] {
            cell.reset();
        }
        col += w;
    }
}

/// Reset a rectangle to `style` (a box's ground: the screen's, with the
/// theme's text style on it).
pub fn clear(buf: &mut Buffer, area: ratatui::layout::Rect, style: ratatui::style::Style) {
    for y in area.y..area.y + area.height {
        for x in area.x..area.x + area.width {
            if let Some(cell) = buf.cell_mut((x, y)) {
                cell.reset();
                cell.set_style(style);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use ratatui::buffer::Buffer;
    use ratatui::layout::Rect;
    use ratatui::style::{Color, Style};

    use super::put;
    use crate::text::{Line, Span};

    fn row(buf: &Buffer, y: u16) -> String {
        (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect()
    }

    /// ASCII written a byte a cell with its span's style (empty spans
    /// skipped), control characters not drawn, cut at the width, nothing
    /// outside the buffer.
    #[test]
    fn ascii_rows_take_their_spans_styles_and_stop_at_the_width() {
        let mut buf = Buffer::empty(Rect::new(0, 0, 12, 2));
        let red = Style::default().fg(Color::Red);
        let blue = Style::default().fg(Color::Blue);
        let l = Line::from_spans(vec![
            Span::new("ab", red),
            Span::new("", Style::default().fg(Color::Green)),
            Span::new("c\u{7}d\r\n", blue),
            Span::new("efghijklmn", red),
        ]);
        put(&mut buf, 2, 0, 8, &l);
        assert_eq!(row(&buf, 0), "  abcdefgh  ");
        let fgs: Vec<Color> = (2..10).map(|x| buf[(x, 0)].fg).collect();
        use Color::{Blue, Red};
        assert_eq!(fgs, [Red, Red, Blue, Blue, Red, Red, Red, Red]);
        // Outside the buffer: nothing, no panic.
        put(&mut buf, 0, 5, 12, &l);
        put(&mut buf, 20, 1, 12, &l);
        assert_eq!(row(&buf, 1), " ".repeat(12));
        // A wide character that does not fit is not drawn; ASCII before a
        // combining mark is one cell with it.
        put(&mut buf, 0, 1, 4, &Line::plain("ae\u{301}x日"));
        assert_eq!(
            (0..4).map(|x| buf[(x, 1)].symbol()).collect::<Vec<_>>(),
            ["a", "e\u{301}", "x", " "]
        );
    }
}
