//! The message composer of `deck connect`: a multi-line text field with a
//! cursor, the usual line-editing keys (readline and arrow keys), pasted text
//! and a history of what was sent (↑ / ↓ when the field is empty or shows a
//! history entry). Pure: it holds text and answers edits; the app decides
//! what a sent message becomes, and `view::composer` draws it.

use unicode_segmentation::UnicodeSegmentation;

use crate::settings::sent_history::HISTORY_MAX;

#[derive(Debug, Clone, Default)]
pub struct Composer {
    text: String,
    /// Byte offset of the cursor, always on a grapheme boundary.
    cursor: usize,
    /// Sent messages, oldest first.
    history: Vec<String>,
    /// Browsing history: the entry shown, and the draft it replaced.
    browsing: Option<(usize, String)>,
    /// ↑ / ↓ keep the column they started from through shorter lines:
    /// (the cursor they left, that column).
    goal: Option<(usize, usize)>,
    /// Bumped by every edit and move (a drawn layout stays valid while it holds).
    rev: u64,
}

impl Composer {
    pub fn new() -> Composer {
        Composer::default()
    }

    /// A composer that starts with `history` (oldest first).
    pub fn with_history(history: Vec<String>) -> Composer {
        let mut c = Composer::new();
        for h in history {
            c.remember(h);
        }
        c
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// Changes with every edit and cursor move.
    pub fn rev(&self) -> u64 {
        self.rev
    }

    pub fn history(&self) -> &[String] {
        &self.history
    }

    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    /// Whether ↑ / ↓ walk the history rather than the lines.
    fn in_history(&self) -> bool {
        self.text.is_empty() || self.browsing.is_some()
    }

    fn edited(&mut self) {
        self.browsing = None;
    }

    /// Insert text at the cursor. Line ends become `\n`; other control
    /// characters are dropped and tabs become spaces, so nothing typed or
    /// pasted can reach the terminal as a control sequence.
    pub fn insert(&mut self, s: &str) {
        self.rev += 1;
        let clean = clean(s);
        self.text.insert_str(self.cursor, &clean);
        self.cursor += clean.len();
        self.edited();
    }

    pub fn newline(&mut self) {
        self.rev += 1;
        self.insert("\n");
    }

    fn prev_boundary(&self, at: usize) -> usize {
        self.text[..at]
            .grapheme_indices(true)
            .next_back()
            .map_or(0, |(i, _)| i)
    }

    fn next_boundary(&self, at: usize) -> usize {
        self.text[at..]
            .graphemes(true)
            .next()
            .map_or(at, |g| at + g.len())
    }

    pub fn backspace(&mut self) {
        self.rev += 1;
        if self.cursor == 0 {
            return;
        }
        let from = self.prev_boundary(self.cursor);
        self.text.replace_range(from..self.cursor, "");
        self.cursor = from;
        self.edited();
    }

    pub fn delete(&mut self) {
        self.rev += 1;
        let to = self.next_boundary(self.cursor);
        if to > self.cursor {
            self.text.replace_range(self.cursor..to, "");
            self.edited();
        }
    }

    pub fn left(&mut self) {
        self.rev += 1;
        self.cursor = self.prev_boundary(self.cursor);
    }

    pub fn right(&mut self) {
        self.rev += 1;
        self.cursor = self.next_boundary(self.cursor);
    }

    fn line_start(&self) -> usize {
        self.text[..self.cursor].rfind('\n').map_or(0, |i| i + 1)
    }

    fn line_end(&self) -> usize {
        self.text[self.cursor..]
            .find('\n')
            .map_or(self.text.len(), |i| self.cursor + i)
    }

    pub fn home(&mut self) {
        self.rev += 1;
        self.cursor = self.line_start();
    }

    pub fn end(&mut self) {
        self.rev += 1;
        self.cursor = self.line_end();
    }

    /// Start of the word before the cursor (readline's Alt-b / Ctrl-w).
    fn word_start(&self) -> usize {
        let before = &self.text[..self.cursor];
        let trimmed = before.trim_end_matches(|c: char| c.is_whitespace());
        trimmed
            .char_indices()
            .rev()
            .find(|(_, c)| c.is_whitespace())
            .map_or(0, |(i, c)| i + c.len_utf8())
    }

    /// End of the word after the cursor (Alt-f).
    fn word_end(&self) -> usize {
        let after = &self.text[self.cursor..];
        let lead = after.len() - after.trim_start().len();
        let rest = &after[lead..];
        let word = rest.find(char::is_whitespace).unwrap_or(rest.len());
        self.cursor + lead + word
    }

    pub fn word_left(&mut self) {
        self.rev += 1;
        self.cursor = self.word_start();
    }

    pub fn word_right(&mut self) {
        self.rev += 1;
        self.cursor = self.word_end();
    }

    /// Ctrl-w: delete the word before the cursor.
    pub fn kill_word(&mut self) {
        self.rev += 1;
        let from = self.word_start();
        if from < self.cursor {
            self.text.replace_range(from..self.cursor, "");
            self.cursor = from;
            self.edited();
        }
    }

    /// Ctrl-u: delete from the start of the line to the cursor.
    pub fn kill_to_start(&mut self) {
        self.rev += 1;
        let from = self.line_start();
        if from < self.cursor {
            self.text.replace_range(from..self.cursor, "");
            self.cursor = from;
            self.edited();
        }
    }

    /// Ctrl-k: delete from the cursor to the end of the line.
    pub fn kill_to_end(&mut self) {
        self.rev += 1;
        let to = self.line_end();
        if to > self.cursor {
            self.text.replace_range(self.cursor..to, "");
            self.edited();
        }
    }

    pub fn clear(&mut self) {
        self.rev += 1;
        self.text.clear();
        self.cursor = 0;
        self.browsing = None;
    }

    /// Column (in characters) of the cursor in its line.
    fn column(&self) -> usize {
        self.text[self.line_start()..self.cursor].chars().count()
    }

    fn goal_column(&self) -> usize {
        match self.goal {
            Some((at, col)) if at == self.cursor => col,
            _ => self.column(),
        }
    }

    /// Move to `col` characters into the line starting at `start`.
    fn move_to_column(&mut self, start: usize, col: usize) {
        let line = &self.text[start..];
        let line = &line[..line.find('\n').unwrap_or(line.len())];
        let off = line.char_indices().nth(col).map_or(line.len(), |(i, _)| i);
        self.cursor = start + off;
        // Inside a grapheme (a combining mark): back to its start.
        if self.cursor < self.text.len() {
            self.cursor = self.prev_boundary(self.next_boundary(self.cursor));
        }
    }

    /// ↑: the line above, or (empty / browsing) the previous history entry.
    /// False when there is nowhere to go.
    pub fn up(&mut self) -> bool {
        self.rev += 1;
        if self.in_history() {
            return self.history_prev();
        }
        let start = self.line_start();
        if start == 0 {
            return false;
        }
        let col = self.goal_column();
        let prev = self.text[..start - 1].rfind('\n').map_or(0, |i| i + 1);
        self.move_to_column(prev, col);
        self.goal = Some((self.cursor, col));
        true
    }

    /// ↓: the line below, or (browsing) the next history entry, then the draft.
    pub fn down(&mut self) -> bool {
        self.rev += 1;
        if self.browsing.is_some() {
            return self.history_next();
        }
        let end = self.line_end();
        if end == self.text.len() {
            return false;
        }
        let col = self.goal_column();
        self.move_to_column(end + 1, col);
        self.goal = Some((self.cursor, col));
        true
    }

    fn show(&mut self, text: String) {
        self.text = text;
        self.cursor = self.text.len();
    }

    fn history_prev(&mut self) -> bool {
        let at = match &self.browsing {
            Some((i, _)) if *i == 0 => return false,
            Some((i, _)) => i - 1,
            None if self.history.is_empty() => return false,
            None => self.history.len() - 1,
        };
        let draft = match self.browsing.take() {
            Some((_, d)) => d,
            None => std::mem::take(&mut self.text),
        };
        self.show(self.history[at].clone());
        self.browsing = Some((at, draft));
        true
    }

    fn history_next(&mut self) -> bool {
        let Some((i, draft)) = self.browsing.take() else {
            return false;
        };
        if i + 1 < self.history.len() {
            self.show(self.history[i + 1].clone());
            self.browsing = Some((i + 1, draft));
        } else {
            self.show(draft);
        }
        true
    }

    fn remember(&mut self, text: String) {
        if self.history.last() != Some(&text) {
            self.history.push(text);
        }
        if self.history.len() > HISTORY_MAX {
            let extra = self.history.len() - HISTORY_MAX;
            self.history.drain(..extra);
        }
    }

    /// Take the text to send (`None` when only blanks); it joins the history.
    pub fn take(&mut self) -> Option<String> {
        self.rev += 1;
        if self.text.trim().is_empty() {
            return None;
        }
        let text = std::mem::take(&mut self.text);
        self.cursor = 0;
        self.browsing = None;
        self.remember(text.clone());
        Some(text)
    }

    /// The text with the cursor placed back (a send the host refused).
    pub fn restore(&mut self, text: &str) {
        self.rev += 1;
        self.show(text.to_string());
        self.browsing = None;
    }
}

/// Typed or pasted text made safe to hold: `\r\n` and `\r` become `\n`,
/// tabs four spaces, other control characters (escapes included) go.
pub fn clean(s: &str) -> String {
    let s = s.replace("\r\n", "\n").replace('\r', "\n");
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\n' => out.push('\n'),
            '\t' => out.push_str("    "),
            c if c.is_control() => {}
            // Bidi overrides and isolates could reorder what is shown.
            '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typed(s: &str) -> Composer {
        let mut c = Composer::new();
        c.insert(s);
        c
    }

