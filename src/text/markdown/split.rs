//! Split points of markdown: places where a text can be cut and its two
//! parts laid out apart — the same rows as laid out whole, with one empty
//! row between the parts. Used to lay out a long text a block at a time
//! (a parse holds the tree of all it parses: about 25 bytes for every byte
//! of a table) and a growing text at the cost of what is new.
//!
//! A split point is the start of a line that follows an empty line, starts
//! at the left margin with something that cannot continue or reshape a
//! block above it (not a list marker, a quote, an HTML tag, a space), and
//! lies outside any fenced code. A link reference definition anywhere
//! (it can change a link above it) means no split points at all.

/// Every split point of `md` after `from` (itself a split point, or 0), in
/// order; `None` when the text from `from` holds a link reference
/// definition. A last line without its newline may still grow: no split
/// point is put before it.
pub fn all(md: &str, from: usize) -> Option<Vec<usize>> {
    let mut out = Vec::new();
    let mut fence: Option<(u8, usize)> = None;
    let mut after_blank = false;
    let mut at = from;
    let mut stopped = false;
    for line in md[from..].split_inclusive('\n') {
        let start = at;
        at += line.len();
        let text = line.trim_end_matches(['\n', '\r']);
        let indent = text.len() - text.trim_start_matches(' ').len();
        let body = &text[indent..];
        if indent <= 3 && is_reference_definition(body) {
            return None;
        }
        if stopped {
            continue;
        }
        if let Some((ch, n)) = fence {
            if indent <= 3 && closes_fence(body, ch, n) {
                fence = None;
            }
            after_blank = false;
            continue;
        }
        if indent <= 3
            && let Some(open) = opens_fence(body)
        {
            fence = Some(open);
            // A fence may start right here, at a split point.
            if after_blank && indent == 0 && start > from {
                out.push(start);
            }
            after_blank = false;
            continue;
        }
        if indent <= 3 && body.starts_with('<') {
            // An HTML block may run over empty lines: no split from here.
            stopped = true;
            continue;
        }
        if text.trim().is_empty() {
            after_blank = true;
            continue;
        }
        // Only a whole line can be a split point: the last one may still grow.
        if after_blank && indent == 0 && line.ends_with('\n') && can_start_alone(body) {
            out.push(start);
        }
        after_blank = false;
    }
    Some(out)
}

/// `[label]: destination` — it can change a link anywhere in the text.
pub fn is_reference_definition(body: &str) -> bool {
    let Some(rest) = body.strip_prefix('[') else {
        return false;
    };
    match rest.find("]:") {
        Some(i) => !rest[..i].contains('[') && !rest[..i].is_empty(),
        None => false,
    }
}

/// A line that starts a block of its own whatever came before the empty
/// line above it: not a list item (it would join a list above and could
/// make it loose), not a quote, not indented, not a tag.
fn can_start_alone(body: &str) -> bool {
    let Some(first) = body.chars().next() else {
        return false;
    };
    if first.is_whitespace() || matches!(first, '>' | '<') {
        return false;
    }
    !is_list_marker(body)
}

fn is_list_marker(body: &str) -> bool {
    let b = body.as_bytes();
    if matches!(b.first(), Some(b'-' | b'*' | b'+'))
        && matches!(b.get(1), None | Some(b' ' | b'\t'))
    {
        return true;
    }
    let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
    (1..=9).contains(&digits)
        && matches!(b.get(digits), Some(b'.' | b')'))
        && matches!(b.get(digits + 1), None | Some(b' ' | b'\t'))
}

/// A fence opening: its character and length.
pub fn opens_fence(body: &str) -> Option<(u8, usize)> {
    let ch = *body.as_bytes().first()?;
    if ch != b'`' && ch != b'~' {
        return None;
    }
    let n = body.bytes().take_while(|&c| c == ch).count();
    // A backtick fence's info string holds no backtick.
    (n >= 3 && !(ch == b'`' && body[n..].contains('`'))).then_some((ch, n))
}

fn closes_fence(body: &str, ch: u8, n: usize) -> bool {
    let m = body.bytes().take_while(|&c| c == ch).count();
    m >= n && body[m..].trim().is_empty()
}

/// The last split point of `md` after `from`, or `from`.
pub fn last(md: &str, from: usize) -> Option<usize> {
    all(md, from).map(|s| s.last().copied().unwrap_or(from))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_only_where_nothing_reaches_back() {
        let md = "para\n\n- item\n\n```\nin\n\nfence\n```\n\nafter\n";
        let at: Vec<&str> = all(md, 0).unwrap().iter().map(|&i| &md[i..]).collect();
        assert_eq!(at, ["```\nin\n\nfence\n```\n\nafter\n", "after\n"]);
        assert_eq!(last(md, 0), Some(md.len() - "after\n".len()));
        // The last line may still grow: no split before it.
        assert_eq!(last("a\n\nb", 0), Some(0));
        assert!(is_reference_definition("[a b]: x"));
        assert!(!is_reference_definition("[a](b): x"));
        assert_eq!(all("x\n\n[r]: /u\n", 0), None);
    }
}
