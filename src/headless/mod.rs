//! Headless rendering: the transcript laid out exactly as the TUI lays it out,
//! written as plain text, ANSI (SGR + OSC 8 only) or a styled, diffable text
//! format. Used by `deck render`, snapshot tests and CI.

internal!(
    mod writer;
);

pub use crate::view::transcript::LayoutOptions;
pub use writer::{Format, write_lines};

use std::collections::VecDeque;
use std::io::{self, Write};

use crate::session::{Item, Transcript};
use crate::text::{Line, Rows};
use crate::theme::Theme;
use crate::view::transcript::{item_weight, joined, layout, render_item, render_item_into};
use crate::wire::Record;

/// Fold records up to event `at` (all of them when `None`): every event with
/// a seq ≤ `at`, and the other records (frames, diagnostics) that come before
/// the last such event in input order.
pub fn fold(session_id: Option<String>, records: &[Record], at: Option<u64>) -> Transcript {
    let mut t = Transcript::new(session_id, crate::agents::stock());
    let Some(limit) = at else {
        records.iter().for_each(|r| t.apply(r));
        return t;
    };
    let cutoff = records
        .iter()
        .rposition(|r| r.seq().is_some_and(|s| s <= limit));
    let Some(cutoff) = cutoff else { return t };
    for r in &records[..=cutoff] {
        if r.seq().is_none_or(|s| s <= limit) {
            t.apply(r);
        }
    }
    t
}

/// Render a transcript to a string. `height`: keep only the last rows.
pub fn render(
    t: &Transcript,
    theme: &Theme,
    opts: &LayoutOptions,
    height: Option<usize>,
    format: Format,
) -> String {
    let mut lines = layout(t, theme, opts);
    if let Some(h) = height
        && lines.len() > h
    {
        lines.drain(..lines.len() - h);
    }
    write_lines(&lines, format)
}

/// Items laid out at once by [`render_to`] (bounds the memory it holds).
const WINDOW: usize = 64;

/// Items heavier than this (bytes of text) are laid out alone and written
/// row by row as they are made, never held whole.
pub const HEAVY: usize = 256 * 1024;

/// [`render`] written to `w` as it goes: the items of each window laid
/// out and written on every core, a heavy item row by row (`height`: keep
/// only the last rows, in a ring of that many). Same bytes as [`render`].
pub fn render_to(
    w: &mut dyn Write,
    t: &Transcript,
    theme: &Theme,
    opts: &LayoutOptions,
    height: Option<usize>,
    format: Format,
) -> io::Result<()> {
    let Some(h) = height else {
        return each_chunk(t, theme, opts, format, false, &mut |chunk| {
            w.write_all(chunk.as_bytes())
        });
    };
    let mut ring: VecDeque<String> = VecDeque::with_capacity(h.min(1 << 16));
    each_chunk(t, theme, opts, format, true, &mut |row| {
        if h > 0 {
            if ring.len() == h {
                ring.pop_front();
            }
            ring.push_back(row.to_string());
        }
        Ok(())
    })?;
    for row in ring {
        w.write_all(row.as_bytes())?;
    }
    Ok(())
}

/// The transcript laid out as `deck render` lays it out (items apart by
/// one empty row), formatted, in order, to `f`: a chunk per item, or with
/// `per_row` one per row.
fn each_chunk(
    t: &Transcript,
    theme: &Theme,
    opts: &LayoutOptions,
    format: Format,
    per_row: bool,
    f: &mut dyn FnMut(&str) -> io::Result<()>,
) -> io::Result<()> {
    let separator = write_lines(&[Line::new()], format);
    let items: Vec<&Item> = t.items().iter().collect();
    let heavy = |item: &Item| item_weight(t, item) >= HEAVY;
    let mut first = true;
    // The last item written, for the blank row between items (none
    // between one-line cards).
    let mut prev: Option<&Item> = None;
    let d = opts.density;
    let gap = |prev: Option<&Item>, item: &Item| !prev.is_some_and(|p| joined(p, d, item, d));
    let mut i = 0;
    while i < items.len() {
        if heavy(items[i]) {
            let mut result = Ok(());
            let sep = gap(prev, items[i]);
            let mut wrote = false;
            let mut each = |line: Line| {
                if result.is_err() {
                    return;
                }
                // The separator goes before the item's first row only.
                let item_first = !std::mem::replace(&mut wrote, true);
                if !std::mem::replace(&mut first, false) && sep && item_first {
                    result = f(&separator);
                }
                if result.is_ok() {
                    result = f(&write_lines(std::slice::from_ref(&line), format));
                }
            };
            // (An item without rows writes nothing, not even a separator.)
            render_item_into(t, items[i], theme, opts, 0, &mut Rows::each(&mut each));
            result?;
            if wrote {
                prev = Some(items[i]);
            }
            i += 1;
            continue;
        }
        let end = (i..items.len().min(i + WINDOW))
            .find(|&j| heavy(items[j]))
            .unwrap_or(items.len().min(i + WINDOW));
        let texts = crate::par::map(&items[i..end], 2, |item| {
            let lines = render_item(t, item, theme, opts);
            (!lines.is_empty()).then(|| {
                let chunks: Vec<String> = if per_row {
                    lines
                        .iter()
                        .map(|l| write_lines(std::slice::from_ref(l), format))
                        .collect()
                } else {
                    vec![write_lines(&lines, format)]
                };
                (*item, chunks)
            })
        });
        for (item, chunks) in texts.into_iter().flatten() {
            if !std::mem::replace(&mut first, false) && gap(prev, item) {
                f(&separator)?;
            }
            for c in &chunks {
                f(c)?;
            }
            prev = Some(item);
        }
        i = end;
    }
    Ok(())
}
