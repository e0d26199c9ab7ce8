//! `deck view PATH`: open the final state of a session at once, for reading.

use super::tui::{base_app, label, load};
use crate::app::{App, config, run};
use crate::cli::TuiArgs;
use crate::session::Transcript;

/// `deck view PATH`: loaded and folded behind a loading screen.
pub fn run(path: &str, session: Option<&str>, tui: TuiArgs) -> anyhow::Result<()> {
    run::ensure_terminal()?;
    tracing::info!(mode = "view", path, session, "opening");
    let cfg = config::load()?;
    let (path, session) = (path.to_string(), session.map(str::to_string));
    run::run_loading(
        label(&path),
        move |progress| {
            let loaded = load(&path, progress)?;
            let s = loaded.session(session.as_deref())?;
            let started = std::time::Instant::now();
            let t = Transcript::from_records(s.id.clone(), &s.records, crate::present::stock());
            tracing::debug!(
                cards = t.cards().len(),
                ms = started.elapsed().as_secs_f64() * 1000.0,
                "folded"
            );
            let mut app = App::viewer(label(&path), t, Vec::new());
            base_app(&mut app, &tui, &cfg)?;
            Ok(app)
        },
        None,
        None,
    )
}
