//! The markdown writer: pulldown-cmark events in, styled rows out (or,
//! on a first pass over a text with tables, only each table's natural
//! column widths). Owns the block state — containers, lists, quotes, code,
//! links, images, tables — and the wrapping of each paragraph.

use pulldown_cmark::{Event, HeadingLevel};
use ratatui::style::Style;

use super::{CODE_INDENT, CODE_WINDOW, measure_tables, table};
use crate::text::highlight::{Checkpoint, highlight_lines_from, windows};
use crate::text::rows::Rows;
use crate::text::{self, Line, Span, sanitize, wrap};
use crate::theme::{Role, Theme};

/// Where a writer's work goes: rows out, or (the first pass over a
/// document with tables) only the natural widths of each table's columns.
pub(super) enum Sink<'o, 'r> {
    Rows(&'o mut Rows<'r>),
    Measure(Vec<Vec<usize>>),
}

/// A container a line sits in: its prefix on the first and later rows.
pub(super) enum Container {
    Quote,
    Item {
        marker: Vec<Span>,
        indent: usize,
        /// The marker has not been drawn yet.
        fresh: bool,
    },
}

pub(super) struct Link {
    pub(super) url: String,
    /// The link text as shown, to compare with the URL.
    pub(super) text: String,
}

pub(super) struct Code {
    pub(super) lang: Option<String>,
    pub(super) text: String,
}

pub(super) struct Image {
    pub(super) url: String,
    pub(super) alt: String,
}

/// The table being read: measured (first pass) or laid out row by row.
pub(super) enum Tabling {
    Measure(table::Measure),
    Layout(table::Table),
}

pub(super) struct Writer<'t, 'o, 'r> {
    pub(super) width: usize,
    pub(super) theme: &'t Theme,
    pub(super) base: Style,
    pub(super) sink: Sink<'o, 'r>,
    /// The whole source (for the measuring pass a table asks for).
    pub(super) source: &'t str,
    /// Rows emitted so far (blank ones held back included once let out).
    pub(super) emitted: usize,
    /// Blank rows held back: let out before the next row with ink, dropped
    /// at the end (no trailing blank rows).
    pub(super) blanks: Vec<Line>,
    /// Column widths of every table of the document, by order, once a
    /// table asked for them.
    pub(super) widths: Option<std::vec::IntoIter<Vec<usize>>>,
    pub(super) containers: Vec<Container>,
    /// One entry per open list: the next number of an ordered list.
    pub(super) lists: Vec<Option<u64>>,
    /// Logical lines of the block being built (split at hard breaks).
    pub(super) inline: Vec<Line>,
    /// Inline style patches (emphasis, strong, …), innermost last.
    pub(super) styles: Vec<Style>,
    pub(super) link: Option<Link>,
    pub(super) code: Option<Code>,
    pub(super) image: Option<Image>,
    pub(super) table: Option<Tabling>,
    pub(super) heading: Option<HeadingLevel>,
    /// A blank line goes before the next block.
    pub(super) need_blank: bool,
}

impl<'t, 'o, 'r> Writer<'t, 'o, 'r> {
    pub(super) fn new(width: usize, theme: &'t Theme, base: Style, sink: Sink<'o, 'r>) -> Self {
        Writer {
            width,
            theme,
            base,
            sink,
            source: "",
            emitted: 0,
            blanks: Vec::new(),
            widths: None,
            containers: Vec::new(),
            lists: Vec::new(),
            inline: Vec::new(),
            styles: Vec::new(),
            link: None,
            code: None,
            image: None,
            table: None,
            heading: None,
            need_blank: false,
        }
    }

    pub(super) fn role(&self, role: Role) -> Style {
        self.theme.style(role)
    }

    pub(super) fn in_quote(&self) -> bool {
        self.containers
            .iter()
            .any(|c| matches!(c, Container::Quote))
    }

    /// The style of inline text at this point.
    pub(super) fn style(&self) -> Style {
        let mut st = self.base;
        if self.in_quote() {
            st = st.patch(self.role(Role::Quote));
        }
        if let Some(level) = self.heading {
            st = st.patch(self.role(Role::Heading));
            // The top level stands out from the rest: underlined.
            if level == HeadingLevel::H1 {
                st = st.add_modifier(ratatui::style::Modifier::UNDERLINED);
            }
        }
        for s in &self.styles {
            st = st.patch(*s);
        }
        if self.link.is_some() {
            st = st.patch(self.role(Role::Link));
        }
        st
    }

    pub(super) fn prefix_width(&self) -> usize {
        self.containers
            .iter()
            .map(|c| match c {
                Container::Quote => 2,
                Container::Item { indent, .. } => *indent,
            })
            .sum()
    }

