//! The connection loop of the host client: list sessions, open both
//! WebSockets, stitch each followed session's live frames with its history
//! ([`super::stitch`]), and reconnect with capped exponential backoff when
//! the host goes away, reporting every state as a [`LinkStatus`].
//!
//! Order on every (re)connect: `host.describe`, `session.list`, then the sockets, then a
//! history request per followed session — the sockets are open before the
//! history snapshot is taken, so nothing falls between the two; the stitcher
//! drops what both carry.

use std::collections::HashMap;
use std::sync::Arc;

use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;

use super::history::Page;
use super::options::{Control, HostError, HostOptions, SessionChoice};
use super::recording::Recording;
use super::rpc::{HostUrl, Rpc, RpcError};
use super::stitch::Stitch;
use crate::source::live::{LinkStatus, LiveEvent, LiveTx, Tap};
use crate::source::sessions::SessionBook;
use crate::wire::{Diagnostic, Origin};

type Ws = WebSocketStream<TcpStream>;

pub(super) enum Internal {
    Fetched {
        session: String,
        result: Result<Page, String>,
        not_found: bool,
    },
    Retry {
        session: String,
    },
    /// `session.create` answered with this session: show it.
    Created(String),
}

/// Why a connection ended.
enum Lost {
    Link(String),
    Stop,
}

pub(super) struct Client {
    pub(super) rpc: Arc<Rpc>,
    pub(super) opts: HostOptions,
    /// What goes to the recording (`deck record`), each event once.
    pub(super) recording: Recording,
    pub(super) tx: LiveTx,
    pub(super) book: SessionBook,
    pub(super) shown: Option<String>,
    pub(super) stitches: HashMap<String, Stitch>,
    pub(super) fetches: HashMap<String, JoinHandle<()>>,
    pub(super) internal_tx: mpsc::UnboundedSender<Internal>,
    pub(super) status: Option<LinkStatus>,
    pub(super) ended: bool,
    pub(super) messages: usize,
}

/// Run a host client until the consumer goes away.
pub async fn run(
    opts: HostOptions,
    tap: Tap,
    tx: LiveTx,
    control: Option<mpsc::Receiver<Control>>,
) -> Result<(), HostError> {
    let url = HostUrl::parse(&opts.url).map_err(HostError::Url)?;
    let (internal_tx, internal_rx) = mpsc::unbounded_channel();
    let shown = match &opts.session {
        SessionChoice::Id(id) => Some(id.clone()),
        _ => None,
    };
    let mut c = Client {
        rpc: Arc::new(Rpc::new(url)),
        opts,
        recording: Recording::new(tap),
        tx,
        book: SessionBook::new(),
        shown,
        stitches: HashMap::new(),
        fetches: HashMap::new(),
        internal_tx,
        status: None,
        ended: false,
        messages: 0,
    };
    let r = c.run(internal_rx, control).await;
    for (_, h) in c.fetches.drain() {
        h.abort();
    }
    match r {
        Err(HostError::Closed(_)) => Ok(()),
        r => r,
    }
}

