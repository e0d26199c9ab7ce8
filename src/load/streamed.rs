//! Inputs read with each session's records handed on as they are decoded,
//! not held: to a [`Store`] (the library's index folds a large file so:
//! [`stream_file_upto`]), or as [`Piece`]s over a channel to a reader on
//! another thread ([`stream_path`]: `deck view` shows a big log's first
//! cards while the rest is read).
//!
//! A streamed read is the whole read's records, in the same order, or it
//! says why it may not be ([`Piece::Done`]'s `inexact`): a session's
//! events out of seq order (a whole read sorts them), or what its agent
//! keeps beside it placed only by a whole read (a Claude Code session's
//! subagents, [`whole_needed`]); the saved output an agent keeps beside
//! its results is put back into each result as it comes.

use std::io::Read;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;
use std::sync::mpsc::SyncSender;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::group::Collected;
use super::{Format, LoadError, Loaded, Store, Summary, database, read_input, read_path};
use crate::agents::{self, Streaming};
use crate::wire::Record;

/// [`load_file_upto`](super::load_file_upto), each session's records
/// handed to `store` as they are read rather than held (see [`Store`]):
/// what the library's index folds a large file with. What an agent keeps
/// beside a session is not attached: the store does that for itself, or
/// reads the file again.
pub(crate) fn stream_file_upto(
    path: &str,
    file: &std::fs::File,
    upto: u64,
    store: &mut dyn Store,
) -> Result<Summary, LoadError> {
    let started = Instant::now();
    tracing::info!(input = path, bytes = upto, "streaming");
    let read = match database::read(path, store) {
        Some(read) => read,
        None => read_input(path, file.take(upto), Some(upto), store)
            .map_err(|source| LoadError::Io {
                path: path.to_string(),
                source,
            })
            .and_then(|r| r),
    };
    said(path, &read, started);
    read
}

fn said(path: &str, read: &Result<Summary, LoadError>, started: Instant) {
    match read {
        Ok(s) => tracing::info!(
            input = path,
            format = s.format.name(),
            compressed = s.compressed,
            lines = s.lines,
            ms = started.elapsed().as_secs_f64() * 1000.0,
            "streamed"
        ),
        Err(e) => tracing::warn!(input = path, error = %e, "load failed"),
    }
}

/// Why the file at `path` must be read whole before anything of it is
/// shown or kept, if it must: an agent keeps beside it what only a whole
/// read places (a Claude Code session whose subagents' logs are beside
/// it: `<id>.jsonl` and `<id>/subagents/`).
pub(crate) fn whole_needed(path: &Path) -> Option<String> {
    // `<id>.jsonl`, `<id>.jsonl.zst` …
    let id = path.file_name()?.to_str()?.split(".jsonl").next()?;
    agents::ALL
        .iter()
        .filter_map(|a| a.beside())
        .find_map(|b| match b.streaming(path, id) {
            Streaming::Whole(why) => Some(why),
            _ => None,
        })
}

/// What [`stream_path`] sends, in input order.
#[derive(Debug)]
pub(crate) enum Piece {
    /// Session `i` (0, 1, …) is named `id` for the first time; the records
    /// sent before any session was named are the first named one's.
    Open(usize, String),
    /// Records of session `i` (`None`: before any session was named).
    Records(Option<usize>, Vec<Record>),
    /// Session `i`'s header ([`Store::header`]).
    Header(usize, Value, bool),
    /// The input's format, as it is learnt.
    Format(Format),
    /// The records are in the order to show them, never put in seq order.
    AsIs,
    /// The end: what the read found, or why it failed; and why the records
    /// sent may differ from a whole read's, if they may.
    Done {
        read: Result<Summary, LoadError>,
        inexact: Option<String>,
    },
}

/// Records sent together at most; a batch is sent sooner when it waited
/// [`BATCH_WAIT`] (the first cards must not wait for a full batch).
const BATCH_RECORDS: usize = 2048;
/// Bytes of records sent together at most: what waits between the read and
/// the app (the pieces in flight, the app's feed) is bounded by bytes, not
/// by records of any size.
const BATCH_BYTES: usize = 256 << 10;
const BATCH_WAIT: Duration = Duration::from_millis(5);

