//! Transcript layout: every item of a [`Transcript`] drawn through the card
//! renderers, separated by blank lines. The TUI virtualises over
//! [`render_item`]; the headless renderer lays out everything.

use crate::cards::{self, Ctx, Density};
use crate::session::{Item, Transcript};
use crate::text::{Laid, Line, Rows, Window};
use crate::theme::Theme;

/// What to show and how.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct LayoutOptions {
    /// Columns to lay out in.
    pub width: usize,
    /// How much of each card to show.
    pub density: Density,
    /// Show the reasoning blocks of assistant messages.
    pub show_reasoning: bool,
    /// Conversation only: tool cards hidden.
    pub hide_tools: bool,
    /// "Now" in epoch ms, for the elapsed time of pending cards (`None`:
    /// show no elapsed time).
    pub now_ms: Option<i64>,
    /// Code without syntax colours (same text and rows; far cheaper).
    pub plain_code: bool,
    /// Paths in full, not relative to the session's directory (the pager).
    pub full_paths: bool,
    /// Draw nested transcripts (a subagent under its call) open at every
    /// density but line: what a reader without keys needs (`deck render`,
    /// the exports: the default). The TUI keeps them closed until a card
    /// is opened to full density.
    pub open_nested: bool,
}

impl LayoutOptions {
    /// Options of `width` and `density`; the rest at their defaults
    /// (reasoning shown, tools shown, no clock, nested transcripts open).
    pub fn new(width: usize, density: Density) -> LayoutOptions {
        LayoutOptions {
            width,
            density,
            show_reasoning: true,
            hide_tools: false,
            now_ms: None,
            plain_code: false,
            full_paths: false,
            open_nested: true,
        }
    }
}

/// Draw one item. Returns no lines for an item that is hidden by the
/// options, or drawn on another item's card ([`Transcript::merged`]: an
/// answered approval on its call's card).
pub fn render_item(t: &Transcript, item: &Item, theme: &Theme, opts: &LayoutOptions) -> Vec<Line> {
    render_item_tick(t, item, theme, opts, 0)
}

/// [`render_item`] at a spinner frame (pending cards animate).
pub fn render_item_tick(
    t: &Transcript,
    item: &Item,
    theme: &Theme,
    opts: &LayoutOptions,
    tick: usize,
) -> Vec<Line> {
    let mut rows = Rows::all();
    render_item_into(t, item, theme, opts, tick, &mut rows);
    rows.finish(ratatui::style::Style::default())
}

/// [`render_item_tick`] for the list's cache: rows an item's maker keeps
/// (a streaming answer's settled part) are shared, not copied; with a
/// `window`, only the rows it names are held (a giant item's).
pub fn render_item_laid(
    t: &Transcript,
    item: &Item,
    theme: &Theme,
    opts: &LayoutOptions,
    tick: usize,
    window: Option<Window>,
) -> Laid {
    let mut rows = window.map_or_else(Rows::all, Rows::window);
    render_item_into(t, item, theme, opts, tick, &mut rows);
    rows.finish_laid(ratatui::style::Style::default())
}

/// [`render_item_tick`], row by row into `out` (what `deck render` and the
/// HTML page use: an item is never held whole).
pub fn render_item_into(
    t: &Transcript,
    item: &Item,
    theme: &Theme,
    opts: &LayoutOptions,
    tick: usize,
    out: &mut Rows,
) {
    let ctx = Ctx {
        now_ms: opts.now_ms,
        tick,
        plain_code: opts.plain_code,
        cwd: if opts.full_paths { None } else { t.cwd() },
        show_reasoning: opts.show_reasoning,
        open_nested: opts.open_nested,
        ..Ctx::new(opts.width, theme, opts.density)
    };
    cards::item::item_into(t, item, &ctx, opts.hide_tools, out);
}

/// Bytes of text an item carries: what drawing it costs, roughly.
pub fn item_weight(t: &Transcript, item: &Item) -> usize {
    match item {
        Item::User(m) => m.text.len(),
        Item::Assistant(m) => m.blocks.iter().map(|b| b.text.len()).sum(),
        Item::Tool(i) => t
            .cards()
            .get(*i)
            .map_or(0, |c| crate::view::worker::weight(c)),
        Item::Prompt(p) => approval_call(t, p).map_or(0, crate::view::worker::weight),
        Item::Compaction(c) => c.summary.as_ref().map_or(0, String::len),
        Item::Turn(_) | Item::Todo { .. } | Item::Diagnostic(_) | Item::Retry(_) => 0,
    }
}

pub use crate::cards::item::{Joins, approval_call, joined, joined_as, joins};
pub use crate::cards::plain::item_text;

/// Lay out the whole transcript.
pub fn layout(t: &Transcript, theme: &Theme, opts: &LayoutOptions) -> Vec<Line> {
    let mut out = Vec::new();
    let mut prev: Option<&Item> = None;
    for item in t.items() {
        let lines = render_item(t, item, theme, opts);
        if lines.is_empty() {
            continue;
        }
        let d = opts.density;
        if !out.is_empty() && !prev.is_some_and(|p| joined(p, d, item, d)) {
            out.push(Line::new());
        }
        out.extend(lines);
        prev = Some(item);
    }
    out
}
