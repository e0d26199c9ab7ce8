//! `deck listen`: JSON lines of frames from standard input, a unix socket
//! or TCP. deck is the server: writers connect, one after another or at
//! once, and each connection is its own line stream (its own line numbers
//! and partial line). A stale unix socket file is removed before binding and
//! the socket file is removed again when the listener goes away; a socket
//! someone still listens on is refused. TCP binds loopback unless an address
//! is given.
//!
//! Back-pressure: every connection's task waits on the bounded live channel
//! (see [`super::live`]), so a writer faster than the consumer is slowed by
//! its socket buffer filling up, and deck's memory stays bounded.
//!
//! Each connection's bytes go to a line pipeline the caller makes
//! ([`Bound::serve_with`]); the loader's is `Bound::serve` (`load::listen`).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::net::{TcpListener, UnixListener};

use super::feed::{MakeLines, StreamError, pump};
use super::live::{Closed, Endpoint, LinkStatus, LiveTx};

#[derive(Debug, thiserror::Error)]
pub enum ListenError {
    #[error("cannot listen on {what}: {source}")]
    Bind {
        what: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{0} is in use: another program is listening on it")]
    InUse(String),
    #[error("{0} exists and is not a socket; refusing to replace it")]
    NotASocket(String),
    #[error("`listen` reads -, unix:PATH or tcp:[HOST:]PORT, not {0}")]
    Endpoint(String),
    #[error(transparent)]
    Stream(#[from] StreamError),
}

/// A bound listener, before it serves.
pub enum Bound {
    Stdin,
    Unix {
        listener: UnixListener,
        path: PathBuf,
    },
    Tcp(TcpListener),
}

/// Removes the unix socket file when the listener is done.
struct Unlink(PathBuf);

impl Drop for Unlink {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Bind the endpoint (so the caller knows the address before serving).
pub async fn bind(endpoint: &Endpoint) -> Result<Bound, ListenError> {
    match endpoint {
        Endpoint::Stdin => Ok(Bound::Stdin),
        Endpoint::Unix(path) => bind_unix(path).await,
        Endpoint::Tcp(addr) => TcpListener::bind(addr.as_str())
            .await
            .map(Bound::Tcp)
            .map_err(|source| ListenError::Bind {
                what: format!("tcp:{addr}"),
                source,
            }),
        Endpoint::Host(s) => Err(ListenError::Endpoint(s.clone())),
        Endpoint::File(p) => Err(ListenError::Endpoint(p.display().to_string())),
    }
}

async fn bind_unix(path: &Path) -> Result<Bound, ListenError> {
    let shown = path.display().to_string();
    if let Ok(meta) = std::fs::symlink_metadata(path) {
        use std::os::unix::fs::FileTypeExt;
        if !meta.file_type().is_socket() {
            return Err(ListenError::NotASocket(shown));
        }
        if tokio::net::UnixStream::connect(path).await.is_ok() {
            return Err(ListenError::InUse(shown));
        }
        // Nobody answers: a stale file left by a listener that died.
        std::fs::remove_file(path).map_err(|source| ListenError::Bind {
            what: shown.clone(),
            source,
        })?;
    }
    let listener = UnixListener::bind(path).map_err(|source| ListenError::Bind {
        what: shown,
        source,
    })?;
    Ok(Bound::Unix {
        listener,
        path: path.to_path_buf(),
    })
}

impl Bound {
    /// What the status bar calls it (`tcp:127.0.0.1:40123` with the real port).
    pub fn describe(&self) -> String {
        match self {
            Bound::Stdin => "stdin".into(),
            Bound::Unix { path, .. } => format!("unix:{}", path.display()),
            Bound::Tcp(l) => l
                .local_addr()
                .map_or_else(|_| "tcp".into(), |a| format!("tcp:{a}")),
        }
    }

    /// The TCP address, when this is TCP.
    #[cfg(any(test, feature = "internals"))]
    pub fn tcp_addr(&self) -> Option<std::net::SocketAddr> {
        match self {
            Bound::Tcp(l) => l.local_addr().ok(),
            _ => None,
        }
    }

    /// Serve until the input ends (stdin) or the consumer goes away, each
    /// connection's bytes through a line pipeline `lines` makes.
    pub async fn serve_with(self, lines: MakeLines, tx: LiveTx) -> Result<(), ListenError> {
        let on = self.describe();
        match self {
            Bound::Stdin => {
                tx.status(LinkStatus::Live).await.map_err(closed)?;
                let mut stream = lines(None);
                pump(tokio::io::stdin(), stream.as_mut(), &tx).await?;
                let _ = tx.status(LinkStatus::Ended).await;
                Ok(())
            }
            Bound::Unix { listener, path } => {
                let _unlink = Unlink(path);
                let accept = || async { listener.accept().await.map(|(s, _)| s) };
                accept_loop(accept, on, lines, tx).await
            }
            Bound::Tcp(listener) => {
                let accept = || async { listener.accept().await.map(|(s, _)| s) };
                accept_loop(accept, on, lines, tx).await
            }
        }
    }
}

fn closed(c: Closed) -> ListenError {
    ListenError::Stream(StreamError::Closed(c))
}

async fn accept_loop<S, F, Fut>(
    accept: F,
    on: String,
    lines: MakeLines,
    tx: LiveTx,
) -> Result<(), ListenError>
where
    S: tokio::io::AsyncRead + Unpin + Send + 'static,
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = std::io::Result<S>>,
{
    let writers = Arc::new(AtomicUsize::new(0));
    let status = |n| LinkStatus::Listening {
        on: on.clone(),
        writers: n,
    };
    tx.status(status(0)).await.map_err(closed)?;
    let mut count = 0usize;
    loop {
        let conn = tokio::select! {
            c = accept() => c,
            () = tx.closed() => return Ok(()),
        };
        let conn = match conn {
            Ok(c) => c,
            Err(e) => {
                tx.diagnostic(format!("{on}: accept failed: {e}"))
                    .await
                    .map_err(closed)?;
                continue;
            }
        };
        count += 1;
        let n = writers.fetch_add(1, Ordering::SeqCst) + 1;
        tx.status(status(n)).await.map_err(closed)?;
        let (tx, writers, on) = (tx.clone(), writers.clone(), on.clone());
        let label = format!("connection {count}");
        let mut stream = lines(Some(label.clone()));
        tokio::spawn(async move {
            let result = pump(conn, stream.as_mut(), &tx).await;
            let left = writers.fetch_sub(1, Ordering::SeqCst) - 1;
            match result {
                Ok(()) | Err(StreamError::Closed(_)) => {}
                Err(e) => {
                    let _ = tx.diagnostic(format!("{label}: {e}")).await;
                }
            }
            let _ = tx.status(LinkStatus::Listening { on, writers: left }).await;
        });
    }
}
