//! The terminal as the driver holds it while the TUI runs: set up (raw
//! mode, the alternate screen: `terminal.rs`) and given back when this is
//! dropped, the signals that stop deck (SIGTERM, SIGHUP, SIGINT) turned
//! into a flag, the events read on their own thread, and a live feed
//! relayed (`feed.rs`).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Receiver;

use anyhow::Context;

use super::feed::{Feed, Input, Relayed, read_terminal, relay};
use crate::app::terminal::{self, Guard, Tty, setup};

/// The terminal the TUI runs in, and what comes from it.
pub(super) struct Console {
    /// Gives the terminal back when dropped (before `term` goes).
    _guard: Guard,
    pub(super) term: Tty,
    /// Set by a signal that stops deck.
    stop: Arc<AtomicBool>,
    /// Set once the terminal is found gone.
    gone: Arc<AtomicBool>,
    /// Terminal events, and wake-ups for live input.
    pub(super) input: Receiver<Input>,
    pub(super) live: Option<Relayed>,
}

impl Console {
    /// Take the terminal, and start reading its events and `live`.
    pub(super) fn open(live: Option<Feed>) -> anyhow::Result<Console> {
        let stop = Arc::new(AtomicBool::new(false));
        for sig in [
            signal_hook::consts::SIGTERM,
            signal_hook::consts::SIGHUP,
            signal_hook::consts::SIGINT,
        ] {
            signal_hook::flag::register(sig, stop.clone()).context("cannot install signal handlers")?;
        }
        let (term, gone) = setup()?;
        let guard = Guard;
        // `None` in place of an event: live input arrived (see `relay`), so
        // the loop wakes for it at once instead of at its next timeout.
        let (input_tx, input) = std::sync::mpsc::channel::<Input>();
        let live = live.map(|feed| relay(feed, input_tx.clone())).transpose()?;
        read_terminal(input_tx)?;
        Ok(Console {
            _guard: guard,
            term,
            stop,
            gone,
            input,
            live,
        })
    }

    /// The app must stop: a signal asked, or the terminal is gone.
    pub(super) fn stopped(&self) -> bool {
        if self.signalled() {
            tracing::info!("stopped by a signal");
            return true;
        }
        if self.gone() {
            tracing::info!("stopped: the terminal is gone");
            return true;
        }
        false
    }

    /// A signal asked deck to stop.
    pub(super) fn signalled(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The terminal is gone (a write failed).
    pub(super) fn gone(&self) -> bool {
        self.gone.load(Ordering::Relaxed)
    }

    /// The loop took a wake-up for live input.
    pub(super) fn awake(&self) {
        if let Some(l) = &self.live {
            l.awake();
        }
    }

    /// A draw failed: the end, as on `q`, when the terminal is gone (its
    /// size cannot be asked either); else the error.
    pub(super) fn ended_or(&self, e: std::io::Error) -> anyhow::Result<()> {
        if self.gone() || terminal::is_gone(&e) {
            tracing::warn!(error = %e, "the terminal is gone (a draw failed)");
            return Ok(());
        }
        Err(e.into())
    }
}
