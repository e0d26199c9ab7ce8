//! Off-thread card layout. A card heavy enough to stall a frame (a huge
//! output, a big diff or file) is laid out on a worker thread; until it is
//! done the list shows the card's one-line header and a `laying out …` line,
//! and the UI keeps answering keys. The layouts the list lets go of are
//! dropped there too (freeing a screen of rows is not a frame's work).

use rustc_hash::FxHashSet as HashSet;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread;

use crate::cards::{self, Ctx, Density};
use crate::session::{AttachedView, ToolCard};
use crate::text::Line;
use crate::theme::Theme;

/// Cards whose text weighs more than this are laid out off the UI thread.
pub const HEAVY_BYTES: usize = 256 * 1024;

/// Steps of diffing (see [`cards::diff::cost`]) past which a card is laid
/// out off the UI thread, whatever its size: a few milliseconds.
pub const HEAVY_DIFF_STEPS: u64 = 2_000_000;

/// True for a card whose layout could hold a frame up: heavier than
/// [`HEAVY_BYTES`], or with diffs that may cost more than
/// [`HEAVY_DIFF_STEPS`] (cost estimated from the texts, not their bytes).
pub fn heavy(card: &ToolCard) -> bool {
    if weight(card) > HEAVY_BYTES {
        return true;
    }
    [&card.result_view, &card.call_view]
        .into_iter()
        .flatten()
        .filter(|v| v.is("diff") && !surely_light(v))
        .any(|v| match v.typed() {
            Ok(crate::wire::View::Diff(d)) => cards::diff::cost(&d) > HEAVY_DIFF_STEPS,
            _ => false,
        })
}

/// A diff view whose text is too short to hold diffs of more than
/// [`HEAVY_DIFF_STEPS`] steps, known without typing it: a diff costs at
/// most the square of its texts' lines, each line past a text's first
/// ends in a newline (written with a backslash in JSON), and each text is
/// a string (two quotes).
fn surely_light(v: &AttachedView) -> bool {
    let Some(text) = v.kept_text() else {
        return false;
    };
    let lines = lines_at_most(text.as_str());
    lines.saturating_mul(lines) <= HEAVY_DIFF_STEPS
}

/// At least as many as the lines of every string of a JSON text together.
fn lines_at_most(json: &str) -> u64 {
    // Each quote counted whole (a string has two): more than enough, in
    // one pass.
    memchr::memchr2_iter(b'\\', b'"', json.as_bytes()).count() as u64
}

/// Bytes of text a card carries (arguments, result, views).
pub fn weight(card: &ToolCard) -> usize {
    card.arguments.len()
        + card.result.as_ref().map_or(0, |r| r.size())
        + card.call_view.as_ref().map_or(0, AttachedView::size)
        + card.result_view.as_ref().map_or(0, AttachedView::size)
}

/// What a job is for: the cache key it fills.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct JobKey {
    pub item: usize,
    pub rev: u64,
    pub width: usize,
    /// The theme's name (shared by every key of the theme, not copied).
    pub theme: Arc<str>,
    pub density: Density,
    /// Code laid out without syntax colours (a fast first layout).
    pub plain: bool,
}

struct Job {
    key: JobKey,
    card: Arc<ToolCard>,
    theme: Arc<Theme>,
    now_ms: Option<i64>,
    /// The session's directory, for paths relative to it (`None`: full).
    cwd: Option<String>,
}

/// A finished layout.
pub struct Done {
    pub key: JobKey,
    pub lines: Vec<Line>,
}

/// What the worker thread is sent: a layout to make, or layouts to drop
/// (freeing a screen's worth of rows is not the frame's work).
enum Order {
    Lay(Vec<Job>),
    Drop(Vec<Arc<crate::text::Laid>>),
}

/// The worker thread and its queues. When no thread can be started, jobs
/// are laid out as they are asked for (slower, never lost).
pub struct Worker {
    /// `None`: no thread.
    jobs: Option<Sender<Order>>,
    done: Receiver<Done>,
    /// Laid out here, for want of a thread.
    inline: Vec<Done>,
    queued: HashSet<JobKey>,
    /// Jobs asked for since the last [`flush`](Worker::flush): sent
    /// together once a frame is laid out, so the thread does not take the
    /// machine from the frame's own layouts.
    pending: Vec<Job>,
    /// The theme the last job was sent with (shared with it, not copied
    /// for each).
    theme: Option<Arc<Theme>>,
}

