//! Starting the live commands: `listen`, `follow` and `connect` open the
//! TUI fed by a live source; `record` runs a source headless into a file.
//!
//! The sources run on a small tokio runtime beside the TUI thread. A
//! forwarding thread turns their [`LiveEvent`]s into app messages, in order,
//! over a bounded channel (so back-pressure reaches the sources): records,
//! the link state for the status bar, and resets when the source switches
//! session. Session lists are not shown yet.

use std::future::Future;
use std::path::PathBuf;
use std::sync::mpsc::{SyncSender, sync_channel};
use std::time::Duration;

use anyhow::Context;
use tokio::runtime::Runtime;
use tokio::sync::mpsc::Receiver;

use super::config;
use super::history;
use super::launch::base_app;
use super::run::{Feed, ensure_terminal};
use super::state::{App, Msg};
use crate::cli::TuiArgs;
use crate::source::follow::Follow;
use crate::source::host::{self, HostOptions, SessionChoice};
use crate::source::listen;
use crate::source::live::{self, CHANNEL_BATCHES, Endpoint, LinkStatus, LiveEvent, LiveTx};
use crate::source::record::{self, Recording};
use crate::wire::Record;

fn runtime() -> anyhow::Result<Runtime> {
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
        LiveEvent::Status(s) => Some(Msg::Link(s.label())),
        LiveEvent::Diagnostic(d) => Some(Msg::Records(vec![Record::Diagnostic(d)])),
        LiveEvent::Reset { session_id } => Some(Msg::Reset { session_id }),
        LiveEvent::Sessions(list) => Some(Msg::Sessions(list)),
        LiveEvent::Session(change) => Some(Msg::Session(change)),
        LiveEvent::Said(text) => Some(Msg::Notice(text)),
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
fn spawn_source<F, E>(rt: &Runtime, tx: LiveTx, source: impl FnOnce(LiveTx) -> F)
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

fn run_tui(
    label: String,
    session: Option<String>,
    tui: &TuiArgs,
    rt: Runtime,
    rx: Receiver<LiveEvent>,
) -> anyhow::Result<()> {
    run_tui_with(label, session, tui, rt, rx, None, false)
}

fn run_tui_with(
    label: String,
    session: Option<String>,
    tui: &TuiArgs,
    rt: Runtime,
    rx: Receiver<LiveEvent>,
    host: Option<(super::run::Switcher, Drive)>,
    pick_on_start: bool,
) -> anyhow::Result<()> {
    let cfg = config::load()?;
    let mut app = App::live(label, session, Vec::new());
    app.pick_on_start = pick_on_start;
    // Only a host client can send prompts and answer what the host asks.
    let on_switch = host.map(|(switch, drive)| {
        app.enable_driving(drive.history);
        if let Some(d) = app.drive.as_mut() {
            d.cwd = drive.cwd;
            d.preset = drive.preset;
            // A session made to talk to: the message field has the keys.
            d.typing = drive.typing;
        }
        switch
    });
    base_app(&mut app, tui, &cfg)?;
    let (msg_tx, msg_rx) = sync_channel(CHANNEL_BATCHES);
    std::thread::spawn(move || forward(rx, msg_tx));
    let r = super::run::run_feed_with(app, Some(Feed::Msgs(msg_rx)), on_switch);
    rt.shutdown_background();
    r
}

/// `deck listen [-|unix:PATH|tcp:[HOST:]PORT]`.
pub fn listen(endpoint: &str, session: Option<String>, tui: TuiArgs) -> anyhow::Result<()> {
    ensure_terminal()?;
    let ep = Endpoint::parse(endpoint);
    let rt = runtime()?;
    let bound = rt.block_on(listen::bind(&ep))?;
    let label = bound.describe();
    tracing::info!(mode = "listen", on = label, session, "opening");
    let (tx, rx) = live::channel();
    let s = session.clone();
    spawn_source(&rt, tx, move |tx| bound.serve(s, None, tx));
    run_tui(label, session, &tui, rt, rx)
}

/// `deck follow PATH`.
pub fn follow(path: PathBuf, session: Option<String>, tui: TuiArgs) -> anyhow::Result<()> {
    ensure_terminal()?;
    let rt = runtime()?;
    let label = super::launch::label(&path.to_string_lossy());
    tracing::info!(mode = "follow", path = %path.display(), session, "opening");
    let (tx, rx) = live::channel();
    let mut f = Follow::new(path);
    f.session.clone_from(&session);
    spawn_source(&rt, tx, move |tx| f.run(None, tx));
    run_tui(label, session, &tui, rt, rx)
}

/// Which session `deck connect` shows, and where new ones start.
#[derive(Debug, Default, Clone)]
pub struct Open {
    pub session: Option<String>,
    pub latest: bool,
    /// Create one first.
    pub new: bool,
    /// Where created sessions start (default: the current directory).
    pub cwd: Option<PathBuf>,
    pub preset: Option<String>,
}

/// `deck connect [URL] [--session ID | --latest | --new [--cwd DIR]]`.
pub fn connect(url: &str, open: Open, tui: TuiArgs) -> anyhow::Result<()> {
    ensure_terminal()?;
    let host_url = host::HostUrl::parse(url)?;
    tracing::info!(
        mode = "connect",
        url = %host_url,
        session = open.session,
        latest = open.latest,
        new = open.new,
        "opening"
    );
    let rt = runtime()?;
    let cwd = match &open.cwd {
        Some(d) => Some(
            std::path::absolute(d)
                .with_context(|| format!("--cwd {}", d.display()))?
                .to_string_lossy()
                .into_owned(),
        ),
        None => std::env::current_dir()
            .ok()
            .map(|p| p.to_string_lossy().into_owned()),
    };
    let mut session = open.session.clone();
    if open.new {
        let rpc = host::Rpc::new(host_url);
        let id = rt
            .block_on(host::create(&rpc, cwd.as_deref(), open.preset.as_deref()))
            .map_err(|e| anyhow::anyhow!("deck connect --new: no session created: {e}"))?;
        tracing::info!(session = id, "created a session");
        session = Some(id);
    }
    let choice = match &session {
        Some(id) => SessionChoice::Id(id.clone()),
        None => SessionChoice::Latest,
    };
    let (tx, rx) = live::channel();
    let opts = HostOptions::new(url, choice);
    let (ctl_tx, ctl_rx) = tokio::sync::mpsc::channel(8);
    spawn_source(&rt, tx, move |tx| host::run(opts, None, tx, Some(ctl_rx)));
    let label = url.trim_start_matches("http://").to_string();
    // Switching sessions, prompts, cancels and answers go to the host
    // client; sent prompts also join the history file.
    let history = history::Store::from_env();
    let past = history.load();
    let switch: super::run::Switcher = Box::new(move |c| {
        if let host::Control::Prompt { text, .. } = &c {
            history.append(text);
        }
        let _ = ctl_tx.try_send(c);
    });
    let pick = session.is_none() && !open.latest;
    let drive = Drive {
        history: past,
        typing: open.new,
        cwd,
        preset: open.preset,
    };
    run_tui_with(label, session, &tui, rt, rx, Some((switch, drive)), pick)
}

/// What `deck connect` starts the composer with.
struct Drive {
    history: Vec<String>,
    typing: bool,
    cwd: Option<String>,
    preset: Option<String>,
}

/// `deck record URL|SOURCE -o FILE`.
pub fn record(
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
    let done = rt.block_on(record::record(opts, |line| say(&line.to_string())))?;
    say(&format!(
        "{} messages written to {shown} (stopped: {})",
        done.messages, done.stopped_by
    ));
    rt.shutdown_background();
    Ok(())
}
