//! `deck follow` of a log whose agent draws it only once it ends
//! ([`Agent::draws_at_end`]: pi's tree, whose path is the one to its last
//! entry): the file is read again whole each time it changes (its size or
//! time) — the loop a database is followed by ([`follow_reads`]) — and
//! what it makes is sent as a [`LiveEvent::Reset`] for the session followed
//! by its records: the cards `deck view` draws of the file as it is at that
//! moment.
//!
//! [`Agent::draws_at_end`]: crate::agents::Agent::draws_at_end
//! [`LiveEvent::Reset`]: crate::source::live::LiveEvent::Reset

use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::follow_database::{Look, follow_reads};
use crate::agents;
use crate::source::feed::StreamError;
use crate::source::live::LiveTx;

/// How much of a file's start tells its agent.
const HEAD: usize = 64 << 10;

/// Whether the file at `path` is an agent's whose reader draws at the end.
pub(super) fn drawn_at_end(path: &Path) -> bool {
    use std::io::Read;
    let Ok(file) = std::fs::File::open(path) else {
        return false;
    };
    let mut head = Vec::new();
    if file.take(HEAD as u64).read_to_end(&mut head).is_err() {
        return false;
    }
    agents::of_head(&head).is_some_and(|a| a.draws_at_end())
}

/// Follow session `session` (else the file's first) of the log at `path`
/// until the consumer goes away.
pub(super) async fn follow(
    path: PathBuf,
    session: Option<String>,
    poll: Duration,
    tx: &LiveTx,
) -> Result<(), StreamError> {
    follow_reads(path, session, None, poll, tx, look).await
}

/// The session `want` names (else the first) of the log, read whole.
fn look(path: &Path, want: Option<&str>, _dir: Option<&Path>) -> Look {
    let loaded = match super::load_path(&path.to_string_lossy()) {
        Ok(l) => l,
        Err(e) => return Look::Failed(e.to_string()),
    };
    let found = match want {
        Some(id) => loaded.sessions.into_iter().find(|s| s.id.as_deref() == Some(id)),
        None => loaded.sessions.into_iter().next(),
    };
    let Some(s) = found else {
        return Look::Missing;
    };
    // Sent again whenever the file changed: its stamp was, so its rows are
    // taken to have changed too.
    let mut hash = DefaultHasher::new();
    tail_stamp(path).hash(&mut hash);
    Look::Session {
        id: s.id.unwrap_or_default(),
        records: s.records,
        hash: hash.finish(),
    }
}

/// The file's stamp now (what made the loop read it).
fn tail_stamp(path: &Path) -> Option<(u64, i64)> {
    let meta = std::fs::metadata(path).ok()?;
    Some(crate::source::follow::stamp(path, &meta))
}
