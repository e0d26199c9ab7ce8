//! The list's cache of laid-out items: each item's lines by the key they
//! were laid out for (revision, width, theme, density, reasoning, tick),
//! bounded in rows (the layouts used longest ago go first, dropped on the
//! layout worker), and the heavy cards waiting for the layout worker.

use rustc_hash::FxHashMap as HashMap;
use std::sync::Arc;

use crate::cards::Density;
use crate::text::Laid;
use crate::view::worker::{JobKey, Worker};

#[derive(Clone, PartialEq, Eq)]
pub(super) struct CacheKey {
    pub(super) rev: u64,
    pub(super) width: usize,
    pub(super) theme: Arc<str>,
    pub(super) density: Density,
    pub(super) reasoning: bool,
    pub(super) tick: usize,
}

/// Rows of laid-out items the cache keeps; past it the items used longest
/// ago are dropped (laid out again if they come back into view), so a long
/// session scrolled end to end does not keep every layout.
pub(super) const CACHE_ROWS: usize = 100_000;

/// Layouts used in this many last looks are kept whatever the cache holds
/// (more than a screen's items, and the ones a scroll looks at around it).
const IN_USE: u64 = 512;

/// Layouts let go of that are sent to be dropped together (the list lets
/// go of the rest once a frame, when it trims the cache).
const GONE_AT_ONCE: usize = 64;

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
    /// Layouts let go of, to be dropped on the worker thread.
    pub(super) gone: Vec<Arc<Laid>>,
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

    /// Keep an item's layout; past [`CACHE_ROWS`], drop the layouts used
    /// longest ago until half of that is left — never one used in the last
    /// [`IN_USE`] looks (the screen's: a frame takes its items' layouts
    /// one after another, and an item bigger than the cache must not push
    /// out, nor be pushed out by, the ones drawn beside it: each frame
    /// would lay it out again).
    pub(super) fn insert(&mut self, item: usize, entry: (CacheKey, Arc<Laid>, bool)) {
        self.rows += entry.1.held();
        if let Some(old) = self.map.insert(item, entry) {
            self.rows -= old.1.held();
            self.gone.push(old.1);
        }
        if self.gone.len() >= GONE_AT_ONCE {
            self.let_go();
        }
        self.touch(item);
        if self.rows <= CACHE_ROWS {
            return;
        }
        let recent = self.clock.saturating_sub(IN_USE);
        let mut by_age: Vec<(u64, usize)> = self
            .used
            .iter()
            .filter(|&(&i, &t)| i != item && t <= recent)
            .map(|(&i, &t)| (t, i))
            .collect();
        by_age.sort_unstable();
        for (_, i) in by_age {
            if self.rows <= CACHE_ROWS / 2 {
                break;
            }
            self.used.remove(&i);
            if let Some(old) = self.map.remove(&i) {
                self.rows -= old.1.held();
                self.gone.push(old.1);
            }
        }
        self.let_go();
    }

    /// Drop the layouts let go of: on the worker thread when there is
    /// one (freeing thousands of rows would hold the frame up), else here.
    pub(super) fn let_go(&mut self) {
        let gone = std::mem::take(&mut self.gone);
        if let Some(w) = &self.worker
            && !gone.is_empty()
        {
            w.discard(gone);
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


#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::Line;

    fn laid(rows: usize) -> Arc<Laid> {
        Arc::new(Laid::from(vec![Line::from("x"); rows]))
    }

    fn key() -> CacheKey {
        CacheKey {
            rev: 0,
            width: 80,
            theme: Arc::from("dark"),
            density: Density::Preview,
            reasoning: false,
            tick: 0,
        }
    }

    /// An item bigger than the cache, drawn with others frame after frame,
    /// stays laid out (it was pushed out by the next item drawn, and laid
    /// out again every frame); what no frame looks at goes.
    #[test]
    fn an_item_bigger_than_the_cache_stays_while_it_is_drawn() {
        let mut cache = LineCache::default();
        for i in 0..40 {
            cache.insert(100 + i, (key(), laid(3_000), false));
        }
        cache.insert(0, (key(), laid(2 * CACHE_ROWS), false));
        for frame in 0..300 {
            // A frame: the big item looked up, its neighbours laid out
            // (one of them new each frame).
            assert!(cache.map.contains_key(&0), "frame {frame}: the big item is still laid out");
            cache.touch(0);
            for i in 1..4 {
                cache.touch(i);
            }
            cache.insert(1_000 + frame, (key(), laid(10), false));
            assert!(cache.map.contains_key(&0), "frame {frame}: the big item stays");
        }
        // The layouts no frame looked at for long went; the recent ones stay.
        assert!((100..140).all(|i| !cache.map.contains_key(&i)), "old layouts went");
        assert!(cache.map.contains_key(&1_299), "the last frame's layout stays");
        assert_eq!(cache.rows, cache.map.values().map(|e| e.1.held()).sum::<usize>());
    }
}
