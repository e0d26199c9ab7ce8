//! Fitting styled lines into a width: word wrapping (falling back to hard
//! breaks inside long words), character wrapping for code, and truncation with
//! an ellipsis. Widths are display columns (wide CJK glyphs count two); a glyph
//! wider than the whole width is replaced so no line ever exceeds its width.

use unicode_segmentation::UnicodeSegmentation;
use unicode_width::UnicodeWidthStr;

use super::line::{Line, Span};

/// Split one span into (grapheme, width) pieces.
/// Printable ASCII (the common case) is a byte a grapheme a column.
fn graphemes(s: &str) -> impl Iterator<Item = (&str, usize)> {
    let ascii = super::sanitize::printable_ascii(s);
    let bytes = ascii.then(|| (0..s.len()).map(move |i| (&s[i..i + 1], 1)));
    let unicode = (!ascii).then(|| s.graphemes(true).map(|g| (g, g.width())));
    bytes
        .into_iter()
        .flatten()
        .chain(unicode.into_iter().flatten())
}

/// Hard-wrap a line at exactly `width` columns (code, terminal output).
pub fn chars(line: &Line, width: usize) -> Vec<Line> {
    let mut out = Vec::new();
    chars_into(line, width, &mut |l| out.push(l));
    out
}

/// [`chars`], each row handed to `f` as it is made (a line of megabytes
/// is never held as rows).
pub fn chars_into(line: &Line, width: usize, f: &mut dyn FnMut(Line)) {
    if line.width() <= width.max(1) {
        return f(line.clone());
    }
    let mut wrap = CharWrap::new(width);
    for span in &line.spans {
        wrap.span(span);
        wrap.rows.drain(..).for_each(&mut *f);
    }
    wrap.finish().into_iter().for_each(f);
}

/// How many rows [`chars`] makes of `text` at `width`, when that is quick
/// to tell: text of printable ASCII (one column a byte). `None` otherwise.
pub fn chars_rows_ascii(text: &str, width: usize) -> Option<usize> {
    let width = width.max(1);
    text.bytes()
        .all(|b| (0x20..0x7f).contains(&b))
        .then(|| text.len().div_ceil(width).max(1))
}

/// The hard wrap of [`chars`] fed span by span: finished rows collect in
/// `rows` (drain them as they come).
pub struct CharWrap {
    width: usize,
    cur: Line,
    col: usize,
    any: bool,
    pub rows: Vec<Line>,
}

impl CharWrap {
    pub fn new(width: usize) -> CharWrap {
        CharWrap {
            width: width.max(1),
            cur: Line::new(),
            col: 0,
            any: false,
            rows: Vec::new(),
        }
    }

    /// The next span of the line.
    pub fn span(&mut self, span: &Span) {
        let width = self.width;
        let mut buf = String::new();
        for (g, w) in graphemes(&span.text) {
            let (g, w) = if w > width { ("?", 1) } else { (g, w) };
            if self.col + w > width {
                if !buf.is_empty() {
                    self.cur.spans.push(span.restyled(std::mem::take(&mut buf)));
                }
                self.rows.push(std::mem::take(&mut self.cur));
                self.cur.cont = true;
                self.any = true;
                self.col = 0;
            }
            buf.push_str(g);
            self.col += w;
        }
        if !buf.is_empty() {
            self.cur.spans.push(span.restyled(buf));
        }
    }

    /// The rows not drained yet, and the last one.
    pub fn finish(mut self) -> Vec<Line> {
        if !self.cur.spans.is_empty() || !self.any {
            self.rows.push(self.cur);
        }
        self.rows
    }
}

/// Word-wrap a line to `width` columns. Words longer than the width are broken.
/// Leading spaces of continuation rows are dropped. A word is a run of
/// non-whitespace, even across spans, so punctuation stays with the styled
/// word it follows (`**bold**.`, `` `code`, ``).
pub fn words(line: &Line, width: usize) -> Vec<Line> {
    let mut out = Vec::new();
    words_into(line, width, &mut |l| out.push(l));
    out
}

