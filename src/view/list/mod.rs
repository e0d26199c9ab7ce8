//! The virtualised transcript list. Only the entries on screen are laid
//! out; their lines are cached by (revision, width, theme, density,
//! reasoning). Scrolling is anchored to an entry and a row inside it, so a
//! session of 100k cards scrolls as fast as one of ten: no total height is
//! ever computed.

use rustc_hash::FxHashMap as HashMap;
use std::sync::Arc;

use crate::cards::Density;
use crate::session::{Item, ToolCard, Transcript};
use crate::text::{Laid, Line};
use crate::theme::Theme;
use crate::view::transcript::{LayoutOptions, render_item_laid, render_item_tick};
use crate::view::worker::{self, JobKey, Worker};

mod cache;
mod options;
mod window;

use cache::CacheKey;
pub use cache::LineCache;
pub use options::ListOptions;

/// Columns of the focus margin at the left of every row.
pub const MARGIN: usize = 2;

/// A change counter for an item (cards and assistant messages grow).
pub fn item_rev(t: &Transcript, item: &Item) -> u64 {
    rev_with(item, drawn_card(t, item))
}

/// The card an item draws: a tool item's, a waiting approval's running
/// call (a lookup is a walk of the transcript's tree: done once).
fn drawn_card<'a>(t: &'a Transcript, item: &Item) -> Option<&'a ToolCard> {
    match item {
        Item::Tool(i) => t.cards().get(*i).map(|c| &**c),
        Item::Prompt(p) => crate::view::transcript::approval_call(t, p),
        _ => None,
    }
}

/// [`item_rev`] of an item whose drawn card was looked up.
fn rev_with(item: &Item, card: Option<&ToolCard>) -> u64 {
    let card_rev = card.map_or(0, |c| c.rev);
    match item {
        Item::Tool(_) => card_rev,
        Item::Assistant(m) => m.rev,
        Item::Compaction(c) => c.rev,
        // A waiting approval draws its call's card: either changing redraws it.
        Item::Prompt(p) => (p.rev << 32) | (card_rev & 0xffff_ffff),
        _ => 0,
    }
}

/// One row on screen: its entry, its row in the entry, and the entry's
/// laid-out lines it is read from (shared with the cache, not copied); a
/// row past them is the blank after the entry.
#[derive(Clone)]
pub struct Shown {
    pub entry: usize,
    pub row: usize,
    laid: Arc<Laid>,
}

impl Shown {
    /// The row's line; `None` for the blank between entries.
    pub fn line(&self) -> Option<&Line> {
        self.laid.get(self.row)
    }
}

/// Scroll position: the entry at the top and how many of its rows are above the screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Anchor {
    pub entry: usize,
    pub row: usize,
}

/// The list state: visible entries (item indices), per-item density
/// overrides, the focus, the scroll anchor and the cache.
#[derive(Default)]
pub struct TranscriptList {
    /// Item indices shown, in order.
    pub entries: Vec<usize>,
    /// How each entry's item joins its neighbours (beside `entries`).
    joins: Vec<crate::view::transcript::Joins>,
    /// Per-item density (overrides the global one).
    pub overrides: HashMap<usize, Density>,
    pub focus: usize,
    pub anchor: Anchor,
    /// Keep the end of the transcript in view.
    pub follow: bool,
    cache: LineCache,
    /// (items, merges, hide tools, reasoning) the entries were built for.
    built_for: Option<(usize, u64, bool, bool)>,
    /// Cards drawn for the first time are laid out without syntax colours
    /// (same text, same rows) and coloured on the layout thread, so a jump
    /// into never-seen cards costs a plain layout, not a highlight. On in
    /// the interactive app; off by default (tests see one final layout).
    pub progressive: bool,
    /// Every layout done here, heavy cards too, nothing on the layout
    /// thread: for exports, which must draw the same frames every time.
    pub synchronous: bool,
    /// The name of the theme last laid out in, shared by the keys.
    theme_name: Option<Arc<str>>,
}

impl TranscriptList {
    pub fn new() -> TranscriptList {
        TranscriptList {
            follow: true,
            ..Default::default()
        }
    }

