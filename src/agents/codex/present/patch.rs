//! Codex's patch envelope (`*** Begin Patch` … `*** End Patch`, the input
//! of its freeform patch tool) and the unified diffs of its `FileChange`
//! records, read into per-file operations with their hunks as old/new text
//! pairs: what the diff card draws (unified diffs: `agents::unified`).

use crate::agents::unified::{Hunk, hunk_line};

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
}
