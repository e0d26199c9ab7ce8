//! What the conversation says of tokens: a turn's usage at its end
//! (`↑ 50.9k in (9.8k cached) · ↓ 1.1k out`) and the marker of a
//! compaction (`── context compacted · auto · 155k → 6.3k tokens ──`, its
//! summary below, folded to a line unless the density is full).
//!
//! Only numbers the log holds are drawn, each said as what it is; a count
//! the log does not give is left out, never guessed.

use super::{Ctx, Density, Line, Role, Span, fit_all, hanging, more_lines, rule, text_lines, wrap};
use crate::session::{Compaction, TokenUsage};
use crate::text::{self, sanitize};

/// A token count in a few columns: exact below a thousand, then `12.3k`,
/// `154k`, `1.2M` (rounded to the nearest).
pub fn count(n: u64) -> String {
    // Tenths of `unit`, rounded (in u128: no count overflows).
    let tenths = |unit: u128| (u128::from(n) * 10 + unit / 2) / unit;
    if n < 1000 {
        return n.to_string();
    }
    let k = tenths(1000);
    if k < 1000 {
        return if k % 10 == 0 {
            format!("{}k", k / 10)
        } else {
            format!("{}.{}k", k / 10, k % 10)
        };
    }
    if (u128::from(n) + 500) / 1000 < 1000 {
        return format!("{}k", (u128::from(n) + 500) / 1000);
    }
    let m = tenths(1_000_000);
    if m % 10 == 0 || m >= 1000 {
        format!("{}M", (m + 5) / 10)
    } else {
        format!("{}.{}M", m / 10, m % 10)
    }
}

/// A turn's usage in words: `↑ 50.9k in (9.8k cached, 1.2k to cache) ·
/// ↓ 1.1k out (300 reasoning)`; parts the log leaves out or counts as 0
/// are not said. `None` when it says nothing to draw.
pub fn usage_text(u: &TokenUsage) -> Option<String> {
    let pieces = usage_pieces(u);
    (!pieces.is_empty()).then(|| pieces.join(" · "))
}

/// [`usage_text`]'s pieces: input, output.
fn usage_pieces(u: &TokenUsage) -> Vec<String> {
    let some = |n: Option<u64>| n.filter(|&n| n > 0);
    let mut input_parts = Vec::new();
    if let Some(n) = some(u.cache_read) {
        input_parts.push(format!("{} cached", count(n)));
    }
    if let Some(n) = some(u.cache_write) {
        input_parts.push(format!("{} to cache", count(n)));
    }
    let mut pieces = Vec::new();
    match u.input {
        Some(n) if input_parts.is_empty() => pieces.push(format!("↑ {} in", count(n))),
        Some(n) => pieces.push(format!("↑ {} in ({})", count(n), input_parts.join(", "))),
        None => pieces.extend(input_parts),
    }
    if let Some(n) = u.output {
        match some(u.reasoning) {
            Some(r) => pieces.push(format!("↓ {} out ({} reasoning)", count(n), count(r))),
            None => pieces.push(format!("↓ {} out", count(n))),
        }
    }
    pieces
}

/// Pieces joined by ` · ` into lines of at most `width` columns (a line
/// after the first indented by two), each piece kept whole when it fits.
fn joined(pieces: &[String], width: usize) -> String {
    let mut out = String::new();
    let mut col = 0;
    for p in pieces {
        let w = crate::text::line::str_width(p);
        if col == 0 {
            out.push_str(p);
            col = w;
        } else if text::unbounded(width) || col + 3 + w <= width {
            out.push_str(" · ");
            out.push_str(p);
            col += 3 + w;
        } else {
            out.push('\n');
            out.push_str(p);
            col = 2 + w;
        }
    }
    out
}

/// A turn's usage as a muted line (or lines, when narrow).
pub fn usage(u: &TokenUsage, ctx: &Ctx) -> Vec<Line> {
    let pieces = usage_pieces(u);
    if pieces.is_empty() {
        return Vec::new();
    }
    let muted = ctx.theme.style(Role::Muted);
    let cont = [Span::plain("  ")];
    let text = joined(&pieces, ctx.width);
    fit_all(hanging(&text, muted, &[], &cont, ctx.width), ctx.width)
}

