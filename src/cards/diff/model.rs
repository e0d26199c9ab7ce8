//! The diff of one file, computed once: its lines (sanitized for display),
//! the line diff grouped into hunks, the counts, and the word-level emphasis
//! of changed line pairs. No styles and no widths here.
//!
//! The line diff ([`super::lines`]) is exact Myers when that is cheap,
//! else anchored on lines unique to both sides (patience) with Myers
//! between the anchors, all within a budget of steps that grows with the
//! file's size: linear in it, whatever the texts. A region the budget
//! cannot compare is shown removed and added whole, and the diff says it
//! is approximate. Steps are counted, not timed: the same texts give the
//! same diff on any machine, live or replayed.

use std::ops::Range;

use similar::{Algorithm, ChangeTag, DiffOp, TextDiff};

use crate::text::sanitize;

/// Context lines around each change.
pub const CONTEXT: usize = 3;
/// Changed line pairs longer than this (bytes, both sides) get no word
/// emphasis (a word diff costs the square of its words).
const MAX_EMPHASIS_BYTES: usize = 1_000;
/// Below this share of equal words a changed pair is shown without emphasis:
/// emphasising nearly everything says nothing.
const MIN_EMPHASIS_RATIO: f32 = 0.5;

/// Split text into lines the way `similar` tokenizes them (after `\n`,
/// `\r\n` or a bare `\r`), keeping terminators.
pub fn split_lines(s: &str) -> Vec<&str> {
    let bytes = s.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\r' if bytes.get(i + 1) == Some(&b'\n') => {
                out.push(&s[start..i + 2]);
                i += 2;
                start = i;
            }
            b'\r' | b'\n' => {
                out.push(&s[start..=i]);
                i += 1;
                start = i;
            }
            _ => i += 1,
        }
    }
    if start < s.len() {
        out.push(&s[start..]);
    }
    out
}

fn strip_terminator(l: &str) -> &str {
    l.strip_suffix("\r\n")
        .or_else(|| l.strip_suffix('\n'))
        .or_else(|| l.strip_suffix('\r'))
        .unwrap_or(l)
}

/// Line tokens for the diff: each line without its terminator, so a text
/// that ends without a newline compares its last line as any other (lines
/// added after it are the only change, and a missing newline at the end of
/// one text does not turn its last line into a change).
fn tokens(s: &str) -> Vec<&str> {
    split_lines(s).into_iter().map(strip_terminator).collect()
}

/// One file's diff, ready to lay out.
#[derive(Debug, Clone)]
pub struct FileModel {
    /// Display text of each old / new line: no terminator, sanitized.
    pub old: Vec<String>,
    pub new: Vec<String>,
    /// Changed regions with [`CONTEXT`] lines around them; empty: no change.
    pub hunks: Vec<Vec<DiffOp>>,
    pub added: usize,
    pub removed: usize,
    /// Why the diff is approximate, when it is.
    pub approximate: Option<String>,
    /// The file's line number of the texts' first line, when known: 1 for a
    /// new file; `None` for a snippet whose place in the file the session
    /// does not show (the gutter then has no numbers: none is invented).
    pub start: Option<usize>,
    /// The changed file's line number of the new text's first line, when
    /// it is not `start` (a hunk below others that changed the line count).
    pub new_start: Option<usize>,
}

impl FileModel {
    /// Diff `old` (`None`: a new file, all lines added) against `new`.
    pub fn compute(old: Option<&str>, new: &str) -> FileModel {
        let old_tokens = old.map(tokens).unwrap_or_default();
        let new_tokens = tokens(new);
        let diffed = super::lines::diff(&old_tokens, &new_tokens);
        let approximate = (diffed.whole > 0).then(|| {
            format!(
                "approximate diff: {} changed region{} too costly to compare line by line shown removed and added whole",
                diffed.whole,
                if diffed.whole == 1 { "" } else { "s" }
            )
        });
        let ops = diffed.ops;
        let (mut added, mut removed) = (0, 0);
        for op in &ops {
            removed += op.old_range().len();
            added += op.new_range().len();
            if let DiffOp::Equal { len, .. } = op {
                removed -= len;
                added -= len;
            }
        }
        let display = |t: &[&str]| {
            t.iter()
                .map(|l| sanitize::line(strip_terminator(l)).into_owned())
                .collect()
        };
        FileModel {
            old: display(&old_tokens),
            new: display(&new_tokens),
            hunks: similar::group_diff_ops(ops, CONTEXT),
            added,
            removed,
            approximate,
            start: old.is_none().then_some(1),
            new_start: None,
        }
    }

    /// The file's line number of line `index` (0-based) of the old text,
    /// when the texts' place in the file is known.
    pub fn old_number(&self, index: usize) -> Option<usize> {
        self.start.map(|s| s + index)
    }

