//! Finding and highlighting text across the transcript. Search looks at the
//! *full* rendering of every entry, so text in collapsed parts is found too;
//! smart case: a query with an upper-case letter is case-sensitive.
//!
//! The app searches on a thread of its own ([`Search`]): matches come in
//! as they are found, in order, and keys are answered meanwhile.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, channel};

use crate::cards::Density;
use crate::session::Transcript;
use crate::text::Rows;
use crate::text::{Line, Span};
use crate::theme::Theme;
use crate::view::list::MARGIN;
use crate::view::transcript::{LayoutOptions, item_text, render_item, render_item_into};
use ratatui::style::Style;

/// A match: the entry (index into the list's entries) and the row in the
/// entry's full-density rendering.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Match {
    pub entry: usize,
    pub row: usize,
}

fn case_sensitive(query: &str) -> bool {
    query.chars().any(char::is_uppercase)
}

/// Byte ranges of `query` in `text` (smart case).
pub fn find_in(text: &str, query: &str) -> Vec<(usize, usize)> {
    if query.is_empty() {
        return Vec::new();
    }
    let (hay, needle) = if case_sensitive(query) {
        (text.to_string(), query.to_string())
    } else {
        (text.to_lowercase(), query.to_lowercase())
    };
    // Lower-casing can change byte lengths; fall back to exact search then.
    if hay.len() != text.len() || needle.len() != query.len() {
        return text
            .match_indices(query)
            .map(|(i, m)| (i, i + m.len()))
            .collect();
    }
    hay.match_indices(&needle)
        .map(|(i, m)| (i, i + m.len()))
        .collect()
}

/// `ranges` of `text` widened to whole grapheme clusters: a hit on `e`
/// in `é` (e and a combining accent) marks the accent too, so no cluster
/// is split between two styles.
pub fn whole_clusters(text: &str, mut ranges: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
    use unicode_segmentation::GraphemeCursor;
    if text.is_ascii() {
        return ranges;
    }
    let start_of = |i: usize| {
        let mut c = GraphemeCursor::new(i, text.len(), true);
        match c.is_boundary(text, 0) {
            Ok(true) => i,
            _ => c.prev_boundary(text, 0).ok().flatten().unwrap_or(0),
        }
    };
    let end_of = |i: usize| {
        let mut c = GraphemeCursor::new(i, text.len(), true);
        match c.is_boundary(text, 0) {
            Ok(true) => i,
            _ => c.next_boundary(text, 0).ok().flatten().unwrap_or(text.len()),
        }
    };
    for r in &mut ranges {
        *r = (start_of(r.0), end_of(r.1));
    }
    // Widened hits may now overlap: merge them.
    let mut out: Vec<(usize, usize)> = Vec::with_capacity(ranges.len());
    for (a, b) in ranges {
        match out.last_mut() {
            Some(last) if a <= last.1 => last.1 = last.1.max(b),
            _ => out.push((a, b)),
        }
    }
    out
}

/// Every row of every entry whose text contains `query`.
pub fn find(
    t: &Transcript,
    entries: &[usize],
    theme: &Theme,
    width: usize,
    reasoning: bool,
    query: &str,
) -> Vec<Match> {
    let mut out = Vec::new();
    for entry in 0..entries.len() {
        find_in_entry(t, entries, entry, theme, width, reasoning, query, &mut out);
    }
    out
}

/// The rows of entry `entry` (an index into `entries`) that hold `query`,
/// appended to `out`.
#[allow(clippy::too_many_arguments)]
fn find_in_entry(
    t: &Transcript,
    entries: &[usize],
    entry: usize,
    theme: &Theme,
    width: usize,
    reasoning: bool,
    query: &str,
    out: &mut Vec<Match>,
) {
    let opts = LayoutOptions {
        width: width.saturating_sub(MARGIN).max(1),
        density: Density::Full,
        show_reasoning: reasoning,
        hide_tools: false,
        now_ms: None,
        // Matching needs the text only.
        plain_code: true,
        full_paths: false,
        open_nested: false,
    };
    let header = LayoutOptions {
        density: Density::Line,
        ..opts
    };
    let Some(it) = entries.get(entry).and_then(|&item| t.items().get(item)) else {
        return;
    };
    // Cheap first: the item's plain text (and a card's header line, which
    // holds its outcome); only candidates are laid out in full.
    let candidate = !find_in(&item_text(t, it), query).is_empty()
        || (matches!(it, crate::session::Item::Tool(_))
            && render_item(t, it, theme, &header)
                .iter()
                .any(|l| !find_in(&l.text(), query).is_empty()));
    if !candidate {
        return;
    }
    // Rows are numbered as they go by: a huge card is never held whole.
    let mut row = 0usize;
    let mut each = |line: Line| {
        if !find_in(&line.text(), query).is_empty() {
            out.push(Match { entry, row });
        }
        row += 1;
    };
    render_item_into(t, it, theme, &opts, 0, &mut Rows::each(&mut each));
}

