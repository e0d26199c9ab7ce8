//! `deck follow PATH`'s bytes: like `tail -f` for a file being appended.
//! Reads what exists, then polls for growth, handing what it reads to a
//! line pipeline (`feed::Lines`, the loader's) and what is beside the file
//! to an [`Aside`] (its agent's: `Agent::beside`).
//!
//! * A partial last line is held until its newline arrives.
//! * **Truncation** (the open file got shorter than what was read): a
//!   diagnostic, a [`LiveEvent::Reset`], and reading again from byte 0.
//! * **Rotation** (the path now names another file — new inode): the old
//!   file is read to its end, then the new one from its start.
//! * A path that does not exist yet is waited for; a file not known yet is
//!   looked for until it is found ([`wait_for`]: `deck follow --latest`).
//!
//! A file's [`stamp`] (size and time, a database's `-wal` folded in) is
//! what the library and the follower of a database compare to see a change.
//!
//! Polling (not inotify) keeps it portable and simple; the interval is a
//! parameter so tests can make it short. What is followed, and how, is the
//! loader's `load::follow::Follow`.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncSeekExt};

use super::feed::{Lines, Output, StreamError, send};
use super::live::{LinkStatus, LiveEvent, LiveTx, READ_CHUNK};
use crate::wire::Record;

/// How often `follow` looks for growth by default.
pub const POLL: Duration = Duration::from_millis(100);

/// The first bytes of a zstd frame: compressed logs cannot be followed.
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

/// What is read beside a followed file as it grows (a Claude Code
/// session's subagents' logs and saved output): its agent's, asked for by
/// the loader.
pub trait Aside: Send {
    /// Records of the followed file as they go out, changed as need be.
    fn records(&mut self, records: &mut Vec<Record>);
    /// What was read beside the file since the last poll.
    fn poll(&mut self) -> Vec<Record>;
}

/// Looks for the file to follow: its path, or why there is none yet.
pub type Find = Arc<dyn Fn() -> Result<PathBuf, String> + Send + Sync>;

struct Open {
    file: tokio::fs::File,
    ino: (u64, u64),
    /// Bytes read so far.
    pos: u64,
}

async fn open(path: &Path) -> std::io::Result<Open> {
    let file = tokio::fs::File::open(path).await?;
    let m = file.metadata().await?;
    Ok(Open {
        file,
        ino: (m.dev(), m.ino()),
        pos: 0,
    })
}

