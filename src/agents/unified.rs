//! Unified diffs as agents' logs hold them (Codex's `FileChange`
//! records, Gemini CLI's `fileDiff`): hunks read into old/new text pairs
//! with where each starts in the file, what the diff card draws.

/// One hunk: the lines it replaces and the lines that replace them, and
/// where they are in the file before and after, when a unified diff's
/// header (`@@ -a,b +c,d @@`) says (a patch envelope's `@@` does not).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Hunk {
    /// The lines it replaces (context included), each ending in `\n`.
    pub old: String,
    /// The lines that replace them.
    pub new: String,
    /// The old file's line number of `old`'s first line.
    pub old_start: Option<u64>,
    /// The new file's line number of `new`'s first line.
    pub new_start: Option<u64>,
}

impl Hunk {
    /// Whether it has lines (a header alone is no hunk).
    pub fn has_lines(&self) -> bool {
        !self.old.is_empty() || !self.new.is_empty()
    }
}

/// One line of a hunk body: ` ` context, `-` removed, `+` added.
pub fn hunk_line(h: &mut Hunk, line: &str) {
    let push = |s: &mut String, l: &str| {
        s.push_str(l);
        s.push('\n');
    };
    if let Some(l) = line.strip_prefix('+') {
        push(&mut h.new, l);
    } else if let Some(l) = line.strip_prefix('-') {
        push(&mut h.old, l);
    } else {
        let l = line.strip_prefix(' ').unwrap_or(line);
        push(&mut h.old, l);
        push(&mut h.new, l);
    }
}

/// The hunks of a unified diff (`@@ -a,b +c,d @@` headers: where each
/// starts; `\ No newline` markers skipped).
pub fn unified_hunks(diff: &str) -> Vec<Hunk> {
    let mut hunks = Vec::new();
    let mut hunk: Option<Hunk> = None;
    for line in diff.lines() {
        if line.starts_with("@@") {
            hunks.extend(hunk.take().filter(Hunk::has_lines));
            let (old_start, new_start) = header_starts(line).unzip();
            hunk = Some(Hunk {
                old_start,
                new_start,
                ..Hunk::default()
            });
        } else if (line.starts_with("---") || line.starts_with("+++")) && hunk.is_none()
            || line.starts_with('\\')
        {
            continue;
        } else if let Some(h) = hunk.as_mut() {
            hunk_line(h, line);
        }
    }
    hunks.extend(hunk.filter(Hunk::has_lines));
    hunks
}

/// Where a unified diff's hunk starts on each side: `@@ -a,b +c,d @@`
/// (a count left out is 1). A side of no lines (`-a,0`) names the line
/// before the place: its text, empty, starts on the next. `None` when the
/// header is not one.
fn header_starts(line: &str) -> Option<(u64, u64)> {
    let rest = line.strip_prefix("@@ -")?;
    let (old, rest) = rest.split_once(" +")?;
    let (new, _) = rest.split_once(" @@")?;
    let start = |range: &str| -> Option<u64> {
        let (at, count) = match range.split_once(',') {
            Some((a, c)) => (a.parse::<u64>().ok()?, c.parse::<u64>().ok()?),
            None => (range.parse::<u64>().ok()?, 1),
        };
        Some(if count == 0 { at.saturating_add(1) } else { at })
    };
    Some((start(old)?, start(new)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unified() {
        let h = unified_hunks("@@ -9,3 +9,3 @@\n a\n-b\n+c\n \n@@ -20 +22 @@\n-x\n\\ No newline at end of file\n+y\n");
        assert_eq!(h.len(), 2);
        assert_eq!(h[0].old, "a\nb\n\n");
        assert_eq!(h[0].new, "a\nc\n\n");
        assert_eq!((h[0].old_start, h[0].new_start), (Some(9), Some(9)));
        assert_eq!(h[1].new, "y\n");
        assert_eq!((h[1].old_start, h[1].new_start), (Some(20), Some(22)));
        // Codex's FileChange of a new file; a header that is none.
        let h = unified_hunks("@@ -0,0 +1,2 @@\n+a\n+b\n@@ nope @@\n x\n");
        assert_eq!((h[0].old_start, h[0].new_start), (Some(1), Some(1)));
        assert_eq!((h[1].old_start, h[1].new_start), (None, None));
        assert_eq!(h[1].old, "x\n");
    }
}