    /// Columns left for content, and whether the container prefix fits at all
    /// (at tiny widths content wins over indentation).
    pub(super) fn avail(&self) -> (usize, bool) {
        let pw = self.prefix_width();
        if pw < self.width {
            (self.width - pw, true)
        } else {
            (self.width, false)
        }
    }

    /// The prefix of the next row. `consume` draws fresh list markers (and
    /// marks them drawn); otherwise they are blank indents.
    pub(super) fn prefix(&mut self, consume: bool) -> Vec<Span> {
        let quote = self.theme.style(Role::Quote);
        let mut spans = Vec::new();
        for c in &mut self.containers {
            match c {
                Container::Quote => spans.push(Span::new("│ ", quote)),
                Container::Item {
                    marker,
                    indent,
                    fresh,
                } => {
                    if *fresh && consume {
                        spans.extend(marker.iter().cloned());
                        *fresh = false;
                    } else {
                        spans.push(Span::plain(" ".repeat(*indent)));
                    }
                }
            }
        }
        spans
    }

    /// Append content rows (each at most `avail` wide) under the current containers.
    pub(super) fn emit(&mut self, rows: Vec<Line>) {
        for row in rows {
            self.emit_row(row);
        }
    }

    /// One content row under the current containers.
    pub(super) fn emit_row(&mut self, row: Line) {
        if matches!(self.sink, Sink::Measure(_)) {
            return;
        }
        let (_, use_prefix) = self.avail();
        let line = if use_prefix {
            let p = self.prefix(true);
            row.prefixed(&p)
        } else {
            row
        };
        self.out(line);
    }

    /// A finished row: fitted to the width and let out (a blank one is
    /// held until a row with ink follows).
    pub(super) fn out(&mut self, line: Line) {
        let Sink::Rows(out) = &mut self.sink else {
            return;
        };
        self.emitted += 1;
        if line.width() == 0 {
            self.blanks.push(line);
            return;
        }
        for b in self.blanks.drain(..) {
            out.push(b);
        }
        out.push(wrap::fit(line, self.width));
    }

    /// Whether rows made now can be shown (see [`Rows::showing`]).
    pub(super) fn showing(&self) -> bool {
        match &self.sink {
            Sink::Rows(out) => out.showing(),
            Sink::Measure(_) => false,
        }
    }

    pub(super) fn blank_if_needed(&mut self) {
        if self.need_blank && self.emitted > 0 {
            let (_, use_prefix) = self.avail();
            let mut line = if use_prefix {
                Line::from_spans(self.prefix(false))
            } else {
                Line::new()
            };
            line.trim_end();
            self.out(line);
        }
        self.need_blank = false;
    }

    /// Measuring, and not in a table: inline text is not needed.
    pub(super) fn idle(&self) -> bool {
        matches!(self.sink, Sink::Measure(_)) && self.table.is_none()
    }

    pub(super) fn push_span(&mut self, span: Span) {
        if self.idle() {
            return;
        }
        if self.inline.is_empty() {
            self.inline.push(Line::new());
        }
        if let Some(last) = self.inline.last_mut() {
            last.push(span);
        }
    }

    /// Add inline text in the current style (and link).
    pub(super) fn text(&mut self, raw: &str) {
        if self.idle() {
            return;
        }
        let style = self.style();
        for (i, part) in raw.split('\n').enumerate() {
            if i > 0 {
                self.inline.push(Line::new());
            }
            let clean = sanitize::line(part).into_owned();
            if let Some(link) = &mut self.link {
                link.text.push_str(&clean);
                let url = link.url.clone();
                self.push_span(Span::linked(clean, style, &url));
            } else {
                self.push_span(Span::new(clean, style));
            }
        }
    }

    /// Word-wrap the pending inline text and emit it.
    pub(super) fn flush(&mut self) {
        let mut logical = std::mem::take(&mut self.inline);
        while logical.last().is_some_and(|l| l.width() == 0) {
            logical.pop();
        }
        if logical.is_empty() || matches!(self.sink, Sink::Measure(_)) {
            return;
        }
        let (avail, _) = self.avail();
        // Row by row: a paragraph may be megabytes.
        for l in &logical {
            wrap::words_into(l, avail, &mut |r| self.emit_row(r));
        }
    }

    /// Start a block: flush what is pending and separate it from the last block.
    pub(super) fn block_start(&mut self) {
        self.flush();
        self.blank_if_needed();
    }

