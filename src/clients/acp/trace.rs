//! The one path every ACP message takes, both ways: a trace line
//! `{"t": ms since the agent started, "dir", "msg"}` (or `"raw"` for a
//! line of the agent's that is not JSON; or `{"t", "seen": {"terminal":
//! …}}` for what deck itself saw of a terminal it ran, never sent to the
//! agent) is written to the recording when there is one, and the very same bytes are fed to the line pipeline
//! ([`LineStream`], which reads them with the ACP reader), so what is shown
//! live is what `deck view` draws of the recording afterwards.

use std::io::Write;
use std::time::Instant;

use serde_json::{Value, json};

use crate::source::live::LiveTx;
use crate::load::stream::{LineStream, Selection};
use crate::source::feed::{Output, send};
use crate::wire::Record;

/// Who sent a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dir {
    ToAgent,
    FromAgent,
}

impl Dir {
    fn name(self) -> &'static str {
        match self {
            Dir::ToAgent => "client->agent",
            Dir::FromAgent => "agent->client",
        }
    }
}

/// Where the records read from the trace go.
pub enum Sink {
    /// To the terminal view, as they come.
    Live(LiveTx),
    /// Kept, for a rendering at the end.
    Keep(Vec<Record>),
}

/// The trace of one session.
pub struct Trace {
    start: Instant,
    /// The wall-clock time of `start`, in epoch milliseconds.
    start_epoch_ms: i64,
    file: Option<std::fs::File>,
    stream: LineStream,
    sink: Sink,
    /// Lines written to the recording and read.
    pub lines: usize,
}

impl Trace {
    /// A trace started now, recorded into `file` when given.
    pub fn new(file: Option<std::fs::File>, sink: Sink) -> Trace {
        let epoch = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64);
        Trace {
            start: Instant::now(),
            start_epoch_ms: epoch,
            file,
            stream: LineStream::new(None, Selection::new(None), None),
            sink,
            lines: 0,
        }
    }

    /// When the trace started (what its `t` counts from), in epoch milliseconds.
    pub fn start_epoch_ms(&self) -> i64 {
        self.start_epoch_ms
    }

    /// One JSON-RPC message.
    pub async fn message(&mut self, dir: Dir, msg: &Value) -> std::io::Result<()> {
        let line = json!({"t": self.millis(), "dir": dir.name(), "msg": msg});
        self.line(line).await
    }

    /// A line of the agent's that is not a JSON-RPC message.
    pub async fn raw(&mut self, dir: Dir, raw: &str) -> std::io::Result<()> {
        let line = json!({"t": self.millis(), "dir": dir.name(), "raw": raw});
        self.line(line).await
    }

    /// What deck saw of a terminal it ran: `{terminalId, output,
    /// truncated, exitStatus}`.
    pub async fn seen(&mut self, terminal: &Value) -> std::io::Result<()> {
        let line = json!({"t": self.millis(), "seen": {"terminal": terminal}});
        self.line(line).await
    }

    fn millis(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    async fn line(&mut self, line: Value) -> std::io::Result<()> {
        let mut bytes = line.to_string().into_bytes();
        bytes.push(b'\n');
        if let Some(f) = &mut self.file {
            // Written at once, so a crash keeps every line before it.
            f.write_all(&bytes)?;
        }
        self.lines += 1;
        let mut out = Output::default();
        // A tap-less stream cannot fail; a closed view is not the trace's concern.
        let _ = self.stream.feed(&bytes, &mut out);
        self.deliver(out).await;
        Ok(())
    }

    async fn deliver(&mut self, out: Output) {
        match &mut self.sink {
            Sink::Live(tx) => {
                let _ = send(tx, out).await;
            }
            Sink::Keep(records) => records.extend(out.records),
        }
    }

    /// The end: what the reader still held goes out; the records kept.
    pub async fn finish(&mut self) -> Vec<Record> {
        let mut out = Output::default();
        let _ = self.stream.finish(&mut out);
        self.deliver(out).await;
        if let Some(f) = &mut self.file {
            let _ = f.flush();
        }
        match &mut self.sink {
            Sink::Keep(records) => std::mem::take(records),
            Sink::Live(_) => Vec::new(),
        }
    }

    /// Where notices for the user go when live.
    pub fn live(&self) -> Option<&LiveTx> {
        match &self.sink {
            Sink::Live(tx) => Some(tx),
            Sink::Keep(_) => None,
        }
    }
}
