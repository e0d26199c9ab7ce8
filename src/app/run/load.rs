//! The app built on a thread while the terminal shows the loading screen
//! (`loading.rs`), after a moment ([`LOADING_SCREEN_AFTER`]): a short load
//! shows none. `q`, Esc and Ctrl-C leave, as do a signal and a terminal
//! that is gone.

use std::sync::Arc;
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use anyhow::Context;
use crossterm::event::Event;

use super::console::Console;
use crate::app::loading::{Progress, draw_loading, loading_quits};
use crate::app::state::App;

/// A load shorter than this shows no loading screen: a file shown while
/// it is read (`opening.rs`) is ready in ~40 ms, and shows its cards
/// without a loading screen flashing first.
const LOADING_SCREEN_AFTER: Duration = Duration::from_millis(60);

/// Build the app with `make` on a thread, showing how far it got. `None`:
/// left before it was built (then nothing is said: the user asked, or the
/// terminal is gone). A load error is returned.
pub(super) fn load(
    console: &mut Console,
    label: &str,
    make: impl FnOnce(&Progress) -> anyhow::Result<App> + Send + 'static,
) -> anyhow::Result<Option<App>> {
    let progress = Arc::new(Progress::default());
    let (made_tx, made) = std::sync::mpsc::channel();
    let p = progress.clone();
    std::thread::Builder::new()
        .name("deck-load".into())
        .spawn(move || {
            let _ = made_tx.send(make(&p));
        })
        .context("cannot start the loading thread")?;
    let started = Instant::now();
    loop {
        match made.recv_timeout(Duration::from_millis(25)) {
            Ok(app) => return app.map(Some),
            Err(RecvTimeoutError::Disconnected) => {
                anyhow::bail!("the loading thread stopped without a result")
            }
            Err(RecvTimeoutError::Timeout) => {}
        }
        if console.signalled() || console.gone() {
            tracing::info!("stopped by a signal, or the terminal is gone, while loading");
            return Ok(None);
        }
        while let Ok((_, ev)) = console.input.try_recv() {
            match ev {
                Some(Err(e)) => {
                    tracing::warn!(error = %e, "the terminal is gone (read error) while loading");
                    return Ok(None);
                }
                Some(Ok(Event::Key(k))) if loading_quits(&k) => return Ok(None),
                _ => {}
            }
        }
        if started.elapsed() >= LOADING_SCREEN_AFTER
            && let Err(e) = console
                .term
                .draw(|f| draw_loading(f.buffer_mut(), label, &progress, started))
        {
            console.ended_or(e)?;
            return Ok(None);
        }
    }
}
