//! Sessions kept in a store rather than a log, read from its path — never
//! from a stream, and never holding the store whole: a database (OpenCode's
//! `opencode.db`: a file whose first bytes are SQLite's is read by the
//! agent whose database it is, [`Agent::database`]), or a tree of files
//! rooted at a small JSON document (OpenCode's older `storage/`, from a
//! session's info file: [`Agent::tree`]). Both give the rows the agent's
//! reader takes, as its lines.
//!
//! [`Agent::database`]: crate::agents::Agent::database
//! [`Agent::tree`]: crate::agents::Agent::tree

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

/// The most a file that roots a tree of files weighs ([`Agent::tree`]).
///
/// [`Agent::tree`]: crate::agents::Agent::tree
const TREE_ROOT_MAX: u64 = 1 << 20;

/// Whether the file at `path` may root an agent's tree of files: a small
/// file whose first byte that is not blank opens a JSON object.
fn may_root_a_tree(path: &Path) -> bool {
    let small = std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() <= TREE_ROOT_MAX);
    let mut head = [0u8; 256];
    small
        && std::fs::File::open(path)
            .and_then(|mut f| f.read(&mut head))
            .is_ok_and(|n| head[..n].iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{'))
}

/// The store at `path` read by the agent whose it is, its sessions'
/// records to `store`; `None`: the file is no database, nor the root of
/// an agent's tree.
pub(super) fn read(path: &str, store: &mut dyn Store) -> Option<Result<Summary, LoadError>> {
    let file = Path::new(path);
    let database = is_database(file);
    if !database && !may_root_a_tree(file) {
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
            // Its first row: the store is this agent's (a store that folds
            // records as they come knows their format from the first).
            if rows == 0 {
                sessions.set_format(agent.format());
            }
            rows += 1;
            let origin = Origin { line: rows, offset: 0 };
            reader.line(&v, origin, &mut out);
            push_out(&mut sessions, &mut out);
        };
        let read = if database {
            agent.database(file, &mut row)
        } else {
            agent.tree(file, &mut row)
        };
        match read {
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
    // A JSON document that roots no tree: the loader reads it as it is.
    database.then(|| {
        Err(LoadError::UnknownFormat {
            path: path.to_string(),
            reason: "a SQLite database that is no agent's session store deck reads".into(),
        })
    })
}

/// The store at `path` loaded whole (its sessions held); `None`: the
/// file is no database, nor the root of an agent's tree.
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
