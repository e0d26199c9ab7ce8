//! Headless rendering: the transcript laid out exactly as the TUI lays it out,
//! written as plain text, ANSI (SGR + OSC 8 only) or a styled, diffable text
//! format. Used by `deck render`, snapshot tests and CI.

pub mod html;
pub mod writer;

pub use writer::{Format, write_lines};

use std::io::{self, Write};

use crate::session::{Item, Transcript};
use crate::theme::Theme;
use crate::view::transcript::{LayoutOptions, layout, render_item};
use crate::wire::Record;

/// Fold records up to event `at` (all of them when `None`): every event with
/// a seq ≤ `at`, and the other records (frames, diagnostics) that come before
/// the last such event in input order.
pub fn fold(session_id: Option<String>, records: &[Record], at: Option<u64>) -> Transcript {
    let mut t = Transcript::new(session_id);
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

/// [`render`] written to `w` as it goes, the items of each window laid out
/// and written on every core (`height`: keep only the last rows, which
/// needs the whole layout first). Same bytes as [`render`].
pub fn render_to(
    w: &mut dyn Write,
    t: &Transcript,
    theme: &Theme,
    opts: &LayoutOptions,
    height: Option<usize>,
    format: Format,
) -> io::Result<()> {
    if height.is_some() {
        return w.write_all(render(t, theme, opts, height, format).as_bytes());
    }
    let separator = write_lines(&[crate::text::Line::new()], format);
    let items: Vec<&Item> = t.items.iter().collect();
    let mut first = true;
    for window in items.chunks(WINDOW) {
        let texts = crate::par::map(window, 2, |item| {
            let lines = render_item(t, item, theme, opts);
            (!lines.is_empty()).then(|| write_lines(&lines, format))
        });
        for text in texts.into_iter().flatten() {
            if !first {
                w.write_all(separator.as_bytes())?;
            }
            first = false;
            w.write_all(text.as_bytes())?;
        }
    }
    Ok(())
}
