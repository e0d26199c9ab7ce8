//! A big log's end read first (`deck follow`, a search hit opened from the
//! library) — its last bytes, from a line's start, decoded as the log's own
//! reader decodes them, primed with the file's first line (which names the
//! session and its agent; its own records left out) — or its start (a
//! session opened from the library), so the cards are on screen at once
//! while the whole is read behind them ([`LiveEvent::Ahead`]).
//!
//! What the end shows is what its lines say: a call whose start is before
//! the window is a card without its name (unknown, not guessed) until the
//! whole read replaces the end. The window grows (×4, to [`MOST`]) until it
//! holds a screen of records.
//!
//! [`LiveEvent::Ahead`]: crate::source::live::LiveEvent::Ahead

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use super::stream::{LineStream, Selection};
use crate::source::feed::Output;
use crate::wire::Record;

/// The size from which a log's end is read first: its whole read takes more
/// than a blink. `DECK_AHEAD_FROM` (bytes) changes it (the tests' files are
/// small).
pub const AHEAD_FROM: u64 = 4 << 20;

/// [`AHEAD_FROM`], or what `DECK_AHEAD_FROM` says.
pub fn ahead_from() -> u64 {
    std::env::var("DECK_AHEAD_FROM")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(AHEAD_FROM)
}

/// The first window read from the end.
const FIRST: u64 = 1 << 20;
/// The largest (after it, the end shows what it holds).
const MOST: u64 = 16 << 20;
/// Records enough for a screen of cards.
const ENOUGH: usize = 200;
/// The longest first line read to prime the window.
const HEAD_LINE: usize = 1 << 20;
/// The first bytes of a zstd frame: a compressed log has no end to read.
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

/// The end of a log, decoded.
#[derive(Debug)]
pub struct Window {
    /// The records of its lines (session `want`'s, else the first named).
    pub records: Vec<Record>,
    /// Where its first line starts, and the file's size when it was read.
    pub from: u64,
    pub size: u64,
    /// Whether the turn numbers of its records are the session's (a DSH
    /// log's are written in it; another agent's reader counts them, here
    /// from the window's start).
    pub numbered: bool,
}

/// The end of the log at `path` (session `want`, else the one its first
/// line names), or `None` when there is nothing to read from its end: a
/// file under `at_least` bytes, compressed, whose first line is longer
/// than 1 MiB, or one the window would hold whole.
pub fn read_end(path: &Path, want: Option<&str>, at_least: u64) -> Option<Window> {
    read_end_from(path, want, at_least, FIRST, ENOUGH)
}

/// The start of a big log (session `want`, else the first named): its
/// first lines, as many as fill a screen, decoded as a follow of it would —
/// the first of the whole's records, shown while the whole loads (a
/// session opened from the library). `None` as for [`read_end`].
pub fn read_start(path: &Path, want: Option<&str>, at_least: u64) -> Option<Window> {
    let mut file = std::fs::File::open(path).ok()?;
    let size = file.metadata().ok()?.len();
    if size < at_least.max(1) {
        return None;
    }
    let mut span = FIRST;
    loop {
        if span >= size {
            return None;
        }
        let bytes = read_from(&mut file, 0, span)?;
        if bytes.starts_with(&ZSTD_MAGIC) {
            return None;
        }
        let mut stream = LineStream::new(None, Selection::new(want.map(str::to_string)), None);
        let mut out = Output::default();
        stream.feed(&bytes, &mut out).ok()?;
        if out.records.len() >= ENOUGH || span >= MOST {
            return (!out.records.is_empty()).then_some(Window {
                records: out.records,
                from: 0,
                size,
                numbered: true,
            });
        }
        span *= 4;
    }
}

/// [`read_end`], its first window `span` bytes, grown until it holds
/// `enough` records.
fn read_end_from(
    path: &Path,
    want: Option<&str>,
    at_least: u64,
    mut span: u64,
    enough: usize,
) -> Option<Window> {
    let mut file = std::fs::File::open(path).ok()?;
    let size = file.metadata().ok()?.len();
    if size < at_least.max(1) {
        return None;
    }
    let mut head = Vec::new();
    (&mut file).take(HEAD_LINE as u64).read_to_end(&mut head).ok()?;
    if head.starts_with(&ZSTD_MAGIC) {
        return None;
    }
    let first = head.iter().position(|&b| b == b'\n')? + 1;
    head.truncate(first);
    loop {
        let start = size.saturating_sub(span);
        if start <= first as u64 {
            return None;
        }
        let window = read_from(&mut file, start - 1, size)?;
        // From the first line that starts in it (the byte before `start`
        // read too: a line starting at `start` is whole).
        let skip = window.iter().position(|&b| b == b'\n').map(|i| i + 1);
        let (records, numbered) = match skip {
            Some(skip) if skip < window.len() => decode(&head, &window[skip..], want),
            _ => (Vec::new(), true),
        };
        if records.len() >= enough || span >= MOST {
            let from = start - 1 + skip.unwrap_or(window.len()) as u64;
            return (!records.is_empty()).then_some(Window {
                records,
                from,
                size,
                numbered,
            });
        }
        span *= 4;
    }
}

/// Bytes `[from, to)` of `file`.
fn read_from(file: &mut std::fs::File, from: u64, to: u64) -> Option<Vec<u8>> {
    file.seek(SeekFrom::Start(from)).ok()?;
    let mut bytes = Vec::with_capacity((to - from) as usize);
    file.take(to - from).read_to_end(&mut bytes).ok()?;
    Some(bytes)
}

