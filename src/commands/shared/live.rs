//! What the live commands share: `listen`, `follow` and `connect` open the
//! TUI fed by a live source; `record` runs a source headless into a file.
//!
//! The sources run on a small tokio runtime beside the TUI thread. A
//! forwarding thread turns their [`LiveEvent`]s into app messages, in order,
//! over a bounded channel (so back-pressure reaches the sources): records,
//! the link state for the status bar, and resets when the source switches
//! session. Session lists are not shown yet.

use std::future::Future;
use std::sync::mpsc::{SyncSender, sync_channel};

use anyhow::Context;
use tokio::runtime::Runtime;
use tokio::sync::mpsc::Receiver;

use super::tui::base_app;
use crate::app::run::{self, Feed, Switcher};
use crate::app::{App, Msg};
use crate::cli::TuiArgs;
use crate::settings::config;
use crate::source::live::{CHANNEL_BATCHES, LinkStatus, LiveEvent, LiveTx};
use crate::wire::Record;

/// The runtime the live sources run on.
pub(crate) fn runtime() -> anyhow::Result<Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the async runtime")
}

/// The app message for a live event (`None`: nothing to show yet).
pub fn to_msg(ev: LiveEvent) -> Option<Msg> {
    match ev {
        LiveEvent::Records(r) => Some(Msg::Records(r)),
        LiveEvent::Status(s) => Some(Msg::Link(s)),
        LiveEvent::Diagnostic(d) => Some(Msg::Records(vec![Record::Diagnostic(d)])),
        LiveEvent::Reset { session_id } => Some(Msg::Reset { session_id }),
        LiveEvent::Sessions(list) => Some(Msg::Sessions(list)),
        LiveEvent::Session(change) => Some(Msg::Session(change)),
        LiveEvent::Said(text) => Some(Msg::Notice(text)),
        LiveEvent::Ahead(end) => Some(Msg::Ahead(end)),
        LiveEvent::CaughtUp => Some(Msg::CaughtUp),
    }
}

fn forward(mut rx: Receiver<LiveEvent>, out: SyncSender<Msg>) {
    while let Some(ev) = rx.blocking_recv() {
        if let Some(msg) = to_msg(ev)
            && out.send(msg).is_err()
        {
            return;
        }
    }
}

/// Spawn a source; its error ends up in the status bar and the diagnostics.
pub(crate) fn spawn_source<F, E>(rt: &Runtime, tx: LiveTx, source: impl FnOnce(LiveTx) -> F)
where
    F: Future<Output = Result<(), E>> + Send + 'static,
    E: std::fmt::Display,
{
    let report = tx.clone();
    let fut = source(tx);
    rt.spawn(async move {
        if let Err(reason) = fut.await.map_err(|e| e.to_string()) {
            let _ = report.diagnostic(reason.clone()).await;
            let _ = report.status(LinkStatus::Failed { reason }).await;
        }
    });
}

pub(crate) fn run_tui(
    label: String,
    session: Option<String>,
    tui: &TuiArgs,
    rt: Runtime,
    rx: Receiver<LiveEvent>,
) -> anyhow::Result<()> {
    run_tui_with(label, session, tui, rt, rx, None, false, None)
}

/// What runs on the runtime once the view is closed, before the runtime
/// is shut down (a client closing its session).
pub(crate) type Finish = Box<dyn FnOnce(&Runtime)>;

#[allow(clippy::too_many_arguments)]
pub(crate) fn run_tui_with(
    label: String,
    session: Option<String>,
    tui: &TuiArgs,
    rt: Runtime,
    rx: Receiver<LiveEvent>,
    host: Option<(Switcher, Drive)>,
    pick_on_start: bool,
    finish: Option<Finish>,
) -> anyhow::Result<()> {
    let cfg = config::load()?;
    let mut app = App::live(label, session, Vec::new());
    if pick_on_start {
        app.pick_on_start();
    }
    // Only a host client can send prompts and answer what the host asks.
    let on_switch = host.map(|(switch, drive)| {
        app.enable_driving(drive.history);
        if let Some(d) = app.driving_mut() {
            d.cwd = drive.cwd;
            d.preset = drive.preset;
            d.host = drive.host;
            d.held = drive.held;
        }
        if let Some(origin) = drive.clock_origin_ms {
            app.set_clock_origin(origin);
        }
        if drive.typing {
            // A session made to talk to: the message field has the keys.
            app.start_typing();
        }
        switch
    });
    let themes = super::tui::themes(tui, &cfg)?;
    base_app(&mut app, themes, tui, &cfg)?;
    let (msg_tx, msg_rx) = sync_channel(CHANNEL_BATCHES);
    std::thread::spawn(move || forward(rx, msg_tx));
    let r = run::run_feed_with(app, Some(Feed::Msgs(msg_rx)), on_switch);
    if let Some(f) = finish {
        f(&rt);
    }
    rt.shutdown_background();
    r
}

/// What `deck connect` starts the composer with.
pub(crate) struct Drive {
    pub history: Vec<String>,
    pub typing: bool,
    pub cwd: Option<String>,
    pub preset: Option<String>,
    /// The host's URL, said while it cannot be reached.
    pub host: Option<String>,
    /// Prompts sent during a turn wait for its end (`deck acp`).
    pub held: bool,
    /// What the session's event times count from, in epoch milliseconds
    /// (`deck acp`'s trace: the agent's start); `None`: epoch times.
    pub clock_origin_ms: Option<i64>,
}