/// [`words`], each row handed to `f` as it is made.
pub fn words_into(line: &Line, width: usize, f: &mut dyn FnMut(Line)) {
    let width = width.max(1);
    if line.width() <= width {
        return f(line.clone());
    }
    // Tokenize into words and whitespace runs; a token is a list of
    // (span index, text) pieces.
    struct Token<'a> {
        pieces: Vec<(usize, &'a str)>,
        ws: bool,
        width: usize,
    }
    let mut tokens: Vec<Token<'_>> = Vec::new();
    for (i, span) in line.spans.iter().enumerate() {
        let mut rest = span.text.as_str();
        while let Some(c) = rest.chars().next() {
            let ws = c.is_whitespace();
            let end = rest
                .find(|c: char| c.is_whitespace() != ws)
                .unwrap_or(rest.len());
            let (piece, tail) = rest.split_at(end);
            rest = tail;
            match tokens.last_mut() {
                Some(t) if t.ws == ws => {
                    t.pieces.push((i, piece));
                    t.width += piece.width();
                }
                _ => tokens.push(Token {
                    pieces: vec![(i, piece)],
                    ws,
                    width: piece.width(),
                }),
            }
        }
    }
    let mut out = Held {
        row: None,
        width,
        f,
    };
    let mut cur = Line::new();
    let mut col = 0usize;
    let push = |cur: &mut Line, i: usize, text: &str| {
        let span = &line.spans[i];
        if let Some(last) = cur.spans.last_mut()
            && last.style == span.style
            && last.link == span.link
        {
            last.text.push_str(text);
            return;
        }
        cur.spans.push(span.restyled(text.to_string()));
    };
    for tok in tokens {
        let w = tok.width;
        if col + w <= width {
            if !(tok.ws && col == 0 && out.row.is_some()) {
                for (i, piece) in &tok.pieces {
                    push(&mut cur, *i, piece);
                }
                col += w;
            }
            continue;
        }
        if tok.ws {
            // Break here; drop the whitespace.
            out.row(std::mem::take(&mut cur));
            col = 0;
            continue;
        }
        if w <= width {
            if col > 0 {
                out.row(std::mem::take(&mut cur));
            }
            for (i, piece) in &tok.pieces {
                push(&mut cur, *i, piece);
            }
            col = w;
            continue;
        }
        // A word longer than the width: break it by graphemes.
        for (i, piece) in &tok.pieces {
            for (g, gw) in graphemes(piece) {
                let (g, gw) = if gw > width { ("?", 1) } else { (g, gw) };
                if col + gw > width {
                    out.row(std::mem::take(&mut cur));
                    col = 0;
                }
                push(&mut cur, *i, g);
                col += gw;
            }
        }
    }
    if !cur.spans.is_empty() || out.row.is_none() {
        out.row(cur);
    }
    out.finish();
}

/// Rows of [`words_into`] on their way out: a finished row waits for the
/// next, because every row but the last loses its trailing blanks (and
/// every row is fitted).
struct Held<'f> {
    row: Option<Line>,
    width: usize,
    f: &'f mut dyn FnMut(Line),
}

impl Held<'_> {
    fn row(&mut self, mut row: Line) {
        row.cont = self.row.is_some();
        if let Some(mut prev) = self.row.replace(row) {
            prev.trim_end();
            (self.f)(fit(prev, self.width));
        }
    }

    fn finish(self) {
        if let Some(last) = self.row {
            (self.f)(fit(last, self.width));
        }
    }
}


/// Ensure a line is at most `width` columns, cutting without a marker.
pub fn fit(line: Line, width: usize) -> Line {
    if line.width() <= width {
        return line;
    }
    let mut out = Line::new();
    let mut col = 0;
    for span in line.spans {
        let mut buf = String::new();
        for (g, w) in graphemes(&span.text) {
            if col + w > width {
                break;
            }
            buf.push_str(g);
            col += w;
        }
        if !buf.is_empty() {
            out.spans.push(Span { text: buf.into(), ..span });
        }
        if col >= width {
            break;
        }
    }
    out.cont = line.cont;
    out
}

