//! How `deck acp` ends, whatever happens on the way: SIGHUP (the terminal
//! closed), SIGINT and SIGTERM (sent to deck; Ctrl-c in the view is a key)
//! end the session as `q` does — the view's loop stops on them (and on a
//! terminal that is gone), and without the view the session is told to end
//! ([`Ending::start`]'s `on_signal`). From the first signal,
//! or once the session starts to end ([`Ending::quitting`]), it has
//! [`END_WAIT`] to do so; should it not (a stuck file system, a second
//! signal), everything deck started is stopped and deck exits all the same,
//! the terminal given back first. On every way out, [`Ending::stop`] stops
//! what the session's processes left behind, and what could not be stopped
//! is said; [`StopOnDrop`] does it once more however `deck acp` is left (an
//! error returned early, a panic unwinding). What this must not do: stop anything deck did not start (it
//! only signals the session's [`Procs`]).

use std::io::Write;
use std::sync::Arc;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use anyhow::Context;
use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

use crate::clients::acp::{Procs, QUIT_WAIT};
use crate::text::sanitize;

/// How long the session has to end once it was asked to.
pub(super) const END_WAIT: Duration = Duration::from_secs(QUIT_WAIT.as_secs() + 6);

/// How long what the session left behind has after SIGTERM.
const GRACE: Duration = Duration::from_millis(500);

enum Note {
    Signal(i32),
    Quitting,
}

/// The watch over the session's end.
pub(super) struct Ending {
    tx: mpsc::Sender<Note>,
    procs: Arc<Procs>,
}

impl Ending {
    /// Watch for SIGHUP, SIGINT and SIGTERM from now on: the first calls
    /// `on_signal` and gives the session [`END_WAIT`]; a second, or the
    /// time running out, stops everything and exits (`view`: the
    /// terminal is given back first).
    pub(super) fn start(
        procs: Arc<Procs>,
        view: bool,
        on_signal: Box<dyn FnOnce() + Send>,
    ) -> anyhow::Result<Ending> {
        let (tx, rx) = mpsc::channel();
        let mut signals =
            Signals::new([SIGHUP, SIGINT, SIGTERM]).context("cannot install signal handlers")?;
        let to = tx.clone();
        std::thread::Builder::new()
            .name("deck-signals".into())
            .spawn(move || {
                for sig in signals.forever() {
                    if to.send(Note::Signal(sig)).is_err() {
                        return;
                    }
                }
            })
            .context("cannot start the signal thread")?;
        let stopping = procs.clone();
        std::thread::Builder::new()
            .name("deck-ending".into())
            .spawn(move || watch(rx, stopping, view, on_signal))
            .context("cannot start the ending thread")?;
        Ok(Ending { tx, procs })
    }

    /// The session starts to end (the view closed): it has [`END_WAIT`].
    pub(super) fn quitting(&self) {
        let _ = self.tx.send(Note::Quitting);
    }

    /// Stop what the session's processes left; what could not be stopped.
    pub(super) fn stop(&self) -> Vec<String> {
        self.procs.stop_all(GRACE)
    }
}

fn watch(
    rx: mpsc::Receiver<Note>,
    procs: Arc<Procs>,
    view: bool,
    on_signal: Box<dyn FnOnce() + Send>,
) {
    let mut on_signal = Some(on_signal);
    let mut deadline: Option<Instant> = None;
    loop {
        let got = match deadline {
            Some(d) => rx.recv_timeout(d.saturating_duration_since(Instant::now())),
            None => rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
        };
        match got {
            Ok(Note::Signal(sig)) => {
                tracing::info!(signal = sig, "deck acp: a signal");
                if deadline.is_some() {
                    return give_up(&procs, view, "a second signal");
                }
                deadline = Some(Instant::now() + END_WAIT);
                if let Some(f) = on_signal.take() {
                    f();
                }
            }
            Ok(Note::Quitting) => {
                deadline.get_or_insert_with(|| Instant::now() + END_WAIT);
            }
            Err(RecvTimeoutError::Timeout) => {
                return give_up(&procs, view, "the session did not end in time");
            }
            Err(RecvTimeoutError::Disconnected) => return,
        }
    }
}

/// Stops what the session started, and says what it could not, when
/// dropped: the last word however `deck acp` is left.
pub(super) struct StopOnDrop(pub(super) Arc<Procs>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        say_left(&self.0.stop_all(GRACE));
    }
}

/// Stop everything deck started and exit now.
fn give_up(procs: &Procs, view: bool, why: &str) {
    if view {
        crate::app::terminal::restore();
    }
    let left = procs.stop_all(GRACE);
    say(&format!("deck acp: {why}: stopped what it started"));
    say_left(&left);
    std::process::exit(1);
}

/// Say `text` on stderr, sanitized; a stderr that is gone is no error.
pub(super) fn say(text: &str) {
    let _ = writeln!(std::io::stderr(), "{}", sanitize::message(text));
}

/// Say what could not be stopped, if anything.
pub(super) fn say_left(left: &[String]) {
    if left.is_empty() {
        return;
    }
    let n = left.len();
    let s = if n == 1 { "" } else { "es" };
    say(&format!(
        "deck acp: could not stop {n} process{s} it started: {}",
        left.join(", ")
    ));
}
