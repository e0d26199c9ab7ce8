//! `deck follow PATH | --latest claude|codex`: show a session log as it
//! grows (like `tail -f`): a frame log, a plain session.jsonl, a Claude
//! Code session or a Codex rollout; `--latest` finds the agent's newest
//! session for the current directory.

use std::path::PathBuf;

use super::live::{run_tui, runtime, spawn_source};
use super::tui::label;
use crate::app::run::ensure_terminal;
use crate::cli::TuiArgs;
use crate::source::follow::Follow;
use crate::source::live;

/// The file to follow: `path`, or the newest session of `latest` for the
/// current directory (an error says where deck looked).
pub fn target(
    path: Option<PathBuf>,
    latest: Option<crate::cli::LatestAgent>,
) -> anyhow::Result<PathBuf> {
    use crate::source::agents::{Agent, find};
    let agent = match (path, latest) {
        (Some(p), _) => return Ok(p),
        (None, Some(crate::cli::LatestAgent::Claude)) => Agent::ClaudeCode,
        (None, Some(crate::cli::LatestAgent::Codex)) => Agent::Codex,
        (None, None) => anyhow::bail!("deck follow: give a file, or --latest claude|codex"),
    };
    let root = find::root(agent)
        .ok_or_else(|| anyhow::anyhow!("deck follow --latest: no home directory to look in"))?;
    let cwd = std::env::current_dir()?;
    find::latest_in(agent, &root, &cwd).map_err(|e| anyhow::anyhow!("deck follow --latest: {e}"))
}

/// `deck follow PATH`.
pub fn run(path: PathBuf, session: Option<String>, tui: TuiArgs) -> anyhow::Result<()> {
    ensure_terminal()?;
    let rt = runtime()?;
    let label = label(&path.to_string_lossy());
    tracing::info!(mode = "follow", path = %path.display(), session, "opening");
    let (tx, rx) = live::channel();
    let mut f = Follow::new(path);
    f.session.clone_from(&session);
    spawn_source(&rt, tx, move |tx| f.run(None, tx));
    run_tui(label, session, &tui, rt, rx)
}