    /// The changed file's line number of line `index` (0-based) of the new
    /// text, when known.
    pub fn new_number(&self, index: usize) -> Option<usize> {
        self.start.map(|s| self.new_start.unwrap_or(s) + index)
    }

    /// Largest line number shown (for the gutter's width); 0 when the
    /// numbers are unknown.
    pub fn max_line_number(&self) -> usize {
        let Some(start) = self.start else {
            return 0;
        };
        let new_start = self.new_start.unwrap_or(start);
        let last = |ops: &Vec<DiffOp>| {
            ops.last().map_or(0, |op| {
                (op.old_range().end + start).max(op.new_range().end + new_start)
            })
        };
        self.hunks.iter().map(last).max().unwrap_or(1).saturating_sub(1)
    }
}

/// Byte ranges to emphasise in a changed pair of lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Emphasis {
    /// Words removed from the old line.
    pub old: Vec<Range<usize>>,
    /// Words added in the new line.
    pub new: Vec<Range<usize>>,
}

/// The word-level emphasis of a changed pair of (sanitized) lines. `None`
/// when the lines have too little in common, or are too long to compare.
pub fn emphasis(old: &str, new: &str) -> Option<Emphasis> {
    if old.len() + new.len() > MAX_EMPHASIS_BYTES || old == new {
        return None;
    }
    let diff = TextDiff::configure()
        .algorithm(Algorithm::Patience)
        .diff_unicode_words(old, new);
    if diff.ratio() < MIN_EMPHASIS_RATIO {
        return None;
    }
    let (mut old_ranges, mut new_ranges) = (Vec::new(), Vec::new());
    let (mut o, mut n) = (0usize, 0usize);
    for change in diff.iter_all_changes() {
        let len = change.value().len();
        match change.tag() {
            ChangeTag::Equal => {
                o += len;
                n += len;
            }
            ChangeTag::Delete => {
                push_range(&mut old_ranges, o..o + len);
                o += len;
            }
            ChangeTag::Insert => {
                push_range(&mut new_ranges, n..n + len);
                n += len;
            }
        }
    }
    Some(Emphasis {
        old: old_ranges,
        new: new_ranges,
    })
}

fn push_range(v: &mut Vec<Range<usize>>, r: Range<usize>) {
    match v.last_mut() {
        Some(last) if last.end == r.start => last.end = r.end,
        _ => v.push(r),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_like_similar() {
        assert_eq!(
            split_lines("a\nb\r\nc\rd"),
            vec!["a\n", "b\r\n", "c\r", "d"]
        );
        assert_eq!(split_lines(""), Vec::<&str>::new());
        assert_eq!(split_lines("\n"), vec!["\n"]);
    }

    #[test]
    fn counts_and_missing_final_newline() {
        let m = FileModel::compute(Some("a\nb\nc"), "a\nB\nc\n");
        assert_eq!((m.added, m.removed), (1, 1));
        assert_eq!(m.new, vec!["a", "B", "c"]);
        assert!(m.approximate.is_none());
        let same = FileModel::compute(Some("x\n"), "x");
        assert!(same.hunks.is_empty());
    }

    #[test]
    fn new_file_is_all_added() {
        let m = FileModel::compute(None, "# New doc\n\nTODO\n");
        assert_eq!((m.added, m.removed), (3, 0));
        assert_eq!(m.hunks.len(), 1);
        assert_eq!(m.max_line_number(), 3);
    }

    #[test]
    fn distant_changes_make_separate_hunks() {
        let old: String = (1..=30).map(|i| format!("line {i}\n")).collect();
        let new = old
            .replace("line 3\n", "line three\n")
            .replace("line 25\n", "line twenty-five\n");
        let m = FileModel::compute(Some(&old), &new);
        assert_eq!(m.hunks.len(), 2);
        assert_eq!((m.added, m.removed), (2, 2));
    }

    #[test]
    fn word_emphasis_marks_changed_words() {
        let e = emphasis("status: draft", "status: reviewed").unwrap();
        assert_eq!(e.old, vec![8..13]);
        assert_eq!(e.new, vec![8..16]);
        assert!(emphasis("completely different", "nothing alike here at all").is_none());
    }

    #[test]
    fn a_big_file_with_one_change_is_exact() {
        let old: String = (0..50_000).map(|i| format!("{i}\n")).collect();
        let new = old.replacen("5000\n", "five thousand\n", 1);
        let m = FileModel::compute(Some(&old), &new);
        assert!(m.approximate.is_none());
        assert_eq!((m.added, m.removed), (1, 1));
        assert_eq!(m.hunks.len(), 1);
    }
}
