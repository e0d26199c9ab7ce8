//! `deck listen [-|unix:PATH|tcp:[HOST:]PORT]`: show frames written to
//! stdin, a unix socket or a TCP port, live.

use super::shared::live::{run_tui, runtime, spawn_source};
use crate::app::run::ensure_terminal;
use crate::cli::TuiArgs;
use crate::source::listen;
use crate::source::live::{self, Endpoint};

/// `deck listen [-|unix:PATH|tcp:[HOST:]PORT]`.
pub fn run(endpoint: &str, session: Option<String>, tui: TuiArgs) -> anyhow::Result<()> {
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
