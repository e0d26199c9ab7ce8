//! Styled lines: the unit every card renders to. A [`Line`] is a list of
//! [`Span`]s, each with a ratatui [`Style`] and an optional hyperlink target
//! (drawn as OSC 8 by the ANSI writer; only a target
//! [`link_allowed`](super::sanitize::link_allowed) allows is ever set). Text inside spans is already sanitized
//! and contains no control characters; widths are display columns.

use std::sync::Arc;

use compact_str::CompactString;
use ratatui::style::{Color, Modifier, Style};
use unicode_width::UnicodeWidthStr;

use super::sanitize::{link_allowed, printable_ascii};

/// Display width in terminal columns (printable ASCII counted by bytes).
pub fn str_width(s: &str) -> usize {
    if printable_ascii(s) {
        s.len()
    } else {
        s.width()
    }
}

/// A run of text with one style and, optionally, a link target.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Span {
    /// Its text: sanitized, no control characters; up to 24 bytes held
    /// inline.
    pub text: CompactString,
    /// Its style.
    pub style: Style,
    /// Where it links to (an allowed target only), drawn as OSC 8.
    pub link: Option<Arc<str>>,
}

impl Span {
    /// Another text with this span's style and link (without copying this
    /// span's text, which may be megabytes).
    pub fn restyled(&self, text: impl Into<CompactString>) -> Span {
        Span {
            text: text.into(),
            style: self.style,
            link: self.link.clone(),
        }
    }

    /// `text` in `style`, unlinked.
    pub fn new(text: impl Into<CompactString>, style: Style) -> Self {
        Span {
            text: text.into(),
            style,
            link: None,
        }
    }

    /// `text` unstyled.
    pub fn plain(text: impl Into<CompactString>) -> Self {
        Span::new(text, Style::default())
    }

    /// A span linked to `url` when `link_allowed` allows it (`http`,
    /// `https`, `mailto`); any other target leaves the text unlinked.
    pub fn linked(text: impl Into<CompactString>, style: Style, url: &str) -> Self {
        Span {
            text: text.into(),
            style,
            link: link_allowed(url).then(|| Arc::from(url)),
        }
    }

    /// Display width in terminal columns.
    pub fn width(&self) -> usize {
        str_width(&self.text)
    }
}

/// One row of output.
#[derive(Debug, Clone, Eq, Default)]
pub struct Line {
    /// Its spans, left to right.
    pub spans: Vec<Span>,
    /// The row continues the row before it: a long line wrapped. Counts
    /// (`… N more lines`, the pager's `line a/b`) count source lines, so
    /// they skip such rows. Not part of equality: two rows with the same
    /// spans look the same.
    pub cont: bool,
}

impl PartialEq for Line {
    fn eq(&self, other: &Line) -> bool {
        self.spans == other.spans
    }
}

impl Line {
    /// An empty row.
    pub fn new() -> Self {
        Line::default()
    }

    /// A row of `spans`.
    pub fn from_spans(spans: Vec<Span>) -> Self {
        Line { spans, cont: false }
    }

    /// A row of `text` in `style`.
    pub fn styled(text: impl Into<CompactString>, style: Style) -> Self {
        Line::from_spans(vec![Span::new(text, style)])
    }

    /// This row marked as the continuation of the row before it.
    pub fn continued(mut self) -> Self {
        self.cont = true;
        self
    }

    /// A row of `text`, unstyled.
    pub fn plain(text: impl Into<CompactString>) -> Self {
        Line::styled(text, Style::default())
    }

    /// Add `span` at the end (an empty one is dropped).
    pub fn push(&mut self, span: Span) {
        if span.text.is_empty() {
            return;
        }
        self.spans.push(span);
    }

    /// Add `text` in `style` at the end.
    pub fn push_str(&mut self, text: impl Into<CompactString>, style: Style) {
        self.push(Span::new(text, style));
    }