    /// Rebuild the entry list after the transcript or the filters changed.
    pub fn sync(&mut self, t: &Transcript, opts: &ListOptions) {
        let key = (
            t.items().len(),
            t.merges(),
            opts.hide_tools,
            opts.show_reasoning,
        );
        if self.built_for == Some(key) {
            return;
        }
        let keep_item = self.entries.get(self.focus).copied();
        let keep_anchor = (self.entries.get(self.anchor.entry).copied())
            .map(|item| (item, self.anchor.row));
        let same_filters = matches!(self.built_for, Some((_, _, h, r)) if h == opts.hide_tools && r == opts.show_reasoning);
        // Appending without a filter change or a merge keeps indices stable.
        let appendable = same_filters
            && matches!(self.built_for, Some((n, m, _, _)) if m == t.merges() && n <= t.items().len());
        let start = if appendable {
            self.built_for.map_or(0, |k| k.0)
        } else {
            0
        };
        if !appendable {
            self.entries.clear();
            self.joins.clear();
        }
        // Only the new items (indexing a persistent vector is O(log n); an
        // iterator skipped to `start` would walk every earlier item).
        for i in start..t.items().len() {
            let item = &t.items()[i];
            if is_shown(t, item, opts) {
                self.entries.push(i);
                self.joins.push(crate::view::transcript::joins(item));
            }
        }
        self.built_for = Some(key);
        let at = |entries: &[usize], item: usize| {
            entries
                .partition_point(|&e| e < item)
                .min(entries.len().saturating_sub(1))
        };
        if !appendable && let Some(item) = keep_item {
            self.focus = at(&self.entries, item);
            self.anchor = Anchor {
                entry: self.focus,
                row: 0,
            };
            // Only items merged or parted: the view stays where it was.
            if same_filters && let Some((item, row)) = keep_anchor {
                let entry = at(&self.entries, item);
                let row = if self.entries.get(entry) == Some(&item) {
                    row
                } else {
                    0
                };
                self.anchor = Anchor { entry, row };
            }
        }
        if self.follow {
            self.focus = self.entries.len().saturating_sub(1);
        }
        self.focus = self.focus.min(self.entries.len().saturating_sub(1));
    }

    /// Forget everything (a new transcript, e.g. after a seek re-fold).
    pub fn reset(&mut self) {
        self.entries.clear();
        self.joins.clear();
        self.built_for = None;
        self.cache.clear();
    }

    /// `theme`'s name, as the cache keys share it.
    fn theme_name(&mut self, theme: &Theme) -> Arc<str> {
        match &self.theme_name {
            Some(name) if **name == *theme.name => name.clone(),
            _ => self
                .theme_name
                .insert(Arc::from(theme.name.as_str()))
                .clone(),
        }
    }

    pub fn density_of(&self, item: usize, global: Density) -> Density {
        if self.overrides.is_empty() {
            return global;
        }
        self.overrides.get(&item).copied().unwrap_or(global)
    }

    /// Lines of one entry (cached), at the list width minus the focus margin.
    /// A giant item's rows are held a window at a time: its `len` is every
    /// row, its rows those near where it was last drawn
    /// ([`lines_holding`](Self::lines_holding) to draw).
    pub fn lines(
        &mut self,
        t: &Transcript,
        theme: &Theme,
        opts: &ListOptions,
        entry: usize,
    ) -> Arc<Laid> {
        self.lines_holding(t, theme, opts, entry, None)
    }

    /// [`lines`](Self::lines), holding rows `need` (`from..to`, cut at the
    /// entry's end): a giant item is laid out again around them if its
    /// window does not hold them.
    pub fn lines_holding(
        &mut self,
        t: &Transcript,
        theme: &Theme,
        opts: &ListOptions,
        entry: usize,
        need: Option<(usize, usize)>,
    ) -> Arc<Laid> {
        let Some(&item_idx) = self.entries.get(entry) else {
            return Arc::default();
        };
        let Some(item) = t.items().get(item_idx) else {
            return Arc::default();
        };
        let density = self.density_of(item_idx, opts.density);
        // A waiting approval draws its running call.
        let drawn = drawn_card(t, item);
        let pending = drawn.is_some_and(|c| c.status == crate::session::Status::Pending);
        let key = CacheKey {
            rev: rev_with(item, drawn),
            width: opts.width,
            theme: self.theme_name(theme),
            density,
            reasoning: opts.show_reasoning,
            // Pending cards animate; everything else ignores the tick.
            tick: if pending { opts.tick } else { 0 },
        };
        if let Some((k, lines, _)) = self.cache.map.get(&item_idx)
            && *k == key
            && need.is_none_or(|(from, to)| lines.holds(from, to))
        {
            let lines = lines.clone();
            self.cache.touch(item_idx);
            return lines;
        }
        let layout = opts.layout(density);
        // A settled card is laid out on the layout thread when it is heavy
        // (a placeholder meanwhile) or when first layouts are progressive
        // (plain code meanwhile); everything else right here.
        if let Item::Tool(ci) = item
            && !pending
            && !self.synchronous
            && let Some(card) = t.cards().get(*ci)
        {
            let interim = if worker::heavy(card) {
                Some(worker::placeholder(card, theme, layout.width))
            } else if self.progressive {
                let plain = LayoutOptions {
                    plain_code: true,
                    ..layout
                };
                Some(render_item_tick(t, item, theme, &plain, opts.tick))
            } else {
                None
            };
            if let Some(interim) = interim {
                let job = JobKey {
                    item: item_idx,
                    rev: key.rev,
                    width: layout.width,
                    theme: key.theme.clone(),
                    density,
                    plain: false,
                };
                if !self.cache.waiting.contains_key(&job) {
                    self.cache.worker.get_or_insert_with(Worker::new).request(
                        job.clone(),
                        card,
                        theme,
                        opts.now_ms,
                        t.cwd(),
                    );
                    self.cache.waiting.insert(job, key.clone());
                }
                let lines = Arc::new(Laid::from(interim));
                self.cache.insert(item_idx, (key, lines.clone(), true));
                return lines;
            }
        }
        let window = self.window_for(t, item, item_idx, need);
        let lines = Arc::new(render_item_laid(t, item, theme, &layout, opts.tick, window));
        self.cache.insert(item_idx, (key, lines.clone(), false));
        lines
    }

