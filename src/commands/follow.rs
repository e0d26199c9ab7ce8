//! `deck follow PATH | --latest AGENT`: show a session log as it grows
//! (like `tail -f`): a frame log, a plain session.jsonl, another agent's
//! session log, or a session of an agent's database (read again as it
//! changes); `--latest` asks the agent (the registry's, by its word:
//! `claude`, `codex`) for its newest session for the current directory,
//! or waits for its first one.

use std::io::IsTerminal;
use std::path::PathBuf;

use super::shared::live::{run_tui, runtime, spawn_source};
use super::shared::tui::label;
use crate::agents;
use crate::app::run::ensure_terminal;
use crate::cli::TuiArgs;
use crate::load::follow::{Follow, Latest};
use crate::source::live;

/// What to follow: a file, or the session of an agent that has none for
/// this directory yet.
pub enum Target {
    /// A file given.
    File(PathBuf),
    /// The agent's newest session for `cwd`, in the file `path` (a
    /// database holds every directory's: `cwd` picks among them).
    Found {
        path: PathBuf,
        cwd: PathBuf,
    },
    Awaited(Latest),
}

/// The file to follow: `path`, or the newest session of `latest` for the
/// current directory. With none there yet, deck waits for one in its
/// terminal view; without a terminal (nothing to wait in), the error says
/// where deck looked.
pub fn target(path: Option<PathBuf>, latest: Option<String>) -> anyhow::Result<Target> {
    let agent = match (path, latest) {
        (Some(p), _) => return Ok(Target::File(p)),
        (None, Some(word)) => agents::by_latest_word(&word)
            .ok_or_else(|| anyhow::anyhow!("follow --latest: no agent is called {word:?}"))?,
        (None, None) => anyhow::bail!(
            "follow: give a file, or --latest {}",
            agents::latest_words().join("|")
        ),
    };
    let root = agent
        .root()
        .ok_or_else(|| anyhow::anyhow!("follow --latest: no home directory to look in"))?;
    let cwd = std::env::current_dir()?;
    // Files older than this were looked at now: waiting reads newer ones only
    // (a second early, for file systems with coarse times).
    let since = std::time::SystemTime::now() - std::time::Duration::from_secs(1);
    match agent.latest(&root, &cwd, std::time::SystemTime::UNIX_EPOCH) {
        Ok(path) => Ok(Target::Found { path, cwd }),
        Err(e) if !std::io::stdout().is_terminal() => {
            anyhow::bail!("follow --latest: {e}")
        }
        Err(_) => Ok(Target::Awaited(Latest {
            agent,
            root,
            cwd,
            since,
        })),
    }
}

/// `deck follow PATH` (or `--latest AGENT`).
pub fn run(target: Target, session: Option<String>, tui: TuiArgs) -> anyhow::Result<()> {
    ensure_terminal()?;
    let rt = runtime()?;
    let (label, mut f) = match target {
        Target::File(path) => {
            tracing::info!(mode = "follow", path = %path.display(), session, "opening");
            (label(&path.to_string_lossy()), Follow::new(path))
        }
        Target::Found { path, cwd } => {
            tracing::info!(mode = "follow", path = %path.display(), cwd = %cwd.display(), session, "opening");
            let shown = label(&path.to_string_lossy());
            let mut f = Follow::new(path);
            f.dir = Some(cwd);
            (shown, f)
        }
        Target::Awaited(latest) => {
            tracing::info!(mode = "follow", agent = latest.agent.name(), cwd = %latest.cwd.display(), session, "waiting");
            (
                format!("latest {}", latest.agent.name()),
                Follow::latest(latest),
            )
        }
    };
    let (tx, rx) = live::channel();
    f.session.clone_from(&session);
    spawn_source(&rt, tx, move |tx| f.run(None, tx));
    run_tui(label, session, &tui, rt, rx)
}
