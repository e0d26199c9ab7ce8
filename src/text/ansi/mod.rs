//! Terminal output through a vt100 emulator: the only place where escape
//! sequences in tool output are *interpreted* rather than shown.
//!
//! Owns: turning raw terminal bytes (SGR colours, `\r` progress redraws, bare
//! `\n`, cursor moves, erases, OSC/DCS strings…) into plain cell text plus
//! styles. What comes out is what a terminal would have shown, one
//! [`Line`] per logical line: SGR attributes become [`Style`]s, every other
//! sequence only acts on the emulated screen and never reaches the result.
//! Cell text still goes through [`sanitize`], so nothing the emulator kept as a
//! "printable" (bidi controls and the like) can reach the real terminal.
//!
//! Must not: know about cards, stderr markers or wrapping policy beyond the
//! plain hard wrap of [`render`].
//!
//! Memory stays bounded for any input: the emulated screen is at most
//! [`MAX_COLS`] × [`MAX_ROWS`] cells. The input is fed in pieces that can move
//! the cursor down by only a few rows, and before the cursor nears the bottom
//! the oldest rows are committed to the result and scrolled away. The last
//! rows before the cursor stay live, so cursor-up redraws (multi-line progress
//! bars) still work; rows older than that are history, as in a terminal's
//! scrollback. Lines longer than the screen wrap inside the emulator and are
//! joined again. Known approximation: output that sets its own scroll region
//! (DECSTBM) and scrolls inside it can lose the rows it scrolls away, as it
//! would in a terminal without scrollback.

mod simple;

use ratatui::style::{Color, Modifier, Style};
use unicode_width::UnicodeWidthChar;

use super::line::{Line, Span};
use super::sanitize;
use crate::theme::Theme;

/// Widest emulated screen; longer lines wrap inside the emulator and are re-joined.
pub const MAX_COLS: usize = 1024;
/// Tallest emulated screen.
pub const MAX_ROWS: usize = 256;
/// Rows before the cursor kept live (reachable by cursor-up) when committing.
const KEEP_ROWS: usize = 64;
/// Rows one piece of input can move the cursor down at most (a line feed plus
/// autowrap), with slack.
const MARGIN: usize = 4;
/// The narrowest screen (vt100 needs room for a wide glyph).
const MIN_COLS: usize = 4;
/// Tab stops of the emulated terminal.
const TAB_STOP: usize = 8;

#[cfg(any(test, feature = "internals"))]
/// Emulate `output` and hard-wrap the resulting lines at `width` columns, in
/// the theme's text style.
pub fn render(output: &str, width: usize, theme: &Theme) -> Vec<Line> {
    let width = width.max(1);
    lines(output, theme, theme.style(crate::theme::Role::Text))
        .iter()
        .flat_map(|l| super::wrap::chars(l, width))
        .collect()
}

#[cfg(any(test, feature = "internals"))]
/// Emulate `output` and return its logical lines, unwrapped. `base` is the
/// style under every cell: cells in the terminal's default colours (including
/// after `ESC[0m` / `ESC[39m`) show `base`, never a hard reset. In a
/// monochrome theme colours are dropped and only attributes (bold, dim,
/// italic, underline, inverse) are kept. Trailing empty lines are dropped.
pub fn lines(output: &str, theme: &Theme, base: Style) -> Vec<Line> {
    let mut out = Vec::new();
    lines_into(output, theme, base, &mut |l| out.push(l));
    out
}

/// [`lines`], each logical line handed to `f` as the emulator commits it
/// (the output's lines are never all held).
pub fn lines_into(output: &str, theme: &Theme, base: Style, f: &mut dyn FnMut(Line)) {
    if output.is_empty() {
        return;
    }
    if simple::check(output) {
        // No cursor moves: laid out as read, same result as the emulator.
        let mut out = Out::new(base, f);
        simple::lines(output, theme.monochrome, &mut |l| out.emit(l));
        return;
    }
    emulated(output, theme, base, f);
}

/// [`lines_into`] through the emulator, whatever the output.
fn emulated(output: &str, theme: &Theme, base: Style, f: &mut dyn FnMut(Line)) {
    let shape = Shape::measure(output);
    let marker = base.patch(theme.style(crate::theme::Role::Muted));
    let mut emu = Emulator::new(shape, theme.monochrome, base, f);
    emu.marker = marker;
    emu.feed_all(output.as_bytes());
    emu.finish();
}

