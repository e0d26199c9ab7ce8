//! A ratatui backend that keeps a terminal's screen true when it disagrees
//! with deck on how wide a grapheme cluster is.
//!
//! deck lays out a cluster (a ZWJ family, a flag, a skin-tone emoji, a
//! Devanagari syllable, a letter with a combining accent) as one cell of the
//! width Unicode gives it; terminals differ (one draws a ZWJ family in two
//! columns, another in six). ratatui sends only the cells that changed and
//! trusts the cursor to land where it computed, so after a scroll such rows
//! keep fragments of earlier frames until a resize. This wrapper owns the
//! fix: it keeps what the screen holds, and a row that holds (or held) such
//! a cluster is sent whole whenever it changes — erased first, every cell
//! placed at its own column after a cluster — so the terminal ends up with
//! exactly what a full redraw gives, whatever width it draws the cluster.

use ratatui::backend::{Backend, ClearType, WindowSize};
use ratatui::buffer::{Buffer, Cell, CellWidth};
use ratatui::layout::{Position, Rect, Size};
use unicode_width::UnicodeWidthChar;

/// A backend that sends rows holding clusters of disputed width whole.
pub struct ClusterSafe<B: Backend> {
    inner: B,
    /// What the screen holds, as far as deck drew it.
    shown: Buffer,
    /// The screen's size when it is not the terminal's (a recording's).
    fixed: Option<Size>,
}

impl<B: Backend> ClusterSafe<B> {
    pub fn new(inner: B) -> ClusterSafe<B> {
        ClusterSafe {
            inner,
            shown: Buffer::empty(Rect::default()),
            fixed: None,
        }
    }

    /// A backend for a screen of `width` × `height` that is not the
    /// terminal's (`deck export --format cast`): its size is never asked of
    /// the terminal. (Asked, crossterm runs `tput` twice when the output is
    /// not a terminal — every frame — and a terminal's own size changed how
    /// ratatui cleared the recorded screen.)
    pub fn fixed(inner: B, width: u16, height: u16) -> ClusterSafe<B> {
        ClusterSafe {
            fixed: Some(Size::new(width, height)),
            ..ClusterSafe::new(inner)
        }
    }

    fn screen(&self) -> Result<Size, B::Error> {
        match self.fixed {
            Some(s) => Ok(s),
            None => self.inner.size(),
        }
    }

    #[cfg(any(test, feature = "internals"))]
    pub fn inner(&self) -> &B {
        &self.inner
    }

    /// The screen as drawn so far, sized to the terminal (a new size means
    /// ratatui cleared it).
    fn fit(&mut self) -> Result<(), B::Error> {
        let size = self.screen()?;
        let area = Rect::new(0, 0, size.width, size.height);
        if self.shown.area != area {
            self.shown = Buffer::empty(area);
        }
        Ok(())
    }

    fn row_disputed(&self, y: u16) -> bool {
        let w = self.shown.area.width;
        (0..w).any(|x| self.shown.cell((x, y)).is_some_and(|c| disputed(c.symbol())))
    }

    /// Send row `y` of what the screen should hold, whole: erase the row,
    /// then every cell, placed anew after each disputed cluster.
    fn send_row(&mut self, y: u16) -> Result<(), B::Error> {
        self.inner.set_cursor_position(Position { x: 0, y })?;
        self.inner.clear_region(ClearType::CurrentLine)?;
        let w = self.shown.area.width;
        let mut run: Vec<(u16, u16, Cell)> = Vec::new();
        let mut x = 0;
        while x < w {
            let Some(cell) = self.shown.cell((x, y)) else {
                break;
            };
            let width = cell.cell_width().max(1);
            run.push((x, y, cell.clone()));
            if disputed(cell.symbol()) {
                // A run ends after the cluster: the next cell is placed at
                // its own column, wherever the terminal left the cursor.
                self.inner
                    .draw(run.iter().map(|(x, y, c)| (*x, *y, c)))?;
                run.clear();
            }
            x += width;
        }
        self.inner.draw(run.iter().map(|(x, y, c)| (*x, *y, c)))
    }
}

/// True for a cluster terminals may draw at another width than deck lays it
/// out: more than one code point (ZWJ sequences, flags, modifiers,
/// combining marks, Indic syllables), or one of zero width. East Asian
/// ambiguous characters (box drawing, `·`) are one column in every
/// terminal deck runs in outside a CJK locale, and are not.
pub fn disputed(symbol: &str) -> bool {
    if symbol.is_ascii() {
        return false;
    }
    let mut chars = symbol.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => c.width().is_none_or(|w| w == 0),
        _ => true,
    }
}

/// The app writes a few sequences of its own (synchronized updates, OSC 52)
/// straight through.
impl<B: Backend + std::io::Write> std::io::Write for ClusterSafe<B> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.inner.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        std::io::Write::flush(&mut self.inner)
    }
}

impl<B: Backend> Backend for ClusterSafe<B> {
    type Error = B::Error;

    fn draw<'a, I>(&mut self, content: I) -> Result<(), Self::Error>
    where
        I: Iterator<Item = (u16, u16, &'a Cell)>,
    {
        self.fit()?;
        // Cells by row, in order (ratatui sends them row by row).
        let mut rows: Vec<(u16, Vec<(u16, Cell)>)> = Vec::new();
        for (x, y, cell) in content {
            match rows.last_mut() {
                Some((r, cells)) if *r == y => cells.push((x, cell.clone())),
                _ => rows.push((y, vec![(x, cell.clone())])),
            }
        }
        for (y, cells) in rows {
            let was = self.row_disputed(y);
            for (x, cell) in &cells {
                if let Some(c) = self.shown.cell_mut((*x, y)) {
                    *c = cell.clone();
                }
            }
            if was || self.row_disputed(y) {
                self.send_row(y)?;
            } else {
                self.inner
                    .draw(cells.iter().map(|(x, c)| (*x, y, c)))?;
            }
        }
        Ok(())
    }

    fn append_lines(&mut self, n: u16) -> Result<(), Self::Error> {
        self.inner.append_lines(n)
    }

    fn hide_cursor(&mut self) -> Result<(), Self::Error> {
        self.inner.hide_cursor()
    }

    fn show_cursor(&mut self) -> Result<(), Self::Error> {
        self.inner.show_cursor()
    }

    fn get_cursor_position(&mut self) -> Result<Position, Self::Error> {
        self.inner.get_cursor_position()
    }

    fn set_cursor_position<P: Into<Position>>(&mut self, position: P) -> Result<(), Self::Error> {
        self.inner.set_cursor_position(position)
    }

    fn clear(&mut self) -> Result<(), Self::Error> {
        self.shown = Buffer::empty(Rect::default());
        self.inner.clear()
    }

    fn clear_region(&mut self, clear_type: ClearType) -> Result<(), Self::Error> {
        if clear_type == ClearType::All {
            self.shown = Buffer::empty(Rect::default());
        }
        self.inner.clear_region(clear_type)
    }

    fn size(&self) -> Result<Size, Self::Error> {
        self.screen()
    }

    fn window_size(&mut self) -> Result<WindowSize, Self::Error> {
        match self.fixed {
            Some(columns_rows) => Ok(WindowSize {
                columns_rows,
                pixels: Size::default(),
            }),
            None => self.inner.window_size(),
        }
    }

    fn flush(&mut self) -> Result<(), Self::Error> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests;
