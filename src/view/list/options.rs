//! What every entry of the list is drawn with: its width, density and
//! filters ([`ListOptions`]), and the layout options an entry gets from them.

use crate::cards::Density;
use crate::view::transcript::LayoutOptions;

use super::MARGIN;

/// Display options shared by every entry.
#[derive(Debug, Clone)]
pub struct ListOptions {
    pub width: usize,
    pub density: Density,
    pub show_reasoning: bool,
    pub hide_tools: bool,
    pub now_ms: Option<i64>,
    pub tick: usize,
}

impl ListOptions {
    /// `width` columns at `density`: reasoning and tools shown, no clock.
    pub fn new(width: usize, density: Density) -> ListOptions {
        ListOptions {
            width,
            density,
            show_reasoning: true,
            hide_tools: false,
            now_ms: None,
            tick: 0,
        }
    }

    /// How an entry is laid out at `density`: beside the focus margin,
    /// code coloured, paths short, nested calls closed until the card is
    /// opened to full density (Enter).
    pub fn layout(&self, density: Density) -> LayoutOptions {
        LayoutOptions {
            width: self.width.saturating_sub(MARGIN).max(1),
            density,
            show_reasoning: self.show_reasoning,
            hide_tools: false,
            now_ms: self.now_ms,
            plain_code: false,
            full_paths: false,
            open_nested: false,
        }
    }
}