    /// Builder form of [`Line::push_str`].
    pub fn with(mut self, text: impl Into<CompactString>, style: Style) -> Self {
        self.push_str(text, style);
        self
    }

    /// Display width in terminal columns.
    pub fn width(&self) -> usize {
        self.spans.iter().map(Span::width).sum()
    }

    /// The text of the line without styles.
    pub fn text(&self) -> String {
        self.spans.iter().map(|s| s.text.as_str()).collect()
    }

    /// Hold no more than the line has: its spans, and each span's text, in
    /// allocations of their size (a row kept laid out is kept long; what
    /// it grew into while it was made is let go).
    pub fn fit(&mut self) {
        if self.spans.capacity() > self.spans.len() {
            let mut spans = Vec::with_capacity(self.spans.len());
            spans.append(&mut self.spans);
            self.spans = spans;
        }
        for span in &mut self.spans {
            span.text.shrink_to_fit();
        }
    }

    /// Prepend spans (a gutter, an indent) to the line.
    pub fn prefixed(mut self, prefix: &[Span]) -> Self {
        let mut spans = Vec::with_capacity(prefix.len() + self.spans.len());
        spans.extend_from_slice(prefix);
        spans.append(&mut self.spans);
        self.spans = spans;
        self
    }

    /// Apply `style` underneath every span (span styles win where they set a value).
    pub fn patch_under(mut self, style: Style) -> Self {
        for span in &mut self.spans {
            span.style = style.patch(span.style);
        }
        self
    }

    /// Drop trailing whitespace (and the spans left empty by it).
    pub fn trim_end(&mut self) {
        while let Some(last) = self.spans.last_mut() {
            let n = last.text.trim_end().len();
            if n == 0 {
                self.spans.pop();
                continue;
            }
            last.text.truncate(n);
            break;
        }
    }

    /// Pad with spaces in `style` to exactly `width` columns (no-op when
    /// wider, or when `width` is `text::UNBOUNDED`).
    pub fn pad_to(mut self, width: usize, style: Style) -> Self {
        let w = self.width();
        if w < width && !super::unbounded(width) {
            self.spans.push(Span::new(" ".repeat(width - w), style));
        }
        self
    }
}

impl From<&str> for Line {
    fn from(s: &str) -> Self {
        Line::plain(s)
    }
}

/// Convert to a ratatui line for drawing in a buffer (links are dropped here;
/// the headless ANSI writer emits them).
impl From<&Line> for ratatui::text::Line<'static> {
    fn from(line: &Line) -> Self {
        ratatui::text::Line::from(
            line.spans
                .iter()
                .map(|s| ratatui::text::Span::styled(s.text.clone(), s.style))
                .collect::<Vec<_>>(),
        )
    }
}

fn color_name(c: Color) -> String {
    match c {
        Color::Rgb(r, g, b) => format!("#{r:02x}{g:02x}{b:02x}"),
        Color::Indexed(i) => format!("i{i}"),
        other => format!("{other:?}").to_lowercase(),
    }
}

/// A compact, stable description of a style: `fg=#a6e3a1 bg=#1d3326 bold`.
pub fn describe_style(style: Style) -> String {
    let mut parts = Vec::new();
    if let Some(fg) = style.fg {
        parts.push(format!("fg={}", color_name(fg)));
    }
    if let Some(bg) = style.bg {
        parts.push(format!("bg={}", color_name(bg)));
    }
    let m = style.add_modifier;
    for (flag, name) in [
        (Modifier::BOLD, "bold"),
        (Modifier::DIM, "dim"),
        (Modifier::ITALIC, "italic"),
        (Modifier::UNDERLINED, "underline"),
        (Modifier::REVERSED, "reversed"),
        (Modifier::CROSSED_OUT, "crossed"),
    ] {
        if m.contains(flag) {
            parts.push(name.to_string());
        }
    }
    parts.join(" ")
}
