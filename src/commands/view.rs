//! `deck view PATH`: open the final state of a session at once, for reading.

use super::tui::open_file;
use crate::app::App;
use crate::cli::TuiArgs;
use crate::session::Transcript;

/// `deck view PATH`: loaded and folded behind a loading screen.
pub fn run(path: &str, session: Option<&str>, tui: TuiArgs) -> anyhow::Result<()> {
    open_file("view", path, session, tui, |label, loaded, session, _| {
        let s = loaded.session(session)?;
        let started = std::time::Instant::now();
        let t = Transcript::from_records(s.id.clone(), &s.records, crate::present::stock());
        tracing::debug!(
            cards = t.cards().len(),
            ms = started.elapsed().as_secs_f64() * 1000.0,
            "folded"
        );
        Ok(App::viewer(label, t, Vec::new()))
    })
}