impl Default for Worker {
    fn default() -> Self {
        Worker::new()
    }
}

/// Lay a job out.
fn lay_out(job: Job) -> Done {
    let ctx = Ctx {
        now_ms: job.now_ms,
        plain_code: job.key.plain,
        cwd: job.cwd.as_deref(),
        ..Ctx::new(job.key.width, &job.theme, job.key.density)
    };
    let lines = cards::render(&job.card, &ctx);
    // A big read card may be opened in the pager next: its view's shape
    // lets the pager type only the lines it shows.
    if let Some(v) = &job.card.result_view {
        v.warm_head();
    }
    Done {
        key: job.key,
        lines,
    }
}

impl Worker {
    pub fn new() -> Worker {
        let (jobs, rx) = channel::<Order>();
        let (tx, done) = channel::<Done>();
        let spawned = thread::Builder::new()
            .name("deck-layout".into())
            .spawn(move || {
                lower_priority();
                while let Ok(order) = rx.recv() {
                    match order {
                        Order::Lay(jobs) => {
                            if jobs.into_iter().any(|job| tx.send(lay_out(job)).is_err()) {
                                break;
                            }
                        }
                        Order::Drop(layouts) => drop(layouts),
                    }
                }
            });
        if let Err(e) = &spawned {
            tracing::warn!(error = %e, "no layout thread: heavy cards are laid out at once");
        }
        Worker {
            jobs: spawned.is_ok().then_some(jobs),
            done,
            inline: Vec::new(),
            queued: HashSet::default(),
            pending: Vec::new(),
            theme: None,
        }
    }

    /// Queue a layout unless the same one is already queued.
    /// Lay `card` out off the UI thread (once per key), paths relative to
    /// `cwd` when given.
    pub fn request(
        &mut self,
        key: JobKey,
        card: &Arc<ToolCard>,
        theme: &Theme,
        now_ms: Option<i64>,
        cwd: Option<&str>,
    ) {
        if self.queued.contains(&key) {
            return;
        }
        self.queued.insert(key.clone());
        // A theme is known by its name, as the list's cache keys know it.
        let theme = match &self.theme {
            Some(t) if t.name == theme.name => t.clone(),
            _ => self.theme.insert(Arc::new(theme.clone())).clone(),
        };
        let job = Job {
            key,
            card: card.clone(),
            theme,
            now_ms,
            cwd: cwd.map(str::to_string),
        };
        match &self.jobs {
            Some(_) => self.pending.push(job),
            None => self.inline.push(lay_out(job)),
        }
    }

    /// Send the jobs asked for to the thread.
    pub fn flush(&mut self) {
        if let Some(jobs) = &self.jobs
            && !self.pending.is_empty()
        {
            // A dead worker only means heavy cards stay as placeholders.
            let _ = jobs.send(Order::Lay(std::mem::take(&mut self.pending)));
        }
    }

    /// Drop `layouts` on the worker thread (here when there is none).
    pub fn discard(&self, layouts: Vec<Arc<crate::text::Laid>>) {
        if let Some(jobs) = &self.jobs {
            // A dead worker gives them back in the error: dropped here.
            let _ = jobs.send(Order::Drop(layouts));
        }
    }

    /// Finished layouts since the last call.
    pub fn poll(&mut self) -> Vec<Done> {
        self.flush();
        let mut out = std::mem::take(&mut self.inline);
        while let Ok(d) = self.done.try_recv() {
            out.push(d);
        }
        for d in &out {
            self.queued.remove(&d.key);
        }
        out
    }

    #[cfg(any(test, feature = "internals"))]
    pub fn is_busy(&self) -> bool {
        !self.queued.is_empty()
    }
}

/// Background layout must not take the CPU from the thread that answers
/// keys: on Linux a thread has its own nice value.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority on the calling thread (who = 0) only changes its
    // scheduling weight; a failure is harmless and ignored.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, 0, 10);
    }
}

