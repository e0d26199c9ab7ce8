//! `deck` and `deck demo`: play the bundled showcase session.

use super::replay::replay_app;
use super::shared::tui::base_app;
use crate::app::run;
use crate::cli::{PlayerArgs, TuiArgs};
use crate::settings::config;
use crate::source;

/// `deck` / `deck demo`.
pub fn run(tui: TuiArgs, player: PlayerArgs) -> anyhow::Result<()> {
    run::ensure_terminal()?;
    tracing::info!(mode = "demo", "opening");
    let cfg = config::load()?;
    let loaded = source::load_bytes("demo", source::demo::SHOWCASE)?;
    let mut app = replay_app("demo".into(), &loaded, None, &player, &cfg)?;
    let themes = super::shared::tui::themes(&tui, &cfg)?;
    base_app(&mut app, themes, &tui, &cfg)?;
    run::run(app, None)
}
