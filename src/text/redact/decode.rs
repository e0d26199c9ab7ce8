//! Secrets the rules cannot see where they stand: a token cut over lines
//! (a key wrapped at 64 columns, a token a program printed folded, the
//! numbered lines of a read file) is looked for in the lines joined, and a
//! base64 blob in its decoded text (gitleaks decodes the same way).
//!
//! Owns the finding only: each stretch found is handed back in the
//! original text's bytes for the redactor to replace (a token cut over
//! lines as a piece per line, so the text keeps its lines).

use base64::Engine;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};

use super::{Found, Redactor};

/// A character a token is made of (base64, hex, the separators of keys).
/// Not `=`: a line ending `NAME=` or `NAME=value` is an assignment, and
/// base64's padding ends a token, it does not go on.
pub(super) fn token_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'+' | b'/' | b'.')
}

/// Shortest run of token characters ending a line that may go on in the
/// next, and shortest run that goes on.
const LEFT_RUN: usize = 8;
const RIGHT_RUN: usize = 4;

/// A run that looks like part of a random token, not a word, a name or an
/// identifier (`shop_session`, `camelCase`): letters with digits, or many
/// capitals among many small letters.
fn tokenish(run: &[u8]) -> bool {
    let digits = run.iter().filter(|c| c.is_ascii_digit()).count();
    let upper = run.iter().filter(|c| c.is_ascii_uppercase()).count();
    let lower = run.iter().filter(|c| c.is_ascii_lowercase()).count();
    (digits > 0 && upper + lower > 0) || (upper >= 3 && lower >= 3 && upper * 4 >= run.len())
}

/// The bytes a line's content starts at: after a read tool's line number
/// (`    12→`, `    12\t`), if any.
fn content_start(line: &[u8]) -> usize {
    let spaces = line.iter().take_while(|c| **c == b' ').count();
    let digits = line[spaces..].iter().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 {
        return 0;
    }
    let rest = &line[spaces + digits..];
    if rest.starts_with("→".as_bytes()) {
        spaces + digits + "→".len()
    } else if rest.first() == Some(&b'\t') {
        spaces + digits + 1
    } else {
        0
    }
}

/// One line: where it starts, where its content starts, where it ends
/// (before `\r\n` or `\n`).
#[derive(Clone, Copy)]
struct Line {
    start: usize,
    content: usize,
    end: usize,
}

/// Whether a token may run on from the end of `a` into `b`: the end of
/// `a` a token's start not already found whole (`known`: the stretches
/// found in the text alone, disjoint and in order), `b` starting with one.
fn junction(text: &str, a: Line, b: Line, known: &[(usize, usize)]) -> bool {
    match (text.get(a.content..a.end), text.get(b.content..b.end)) {
        (Some(left), Some(right)) => may_continue(left, right) && !covered(known, a.end - 1),
        _ => false,
    }
}

/// Whether a token may run on from the end of `left` into `right` (two
/// rows or lines): `left` ends with a run of token characters that looks
/// random, and `right` starts with one.
pub fn may_continue(left: &str, right: &str) -> bool {
    let l = left.as_bytes();
    let run = l.iter().rev().take_while(|c| token_char(**c)).count();
    let next = right.bytes().take_while(|c| token_char(*c)).count();
    run >= LEFT_RUN && next >= RIGHT_RUN && tokenish(&l[l.len() - run..])
}

/// Whether byte `at` lies in one of the `known` stretches.
fn covered(known: &[(usize, usize)], at: usize) -> bool {
    let i = known.partition_point(|&(s, _)| s <= at);
    i > 0 && known[i - 1].1 > at
}

/// The stretches of `found`, merged into disjoint ones in order.
fn merged(found: &[Found]) -> Vec<(usize, usize)> {
    let mut spans: Vec<(usize, usize)> = found.iter().map(|f| (f.start, f.end)).collect();
    spans.sort_unstable();
    let mut out: Vec<(usize, usize)> = Vec::with_capacity(spans.len());
    for (s, e) in spans {
        match out.last_mut() {
            Some(last) if s <= last.1 => last.1 = last.1.max(e),
            _ => out.push((s, e)),
        }
    }
    out
}

/// Secrets that cross line ends in `text`, found in the lines joined
/// (`found`: what the text alone gave, whose lines are not joined on).
pub(super) fn joined(r: &Redactor, text: &str, found: &mut Vec<Found>) {
    let bytes = text.as_bytes();
    if memchr::memchr(b'\n', bytes).is_none() {
        return;
    }
    let known = merged(found);
    let mut lines = Vec::new();
    let mut start = 0;
    while start <= bytes.len() {
        let nl = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |i| start + i);
        let end = if nl > start && bytes[nl - 1] == b'\r' {
            nl - 1
        } else {
            nl
        };
        let content = start + content_start(&bytes[start..end]);
        lines.push(Line {
            start,
            content,
            end,
        });
        start = nl + 1;
    }
    let mut i = 0;
    while i + 1 < lines.len() {
        if !junction(text, lines[i], lines[i + 1], &known) {
            i += 1;
            continue;
        }
        let mut j = i + 1;
        while j + 1 < lines.len() && junction(text, lines[j], lines[j + 1], &known) {
            j += 1;
        }
        block(r, text, &lines[i..=j], found);
        i = j + 1;
    }
}

