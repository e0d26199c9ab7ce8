//! The replay player: a virtual clock over a recorded session. Pure — the
//! caller passes elapsed real time; nothing here reads a clock.
//!
//! Timing follows asciinema: each record keeps its original gap to the one
//! before, gaps are capped at the idle limit, then speed applies. A
//! background thread folds the whole log once and hands back a snapshot of
//! reducer state every [`INTERVAL`] records (snapshots are O(1) clones of
//! persistent structures), so a seek anywhere — backwards or far ahead —
//! restores the nearest snapshot and folds at most one interval.

use std::sync::Arc;

use crate::session::Transcript;
use crate::wire::{EventKind, Record};

/// Speeds offered by `+`/`-`.
pub const SPEEDS: &[f64] = &[0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0];

/// Where a replay starts (`--at`): the state after an event seq, or a
/// time on the replay's clock.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum StartAt {
    /// The state after the event of this seq.
    Seq(u64),
    /// This many ms into the replay.
    Ms(i64),
}

/// The speed of [`SPEEDS`] nearest `speed`: what a player asked for
/// `speed` plays at.
pub fn snapped_speed(speed: f64) -> f64 {
    SPEEDS[speed_index(speed)]
}

fn speed_index(speed: f64) -> usize {
    SPEEDS
        .iter()
        .enumerate()
        .min_by(|a, b| (a.1 - speed).abs().total_cmp(&(b.1 - speed).abs()))
        .map_or(2, |(i, _)| i)
}

/// Records between two kept snapshots.
pub const INTERVAL: usize = 512;

pub struct Player {
    records: Arc<Vec<Record>>,
    session_id: Option<String>,
    /// Effective (idle-capped) time of each record, ms from the start.
    times: Vec<u64>,
    /// Records applied so far (`transcript` is the fold of `records[..pos]`).
    pos: usize,
    /// Virtual clock, ms on the effective timeline.
    clock: f64,
    pub playing: bool,
    speed_index: usize,
    /// (pos, state) pairs, ascending by pos.
    snapshots: Vec<(usize, Transcript)>,
    /// Snapshots from the background fold.
    incoming: Option<std::sync::mpsc::Receiver<(usize, Transcript)>>,
    transcript: Transcript,
    /// Records whose seq starts a turn (for timeline markers): effective times.
    turn_marks: Vec<u64>,
    /// `events_upto[i]`: session events among the first `i` records.
    events_upto: Vec<usize>,
    /// Snapshots are kept for seeking (off for a replay played once
    /// through, as an export does: it holds one transcript, not hundreds).
    seekable: bool,
    /// The idle cap its times were made with, and the last timed event's
    /// own time (for the times of records that come after: [`Player::grow`]).
    idle_limit_ms: Option<u64>,
    last_real: Option<i64>,
    /// Records are still coming (the file is still being read): reaching
    /// the last one waits for more rather than ending the play.
    growing: bool,
}

/// Effective times: original gaps, negative gaps as zero, capped at `idle_limit_ms`.
#[cfg(any(test, feature = "internals"))]
pub fn effective_times(records: &[Record], idle_limit_ms: Option<u64>) -> Vec<u64> {
    let mut out = Vec::with_capacity(records.len());
    times_on(&mut out, records, idle_limit_ms, &mut None);
    out
}

/// [`effective_times`] of `records` put after `out`'s, `last_real` the
/// last timed event's own time before them (kept for the next call).
fn times_on(out: &mut Vec<u64>, records: &[Record], idle_limit_ms: Option<u64>, last_real: &mut Option<i64>) {
    let mut t = out.last().copied().unwrap_or(0);
    for r in records {
        if let Record::Event { event, .. } = r
            && event.time > 0
        {
            if let Some(prev) = *last_real {
                let gap = (event.time - prev).max(0) as u64;
                t += idle_limit_ms.map_or(gap, |l| gap.min(l));
            }
            *last_real = Some(event.time);
        }
        out.push(t);
    }
}

impl Player {
    pub fn new(
        records: Arc<Vec<Record>>,
        session_id: Option<String>,
        idle_limit_ms: Option<u64>,
        speed: f64,
    ) -> Player {
        Player::with_seeking(records, session_id, idle_limit_ms, speed, true)
    }

