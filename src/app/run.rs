//! The terminal driver: raw mode, alternate screen, mouse, synchronized
//! updates; reads keys and mouse, feeds the app messages, performs its
//! effects (quit, OSC 52 copy) and redraws at most ~60 times a second and
//! never when nothing changed. The terminal is restored on every way out:
//! quit, error, panic (hook), SIGINT, SIGTERM and SIGHUP. A terminal that
//! is gone (a read or a write fails with EIO or EPIPE: its window closed)
//! ends the loop as `q` does, so the command's own ending runs.

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::Context;
use crossterm::event::{self, Event};
use crossterm::execute;
use crossterm::terminal::{BeginSynchronizedUpdate, EndSynchronizedUpdate};

use super::draw::draw;
use super::loading::{Progress, draw_loading, loading_quits};
use super::msg::{Effect, Msg};
use super::state::App;
pub use super::terminal::ensure_terminal;
use super::terminal::{Guard, osc52, setup};
use crate::wire::Record;

/// Minimum time between two draws (~60 per second).
const FRAME: Duration = Duration::from_millis(16);
/// Time given to live input per turn of the loop.
const APPLY_BUDGET: Duration = Duration::from_millis(6);
/// A load shorter than this shows no loading screen.
const LOADING_SCREEN_AFTER: Duration = Duration::from_millis(40);

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// What feeds a live app.
pub enum Feed {
    /// Records only.
    Records(Receiver<Vec<Record>>),
    /// Any messages, in order (records, link state, resets).
    Msgs(Receiver<Msg>),
}

/// What the input thread and the live relay send the loop: a terminal
/// event when it was read, or `None` for "live input is waiting".
type Input = (Instant, Option<std::io::Result<Event>>);

/// A live feed as the loop takes it: messages, and the flag the relay sets
/// when it has woken the loop (cleared when the loop takes the wake-up).
struct Relayed {
    rx: Receiver<Msg>,
    woken: Arc<AtomicBool>,
}

/// Pass a live feed on through a bounded channel (back-pressure stays), and
/// wake the loop when a message arrives while it sleeps: it waits on the
/// keyboard, and a live frame must show within a frame, not at its next
/// timeout.
fn relay(feed: Feed, wake: std::sync::mpsc::Sender<Input>) -> anyhow::Result<Relayed> {
    let (tx, rx) = std::sync::mpsc::sync_channel(crate::source::live::CHANNEL_BATCHES);
    let woken = Arc::new(AtomicBool::new(false));
    let flag = woken.clone();
    std::thread::Builder::new()
        .name("deck-live".into())
        .spawn(move || {
            let next = || match &feed {
                Feed::Records(r) => r.recv().ok().map(Msg::Records),
                Feed::Msgs(r) => r.recv().ok(),
            };
            while let Some(msg) = next() {
                if tx.send(msg).is_err() {
                    return;
                }
                if !flag.swap(true, Ordering::Relaxed) && wake.send((Instant::now(), None)).is_err()
                {
                    return;
                }
            }
        })
        .context("cannot start the live relay thread")?;
    Ok(Relayed { rx, woken })
}

/// Run the app until it quits. `live`: records from a live source.
pub fn run(app: App, live: Option<Receiver<Vec<Record>>>) -> anyhow::Result<()> {
    run_feed(app, live.map(Feed::Records))
}

