//! One session file read for the library: loaded and folded exactly as
//! `deck view` folds it (same loader, same reducer, same presenters), into
//! its rows and searchable entries ([`super::entries`]): as it is read
//! ([`super::fold`]), or whole when it must be. A file that cannot be read
//! is still a row, with its problem, and no docs.

use super::discover::Found;
pub use super::entries::{Doc, Entry, FileRead, SessionRow};
use super::entries::{agent_of, docs, no_session, row};
use crate::session::{Outline, Transcript};
use crate::source;

/// Read `found` up to the size it has when its read begins (what a writer
/// appends meanwhile is not chased): its sessions' rows, each searchable
/// entry handed to `out` as it is made (not all held at once).
///
/// The file is folded as it is read ([`super::fold`]): an entry is made
/// once its item is done and far enough behind the fold, and the item let
/// go of. When the fold comes back to an item it let go of (or the file
/// needs its sessions whole: events out of seq order, a Claude Code
/// session with subagents beside it), `out` is told [`Entry::Again`] and
/// the file is read again whole, as `deck view` reads it.
pub fn read(found: &Found, out: &mut dyn FnMut(Entry)) -> FileRead {
    read_with(found, Some(super::fold::Limits::default()), out)
}

/// [`read`] with the fold's limits given; `None`: read whole.
pub(crate) fn read_with(
    found: &Found,
    limits: Option<super::fold::Limits>,
    out: &mut dyn FnMut(Entry),
) -> FileRead {
    let path = found.path.to_string_lossy().into_owned();
    let opened = std::fs::File::open(&found.path).and_then(|f| Ok((f.metadata()?, f)));
    let (meta, file) = match opened {
        Ok(o) => o,
        Err(source) => {
            let e = source::LoadError::Io {
                path: path.clone(),
                source,
            };
            return FileRead {
                rows: vec![problem_row(found, path, found.size, &e)],
                size: found.size,
                mtime_ns: found.mtime_ns,
            };
        }
    };
    let (size, mtime_ns) = super::discover::stamp(&found.path, &meta);
    let streamed = match (limits, super::fold::whole_needed(&found.path)) {
        (None, _) => None,
        (Some(_), Some(why)) => {
            tracing::debug!(input = %path, why = %why.0, "reading the file whole");
            None
        }
        (Some(limits), None) => Some(super::fold::stream(&path, &file, size, limits, out)),
    };
    let rows = match streamed {
        Some(Ok(Ok(s))) => {
            tracing::debug!(input = %path, most_held = s.most_held, "folded as read");
            s.rows
        }
        Some(Ok(Err(e))) => vec![problem_row(found, path, size, &e)],
        Some(Err(why)) => {
            tracing::info!(input = %path, why = %why.0, "reading the file again whole");
            out(Entry::Again);
            whole(found, path, file, size, out)
        }
        None => whole(found, path, file, size, out),
    };
    FileRead {
        rows,
        size,
        mtime_ns,
    }
}

/// The file read whole and its sessions folded one at a time, as `deck
/// view` reads it.
fn whole(
    found: &Found,
    path: String,
    mut file: std::fs::File,
    size: u64,
    out: &mut dyn FnMut(Entry),
) -> Vec<SessionRow> {
    use std::io::Seek;
    let loaded = match file.seek(std::io::SeekFrom::Start(0)) {
        Ok(_) => source::load_file_upto(&path, file, size),
        Err(source) => Err(source::LoadError::Io {
            path: path.clone(),
            source,
        }),
    };
    match loaded {
        Ok(l) => rows(l, path, size, out),
        Err(e) => vec![problem_row(found, path, size, &e)],
    }
}

/// The row of a file that could not be read.
fn problem_row(found: &Found, path: String, size: u64, e: &source::LoadError) -> SessionRow {
    SessionRow {
        agent: found.agent.unwrap_or("unknown").to_string(),
        path,
        bytes: size,
        problem: Some(e.to_string()),
        ..SessionRow::default()
    }
}

/// The rows of what was loaded of a file of `size` bytes, its entries to
/// `out`.
fn rows(
    loaded: source::Loaded,
    path: String,
    size: u64,
    out: &mut dyn FnMut(Entry),
) -> Vec<SessionRow> {
    let agent = agent_of(loaded.format);
    let mut rows = Vec::new();
    let none = loaded.sessions.is_empty();
    // One session at a time, its records given to the fold (each dropped
    // once folded): the records and the transcript they make are never
    // both held whole, nor the sessions done.
    for s in loaded.sessions {
        let outline = Outline::of(&s.records);
        let t = Transcript::from_records(s.id.clone(), s.records, crate::agents::stock());
        rows.push(row(&t, outline.title, agent, &path, size));
        for i in 0..t.items().len() {
            for d in docs(&t, agent, i) {
                out(Entry::Doc(d));
            }
        }
    }
    if none {
        rows.push(no_session(agent, path, size));
    }
    rows
}