impl Client {
    async fn run(
        &mut self,
        mut internal: mpsc::UnboundedReceiver<Internal>,
        mut control: Option<mpsc::Receiver<Control>>,
    ) -> Result<(), HostError> {
        let mut failures = 0u32;
        let mut first = true;
        loop {
            self.set_status(LinkStatus::Connecting {
                attempt: failures + 1,
            })
            .await?;
            tracing::debug!(url = %self.rpc.url, attempt = failures + 1, "connecting to the host");
            let reason = match self.connect().await {
                Ok((mux, host)) => {
                    tracing::info!(
                        url = %self.rpc.url,
                        sessions = self.book.list().len(),
                        reconnect = !first,
                        "connected to the host"
                    );
                    if first {
                        self.check_session()?;
                        first = false;
                    }
                    failures = 0;
                    match self.serve(mux, host, &mut internal, &mut control).await? {
                        Lost::Stop => {
                            tracing::info!("host client stopped: the consumer went away");
                            return Ok(());
                        }
                        Lost::Link(reason) => reason,
                    }
                }
                Err(e) => {
                    tracing::debug!(error = %e, "cannot reach the host");
                    e.to_string()
                }
            };
            for (_, h) in self.fetches.drain() {
                h.abort();
            }
            for s in self.stitches.values_mut() {
                s.link_lost();
            }
            self.recording.link_lost()?;
            failures += 1;
            let wait = self.opts.backoff.delay(failures);
            tracing::warn!(
                %reason,
                failures,
                retry_in_ms = wait.as_millis() as u64,
                "host link lost"
            );
            self.set_status(LinkStatus::Disconnected {
                reason,
                retry_in_ms: wait.as_millis() as u64,
            })
            .await?;
            let sleep = tokio::time::sleep(wait);
            tokio::pin!(sleep);
            loop {
                tokio::select! {
                    () = &mut sleep => break,
                    () = self.tx.closed() => return Ok(()),
                    c = recv(&mut control) => self.control(c, false).await?,
                }
            }
        }
    }

    async fn connect(&mut self) -> Result<(Ws, Ws), RpcError> {
        self.recording.connected();
        // Is it a DSH host at all (and up)? A wrong URL fails here, clearly.
        self.rpc.call("host.describe", json!({})).await?;
        let list = self.rpc.call("session.list", json!({})).await?;
        self.book.set_list(&list);
        let mux = self.rpc.websocket("/api/events.mux").await?;
        let host = self.rpc.websocket("/api/events.host").await?;
        Ok((mux, host))
    }