/// A search running on a thread of its own: matches arrive in order, a
/// batch at a time; dropping it stops the thread.
pub struct Search {
    rx: Receiver<Vec<Match>>,
    cancel: Arc<AtomicBool>,
    scanned: Arc<AtomicUsize>,
    /// Entries to search in all.
    pub total: usize,
    /// Every entry has been searched and every match taken.
    pub done: bool,
}

impl Search {
    /// Search `entries` of `t` (a snapshot: the transcript may go on) for
    /// `query`, laid out as [`find`] does.
    pub fn spawn(
        t: Transcript,
        entries: Vec<usize>,
        theme: Theme,
        width: usize,
        reasoning: bool,
        query: String,
    ) -> Search {
        let (tx, rx) = channel();
        let cancel = Arc::new(AtomicBool::new(false));
        let scanned = Arc::new(AtomicUsize::new(0));
        let total = entries.len();
        let (stop, count) = (cancel.clone(), scanned.clone());
        let spawned = std::thread::Builder::new()
            .name("deck-search".into())
            .spawn(move || {
                let mut batch = Vec::new();
                for entry in 0..entries.len() {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    find_in_entry(
                        &t, &entries, entry, &theme, width, reasoning, &query, &mut batch,
                    );
                    count.store(entry + 1, Ordering::Relaxed);
                    if !batch.is_empty() && tx.send(std::mem::take(&mut batch)).is_err() {
                        return;
                    }
                }
            });
        Search {
            rx,
            cancel,
            scanned,
            total,
            // No thread, no search: said as nothing found.
            done: spawned.is_err(),
        }
    }

    /// Matches found since the last call (in order after the earlier ones).
    pub fn poll(&mut self) -> Vec<Match> {
        let mut out = Vec::new();
        loop {
            match self.rx.try_recv() {
                Ok(batch) => out.extend(batch),
                Err(std::sync::mpsc::TryRecvError::Empty) => break,
                Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                    self.done = true;
                    break;
                }
            }
        }
        out
    }

    /// Entries searched so far.
    pub fn scanned(&self) -> usize {
        self.scanned.load(Ordering::Relaxed)
    }
}

impl Drop for Search {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

/// Patch `style` over the parts of `line` that match `query`.
pub fn highlight(line: &Line, query: &str, style: Style) -> Line {
    let text = line.text();
    let ranges = whole_clusters(&text, find_in(&text, query));
    if ranges.is_empty() {
        return line.clone();
    }
    let mut out = Line::new();
    let mut pos = 0usize;
    for span in &line.spans {
        let (start, end) = (pos, pos + span.text.len());
        pos = end;
        let mut cut = start;
        let mut pieces: Vec<(usize, usize, bool)> = Vec::new();
        for &(a, b) in &ranges {
            let (a, b) = (a.max(start), b.min(end));
            if a >= b {
                continue;
            }
            if a > cut {
                pieces.push((cut, a, false));
            }
            pieces.push((a, b, true));
            cut = b;
        }
        if cut < end {
            pieces.push((cut, end, false));
        }
        for (a, b, hit) in pieces {
            let piece = &span.text[a - start..b - start];
            out.spans.push(Span {
                text: piece.into(),
                style: if hit {
                    span.style.patch(style)
                } else {
                    span.style
                },
                link: span.link.clone(),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::style::Color;

    #[test]
    fn smart_case() {
        assert_eq!(find_in("Foo foo", "foo"), vec![(0, 3), (4, 7)]);
        assert_eq!(find_in("Foo foo", "Foo"), vec![(0, 3)]);
        assert!(find_in("abc", "").is_empty());
    }

    /// The highlighted pieces of `line` when `query` is searched.
    fn hits(line: &Line, query: &str) -> Vec<String> {
        highlight(line, query, Style::default().bg(Color::Yellow))
            .spans
            .into_iter()
            .filter(|s| s.style.bg.is_some())
            .map(|s| s.text.into())
            .collect()
    }

    #[test]
    fn a_hit_inside_a_cluster_marks_the_whole_cluster() {
        let l = Line::plain("cafe\u{301} 👍🏽 ok");
        assert_eq!(hits(&l, "e"), vec!["e\u{301}"]);
        let hl = highlight(&l, "👍", Style::default().bg(Color::Yellow));
        assert!(hl.spans.iter().any(|s| s.text == "👍🏽"), "{hl:?}");
        assert_eq!(hl.text(), l.text());
    }

    #[test]
    fn highlight_splits_spans() {
        let l = Line::from_spans(vec![Span::plain("hello wo"), Span::plain("rld")]);
        let hl = highlight(&l, "world", Style::default().bg(Color::Yellow));
        assert_eq!(hl.text(), "hello world");
        assert_eq!(hits(&l, "world"), vec!["wo", "rld"]);
    }
}
