//! Card renderers: pure functions from a tool card + width + theme + density
//! to styled lines. One file per card tag; `resolve.rs` says which tag and
//! which fields a card shows (call view, result view, fallback), and this
//! module draws it in the chrome every card shares (`chrome.rs`): the header (status glyph,
//! title, outcome, duration) and the density rules (line / preview / full).
//! Nothing here names a tool.
//!
//! Contract: every returned line is at most `ctx.width` columns wide, and the
//! height of a card is the number of lines returned.
//!
//! Cards draw into a [`Rows`] sink, row by row: a preview keeps only the
//! rows it shows (whatever the card's size), and `deck render` writes rows
//! as they are made, so no card is ever held whole there.

internal!(
    mod asked;
);
internal!(
    mod chrome;
);
internal!(
    mod conversation;
);
internal!(
    mod diff;
);
internal!(
    mod generic;
);
internal!(
    mod item;
);
mod nested;
mod task;
internal!(
    mod plain;
);
internal!(
    mod prompt;
);
internal!(
    mod read;
);
mod resolve;
internal!(
    mod search;
);
internal!(
    mod terminal;
);
internal!(
    mod web;
);

use ratatui::style::Style;

use crate::session::{Status, ToolCard};
use crate::theme::{Role, Theme};
use crate::wire::View;
use crate::wire::view::Block;

pub use resolve::{
    Resolution, Resolved, pretty_arguments, quick_title, resolution, resolution_of, resolve,
    resolve_head, resolve_views, view_problems,
};

/// The theme role of a card status (its glyph and what shares its colour).
pub fn status_role(status: Status) -> Role {
    match status {
        Status::Pending => Role::StatusPending,
        Status::Ok => Role::StatusOk,
        Status::Error => Role::StatusError,
        Status::Failed => Role::StatusFailed,
        Status::Interrupted | Status::Cancelled | Status::Rejected => Role::StatusInterrupted,
        // No colour of success or failure.
        Status::Unknown => Role::Muted,
    }
}

/// The style of a card status in `theme`.
pub fn status_style(theme: &Theme, status: Status) -> Style {
    theme.style(status_role(status))
}

/// Why a tool's card is generic when the tool declares no views: a quiet
/// hint, not a fault.
pub const NO_PRESENTATION: &str = "no presentation declared";

/// How much of a card to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, clap::ValueEnum, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Density {
    /// One line: glyph, title, outcome.
    Line,
    /// Header plus a capped body (head or tail), with an exact `… N more lines` marker.
    #[default]
    Preview,
    /// Everything.
    Full,
}

impl Density {
    /// The density named `line`, `preview` or `full`.
    pub fn parse(s: &str) -> Option<Density> {
        match s {
            "line" => Some(Density::Line),
            "preview" => Some(Density::Preview),
            "full" => Some(Density::Full),
            _ => None,
        }
    }
}

/// Rendering context.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct Ctx<'a> {
    /// Columns to draw in: no line is wider.
    pub width: usize,
    /// The theme the styles come from.
    pub theme: &'a Theme,
    /// How much of each card to show.
    pub density: Density,
    /// Body rows kept by the preview density.
    pub preview_rows: usize,
    /// "Now" in epoch ms, for the elapsed time of pending cards (`None`: show no elapsed time).
    pub now_ms: Option<i64>,
    /// Spinner frame for pending cards.
    pub tick: usize,
    /// Lay code out without syntax colours (a first, fast layout; or text only).
    pub plain_code: bool,
    /// The session's working directory: paths inside it are shown relative
    /// to it ([`Ctx::path`]). `None` (the pager, copy): full paths.
    pub cwd: Option<&'a str>,
    /// Show the reasoning blocks of assistant messages.
    pub show_reasoning: bool,
    /// Draw a card's nested transcript (the subagent its call started)
    /// open below full density too: where no key can open it (`deck
    /// render`, the exports). Closed, it is one summary row; at full
    /// density it is always open.
    pub open_nested: bool,
}