    #[test]
    fn typing_moving_and_deleting() {
        let mut c = typed("hello wörld");
        c.left();
        c.backspace();
        assert_eq!(c.text(), "hello wörd");
        c.home();
        c.delete();
        assert_eq!(c.text(), "ello wörd");
        c.end();
        c.kill_word();
        assert_eq!(c.text(), "ello ");
        c.insert("x");
        c.home();
        c.right();
        c.kill_to_end();
        assert_eq!(c.text(), "e");
        c.kill_to_start();
        assert_eq!(c.text(), "");
        assert_eq!(c.cursor(), 0);
        // Graphemes move and delete whole.
        let mut c = typed("e\u{301}👍🏽");
        c.backspace();
        assert_eq!(c.text(), "e\u{301}");
        c.left();
        assert_eq!(c.cursor(), 0);
    }

    #[test]
    fn words() {
        let mut c = typed("one two  three");
        c.word_left();
        assert_eq!(&c.text()[c.cursor()..], "three");
        c.word_left();
        assert_eq!(&c.text()[c.cursor()..], "two  three");
        c.word_right();
        assert_eq!(&c.text()[c.cursor()..], "  three");
    }

    #[test]
    fn lines_up_and_down_keep_the_column() {
        let mut c = typed("first line\nab\nthird");
        assert!(c.up());
        assert_eq!(
            &c.text()[c.cursor()..],
            "\nthird",
            "end of the shorter line"
        );
        assert!(c.up());
        assert_eq!(
            &c.text()[c.cursor()..],
            " line\nab\nthird",
            "column 5 again"
        );
        assert!(!c.up(), "top line: nowhere to go");
        assert!(c.down());
        assert!(c.down());
        assert_eq!(c.cursor(), c.text().len());
        assert!(!c.down());
        // Moving sideways forgets the column.
        c.up();
        c.left();
        c.up();
        assert_eq!(&c.text()[c.cursor()..], "irst line\nab\nthird");
    }