    /// A player that plays once from the start and never seeks (an
    /// export): no snapshots, so its memory is one transcript.
    pub fn forward_only(
        records: Arc<Vec<Record>>,
        session_id: Option<String>,
        idle_limit_ms: Option<u64>,
        speed: f64,
    ) -> Player {
        Player::with_seeking(records, session_id, idle_limit_ms, speed, false)
    }

    /// A player over the records of a file still being read, more to come
    /// ([`Player::grow`]) until [`Player::grown`].
    pub fn growing(
        records: Arc<Vec<Record>>,
        session_id: Option<String>,
        idle_limit_ms: Option<u64>,
        speed: f64,
    ) -> Player {
        let mut p = Player::with_seeking(records, session_id, idle_limit_ms, speed, false);
        p.seekable = true;
        p.growing = true;
        p
    }

    fn with_seeking(
        records: Arc<Vec<Record>>,
        session_id: Option<String>,
        idle_limit_ms: Option<u64>,
        speed: f64,
        seekable: bool,
    ) -> Player {
        let mut times = Vec::with_capacity(records.len());
        let mut last_real = None;
        times_on(&mut times, &records, idle_limit_ms, &mut last_real);
        let incoming = seekable.then(|| snapshots_of(&records, &session_id)).flatten();
        let transcript = Transcript::new(session_id.clone(), crate::agents::stock());
        let mut p = Player {
            events_upto: vec![0],
            records: Arc::default(),
            session_id,
            times,
            pos: 0,
            clock: 0.0,
            playing: true,
            speed_index: speed_index(speed),
            incoming,
            snapshots: vec![(0, transcript.clone())],
            transcript,
            turn_marks: Vec::new(),
            seekable,
            idle_limit_ms,
            last_real,
            growing: false,
        };
        p.mark(&records, 0);
        p.records = records;
        // The timeline looks marks up by time.
        p.turn_marks.sort_unstable();
        p
    }

    /// Turn marks and event counts of `records`, the first of them at `from`.
    fn mark(&mut self, records: &[Record], from: usize) {
        self.events_upto.reserve(records.len());
        for (r, t) in records.iter().zip(&self.times[from..]) {
            let last = *self.events_upto.last().unwrap_or(&0);
            self.events_upto.push(last + usize::from(matches!(r, Record::Event { .. })));
            if matches!(r, Record::Event { event, .. } if event.kind == EventKind::TurnStart) {
                self.turn_marks.push(*t);
            }
        }
    }

    /// More records of the file still being read, after the others.
    pub fn grow(&mut self, more: Vec<Record>) {
        let from = self.records.len();
        // Not shared while it grows (no snapshot thread yet): no copy.
        Arc::make_mut(&mut self.records).extend(more);
        let records = self.records.clone();
        times_on(&mut self.times, &records[from..], self.idle_limit_ms, &mut self.last_real);
        self.mark(&records[from..], from);
    }

    /// The file is read: its end ends the play, and seeks anywhere are
    /// helped by the snapshot thread from now on.
    pub fn grown(&mut self) {
        self.growing = false;
        self.incoming = snapshots_of(&self.records, &self.session_id);
    }

    /// Whether more records are to come.
    pub fn is_growing(&self) -> bool {
        self.growing
    }

    pub fn transcript(&self) -> &Transcript {
        &self.transcript
    }

    /// The same player (position, clock, speed, playing) over other
    /// records of the same times: `R` swaps the records for their
    /// redacted copies and back.
    pub fn with_records(&self, records: Arc<Vec<Record>>) -> Player {
        let speed = SPEEDS.get(self.speed_index).copied().unwrap_or(1.0);
        let mut p = Player::with_seeking(records, self.session_id.clone(), None, speed, self.seekable);
        p.times.clone_from(&self.times);
        p.turn_marks.clone_from(&self.turn_marks);
        p.speed_index = self.speed_index;
        p.seek_records(self.pos);
        p.clock = self.clock;
        p.playing = self.playing;
        p
    }

    /// The records played (shared).
    pub fn records(&self) -> Arc<Vec<Record>> {
        self.records.clone()
    }

    pub fn len(&self) -> usize {
        self.records.len()
    }

    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// Records applied.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Session events applied so far, and in all.
    pub fn events(&self) -> (usize, usize) {
        (
            self.events_upto[self.pos],
            self.events_upto.last().copied().unwrap_or(0),
        )
    }