impl<'a> Ctx<'a> {
    /// Source lines worth syntax-highlighting: a preview shows only its
    /// first rows (and every line makes at least one), so lines past them
    /// are laid out plain — same text, same rows, far cheaper.
    pub fn code_lines(&self) -> usize {
        if self.plain_code {
            return 0;
        }
        match self.density {
            Density::Preview => self.preview_rows + 1,
            _ => usize::MAX,
        }
    }

    /// A context of `width`, `theme` and `density`; the rest at its
    /// defaults (12 preview rows, no clock, reasoning shown).
    pub fn new(width: usize, theme: &'a Theme, density: Density) -> Ctx<'a> {
        Ctx {
            width,
            theme,
            density,
            preview_rows: 12,
            now_ms: None,
            tick: 0,
            plain_code: false,
            cwd: None,
            show_reasoning: true,
            open_nested: false,
        }
    }

    /// `path` as shown: relative to the session's working directory when
    /// inside it (`.` for the directory itself), else as it is.
    pub fn path<'p>(&self, path: &'p str) -> std::borrow::Cow<'p, str> {
        crate::text::paths::relative(path, self.cwd)
    }

    /// `text` (a title, a header) with paths inside the working directory
    /// shown relative to it.
    pub fn paths_in<'p>(&self, text: &'p str) -> std::borrow::Cow<'p, str> {
        crate::text::paths::relative_in(text, self.cwd)
    }
}

pub use crate::text::rows::{Keep, Rows};
pub use crate::text::{Line, Span};

/// A card's body, before density capping, kept whole (for tests and small
/// uses; drawing goes through the cards' `rows` functions).
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Body {
    /// Its rows.
    pub lines: Vec<Line>,
    /// Which end a preview of it keeps, when the card says (a terminal's:
    /// the tail).
    pub keep: Option<Keep>,
    /// Leading lines the preview always shows (a command, a path header)
    /// before capping the rest.
    pub pinned: usize,
}

impl Body {
    /// The rows a body function pushes, kept.
    pub fn collect(keep: Option<Keep>, f: impl FnOnce(&mut Rows)) -> Body {
        let mut rows = Rows::all();
        f(&mut rows);
        let pinned = rows.pinned();
        Body {
            lines: rows.finish(ratatui::style::Style::default()),
            keep,
            pinned,
        }
    }
}

/// The first rows of a card at full density, when its view is a `read`
/// view: drawn from its first `lines` lines only. `Some((rows, complete))`;
/// `complete`: the view had no more lines, these are all the card's rows.
pub fn render_head(card: &ToolCard, ctx: &Ctx, lines: usize) -> Option<(Vec<Line>, bool)> {
    let r = resolve_head(card, lines);
    let View::Read(v) = &r.view else {
        return None;
    };
    let complete = v.more.is_none();
    Some((draw(card, &r, ctx), complete))
}

