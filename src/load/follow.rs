//! `deck follow PATH | --latest AGENT`: a file followed as it grows
//! (`source::follow::tail`: truncation, rotation, a path not there yet),
//! its lines read by the loader's pipeline ([`LineStream`]), and what its
//! agent keeps beside it read as it grows too ([`Agent::beside`]: a Claude
//! Code session's subagents' logs, nested under their calls, and the
//! output it saved to `tool-results/`). `--latest AGENT` before the agent
//! wrote a session for the directory: the newest one is looked for until
//! it appears ([`Latest`]), then followed as a path is. A database (its
//! first bytes SQLite's: OpenCode's) holds sessions, not lines: one session
//! of it is followed by `follow_database`, read again as the file changes.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicU64;
use std::time::Duration;

use serde_json::Value;

use super::follow_database;
use super::follow_whole;
use super::stream::{LineStream, Selection};
use crate::agents::{self, Agent};
use crate::source::feed::{MakeLines, StreamError};
use crate::source::follow::{self as tail, Aside, Find, POLL};
use crate::source::live::{Ahead, LiveEvent, LiveTx, Tap};
use crate::wire::Record;

/// Options of one `follow`.
#[derive(Debug, Clone)]
pub struct Follow {
    pub path: PathBuf,
    pub session: Option<String>,
    pub poll: Duration,
    /// Set: `path` is not known yet; it is the newest session this finds.
    pub latest: Option<Latest>,
    /// The directory whose newest session is wanted when `path` is a
    /// database holding every directory's (`--latest`'s; `None` and no
    /// `session`: the database's newest).
    pub dir: Option<PathBuf>,
    /// A log this big or bigger has its end shown first, while it is read
    /// from its start ([`super::window`]); `None`: never.
    pub ahead_from: Option<u64>,
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

impl Follow {
    pub fn new(path: impl Into<PathBuf>) -> Follow {
        Follow {
            path: path.into(),
            session: None,
            poll: POLL,
            latest: None,
            dir: None,
            ahead_from: Some(super::window::ahead_from()),
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
            self.dir = Some(latest.cwd.clone());
            let find: Find = Arc::new(move || {
                let Latest {
                    agent,
                    root,
                    cwd,
                    since,
                } = &latest;
                agent.latest(root, cwd, *since)
            });
            match tail::wait_for(find, self.poll, &tx).await? {
                Some(path) => self.path = path,
                None => return Ok(()),
            }
        }
        if super::database::is_database(&self.path) {
            if tap.is_some() {
                // (`deck record`: what it writes is lines, and a database
                // has none.)
                tx.diagnostic(format!(
                    "{} is a database: it is not recorded (copy the file instead)",
                    self.path.display()
                ))
                .await?;
                tx.status(crate::source::live::LinkStatus::Ended).await?;
                return Ok(());
            }
            return follow_database::follow(self.path, self.session, self.dir, self.poll, &tx).await;
        }
        if tap.is_none() && follow_whole::drawn_at_end(&self.path) {
            return follow_whole::follow(self.path, self.session, self.poll, &tx).await;
        }
        let ahead = match self.ahead_from.filter(|_| tap.is_none()) {
            Some(at_least) => end_first(&self.path, self.session.clone(), at_least, &tx).await?,
            None => None,
        };
        let mut stream = LineStream::new(None, Selection::new(self.session.clone()), tap);
        let mut beside = Beside::new(&self.path);
        let session = self.session.clone();
        tail::tail(
            &self.path,
            session,
            self.poll,
            &mut stream,
            &mut beside,
            &tx,
            ahead,
        )
        .await
    }
}

/// The end of the log at `path` sent first when it is `at_least` bytes
/// ([`LiveEvent::Ahead`]): the counter of the read from its start that
/// follows, or `None` (nothing sent: a small, compressed or unreadable
/// file is read from its start only).
async fn end_first(
    path: &Path,
    session: Option<String>,
    at_least: u64,
    tx: &LiveTx,
) -> Result<Option<Arc<AtomicU64>>, StreamError> {
    let path = path.to_path_buf();
    let started = std::time::Instant::now();
    let window =
        tokio::task::spawn_blocking(move || super::window::read_end(&path, session.as_deref(), at_least))
            .await
            .ok()
            .flatten();
    let Some(window) = window else {
        return Ok(None);
    };
    tracing::info!(
        from = window.from,
        size = window.size,
        records = window.records.len(),
        ms = started.elapsed().as_secs_f64() * 1000.0,
        "the end shown first"
    );
    let read = Arc::new(AtomicU64::new(0));
    tx.send(LiveEvent::Ahead(Ahead {
        records: window.records,
        read: read.clone(),
        size: window.size,
        numbered: window.numbered,
    }))
    .await?;
    Ok(Some(read))
}

/// What is beside a followed log: its agent's (once a `session` header
/// names the agent), read as the log grows.
struct Beside {
    log: PathBuf,
    /// What the agent reads beside the log, once known.
    agent: Option<Box<dyn Aside>>,
}

impl Beside {
    fn new(log: &Path) -> Beside {
        Beside {
            log: log.to_path_buf(),
            agent: None,
        }
    }
}

impl Aside for Beside {
    fn records(&mut self, records: &mut Vec<Record>) {
        if self.agent.is_none() {
            let beside = records
                .iter()
                .filter_map(|r| match r {
                    Record::Frame { kind, payload, .. } if kind == "session" => {
                        payload.get("agent").and_then(Value::as_str)
                    }
                    _ => None,
                })
                .find_map(|name| agents::by_name(name)?.beside());
            if let Some(beside) = beside {
                // Another log of the agent's (a subagent's) is read through
                // a pipeline of its own, every session of it shown.
                let lines: MakeLines = Arc::new(|label| {
                    Box::new(LineStream::new(label, Selection::new(None), None))
                });
                self.agent = Some(beside.follow(&self.log, lines));
            }
        }
        if let Some(agent) = self.agent.as_mut() {
            agent.records(records);
        }
    }

    fn poll(&mut self) -> Vec<Record> {
        self.agent.as_mut().map(|a| a.poll()).unwrap_or_default()
    }
}