/// `lines` decoded after the file's first line `head` (its records left
/// out: it primes the reader), and whether their turn numbers are the
/// session's.
fn decode(head: &[u8], lines: &[u8], want: Option<&str>) -> (Vec<Record>, bool) {
    let mut stream = LineStream::new(None, Selection::new(want.map(str::to_string)), None);
    let mut out = Output::default();
    if stream.feed(head, &mut out).is_err() {
        return (Vec::new(), true);
    }
    out.records.clear();
    // Not finished: the file goes on (a last line without its newline is
    // not decoded, and what is open stays open).
    if stream.feed(lines, &mut out).is_err() {
        return (Vec::new(), true);
    }
    (out.records, !stream.translated())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::Transcript;

    /// Each line-based fixture's second half, read as its end: its last
    /// card is the whole file's last card (the same call, tool, arguments,
    /// status and result) — the end is drawn as the whole draws it.
    #[test]
    fn the_end_of_every_fixture_ends_on_the_card_the_whole_ends_on() {
        let mut checked = 0;
        for f in crate::load::tests::fixture_files() {
            let name = f.to_string_lossy().into_owned();
            if !name.ends_with(".jsonl") {
                continue;
            }
            let size = std::fs::metadata(&f).unwrap().len();
            let Ok(whole) = crate::load::load_path(&name) else { continue };
            let Some(first) = whole.sessions.first() else { continue };
            // The whole as followed: its lines read from the start, the
            // file not finished (what is open stays open).
            let mut stream = LineStream::new(None, Selection::new(first.id.clone()), None);
            let mut out = Output::default();
            stream.feed(&std::fs::read(&f).unwrap(), &mut out).unwrap();
            let mut all = Transcript::new(first.id.clone(), crate::agents::stock());
            for r in &out.records {
                all.apply(r);
            }
            let Some(last) = all.cards().iter().next_back() else { continue };
            let Some(end) = read_end_from(&f, first.id.as_deref(), 0, size / 2, 1) else {
                continue;
            };
            assert!(end.from > 0 && end.from < size && end.size == size, "{name}");
            // A DSH log's turn numbers are written in it; another agent's
            // reader counts them.
            assert_eq!(end.numbered, !name.contains("/fixtures/agents/"), "{name}");
            let mut shown = Transcript::new(first.id.clone(), crate::agents::stock());
            for r in &end.records {
                shown.apply(r);
            }
            let key = |c: &crate::session::ToolCard| {
                (
                    c.call_id.clone(),
                    c.tool.clone(),
                    c.arguments.clone(),
                    c.status,
                    // What a reader counts from where it began: not
                    // compared (turns are not drawn, `numbered`).
                    c.result.as_ref().map(|r| uncounted(r.data())),
                )
            };
            // A DSH log's cards at its end are the whole's (its events say
            // all they carry). Another agent's reader makes what it can of
            // the end's lines: a card whose call was before the first of
            // them has its result, not its tool; ids a reader counts
            // (Codex's web searches) count from there.
            let by_id: std::collections::HashMap<_, _> =
                all.cards().iter().map(|c| (c.call_id.clone(), c)).collect();
            for c in shown.cards().iter().filter(|c| end.numbered && c.tool.is_some()) {
                let w = by_id.get(&c.call_id).unwrap_or_else(|| panic!("{name}: {} not in the whole", c.call_id));
                assert_eq!(key(c), key(w), "{name}");
            }
            // Whatever the format, it ends on the whole's last card.
            let got = shown.cards().iter().next_back().unwrap_or_else(|| panic!("{name}: no card at its end"));
            assert_eq!(key(got).4, key(last).4, "{name}: the last result");
            if got.tool.is_some() {
                assert_eq!((&got.tool, &got.arguments), (&last.tool, &last.arguments), "{name}: the last call");
            }
            checked += 1;
        }
        assert!(checked >= 10, "line-based fixtures with cards checked: {checked}");
    }

    /// `data` without what a reader counts from where it began (turn and
    /// step numbers; call ids made of counts, Cursor's `L15.2`).
    fn uncounted(mut data: serde_json::Value) -> serde_json::Value {
        match &mut data {
            serde_json::Value::Object(o) => {
                o.retain(|k, _| !matches!(k.as_str(), "turn" | "step" | "toolCallId"));
                for v in o.values_mut() {
                    *v = uncounted(v.take());
                }
            }
            serde_json::Value::Array(a) => {
                for v in a.iter_mut() {
                    *v = uncounted(v.take());
                }
            }
            _ => {}
        }
        data
    }

    /// Too small to have an end apart from its start, or compressed: none.
    #[test]
    fn a_small_or_compressed_file_has_no_end_to_read_first() {
        let dir = tempfile::tempdir().unwrap();
        let small = dir.path().join("s.jsonl");
        std::fs::write(&small, "{\"type\":\"session\"}\n{\"a\":1}\n").unwrap();
        assert!(read_end(&small, None, 0).is_none());
        assert!(read_end(&small, None, 1 << 30).is_none(), "under the size");
        let z = dir.path().join("s.jsonl.zst");
        let mut bytes = ZSTD_MAGIC.to_vec();
        bytes.extend(std::iter::repeat_n(b'\n', 4 << 20));
        std::fs::write(&z, bytes).unwrap();
        assert!(read_end(&z, None, 0).is_none());
    }
}