/// Text of content blocks (non-text blocks as `[type]` placeholders).
pub fn blocks_text(blocks: &[Block]) -> String {
    blocks
        .iter()
        .map(|b| match b {
            Block::Text(t) => t.clone(),
            Block::Other { kind } => format!("[{kind} block]"),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Render a tool card at `ctx.width` and `ctx.density`.
pub fn render(card: &ToolCard, ctx: &Ctx) -> Vec<Line> {
    let resolved = resolve(card);
    draw(card, &resolved, ctx)
}

/// [`render`], row by row into `out`.
pub fn render_into(card: &ToolCard, ctx: &Ctx, out: &mut Rows) {
    let resolved = resolve(card);
    draw_into(card, &resolved, ctx, out);
}

/// A resolved card drawn whole.
fn draw(card: &ToolCard, resolved: &Resolved, ctx: &Ctx) -> Vec<Line> {
    let mut rows = Rows::all();
    draw_into(card, resolved, ctx, &mut rows);
    rows.finish(ratatui::style::Style::default())
}

/// A resolved card in its chrome, its parts drawn by its tag's file (a
/// call that asks or plans: by `asked.rs`).
fn draw_into(card: &ToolCard, resolved: &Resolved, ctx: &Ctx, out: &mut Rows) {
    // A diff's files are diffed once, for the header and the body.
    let models = match &resolved.view {
        View::Diff(v) if ctx.width > 0 && ctx.density != Density::Line => {
            let models = diff::Models::of(v).placed(&card.placements);
            Some(match card.status {
                Status::Error | Status::Failed | Status::Rejected => models.not_applied(),
                Status::Unknown => models.maybe_applied(),
                _ => models,
            })
        }
        _ => None,
    };
    let parts = Tagged {
        card,
        resolved,
        models,
    };
    chrome::render_into(card, resolved, ctx, &parts, out);
}

/// The dispatch over card tags: what each tag's file draws in the chrome.
struct Tagged<'a> {
    card: &'a ToolCard,
    resolved: &'a Resolved,
    /// A diff view's files, diffed (not at line density).
    models: Option<diff::Models>,
}

impl chrome::Parts for Tagged<'_> {
    fn outcome(&self) -> Option<String> {
        if let Some(own) = asked::outcome(self.card) {
            return own;
        }
        if let Some(own) = task::outcome(self.card) {
            return Some(own);
        }
        match &self.resolved.view {
            View::Terminal(v) => terminal::outcome(v),
            // A change whose command failed: how it exited, not what it
            // would have changed.
            View::Diff(_) if self.card.status == Status::Failed => Some(
                self.card
                    .result
                    .as_ref()
                    .and_then(|r| r.recorded.exit_code)
                    .map_or_else(|| "failed".to_string(), |c| format!("exit {c}")),
            ),
            View::Diff(v) => match &self.models {
                Some(m) => diff::outcome_of(v, m),
                None => diff::outcome(v),
            },
            View::Read(v) => read::outcome(v),
            View::Search(v) => search::outcome(v),
            View::Web(v) => web::outcome(v),
            View::Generic(v) => generic::outcome(v, self.resolved),
        }
    }

    fn glyph(&self) -> Option<&'static str> {
        asked::glyph(self.card)
    }

    fn gate(&self) -> Option<chrome::Gate> {
        prompt::gate(self.card)
    }

    fn after(&self, inner: &Ctx, out: &mut Rows) {
        // How the background task it started ended, then the subagent.
        task::rows(self.card, inner, out);
        nested::rows(self.card, inner, out);
    }

    fn rows(&self, inner: &Ctx, out: &mut Rows) {
        let resolved = self.resolved;
        // A question or a checklist, else the view's own rows.
        if !asked::rows(self.card, inner, out) {
            self.view_rows(inner, out);
        }
        if let Some(raw) = &resolved.raw_result
            && !matches!(resolved.view, View::Search(_))
        {
            generic::raw_result_into(raw, inner, out);
        }
    }
}

impl Tagged<'_> {
    /// The rows of the card's view, by its tag.
    fn view_rows(&self, inner: &Ctx, out: &mut Rows) {
        let resolved = self.resolved;
        match &resolved.view {
            View::Terminal(v) => terminal::rows(v, inner, out),
            View::Diff(v) => match &self.models {
                Some(m) => diff::rows_of(v, m, inner, out),
                None => diff::rows(v, inner, out),
            },
            View::Read(v) => read::rows_titled(v, &resolved.title, inner, out),
            View::Search(v) => {
                // The raw result is read only where the card shows it: the
                // spill lines of a truncated search.
                let raw = v
                    .truncated
                    .then(|| {
                        resolved
                            .raw_result
                            .clone()
                            .or_else(|| self.card.result.as_ref().map(|r| r.text()))
                    })
                    .flatten();
                search::rows(v, &resolved.title, raw.as_deref(), inner, out)
            }
            View::Web(v) => web::rows(v, inner, out),
            View::Generic(v) => {
                let output = v.content.as_ref().is_some_and(|c| !c.is_empty())
                    || resolved
                        .raw_result
                        .as_ref()
                        .is_some_and(|r| !r.trim().is_empty());
                generic::rows(v, inner, output, out)
            }
        }
    }
}
