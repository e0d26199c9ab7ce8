//! Markdown that grows at its end — an answer as it streams in, drawn
//! again for every chunk — laid out in time proportional to what is new,
//! not to the whole text.
//!
//! The text is cut at *split points*: lines after which nothing that
//! follows can change how what precedes is laid out. The part before the
//! last split point is laid out once and kept (per width, theme and style,
//! for the few texts growing at a time); each draw lays out only the rest
//! and puts the two together with the empty row that separates any two
//! blocks. Same rows as laying out the whole, always (a test holds every
//! prefix of a corpus to it).
//!
//! Split points are found by [`super::split`].

use std::cell::RefCell;
use std::sync::Arc;

use ratatui::style::Style;

use super::render_into;
use crate::text::Line;
use crate::text::rows::Rows;
use crate::theme::Theme;

/// Texts shorter than this are simply laid out whole (the tests hold
/// every length to the rule).
const MIN_BYTES: usize = if cfg!(test) { 1 } else { 4 * 1024 };
/// Growing texts remembered at once (per thread).
const ENTRIES: usize = 4;

struct Entry {
    width: usize,
    theme: String,
    base: Style,
    /// The text laid out (up to a split point), to recognise the text
    /// that continues it.
    prefix: String,
    /// Its rows, in the pieces they were laid out in (each after the
    /// first starts with the empty row between blocks): shared with every
    /// draw's layout, never copied.
    pieces: Vec<Arc<Vec<Line>>>,
}

thread_local! {
    static KEPT: RefCell<Vec<Entry>> = const { RefCell::new(Vec::new()) };
}

/// [`render_into`] for a text that grows at its end between calls.
pub fn render_growing(md: &str, width: usize, theme: &Theme, base: Style, out: &mut Rows) {
    if md.len() < MIN_BYTES {
        return render_into(md, width, theme, base, out);
    }
    let width = width.max(1);
    // The longest text kept that this one continues.
    let kept = KEPT.with_borrow_mut(|all| {
        let at = all
            .iter()
            .enumerate()
            .filter(|(_, e)| {
                e.width == width
                    && e.theme == theme.name
                    && e.base == base
                    && md.starts_with(&e.prefix)
            })
            .max_by_key(|(_, e)| e.prefix.len())
            .map(|(i, _)| i)?;
        Some(all.remove(at))
    });
    let mut entry = kept.unwrap_or_else(|| Entry {
        width,
        theme: theme.name.clone(),
        base,
        prefix: String::new(),
        pieces: Vec::new(),
    });
    let from = entry.prefix.len();
    let Some(split) = super::split::last(md, from) else {
        // A reference definition: laid out whole, nothing kept.
        return render_into(md, width, theme, base, out);
    };
    if split > from {
        let mut more = Rows::all();
        if !entry.pieces.is_empty() {
            more.push(Line::new());
        }
        render_into(&md[from..split], width, theme, base, &mut more);
        // (A piece with nothing but the separator adds nothing.)
        if more.len() > usize::from(!entry.pieces.is_empty()) {
            entry.pieces.push(Arc::new(more.finish(Style::default())));
        }
        entry.prefix.push_str(&md[from..split]);
    }
    for piece in &entry.pieces {
        out.share(piece);
    }
    if !entry.pieces.is_empty() {
        out.gap();
    }
    render_into(&md[split..], width, theme, base, out);
    out.cancel_gap();
    KEPT.with_borrow_mut(|all| {
        if all.len() >= ENTRIES {
            all.remove(0);
        }
        all.push(entry);
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::theme::Theme;

    fn whole(md: &str, width: usize) -> Vec<Line> {
        let mut r = Rows::all();
        render_into(md, width, &Theme::dark(), Style::default(), &mut r);
        r.finish(Style::default())
    }

    fn growing(md: &str, width: usize) -> Vec<Line> {
        let mut r = Rows::all();
        render_growing(md, width, &Theme::dark(), Style::default(), &mut r);
        r.finish(Style::default())
    }

    /// Pieces of markdown of every kind, some that reach across empty lines.
    fn corpus() -> String {
        let pieces = [
            "# A heading\n\nSome *text* with `code` and a [link](https://e.com/a).\n",
            "- tight\n- list\n\n- now loose\n\n  continued in the item\n",
            "1. one\n2. two\n\n3. three\n",
            "```rust\nfn main() {\n\n    let x = 1;\n\n}\n```\n",
            "~~~\nraw\n\n~~~~\nstill raw\n~~~~\n",
            "> quoted\n\n> another quote\n",
            "| a | b |\n|---|--:|\n| 1 | 22 |\n| 333 | 4 |\n",
            "    indented code\n\n    more of it\n",
            "Setext title\n============\n\nThen text\n---\n",
            "<div>\n\nhtml over an empty line\n\n</div>\n",
            "A paragraph that goes on for a while so that it wraps at narrow widths, \
             with **strong** and ~~struck~~ words.\n",
            "***\n\n- [ ] task\n- [x] done\n",
        ];
        let mut s = String::new();
        for i in 0..72 {
            s.push_str(pieces[i % pieces.len()]);
            s.push('\n');
        }
        s
    }

    #[test]
    fn every_prefix_lays_out_as_the_whole() {
        let text = corpus();
        for width in [12, 40, 100] {
            KEPT.with_borrow_mut(Vec::clear);
            // Grown a few bytes at a time (and at char boundaries).
            let mut cut = 0;
            while cut < text.len() {
                cut = (cut + 37).min(text.len());
                while !text.is_char_boundary(cut) {
                    cut += 1;
                }
                let md = &text[..cut];
                assert_eq!(
                    growing(md, width),
                    whole(md, width),
                    "width {width}, {cut} bytes"
                );
            }
        }
    }

    #[test]
    fn a_reference_definition_turns_it_off() {
        let mut md = corpus();
        md.push_str("\nSee [later].\n\n[later]: https://example.com\n");
        assert_eq!(super::super::split::last(&md, 0), None);
        assert_eq!(growing(&md, 60), whole(&md, 60));
    }
}