/// Follow the file at `path` until the consumer goes away (or the tap
/// fails): its lines through `lines`, what is beside it through `aside`;
/// a truncation resets session `session`'s view. `ahead`: its end was
/// shown first ([`LiveEvent::Ahead`]): how far the read from the start is
/// goes there, and [`LiveEvent::CaughtUp`] when it is at the end.
pub async fn tail(
    path: &Path,
    session: Option<String>,
    poll: Duration,
    lines: &mut dyn Lines,
    aside: &mut dyn Aside,
    tx: &LiveTx,
    mut ahead: Option<Arc<AtomicU64>>,
) -> Result<(), StreamError> {
    let shown = path.display().to_string();
    let mut attempt = 0;
    let mut cur = loop {
        match open(path).await {
            Ok(o) => break o,
            Err(e) => {
                attempt += 1;
                if attempt == 1 {
                    tx.status(LinkStatus::Connecting { attempt }).await?;
                    tx.diagnostic(format!("{shown}: {e}; waiting for it to appear"))
                        .await?;
                }
                if wait(tx, poll).await {
                    return Ok(());
                }
            }
        }
    };
    tx.status(LinkStatus::Live).await?;
    let mut buf = vec![0u8; READ_CHUNK];
    loop {
        // Read everything there is now.
        loop {
            let n = cur.file.read(&mut buf).await.map_err(StreamError::Read)?;
            if n == 0 {
                break;
            }
            if cur.pos == 0 && buf[..n].starts_with(&ZSTD_MAGIC) {
                tx.diagnostic(format!(
                    "{shown} is zstd-compressed: a compressed log cannot be followed (use `deck replay`)"
                ))
                .await?;
                tx.status(LinkStatus::Ended).await?;
                return Ok(());
            }
            cur.pos += n as u64;
            let mut out = Output::default();
            lines.feed(&buf[..n], &mut out)?;
            aside.records(&mut out.records);
            send(tx, out).await?;
            if let Some(read) = &ahead {
                read.store(cur.pos, Ordering::Relaxed);
            }
        }
        tx.records(aside.poll()).await?;
        if ahead.take().is_some() {
            tx.send(LiveEvent::CaughtUp).await?;
        }
        if wait(tx, poll).await {
            return Ok(());
        }
        let len = cur.file.metadata().await.map_err(StreamError::Read)?.len();
        if len < cur.pos {
            tx.diagnostic(format!(
                "{shown} was truncated ({len} bytes, {} read): reading it again from the start",
                cur.pos
            ))
            .await?;
            tx.send(LiveEvent::Reset {
                session_id: session.clone(),
            })
            .await?;
            cur.file
                .seek(std::io::SeekFrom::Start(0))
                .await
                .map_err(StreamError::Read)?;
            cur.pos = 0;
            lines.reset();
            continue;
        }
        if len > cur.pos {
            continue;
        }
        // No growth: has the path been rotated to a new file?
        let rotated = match tokio::fs::metadata(path).await {
            Ok(m) => (m.dev(), m.ino()) != cur.ino,
            Err(_) => false, // between rename and create: keep the old file
        };
        if rotated && let Ok(next) = open(path).await {
            // Whatever the old file got after our last read is read first.
            loop {
                let n = cur.file.read(&mut buf).await.map_err(StreamError::Read)?;
                if n == 0 {
                    break;
                }
                let mut out = Output::default();
                lines.feed(&buf[..n], &mut out)?;
                send(tx, out).await?;
            }
            let mut out = Output::default();
            lines.finish(&mut out)?;
            send(tx, out).await?;
            tx.diagnostic(format!(
                "{shown} was replaced by a new file (rotated): reading the new one from its start"
            ))
            .await?;
            lines.reset();
            cur = next;
        }
    }
}

/// Wait for the file `find` looks for: a status and a diagnostic saying
/// what deck waits for, then the path once it exists (`None`: the
/// consumer went away first).
pub async fn wait_for(find: Find, poll: Duration, tx: &LiveTx) -> Result<Option<PathBuf>, StreamError> {
    let mut said = false;
    loop {
        // A walk of a folder, as like as not: off the runtime's threads.
        let find = find.clone();
        let found = tokio::task::spawn_blocking(move || find())
            .await
            .unwrap_or_else(|e| Err(e.to_string()));
        match found {
            Ok(path) => {
                if said {
                    tx.diagnostic(format!("following {}", path.display()))
                        .await?;
                }
                return Ok(Some(path));
            }
            Err(why) if !said => {
                said = true;
                tx.status(LinkStatus::Connecting { attempt: 1 }).await?;
                tx.diagnostic(format!("{why}; waiting for one to appear"))
                    .await?;
            }
            Err(_) => {}
        }
        // A walk is dearer than a look at one file: less often.
        if wait(tx, poll * 5).await {
            return Ok(None);
        }
    }
}

/// A session file's size and last change (ns since the epoch), `meta`
/// being its metadata: a database's with its write-ahead log's (`-wal`
/// beside it, where a running agent's writes wait to be copied in, leaving
/// the database file as it was).
pub fn stamp(path: &std::path::Path, meta: &std::fs::Metadata) -> (u64, i64) {
    let (size, mtime) = (meta.len(), mtime_ns(meta));
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    match std::fs::metadata(wal) {
        Ok(w) if w.is_file() => (size + w.len(), mtime.max(mtime_ns(&w))),
        _ => (size, mtime),
    }
}

/// Nanoseconds since the epoch of a file's last change (0 when unknown).
pub fn mtime_ns(meta: &std::fs::Metadata) -> i64 {
    meta.modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| i64::try_from(d.as_nanos()).unwrap_or(i64::MAX))
}

/// Sleep `d`; true when the consumer went away meanwhile.
pub(crate) async fn wait(tx: &LiveTx, d: Duration) -> bool {
    tokio::select! {
        () = tokio::time::sleep(d) => tx.is_closed(),
        () = tx.closed() => true,
    }
}
