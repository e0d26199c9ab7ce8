//! `deck view` / `deck replay` of a file, read on a thread of its own as
//! it is decoded (`load::stream_path`): the first cards on screen at once,
//! whatever the file's size. A file under [`SMALL`], or a read that ends
//! within [`OPEN_AFTER`], is shown as a whole load is (`App::from_file`: a
//! file of several sessions opens on its picker). A longer one opens then on the session to show, its records
//! read so far (`App::opening`), and the rest follows through the app's
//! feed ([`Msg::Records`], then [`Msg::Loaded`]). It waits (the loading
//! screen shows) while there is no one session to show yet: several named
//! and no `--session`, or the one asked for not named yet — and when
//! what the agent keeps beside the log can only be placed by a whole read
//! (`load::whole_needed`), or a replay starts further in (`--at`). A view
//! keeps no records of its own: `R` reads the file again ([`read_again`]).

use std::sync::atomic::Ordering;
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::time::{Duration, Instant};

use anyhow::Context;

use crate::app::file_sessions::FileMode;
use crate::app::loading::{LoadEnd, Loading, Progress};
use crate::app::msg::Msg;
use crate::app::state::App;
use crate::load::{Gathered, Piece, stream_path, whole_needed};

/// How long a read may take to be shown as a whole load is; after it the
/// first cards are shown and the rest follows. `DECK_OPEN_AFTER_MS`
/// changes it (the tests open any file as a big one is, with 0).
const OPEN_AFTER: Duration = Duration::from_millis(30);

/// A file smaller than this is read whole before it is shown (unless
/// `DECK_OPEN_AFTER_MS` is set): its read takes a few ms.
const SMALL: u64 = 4 << 20;

/// Pieces in flight between the reading thread and the app (each a batch
/// of records, `load::streamed`): the read waits when the app lags.
const PIECES: usize = 16;

/// Records folded before the first screen at most (the rest follow).
const FIRST_RECORDS: usize = 128;

