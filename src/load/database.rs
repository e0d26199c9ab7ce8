//! Sessions kept in a database rather than a log (OpenCode's
//! `opencode.db`): a file whose first bytes are SQLite's is read by the
//! agent whose database it is ([`Agent::database`]: its rows, as the lines
//! its reader takes), from its path — never from a stream, and never
//! holding the database whole.
//!
//! [`Agent::database`]: crate::agents::Agent::database

use std::io::Read;
use std::path::Path;

use super::group::{Collected, Sessions, Store};
use super::{LoadError, Loaded, Summary, push_out};
use crate::agents::read::Out;
use crate::wire::Origin;

/// The first bytes of every SQLite database file.
pub(super) const SQLITE_MAGIC: &[u8; 16] = b"SQLite format 3\0";

/// Whether the file at `path` is a SQLite database (its first bytes).
pub(super) fn is_database(path: &Path) -> bool {
    let mut magic = [0u8; 16];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut magic))
        .is_ok_and(|()| &magic == SQLITE_MAGIC)
}

/// The database at `path` read by the agent whose it is, its sessions'
/// records to `store`; `None`: the file is no database.
pub(super) fn read(path: &str, store: &mut dyn Store) -> Option<Result<Summary, LoadError>> {
    let file = Path::new(path);
    if !is_database(file) {
        return None;
    }
    let mut sessions = Sessions::new(store);
    for agent in crate::agents::ALL {
        let Some(mut reader) = agent.reader() else {
            continue;
        };
        let mut out = Out::new();
        let mut rows = 0usize;
        let mut row = |v: serde_json::Value| {
            rows += 1;
            let origin = Origin { line: rows, offset: 0 };
            reader.line(&v, origin, &mut out);
            push_out(&mut sessions, &mut out);
        };
        match agent.database(file, &mut row) {
            None => continue,
            Some(Err(reason)) => {
                return Some(Err(LoadError::Damaged {
                    path: path.to_string(),
                    reason,
                }));
            }
            Some(Ok(())) => {
                reader.finish(&mut out);
                push_out(&mut sessions, &mut out);
                sessions.set_format(agent.format());
                return Some(Ok(Summary {
                    format: agent.format(),
                    compressed: false,
                    lines: rows,
                }));
            }
        }
    }
    Some(Err(LoadError::UnknownFormat {
        path: path.to_string(),
        reason: "a SQLite database that is no agent's session store deck reads".into(),
    }))
}

/// The database at `path` loaded whole (its sessions held); `None`: the
/// file is no database.
pub(super) fn load(path: &str) -> Option<Result<Loaded, LoadError>> {
    let mut held = Collected::default();
    let read = read(path, &mut held)?;
    Some(read.map(|s| Loaded {
        name: path.to_string(),
        format: s.format,
        compressed: false,
        sessions: held.finish(),
        lines: s.lines,
    }))
}