    /// Take finished off-thread layouts into the cache; true when any arrived.
    pub fn poll_layouts(&mut self) -> bool {
        let Some(w) = self.cache.worker.as_mut() else {
            return false;
        };
        let done = w.poll();
        let any = !done.is_empty();
        for d in done {
            let Some(key) = self.cache.waiting.remove(&d.key) else {
                continue;
            };
            // Only over its own stand-in: the item may have changed since.
            let current = self.cache.map.get(&d.key.item);
            if current.is_none_or(|(k, _, interim)| *interim && *k == key) {
                self.cache
                    .insert(d.key.item, (key, Arc::new(Laid::from(d.lines)), false));
            }
        }
        any
    }

    /// True while heavy cards are being laid out.
    pub fn layouts_pending(&self) -> bool {
        !self.cache.waiting.is_empty()
    }

    /// Height of an entry including the blank separator after it.
    pub fn height(
        &mut self,
        t: &Transcript,
        theme: &Theme,
        opts: &ListOptions,
        entry: usize,
    ) -> usize {
        let n = self.lines(t, theme, opts, entry).len();
        n + usize::from(self.gap_after(opts, entry))
    }

    /// A blank row after `entry`: between every two entries but one-line
    /// cards (tool cards at `line` density, read as a list).
    fn gap_after(&self, opts: &ListOptions, entry: usize) -> bool {
        let (Some(&a), Some(&b)) = (self.entries.get(entry), self.entries.get(entry + 1)) else {
            return false;
        };
        // The items' kinds as noted when they were listed (an item looked
        // up in the transcript on every frame costs a tree walk).
        let (Some(&ja), Some(&jb)) = (self.joins.get(entry), self.joins.get(entry + 1)) else {
            return true;
        };
        !crate::view::transcript::joined_as(
            ja,
            self.density_of(a, opts.density),
            jb,
            self.density_of(b, opts.density),
        )
    }

    /// The anchor that shows the end of the transcript in `rows` rows.
    pub fn tail_anchor(
        &mut self,
        t: &Transcript,
        theme: &Theme,
        opts: &ListOptions,
        rows: usize,
    ) -> Anchor {
        let mut need = rows;
        let mut e = self.entries.len();
        while e > 0 {
            e -= 1;
            let h = self.height(t, theme, opts, e);
            if h >= need {
                return Anchor {
                    entry: e,
                    row: h - need,
                };
            }
            need -= h;
        }
        Anchor::default()
    }

    /// Scroll by `delta` rows (negative: up). Clamped to the ends.
    pub fn scroll(
        &mut self,
        t: &Transcript,
        theme: &Theme,
        opts: &ListOptions,
        rows: usize,
        delta: isize,
    ) {
        if self.entries.is_empty() {
            return;
        }
        if delta < 0 {
            self.follow = false;
            let mut up = delta.unsigned_abs();
            loop {
                if self.anchor.row >= up {
                    self.anchor.row -= up;
                    break;
                }
                up -= self.anchor.row;
                if self.anchor.entry == 0 {
                    self.anchor.row = 0;
                    break;
                }
                self.anchor.entry -= 1;
                self.anchor.row = self.height(t, theme, opts, self.anchor.entry);
            }
        } else {
            let mut down = delta as usize;
            let limit = self.tail_anchor(t, theme, opts, rows);
            while down > 0 {
                if self.anchor >= limit {
                    self.anchor = limit;
                    break;
                }
                let h = self.height(t, theme, opts, self.anchor.entry);
                let left = h.saturating_sub(self.anchor.row);
                if down < left {
                    self.anchor.row += down;
                    down = 0;
                } else {
                    down -= left;
                    if self.anchor.entry + 1 >= self.entries.len() {
                        self.anchor.row = h;
                        break;
                    }
                    self.anchor.entry += 1;
                    self.anchor.row = 0;
                }
            }
            if self.anchor >= limit {
                self.anchor = limit;
            }
        }
    }

