//! The last check of a redacted output, one checker for every output:
//! what was written is read back in the form it was written — HTML's
//! text with its entities decoded and its links' targets, an asciicast's
//! JSON strings decoded and its chunks put together, text with its
//! terminal controls dropped — and every row it shows is scanned by the
//! redaction rules, alone and joined to the row before it (a secret a wrap
//! cut in two is found across the cut).
//!
//! Owns reading outputs back; what is a secret is the redactor's.

use crate::text::entities;
use crate::text::redact::{RedactError, Redactor, Tally};

/// How written output is read for the check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// Markup: tags dropped, entities decoded; links' targets too.
    Html,
    /// An asciicast: each event's JSON string decoded, the chunks one
    /// stream of terminal output, controls dropped.
    Cast,
    /// Text, maybe with terminal controls (render's formats).
    Text,
}

/// How much of two rows is joined to look across their junction: more
/// than the longest secret a rule takes in one piece on a row.
const WINDOW: usize = 1024;

/// Reads an output back line by line and collects what the rules find.
pub struct Checker<'r> {
    r: &'r Redactor,
    shape: Shape,
    /// The last row shown, trimmed at its end (for the junction).
    prev: String,
    /// A cast's text after its last line end (the row being drawn).
    pending: String,
    found: Tally,
}

impl<'r> Checker<'r> {
    pub fn new(r: &'r Redactor, shape: Shape) -> Checker<'r> {
        Checker {
            r,
            shape,
            prev: String::new(),
            pending: String::new(),
            found: Tally::default(),
        }
    }

    /// One line of the written output (its line end optional).
    pub fn line(&mut self, line: &str) -> Result<(), RedactError> {
        let line = line.strip_suffix('\n').unwrap_or(line);
        let line = line.strip_suffix('\r').unwrap_or(line);
        match self.shape {
            Shape::Html => {
                let text = entities::decode(&strip_tags(line));
                for row in text.split('\n') {
                    self.row(row)?;
                }
                for target in link_targets(line) {
                    self.alone(&entities::decode(target))?;
                }
            }
            Shape::Text => {
                for row in strip_controls(line).split('\n') {
                    self.row(row)?;
                }
            }
            Shape::Cast => match serde_json::from_str::<serde_json::Value>(line) {
                Ok(serde_json::Value::Array(a)) => {
                    for s in a.iter().filter_map(serde_json::Value::as_str) {
                        self.pending.push_str(&strip_controls(s));
                        if let Some(at) = self.pending.rfind('\n') {
                            let done: String = self.pending.drain(..=at).collect();
                            // The last line end ends the last row; no row after it.
                            for row in done[..at].split('\n') {
                                self.row(row)?;
                            }
                        }
                    }
                }
                // The header (an object: its title, its environment): every
                // string in it, and anything else as it is.
                Ok(v) => {
                    let mut strings = Vec::new();
                    collect_strings(&v, &mut strings);
                    for s in strings {
                        self.alone(&s)?;
                    }
                }
                Err(_) => self.alone(line)?,
            },
        }
        Ok(())
    }

    /// What the rules found in the whole output; empty when nothing.
    pub fn finish(mut self) -> Result<Tally, RedactError> {
        let rest = std::mem::take(&mut self.pending);
        for row in rest.split('\n') {
            self.row(row)?;
        }
        Ok(self.found)
    }

    /// A string checked alone (not part of the rows).
    fn alone(&mut self, s: &str) -> Result<(), RedactError> {
        self.found.merge(&self.r.leaks(s)?);
        Ok(())
    }

    /// One row as shown: alone, then joined to the row before it (their
    /// frames and padding trimmed at the junction), counting only what
    /// crosses the junction: a token cut wherever rows end (the row before
    /// ends with a random-looking run, this one starts with one), and
    /// anything a wrap cut in two where the row says it goes on the one
    /// before (`↪`).
    fn row(&mut self, row: &str) -> Result<(), RedactError> {
        self.found.merge(&self.r.leaks(row)?);
        let (marked, head) = content(row);
        if !self.prev.is_empty() && !head.is_empty() {
            let left = tail(&self.prev, WINDOW);
            let right = lead(head, WINDOW);
            if marked || crate::text::redact::may_continue(left, right) {
                let joined = format!("{left}{right}");
                self.found
                    .merge(&self.r.leaks_across(&joined, left.len(), !marked)?);
            }
        }
        self.prev.clear();
        self.prev
            .push_str(tail(row.trim_end_matches(frame), WINDOW));
        Ok(())
    }
}

/// What frames a row: spaces, box drawing and block elements (card
/// borders and gutters), never part of a secret.
fn frame(c: char) -> bool {
    c.is_whitespace() || ('\u{2500}'..='\u{259f}').contains(&c)
}

/// A row's content after its frame, and whether it is marked as the rest
/// of a wrapped line (`│   ↪ rest`, a diff's `│ ↪ + rest`: the mark and
/// the diff's sign are frame too).
fn content(row: &str) -> (bool, &str) {
    let body = row.trim_start_matches(frame);
    match body.strip_prefix(WRAPPED) {
        Some(rest) => {
            let rest = rest.trim_start_matches(frame);
            let rest = rest
                .strip_prefix("+ ")
                .or_else(|| rest.strip_prefix("- "))
                .unwrap_or(rest);
            (true, rest)
        }
        None => (false, body),
    }
}

/// The mark deck puts before the rest of a wrapped line of code.
const WRAPPED: char = '↪';

/// The last `n` bytes of `s` or fewer, at a character boundary.
fn tail(s: &str, n: usize) -> &str {
    let mut at = s.len().saturating_sub(n);
    while !s.is_char_boundary(at) {
        at += 1;
    }
    &s[at..]
}

/// The first `n` bytes of `s` or fewer, at a character boundary.
fn lead(s: &str, n: usize) -> &str {
    let mut at = s.len().min(n);
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    &s[..at]
}

fn collect_strings(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(a) => a.iter().for_each(|x| collect_strings(x, out)),
        serde_json::Value::Object(o) => o.values().for_each(|x| collect_strings(x, out)),
        _ => {}
    }
}

