//! What a live source hands the bytes it reads to: a line pipeline
//! ([`Lines`]: the loader's `LineStream`, which decodes, reads other
//! agents' lines and routes records by session), what feeding it makes
//! ([`Output`]), and the sending of that on the live channel ([`send`],
//! [`pump`]). `listen` and `follow` read bytes; what the bytes say is the
//! pipeline's business.

use std::sync::Arc;

use tokio::io::{AsyncRead, AsyncReadExt};

use super::live::{Closed, LiveEvent, LiveTx, READ_CHUNK};
use crate::wire::Record;

/// One connection's (or file's) line pipeline.
pub trait Lines: Send {
    /// Feed bytes as they arrived.
    fn feed(&mut self, bytes: &[u8], out: &mut Output) -> Result<(), StreamError>;
    /// End of input: an unfinished last line is decoded as truncated.
    fn finish(&mut self, out: &mut Output) -> Result<(), StreamError>;
    /// Start again from byte 0 (a truncated file).
    fn reset(&mut self);
}

/// Makes the line pipeline of one connection or file; `label` prefixes
/// its diagnostics when there can be several (`connection 2`).
pub type MakeLines = Arc<dyn Fn(Option<String>) -> Box<dyn Lines> + Send + Sync>;

/// What feeding a stream produced.
#[derive(Debug, Default)]
pub struct Output {
    pub records: Vec<Record>,
    /// Session lists and notices, sent after the records.
    pub events: Vec<LiveEvent>,
}

/// Why a stream stops.
#[derive(Debug, thiserror::Error)]
pub enum StreamError {
    #[error("cannot write the recording: {0}")]
    Tap(#[source] std::io::Error),
    #[error("cannot read: {0}")]
    Read(#[source] std::io::Error),
    #[error(transparent)]
    Closed(#[from] Closed),
}

/// Read `reader` to its end through `stream`, sending what it yields.
pub async fn pump(
    mut reader: impl AsyncRead + Unpin,
    stream: &mut dyn Lines,
    tx: &LiveTx,
) -> Result<(), StreamError> {
    let mut buf = vec![0u8; READ_CHUNK];
    loop {
        let n = reader.read(&mut buf).await.map_err(StreamError::Read)?;
        let mut out = Output::default();
        if n == 0 {
            stream.finish(&mut out)?;
            send(tx, out).await?;
            return Ok(());
        }
        stream.feed(&buf[..n], &mut out)?;
        send(tx, out).await?;
    }
}

/// Send what a stream produced: records first, then the rest.
pub async fn send(tx: &LiveTx, out: Output) -> Result<(), Closed> {
    tx.records(out.records).await?;
    for ev in out.events {
        tx.send(ev).await?;
    }
    Ok(())
}
