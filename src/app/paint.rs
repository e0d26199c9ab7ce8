//! Painting deck's lines into a ratatui buffer (the one conversion every
//! widget of the app uses).

use ratatui::buffer::Buffer;

use crate::text::Line;

/// Paint `line` at (`x`, `y`), at most `width` cells.
///
/// Cell by grapheme cluster of the whole line, not of each span: a cluster
/// split over two spans (a search hit or a colour ending inside it) stays
/// one cell, with the style of its first span, and never loses its
/// combining marks or modifiers.
pub fn put(buf: &mut Buffer, x: u16, y: u16, width: u16, line: &Line) {
    use ratatui::buffer::CellWidth;
    use unicode_segmentation::UnicodeSegmentation;
    if line.spans.len() <= 1 || line.spans.iter().all(|s| s.text.is_ascii()) {
        let rl: ratatui::text::Line<'static> = line.into();
        buf.set_line(x, y, &rl, width);
        return;
    }
    let text = line.text();
    // Where each span starts in `text`.
    let mut starts = Vec::with_capacity(line.spans.len());
    let mut at = 0;
    for s in &line.spans {
        starts.push(at);
        at += s.text.len();
    }
    let end = x.saturating_add(width).min(buf.area.right());
    let mut col = x;
    for (i, g) in text.grapheme_indices(true) {
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
        let k = starts.partition_point(|&s| s <= i).saturating_sub(1);
        let style = line.spans.get(k).map(|s| s.style).unwrap_or_default();
        if let Some(cell) = buf.cell_mut((col, y)) {
            cell.set_symbol(g).set_style(style);
        }
        for c in col + 1..col + w {
            if let Some(cell) = buf.cell_mut((c, y)) {
                cell.reset();
            }
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
