//! The common case of terminal output without the emulator: printable
//! ASCII, tabs, line feeds and SGR colours — a test runner's, a compiler's
//! output. Such output cannot move the cursor back, so each line is laid
//! out where it is read, about ten times faster than through vt100, with
//! the very same result (a test holds random outputs of this kind to it).
//!
//! [`check`] says whether an output qualifies (anything else — a carriage
//! return, a cursor move, an OSC string, UTF-8, a line near the emulated
//! screen's width — goes through the emulator); [`lines`] lays it out.

use ratatui::style::{Color, Modifier, Style};

use super::MAX_COLS;
use crate::text::line::{Line, Span};

/// Tab stops of the emulated terminal (as in vt100).
const TAB_STOP: usize = 8;
/// Parameters an SGR sequence may have here.
const MAX_PARAMS: usize = 16;

/// True when `output` holds nothing but what this module lays out exactly
/// as the emulator does.
pub fn check(output: &str) -> bool {
    let b = output.as_bytes();
    let mut i = 0;
    let mut col = 0usize;
    while i < b.len() {
        match b[i] {
            0x20..=0x7e => col += 1,
            b'\t' => col = (col / TAB_STOP + 1) * TAB_STOP,
            b'\n' => col = 0,
            b'\r' if b.get(i + 1) == Some(&b'\n') => {}
            0x1b => match sgr_end(b, i) {
                Some(end) => {
                    i = end;
                    continue;
                }
                None => return false,
            },
            _ => return false,
        }
        // Far from the screen's edge: no wrap, no tab stopped by the edge.
        if col + TAB_STOP >= MAX_COLS {
            return false;
        }
        i += 1;
    }
    true
}

/// Where the SGR sequence at `b[i]` (an ESC) ends, when it is one this
/// module reads: `ESC [`, at most [`MAX_PARAMS`] parameters of digits
/// (each under 65536) separated by `;`, then `m`.
fn sgr_end(b: &[u8], i: usize) -> Option<usize> {
    if b.get(i + 1) != Some(&b'[') {
        return None;
    }
    let mut j = i + 2;
    let (mut params, mut digits) = (1usize, 0usize);
    loop {
        match *b.get(j)? {
            b'0'..=b'9' => {
                digits += 1;
                if digits > 4 {
                    return None;
                }
            }
            b';' => {
                params += 1;
                digits = 0;
                if params > MAX_PARAMS {
                    return None;
                }
            }
            b'm' => return Some(j + 1),
            _ => return None,
        }
        j += 1;
    }
}

/// The attributes of a cell, as vt100 keeps them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Attrs {
    fg: Option<u32>,
    bg: Option<u32>,
    bold: bool,
    dim: bool,
    italic: bool,
    underline: bool,
    inverse: bool,
}

/// A colour: a palette index, or `0x0100_0000 | rgb`.
const RGB: u32 = 0x0100_0000;

impl Attrs {
    /// Apply one SGR sequence's parameters the way vt100 does (a value
    /// too big for a colour ends the sequence; unknown codes are skipped).
    fn apply(&mut self, params: &[u16]) {
        if params.is_empty() {
            *self = Attrs::default();
            return;
        }
        let mut it = params.iter().copied();
        let u8_of = |n: u16| u8::try_from(n).ok().map(u32::from);
        while let Some(p) = it.next() {
            match p {
                0 => *self = Attrs::default(),
                1 => (self.bold, self.dim) = (true, false),
                2 => (self.bold, self.dim) = (false, true),
                3 => self.italic = true,
                4 => self.underline = true,
                7 => self.inverse = true,
                22 => (self.bold, self.dim) = (false, false),
                23 => self.italic = false,
                24 => self.underline = false,
                27 => self.inverse = false,
                30..=37 => self.fg = Some(u32::from(p - 30)),
                39 => self.fg = None,
                40..=47 => self.bg = Some(u32::from(p - 40)),
                49 => self.bg = None,
                90..=97 => self.fg = Some(u32::from(p - 82)),
                100..=107 => self.bg = Some(u32::from(p - 92)),
                38 | 48 => {
                    let colour = match it.next() {
                        Some(2) => {
                            let mut rgb = 0u32;
                            for _ in 0..3 {
                                let Some(c) = it.next().and_then(u8_of) else {
                                    return;
                                };
                                rgb = rgb << 8 | c;
                            }
                            RGB | rgb
                        }
                        Some(5) => match it.next().and_then(u8_of) {
                            Some(i) => i,
                            None => return,
                        },
                        // Unhandled: the rest of the sequence is dropped.
                        _ => return,
                    };
                    if p == 38 {
                        self.fg = Some(colour);
                    } else {
                        self.bg = Some(colour);
                    }
                }
                _ => {}
            }
        }
    }