    /// Make the focused entry visible in a viewport of `rows` rows: its top
    /// when it fits, else as much of it from the top as fits.
    pub fn reveal_focus(&mut self, t: &Transcript, theme: &Theme, opts: &ListOptions, rows: usize) {
        if self.entries.is_empty() {
            return;
        }
        let f = self.focus.min(self.entries.len() - 1);
        if f < self.anchor.entry || (f == self.anchor.entry && self.anchor.row > 0) {
            self.anchor = Anchor { entry: f, row: 0 };
            return;
        }
        if f - self.anchor.entry > rows {
            // Far below (every entry is a row at least): its end at the
            // bottom, found from it upwards — what lies between is not
            // laid out.
            let fh = self.lines(t, theme, opts, f).len();
            self.anchor = Anchor { entry: f, row: 0 };
            if fh < rows {
                self.scroll(t, theme, opts, rows, -((rows - fh) as isize));
            }
            return;
        }
        // Rows from the anchor top to the end of the focused entry.
        let mut used = 0usize;
        for e in self.anchor.entry..f {
            used += self.height(t, theme, opts, e);
            if e == self.anchor.entry {
                used -= self.anchor.row.min(used);
            }
        }
        let fh = self.lines(t, theme, opts, f).len();
        if used + fh <= rows {
            return;
        }
        if fh >= rows {
            self.anchor = Anchor { entry: f, row: 0 };
        } else {
            let excess = used + fh - rows;
            self.scroll(t, theme, opts, rows, excess as isize);
        }
    }

    /// Lay out what is on screen: (entry, row in entry, line) for each row.
    pub fn visible(
        &mut self,
        t: &Transcript,
        theme: &Theme,
        opts: &ListOptions,
        rows: usize,
    ) -> Vec<Shown> {
        if self.follow {
            self.anchor = self.tail_anchor(t, theme, opts, rows);
        }
        let mut out = Vec::with_capacity(rows);
        let mut e = self.anchor.entry;
        let mut r = self.anchor.row;
        while out.len() < rows && e < self.entries.len() {
            let lines = self.lines_holding(t, theme, opts, e, Some((r, r + rows - out.len())));
            let h = lines.len() + usize::from(self.gap_after(opts, e));
            while r < h && out.len() < rows {
                out.push(Shown {
                    entry: e,
                    row: r,
                    laid: lines.clone(),
                });
                r += 1;
            }
            e += 1;
            r = 0;
        }
        // The screen is laid out: the layout thread may start on its cards.
        if let Some(w) = self.cache.worker.as_mut() {
            w.flush();
        }
        out
    }

    /// Drop cache entries for items far from the screen (bounded memory).
    pub fn trim_cache(&mut self, keep_around: usize) {
        if self.cache.map.len() <= keep_around * 4 {
            return;
        }
        let lo = self
            .entries
            .get(self.anchor.entry.saturating_sub(keep_around))
            .copied()
            .unwrap_or(0);
        let hi = self
            .entries
            .get(self.anchor.entry + keep_around)
            .copied()
            .unwrap_or(usize::MAX);
        let keep = |k: &usize| *k >= lo && *k <= hi;
        let mut dropped = 0;
        let gone = &mut self.cache.gone;
        self.cache.map.retain(|k, v| {
            let kept = keep(k);
            if !kept {
                dropped += v.1.held();
                gone.push(v.1.clone());
            }
            kept
        });
        self.cache.rows -= dropped;
        self.cache.used.retain(|k, _| keep(k));
        self.cache.let_go();
    }
}

fn is_shown(t: &Transcript, item: &Item, opts: &ListOptions) -> bool {
    if t.merged(item) {
        return false;
    }
    match item {
        // A question or a plan is conversation: shown without the tools.
        Item::Tool(i) => !opts.hide_tools || t.cards().get(*i).is_some_and(|c| c.converses()),
        Item::Assistant(m) => opts.show_reasoning || m.blocks.iter().any(|b| !b.reasoning),
        Item::Turn(t) => !crate::cards::conversation::turn_is_silent(t),
        _ => true,
    }
}

#[cfg(test)]
mod tests;
