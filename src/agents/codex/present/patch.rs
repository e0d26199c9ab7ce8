//! Codex's patch envelope (`*** Begin Patch` … `*** End Patch`, the input
//! of its freeform patch tool) and the unified diffs of its `FileChange`
//! records, read into per-file operations with their hunks as old/new text
//! pairs: what the diff card draws.

/// What a patch does to one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Op {
    /// A new file with this content.
    Add(String),
    /// The file removed.
    Delete,
    /// Hunks changed; `Some(to)`: the file also moved there.
    Update {
        hunks: Vec<Hunk>,
        move_to: Option<String>,
    },
}

/// One hunk: the lines it replaces and the lines that replace them, and
/// where they are in the file before and after, when a unified diff's
/// header (`@@ -a,b +c,d @@`) says (a patch envelope's `@@` does not).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Hunk {
    pub old: String,
    pub new: String,
    /// The old file's line number of `old`'s first line.
    pub old_start: Option<u64>,
    /// The new file's line number of `new`'s first line.
    pub new_start: Option<u64>,
}

impl Hunk {
    /// Whether it has lines (a header alone is no hunk).
    fn has_lines(&self) -> bool {
        !self.old.is_empty() || !self.new.is_empty()
    }
}

/// One file's change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileOp {
    pub path: String,
    pub op: Op,
}

/// Read a patch envelope. Lenient: lines outside a file section are
/// skipped, a missing `*** End Patch` is fine; `None` when no file section
/// is found.
pub fn parse(text: &str) -> Option<Vec<FileOp>> {
    let mut files: Vec<FileOp> = Vec::new();
    let mut hunk: Option<Hunk> = None;
    for line in text.lines() {
        if let Some(path) = line.strip_prefix("*** Add File: ") {
            flush(&mut files, &mut hunk);
            files.push(FileOp {
                path: path.trim().to_string(),
                op: Op::Add(String::new()),
            });
        } else if let Some(path) = line.strip_prefix("*** Delete File: ") {
            flush(&mut files, &mut hunk);
            files.push(FileOp {
                path: path.trim().to_string(),
                op: Op::Delete,
            });
        } else if let Some(path) = line.strip_prefix("*** Update File: ") {
            flush(&mut files, &mut hunk);
            files.push(FileOp {
                path: path.trim().to_string(),
                op: Op::Update {
                    hunks: Vec::new(),
                    move_to: None,
                },
            });
        } else if let Some(to) = line.strip_prefix("*** Move to: ") {
            if let Some(FileOp {
                op: Op::Update { move_to, .. },
                ..
            }) = files.last_mut()
            {
                *move_to = Some(to.trim().to_string());
            }
        } else if line.starts_with("*** ") {
            // `*** End of File`, `*** End Patch`, `*** Begin Patch`.
            if line.starts_with("*** End Patch") {
                flush(&mut files, &mut hunk);
            }
        } else {
            match files.last_mut().map(|f| &mut f.op) {
                Some(Op::Add(content)) => {
                    if let Some(l) = line.strip_prefix('+') {
                        content.push_str(l);
                        content.push('\n');
                    }
                }
                Some(Op::Update { hunks, .. }) => {
                    if line.starts_with("@@") {
                        if let Some(h) = hunk.take().filter(Hunk::has_lines) {
                            hunks.push(h);
                        }
                        hunk = Some(Hunk::default());
                    } else {
                        hunk_line(hunk.get_or_insert_with(Hunk::default), line);
                    }
                }
                _ => {}
            }
        }
    }
    flush(&mut files, &mut hunk);
    (!files.is_empty()).then_some(files)
}

/// Close the open hunk into the last file.
fn flush(files: &mut [FileOp], hunk: &mut Option<Hunk>) {
    let Some(h) = hunk.take().filter(Hunk::has_lines) else {
        return;
    };
    if let Some(FileOp {
        op: Op::Update { hunks, .. },
        ..
    }) = files.last_mut()
    {
        hunks.push(h);
    }
}

/// One line of a hunk body: ` ` context, `-` removed, `+` added.
fn hunk_line(h: &mut Hunk, line: &str) {
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
    fn every_operation() {
        let p = "*** Begin Patch\n*** Add File: a.txt\n+one\n+two\n*** Delete File: b.txt\n*** Update File: c.rs\n*** Move to: d.rs\n@@ fn x\n ctx\n-old\n+new\n@@\n-x\n+y\n*** End of File\n*** End Patch\n";
        let ops = parse(p).expect("ops");
        assert_eq!(ops.len(), 3);
        assert_eq!(ops[0].op, Op::Add("one\ntwo\n".into()));
        assert_eq!(ops[1].op, Op::Delete);
        let Op::Update { hunks, move_to } = &ops[2].op else {
            panic!("{:?}", ops[2]);
        };
        assert_eq!(move_to.as_deref(), Some("d.rs"));
        assert_eq!(
            hunks,
            &[
                Hunk {
                    old: "ctx\nold\n".into(),
                    new: "ctx\nnew\n".into(),
                    ..Hunk::default()
                },
                Hunk {
                    old: "x\n".into(),
                    new: "y\n".into(),
                    ..Hunk::default()
                }
            ]
        );
    }

    #[test]
    fn not_a_patch() {
        assert_eq!(parse(""), None);
        assert_eq!(parse("hello\n+x"), None);
        assert_eq!(parse("*** Begin Patch\n*** End Patch"), None);
    }

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