/// The lines of one block joined (the first from its start, the others
/// from their content), scanned; what crosses a junction mapped back.
fn block(r: &Redactor, text: &str, lines: &[Line], found: &mut Vec<Found>) {
    // (start in joined, start in text, length)
    let mut segs: Vec<(usize, usize, usize)> = Vec::with_capacity(lines.len());
    let mut joined = String::new();
    for (k, l) in lines.iter().enumerate() {
        let from = if k == 0 { l.start } else { l.content };
        let Some(part) = text.get(from..l.end) else {
            return;
        };
        segs.push((joined.len(), from, part.len()));
        joined.push_str(part);
    }
    let mut local = Vec::new();
    r.find(&joined, &mut local);
    for f in local {
        let crosses = segs
            .iter()
            .skip(1)
            .any(|&(j, _, _)| f.start < j && j < f.end);
        // A token cut over lines is one run of token characters joined:
        // what a rule takes with more in it (`NAME=value` on the next
        // line) is not a cut token.
        let whole = joined
            .get(f.start..f.end)
            .is_some_and(|t| t.trim_end_matches('=').bytes().all(token_char));
        if !crosses || !whole {
            continue;
        }
        let mut first = true;
        for &(j, t, len) in &segs {
            let (a, b) = (f.start.max(j), f.end.min(j + len));
            if a >= b {
                continue;
            }
            found.push(Found {
                start: t + (a - j),
                end: t + (b - j),
                kind: f.kind,
                piece: !first,
            });
            first = false;
        }
    }
}

/// Shortest base64 run decoded (18 bytes of text).
const MIN_BLOB: usize = 24;

const ENGINE_CONFIG: GeneralPurposeConfig = GeneralPurposeConfig::new()
    .with_decode_padding_mode(DecodePaddingMode::Indifferent)
    .with_decode_allow_trailing_bits(true);
const STANDARD: GeneralPurpose = GeneralPurpose::new(&base64::alphabet::STANDARD, ENGINE_CONFIG);
const URL_SAFE: GeneralPurpose = GeneralPurpose::new(&base64::alphabet::URL_SAFE, ENGINE_CONFIG);

/// Secrets in the decoded text of base64 blobs of `text`: the whole blob
/// is found, of the kind found inside.
pub(super) fn base64(r: &Redactor, text: &str, found: &mut Vec<Found>) {
    let bytes = text.as_bytes();
    if bytes.len() < MIN_BLOB {
        return;
    }
    let alpha = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'-' | b'_');
    let mut i = 0;
    while i < bytes.len() {
        if !alpha(bytes[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && alpha(bytes[i]) {
            i += 1;
        }
        let mut end = i;
        while end < bytes.len() && end - i < 2 && bytes[end] == b'=' {
            end += 1;
        }
        let run = &bytes[start..i];
        if run.len() >= MIN_BLOB {
            blob(r, run, start, end, found);
        }
        i = end.max(i);
    }
}

/// One run of base64's alphabet at `start..end` (`run` without padding).
fn blob(r: &Redactor, run: &[u8], start: usize, end: usize, found: &mut Vec<Found>) {
    let upper = run.iter().any(u8::is_ascii_uppercase);
    let lower = run.iter().any(u8::is_ascii_lowercase);
    if !(upper && lower) {
        return;
    }
    let url = run.iter().any(|c| matches!(c, b'-' | b'_'));
    let std = run.iter().any(|c| matches!(c, b'+' | b'/'));
    if url && std {
        return;
    }
    let engine = if url { &URL_SAFE } else { &STANDARD };
    // The first 64 characters decoded must be text, or the run is binary
    // (an image) or not base64 at all (a long identifier).
    let head = &run[..run.len().min(64) / 4 * 4];
    match engine.decode(head) {
        Ok(d) if printable(&d) => {}
        _ => return,
    }
    let whole = &run[..run.len() / 4 * 4 + if run.len() % 4 >= 2 { run.len() % 4 } else { 0 }];
    let Ok(decoded) = engine.decode(whole) else {
        return;
    };
    let Ok(decoded) = std::str::from_utf8(&decoded) else {
        return;
    };
    let mut inner = Vec::new();
    r.find(decoded, &mut inner);
    if let Some(kind) = inner.iter().map(|f| f.kind).min() {
        found.push(Found {
            start,
            end,
            kind,
            piece: false,
        });
    }
}

/// Text: printable ASCII, tabs and line ends, or UTF-8 beyond ASCII.
fn printable(d: &[u8]) -> bool {
    !d.is_empty()
        && d.iter()
            .all(|&c| (0x20..0x7f).contains(&c) || matches!(c, b'\t' | b'\n' | b'\r') || c >= 0x80)
}