/// Read `path` (`-`: stdin; a database; zstd or not, any format), its
/// pieces sent to `out` as they are decoded, the input bytes read added
/// to `read` as it goes. Ends with [`Piece::Done`] unless the receiver
/// is gone (then the read stops at its next batch).
pub(crate) fn stream_path(path: &str, read: &Arc<AtomicU64>, out: SyncSender<Piece>) {
    let started = Instant::now();
    tracing::info!(input = path, "streaming");
    let mut sender = Sender {
        path: Path::new(path),
        out,
        batch: (None, Vec::new()),
        batch_bytes: 0,
        sent_at: Instant::now(),
        format: Format::FrameLog,
        exact: Exact::default(),
        inexact: None,
        gone: false,
    };
    let database = (path != "-").then(|| database::read(path, &mut sender)).flatten();
    let result = database.unwrap_or_else(|| read_path(path, read, &mut sender));
    said(path, &result, started);
    sender.flush();
    if let Ok(s) = &result
        && let Err(why) = sender.exact.end(s.format)
    {
        sender.inexact(&why);
    }
    let inexact = sender.inexact.take();
    let _ = sender.out.send(Piece::Done {
        read: result,
        inexact,
    });
}

/// The [`Store`] that sends: records batched per session, what a session
/// needs from beside its log put in as they come.
struct Sender<'a> {
    path: &'a Path,
    out: SyncSender<Piece>,
    batch: (Option<usize>, Vec<Record>),
    /// What the batch weighs ([`Record::weight`]).
    batch_bytes: usize,
    sent_at: Instant,
    format: Format,
    exact: Exact,
    inexact: Option<String>,
    /// The receiver is gone: nothing more is sent.
    gone: bool,
}

impl Sender<'_> {
    fn send(&mut self, piece: Piece) {
        if !self.gone && self.out.send(piece).is_err() {
            self.gone = true;
        }
    }

    fn flush(&mut self) {
        self.sent_at = Instant::now();
        self.batch_bytes = 0;
        if self.batch.1.is_empty() {
            return;
        }
        let (i, records) = std::mem::take(&mut self.batch);
        self.send(Piece::Records(i, records));
    }

    fn inexact(&mut self, why: &str) {
        if self.inexact.is_none() {
            tracing::info!(input = %self.path.display(), why, "streamed records may differ from a whole read");
            self.inexact = Some(why.to_string());
        }
    }
}

impl Store for Sender<'_> {
    fn open(&mut self, i: usize, id: &str) {
        self.flush();
        if let Err(why) = self.exact.open(self.format, self.path, i, id) {
            self.inexact(&why);
        }
        self.send(Piece::Open(i, id.to_string()));
    }

    fn push(&mut self, i: Option<usize>, mut record: Record) {
        if self.gone {
            return;
        }
        if let Err(why) = self.exact.push(i, &mut record) {
            self.inexact(why);
        }
        if self.batch.0 != i {
            self.flush();
            self.batch.0 = i;
        }
        self.batch_bytes += record.weight();
        self.batch.1.push(record);
        let n = self.batch.1.len();
        if n >= BATCH_RECORDS
            || self.batch_bytes >= BATCH_BYTES
            || (n.is_multiple_of(32) && self.sent_at.elapsed() >= BATCH_WAIT)
        {
            self.flush();
        }
    }

    fn header(&mut self, i: usize, header: &Value, first: bool) {
        self.flush();
        self.send(Piece::Header(i, header.clone(), first));
    }

    fn format(&mut self, format: Format) {
        self.format = format;
        self.flush();
        self.send(Piece::Format(format));
    }

    fn as_is(&mut self) {
        self.exact.as_is();
        self.flush();
        self.send(Piece::AsIs);
    }
}

/// What keeps records taken as they are read the same as a whole read's
/// (the library's index folding a file, `deck view` showing it): what an
/// agent keeps beside a session put back into its records as they come,
/// and why they may differ when they may — a session's events out of seq
/// order (a whole read sorts them), what only a whole read places beside
/// it (a Claude Code session's subagents), a result before its saved
/// output could be looked for, a session named before its format (and so
/// its agent's side files) was known.
#[derive(Default)]
pub(crate) struct Exact {
    /// Per session: what its agent puts back into its records, and whether
    /// that was looked for.
    fills: Vec<Option<agents::Fill>>,
    looked: Vec<bool>,
    /// A result came before any session was named.
    early_result: bool,
    /// Per session (the first for records before any name): its last seq.
    last_seq: Vec<Option<u64>>,
    /// The records are taken in the order given (a history document).
    as_is: bool,
}

