//! The live sources' one output: [`LiveEvent`]s on one bounded channel.
//!
//! Every live source (`listen`, `follow`, the DSH host client) is a producer
//! on a [`LiveTx`]; whoever consumes (the TUI's forwarding thread, the
//! recorder, tests) folds `Records` with the same reducer as replay.
//!
//! **Batching and memory.** Records travel in batches: a source decodes
//! whatever one read returned (up to [`READ_CHUNK`] bytes) and sends the
//! records in batches of at most [`MAX_BATCH`], so a burst of a million
//! frames is a few thousand sends, and a quiet stream still gets each line
//! through at once (no timer holds a batch back). The channel holds at most
//! [`CHANNEL_BATCHES`] events; when it is full, `send` waits, the reading task
//! stops reading, and the kernel's socket buffer (or the pipe) pushes back on
//! the writer. So what deck holds in flight is bounded by
//! `CHANNEL_BATCHES × MAX_BATCH` records plus one read per connection,
//! whatever the writer's rate.

use std::sync::Arc;

use tokio::sync::mpsc;

use crate::wire::{Diagnostic, Record};

pub use super::sessions::{SessionChange, SessionSummary};

/// Records per batch at most.
pub const MAX_BATCH: usize = 1024;
/// Batches (events) the channel holds before senders wait.
pub const CHANNEL_BATCHES: usize = 64;
/// Bytes read from a socket, pipe or file at a time.
pub const READ_CHUNK: usize = 64 * 1024;

/// What a live source reports.
#[derive(Debug, Clone, PartialEq)]
pub enum LiveEvent {
    /// Records for the transcript, in order.
    Records(Vec<Record>),
    /// The state of the link (shown in the status bar).
    Status(LinkStatus),
    /// The sessions the source knows about (for a session picker): the
    /// whole list, sent once when the source learns it.
    Sessions(Vec<SessionSummary>),
    /// One session is new, changed or gone (sent per change, never the
    /// whole list again).
    Session(SessionChange),
    /// A problem of the source itself (not of a line): a refused connection,
    /// a failed history page, frames of another session left out.
    Diagnostic(Diagnostic),
    /// The source switched to another session: start a new transcript.
    Reset { session_id: Option<String> },
    /// What came of an action asked of the source (a prompt sent, an
    /// approval answered, or why not), for the status line.
    Said(String),
    /// A big file followed: the records of its end (`load::window`), to be
    /// shown while the file is read from its start; the `Records` after
    /// this are of the whole, from its start, until [`LiveEvent::CaughtUp`].
    Ahead(Ahead),
    /// The read from the start has come to where the end shown was read:
    /// the whole is shown from now on.
    CaughtUp,
}

/// The end of a file shown ahead of its whole ([`LiveEvent::Ahead`]).
#[derive(Debug, Clone)]
pub struct Ahead {
    pub records: Vec<Record>,
    /// Bytes of the file read from its start so far (how far the whole
    /// is), and its size when the end was read.
    pub read: Arc<std::sync::atomic::AtomicU64>,
    pub size: u64,
    /// Whether the records' turn numbers are the session's (else they are
    /// counted from the end's start and not shown).
    pub numbered: bool,
}

impl PartialEq for Ahead {
    fn eq(&self, other: &Ahead) -> bool {
        self.records == other.records && Arc::ptr_eq(&self.read, &other.read)
            && (self.size, self.numbered) == (other.size, other.numbered)
    }
}

/// The state of a live link.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkStatus {
    /// Opening the connection (`attempt` counts from 1).
    Connecting { attempt: u32 },
    /// Waiting for writers (`listen`), `writers` connected now.
    Listening { on: String, writers: usize },
    /// Connected; frames arrive as they happen.
    Live,
    /// Connected; fetching `session.history` from `from_seq` on.
    Backfilling { from_seq: u64 },
    /// The link dropped; the next try is in `retry_in_ms`.
    Disconnected { reason: String, retry_in_ms: u64 },
    /// The source ended (end of input, or the session is gone); no retry.
    Ended,
    /// The source stopped on an error it cannot recover from.
    Failed { reason: String },
}

impl LinkStatus {
    /// A short text for the status bar.
    pub fn label(&self) -> String {
        match self {
            LinkStatus::Connecting { attempt: 1 } => "connecting…".into(),
            LinkStatus::Connecting { attempt } => format!("connecting… (try {attempt})"),
            LinkStatus::Listening { on, writers: 0 } => format!("listening on {on}"),
            LinkStatus::Listening { on, writers } => format!(
                "● live: {writers} writer{} on {on}",
                if *writers == 1 { "" } else { "s" }
            ),
            LinkStatus::Live => "● live".into(),
            LinkStatus::Backfilling { from_seq } => format!("backfilling from seq {from_seq}"),
            LinkStatus::Disconnected {
                reason,
                retry_in_ms,
            } if *retry_in_ms < 1000 => {
                format!("disconnected ({reason}); retry in {retry_in_ms} ms")
            }
            LinkStatus::Disconnected {
                reason,
                retry_in_ms,
            } => format!(
                "disconnected ({reason}); retry in {:.1}s",
                *retry_in_ms as f64 / 1000.0
            ),
            LinkStatus::Ended => "ended".into(),
            LinkStatus::Failed { reason } => format!("stopped: {reason}"),
        }
    }
}

/// The consumer went away: the source should stop.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the live channel is closed")]
pub struct Closed;

