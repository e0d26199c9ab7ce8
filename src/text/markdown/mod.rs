//! Markdown to styled lines, for assistant messages, generic card content and
//! raw results that look like markdown.
//!
//! Owns the block layout of CommonMark plus GitHub tables, strikethrough and
//! task lists: headings (with a `#` level hint), word-wrapped paragraphs,
//! inline styles, links (as [`Span::linked`] so the ANSI writer emits OSC 8,
//! with the URL shown after the text when it differs), nested lists with a
//! hanging indent, block quotes (`│ `), fenced code highlighted by its info
//! string and hard-wrapped, rules and tables fitted to the width.
//!
//! Every piece of source text passes through [`sanitize`]; the only styling is
//! the theme's [`Role`]s. Every returned line is at most `width` columns wide.
//! Nothing here knows a card tag or a tool.
//!
//! Rows go out as they are made ([`render_into`]), so a huge message is
//! never held whole: a table's column widths come from a first pass that
//! only measures its cells ([`table::measure`]), then its rows are laid out
//! one by one; code past what a preview shows is laid out plain.

mod growing;
mod split;
mod table;
mod tags;
mod writer;

pub use growing::render_growing;
use writer::{Code, Container, Image, Link, Sink, Tabling, Writer};

use pulldown_cmark::{Options, Parser};
use ratatui::style::Style;

use crate::text::rows::Rows;
use crate::text::{Line, sanitize, wrap};
use crate::theme::{Role, Theme};

/// Bullets by nesting depth.
const BULLETS: &[&str] = &["•", "◦", "▪", "‣"];
/// Lines of a code block highlighted at a time.
const CODE_WINDOW: usize = 8 * 1024;
/// Indent of fenced and indented code blocks.
const CODE_INDENT: &str = "  ";

/// `text` as it came, in a fenced code block (info `text`) whose fence is
/// longer than any run of backticks in it: markdown that draws the text
/// as it is. The backticks are found by a search, not a walk through
/// every character.
pub fn fenced(text: &str) -> String {
    let (mut longest, mut run, mut next) = (0, 0, usize::MAX);
    for i in memchr::memchr_iter(b'`', text.as_bytes()) {
        run = if i == next { run + 1 } else { 1 };
        next = i + 1;
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest.max(2) + 1);
    format!("{fence}text\n{}\n{fence}", text.trim_end_matches('\n'))
}

#[cfg(any(test, feature = "internals"))]
/// Render markdown `md` into lines at most `width` columns wide, in `base`
/// style (patched by the theme's markdown roles).
pub fn render(md: &str, width: usize, theme: &Theme, base: Style) -> Vec<Line> {
    let mut rows = Rows::all();
    render_into(md, width, theme, base, &mut rows);
    rows.finish(Style::default())
}

/// Texts longer than this are laid out a block at a time (between split
/// points, see [`split`]): a parse holds its text's whole tree, some 25
/// bytes for every byte of a table. (Under test, every text is.)
const CHUNKED_FROM: usize = if cfg!(test) { 1 } else { 64 * 1024 };

/// A block (between split points) longer than this is shown as plain text,
/// with a note saying so: its tree alone would cost 25 times its size.
pub const MAX_BLOCK: usize = 1 << 20;

/// [`render`], each row handed to `out` as it is made; a long text a block
/// at a time.
pub fn render_into(md: &str, width: usize, theme: &Theme, base: Style, out: &mut Rows) {
    let splits = (md.len() >= CHUNKED_FROM)
        .then(|| split::all(md, 0))
        .flatten();
    let Some(splits) = splits else {
        return render_block(md, width, theme, base, out);
    };
    let before = out.len();
    let mut start = 0;
    for end in splits.into_iter().chain([md.len()]) {
        if out.len() > before {
            out.gap();
        }
        render_block(&md[start..end], width, theme, base, out);
        start = end;
    }
    out.cancel_gap();
}

/// One block (or a whole text), in one parse; over [`MAX_BLOCK`] as plain
/// text, but for fenced code (its tree is a node a line; it is laid out
/// line by line anyway).
fn render_block(md: &str, width: usize, theme: &Theme, base: Style, out: &mut Rows) {
    let first_line = md.trim_start_matches(' ').lines().next().unwrap_or("");
    if md.len() > MAX_BLOCK && split::opens_fence(first_line).is_none() {
        return plain_block(md, width.max(1), theme, base, out);
    }
    render_whole(md, width, theme, base, out);
}

/// A block too long to parse, as its text: each line sanitized and
/// word-wrapped, under a note that says why.
fn plain_block(md: &str, width: usize, theme: &Theme, base: Style, out: &mut Rows) {
    let mib = |b: usize| format!("{:.1} MiB", b as f64 / (1 << 20) as f64);
    let note = Line::styled(
        format!(
            "(a markdown block of {}, over {}: shown as plain text)",
            mib(md.len()),
            mib(MAX_BLOCK)
        ),
        theme.style(Role::Muted),
    );
    wrap::words_into(&note, width, &mut |r| out.push(r));
    for l in md.trim_end().split('\n') {
        let line = Line::styled(sanitize::line(l.strip_suffix('\r').unwrap_or(l)), base);
        wrap::words_into(&line, width, &mut |r| out.push(r));
    }
}

/// A text in one parse.
fn render_whole(md: &str, width: usize, theme: &Theme, base: Style, out: &mut Rows) {
    let mut w = Writer::new(width.max(1), theme, base, Sink::Rows(out));
    w.source = md;
    if md.contains('|') {
        // Tables' widths first, while no other parse is held: a parse
        // holds the whole text's tree.
        w.widths = Some(measure_tables(md, w.width, theme, base).into_iter());
    }
    for event in Parser::new_ext(md, options()) {
        w.event(event);
    }
    w.finish();
}

/// Every table's natural column widths, in order: one measuring pass.
fn measure_tables(md: &str, width: usize, theme: &Theme, base: Style) -> Vec<Vec<usize>> {
    let mut m = Writer::new(width, theme, base, Sink::Measure(Vec::new()));
    for event in Parser::new_ext(md, options()) {
        m.event(event);
    }
    match m.sink {
        Sink::Measure(all) => all,
        Sink::Rows(_) => Vec::new(),
    }
}

fn options() -> Options {
    Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS
}

#[cfg(test)]
mod tests;