/// Truncate a line to `width` columns, ending with `…` when cut.
pub fn truncate(line: &Line, width: usize) -> Line {
    if line.width() <= width {
        return line.clone();
    }
    if width == 0 {
        return Line::new();
    }
    let mut out = fit(line.clone(), width - 1);
    let style = out.spans.last().map(|s| s.style).unwrap_or_default();
    out.spans.push(Span::new("…", style));
    out
}

/// Truncate a plain string to `width` columns with `…`.
pub fn truncate_str(s: &str, width: usize) -> String {
    if s.width() <= width {
        return s.to_string();
    }
    if width == 0 {
        return String::new();
    }
    let mut out = String::new();
    let mut col = 0;
    for (g, w) in graphemes(s) {
        if col + w > width - 1 {
            break;
        }
        out.push_str(g);
        col += w;
    }
    out.push('…');
    out
}

/// Wrap `line` with a gutter: the first row gets `first`, continuation rows get
/// `cont` (both must have the same width). Content is hard-wrapped (`code`) or
/// word-wrapped.
pub fn with_gutter(
    line: Line,
    width: usize,
    first: &[Span],
    cont: &[Span],
    code: bool,
) -> Vec<Line> {
    let gw: usize = first.iter().map(Span::width).sum();
    if width <= gw {
        return vec![fit(line.prefixed(first), width)];
    }
    let inner = width - gw;
    // One row (most lines): the line itself, not a copy.
    if line.width() <= inner {
        return vec![line.prefixed(first)];
    }
    let rows = if code {
        chars(&line, inner)
    } else {
        words(&line, inner)
    };
    rows.into_iter()
        .enumerate()
        .map(|(i, l)| l.prefixed(if i == 0 { first } else { cont }))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::style::{Color, Style};

    fn texts(lines: &[Line]) -> Vec<String> {
        lines.iter().map(Line::text).collect()
    }

    #[test]
    fn words_wrap_at_spaces() {
        let l = Line::plain("the quick brown fox jumps");
        assert_eq!(
            texts(&words(&l, 10)),
            vec!["the quick", "brown fox", "jumps"]
        );
    }

    #[test]
    fn long_words_break() {
        let l = Line::plain("abcdefghijkl");
        assert_eq!(texts(&words(&l, 5)), vec!["abcde", "fghij", "kl"]);
    }

    #[test]
    fn wide_glyphs_respect_width() {
        let l = Line::plain("日本語のテキスト");
        for row in chars(&l, 5) {
            assert!(row.width() <= 5);
        }
        assert!(chars(&l, 1).iter().all(|r| r.width() <= 1));
    }

    #[test]
    fn styles_survive_wrapping() {
        let red = Style::default().fg(Color::Red);
        let l = Line::from_spans(vec![Span::plain("aaaa "), Span::new("bbbb", red)]);
        let rows = words(&l, 4);
        assert_eq!(rows[1].spans[0].style, red);
    }

    #[test]
    fn punctuation_stays_with_a_styled_word() {
        let red = Style::default().fg(Color::Red);
        let l = Line::from_spans(vec![
            Span::plain("one two "),
            Span::new("three", red),
            Span::plain(". four"),
        ]);
        assert_eq!(texts(&words(&l, 12)), vec!["one two", "three. four"]);
        assert_eq!(
            texts(&words(&Line::plain("see (ab)"), 6)),
            vec!["see", "(ab)"]
        );
    }

    #[test]
    fn truncate_adds_ellipsis() {
        assert_eq!(truncate(&Line::plain("abcdef"), 4).text(), "abc…");
        assert_eq!(truncate_str("abcdef", 6), "abcdef");
        assert_eq!(truncate_str("abcdef", 1), "…");
    }

    #[test]
    fn gutter_on_every_row() {
        let rows = with_gutter(
            Line::plain("abcdefgh"),
            6,
            &[Span::plain("1 ")],
            &[Span::plain("↪ ")],
            true,
        );
        assert_eq!(texts(&rows), vec!["1 abcd", "↪ efgh"]);
        // A line that fits is one row, words or code alike.
        for code in [true, false] {
            let rows = with_gutter(Line::plain("abcd"), 6, &[Span::plain("1 ")], &[], code);
            assert_eq!(texts(&rows), vec!["1 abcd"]);
        }
    }
}