    pub fn speed(&self) -> f64 {
        SPEEDS[self.speed_index]
    }

    pub fn faster(&mut self) {
        self.speed_index = (self.speed_index + 1).min(SPEEDS.len() - 1);
    }

    pub fn slower(&mut self) {
        self.speed_index = self.speed_index.saturating_sub(1);
    }

    /// Effective clock, ms.
    pub fn clock_ms(&self) -> u64 {
        self.clock as u64
    }

    /// Total effective duration, ms.
    pub fn duration_ms(&self) -> u64 {
        self.times.last().copied().unwrap_or(0)
    }

    /// The session's own time (epoch ms) at the clock: the time of the last
    /// applied event plus the clock's progress since it. `None` before the
    /// first timed event.
    pub fn session_time_ms(&self) -> Option<i64> {
        let (i, time) =
            self.records[..self.pos]
                .iter()
                .enumerate()
                .rev()
                .find_map(|(i, r)| match r {
                    Record::Event { event, .. } if event.time > 0 => Some((i, event.time)),
                    _ => None,
                })?;
        Some(time + (self.clock - self.times[i] as f64).max(0.0) as i64)
    }

    pub fn turn_marks(&self) -> &[u64] {
        &self.turn_marks
    }

    pub fn at_end(&self) -> bool {
        self.pos >= self.records.len()
    }

    /// Advance the clock by `real_ms` of wall time (when playing). Returns true
    /// when records were applied.
    pub fn tick(&mut self, real_ms: f64) -> bool {
        if !self.playing {
            return false;
        }
        self.clock = (self.clock + real_ms * self.speed()).min(self.duration_ms() as f64);
        let before = self.pos;
        self.apply_until_clock();
        if self.at_end() && !self.growing {
            self.playing = false;
        }
        self.pos != before
    }

    /// Wall-clock ms until the next record is due (for sleeping), if playing.
    pub fn next_due_ms(&self) -> Option<f64> {
        if !self.playing || self.at_end() {
            return None;
        }
        let next = self.times[self.pos] as f64;
        Some(((next - self.clock) / self.speed()).max(0.0))
    }

    fn apply_until_clock(&mut self) {
        while self.pos < self.records.len() && self.times[self.pos] as f64 <= self.clock {
            self.apply_next();
        }
    }

    fn apply_next(&mut self) {
        self.transcript.apply(&self.records[self.pos]);
        self.pos += 1;
        if self.seekable
            && self.pos.is_multiple_of(INTERVAL)
            && self.snapshots.last().is_some_and(|(p, _)| *p < self.pos)
        {
            self.snapshots.push((self.pos, self.transcript.clone()));
        }
    }

