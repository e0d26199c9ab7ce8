//! The terminal driver: raw mode, alternate screen, mouse, synchronized
//! updates; reads keys and mouse, feeds the app messages, performs its
//! effects (quit, OSC 52 copy) and redraws at most ~60 times a second and
//! never when nothing changed. The terminal is restored on every way out:
//! quit, error, panic (hook), SIGINT, SIGTERM and SIGHUP. A terminal that
//! is gone (a read or a write fails with EIO or EPIPE: its window closed)
//! ends the loop as `q` does, so the command's own ending runs.
//!
//! [`run_loading`] drives the phases, files of their own under `run/`:
//! `console.rs` takes the terminal (signals, the input thread, a live feed
//! relayed: `feed.rs`), `load.rs` shows the loading screen while the app
//! is built (`opening.rs`: a file for `deck view`, shown while it is
//! read), and `event_loop.rs` runs it a turn at a time.

mod console;
mod event_loop;
mod feed;
mod load;
mod opening;

use std::sync::mpsc::Receiver;

use console::Console;
use event_loop::{Drawn, EventLoop};
pub use event_loop::Switcher;
pub use feed::Feed;
pub use opening::open_streamed;

use super::loading::Progress;
use super::state::App;
pub use super::terminal::ensure_terminal;
use crate::wire::Record;

/// Run the app until it quits. `live`: records from a live source.
pub fn run(app: App, live: Option<Receiver<Vec<Record>>>) -> anyhow::Result<()> {
    run_feed(app, live.map(Feed::Records))
}

/// [`run_feed_with`] without session switching.
pub fn run_feed(app: App, live: Option<Feed>) -> anyhow::Result<()> {
    run_feed_with(app, live, None)
}

/// Run the app fed by a live source; `on_switch` performs `Effect::Switch`.
pub fn run_feed_with(
    app: App,
    live: Option<Feed>,
    on_switch: Option<Switcher>,
) -> anyhow::Result<()> {
    run_loading(String::new(), move |_| Ok(app), live, on_switch)
}

/// Build the app with `make` on a thread while the terminal shows a loading
/// screen (after a moment; keys `q`, Esc and Ctrl-C leave), then run it. A
/// load error leaves the terminal restored and is returned.
pub fn run_loading(
    label: String,
    make: impl FnOnce(&Progress) -> anyhow::Result<App> + Send + 'static,
    live: Option<Feed>,
    on_switch: Option<Switcher>,
) -> anyhow::Result<()> {
    ensure_terminal()?;
    let mut console = Console::open(live)?;
    let Some(app) = load::load(&mut console, &label, make)? else {
        return Ok(());
    };
    let mut app = EventLoop::new(app, on_switch, &console)?;
    while !console.stopped() {
        match app.draw(&mut console)? {
            Drawn::Gone => break,
            Drawn::Frame => after_draw(),
            Drawn::Nothing => {}
        }
        if app.answer(&mut console)? {
            break;
        }
    }
    Ok(())
}

/// Test builds only: with `DECK_TEST_PANIC`, a panic on purpose after a
/// draw, so the tests can see the panic hook give the terminal back.
fn after_draw() {
    #[cfg(debug_assertions)]
    if std::env::var_os("DECK_TEST_PANIC").is_some() {
        panic!("DECK_TEST_PANIC: a panic on purpose");
    }
}
