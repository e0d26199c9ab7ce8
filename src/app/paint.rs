//! Painting deck's lines into a ratatui buffer (the one conversion every
//! widget of the app uses).

use ratatui::buffer::Buffer;

use crate::text::Line;

/// Paint `line` at (`x`, `y`), at most `width` cells.
pub fn put(buf: &mut Buffer, x: u16, y: u16, width: u16, line: &Line) {
    let rl: ratatui::text::Line<'static> = line.into();
    buf.set_line(x, y, &rl, width);
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
