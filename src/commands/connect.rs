//! `deck connect [URL]`: show a session of a running DSH host live, and
//! drive it — switch sessions, send prompts, answer what the host asks.

use std::path::PathBuf;

use anyhow::Context;

use super::shared::live::{Drive, run_tui_with, runtime, spawn_source};
use crate::app::run::{Switcher, ensure_terminal};
use crate::cli::TuiArgs;
use crate::clients::dsh::{self as host, HostOptions, SessionChoice};
use crate::settings::sent_history;
use crate::source::live;

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
pub fn run(url: &str, open: Open, tui: TuiArgs) -> anyhow::Result<()> {
    ensure_terminal()?;
    let host_url = host::HostUrl::parse(url)?;
    let host_text = host_url.to_string();
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
            .map_err(|e| {
                // Nothing answers: say how to start a host there.
                let hint = if e.starts_with("cannot connect") {
                    format!(
                        "; no DSH host answers at {host_text}: start one with `{}`",
                        crate::app::link::start_command(Some(url))
                    )
                } else {
                    String::new()
                };
                anyhow::anyhow!("connect --new: no session created: {e}{hint}")
            })?;
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
    let history = sent_history::Store::from_env();
    crate::private::say_all(&history.close_up());
    let past = history.load();
    let switch: Switcher = Box::new(move |c| {
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
        host: Some(host_text),
        held: false,
        clock_origin_ms: None,
    };
    run_tui_with(
        label,
        session,
        &tui,
        rt,
        rx,
        Some((switch, drive)),
        pick,
        None,
    )
}
