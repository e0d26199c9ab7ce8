//! A card's chrome, the same for every card: the header line (status
//! glyph, kind glyph, title, the approval's pill, outcome, duration), the
//! body gutter, and density capping. Card files produce bodies; this file
//! decides how much of them is shown.
//!
//! A leaf: what a card's tag draws inside the chrome comes through [`Parts`]
//! (`cards/mod.rs` dispatches over the tags), so no card file is named here.

use ratatui::style::Style;
use unicode_width::UnicodeWidthStr;

use super::{Ctx, Density, Keep, Resolved, Rows};
use crate::session::{Status, ToolCard};
use crate::text::{self, Line, Span, sanitize, wrap};
use crate::theme::Role;
use crate::wire::View;

/// Spinner frames for pending cards.
pub const SPINNER: &[&str] = &["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/// The body gutter: two columns.
pub const GUTTER: &str = "│ ";
pub const GUTTER_WIDTH: usize = 2;

/// The glyph of a card whose outcome the log does not say: it claims
/// neither success nor failure.
pub const UNKNOWN_GLYPH: &str = "·";

/// The status glyph of a card.
pub fn status_glyph(status: Status, tick: usize) -> &'static str {
    match status {
        Status::Pending => SPINNER[tick % SPINNER.len()],
        Status::Ok => "✓",
        Status::Error => "✗",
        Status::Failed => "✗",
        Status::Interrupted | Status::Cancelled | Status::Rejected => "⊘",
        Status::Unknown => UNKNOWN_GLYPH,
    }
}

/// The approval that gated a call, as its card shows it: a pill on the
/// header (`⚑ allowed once`) and, quietly, the reason over the body.
#[derive(Debug, Clone)]
pub struct Gate {
    /// `allowed once`, `rejected`, `waiting for approval`.
    pub pill: String,
    pub role: Role,
    /// Why the host asked (may be empty).
    pub reason: String,
}

/// The glyph of a card tag / generic kind.
pub fn kind_glyph(view: &View) -> &'static str {
    match view {
        View::Terminal(_) => "$",
        View::Diff(_) => "±",
        View::Read(_) => "≡",
        View::Search(_) => "⌕",
        View::Web(_) => "⊕",
        View::Generic(g) => match g.kind.as_deref() {
            Some("read") => "≡",
            Some("edit") => "±",
            Some("delete") => "−",
            Some("move") => "→",
            Some("search") => "⌕",
            Some("execute") => "$",
            Some("fetch") => "⊕",
            _ => "•",
        },
    }
}

/// Human duration: `45ms`, `1.2s`, `3m04s`, `1h02m`.
pub fn format_duration(ms: i64) -> String {
    let ms = ms.max(0);
    if ms < 1000 {
        format!("{ms}ms")
    } else if ms < 10_000 {
        format!("{:.1}s", ms as f64 / 1000.0)
    } else if ms < 60_000 {
        format!("{}s", ms / 1000)
    } else if ms < 3_600_000 {
        format!("{}m{:02}s", ms / 60_000, (ms / 1000) % 60)
    } else {
        format!("{}h{:02}m", ms / 3_600_000, (ms / 60_000) % 60)
    }
}

/// What a card's tag draws inside the chrome.
pub trait Parts {
    /// The tag's one-line outcome (`exit 2`, `+3 −1`, `12 matches in 4 files`).
    fn outcome(&self) -> Option<String>;
    /// The tag's body rows (with any raw result text it shows), `ctx` the
    /// width inside the gutter.
    fn rows(&self, ctx: &Ctx, out: &mut Rows);
    /// The kind glyph, when not the view's own.
    fn glyph(&self) -> Option<&'static str> {
        None
    }
    /// The approval that gated the call, when the card shows one.
    fn gate(&self) -> Option<Gate> {
        None
    }
    /// Rows below the body, never capped by the preview (what the card
    /// holds beyond its view: a nested transcript), `ctx` the width inside
    /// the gutter. Not drawn at line density.
    fn after(&self, _ctx: &Ctx, _out: &mut Rows) {}
}

