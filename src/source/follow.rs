//! `deck follow PATH`: like `tail -f` for a frame log or a plain
//! `session.jsonl` being appended. Reads what exists, then polls for growth.
//!
//! * A partial last line is held until its newline arrives.
//! * **Truncation** (the open file got shorter than what was read): a
//!   diagnostic, a [`LiveEvent::Reset`], and reading again from byte 0.
//! * **Rotation** (the path now names another file — new inode): the old
//!   file is read to its end, then the new one from its start.
//! * A path that does not exist yet is waited for.
//! * `--latest AGENT` before the agent wrote a session for the directory:
//!   the newest one is looked for until it appears ([`Latest`]), then
//!   followed as a path is.
//! * A Claude Code session's subagents' logs are followed beside it, their
//!   records nested under their calls, and output it saved to
//!   `tool-results/` is read back (`agents::claude_code::read::live`).
//!
//! Polling (not inotify) keeps it portable and simple; the interval is a
//! parameter so tests can make it short.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncSeekExt};

use crate::agents::Agent;
use crate::agents::claude_code::read::live::Beside;
use super::live::{LinkStatus, LiveEvent, LiveTx, READ_CHUNK, Tap};
use super::stream::{LineStream, Output, Selection, StreamError, send};

/// How often `follow` looks for growth by default.
pub const POLL: Duration = Duration::from_millis(100);

/// The first bytes of a zstd frame: compressed logs cannot be followed.
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

/// Options of one `follow`.
#[derive(Debug, Clone)]
pub struct Follow {
    pub path: PathBuf,
    pub session: Option<String>,
    pub poll: Duration,
    /// Set: `path` is not known yet; it is the newest session this finds.
    pub latest: Option<Latest>,
}

/// `deck follow --latest AGENT` when the agent has no session for the
/// directory yet: the session to follow is the first that appears.
#[derive(Debug, Clone)]
pub struct Latest {
    pub agent: &'static dyn Agent,
    /// Where the agent keeps its sessions (`~/.claude`, `$CODEX_HOME`).
    pub root: PathBuf,
    /// The directory whose session is wanted.
    pub cwd: PathBuf,
    /// Sessions modified before this were looked at already (and are not
    /// this directory's): only newer files are read while waiting.
    pub since: std::time::SystemTime,
}

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

impl Follow {
    pub fn new(path: impl Into<PathBuf>) -> Follow {
        Follow {
            path: path.into(),
            session: None,
            poll: POLL,
            latest: None,
        }
    }

    /// Follow the session `latest` finds, once there is one.
    pub fn latest(latest: Latest) -> Follow {
        Follow {
            latest: Some(latest),
            ..Follow::new(PathBuf::new())
        }
    }

    /// Follow until the consumer goes away (or the tap fails).
    pub async fn run(mut self, tap: Tap, tx: LiveTx) -> Result<(), StreamError> {
        if let Some(latest) = self.latest.take() {
            match self.find(&latest, &tx).await? {
                Some(path) => self.path = path,
                None => return Ok(()),
            }
        }
        let shown = self.path.display().to_string();
        let mut stream = LineStream::new(None, Selection::new(self.session.clone()), tap);
        let mut attempt = 0;
        let mut cur = loop {
            match open(&self.path).await {
                Ok(o) => break o,
                Err(e) => {
                    attempt += 1;
                    if attempt == 1 {
                        tx.status(LinkStatus::Connecting { attempt }).await?;
                        tx.diagnostic(format!("{shown}: {e}; waiting for it to appear"))
                            .await?;
                    }
                    if wait(&tx, self.poll).await {
                        return Ok(());
                    }
                }
            }
        };
        tx.status(LinkStatus::Live).await?;
        // A Claude Code session's subagents' logs and saved output.
        let mut beside = Beside::new(&self.path);
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
                stream.feed(&buf[..n], &mut out)?;
                beside.log_records(&mut out.records);
                send(&tx, out).await?;
            }
            tx.records(beside.poll()).await?;
            if wait(&tx, self.poll).await {
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
                    session_id: self.session.clone(),
                })
                .await?;
                cur.file
                    .seek(std::io::SeekFrom::Start(0))
                    .await
                    .map_err(StreamError::Read)?;
                cur.pos = 0;
                stream.reset();
                continue;
            }
            if len > cur.pos {
                continue;
            }
            // No growth: has the path been rotated to a new file?
            let rotated = match tokio::fs::metadata(&self.path).await {
                Ok(m) => (m.dev(), m.ino()) != cur.ino,
                Err(_) => false, // between rename and create: keep the old file
            };
            if rotated && let Ok(next) = open(&self.path).await {
                // Whatever the old file got after our last read is read first.
                loop {
                    let n = cur.file.read(&mut buf).await.map_err(StreamError::Read)?;
                    if n == 0 {
                        break;
                    }
                    let mut out = Output::default();
                    stream.feed(&buf[..n], &mut out)?;
                    send(&tx, out).await?;
                }
                let mut out = Output::default();
                stream.finish(&mut out)?;
                send(&tx, out).await?;
                tx.diagnostic(format!(
                    "{shown} was replaced by a new file (rotated): reading the new one from its start"
                ))
                .await?;
                stream.reset();
                cur = next;
            }
        }
    }
}

impl Follow {
    /// Wait for the session `latest` looks for: a status and a diagnostic
    /// saying what deck waits for, then the path once it exists (`None`:
    /// the consumer went away first).
    async fn find(&self, latest: &Latest, tx: &LiveTx) -> Result<Option<PathBuf>, StreamError> {
        let mut said = false;
        loop {
            let (agent, root, cwd) = (latest.agent, latest.root.clone(), latest.cwd.clone());
            let since = latest.since;
            // A walk of the agent's folder: off the runtime's threads.
            let found = tokio::task::spawn_blocking(move || agent.latest(&root, &cwd, since))
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
            if wait(tx, self.poll * 5).await {
                return Ok(None);
            }
        }
    }
}

/// Sleep `d`; true when the consumer went away meanwhile.
async fn wait(tx: &LiveTx, d: Duration) -> bool {
    tokio::select! {
        () = tokio::time::sleep(d) => tx.is_closed(),
        () = tx.closed() => true,
    }
}