/// The stand-in shown while a heavy card is laid out: status glyph and
/// title (no outcome: computing it may be the expensive part) and a note.
pub fn placeholder(card: &ToolCard, theme: &Theme, width: usize) -> Vec<Line> {
    use crate::theme::Role;
    // Typing a big view here would stall the frame this is drawn in.
    let title = crate::text::sanitize::inline(&cards::quick_title(card));
    let head = Line::new()
        .with(
            cards::chrome::status_glyph(card.status, 0),
            crate::cards::status_style(theme, card.status),
        )
        .with(" ", ratatui::style::Style::default())
        .with(title, theme.style(Role::Title));
    let mut lines = vec![crate::text::wrap::truncate(&head, width)];
    let kb = weight(card) / 1024;
    lines.push(Line::styled(
        crate::text::wrap::truncate_str(&format!("│ laying out {kb} KB …"), width),
        theme.style(crate::theme::Role::Muted),
    ));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::{Status, ToolResult};
    use serde_json::json;

    fn big_card() -> ToolCard {
        let output = "line of output\n".repeat(40_000);
        ToolCard {
            call_id: "c".into(),
            tool: Some("t".into()),
            arguments: "{}".into(),
            turn: None,
            step: None,
            call_seq: Some(1),
            started: Some(0),
            ended: Some(5),
            call_view: None,
            result_view: None,
            result: Some(ToolResult::new(
                2,
                vec![json!({"type": "text", "text": output})],
                false,
                None,
                None,
            )),
            status: Status::Ok,
            placements: Vec::new(),
            approval: None,
            question: None,
            todos: None,
            nested: None,
            task: None,
            rev: 1,
        }
    }

    /// The bound a diff view is known light by is never below the lines
    /// its diffs are costed by, however its newlines are written.
    #[test]
    fn a_diff_views_lines_are_never_more_than_its_bound() {
        let pieces = ["a", "\n", "\r\n", "\"", "é", "\u{2028}", "\\", "", "x\ny"];
        let mut seed = 7u64;
        let mut pick = |n: usize| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
            (seed >> 33) as usize % n
        };
        for _ in 0..500 {
            let mut diffs = Vec::new();
            for i in 0..1 + pick(4) {
                let mut text = || -> String {
                    let n = pick(40);
                    (0..n).map(|_| pieces[pick(pieces.len())]).collect()
                };
                let (new, old) = (text(), text());
                diffs.push(if old.len() % 2 == 0 {
                    json!({"path": format!("f{i}"), "oldText": old, "newText": new})
                } else {
                    json!({"path": format!("f{i}"), "newText": new})
                });
            }
            let view = json!({"card": "diff", "title": "Edit \"x\"", "diffs": diffs});
            let written = [view.to_string(), serde_json::to_string(&view).unwrap().replace("\\n", "\\u000a")];
            for json in written {
                let Ok(crate::wire::View::Diff(d)) = crate::wire::View::from_json(&json) else {
                    panic!("{json}");
                };
                let lines: u64 = d
                    .diffs
                    .iter()
                    .map(|f| {
                        let count = |s: &str| s.matches('\n').count() as u64 + 1;
                        f.old_text.as_deref().map_or(0, count) + count(&f.new_text)
                    })
                    .sum();
                assert!(lines <= lines_at_most(&json), "{lines} > bound: {json}");
                assert!(cards::diff::cost(&d) <= lines * lines);
            }
        }
    }

    #[test]
    fn heavy_cards_are_laid_out_off_thread() {
        let card = Arc::new(big_card());
        assert!(weight(&card) > HEAVY_BYTES);
        let theme = Theme::dark();
        let mut w = Worker::new();
        let key = JobKey {
            item: 3,
            rev: 1,
            width: 80,
            theme: Arc::from("dark"),
            density: Density::Full,
            plain: false,
        };
        w.request(key.clone(), &card, &theme, None, None);
        w.request(key.clone(), &card, &theme, None, None);
        assert!(w.is_busy());
        let mut done = Vec::new();
        for _ in 0..600 {
            done.extend(w.poll());
            if !done.is_empty() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        assert_eq!(done.len(), 1, "one job for two identical requests");
        assert_eq!(done[0].key, key);
        let direct = cards::render(&card, &Ctx::new(80, &theme, Density::Full));
        assert_eq!(done[0].lines, direct);
        assert!(!w.is_busy());
        let ph = placeholder(&card, &theme, 80);
        assert_eq!(ph.len(), 2);
        assert!(ph[0].text().starts_with("✓ t"), "{:?}", ph[0].text());
        assert!(ph[1].text().contains("laying out"));
    }
}