/// The sending side of the live channel (cheap to clone, one per task).
#[derive(Debug, Clone)]
pub struct LiveTx {
    tx: mpsc::Sender<LiveEvent>,
}

/// A bounded live channel: [`CHANNEL_BATCHES`] events.
pub fn channel() -> (LiveTx, mpsc::Receiver<LiveEvent>) {
    let (tx, rx) = mpsc::channel(CHANNEL_BATCHES);
    (LiveTx { tx }, rx)
}

impl LiveTx {
    /// Send one event; waits while the channel is full.
    pub async fn send(&self, ev: LiveEvent) -> Result<(), Closed> {
        self.tx.send(ev).await.map_err(|_| Closed)
    }

    /// Send records in batches of at most [`MAX_BATCH`]; nothing for none.
    pub async fn records(&self, mut records: Vec<Record>) -> Result<(), Closed> {
        while records.len() > MAX_BATCH {
            let rest = records.split_off(MAX_BATCH);
            self.send(LiveEvent::Records(records)).await?;
            records = rest;
        }
        if records.is_empty() {
            return Ok(());
        }
        self.send(LiveEvent::Records(records)).await
    }

    /// Report the link's state (each change is logged).
    pub async fn status(&self, s: LinkStatus) -> Result<(), Closed> {
        tracing::info!(status = ?s, "link");
        self.send(LiveEvent::Status(s)).await
    }

    /// Report a problem of the source itself (logged).
    pub async fn diagnostic(&self, reason: impl Into<String>) -> Result<(), Closed> {
        let reason = reason.into();
        tracing::info!(%reason, "source diagnostic");
        self.send(LiveEvent::Diagnostic(Diagnostic {
            origin: Default::default(),
            reason,
            raw: String::new(),
        }))
        .await
    }

    /// True once the consumer is gone.
    pub fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }

    /// Resolves when the consumer is gone.
    pub async fn closed(&self) {
        self.tx.closed().await
    }
}

/// Where raw input goes verbatim, one message per call (the recorder).
pub trait RawSink: Send + Sync {
    /// Write one message (without its newline). An error stops the source.
    fn message(&self, bytes: &[u8]) -> std::io::Result<()>;
}

/// An optional raw tap shared by a source's tasks.
pub type Tap = Option<Arc<dyn RawSink>>;

/// What to read, as given on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Endpoint {
    /// `-`: standard input.
    Stdin,
    /// `unix:PATH`: deck listens on a unix socket.
    Unix(std::path::PathBuf),
    /// `tcp:HOST:PORT`: deck listens on TCP (loopback unless told otherwise).
    Tcp(String),
    /// `http://…`: a DSH host (any other `scheme://` lands here too, and
    /// is refused when parsed as a host URL).
    Host(String),
    /// A file to follow.
    File(std::path::PathBuf),
}

impl Endpoint {
    /// Parse `-`, `unix:PATH`, `tcp:[HOST:]PORT`, `http://…`, or a path.
    pub fn parse(s: &str) -> Endpoint {
        if s == "-" {
            Endpoint::Stdin
        } else if let Some(p) = s.strip_prefix("unix:") {
            Endpoint::Unix(p.into())
        } else if let Some(a) = s.strip_prefix("tcp:") {
            if a.contains(':') {
                Endpoint::Tcp(a.to_string())
            } else {
                Endpoint::Tcp(format!("127.0.0.1:{a}"))
            }
        } else if s.contains("://") {
            Endpoint::Host(s.to_string())
        } else {
            Endpoint::File(s.into())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::Origin;

    #[test]
    fn endpoints_parse() {
        assert_eq!(Endpoint::parse("-"), Endpoint::Stdin);
        assert_eq!(
            Endpoint::parse("unix:/tmp/x.sock"),
            Endpoint::Unix("/tmp/x.sock".into())
        );
        assert_eq!(
            Endpoint::parse("tcp:9000"),
            Endpoint::Tcp("127.0.0.1:9000".into())
        );
        assert_eq!(
            Endpoint::parse("tcp:0.0.0.0:9000"),
            Endpoint::Tcp("0.0.0.0:9000".into())
        );
        assert!(matches!(
            Endpoint::parse("http://127.0.0.1:3080"),
            Endpoint::Host(_)
        ));
        assert!(matches!(Endpoint::parse("a.jsonl"), Endpoint::File(_)));
    }

    #[tokio::test]
    async fn records_go_in_bounded_batches() {
        let (tx, mut rx) = channel();
        let diag = |i: usize| {
            Record::Diagnostic(Diagnostic {
                origin: Origin { line: i, offset: 0 },
                reason: String::new(),
                raw: String::new(),
            })
        };
        let n = MAX_BATCH * 2 + 5;
        tx.records((0..n).map(diag).collect()).await.unwrap();
        tx.records(Vec::new()).await.unwrap();
        drop(tx);
        let mut sizes = Vec::new();
        while let Some(LiveEvent::Records(r)) = rx.recv().await {
            sizes.push(r.len());
        }
        assert_eq!(sizes, vec![MAX_BATCH, MAX_BATCH, 5]);
    }

    #[test]
    fn status_labels() {
        assert_eq!(LinkStatus::Live.label(), "● live");
        assert!(
            LinkStatus::Disconnected {
                reason: "refused".into(),
                retry_in_ms: 1500
            }
            .label()
            .contains("retry in 1.5s")
        );
    }
}
