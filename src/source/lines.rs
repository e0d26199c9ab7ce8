//! Lines of a byte stream: [`LineSplitter`] cuts bytes that arrive in
//! pieces into complete lines (a partial last line is held until its
//! newline comes; a line over the limit is cut to its head, and
//! [`cut_diagnostic`] says so), counting line numbers and byte offsets
//! for the [`Origin`] of each. What a line says is the loader's to decode
//! (`load::decode`). No I/O here.

use crate::wire::{Diagnostic, Origin};

/// How much of a line a diagnostic's reason quotes.
const QUOTE: usize = 80;

/// A line's text, sanitized and cut to what a diagnostic's reason quotes.
pub(crate) fn quote(s: &str) -> String {
    crate::text::wrap::truncate_str(&crate::text::sanitize::inline(s), QUOTE)
}

/// A line handed out by [`LineSplitter`]: `raw` is the whole line, or for
/// a line cut at the limit its first bytes, with `cut` its whole length.
#[derive(Debug, Clone, Copy)]
pub struct Piece<'a> {
    pub raw: &'a [u8],
    pub origin: Origin,
    /// The line was longer than the limit: its length in bytes.
    pub cut: Option<u64>,
}

/// The diagnostic of a line cut at the limit (`head`: its first bytes).
pub fn cut_diagnostic(head: &[u8], len: u64, origin: Origin, limit: usize, ended: bool) -> Diagnostic {
    Diagnostic {
        origin,
        reason: super::limits::cut_reason(len, limit, ended),
        raw: String::from_utf8_lossy(head).into_owned(),
    }
}

/// Cuts bytes arriving in pieces into lines, counting lines and byte
/// offsets from the start of the stream. A line longer than the limit is
/// not held: its first [`CUT_HEAD`](super::limits::CUT_HEAD) bytes are
/// kept, the rest counted and dropped until its newline.
#[derive(Debug)]
pub struct LineSplitter {
    partial: Vec<u8>,
    line: usize,
    offset: u64,
    limit: usize,
    /// The line being skipped: its length so far (`partial` holds its head).
    skipped: Option<u64>,
}

impl Default for LineSplitter {
    fn default() -> Self {
        LineSplitter::with_limit(super::limits::max_line())
    }
}

impl LineSplitter {
    pub fn new() -> LineSplitter {
        LineSplitter::default()
    }

    /// A splitter with its own line limit (bytes).
    pub fn with_limit(limit: usize) -> LineSplitter {
        LineSplitter {
            partial: Vec::new(),
            line: 0,
            offset: 0,
            limit: limit.max(1),
            skipped: None,
        }
    }

    /// A splitter for bytes that start after `line` lines and `offset` bytes
    /// of a stream (one block of a file decoded on its own).
    pub fn starting_at(line: usize, offset: u64, limit: usize) -> LineSplitter {
        LineSplitter {
            line,
            offset,
            ..LineSplitter::with_limit(limit)
        }
    }

    /// The line limit in bytes.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// Feed bytes; `f` gets every line completed by them.
    pub fn feed(&mut self, mut bytes: &[u8], mut f: impl FnMut(Piece<'_>)) {
        while let Some(nl) = memchr::memchr(b'\n', bytes) {
            let (head, rest) = bytes.split_at(nl);
            bytes = &rest[1..];
            self.line += 1;
            let origin = Origin {
                line: self.line,
                offset: self.offset,
            };
            if let Some(len) = self.skipped.take() {
                let len = len + head.len() as u64;
                self.offset += len + 1;
                let kept = std::mem::take(&mut self.partial);
                f(Piece {
                    raw: &kept,
                    origin,
                    cut: Some(len),
                });
            } else if self.partial.is_empty() && head.len() <= self.limit {
                self.offset += head.len() as u64 + 1;
                f(Piece {
                    raw: head,
                    origin,
                    cut: None,
                });
            } else if self.partial.len() + head.len() <= self.limit {
                self.partial.extend_from_slice(head);
                let whole = std::mem::take(&mut self.partial);
                self.offset += whole.len() as u64 + 1;
                f(Piece {
                    raw: &whole,
                    origin,
                    cut: None,
                });
            } else {
                let len = (self.partial.len() + head.len()) as u64;
                self.keep_head(head);
                self.offset += len + 1;
                let kept = std::mem::take(&mut self.partial);
                f(Piece {
                    raw: &kept,
                    origin,
                    cut: Some(len),
                });
            }
        }
        if bytes.is_empty() {
            return;
        }
        match &mut self.skipped {
            Some(len) => *len += bytes.len() as u64,
            None if self.partial.len() + bytes.len() <= self.limit => {
                if self.partial.len() + bytes.len() > self.partial.capacity()
                    && self.partial.len() >= 1 << 20
                {
                    // A long line: room for the limit once (used as it is
                    // read), never a copy per doubling.
                    self.partial.reserve_exact(self.limit - self.partial.len());
                }
                self.partial.extend_from_slice(bytes)
            }
            None => {
                let len = (self.partial.len() + bytes.len()) as u64;
                self.keep_head(bytes);
                self.skipped = Some(len);
            }
        }
    }

    /// Cut the partial line to its head, taking what `more` adds to it.
    fn keep_head(&mut self, more: &[u8]) {
        let head = super::limits::CUT_HEAD.min(self.limit);
        if self.partial.len() < head {
            let take = (head - self.partial.len()).min(more.len());
            self.partial.extend_from_slice(&more[..take]);
        }
        self.partial.truncate(head);
        self.partial.shrink_to_fit();
    }

    /// Bytes of an unfinished last line held back (for a line being cut,
    /// the head kept).
    #[cfg(any(test, feature = "internals"))]
    pub fn pending(&self) -> usize {
        self.partial.len()
    }

    /// End of stream: hand out an unfinished last line, if any.
    pub fn finish(&mut self, mut f: impl FnMut(Piece<'_>)) {
        if self.partial.is_empty() && self.skipped.is_none() {
            return;
        }
        self.line += 1;
        let origin = Origin {
            line: self.line,
            offset: self.offset,
        };
        let whole = std::mem::take(&mut self.partial);
        let cut = self.skipped.take();
        self.offset += cut.unwrap_or(whole.len() as u64);
        f(Piece {
            raw: &whole,
            origin,
            cut,
        });
    }

    /// Start over (a truncated file is read again from its start).
    pub fn reset(&mut self) {
        *self = LineSplitter::with_limit(self.limit);
    }

    /// Lines completed so far.
    #[cfg(any(test, feature = "internals"))]
    pub fn lines(&self) -> usize {
        self.line
    }
}

#[cfg(test)]
mod tests;
