//! The list's cache of laid-out items: each item's lines by the key they
//! were laid out for (revision, width, theme, density, reasoning, tick),
//! bounded in rows (the layouts used longest ago go first), and the heavy
//! cards waiting for the layout worker.

use std::collections::HashMap;
use std::sync::Arc;

use crate::cards::Density;
use crate::text::Laid;
use crate::view::worker::{JobKey, Worker};

#[derive(Clone, PartialEq, Eq)]
pub(super) struct CacheKey {
    pub(super) rev: u64,
    pub(super) width: usize,
    pub(super) theme: String,
    pub(super) density: Density,
    pub(super) reasoning: bool,
    pub(super) tick: usize,
}

/// Rows of laid-out items the cache keeps; past it the items used longest
/// ago are dropped (laid out again if they come back into view), so a long
/// session scrolled end to end does not keep every layout.
pub(super) const CACHE_ROWS: usize = 100_000;

/// Per-item laid-out lines, keyed by item index.
#[derive(Default)]
pub struct LineCache {
    /// item → (key, lines, interim): interim lines (a placeholder or a
    /// plain first layout) stand in until the layout thread's arrive.
    pub(super) map: HashMap<usize, (CacheKey, Arc<Laid>, bool)>,
    /// item → when it was last used (a counter), for dropping old layouts.
    pub(super) used: HashMap<usize, u64>,
    pub(super) clock: u64,
    /// Rows in `map`.
    pub(super) rows: usize,
    /// Heavy cards being laid out off-thread: job → the cache key it fills.
    pub(super) waiting: HashMap<JobKey, CacheKey>,
    pub(super) worker: Option<Worker>,
}

impl LineCache {
    pub fn clear(&mut self) {
        self.map.clear();
        self.used.clear();
        self.rows = 0;
        self.waiting.clear();
    }

    /// An item's layout was used now.
    pub(super) fn touch(&mut self, item: usize) {
        self.clock += 1;
        self.used.insert(item, self.clock);
    }

    /// Keep an item's layout; past [`CACHE_ROWS`], drop the older half of
    /// the layouts (by last use; never the one just kept).
    pub(super) fn insert(&mut self, item: usize, entry: (CacheKey, Arc<Laid>, bool)) {
        self.rows += entry.1.len();
        if let Some(old) = self.map.insert(item, entry) {
            self.rows -= old.1.len();
        }
        self.touch(item);
        if self.rows <= CACHE_ROWS {
            return;
        }
        let mut by_age: Vec<(u64, usize)> = self.used.iter().map(|(&i, &t)| (t, i)).collect();
        by_age.sort_unstable();
        for &(_, i) in &by_age[..by_age.len() / 2] {
            if i == item {
                continue;
            }
            self.used.remove(&i);
            if let Some(old) = self.map.remove(&i) {
                self.rows -= old.1.len();
            }
        }
    }

    #[cfg(any(test, feature = "internals"))]
    pub fn len(&self) -> usize {
        self.map.len()
    }

    #[cfg(any(test, feature = "internals"))]
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