/// The targets of a line's links (`href="…"`), still entity-encoded.
fn link_targets(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("href=\"") {
        rest = &rest[at + 6..];
        let end = rest.find('"').unwrap_or(rest.len());
        out.push(&rest[..end]);
        rest = &rest[end..];
    }
    out
}

/// `s` without markup tags (`<…>`; text `<` is written `&lt;`).
fn strip_tags(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut in_tag = false;
    for c in s.chars() {
        match (in_tag, c) {
            (false, '<') => in_tag = true,
            (true, '>') => in_tag = false,
            (false, c) => out.push(c),
            _ => {}
        }
    }
    out
}

/// Terminal text as a reader sees it: SGR (styles) dropped, so styled runs
/// join as on screen; other controls (cursor moves, OSC) become line breaks,
/// so what is apart on screen stays apart; an OSC's text (a link's URL) is
/// kept on its own line.
pub fn strip_controls(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        if c != '\u{1b}' {
            if c.is_control() && c != '\n' && c != '\t' {
                out.push('\n');
            } else {
                out.push(c);
            }
            continue;
        }
        match it.next() {
            Some('[') => {
                let mut last = None;
                for d in it.by_ref() {
                    if ('\u{40}'..='\u{7e}').contains(&d) {
                        last = Some(d);
                        break;
                    }
                }
                if last != Some('m') {
                    out.push('\n');
                }
            }
            Some(']') => {
                out.push('\n');
                while let Some(d) = it.next() {
                    if d == '\u{7}' {
                        break;
                    }
                    if d == '\u{1b}' {
                        if it.peek() == Some(&'\\') {
                            it.next();
                        }
                        break;
                    }
                    out.push(d);
                }
                out.push('\n');
            }
            _ => out.push('\n'),
        }
    }
    out
}

