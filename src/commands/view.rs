//! `deck view PATH`: open the final state of a session at once, for reading
//! (a file of several sessions: the session picker first).

use super::shared::tui::open_file;
use crate::app::App;
use crate::app::file_sessions::FileMode;
use crate::cli::TuiArgs;

/// `deck view PATH`: loaded and folded behind a loading screen.
pub fn run(path: &str, session: Option<&str>, tui: TuiArgs) -> anyhow::Result<()> {
    open_file("view", path, session, tui, |label, loaded, session, _| {
        let started = std::time::Instant::now();
        let app = App::from_file(label, loaded, session, FileMode::View)?;
        tracing::debug!(
            cards = app.transcript().cards().len(),
            ms = started.elapsed().as_secs_f64() * 1000.0,
            "folded"
        );
        Ok(app)
    })
}
