//! What reaches the driver's loop from other threads: terminal events, read
//! on a thread of their own so the loop keeps checking the stop flag
//! (signals) and the clock whatever the terminal does — a vanished
//! terminal can make reads return at once forever — and a live source's
//! messages, relayed so that one arriving wakes the loop at once.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender};
use std::time::Instant;

use anyhow::Context;
use crossterm::event::{self, Event};

use crate::app::msg::Msg;
use crate::wire::Record;

/// What feeds a live app.
pub enum Feed {
    /// Records only.
    Records(Receiver<Vec<Record>>),
    /// Any messages, in order (records, link state, resets).
    Msgs(Receiver<Msg>),
}

/// What the input thread and the live relay send the loop: a terminal
/// event when it was read, or `None` for "live input is waiting".
pub(super) type Input = (Instant, Option<std::io::Result<Event>>);

/// A live feed as the loop takes it: messages, and the flag the relay sets
/// when it has woken the loop (cleared when the loop takes the wake-up).
pub(super) struct Relayed {
    pub(super) rx: Receiver<Msg>,
    woken: Arc<AtomicBool>,
}

impl Relayed {
    /// The loop took the wake-up: the next message wakes it again.
    pub(super) fn awake(&self) {
        self.woken.store(false, Ordering::Relaxed);
    }
}

/// Pass a live feed on through a bounded channel (back-pressure stays), and
/// wake the loop when a message arrives while it sleeps: it waits on the
/// keyboard, and a live frame must show within a frame, not at its next
/// timeout.
pub(super) fn relay(feed: Feed, wake: Sender<Input>) -> anyhow::Result<Relayed> {
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

/// Read keys and mouse on a thread of their own, each event with when it
/// was read (to trace key latency), until a read fails or the loop is gone.
pub(super) fn read_terminal(tx: Sender<Input>) -> anyhow::Result<()> {
    std::thread::Builder::new()
        .name("deck-input".into())
        .spawn(move || {
            loop {
                let ev = event::read();
                let failed = ev.is_err();
                if tx.send((Instant::now(), Some(ev))).is_err() || failed {
                    return;
                }
            }
        })
        .context("cannot start the input thread")?;
    Ok(())
}