/// The screen size for one output: wide enough that its lines do not wrap
/// (up to [`MAX_COLS`]), tall enough for all of it (up to [`MAX_ROWS`]).
#[derive(Debug, Clone, Copy)]
struct Shape {
    rows: usize,
    cols: usize,
}

impl Shape {
    fn measure(output: &str) -> Shape {
        let mut widest = 0usize;
        let mut col = 0usize;
        let mut breaks = 0usize;
        let mut overflow = 0usize;
        for c in output.chars() {
            match c {
                '\n' | '\u{b}' | '\u{c}' => {
                    widest = widest.max(col);
                    overflow += col / MAX_COLS;
                    breaks += 1;
                    col = 0;
                }
                '\t' => col = (col / TAB_STOP + 1) * TAB_STOP,
                // Escapes and `\r` count as one column: an over-estimate is harmless.
                _ => col += c.width().unwrap_or(1).max(1),
            }
        }
        widest = widest.max(col);
        overflow += col / MAX_COLS;
        let cols = (widest + 1).clamp(MIN_COLS, MAX_COLS);
        let rows = (breaks + overflow + 2 + MARGIN * 2).min(MAX_ROWS);
        Shape { rows, cols }
    }
}

/// Logical lines on their way out: in the base style, empty ones held
/// back until a line with ink follows (no trailing empty lines).
struct Out<'f> {
    base: Style,
    f: &'f mut dyn FnMut(Line),
    blanks: usize,
}

impl<'f> Out<'f> {
    fn new(base: Style, f: &'f mut dyn FnMut(Line)) -> Out<'f> {
        Out { base, f, blanks: 0 }
    }

    fn emit(&mut self, line: Line) {
        if line.width() == 0 {
            self.blanks += 1;
            return;
        }
        for _ in 0..std::mem::take(&mut self.blanks) {
            (self.f)(Line::new().patch_under(self.base));
        }
        (self.f)(line.patch_under(self.base));
    }
}

struct Emulator<'f> {
    parser: vt100::Parser,
    shape: Shape,
    mono: bool,
    out: Out<'f>,
    /// A committed row that wrapped into a row not committed yet.
    pending: Option<Line>,
    /// The style of the lines that mark a cleared screen.
    marker: Style,
}

/// Sequences that wipe what a terminal shows (erase the screen, reset the
/// terminal, switch to or from the alternate screen), and the line that
/// marks each in the output instead: what was printed before stays.
const WIPES: &[(&[u8], &str)] = &[
    (b"\x1b[2J", "screen cleared"),
    (b"\x1b[3J", "screen cleared"),
    (b"\x1bc", "terminal reset"),
    (b"\x1b[?1049h", "full-screen output"),
    (b"\x1b[?1049l", "end of full-screen output"),
    (b"\x1b[?1047h", "full-screen output"),
    (b"\x1b[?1047l", "end of full-screen output"),
    (b"\x1b[?47h", "full-screen output"),
    (b"\x1b[?47l", "end of full-screen output"),
];

/// The wipe starting at `b[i]` (an ESC), if it is one: its length and marker.
fn wipe_at(b: &[u8], i: usize) -> Option<(usize, &'static str)> {
    WIPES
        .iter()
        .find(|(seq, _)| b[i..].starts_with(seq))
        .map(|(seq, what)| (seq.len(), *what))
}

