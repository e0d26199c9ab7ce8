//! `deck record`: a headless recorder. Every message a source receives is
//! written to the output verbatim, one per line, straight to the file with
//! one `write` per message (no user-space buffer), so a SIGKILL loses
//! nothing already received. From a host it records both WebSockets and
//! the history events it backfilled, as bare `session/event` frames that
//! deck's loader reads back (it orders a session's events by seq).
//!
//! It stops on Ctrl-C, SIGTERM, `--duration`, or when the input ends.

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use super::follow::Follow;
use crate::clients::dsh::{self as host, HostOptions, SessionChoice};
use super::listen;
use super::live::{self, Endpoint, LiveEvent, RawSink};

/// Writes messages to a file, one per line.
pub struct FileSink {
    file: Mutex<std::fs::File>,
    messages: AtomicU64,
}

impl FileSink {
    /// Create (or truncate) `path`: created 0600 (a recording holds the
    /// session's text); a file that was there keeps its mode.
    pub fn create(path: &std::path::Path) -> std::io::Result<FileSink> {
        let file = crate::private::create(
            std::fs::OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(true),
            path,
        )?;
        Ok(FileSink {
            file: Mutex::new(file),
            messages: AtomicU64::new(0),
        })
    }

    /// Messages written so far.
    pub fn messages(&self) -> u64 {
        self.messages.load(Ordering::Relaxed)
    }
}

impl RawSink for FileSink {
    fn message(&self, bytes: &[u8]) -> std::io::Result<()> {
        let mut line = if bytes.contains(&b'\n') || bytes.contains(&b'\r') {
            // One message, one line: a pretty-printed message is compacted
            // (a message that is not JSON keeps its text, newlines escaped).
            match serde_json::from_slice::<serde_json::Value>(bytes) {
                Ok(v) => v.to_string().into_bytes(),
                Err(_) => String::from_utf8_lossy(bytes)
                    .replace('\r', "\\r")
                    .replace('\n', "\\n")
                    .into_bytes(),
            }
        } else {
            bytes.to_vec()
        };
        line.push(b'\n');
        let mut f = self.file.lock().unwrap_or_else(|p| p.into_inner());
        f.write_all(&line)?;
        self.messages.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }
}

/// Options of one recording.
#[derive(Debug, Clone)]
pub struct Recording {
    pub source: Endpoint,
    pub output: PathBuf,
    /// Host: follow only this session (default: every session).
    /// Listen/follow: the session whose records are counted.
    pub session: Option<String>,
    pub duration: Option<Duration>,
}

#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    #[error("cannot create {path}: {source}")]
    Create {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    Listen(#[from] listen::ListenError),
    #[error(transparent)]
    Follow(#[from] super::stream::StreamError),
    #[error(transparent)]
    Host(#[from] host::HostError),
}

/// How a recording ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recorded {
    pub messages: u64,
    pub stopped_by: String,
}

/// Record until a signal, the duration, or the end of the input. `log`
/// gets one line per link state change (the CLI prints them to stderr).
pub async fn record(
    opts: Recording,
    log: impl Fn(String) + Send + 'static,
) -> Result<Recorded, RecordError> {
    let sink = Arc::new(
        FileSink::create(&opts.output).map_err(|source| RecordError::Create {
            path: opts.output.display().to_string(),
            source,
        })?,
    );
    let tap: live::Tap = Some(sink.clone());
    let (tx, mut rx) = live::channel();
    let consumer = tokio::spawn(async move {
        while let Some(ev) = rx.recv().await {
            match ev {
                LiveEvent::Status(s) => log(s.label()),
                LiveEvent::Diagnostic(d) => log(format!("note: {}", d.reason)),
                // Lines that did not decode (or were cut at the line limit,
                // and so are not in the recording) are said where they were.
                LiveEvent::Records(records) => {
                    for r in records {
                        if let crate::wire::Record::Diagnostic(d) = r {
                            log(format!(
                                "note: line {} (byte {}): {}",
                                d.origin.line, d.origin.offset, d.reason
                            ));
                        }
                    }
                }
                _ => {}
            }
        }
    });
    let source = async {
        match opts.source.clone() {
            Endpoint::Host(url) => {
                let choice = match &opts.session {
                    Some(id) => SessionChoice::Id(id.clone()),
                    None => SessionChoice::All,
                };
                host::run(HostOptions::new(url, choice), tap, tx, None).await?;
            }
            Endpoint::File(path) => {
                let mut f = Follow::new(path);
                f.session.clone_from(&opts.session);
                f.run(tap, tx).await?;
            }
            ep => {
                let bound = listen::bind(&ep).await?;
                bound.serve(opts.session.clone(), tap, tx).await?;
            }
        }
        Ok::<_, RecordError>("the input ended".to_string())
    };
    let stop = stop_signal(opts.duration);
    let stopped_by = tokio::select! {
        r = source => r?,
        s = stop => s,
    };
    // The source (and its sender) are gone: let the consumer print the rest.
    let _ = consumer.await;
    Ok(Recorded {
        messages: sink.messages(),
        stopped_by,
    })
}

async fn stop_signal(duration: Option<Duration>) -> String {
    let timer = async {
        match duration {
            Some(d) => tokio::time::sleep(d).await,
            None => std::future::pending().await,
        }
    };
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    };
    tokio::select! {
        () = timer => "--duration elapsed".into(),
        _ = tokio::signal::ctrl_c() => "interrupted".into(),
        () = term => "SIGTERM".into(),
    }
}
