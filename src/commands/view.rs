//! `deck view PATH`: open the final state of a session for reading, its
//! first cards at once however big the file, the rest read behind them (a
//! file of several sessions: the session picker first).

use super::shared::tui::open_read;
use crate::app::file_sessions::FileMode;
use crate::cli::TuiArgs;

/// `deck view PATH`.
pub fn run(path: &str, session: Option<&str>, tui: TuiArgs) -> anyhow::Result<()> {
    open_read("view", path, session, tui, |_| Ok((FileMode::View, None)))
}