/// Run the app until it quits, fed by `live`.
/// What the driver calls to show another session of a live host.
pub type Switcher = Box<dyn FnMut(crate::clients::dsh::Control) + Send>;

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
/// screen (after [`LOADING_SCREEN_AFTER`]; keys `q`, Esc and Ctrl-C leave),
/// then run it. A load error leaves the terminal restored and is returned.
pub fn run_loading(
    label: String,
    make: impl FnOnce(&Progress) -> anyhow::Result<App> + Send + 'static,
    live: Option<Feed>,
    mut on_switch: Option<Switcher>,
) -> anyhow::Result<()> {
    ensure_terminal()?;
    let stop = Arc::new(AtomicBool::new(false));
    for sig in [
        signal_hook::consts::SIGTERM,
        signal_hook::consts::SIGHUP,
        signal_hook::consts::SIGINT,
    ] {
        signal_hook::flag::register(sig, stop.clone()).context("cannot install signal handlers")?;
    }
    let (mut term, gone) = setup()?;
    let _guard = Guard;
    // Keys and mouse are read on their own thread, so the loops below keep
    // checking the stop flag (signals) and the clock whatever the terminal
    // does — a vanished terminal can make reads return at once forever.
    // Each event carries when it was read, to trace key latency.
    // `None` in place of an event: live input arrived (see [`relay`]), so
    // the loop wakes for it at once instead of at its next timeout.
    let (input_tx, input) = std::sync::mpsc::channel::<Input>();
    let live = live.map(|feed| relay(feed, input_tx.clone())).transpose()?;
    std::thread::Builder::new()
        .name("deck-input".into())
        .spawn(move || {
            loop {
                let ev = event::read();
                let failed = ev.is_err();
                if input_tx.send((Instant::now(), Some(ev))).is_err() || failed {
                    return;
                }
            }
        })
        .context("cannot start the input thread")?;
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
    let mut app = loop {
        match made.recv_timeout(Duration::from_millis(25)) {
            Ok(app) => break app?,
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                anyhow::bail!("the loading thread stopped without a result")
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
        }
        if stop.load(Ordering::Relaxed) || gone.load(Ordering::Relaxed) {
            tracing::info!("stopped by a signal, or the terminal is gone, while loading");
            return Ok(());
        }
        while let Ok((_, ev)) = input.try_recv() {
            match ev {
                Some(Err(e)) => {
                    tracing::warn!(error = %e, "the terminal is gone (read error) while loading");
                    return Ok(());
                }
                Some(Ok(Event::Key(k))) if loading_quits(&k) => return Ok(()),
                _ => {}
            }
        }
        if started.elapsed() >= LOADING_SCREEN_AFTER
            && let Err(e) = term.draw(|f| draw_loading(f.buffer_mut(), &label, &progress, started))
        {
            return ended_or(e, &gone);
        }
    };
    // Cards seen for the first time show at once, colours follow.
    app.lay_out_progressively();
    app.search_in_background();
    let size = term.size()?;
    app.update(Msg::Resize(size.width, size.height));
    let mut dirty = true;
    let mut urgent = false;
    let mut more_live = false;
    let mut last_draw = Instant::now() - FRAME;
    let mut last_tick = Instant::now();
    // An input event taken while applying live input, answered next turn.
    let mut held: Option<Input> = None;
    // Keys answered but not drawn yet (when they were read), for the trace.
    let mut trace = KeyTrace::from_env();
    app.update(Msg::Tick {
        real_ms: 0.0,
        now_ms: now_ms(),
    });
    loop {
        if stop.load(Ordering::Relaxed) {
            tracing::info!("stopped by a signal");
            break;
        }
        if gone.load(Ordering::Relaxed) {
            tracing::info!("stopped: the terminal is gone");
            break;
        }
        // A key is answered on the next draw at once; other changes are
        // drawn at most once per frame interval.
        urgent &= dirty;
        if dirty && (urgent || last_draw.elapsed() >= FRAME) {
            execute!(term.backend_mut(), BeginSynchronizedUpdate)?;
            let drawn = term.draw(|f| {
                app.prepare(f.area());
                draw(&app, f.buffer_mut());
            });
            if let Err(e) = drawn {
                return ended_or(e, &gone);
            }
            execute!(term.backend_mut(), EndSynchronizedUpdate)?;
            last_draw = Instant::now();
            trace.drawn(last_draw);
            // Test builds only: a panic on purpose after a draw, so the
            // tests can see the panic hook give the terminal back.
            #[cfg(debug_assertions)]
            if std::env::var_os("DECK_TEST_PANIC").is_some() {
                panic!("DECK_TEST_PANIC: a panic on purpose");
            }
            dirty = false;
            urgent = false;
        }
        let wait = if more_live || held.is_some() {
            // Live input is waiting: only look at the keyboard.
            Duration::ZERO
        } else if dirty {
            FRAME.saturating_sub(last_draw.elapsed())
        } else {
            let due = app
                .player()
                .and_then(|p| p.next_due_ms())
                .map(|ms| Duration::from_secs_f64(ms / 1000.0));
            let laying_out = app.list().layouts_pending()
                || app.modal().pager().is_some_and(|p| p.is_laying_out());
            let anim = Duration::from_millis(if laying_out { 8 } else { 100 });
            due.map_or(anim, |d| d.min(anim))
                .max(Duration::from_millis(1))
        };
        let mut quit = false;
        let got = if let Some(ev) = held.take() {
            Ok(ev)
        } else if wait.is_zero() {
            input.try_recv().map_err(|e| match e {
                std::sync::mpsc::TryRecvError::Empty => std::sync::mpsc::RecvTimeoutError::Timeout,
                std::sync::mpsc::TryRecvError::Disconnected => {
                    std::sync::mpsc::RecvTimeoutError::Disconnected
                }
            })
        } else {
            input.recv_timeout(wait)
        };
        match got {
            Ok(first) => {
                // Drain everything queued, then draw once.
                let mut next = Some(first);
                while let Some((read_at, ev)) = next.take() {
                    let Some(ev) = ev else {
                        // Live input is waiting: taken below.
                        if let Some(l) = &live {
                            l.woken.store(false, Ordering::Relaxed);
                        }
                        next = input.try_recv().ok();
                        continue;
                    };
                    let ev = match ev {
                        Ok(ev) => ev,
                        Err(e) => {
                            // The terminal is gone (read error): stop.
                            tracing::warn!(error = %e, "the terminal is gone (read error)");
                            quit = true;
                            break;
                        }
                    };
                    let msg = match ev {
                        Event::Key(k) if k.kind != event::KeyEventKind::Release => {
                            Some(Msg::Key(k))
                        }
                        Event::Mouse(m) => Some(Msg::Mouse(m)),
                        Event::Resize(w, h) => Some(Msg::Resize(w, h)),
                        Event::Paste(text) => Some(Msg::Paste(text)),
                        _ => None,
                    };
                    if let Some(msg) = msg {
                        urgent = true;
                        trace.answered(read_at);
                        quit |= perform(
                            &mut app,
                            msg,
                            &mut dirty,
                            term.backend_mut(),
                            &mut on_switch,
                        )?;
                    }
                    if !quit {
                        next = input.try_recv().ok();
                    }
                }
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
            // The input thread ended: the terminal is gone.
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                tracing::warn!("the input thread ended: the terminal is gone");
                quit = true;
            }
        }
        if quit {
            break;
        }
        // Live input, within a time budget: a burst must not keep keys and
        // frames waiting (the sources hold the rest back meanwhile).
        let started = Instant::now();
        // Stays true when the budget ran out before the feed did.
        let next_live = || live.as_ref().and_then(|l| l.rx.try_recv().ok());
        // Input just came: draw its answer before more live input.
        more_live = urgent;
        while !more_live {
            more_live = started.elapsed() >= APPLY_BUDGET;
            // A key waits for no more live input (a wake-up for live
            // input is what this loop does anyway).
            match input.try_recv() {
                Ok((_, None)) => {
                    if let Some(l) = &live {
                        l.woken.store(false, Ordering::Relaxed);
                    }
                }
                Ok(ev) => {
                    held = Some(ev);
                    more_live = true;
                    break;
                }
                Err(_) => {}
            }
            let Some(msg) = next_live() else {
                more_live = false;
                break;
            };
            perform(
                &mut app,
                msg,
                &mut dirty,
                term.backend_mut(),
                &mut on_switch,
            )?;
        }
        let real = last_tick.elapsed().as_secs_f64() * 1000.0;
        last_tick = Instant::now();
        perform(
            &mut app,
            Msg::Tick {
                real_ms: real,
                now_ms: now_ms(),
            },
            &mut dirty,
            term.backend_mut(),
            &mut on_switch,
        )?;
    }
    Ok(())
}