    /// As `super::cell_style`.
    fn style(&self, mono: bool) -> Style {
        let mut s = Style::default();
        if !mono {
            if let Some(c) = self.fg {
                s = s.fg(colour(c));
            }
            if let Some(c) = self.bg {
                s = s.bg(colour(c));
            }
        }
        for (on, m) in [
            (self.bold, Modifier::BOLD),
            (self.dim, Modifier::DIM),
            (self.italic, Modifier::ITALIC),
            (self.underline, Modifier::UNDERLINED),
            (self.inverse, Modifier::REVERSED),
        ] {
            if on {
                s = s.add_modifier(m);
            }
        }
        s
    }

    /// As `super::has_ink` for a blank cell with these attributes.
    fn inked_blank(&self, mono: bool) -> bool {
        self.inverse || self.underline || (!mono && self.bg.is_some())
    }
}

fn colour(c: u32) -> Color {
    if c & RGB != 0 {
        return Color::Rgb((c >> 16) as u8, (c >> 8) as u8, c as u8);
    }
    super::color(vt100::Color::Idx(c as u8)).unwrap_or(Color::Reset)
}

/// A run of a line's text in one set of attributes: `text[.. end]` from
/// the previous run's end.
#[derive(Clone, Copy)]
struct Run {
    end: usize,
    attrs: Attrs,
}

/// The line being read: its text and runs.
#[derive(Default)]
struct Cells {
    text: String,
    runs: Vec<Run>,
}

impl Cells {
    fn push(&mut self, s: &str, attrs: Attrs) {
        self.text.push_str(s);
        let end = self.text.len();
        match self.runs.last_mut() {
            Some(r) if r.attrs == attrs => r.end = end,
            _ => self.runs.push(Run { end, attrs }),
        }
    }

    fn clear(&mut self) {
        self.text.clear();
        self.runs.clear();
    }
}

/// Lay out an output that passed [`check`]: each logical line to `f`.
pub fn lines(output: &str, mono: bool, f: &mut dyn FnMut(Line)) {
    let b = output.as_bytes();
    let mut attrs = Attrs::default();
    let mut cells = Cells::default();
    let mut params: Vec<u16> = Vec::with_capacity(MAX_PARAMS);
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\n' => {
                f(line_of(&cells, mono));
                cells.clear();
            }
            b'\t' => {
                let col = cells.text.len();
                let to = (col / TAB_STOP + 1) * TAB_STOP;
                // The cursor moves; the cells it passes stay blank.
                cells.push(&"        "[..to - col], Attrs::default());
            }
            b'\r' => {}
            0x1b => {
                let end = sgr_end(b, i).unwrap_or(b.len());
                params.clear();
                let body = &output[i + 2..end - 1];
                if !body.is_empty() {
                    params.extend(body.split(';').map(|p| p.parse::<u16>().unwrap_or(0)));
                }
                attrs.apply(&params);
                i = end;
                continue;
            }
            _ => {
                // Printable text up to the next control byte, at once.
                let end = b[i..]
                    .iter()
                    .position(|&c| !(0x20..0x7f).contains(&c))
                    .map_or(b.len(), |k| i + k);
                cells.push(&output[i..end], attrs);
                i = end;
                continue;
            }
        }
        i += 1;
    }
    if !cells.text.is_empty() {
        f(line_of(&cells, mono));
    }
}

/// One line's cells as spans: up to its last cell with ink, runs of one
/// style (as the emulator's `row_line`).
fn line_of(cells: &Cells, mono: bool) -> Line {
    // Where the ink ends: a blank cell has ink only in some attributes.
    let mut cut = 0;
    let start_of = |k: usize| if k == 0 { 0 } else { cells.runs[k - 1].end };
    for k in (0..cells.runs.len()).rev() {
        let r = cells.runs[k];
        let from = start_of(k);
        if r.attrs.inked_blank(mono) {
            cut = r.end;
            break;
        }
        if let Some(p) = cells.text[from..r.end].rfind(|c| c != ' ') {
            cut = from + p + 1;
            break;
        }
    }
    let mut line = Line::new();
    let mut buf = String::new();
    let mut cur = Style::default();
    let mut from = 0;
    for r in &cells.runs {
        if from >= cut {
            break;
        }
        let style = r.attrs.style(mono);
        if style != cur && !buf.is_empty() {
            line.push(Span::new(std::mem::take(&mut buf), cur));
        }
        cur = style;
        buf.push_str(&cells.text[from..r.end.min(cut)]);
        from = r.end;
    }
    if !buf.is_empty() {
        line.push(Span::new(buf, cur));
    }
    line
}
