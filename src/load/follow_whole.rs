//! `deck follow` of a log whose agent draws it only once it ends
//! ([`Agent::draws_at_end`]: pi's tree, whose path is the one to its last
//! entry): the file is read again whole each time it changes (its size or
//! time), and what it makes is sent as a [`LiveEvent::Reset`] for the
//! session followed by its records — the same cards `deck view` draws of
//! the file as it is at that moment. Each read is followed by a rest
//! [`REST`] times as long as it took (at least the poll), so a large file
//! written to without pause never takes most of a core; what deck holds is
//! one read's records at a time. A file not there (yet, or any more) is
//! waited for, said once.
//!
//! [`Agent::draws_at_end`]: crate::agents::Agent::draws_at_end

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::agents;
use crate::source::feed::StreamError;
use crate::source::follow::{self as tail};
use crate::source::live::{LinkStatus, LiveEvent, LiveTx};

/// Each read is followed by a rest this many times as long as it took.
const REST: u32 = 4;

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
    let shown = path.display().to_string();
    let mut seen: Option<(u64, i64)> = None;
    let mut live = false;
    let mut said_gone = false;
    let mut failed: Option<String> = None;
    tx.status(LinkStatus::Connecting { attempt: 1 }).await?;
    loop {
        let mut rest = poll;
        match std::fs::metadata(&path) {
            Err(e) => {
                if !std::mem::replace(&mut said_gone, true) {
                    tx.diagnostic(format!("{shown}: {e}; waiting for it to come back"))
                        .await?;
                }
            }
            Ok(meta) if Some(tail::stamp(&path, &meta)) != seen => {
                said_gone = false;
                seen = Some(tail::stamp(&path, &meta));
                let started = Instant::now();
                let (p, want) = (path.clone(), session.clone());
                let read = tokio::task::spawn_blocking(move || {
                    let loaded = super::load_path(&p.to_string_lossy()).map_err(|e| e.to_string())?;
                    let found = match want.as_deref() {
                        Some(id) => loaded.sessions.into_iter().find(|s| s.id.as_deref() == Some(id)),
                        None => loaded.sessions.into_iter().next(),
                    };
                    let Some(s) = found else {
                        return Err(match want {
                            Some(id) => format!("no session {id} in it (yet)"),
                            None => "no session in it (yet)".to_string(),
                        });
                    };
                    Ok((s.id, s.records))
                })
                .await
                .unwrap_or_else(|e| Err(e.to_string()));
                rest = rest.max(started.elapsed() * REST);
                match read {
                    Ok((id, records)) => {
                        failed = None;
                        if !std::mem::replace(&mut live, true) {
                            tx.status(LinkStatus::Live).await?;
                        }
                        tx.send(LiveEvent::Reset { session_id: id }).await?;
                        tx.records(records).await?;
                    }
                    Err(why) => {
                        if failed.as_ref() != Some(&why) {
                            tx.diagnostic(format!("{shown}: {why}")).await?;
                            failed = Some(why);
                        }
                    }
                }
            }
            Ok(_) => {}
        }
        if tail::wait(tx, rest).await {
            return Ok(());
        }
    }
}