/// The kinds the rules find in all of `text` read as `shape`.
pub fn leaks(r: &Redactor, text: &str, shape: Shape) -> Result<Tally, RedactError> {
    let mut c = Checker::new(r, shape);
    for line in text.split_inclusive('\n') {
        c.line(line)?;
    }
    c.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::redact::STOCK;
    use std::sync::OnceLock;

    fn r() -> &'static Redactor {
        static R: OnceLock<Redactor> = OnceLock::new();
        R.get_or_init(|| Redactor::new(STOCK, None).unwrap())
    }

    const TOKEN: &str = "ghp_hViIMTloiODWAnnjzk19iMmmbApegA5uS0il";

    #[test]
    fn html_is_read_as_its_text_and_links() {
        let line = "<span>password=</span><span style=\"x\">&quot;hunter22&quot;</span>";
        assert!(!leaks(r(), line, Shape::Html).unwrap().is_empty());
        let ok = "<span>password=&quot;‹redacted:password›&quot;</span>";
        assert!(leaks(r(), ok, Shape::Html).unwrap().is_empty());
        let link = "<a href=\"https://u:pw1234@x.org/\">x.org</a>";
        assert!(!leaks(r(), link, Shape::Html).unwrap().is_empty());
        // Entities inside a token.
        let t = format!("<p>{}&#95;{}</p>", &TOKEN[..3], &TOKEN[4..]);
        assert!(!leaks(r(), &t, Shape::Html).unwrap().is_empty());
    }

    #[test]
    fn styled_runs_join_and_moves_split() {
        assert_eq!(strip_controls("sk-\u{1b}[31mant\u{1b}[0m"), "sk-ant");
        assert_eq!(strip_controls("a\u{1b}[2;3Hb"), "a\nb");
        assert_eq!(
            strip_controls("\u{1b}]8;;https://x\u{1b}\\link\u{1b}]8;;\u{1b}\\"),
            "\n8;;https://x\nlink\n8;;\n"
        );
    }

    /// A secret a wrap cut over two rows of a card is found across the cut,
    /// in every shape; the same rows apart are not joined into one.
    #[test]
    fn a_secret_wrapped_over_rows_is_found() {
        let (a, b) = TOKEN.split_at(17);
        let text = format!("│ token in output: {a}\n│ {b}        │\n");
        let found = leaks(r(), &text, Shape::Text).unwrap();
        assert_eq!(found.iter().collect::<Vec<_>>(), vec![("github-pat", 1)]);
        let ansi = format!("\u{1b}[2m│\u{1b}[0m {a}\n\u{1b}[2m│\u{1b}[0m {b}\n");
        assert!(!leaks(r(), &ansi, Shape::Text).unwrap().is_empty());
        let html = format!("<div class=\"row\">{a}</div>\n<div class=\"row\">{b}</div>\n");
        assert!(!leaks(r(), &html, Shape::Html).unwrap().is_empty());
        // Rows of a cast screen: one chunk draws a row, a cursor move, the next.
        let cast = format!(
            "{{\"version\": 2, \"width\": 40, \"height\": 10}}\n[0.1, \"o\", \"\\u001b[3;1H{a}\"]\n[0.1, \"o\", \"\\u001b[4;1H{b}\"]\n"
        );
        assert!(!leaks(r(), &cast, Shape::Cast).unwrap().is_empty());
    }

    /// A secret split over two chunks of a cast (and JSON escapes in them).
    #[test]
    fn cast_chunks_are_one_stream() {
        let (a, b) = TOKEN.split_at(9);
        let cast = format!(
            "{{\"version\": 2, \"width\": 80, \"height\": 10}}\n[0.1, \"o\", \"x {a}\"]\n[0.2, \"o\", \"{b}\\r\\n\"]\n"
        );
        assert!(!leaks(r(), &cast, Shape::Cast).unwrap().is_empty());
        let escaped = format!("[0.1, \"o\", \"\\u0067hp_{}\"]\n", &TOKEN[4..]);
        assert!(!leaks(r(), &escaped, Shape::Cast).unwrap().is_empty());
        let header = "{\"version\": 2, \"title\": \"password=hunter22\"}\n";
        assert!(!leaks(r(), header, Shape::Cast).unwrap().is_empty());
    }

    #[test]
    fn redacted_output_passes() {
        let text =
            "│ token: ‹redacted:github-pat›\n│ password=‹redacted:password›\n│ more text here\n";
        assert!(leaks(r(), text, Shape::Text).unwrap().is_empty());
    }
}
