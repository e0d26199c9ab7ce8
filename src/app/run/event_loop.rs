//! The app running, a turn at a time: [`EventLoop::draw`] draws what
//! changed (a key's answer at once, anything else at most ~60 times a
//! second, never when nothing did); [`EventLoop::answer`] waits for input
//! as long as nothing is due, answers the terminal's events, applies live
//! input within a time budget, and ticks the clock. The app's effects are performed here: quit, OSC 52
//! copy, host work handed to the command's [`Switcher`].

use std::io::Write;
use std::sync::mpsc::{RecvTimeoutError, TryRecvError};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crossterm::event::{self, Event};
use crossterm::execute;
use crossterm::terminal::{BeginSynchronizedUpdate, EndSynchronizedUpdate};

use super::console::Console;
use super::feed::Input;
use crate::app::draw::draw;
use crate::app::msg::{Effect, Msg};
use crate::app::state::App;
use crate::app::terminal::osc52;

/// Minimum time between two draws (~60 per second).
const FRAME: Duration = Duration::from_millis(16);
/// Time given to live input per turn of the loop.
const APPLY_BUDGET: Duration = Duration::from_millis(6);

/// What the driver calls to show another session of a live host (and to
/// ask it for any other work).
pub type Switcher = Box<dyn FnMut(crate::clients::dsh::Control) + Send>;

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// What a turn's draw did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Drawn {
    /// Nothing changed, or not for long enough: no draw.
    Nothing,
    /// A frame was drawn.
    Frame,
    /// The draw failed, the terminal is gone: the end, as on `q`.
    Gone,
}

/// The app and the loop's own state between turns.
pub(super) struct EventLoop {
    app: App,
    on_switch: Option<Switcher>,
    /// Something visible changed since the last draw.
    dirty: bool,
    /// A key was answered: drawn at once, not at the next frame.
    urgent: bool,
    /// Live input is still waiting (the budget ran out before the feed).
    more_live: bool,
    last_draw: Instant,
    last_tick: Instant,
    /// An input event taken while applying live input, answered next turn.
    held: Option<Input>,
    /// Keys answered but not drawn yet (when they were read), for the trace.
    trace: KeyTrace,
}

impl EventLoop {
    /// The app made interactive, at the terminal's size.
    pub(super) fn new(mut app: App, on_switch: Option<Switcher>, console: &Console) -> anyhow::Result<EventLoop> {
        // Cards seen for the first time show at once, colours follow.
        app.lay_out_progressively();
        app.search_in_background();
        let size = console.term.size()?;
        app.update(Msg::Resize(size.width, size.height));
        let mut l = EventLoop {
            app,
            on_switch,
            dirty: true,
            urgent: false,
            more_live: false,
            last_draw: Instant::now() - FRAME,
            last_tick: Instant::now(),
            held: None,
            trace: KeyTrace::from_env(),
        };
        l.app.update(Msg::Tick {
            real_ms: 0.0,
            now_ms: now_ms(),
        });
        Ok(l)
    }

    /// One turn after the draw: wait for input as long as nothing is due,
    /// answer it, apply live input, tick the clock. True: quit (the app
    /// asked, or the terminal is gone).
    pub(super) fn answer(&mut self, console: &mut Console) -> anyhow::Result<bool> {
        let wait = self.wait();
        if self.answer_input(console, wait)? {
            return Ok(true);
        }
        self.apply_live(console)?;
        let real = self.last_tick.elapsed().as_secs_f64() * 1000.0;
        self.last_tick = Instant::now();
        let tick = Msg::Tick {
            real_ms: real,
            now_ms: now_ms(),
        };
        self.perform(tick, console)?;
        Ok(false)
    }

    /// Draw when something changed: a key's answer at once, anything else
    /// at most once per frame.
    pub(super) fn draw(&mut self, console: &mut Console) -> anyhow::Result<Drawn> {
        self.urgent &= self.dirty;
        if !(self.dirty && (self.urgent || self.last_draw.elapsed() >= FRAME)) {
            return Ok(Drawn::Nothing);
        }
        execute!(console.term.backend_mut(), BeginSynchronizedUpdate)?;
        let app = &mut self.app;
        let drawn = console.term.draw(|f| {
            app.prepare(f.area());
            draw(app, f.buffer_mut());
        });
        if let Err(e) = drawn {
            console.ended_or(e)?;
            return Ok(Drawn::Gone);
        }
        execute!(console.term.backend_mut(), EndSynchronizedUpdate)?;
        self.last_draw = Instant::now();
        self.trace.drawn(self.last_draw);
        self.dirty = false;
        self.urgent = false;
        Ok(Drawn::Frame)
    }