/// What a compaction's rule says after `context compacted`: the trigger,
/// and the tokens (`155k → 6.3k tokens`, `155k tokens before`,
/// `≈154k tokens condensed`: DSH's count is its estimate).
pub fn compaction_details(c: &Compaction) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(t) = c.trigger.as_deref().filter(|t| !t.is_empty()) {
        out.push(sanitize::inline(t));
    }
    match (c.tokens_before, c.tokens_after) {
        (Some(b), Some(a)) => out.push(format!("{} → {} tokens", count(b), count(a))),
        (Some(b), None) => out.push(format!("{} tokens before", count(b))),
        (None, Some(a)) => out.push(format!("{} tokens after", count(a))),
        (None, None) => {}
    }
    if let Some(n) = c.tokens_condensed {
        out.push(format!("≈{} tokens condensed", count(n)));
    }
    out
}

/// The compaction's title: `context compacted`, or that it failed.
pub fn compaction_title(c: &Compaction) -> &'static str {
    if c.error.is_some() {
        "context compaction failed"
    } else {
        "context compacted"
    }
}

/// A compaction: a rule `── context compacted · auto · 155k → 6.3k tokens
/// ──` (the details on a line of their own when the rule cannot hold them),
/// why it failed, then the summary: its first line and a count at preview
/// density, all of it at full, none at line density.
pub fn compaction(c: &Compaction, ctx: &Ctx) -> Vec<Line> {
    let theme = ctx.theme;
    let rule_style = theme.style(Role::TurnRule);
    let muted = theme.style(Role::Muted);
    let cont = [Span::plain("  ")];
    let title = compaction_title(c);
    let details = compaction_details(c);
    let whole = std::iter::once(title.to_string())
        .chain(details.iter().cloned())
        .collect::<Vec<_>>()
        .join(" · ");
    let mut out = Vec::new();
    // `── ` before the label and ` ──` at least after it.
    if text::unbounded(ctx.width) || whole.chars().count() + 6 <= ctx.width {
        out.push(rule(Line::styled(whole, rule_style), ctx));
    } else {
        out.push(rule(Line::styled(title, rule_style), ctx));
        if !details.is_empty() {
            let text = joined(&details, ctx.width.saturating_sub(2));
            out.extend(hanging(&text, muted, &cont, &cont, ctx.width));
        }
    }
    if let Some(e) = &c.error {
        let warn = theme.style(Role::Warning);
        let first = [Span::new("⚠ ", warn)];
        out.extend(hanging(e, warn, &first, &cont, ctx.width));
    }
    let lines = c.summary.as_deref().map(text_lines).unwrap_or_default();
    match ctx.density {
        _ if lines.is_empty() => {}
        Density::Line => {}
        Density::Full => {
            out.extend(hanging(&lines.join("\n"), muted, &cont, &cont, ctx.width));
        }
        Density::Preview => {
            let head = Line::styled(lines[0].clone(), muted).prefixed(&cont);
            out.push(wrap::truncate(&head, ctx.width));
            if lines.len() > 1 {
                let more = Line::styled(more_lines(lines.len() - 1), muted).prefixed(&cont);
                out.push(wrap::truncate(&more, ctx.width));
            }
        }
    }
    fit_all(out, ctx.width)
}

/// A compaction as plain text (for copying): its rule's words, then the
/// summary.
pub fn compaction_text(c: &Compaction) -> String {
    let mut out = std::iter::once(compaction_title(c).to_string())
        .chain(compaction_details(c))
        .collect::<Vec<_>>()
        .join(" · ");
    if let Some(e) = &c.error {
        out.push('\n');
        out.push_str(e);
    }
    if let Some(s) = &c.summary {
        out.push('\n');
        out.push_str(s);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_short_and_round_to_the_nearest() {
        let cases = [
            (0, "0"),
            (999, "999"),
            (1000, "1k"),
            (1049, "1k"),
            (1050, "1.1k"),
            (12_345, "12.3k"),
            (99_949, "99.9k"),
            (99_950, "100k"),
            (154_321, "154k"),
            (999_499, "999k"),
            (999_500, "1M"),
            (1_250_000, "1.3M"),
            (12_000_000, "12M"),
            (u64::MAX, "18446744073710M"),
        ];
        for (n, want) in cases {
            assert_eq!(count(n), want, "{n}");
        }
    }

    #[test]
    fn usage_says_what_the_log_says() {
        let mut u = TokenUsage::new(Some(50_851), Some(1_135));
        assert_eq!(usage_text(&u).unwrap(), "↑ 50.9k in · ↓ 1.1k out");
        u.cache_read = Some(9_800);
        u.cache_write = Some(0);
        u.reasoning = Some(300);
        assert_eq!(
            usage_text(&u).unwrap(),
            "↑ 50.9k in (9.8k cached) · ↓ 1.1k out (300 reasoning)"
        );
        u.input = None;
        u.output = None;
        assert_eq!(usage_text(&u).unwrap(), "9.8k cached");
        assert_eq!(usage_text(&TokenUsage::default()), None);
    }
}