    /// Take the snapshots the background fold produced so far.
    fn take_snapshots(&mut self) {
        let Some(rx) = &self.incoming else { return };
        let mut done = false;
        loop {
            match rx.try_recv() {
                Ok((p, t)) => {
                    let at = self.snapshots.partition_point(|(q, _)| *q < p);
                    if self.snapshots.get(at).is_none_or(|(q, _)| *q != p) {
                        self.snapshots.insert(at, (p, t));
                    }
                }
                Err(std::sync::mpsc::TryRecvError::Empty) => break,
                Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                    done = true;
                    break;
                }
            }
        }
        if done {
            self.incoming = None;
        }
    }

    /// Snapshots kept so far (for tests and the status of the background fold).
    pub fn snapshot_count(&self) -> usize {
        self.snapshots.len()
    }

    /// True once the background fold has handed over every snapshot.
    pub fn snapshots_complete(&mut self) -> bool {
        self.take_snapshots();
        self.incoming.is_none()
    }

    /// Jump so that exactly `target` records are applied.
    pub fn seek_records(&mut self, target: usize) {
        let target = target.min(self.records.len());
        self.take_snapshots();
        // The nearest snapshot at or before the target, if it beats folding
        // on from where we are.
        let best = self
            .snapshots
            .iter()
            .rev()
            .find(|(p, _)| *p <= target)
            .map(|(p, _)| *p)
            .unwrap_or(0);
        if target < self.pos || best > self.pos {
            let snap = self
                .snapshots
                .iter()
                .rev()
                .find(|(p, _)| *p == best)
                .map(|(_, s)| s.clone())
                .unwrap_or_else(|| {
                    Transcript::new(self.session_id.clone(), crate::agents::stock())
                });
            self.pos = best;
            self.transcript = snap;
        }
        while self.pos < target {
            self.apply_next();
        }
        self.clock = if self.pos == 0 {
            0.0
        } else {
            self.times[self.pos - 1] as f64
        };
    }

    /// Jump to an effective time (ms): every record due by then is applied.
    pub fn seek_ms(&mut self, ms: i64) {
        let ms = ms.clamp(0, self.duration_ms() as i64) as u64;
        let target = self.times.partition_point(|&t| t <= ms);
        self.seek_records(target);
        self.clock = ms as f64;
    }

    /// Jump to a fraction (0.0–1.0) of the duration.
    pub fn seek_fraction(&mut self, f: f64) {
        let ms = (self.duration_ms() as f64 * f.clamp(0.0, 1.0)) as i64;
        self.seek_ms(ms);
    }

    /// Seek relative to the clock.
    pub fn seek_by_ms(&mut self, delta: i64) {
        self.seek_ms(self.clock as i64 + delta);
    }

    /// Step forward to the next record that changes what the transcript
    /// shows (pauses): records it does not show are gone past.
    pub fn step_forward(&mut self) {
        self.playing = false;
        let n = self.records.len();
        while self.pos < n {
            let before = activity(&self.transcript);
            self.seek_records(self.pos + 1);
            let after = activity(&self.transcript);
            if changes(&self.records[self.pos - 1], before, after) {
                break;
            }
        }
    }

    /// Step back to the state before the last record that changed what the
    /// transcript shows (pauses).
    pub fn step_back(&mut self) {
        self.playing = false;
        while self.pos > 0 {
            let after = activity(&self.transcript);
            self.seek_records(self.pos - 1);
            let before = activity(&self.transcript);
            if changes(&self.records[self.pos], before, after) {
                break;
            }
        }
    }

    /// Jump to the first record whose event seq is > `seq`… i.e. the state after event `seq`.
    pub fn seek_seq(&mut self, seq: u64) {
        let target = self
            .records
            .iter()
            .rposition(|r| r.seq().is_some_and(|s| s <= seq))
            .map_or(0, |i| i + 1);
        self.seek_records(target);
    }

    pub fn toggle(&mut self) {
        if self.at_end() && !self.playing {
            self.seek_records(0);
        }
        self.playing = !self.playing;
    }
}

#[cfg(test)]
mod tests;

/// Fold `records` on a thread of its own, a snapshot of the transcript
/// sent back every [`INTERVAL`] records (none for fewer).
fn snapshots_of(
    records: &Arc<Vec<Record>>,
    session_id: &Option<String>,
) -> Option<std::sync::mpsc::Receiver<(usize, Transcript)>> {
    if records.len() <= INTERVAL {
        return None;
    }
    let (tx, rx) = std::sync::mpsc::channel();
    let all = records.clone();
    let sid = session_id.clone();
    // If the thread cannot start, seeks simply fold from further back.
    let _ = std::thread::Builder::new()
        .name("deck-snapshots".into())
        .spawn(move || {
            let mut t = Transcript::new(sid, crate::agents::stock());
            for (i, r) in all.iter().enumerate() {
                t.apply(r);
                if (i + 1).is_multiple_of(INTERVAL) && tx.send((i + 1, t.clone())).is_err() {
                    return;
                }
            }
        });
    Some(rx)
}

/// The live activity a status bar shows: queued and steering messages,
/// jobs.
fn activity(t: &Transcript) -> Activity {
    (t.queued(), t.steering(), t.jobs())
}

/// The live activity before and after a record.
type Activity = (usize, usize, (usize, usize));

/// Did folding `record` change what is shown? A queue or jobs frame only
/// when the counts moved; another record when the transcript shows it at
/// all.
fn changes(record: &Record, before: Activity, after: Activity) -> bool {
    match record {
        Record::Frame { kind, .. } if kind == "session/queue" || kind == "session/jobs" => {
            before != after
        }
        r => Transcript::shows(r),
    }
}