    #[test]
    fn history_when_empty_then_back_to_the_draft() {
        let mut c = Composer::new();
        assert!(!c.up(), "no history yet");
        for s in ["first", "second\nline"] {
            c.insert(s);
            assert_eq!(c.take().as_deref(), Some(s));
        }
        assert!(c.is_empty());
        assert!(c.up());
        assert_eq!(c.text(), "second\nline");
        assert!(c.up(), "browsing: ↑ goes on through the history");
        assert_eq!(c.text(), "first");
        assert!(!c.up());
        assert!(c.down());
        assert_eq!(c.text(), "second\nline");
        assert!(c.down());
        assert_eq!(c.text(), "");
        // A typed draft is not browsed away: ↑ moves in its lines.
        c.insert("draft");
        assert!(!c.up());
        assert_eq!(c.text(), "draft");
        // Editing a recalled entry ends browsing; sending it adds it again.
        c.clear();
        c.up();
        c.insert("!");
        assert!(!c.down());
        assert_eq!(c.take().as_deref(), Some("second\nline!"));
        assert_eq!(c.history().len(), 3);
        // Blank text is not sent; repeats are kept once.
        c.insert("  \n ");
        assert_eq!(c.take(), None);
        c.clear();
        c.insert("first");
        c.take();
        c.insert("first");
        c.take();
        assert_eq!(c.history().iter().filter(|h| *h == "first").count(), 2);
        assert_eq!(c.history().last().map(String::as_str), Some("first"));
        assert_eq!(c.history().len(), 4);
    }

    #[test]
    fn history_is_bounded() {
        let c = Composer::with_history((0..HISTORY_MAX + 10).map(|i| i.to_string()).collect());
        assert_eq!(c.history().len(), HISTORY_MAX);
        assert_eq!(c.history()[0], "10");
    }

    #[test]
    fn pasted_text_is_cleaned() {
        let c = typed("a\r\nb\rc\td\x1b[31me\x07\u{202E}f");
        assert_eq!(c.text(), "a\nb\nc    d[31mef");
    }
}
