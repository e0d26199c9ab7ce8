//! A card's nested transcript: the subagent its call started, folded from
//! the subagent's own log ([`ToolCard::nested`]), drawn below the card's
//! body. Closed it is one row that says what it holds
//! (`▸ subagent · 2 calls · 1 error`); open (the card at full density, or a
//! context that opens them: `deck render`, the exports) that row says `▾`
//! and the subagent's items follow, indented, drawn as the transcript
//! draws its own (`item.rs`) at the card's density. Nothing at line
//! density: a line is one row.

use ratatui::style::Style;

use super::{Ctx, Density, Rows, item};
use crate::session::{Item, ToolCard, Transcript};
use crate::text::{Line, Span, wrap};
use crate::theme::Role;

/// Columns a nested item is indented by.
const INDENT: usize = 2;

/// The nested transcript of `card`, if it has one (`ctx`: the width
/// inside the card's gutter).
pub(super) fn rows(card: &ToolCard, ctx: &Ctx, out: &mut Rows) {
    let Some(nested) = &card.nested else {
        return;
    };
    if ctx.density == Density::Line {
        return;
    }
    let t = nested.transcript();
    let open = ctx.open_nested || ctx.density == Density::Full;
    out.push(Line::new());
    out.push(wrap::truncate(&summary(t, open, ctx), ctx.width));
    if open {
        items(t, ctx, out);
    }
}

/// `▸ subagent · 2 calls · 1 error · 1 running · 1 diagnostic`.
pub fn summary(t: &Transcript, open: bool, ctx: &Ctx) -> Line {
    let theme = ctx.theme;
    let muted = theme.style(Role::Muted);
    let mut line = Line::new();
    line.push_str(if open { "▾ " } else { "▸ " }, muted);
    line.push_str("subagent", theme.style(Role::Title));
    let calls = t.cards().len();
    let counts = [
        (calls, "call", muted),
        (
            t.error_count(),
            "error",
            super::status_style(theme, crate::session::Status::Error),
        ),
        (
            t.running_cards(),
            "running",
            super::status_style(theme, crate::session::Status::Pending),
        ),
        (
            t.diagnostics().len(),
            "diagnostic",
            theme.style(Role::Warning),
        ),
    ];
    if calls == 0 {
        line.push_str(" · no calls", muted);
    }
    for (n, what, style) in counts.into_iter().filter(|(n, _, _)| *n > 0) {
        line.push_str(" · ", muted);
        let plural = if n == 1 || what == "running" { "" } else { "s" };
        line.push_str(format!("{n} {what}{plural}"), style);
    }
    line
}

/// The nested transcript's items, indented, a blank row between two.
fn items(t: &Transcript, ctx: &Ctx, out: &mut Rows) {
    let inner = Ctx {
        width: ctx.width.saturating_sub(INDENT).max(1),
        ..*ctx
    };
    let pad = [Span::new(" ".repeat(INDENT), Style::default())];
    let width = ctx.width;
    let mut each = |l: Line| out.push(wrap::fit(l.prefixed(&pad), width));
    let mut rows = Rows::each(&mut each);
    for it in t.items() {
        // The subagent's first turn is the call itself: no rule for it.
        if matches!(it, Item::Turn(m) if m.end.is_none() && m.turn <= 1) {
            continue;
        }
        if !rows.is_empty() {
            rows.gap();
        }
        item::item_into(t, it, &inner, false, &mut rows);
    }
}