/// A draw failed: the end, as on `q`, when the terminal is gone (its size
/// cannot be asked either); else the error.
fn ended_or(e: std::io::Error, gone: &AtomicBool) -> anyhow::Result<()> {
    if gone.load(Ordering::Relaxed) || super::terminal::is_gone(&e) {
        tracing::warn!(error = %e, "the terminal is gone (a draw failed)");
        return Ok(());
    }
    Err(e.into())
}

/// With `DECK_TRACE_KEYS=FILE`, one line per answered key: microseconds
/// from reading it to the end of the draw that shows its answer (for
/// `bench/ingest.py`, which tells deck's share of the latency from the
/// terminal's).
struct KeyTrace {
    out: Option<std::fs::File>,
    waiting: Vec<Instant>,
}

impl KeyTrace {
    fn from_env() -> KeyTrace {
        let out = std::env::var_os("DECK_TRACE_KEYS").and_then(|p| {
            crate::private::create(
                std::fs::OpenOptions::new().create(true).append(true),
                std::path::Path::new(&p),
            )
            .ok()
        });
        KeyTrace {
            out,
            waiting: Vec::new(),
        }
    }

    fn answered(&mut self, read_at: Instant) {
        if self.out.is_some() {
            self.waiting.push(read_at);
        }
    }

    fn drawn(&mut self, at: Instant) {
        let Some(out) = self.out.as_mut() else { return };
        for read_at in self.waiting.drain(..) {
            let _ = writeln!(out, "{}", at.duration_since(read_at).as_micros());
        }
    }
}

fn perform(
    app: &mut App,
    msg: Msg,
    dirty: &mut bool,
    out: &mut impl Write,
    on_switch: &mut Option<Switcher>,
) -> anyhow::Result<bool> {
    let mut quit = false;
    for fx in app.update(msg) {
        match fx {
            Effect::Quit => quit = true,
            Effect::Redraw => *dirty = true,
            Effect::Copy(text) => {
                out.write_all(osc52(&text).as_bytes())?;
                out.flush()?;
            }
            Effect::Switch(id) => match on_switch {
                Some(switch) => switch(crate::clients::dsh::Control::Switch(id)),
                None => app.say("this source has one session"),
            },
            Effect::Host(c) => match on_switch {
                Some(host) => host(c),
                None => app.say("not connected to a DSH host"),
            },
        }
    }
    Ok(quit)
}