impl<'f> Emulator<'f> {
    fn new(shape: Shape, mono: bool, base: Style, out: &'f mut dyn FnMut(Line)) -> Emulator<'f> {
        // Both fit in u16: MAX_ROWS and MAX_COLS are small.
        let parser = vt100::Parser::new(shape.rows as u16, shape.cols as u16, 0);
        Emulator {
            parser,
            shape,
            mono,
            out: Out::new(base, out),
            pending: None,
            marker: base,
        }
    }

    /// A finished logical line, out.
    fn emit(&mut self, line: Line) {
        self.out.emit(line);
    }

    /// Feed the whole output in pieces that each move the cursor down at most
    /// a couple of rows: split after every line-advancing byte and every
    /// `cols` bytes. A bare `\n` is fed as `\r\n` (what a tty's `onlcr` does).
    /// A wipe (see [`WIPES`]) commits the screen as it was, then a marker
    /// line, and leaves an empty screen with the cursor home.
    fn feed_all(&mut self, bytes: &[u8]) {
        let chunk = self.shape.cols;
        let mut start = 0;
        let mut skip_to = 0;
        for (i, &b) in bytes.iter().enumerate() {
            if i < skip_to {
                continue;
            }
            match b {
                0x1b if let Some((len, what)) = wipe_at(bytes, i) => {
                    self.feed(&bytes[start..i]);
                    self.wipe(what, &bytes[i..i + len]);
                    skip_to = i + len;
                    start = skip_to;
                }
                b'\n' => {
                    self.feed(&bytes[start..i]);
                    self.feed(b"\r\n");
                    start = i + 1;
                }
                0x0b | 0x0c => {
                    self.feed(&bytes[start..=i]);
                    start = i + 1;
                }
                _ if i + 1 - start >= chunk => {
                    self.feed(&bytes[start..=i]);
                    start = i + 1;
                }
                _ => {}
            }
        }
        self.feed(&bytes[start..]);
    }

    fn feed(&mut self, piece: &[u8]) {
        if piece.is_empty() {
            return;
        }
        let (row, _) = self.parser.screen().cursor_position();
        let row = usize::from(row);
        if row + MARGIN >= self.shape.rows {
            let keep = KEEP_ROWS.min(self.shape.rows / 2);
            self.commit(row.saturating_sub(keep));
        }
        self.parser.process(piece);
    }

    /// A wipe: everything on the screen so far into the result, a marker
    /// line when something was shown since the last one, and an empty
    /// screen. A reset also goes to the emulator (it resets the styles);
    /// the alternate screen is never entered, so nothing drawn there is
    /// lost when it is left.
    fn wipe(&mut self, what: &str, seq: &[u8]) {
        let shown = self.flush_screen();
        if shown {
            let marker = Line::styled(format!("── {what} ──"), self.marker);
            self.emit(marker);
        }
        if seq == b"\x1bc" {
            self.parser.process(seq);
        }
        self.parser.process(b"\x1b[2J\x1b[H");
    }

    /// Commit every row of the screen with anything in it (and up to the
    /// cursor's row, mid-line); true when there was any.
    fn flush_screen(&mut self) -> bool {
        let last = self.last_row();
        if let Some(last) = last {
            for r in 0..=last {
                self.take_row(r);
            }
        }
        if let Some(p) = self.pending.take() {
            self.emit(p);
        }
        last.is_some()
    }

    /// The last row with ink, or the cursor's when it is mid-line.
    fn last_row(&self) -> Option<usize> {
        let screen = self.parser.screen();
        let (crow, ccol) = screen.cursor_position();
        let mut last: Option<usize> = (ccol > 0).then_some(usize::from(crow));
        for r in (0..self.shape.rows).rev() {
            if last.is_some_and(|l| l >= r) {
                break;
            }
            if self.row_has_ink(r as u16) {
                last = Some(r);
                break;
            }
        }
        last
    }

    /// Move the top `n` rows of the screen into the result and scroll them away.
    fn commit(&mut self, n: usize) {
        if n == 0 {
            return;
        }
        for r in 0..n {
            self.take_row(r);
        }
        // Scroll the committed rows off (scrollback is 0, so they are dropped)
        // and move the cursor up with the text. Neither touches the SGR state.
        let seq = format!("\u{1b}[{n}S\u{1b}[{n}A");
        self.parser.process(seq.as_bytes());
    }

    /// Append screen row `r` to the result, joining it to a previous wrapped row.
    fn take_row(&mut self, r: usize) {
        let row = r as u16;
        let wrapped = self.parser.screen().row_wrapped(row);
        let line = self.row_line(row, wrapped);
        let line = match self.pending.take() {
            Some(mut prev) => {
                join(&mut prev, line);
                prev
            }
            None => line,
        };
        if wrapped {
            self.pending = Some(line);
        } else {
            self.emit(line);
        }
    }

    /// The rest: the rows still on screen, up to the last one with
    /// anything in it (or the cursor's, when it is mid-line).
    fn finish(mut self) {
        self.flush_screen();
    }

    fn row_has_ink(&self, row: u16) -> bool {
        let screen = self.parser.screen();
        (0..self.shape.cols as u16).any(|c| {
            screen
                .cell(row, c)
                .is_some_and(|cell| has_ink(cell, self.mono))
        })
    }

    /// One screen row as a styled line. Unless the row wraps, blank cells at
    /// its end are dropped.
    fn row_line(&self, row: u16, wrapped: bool) -> Line {
        let screen = self.parser.screen();
        let cols = self.shape.cols as u16;
        let end = if wrapped {
            cols
        } else {
            (0..cols)
                .rev()
                .find(|&c| {
                    screen
                        .cell(row, c)
                        .is_some_and(|cell| has_ink(cell, self.mono))
                })
                .map_or(0, |c| c + 1)
        };
        let mut line = Line::new();
        let mut buf = String::new();
        let mut cur = Style::default();
        for c in 0..end {
            let Some(cell) = screen.cell(row, c) else {
                break;
            };
            if cell.is_wide_continuation() {
                continue;
            }
            let style = cell_style(cell, self.mono);
            if style != cur && !buf.is_empty() {
                line.push(Span::new(std::mem::take(&mut buf), cur));
            }
            cur = style;
            let text = cell.contents();
            if text.is_empty() {
                buf.push(' ');
            } else {
                buf.push_str(&sanitize::line(text));
            }
        }
        if !buf.is_empty() {
            line.push(Span::new(buf, cur));
        }
        line
    }
}

/// True when a cell shows something: a glyph, or a visible background.
fn has_ink(cell: &vt100::Cell, mono: bool) -> bool {
    let text = cell.contents();
    if !text.is_empty() && !text.chars().all(char::is_whitespace) {
        return true;
    }
    cell.inverse() || cell.underline() || (!mono && cell.bgcolor() != vt100::Color::Default)
}

/// Append a wrapped row's spans to the logical line they continue, joining
/// the two spans that meet when they have the same style and link. Costs
/// the row, not the line: a 50 MB line is joined from its rows in linear time.
fn join(line: &mut Line, row: Line) {
    let mut spans = row.spans.into_iter();
    if let Some(first) = spans.next() {
        match line.spans.last_mut() {
            Some(last) if last.style == first.style && last.link == first.link => {
                last.text.push_str(&first.text)
            }
            _ => line.push(first),
        }
    }
    line.spans.extend(spans);
}

fn color(c: vt100::Color) -> Option<Color> {
    match c {
        vt100::Color::Default => None,
        vt100::Color::Idx(i) => Some(match i {
            0 => Color::Black,
            1 => Color::Red,
            2 => Color::Green,
            3 => Color::Yellow,
            4 => Color::Blue,
            5 => Color::Magenta,
            6 => Color::Cyan,
            7 => Color::Gray,
            8 => Color::DarkGray,
            9 => Color::LightRed,
            10 => Color::LightGreen,
            11 => Color::LightYellow,
            12 => Color::LightBlue,
            13 => Color::LightMagenta,
            14 => Color::LightCyan,
            15 => Color::White,
            n => Color::Indexed(n),
        }),
        vt100::Color::Rgb(r, g, b) => Some(Color::Rgb(r, g, b)),
    }
}

/// The style of a cell. Default colours stay unset, so the caller's base
/// style shows through instead of a reset.
fn cell_style(cell: &vt100::Cell, mono: bool) -> Style {
    let mut s = Style::default();
    if !mono {
        if let Some(fg) = color(cell.fgcolor()) {
            s = s.fg(fg);
        }
        if let Some(bg) = color(cell.bgcolor()) {
            s = s.bg(bg);
        }
    }
    let mods = [
        (cell.bold(), Modifier::BOLD),
        (cell.dim(), Modifier::DIM),
        (cell.italic(), Modifier::ITALIC),
        (cell.underline(), Modifier::UNDERLINED),
        (cell.inverse(), Modifier::REVERSED),
    ];
    for (on, m) in mods {
        if on {
            s = s.add_modifier(m);
        }
    }
    s
}

#[cfg(test)]
mod tests;