impl Exact {
    /// Session `i` named `id`, in a log at `path` read as `format` so far.
    pub(crate) fn open(&mut self, format: Format, path: &Path, i: usize, id: &str) -> Result<(), String> {
        if self.fills.len() <= i {
            self.fills.resize_with(i + 1, || None);
            self.looked.resize(i + 1, false);
        }
        // Records before any name are the first named session's.
        let early = i == 0 && std::mem::take(&mut self.early_result);
        let Some(beside) = format.agent().beside() else {
            return Ok(());
        };
        self.looked[i] = true;
        match beside.streaming(path, id) {
            Streaming::Whole(why) => Err(why),
            Streaming::Fill(_) if early => Err("a result read before its saved output was looked for".into()),
            Streaming::Fill(f) => {
                self.fills[i] = Some(f);
                Ok(())
            }
            Streaming::Nothing => Ok(()),
        }
    }

    /// A record of session `i` (`None`: before any session was named),
    /// with what is beside it put back.
    pub(crate) fn push(&mut self, i: Option<usize>, record: &mut Record) -> Result<(), &'static str> {
        match i.and_then(|i| self.fills.get(i)).and_then(Option::as_ref) {
            Some(fill) => fill(std::slice::from_mut(record)),
            None if i.is_none() && is_result(record) => self.early_result = true,
            None => {}
        }
        let Some(seq) = record.seq() else {
            return Ok(());
        };
        let slot = i.unwrap_or(0);
        if self.last_seq.len() <= slot {
            self.last_seq.resize(slot + 1, None);
        }
        let back = self.last_seq[slot].is_some_and(|l| seq < l);
        self.last_seq[slot] = Some(seq);
        if back && !self.as_is {
            return Err("events out of seq order (put in order when read whole)");
        }
        Ok(())
    }

    /// The records are taken in the order given ([`Store::as_is`]).
    pub(crate) fn as_is(&mut self) {
        self.as_is = true;
    }

    /// The read ended, the input read as `format`.
    pub(crate) fn end(&self, format: Format) -> Result<(), String> {
        if format.agent().beside().is_some() && self.looked.iter().any(|l| !l) {
            return Err(format!("a {} named before its format was known", format.name()));
        }
        Ok(())
    }
}

/// A tool's result (what an agent's saved output is put back into).
pub(crate) fn is_result(r: &Record) -> bool {
    matches!(r, Record::Event { event, .. } if event.kind == crate::wire::EventKind::ToolResult)
}

/// [`Piece`]s put together again into what a whole load returns, all of
/// them or all but one session's records (those a reader took on as they
/// came: [`Gathered::take`]).
#[derive(Default)]
pub(crate) struct Gathered {
    held: Collected,
    format: Option<Format>,
}

/// The end of a streamed read: what it found, and why its records may
/// differ from a whole read's ([`Piece::Done`]).
pub(crate) type End = (Result<Summary, LoadError>, Option<String>);

impl Gathered {
    /// Take `piece` in; the end when it is [`Piece::Done`].
    pub(crate) fn put(&mut self, piece: Piece) -> Option<End> {
        match piece {
            Piece::Open(i, id) => self.held.open(i, &id),
            Piece::Records(i, records) => {
                for r in records {
                    self.held.push(i, r);
                }
            }
            Piece::Header(i, h, first) => self.held.header(i, &h, first),
            Piece::Format(f) => self.format = Some(f),
            Piece::AsIs => self.held.as_is(),
            Piece::Done { read, inexact } => return Some((read, inexact)),
        }
        None
    }

    /// The records held of session `i` (`None`: those before any session
    /// was named), taken out.
    pub(crate) fn take(&mut self, i: Option<usize>) -> Vec<Record> {
        self.held.take(i)
    }

    /// The ids of the sessions named so far, in order.
    pub(crate) fn ids(&self) -> Vec<Option<String>> {
        self.held.ids().map(|s| s.map(str::to_string)).collect()
    }

    /// What a whole load of `name` returns, from the pieces and the read's
    /// `summary` (told to the log as a whole load is).
    pub(crate) fn loaded(self, name: &str, summary: Summary, took: Duration) -> Loaded {
        let loaded = self.held.loaded(name, summary);
        super::log::read(name, &loaded, took);
        loaded
    }
}