/// The one-line outcome of a card: its status's when it ended badly, was
/// interrupted, or its end is not known, else its tag's (`own`).
pub fn outcome(card: &ToolCard, own: Option<String>) -> Option<String> {
    if card.status == Status::Error {
        let err = card.result.as_ref().and_then(|r| r.error.as_ref());
        let code = err.and_then(|e| e.code.clone().or_else(|| e.name.clone()));
        return Some(code.map_or_else(|| "error".to_string(), |c| format!("error {c}")));
    }
    if card.status == Status::Interrupted {
        return Some("interrupted".into());
    }
    if card.status == Status::Cancelled {
        return Some("cancelled".into());
    }
    if card.status == Status::Rejected {
        return Some("rejected".into());
    }
    if card.status == Status::Unknown {
        return Some("unknown".into());
    }
    own
}

fn header(
    card: &ToolCard,
    resolved: &Resolved,
    ctx: &Ctx,
    parts: &dyn Parts,
    gate: Option<&Gate>,
) -> Line {
    let theme = ctx.theme;
    let status_style = super::status_style(theme, card.status);
    let mut right = String::new();
    // A rejected call's pill says it all: it did not run.
    let said = gate.is_some() && card.status == Status::Rejected;
    if let Some(o) = outcome(card, parts.outcome()).filter(|_| !said) {
        right.push_str(&sanitize::inline(&o));
    }
    let time = match (card.status, card.duration_ms(), card.started, ctx.now_ms) {
        (Status::Pending, _, Some(start), Some(now)) => {
            Some(format!("running {}", format_duration(now - start)))
        }
        (Status::Pending, _, _, _) => Some("running".to_string()),
        // It never ran: the time until it was refused is the person's.
        (Status::Rejected, _, _, _) => None,
        (_, Some(d), _, _) => Some(format_duration(d)),
        _ => None,
    };
    let outcome_style = if card.status.is_bad() {
        status_style
    } else {
        theme.style(Role::Muted)
    };
    let mut left = Line::new();
    left.push_str(status_glyph(card.status, ctx.tick), status_style);
    left.push_str(" ", Style::default());
    let glyph = parts.glyph().unwrap_or_else(|| kind_glyph(&resolved.view));
    left.push_str(glyph, theme.style(Role::Muted));
    left.push_str(" ", Style::default());
    let title_style = match resolved.view {
        View::Terminal(_) => theme.style(Role::Command),
        _ => theme.style(Role::Title),
    };
    // Paths in a title are shown relative to the session's directory; a
    // command is shown as it was typed.
    let title = match resolved.view {
        View::Terminal(_) => sanitize::inline(&resolved.title),
        _ => sanitize::inline(&ctx.paths_in(&resolved.title)),
    };
    let mut tail = Line::new();
    if let Some(g) = gate {
        tail.push_str("  ", Style::default());
        tail.push_str(format!("⚑ {}", sanitize::inline(&g.pill)), theme.style(g.role));
    }
    if !right.is_empty() {
        tail.push_str("  ", Style::default());
        tail.push_str(right, outcome_style);
    }
    if let Some(t) = time {
        tail.push_str("  ", Style::default());
        tail.push_str(t, theme.style(Role::Muted));
    }
    let fixed = left.width() + tail.width();
    if fixed + 1 > ctx.width {
        // Too narrow for the tail: glyphs and as much title as fits.
        let mut l = left;
        l.push_str(title, title_style);
        return wrap::truncate(&l, ctx.width);
    }
    let room = ctx.width - fixed;
    let title = crate::text::paths::cut_middle(&title, room)
        .unwrap_or_else(|| wrap::truncate_str(&title, room));
    // Unbounded (the HTML page, the pager with wrap off): no right edge to
    // align the outcome to.
    let pad = if text::unbounded(ctx.width) {
        0
    } else {
        room - title.width()
    };
    left.push_str(title, title_style);
    left.push_str(" ".repeat(pad), Style::default());
    let mut line = left;
    line.spans.extend(tail.spans);
    line
}

/// Which end of a card's body its preview keeps.
fn keep(view: &View) -> Keep {
    match view {
        View::Terminal(_) => Keep::Tail,
        _ => Keep::Head,
    }
}

