//! `deck record URL|SOURCE -o FILE`: run a host or live source headless
//! and write everything it sends to a file, one message per line (the
//! tap: `source::record::FileSink`). From a host it records both
//! WebSockets and the history events it backfilled, as bare
//! `session/event` frames that deck's loader reads back (it orders a
//! session's events by seq). It stops on Ctrl-C, SIGTERM, `--duration`,
//! or when the input ends.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use super::shared::live::runtime;
use crate::clients::dsh::{self as host, HostOptions, SessionChoice};
use crate::load::follow::Follow;
use crate::source::listen;
use crate::source::live::{self, Endpoint, LiveEvent};
use crate::source::record::FileSink;

/// `deck record URL|SOURCE -o FILE`.
pub fn run(
    source: &str,
    output: PathBuf,
    session: Option<String>,
    duration: Option<f64>,
) -> anyhow::Result<()> {
    let ep = Endpoint::parse(source);
    if let Endpoint::Host(url) = &ep {
        host::HostUrl::parse(url)?;
    }
    let duration = match duration {
        Some(s) if s.is_finite() && s > 0.0 => Some(Duration::from_secs_f64(s)),
        Some(s) => anyhow::bail!("--duration {s}: expected a positive number of seconds"),
        None => None,
    };
    let shown = output.display().to_string();
    tracing::info!(mode = "record", source, output = shown, session, "opening");
    let opts = Recording {
        source: ep,
        output,
        session,
        duration,
    };
    let rt = runtime()?;
    fn say(line: &str) {
        eprintln!("deck record: {}", crate::text::sanitize::message(line));
    }
    let done = rt.block_on(record(opts, |line| say(&line.to_string())))?;
    say(&format!(
        "{} messages written to {shown} (stopped: {})",
        done.messages, done.stopped_by
    ));
    rt.shutdown_background();
    Ok(())
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
    Follow(#[from] crate::source::feed::StreamError),
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