    pub(super) fn check_session(&self) -> Result<(), HostError> {
        match &self.opts.session {
            SessionChoice::Id(id) if !self.book.contains(id) => Err(HostError::NoSuchSession {
                id: id.clone(),
                known: self
                    .book
                    .list()
                    .iter()
                    .map(|s| s.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            }),
            _ => Ok(()),
        }
    }

    pub(super) fn follows(&self, id: &str) -> bool {
        self.opts.session == SessionChoice::All || self.shown.as_deref() == Some(id)
    }

    async fn serve(
        &mut self,
        mut mux: Ws,
        mut host: Ws,
        internal: &mut mpsc::UnboundedReceiver<Internal>,
        control: &mut Option<mpsc::Receiver<Control>>,
    ) -> Result<Lost, HostError> {
        self.tx.send(LiveEvent::Sessions(self.book.list())).await?;
        if self.shown.is_none()
            && self.opts.session == SessionChoice::Latest
            && let Some(id) = self.book.latest()
        {
            self.choose(id).await?;
        }
        let ids: Vec<String> = if self.opts.session == SessionChoice::All {
            self.book.list().into_iter().map(|s| s.id).collect()
        } else {
            self.shown.iter().cloned().collect()
        };
        for id in ids {
            let out = self.stitches.entry(id.clone()).or_default().catch_up();
            self.handle(&id, out).await?;
        }
        self.update_status().await?;
        // Any word from the host (a message, a pong) shows it is there.
        let keepalive = self.opts.keepalive;
        let mut heard = tokio::time::Instant::now();
        let mut pinged = false;
        loop {
            let quiet_until = heard + if pinged { keepalive * 2 } else { keepalive };
            tokio::select! {
                m = mux.next() => {
                    (heard, pinged) = (tokio::time::Instant::now(), false);
                    match m {
                        Some(Ok(Message::Text(t))) => self.on_mux(t.as_str()).await?,
                        Some(Ok(Message::Close(_))) | None => return Ok(Lost::Link("the host closed the event stream".into())),
                        Some(Err(e)) => return Ok(Lost::Link(e.to_string())),
                        Some(Ok(_)) => {}
                    }
                },
                m = host.next() => {
                    (heard, pinged) = (tokio::time::Instant::now(), false);
                    match m {
                        Some(Ok(Message::Text(t))) => self.on_host(t.as_str()).await?,
                        Some(Ok(Message::Close(_))) | None => return Ok(Lost::Link("the host closed the host stream".into())),
                        Some(Err(e)) => return Ok(Lost::Link(e.to_string())),
                        Some(Ok(_)) => {}
                    }
                },
                () = tokio::time::sleep_until(quiet_until) => {
                    if pinged {
                        let quiet = (keepalive * 2).as_secs_f64();
                        return Ok(Lost::Link(format!("no answer from the host for {quiet:.0} s")));
                    }
                    pinged = true;
                    if let Err(e) = mux.send(Message::Ping(Vec::new().into())).await {
                        return Ok(Lost::Link(e.to_string()));
                    }
                },
                Some(i) = internal.recv() => self.on_internal(i).await?,
                c = recv(control) => self.control(c, true).await?,
                () = self.tx.closed() => return Ok(Lost::Stop),
            }
            self.update_status().await?;
        }
    }

    async fn control(&mut self, c: Option<Control>, connected: bool) -> Result<(), HostError> {
        let id = match c {
            Some(Control::Switch(id)) => id,
            Some(act) => {
                self.act(act);
                return Ok(());
            }
            None => return Ok(()),
        };
        self.choose(id.clone()).await?;
        if connected {
            let out = self.stitches.entry(id.clone()).or_default().catch_up();
            self.handle(&id, out).await?;
        }
        Ok(())
    }

    /// Do what the user asked on the host, off the event loop.
    fn act(&self, act: Control) {
        let internal = self.internal_tx.clone();
        let created = move |id: String| {
            let _ = internal.send(Internal::Created(id));
        };
        super::actions::spawn(
            act,
            self.rpc.clone(),
            self.tx.clone(),
            self.shown.clone(),
            created,
        );
    }

    /// Show `id` from now on.
    pub(super) async fn choose(&mut self, id: String) -> Result<(), HostError> {
        if self.opts.session != SessionChoice::All {
            for (_, h) in self.fetches.drain() {
                h.abort();
            }
            self.stitches.clear();
        }
        self.shown = Some(id.clone());
        self.ended = false;
        self.stitches.entry(id.clone()).or_default();
        self.tx
            .send(LiveEvent::Reset {
                session_id: Some(id),
            })
            .await?;
        Ok(())
    }

    pub(super) async fn diagnostic(&self, reason: String, raw: &str) -> Result<(), HostError> {
        tracing::debug!(%reason, message = self.messages, "host diagnostic");
        self.tx
            .send(LiveEvent::Diagnostic(Diagnostic {
                origin: Origin {
                    line: self.messages,
                    offset: 0,
                },
                reason,
                raw: raw.to_string(),
            }))
            .await?;
        Ok(())
    }

    pub(super) async fn update_status(&mut self) -> Result<(), HostError> {
        let s = if self.ended {
            LinkStatus::Ended
        } else {
            // The shown session's backfill; the recorder's: any session's.
            let all = self.opts.session == SessionChoice::All;
            let shown = self.shown.as_deref();
            self.stitches
                .iter()
                .filter(|(id, st)| st.is_fetching() && (all || shown == Some(id.as_str())))
                .map(|(_, st)| st.next_seq())
                .min()
                .map_or(LinkStatus::Live, |from_seq| LinkStatus::Backfilling {
                    from_seq,
                })
        };
        self.set_status(s).await
    }

    async fn set_status(&mut self, s: LinkStatus) -> Result<(), HostError> {
        if self.status.as_ref() != Some(&s) {
            self.status = Some(s.clone());
            self.tx.status(s).await?;
        }
        Ok(())
    }
}

/// Receive from an optional control channel; pending forever without one
/// (or once it is closed).
async fn recv(control: &mut Option<mpsc::Receiver<Control>>) -> Option<Control> {
    match control {
        Some(rx) => match rx.recv().await {
            Some(c) => Some(c),
            None => {
                *control = None;
                std::future::pending().await
            }
        },
        None => std::future::pending().await,
    }
}