    /// How long to wait for input: not at all while live input waits, until
    /// the next frame while a change is not drawn yet, else until the
    /// player's next event or the next animation step.
    fn wait(&self) -> Duration {
        if self.more_live || self.held.is_some() {
            // Live input is waiting: only look at the keyboard.
            return Duration::ZERO;
        }
        if self.dirty {
            return FRAME.saturating_sub(self.last_draw.elapsed());
        }
        let app = &self.app;
        let due = app
            .player()
            .and_then(|p| p.next_due_ms())
            .map(|ms| Duration::from_secs_f64(ms / 1000.0));
        let laying_out = app.list().layouts_pending()
            || app.modal().pager().is_some_and(|p| p.is_laying_out())
            || app.is_opening_a_session();
        let anim = Duration::from_millis(if laying_out { 8 } else { 100 });
        due.map_or(anim, |d| d.min(anim))
            .max(Duration::from_millis(1))
    }

    /// Wait up to `wait` for input, then answer everything queued (to draw
    /// once). True: quit (the app asked, or the terminal is gone).
    fn answer_input(&mut self, console: &mut Console, wait: Duration) -> anyhow::Result<bool> {
        let got = if let Some(ev) = self.held.take() {
            Ok(ev)
        } else if wait.is_zero() {
            console.input.try_recv().map_err(|e| match e {
                TryRecvError::Empty => RecvTimeoutError::Timeout,
                TryRecvError::Disconnected => RecvTimeoutError::Disconnected,
            })
        } else {
            console.input.recv_timeout(wait)
        };
        let first = match got {
            Ok(first) => first,
            Err(RecvTimeoutError::Timeout) => return Ok(false),
            // The input thread ended: the terminal is gone.
            Err(RecvTimeoutError::Disconnected) => {
                tracing::warn!("the input thread ended: the terminal is gone");
                return Ok(true);
            }
        };
        let mut quit = false;
        let mut next = Some(first);
        while let Some((read_at, ev)) = next.take() {
            let Some(ev) = ev else {
                // Live input is waiting: taken after.
                console.awake();
                next = console.input.try_recv().ok();
                continue;
            };
            let ev = match ev {
                Ok(ev) => ev,
                Err(e) => {
                    // The terminal is gone (read error): stop.
                    tracing::warn!(error = %e, "the terminal is gone (read error)");
                    return Ok(true);
                }
            };
            let msg = match ev {
                Event::Key(k) if k.kind != event::KeyEventKind::Release => Some(Msg::Key(k)),
                Event::Mouse(m) => Some(Msg::Mouse(m)),
                Event::Resize(w, h) => Some(Msg::Resize(w, h)),
                Event::Paste(text) => Some(Msg::Paste(text)),
                _ => None,
            };
            if let Some(msg) = msg {
                self.urgent = true;
                self.trace.answered(read_at);
                quit |= self.perform(msg, console)?;
            }
            if !quit {
                next = console.input.try_recv().ok();
            }
        }
        Ok(quit)
    }

    /// Live input, within a time budget: a burst must not keep keys and
    /// frames waiting (the sources hold the rest back meanwhile).
    fn apply_live(&mut self, console: &mut Console) -> anyhow::Result<()> {
        let started = Instant::now();
        // Input just came: draw its answer before more live input.
        self.more_live = self.urgent;
        while !self.more_live {
            // Stays true when the budget ran out before the feed did.
            self.more_live = started.elapsed() >= APPLY_BUDGET;
            // A key waits for no more live input (a wake-up for live
            // input is what this loop does anyway).
            match console.input.try_recv() {
                Ok((_, None)) => console.awake(),
                Ok(ev) => {
                    self.held = Some(ev);
                    self.more_live = true;
                    break;
                }
                Err(_) => {}
            }
            let Some(msg) = console.live.as_ref().and_then(|l| l.rx.try_recv().ok()) else {
                self.more_live = false;
                break;
            };
            self.perform(msg, console)?;
        }
        Ok(())
    }

    /// Give the app `msg` and perform the effects it returns. True: quit.
    fn perform(&mut self, msg: Msg, console: &mut Console) -> anyhow::Result<bool> {
        let mut quit = false;
        for fx in self.app.update(msg) {
            match fx {
                Effect::Quit => quit = true,
                Effect::Redraw => self.dirty = true,
                Effect::Copy(text) => {
                    let out = console.term.backend_mut();
                    out.write_all(osc52(&text).as_bytes())?;
                    out.flush()?;
                }
                Effect::Switch(id) => match &mut self.on_switch {
                    Some(switch) => switch(crate::clients::dsh::Control::Switch(id)),
                    None => self.app.say("this source has one session"),
                },
                Effect::Host(c) => match &mut self.on_switch {
                    Some(host) => host(c),
                    None => self.app.say("not connected to a DSH host"),
                },
            }
        }
        Ok(quit)
    }
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