/// The body rows of a card: why its approval was asked, why it fell back,
/// its error, then the tag's own rows (pinned rows first).
fn body(
    card: &ToolCard,
    resolved: &Resolved,
    ctx: &Ctx,
    parts: &dyn Parts,
    gate: Option<&Gate>,
    out: &mut Rows,
) {
    let inner = Ctx {
        width: ctx.width.saturating_sub(GUTTER_WIDTH).max(1),
        ..*ctx
    };
    let theme = ctx.theme;
    if let Some(g) = gate.filter(|g| !g.reason.trim().is_empty()) {
        let l = Line::styled(sanitize::inline(&g.reason), theme.style(Role::Muted));
        out.pin_all(wrap::words(&l, inner.width));
    }
    if let Some(reason) = &resolved.fallback {
        let l = Line::styled(
            if reason == super::NO_PRESENTATION {
                reason.clone()
            } else {
                format!("fallback: {}", sanitize::inline(reason))
            },
            theme.style(Role::Muted),
        );
        out.pin_all(wrap::words(&l, inner.width));
    }
    if card.status == Status::Error
        && let Some(err) = card.result.as_ref().and_then(|r| r.error.as_ref())
    {
        let parts: Vec<&str> = [err.name.as_deref(), err.code.as_deref()]
            .into_iter()
            .flatten()
            .collect();
        if !parts.is_empty() {
            let l = Line::styled(
                sanitize::inline(&parts.join(" · ")),
                super::status_style(theme, Status::Error),
            );
            out.pin_all(wrap::words(&l, inner.width));
        }
    }
    parts.rows(&inner, out);
}

/// Cap a body for the preview density: keep `rows` rows (at least three)
/// including an exact `… N more lines` marker, as a preview of a card does.
pub fn cap(lines: Vec<Line>, rows: usize, keep: Keep, marker_style: Style) -> Vec<Line> {
    let mut out = Rows::capped(rows, keep);
    out.extend(lines);
    out.finish(marker_style)
}

/// Draw a card, row by row into `out`: header, then the body at the
/// context's density. A preview holds only the rows it shows; at full
/// density every row goes straight on.
pub fn render_into(
    card: &ToolCard,
    resolved: &Resolved,
    ctx: &Ctx,
    parts: &dyn Parts,
    out: &mut Rows,
) {
    if ctx.width == 0 {
        out.push(Line::new());
        return;
    }
    let gate = parts.gate();
    let gate = gate.as_ref();
    out.push(wrap::fit(
        header(card, resolved, ctx, parts, gate),
        ctx.width,
    ));
    if ctx.density == Density::Line {
        return;
    }
    let gutter = [Span::new(GUTTER, ctx.theme.style(Role::Border))];
    let width = ctx.width;
    let inner = Ctx {
        width: width.saturating_sub(GUTTER_WIDTH).max(1),
        ..*ctx
    };
    let mut each = |l: Line| out.push(wrap::fit(l.prefixed(&gutter), width));
    if ctx.density == Density::Preview {
        // Pinned rows stay; the rest shares what is left of the budget.
        let mut capped = Rows::capped(ctx.preview_rows, keep(&resolved.view));
        body(card, resolved, ctx, parts, gate, &mut capped);
        for l in capped.finish(ctx.theme.style(Role::Muted)) {
            each(l);
        }
    } else {
        body(card, resolved, ctx, parts, gate, &mut Rows::each(&mut each));
    }
    parts.after(&inner, &mut Rows::each(&mut each));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_well() {
        assert_eq!(format_duration(45), "45ms");
        assert_eq!(format_duration(1234), "1.2s");
        assert_eq!(format_duration(42_000), "42s");
        assert_eq!(format_duration(184_000), "3m04s");
        assert_eq!(format_duration(3_720_000), "1h02m");
    }

    #[test]
    fn cap_marks_exact_hidden_counts() {
        let lines: Vec<Line> = (0..20).map(|i| Line::plain(i.to_string())).collect();
        let head = cap(lines.clone(), 5, Keep::Head, Style::default());
        assert_eq!(head.len(), 5);
        assert_eq!(head[4].text(), "… 16 more lines");
        let tail = cap(lines.clone(), 5, Keep::Tail, Style::default());
        assert_eq!(tail[0].text(), "… 16 more lines");
        assert_eq!(tail[4].text(), "19");
        assert_eq!(cap(lines, 20, Keep::Head, Style::default()).len(), 20);
    }
}
