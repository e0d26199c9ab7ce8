//! `deck follow` of a database (OpenCode's `opencode.db`): one session of
//! it, read again whenever the database or its write-ahead log changes.
//! The loop ([`follow_reads`]) also follows a log read again whole as it
//! grows (`follow_whole`: pi's).
//!
//! The agent reads the session ([`Agent::database_session`]: read-only, one
//! short transaction, never waiting long on the agent's writes); its rows
//! go through the agent's reader, and what they make is sent as a
//! [`LiveEvent::Reset`] for the session followed by its records — the
//! agent updates rows in place (a call's part when it completes), so the
//! session is read whole each time rather than its new rows appended. The
//! database's stamp (size and time, its `-wal`'s folded in:
//! [`tail::stamp`]) is looked at every poll; a read is made only when it
//! changed, and sent only when the session's rows did (another session's
//! writes change the file too). What deck holds is one session's records
//! at a time. The session is `--session ID`'s, else the newest (of the
//! directory `--latest` names): once found, that one is followed.
//!
//! A busy database is looked at again on the next poll (a diagnostic only
//! when it stays busy); a session that goes away, or a file that is no
//! agent's database, ends the follow with a diagnostic saying so.

use std::hash::{DefaultHasher, Hasher};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::agents::read::Out;
use crate::agents::{self, DatabaseRead, SessionPick};
use crate::source::feed::StreamError;
use crate::source::follow::{self as tail};
use crate::source::live::{LinkStatus, LiveEvent, LiveTx};
use crate::wire::{Origin, Record};

/// How long a database may stay busy before deck says so.
const BUSY_SAID: Duration = Duration::from_secs(5);

/// Each read is followed by a rest this many times as long as it took (at
/// least the poll): a long session read again and again while its agent
/// writes never takes most of a core.
const REST: u32 = 4;

/// What a look at the followed file found.
pub(super) enum Look {
    /// The session, read: its id, its records, a hash of its rows.
    Session {
        id: String,
        records: Vec<Record>,
        hash: u64,
    },
    Missing,
    Busy,
    Failed(String),
    /// No agent's database.
    NotOurs,
}

/// Follow session `session` (else the newest, of `dir` when given) of the
/// database at `path` until the consumer goes away, the session does or
/// the file is no agent's database.
pub(super) async fn follow(
    path: PathBuf,
    session: Option<String>,
    dir: Option<PathBuf>,
    poll: Duration,
    tx: &LiveTx,
) -> Result<(), StreamError> {
    follow_reads(path, session, dir, poll, tx, look).await
}

/// Follow a file read again whole whenever its stamp changes: `look` reads
/// session `want` (else the newest, of `dir`) of it; each change of the
/// session's rows is sent as a reset and its records.
pub(super) async fn follow_reads(
    path: PathBuf,
    session: Option<String>,
    dir: Option<PathBuf>,
    poll: Duration,
    tx: &LiveTx,
    look: fn(&Path, Option<&str>, Option<&Path>) -> Look,
) -> Result<(), StreamError> {
    let shown = path.display().to_string();
    let mut want = session;
    let mut read_once = false;
    let mut seen: Option<(u64, i64)> = None;
    let mut sent: Option<u64> = None;
    let mut busy: Option<Instant> = None;
    let mut said_busy = false;
    let mut said_missing = false;
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
                let stamp = tail::stamp(&path, &meta);
                let started = Instant::now();
                let (p, w, d) = (path.clone(), want.clone(), dir.clone());
                let look = tokio::task::spawn_blocking(move || look(&p, w.as_deref(), d.as_deref()))
                    .await
                    .unwrap_or_else(|e| Look::Failed(e.to_string()));
                rest = rest.max(started.elapsed() * REST);
                if !matches!(look, Look::Busy) {
                    seen = Some(stamp);
                    busy = None;
                    said_busy = false;
                }
                match look {
                    Look::Session { id, records, hash } => {
                        failed = None;
                        if !read_once {
                            read_once = true;
                            if said_missing {
                                tx.diagnostic(format!("following session {id} of {shown}"))
                                    .await?;
                            }
                            tx.status(LinkStatus::Live).await?;
                        }
                        // (A log may name no session: its id is then empty.)
                        let id = (!id.is_empty()).then_some(id);
                        if sent != Some(hash) {
                            sent = Some(hash);
                            tx.send(LiveEvent::Reset {
                                session_id: id.clone(),
                            })
                            .await?;
                            tx.records(records).await?;
                        }
                        if id.is_some() {
                            want = id;
                        }
                    }
                    Look::Missing => match &want {
                        Some(id) => {
                            let why = if read_once {
                                format!("session {id} is no longer in {shown}: the follow ends")
                            } else {
                                format!("no session {id} in {shown}")
                            };
                            return end(tx, why).await;
                        }
                        None => {
                            if !std::mem::replace(&mut said_missing, true) {
                                let of = dir
                                    .as_deref()
                                    .map(|d| format!(" of {}", d.display()))
                                    .unwrap_or_default();
                                tx.diagnostic(format!(
                                    "no session{of} in {shown} yet; waiting for one to appear"
                                ))
                                .await?;
                            }
                        }
                    },
                    Look::Busy => {
                        let since = *busy.get_or_insert_with(Instant::now);
                        if since.elapsed() >= BUSY_SAID && !std::mem::replace(&mut said_busy, true)
                        {
                            tx.diagnostic(format!(
                                "{shown} has been busy (its agent writing) for {} s: still trying",
                                BUSY_SAID.as_secs()
                            ))
                            .await?;
                        }
                    }
                    Look::Failed(why) => {
                        if failed.as_ref() != Some(&why) {
                            tx.diagnostic(format!("{shown}: {why}")).await?;
                            failed = Some(why);
                        }
                    }
                    Look::NotOurs => {
                        return end(
                            tx,
                            format!("{shown} is a database but no agent's session store deck reads"),
                        )
                        .await;
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

/// The follow ends, saying why.
async fn end(tx: &LiveTx, why: String) -> Result<(), StreamError> {
    tx.diagnostic(why).await?;
    tx.status(LinkStatus::Ended).await?;
    Ok(())
}

/// The session `want` names (else the newest, of `dir` when given) read by
/// the agent whose database `path` is.
fn look(path: &Path, want: Option<&str>, dir: Option<&Path>) -> Look {
    let pick = match want {
        Some(id) => SessionPick::Id(id),
        None => SessionPick::Newest(dir),
    };
    for agent in agents::ALL {
        let Some(mut reader) = agent.reader() else {
            continue;
        };
        let mut out = Out::new();
        let mut hash = DefaultHasher::new();
        let mut rows = 0usize;
        let mut row = |v: Value| {
            rows += 1;
            // Hashed as written out again (no copy of the text held).
            let _ = serde_json::to_writer(HashWriter(&mut hash), &v);
            reader.line(&v, Origin { line: rows, offset: 0 }, &mut out);
        };
        return match agent.database_session(path, pick, &mut row) {
            None => continue,
            Some(Err(why)) => Look::Failed(why),
            Some(Ok(DatabaseRead::Busy)) => Look::Busy,
            Some(Ok(DatabaseRead::Missing)) => Look::Missing,
            Some(Ok(DatabaseRead::Read(id))) => {
                reader.finish(&mut out);
                Look::Session {
                    id,
                    records: out.into_iter().map(|(_, r)| r).collect(),
                    hash: hash.finish(),
                }
            }
        };
    }
    Look::NotOurs
}

/// Bytes written into a hasher.
struct HashWriter<'a>(&'a mut DefaultHasher);

impl std::io::Write for HashWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
