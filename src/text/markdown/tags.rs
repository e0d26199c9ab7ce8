//! The block and inline tags of markdown: what the writer does where one
//! starts and where it ends (containers, lists, tables, code, links,
//! images, styles).

use pulldown_cmark::{CodeBlockKind, Tag, TagEnd};
use ratatui::style::{Modifier, Style};

use super::{BULLETS, Code, Container, Image, Link, Sink, Tabling, Writer, table};
use crate::text::{Line, Span, sanitize};
use crate::theme::Role;

impl Writer<'_, '_, '_> {
    pub(super) fn start(&mut self, tag: Tag<'_>) {
        match tag {
            Tag::Paragraph => self.block_start(),
            // Drawn as a heading (its style), not as the `##` that wrote it.
            Tag::Heading { level, .. } => {
                self.block_start();
                self.heading = Some(level);
            }
            Tag::BlockQuote(_) => {
                self.block_start();
                self.containers.push(Container::Quote);
            }
            Tag::CodeBlock(kind) => {
                self.block_start();
                let lang = match kind {
                    CodeBlockKind::Fenced(info) => info
                        .split(|c: char| c.is_whitespace() || c == ',' || c == '{')
                        .next()
                        .filter(|s| !s.is_empty())
                        .map(str::to_string),
                    CodeBlockKind::Indented => None,
                };
                self.code = Some(Code {
                    lang,
                    text: String::new(),
                });
            }
            Tag::HtmlBlock => self.block_start(),
            Tag::List(start) => {
                if self.lists.is_empty() {
                    self.block_start();
                } else {
                    // A nested list: the item's own text goes first, no gap.
                    self.flush();
                }
                self.lists.push(start);
            }
            Tag::Item => {
                self.flush();
                let depth = self.lists.len().saturating_sub(1);
                let text = match self.lists.last_mut() {
                    Some(Some(n)) => {
                        let s = format!("{n}. ");
                        *n += 1;
                        s
                    }
                    _ => format!("{} ", BULLETS[depth % BULLETS.len()]),
                };
                let indent = unicode_width::UnicodeWidthStr::width(text.as_str());
                let marker = vec![Span::new(text, self.role(Role::ListMarker))];
                self.containers.push(Container::Item {
                    marker,
                    indent,
                    fresh: true,
                });
            }
            Tag::Table(aligns) => {
                self.block_start();
                self.table = Some(match &self.sink {
                    Sink::Measure(_) => Tabling::Measure(table::Measure::new(aligns.len())),
                    Sink::Rows(_) => {
                        let natural = self.next_table_widths();
                        let (avail, _) = self.avail();
                        Tabling::Layout(table::Table::new(aligns, &natural, avail))
                    }
                });
            }
            Tag::TableHead | Tag::TableRow => match &mut self.table {
                Some(Tabling::Measure(m)) => m.start_row(),
                Some(Tabling::Layout(t)) => t.start_row(),
                None => {}
            },
            Tag::TableCell => self.inline.clear(),
            Tag::Emphasis => self.styles.push(self.role(Role::Emphasis)),
            Tag::Strong => self.styles.push(self.role(Role::Strong)),
            Tag::Strikethrough => self
                .styles
                .push(Style::default().add_modifier(Modifier::CROSSED_OUT)),
            Tag::Superscript | Tag::Subscript => self.styles.push(Style::default()),
            Tag::Link { dest_url, .. } => {
                let url = sanitize::inline(&dest_url);
                self.link = Some(Link {
                    url,
                    text: String::new(),
                });
            }
            Tag::Image { dest_url, .. } => {
                self.image = Some(Image {
                    url: sanitize::inline(&dest_url),
                    alt: String::new(),
                });
            }
            Tag::FootnoteDefinition(label) => {
                self.block_start();
                self.text(&format!("[^{label}]: "));
            }
            Tag::DefinitionList | Tag::DefinitionListTitle | Tag::DefinitionListDefinition => {
                self.block_start()
            }
            Tag::MetadataBlock(_) => {
                self.block_start();
                self.code = Some(Code {
                    lang: Some("yaml".into()),
                    text: String::new(),
                });
            }
        }
    }

    pub(super) fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Paragraph
            | TagEnd::HtmlBlock
            | TagEnd::FootnoteDefinition
            | TagEnd::DefinitionListTitle
            | TagEnd::DefinitionListDefinition
            | TagEnd::DefinitionList => {
                self.flush();
                self.need_blank = true;
            }
            TagEnd::Heading(_) => {
                self.flush();
                self.heading = None;
                self.need_blank = true;
            }
            TagEnd::BlockQuote(_) => {
                self.flush();
                self.containers.pop();
                self.need_blank = true;
            }
            TagEnd::CodeBlock | TagEnd::MetadataBlock(_) => {
                if let Some(code) = self.code.take() {
                    self.code_block(code);
                }
                self.need_blank = true;
            }
            TagEnd::List(_) => {
                self.flush();
                self.lists.pop();
                self.need_blank = true;
            }
            TagEnd::Item => {
                self.flush();
                self.containers.pop();
            }
            TagEnd::Table => {
                if let (Some(Tabling::Measure(m)), Sink::Measure(all)) =
                    (self.table.take(), &mut self.sink)
                {
                    all.push(m.finish());
                }
                self.need_blank = true;
            }
            TagEnd::TableHead => self.table_row(true),
            TagEnd::TableRow => self.table_row(false),
            TagEnd::TableCell => {
                let logical = std::mem::take(&mut self.inline);
                let mut cell = Line::new();
                for (i, l) in logical.into_iter().enumerate() {
                    if i > 0 {
                        cell.push(Span::plain(" "));
                    }
                    cell.spans.extend(l.spans);
                }
                match &mut self.table {
                    Some(Tabling::Measure(m)) => m.cell(&cell),
                    Some(Tabling::Layout(t)) => t.cell(cell),
                    None => {}
                }
            }
            TagEnd::Emphasis
            | TagEnd::Strong
            | TagEnd::Strikethrough
            | TagEnd::Superscript
            | TagEnd::Subscript => {
                self.styles.pop();
            }
            TagEnd::Link => {
                if let Some(link) = self.link.take()
                    && !link.url.is_empty()
                    && link.text != link.url
                    && link.url.strip_prefix("mailto:") != Some(link.text.as_str())
                {
                    let muted = self.style().patch(self.role(Role::Muted));
                    self.push_span(Span::new(" (", muted));
                    self.push_span(Span::linked(link.url.clone(), muted, &link.url));
                    self.push_span(Span::new(")", muted));
                }
            }
            TagEnd::Image => {
                if let Some(img) = self.image.take() {
                    let style = self.style().patch(self.role(Role::Muted));
                    let alt = sanitize::inline(img.alt.trim());
                    let text = if alt.is_empty() {
                        "[image]".to_string()
                    } else {
                        format!("[image: {alt}]")
                    };
                    if img.url.is_empty() {
                        self.push_span(Span::new(text, style));
                    } else {
                        self.push_span(Span::linked(text, style, &img.url));
                    }
                }
            }
        }
    }
}