fn open_after() -> Duration {
    std::env::var("DECK_OPEN_AFTER_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .map_or(OPEN_AFTER, Duration::from_millis)
}

/// Open `path` to be shown as `mode` says (read or played), session `want`
/// or the file's one, telling `progress` how far the read is; what is read
/// after the app is made goes to `feed`. Runs on the loading thread.
pub fn open_streamed(
    label: String,
    path: &str,
    want: Option<&str>,
    mode: FileMode,
    progress: &Progress,
    feed: SyncSender<Msg>,
) -> anyhow::Result<App> {
    let total = (path != "-")
        .then(|| std::fs::metadata(path).ok())
        .flatten()
        .map_or(0, |m| m.len());
    progress.total.store(total, Ordering::Relaxed);
    let whole = |progress: &Progress| -> anyhow::Result<App> {
        progress.bytes.store(0, Ordering::Relaxed);
        let loaded = crate::source::load_path_counted(path, &progress.bytes)?;
        progress.folding.store(true, Ordering::Relaxed);
        Ok(App::from_file(label.clone(), loaded, want, mode)?)
    };
    let forced = std::env::var_os("DECK_OPEN_AFTER_MS").is_some();
    if !forced && total > 0 && total < SMALL {
        // Read whole in a blink: shown as it always was, whatever the
        // machine's load (a file of several sessions opens on its picker).
        return whole(progress);
    }
    if matches!(mode, FileMode::Replay(o) if o.at.is_some()) {
        // A replay started further in: at a place not read yet.
        return whole(progress);
    }
    if path != "-"
        && let Some(why) = whole_needed(std::path::Path::new(path))
    {
        tracing::info!(input = path, why, "read whole before it is shown");
        return whole(progress);
    }
    let started = Instant::now();
    let after = open_after();
    let (tx, rx) = sync_channel(PIECES);
    let (name, bytes) = (path.to_string(), progress.bytes.clone());
    std::thread::Builder::new()
        .name("deck-read".into())
        .spawn(move || stream_path(&name, &bytes, tx))
        .context("cannot start the reading thread")?;
    let mut held = Gathered::default();
    let mut look = true;
    loop {
        let wait = after.saturating_sub(started.elapsed());
        let piece = match rx.recv_timeout(wait.max(Duration::from_millis(1))) {
            Ok(piece) => Some(piece),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => {
                anyhow::bail!("{path}: the reading thread stopped before the end")
            }
        };
        if let Some(piece) = piece {
            look |= matches!(piece, Piece::Open(..));
            if let Some((read, inexact)) = held.put(piece) {
                // Read to its end before anything was shown.
                let summary = read?;
                if let Some(why) = inexact {
                    tracing::info!(input = path, why, "read again whole");
                    return whole(progress);
                }
                let loaded = held.loaded(path, summary, started.elapsed());
                progress.folding.store(true, Ordering::Relaxed);
                return Ok(App::from_file(label, loaded, want, mode)?);
            }
        }
        if !(look && started.elapsed() >= after) {
            continue;
        }
        look = false;
        let ids = held.ids();
        let at = match want {
            Some(w) => ids.iter().position(|id| id.as_deref() == Some(w)),
            None if ids.len() <= 1 => Some(0),
            // Several: the picker, after the whole read.
            None => None,
        };
        let Some(at) = at else { continue };
        let mut records = held.take(Some(at));
        // Folded now only what a first screen needs; the rest goes the way
        // of what is read after (the loop folds it between frames).
        let after_first = records.split_off(FIRST_RECORDS.min(records.len()));
        let id = ids.get(at).cloned().flatten();
        tracing::info!(
            input = path,
            records = records.len(),
            ms = started.elapsed().as_secs_f64() * 1000.0,
            "shown while it is read"
        );
        let loading = Loading {
            bytes: progress.bytes.clone(),
            total,
            mode,
            refocus: None,
        };
        let mut app = App::opening(label, id, records, loading);
        // A view of a file keeps no records: `R` reads it again (stdin
        // cannot be; a replay's player plays them).
        let again = mode == FileMode::View && path != "-";
        if again {
            let (path, feed) = (path.to_string(), feed.clone());
            app.read_again_with(std::sync::Arc::new(move || read_again(&path, at, total, feed.clone())));
        }
        let path = path.to_string();
        std::thread::Builder::new()
            .name("deck-read-on".into())
            .spawn(move || {
                let mut rest = after_first.into_iter();
                loop {
                    let batch: Vec<_> = rest.by_ref().take(FIRST_RECORDS).collect();
                    if batch.is_empty() {
                        break;
                    }
                    if feed.send(Msg::Records(batch)).is_err() {
                        return;
                    }
                }
                read_on(&path, rx, held, at, again, feed, started)
            })
            .context("cannot start the reading thread")?;
        return Ok(app);
    }
}

/// Read `path` again for `R` (its session `at`, `total` bytes), its
/// records sent to `feed` as when it was first read: how far the read is.
fn read_again(path: &str, at: usize, total: u64, feed: SyncSender<Msg>) -> Loading {
    let bytes = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let loading = Loading {
        bytes: bytes.clone(),
        total,
        mode: FileMode::View,
        refocus: None,
    };
    let (tx, rx) = sync_channel(PIECES);
    let (name, said) = (path.to_string(), feed.clone());
    let path = path.to_string();
    // The one that says the end first: without it the read would wait.
    let on = std::thread::Builder::new()
        .name("deck-read-on".into())
        .spawn(move || read_on(&path, rx, Gathered::default(), at, true, feed, Instant::now()));
    if let Err(e) = on {
        let end = LoadEnd {
            shown: at,
            id: None,
            sessions: Vec::new(),
            whole: None,
            failed: Some(format!("cannot read the file again: {e}")),
        };
        let _ = said.try_send(Msg::Loaded(Box::new(end)));
        return loading;
    }
    // Without it the end comes at once: `read_on` sees the channel gone.
    let _ = std::thread::Builder::new()
        .name("deck-read".into())
        .spawn(move || stream_path(&name, &bytes, tx));
    loading
}

/// After the app is made: session `at`'s records go to the app as they
/// come, the others' are held for the picker, and the end is said.
/// `unkept`: the app keeps no records of its own (a view that reads the
/// file again for `R`), so a file found to hold several sessions is read
/// again whole for the picker.
fn read_on(
    path: &str,
    rx: Receiver<Piece>,
    mut held: Gathered,
    at: usize,
    unkept: bool,
    feed: SyncSender<Msg>,
    started: Instant,
) {
    let end = loop {
        match rx.recv() {
            Ok(Piece::Records(i, records)) if i == Some(at) || (i.is_none() && at == 0) => {
                if feed.send(Msg::Records(records)).is_err() {
                    // The app is gone: dropping `rx` stops the read.
                    return;
                }
            }
            Ok(piece) => {
                if let Some(end) = held.put(piece) {
                    break Some(end);
                }
            }
            Err(_) => break None,
        }
    };
    let ids = held.ids();
    let mut said = LoadEnd {
        shown: at,
        id: ids.get(at).cloned().flatten(),
        sessions: Vec::new(),
        whole: None,
        failed: None,
    };
    match end {
        None => said.failed = Some("the reading thread stopped".into()),
        Some((Err(e), _)) => said.failed = Some(e.to_string()),
        Some((Ok(summary), None)) => {
            let sessions = held.loaded(path, summary, started.elapsed()).sessions;
            if sessions.len() > 1 && unkept {
                drop(sessions);
                match crate::source::load_path(path) {
                    Ok(loaded) => said.whole = Some((loaded, "a second session named after the first screen".into())),
                    Err(e) => said.failed = Some(e.to_string()),
                }
            } else if sessions.len() > 1 {
                said.sessions = sessions;
            }
        }
        Some((Ok(_), Some(why))) => {
            tracing::info!(input = path, why, "read again whole");
            match crate::source::load_path(path) {
                Ok(loaded) => said.whole = Some((loaded, why)),
                Err(e) => said.failed = Some(e.to_string()),
            }
        }
    }
    let _ = feed.send(Msg::Loaded(Box::new(said)));
}
