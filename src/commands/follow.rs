//! `deck follow PATH`: show a frame log or a plain session.jsonl as it
//! grows (like `tail -f`).

use std::path::PathBuf;

use super::live::{run_tui, runtime, spawn_source};
use super::tui::label;
use crate::app::run::ensure_terminal;
use crate::cli::TuiArgs;
use crate::source::follow::Follow;
use crate::source::live;

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
