//! Giant items (an answer of megabytes, a card opened on a huge output):
//! the list holds a window of their rows, not all of them. Their row
//! count is known (every row is made to count it); the rows held are
//! those around where the item is drawn, and drawing rows outside the
//! window lays the item out again around them — the rows are a cache, not
//! a second copy of the text.

use crate::session::{Item, Transcript};
use crate::text::Window;
use crate::view::transcript::item_weight;

use super::TranscriptList;

/// Bytes of text past which an item's rows are held a window at a time.
pub const GIANT: usize = 256 * 1024;

/// Rows a giant item's window holds.
pub const WINDOW: usize = 4096;

impl TranscriptList {
    /// The window item `item_idx` is laid out with: `None` (every row)
    /// unless it is giant; then around the rows `need`, or where its last
    /// layout's window was, or its end when the list follows the end, or
    /// its start.
    pub(super) fn window_for(
        &self,
        t: &Transcript,
        item: &Item,
        item_idx: usize,
        need: Option<(usize, usize)>,
    ) -> Option<Window> {
        if item_weight(t, item) < GIANT {
            return None;
        }
        if let Some((from, to)) = need {
            let start = from.saturating_sub(WINDOW / 4);
            return Some(Window::Range(start, (start + WINDOW).max(to)));
        }
        let before = self.cache.map.get(&item_idx).and_then(|(_, l, _)| l.window_start());
        Some(match before {
            Some(start) => Window::Range(start, start + WINDOW),
            None if self.follow => Window::Last(WINDOW),
            None => Window::Range(0, WINDOW),
        })
    }
}