    pub(super) fn event(&mut self, event: Event<'_>) {
        match event {
            Event::Start(tag) => self.start(tag),
            Event::End(tag) => self.end(tag),
            Event::Text(t) => {
                if let Some(code) = &mut self.code {
                    code.text.push_str(&t);
                } else if let Some(img) = &mut self.image {
                    img.alt.push_str(&t);
                } else {
                    self.text(&t);
                }
            }
            Event::Code(t) => {
                let style = self.style().patch(self.role(Role::InlineCode));
                let clean = sanitize::inline(&t);
                let shown = if self.theme.monochrome {
                    format!("`{clean}`")
                } else {
                    clean
                };
                match &mut self.link {
                    Some(link) => {
                        link.text.push_str(&shown);
                        let url = link.url.clone();
                        self.push_span(Span::linked(shown, style, &url));
                    }
                    None => self.push_span(Span::new(shown, style)),
                }
            }
            Event::InlineMath(t)
            | Event::DisplayMath(t)
            | Event::InlineHtml(t)
            | Event::Html(t) => {
                if let Some(img) = &mut self.image {
                    img.alt.push_str(&t);
                } else {
                    self.text(&t);
                }
            }
            Event::FootnoteReference(t) => self.text(&format!("[^{t}]")),
            Event::SoftBreak => {
                if let Some(img) = &mut self.image {
                    img.alt.push(' ');
                } else {
                    self.text(" ");
                }
            }
            Event::HardBreak => self.inline.push(Line::new()),
            Event::Rule => {
                self.block_start();
                let (avail, _) = self.avail();
                let rule = Line::styled("─".repeat(if text::unbounded(avail) { 80 } else { avail }), self.role(Role::Border));
                self.emit(vec![rule]);
                self.need_blank = true;
            }
            Event::TaskListMarker(done) => self.task_marker(done),
        }
    }

    pub(super) fn task_marker(&mut self, done: bool) {
        let (text, role) = if done {
            ("[x] ", Role::TodoDone)
        } else {
            ("[ ] ", Role::TodoPending)
        };
        let style = self.role(role);
        // Replace the bullet of a fresh item; otherwise mark inline.
        if self.inline.iter().all(|l| l.width() == 0)
            && let Some(Container::Item {
                marker,
                indent,
                fresh: true,
            }) = self.containers.last_mut()
        {
            *marker = vec![Span::new(text, style)];
            *indent = 4;
            return;
        }
        self.push_span(Span::new(text, style));
    }

    /// The row of the table just read, laid out and let out (a header row
    /// with the rule under it).
    pub(super) fn table_row(&mut self, head: bool) {
        let Some(Tabling::Layout(t)) = &mut self.table else {
            return;
        };
        let theme = self.theme;
        let row = t.row_line(head, theme);
        let rule = if head { t.rule(theme) } else { None };
        for line in row.into_iter().chain(rule) {
            self.emit_row(line);
        }
    }

    /// The natural column widths of the next table (measured before the
    /// layout began, or now).
    pub(super) fn next_table_widths(&mut self) -> Vec<usize> {
        let (source, width, theme, base) = (self.source, self.width, self.theme, self.base);
        self.widths
            .get_or_insert_with(|| measure_tables(source, width, theme, base).into_iter())
            .next()
            .unwrap_or_default()
    }

    /// Highlight a code block by its language and hard-wrap it, row by row;
    /// rows a preview will not show are laid out plain.
    pub(super) fn code_block(&mut self, code: Code) {
        if matches!(self.sink, Sink::Measure(_)) {
            return;
        }
        let base = self.base.patch(self.role(Role::InlineCode));
        let text = code.text.strip_suffix('\n').unwrap_or(&code.text);
        let (avail, _) = self.avail();
        let indent = if avail > CODE_INDENT.len() * 4 {
            CODE_INDENT
        } else {
            ""
        };
        let inner = avail - indent.len();
        let pad = [Span::plain(indent)];
        // A text ending with a newline has no empty last line.
        let pieces = memchr::memchr_iter(b'\n', text.as_bytes()).count() + 1;
        let last = if text.ends_with('\n') && pieces > 1 {
            pieces - 1
        } else {
            pieces
        };
        let lines: Vec<&str> = text
            .split('\n')
            .take(last)
            .map(|l| l.strip_suffix('\r').unwrap_or(l))
            .collect();
        // A window of lines at a time, each on every core (the same colours
        // as line by line); plain once a preview shows no more.
        let mut at = Checkpoint::default();
        for range in windows(&lines, CODE_WINDOW) {
            let colour = if self.showing() { usize::MAX } else { 0 };
            let coded = highlight_lines_from(
                &lines[range],
                code.lang.as_deref(),
                self.theme,
                base,
                colour,
                &mut at,
            );
            for line in coded {
                for r in wrap::chars(&line, inner) {
                    self.emit_row(if indent.is_empty() {
                        r
                    } else {
                        r.prefixed(&pad)
                    });
                }
            }
        }
    }

    pub(super) fn finish(mut self) {
        if let Some(code) = self.code.take() {
            self.code_block(code);
        }
        self.flush();
        // Blank rows still held back are trailing ones: dropped.
    }
}

