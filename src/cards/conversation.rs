//! Conversation items: user and injected messages, assistant text and
//! reasoning, turn separators (a turn's end with its token usage), todo
//! plans, compactions (`tokens`) and diagnostics.
//!
//! Not cards, but the same rules: pure functions of an item + [`Ctx`] to
//! lines at most `ctx.width` wide, every piece of text sanitized, styles only
//! through theme roles. Assistant text is markdown; what a person typed and
//! what the host injected are plain text.

use ratatui::style::Style;

use super::{Ctx, Density, Keep, Rows};
use crate::session::{
    AssistantMessage, Diagnostic, Retry, Status, Todo, TurnMarker, UserMessage,
};
use crate::text::{self, Line, Span, markdown, sanitize, wrap};
use crate::theme::Role;

/// Reasoning rows kept by the preview density.
pub const REASONING_PREVIEW_ROWS: usize = 3;
/// Raw rows of a diagnostic kept below full density.
pub const DIAGNOSTIC_RAW_ROWS: usize = 2;
/// Rows of a diagnostic's raw text shown at full density; the rest is
/// counted (the whole text is copied with `y`, and listed by
/// `deck inspect --diagnostics`).
pub const DIAGNOSTIC_FULL_ROWS: usize = 40;

/// Word-wrap plain text under a first-row prefix and a continuation indent.
fn hanging(text: &str, style: Style, first: &[Span], cont: &[Span], width: usize) -> Vec<Line> {
    let mut out = Vec::new();
    for (i, l) in sanitize::lines(text).into_iter().enumerate() {
        let line = Line::styled(l, style);
        let p = if i == 0 { first } else { cont };
        out.extend(wrap::with_gutter(line, width, p, cont, false));
    }
    out
}

fn fit_all(lines: Vec<Line>, width: usize) -> Vec<Line> {
    lines.into_iter().map(|l| wrap::fit(l, width)).collect()
}

/// Lines of `text` without trailing blank ones.
fn text_lines(text: &str) -> Vec<String> {
    let mut lines = sanitize::lines(text.trim_end());
    while lines.last().is_some_and(|l| l.trim().is_empty()) && lines.len() > 1 {
        lines.pop();
    }
    lines
}

fn more_lines(n: usize) -> String {
    if n == 1 {
        "(1 more line)".to_string()
    } else {
        format!("({n} more lines)")
    }
}

/// A user message (`› text`), or context the host injected (dim, collapsed to
/// its first line unless the density is full).
#[cfg(any(test, feature = "internals"))]
pub fn user(m: &UserMessage, ctx: &Ctx) -> Vec<Line> {
    let mut rows = Rows::all();
    user_into(m, ctx, &mut rows);
    rows.finish(Style::default())
}

/// [`user`], row by row. A command the person ran (source `command`) is
/// drawn as they typed it; its output (source `output`) under it, dim,
/// `⎿ ` first.
pub fn user_into(m: &UserMessage, ctx: &Ctx, out: &mut Rows) {
    let theme = ctx.theme;
    if m.source.as_deref() == Some("output") {
        return output_into(m, ctx, out);
    }
    let injected = m
        .source
        .as_deref()
        .is_some_and(|s| s != "user" && s != "command");
    if !injected {
        let style = theme.style(Role::User);
        let first = [Span::new("› ", style)];
        let cont = [Span::plain("  ")];
        // Line by line: a pasted message may be megabytes.
        for (i, l) in m.text.trim_end().split('\n').enumerate() {
            let line = Line::styled(sanitize::line(l.strip_suffix('\r').unwrap_or(l)), style);
            let p: &[Span] = if i == 0 { &first } else { &cont };
            for row in wrap::with_gutter(line, ctx.width, p, &cont, false) {
                out.push(wrap::fit(row, ctx.width));
            }
        }
        return;
    }
    let muted = theme.style(Role::Muted);
    let label = sanitize::inline(m.source.as_deref().unwrap_or("context"));
    let first = [Span::new("↳ ", muted)];
    let cont = [Span::plain("  ")];
    let lines = text_lines(&m.text);
    if ctx.density == Density::Full || lines.len() <= 1 {
        let text = format!("[{label}] {}", lines.join("\n"));
        out.extend(fit_all(
            hanging(&text, muted, &first, &cont, ctx.width),
            ctx.width,
        ));
        return;
    }
    let head = Line::styled(format!("[{label}] {}", lines[0]), muted).prefixed(&first);
    out.push(wrap::truncate(&head, ctx.width));
    let more = Line::styled(more_lines(lines.len() - 1), muted).prefixed(&cont);
    out.push(wrap::truncate(&more, ctx.width));
}

/// A command's output: dim, under `  ⎿ `, collapsed to its first line
/// unless the density is full.
fn output_into(m: &UserMessage, ctx: &Ctx, out: &mut Rows) {
    let muted = ctx.theme.style(Role::Muted);
    let first = [Span::new("  ⎿ ", muted)];
    let cont = [Span::plain("    ")];
    let lines = text_lines(&m.text);
    if ctx.density == Density::Full || lines.len() <= 1 {
        let text = lines.join("\n");
        out.extend(fit_all(hanging(&text, muted, &first, &cont, ctx.width), ctx.width));
        return;
    }
    let head = Line::styled(lines[0].clone(), muted).prefixed(&first);
    out.push(wrap::truncate(&head, ctx.width));
    let more = Line::styled(more_lines(lines.len() - 1), muted).prefixed(&cont);
    out.push(wrap::truncate(&more, ctx.width));
}

/// An assistant message: text as markdown; reasoning dimmed under `∴ thinking`
/// when shown (a few rows in preview, only the header at line density).
#[cfg(any(test, feature = "internals"))]
pub fn assistant(m: &AssistantMessage, show_reasoning: bool, ctx: &Ctx) -> Vec<Line> {
    let mut rows = Rows::all();
    assistant_into(m, show_reasoning, ctx, &mut rows);
    rows.finish(Style::default())
}

/// [`assistant`], row by row.
pub fn assistant_into(m: &AssistantMessage, show_reasoning: bool, ctx: &Ctx, out: &mut Rows) {
    let theme = ctx.theme;
    let width = ctx.width;
    let mut last_was_text = false;
    for b in &m.blocks {
        if b.text.trim().is_empty() || (b.reasoning && !show_reasoning) {
            continue;
        }
        if b.reasoning {
            out.extend(fit_all(reasoning(&b.text, ctx), width));
            last_was_text = false;
            continue;
        }
        if last_was_text {
            out.push(Line::new());
        }
        let style = theme.style(Role::Assistant);
        if width == 0 {
            // Markdown rows are at most one column wide here: none fit.
            let mut fit = |l: Line| out.push(wrap::fit(l, 0));
            markdown::render_into(&b.text, 1, theme, style, &mut Rows::each(&mut fit));
        } else if m.complete {
            // (Markdown rows are at most `width` wide already.)
            markdown::render_into(&b.text, width, theme, style, out);
        } else {
            // Still streaming: drawn again for every chunk, at the cost of
            // what is new.
            markdown::render_growing(&b.text, width, theme, style, out);
        }
        last_was_text = true;
    }
    if m.interrupted {
        out.push(wrap::fit(
            Line::styled(
                "⊘ interrupted",
                super::status_style(theme, Status::Interrupted),
            ),
            width,
        ));
    }
    if m.cut_off {
        out.push(wrap::fit(
            Line::styled("✂ cut off: the request failed here", theme.style(Role::Warning)),
            width,
        ));
    }
}

/// A failed model request tried again:
/// `↻ retrying (2/5) after 429 Too Many Requests · 2.1 s`.
pub fn retry(r: &Retry, ctx: &Ctx) -> Vec<Line> {
    let style = ctx.theme.style(Role::Warning);
    hanging(
        &r.summary(),
        style,
        &[Span::new("↻ ", style)],
        &[Span::plain("  ")],
        ctx.width,
    )
}

fn reasoning(text: &str, ctx: &Ctx) -> Vec<Line> {
    let theme = ctx.theme;
    let style = theme.style(Role::Reasoning);
    let indent = [Span::plain("  ")];
    let inner = ctx.width.saturating_sub(2).max(1);
    let mut head = Line::styled("∴ thinking", style);
    if ctx.density == Density::Line {
        // Counted, not kept.
        let mut body = Rows::capped(0, Keep::Head);
        markdown::render_growing(text, inner, theme, style, &mut body);
        head.push_str(
            format!(" {}", more_lines(body.len())),
            theme.style(Role::Muted),
        );
        return vec![head];
    }
    let mut body = if ctx.density == Density::Preview {
        Rows::capped(REASONING_PREVIEW_ROWS, Keep::Head)
    } else {
        Rows::all()
    };
    // Reasoning streams too: drawn again for every chunk.
    markdown::render_growing(text, inner, theme, style, &mut body);
    let mut out = vec![head];
    out.extend(body.finish(theme.style(Role::Muted)).into_iter().map(|l| {
        if l.width() == 0 {
            l
        } else {
            l.prefixed(&indent)
        }
    }));
    out
}

/// A rule filling the width: `── label ──────`.
fn rule(label: Line, ctx: &Ctx) -> Line {
    let style = ctx.theme.style(Role::TurnRule);
    let mut line = Line::styled("── ", style);
    line.spans.extend(label.spans);
    line.push_str(" ", style);
    // Unbounded: a rule of the width a terminal commonly has.
    let width = if text::unbounded(ctx.width) { 80 } else { ctx.width };
    let fill = width.saturating_sub(line.width());
    line.push_str("─".repeat(fill), style);
    wrap::truncate(&line, ctx.width)
}

/// A turn separator: `── turn 2 ──` at a start; at an end, the reason, and for
/// an error the failure message and code in the error role; then the turn's
/// token usage, muted, when the log says.
pub fn turn(t: &TurnMarker, ctx: &Ctx) -> Vec<Line> {
    let theme = ctx.theme;
    let rule_style = theme.style(Role::TurnRule);
    let Some(end) = &t.end else {
        return vec![rule(Line::styled(t.label(), rule_style), ctx)];
    };
    let usage = end
        .usage
        .as_ref()
        .map(|u| tokens::usage(u, ctx))
        .unwrap_or_default();
    // One rule per turn boundary: the next turn's. An end that completed
    // says nothing but its usage; another says how the turn ended, on a
    // line of its own.
    if end.reason == "completed" {
        return usage;
    }
    let (glyph, style) = match end.reason.as_str() {
        "error" => ("✗ ", super::status_style(theme, Status::Error)),
        "aborted" => ("⊘ ", super::status_style(theme, Status::Interrupted)),
        _ => ("⚠ ", theme.style(Role::Warning)),
    };
    let mut text = format!("{} · {}", t.label(), end.reason);
    match (&end.code, &end.message) {
        (Some(code), Some(msg)) => text.push_str(&format!(" · {code}: {msg}")),
        (Some(code), None) => text.push_str(&format!(" · {code}")),
        (None, Some(msg)) => text.push_str(&format!(" · {msg}")),
        (None, None) => {}
    }
    let mut out = hanging(
        &text,
        style,
        &[Span::new(glyph, style)],
        &[Span::plain("  ")],
        ctx.width,
    );
    out.extend(usage);
    fit_all(out, ctx.width)
}

/// A turn marker that draws nothing (a turn that ended as it should, and
/// whose usage the log does not say).
pub fn turn_is_silent(t: &TurnMarker) -> bool {
    t.end.as_ref().is_some_and(|e| {
        e.reason == "completed" && e.usage.as_ref().and_then(tokens::usage_text).is_none()
    })
}

/// `1/3 done`: how far a plan is.
pub fn todo_progress(todos: &[Todo]) -> String {
    let done = todos.iter().filter(|t| t.status == "completed").count();
    format!("{done}/{} done", todos.len())
}

/// A todo plan as a checklist: `[x]` done, `[~]` in progress, `[ ]` pending.
pub fn todo(todos: &[Todo], ctx: &Ctx) -> Vec<Line> {
    let theme = ctx.theme;
    let mut head = Line::styled("Plan", theme.style(Role::Title));
    head.push_str(
        format!("  {}", todo_progress(todos)),
        theme.style(Role::Muted),
    );
    let mut out = vec![wrap::truncate(&head, ctx.width)];
    out.extend(todo_rows(todos, ctx));
    out
}

/// The checkbox of a plan item's status (`[x] `, `[~] `, `[ ] `, `[-] `)
/// and its role.
pub fn todo_mark(status: &str) -> (&'static str, Role) {
    match status {
        "completed" => ("[x] ", Role::TodoDone),
        "in_progress" => ("[~] ", Role::TodoActive),
        "pending" => ("[ ] ", Role::TodoPending),
        _ => ("[-] ", Role::Muted),
    }
}

/// A plan as plain text: `Plan  1/3 done`, then a checkbox line per item.
pub fn todo_text(todos: &[Todo]) -> String {
    let mut out = format!("Plan  {}", todo_progress(todos));
    for t in todos {
        out.push('\n');
        out.push_str(todo_mark(&t.status).0);
        out.push_str(&sanitize::inline(&t.content));
    }
    out
}

/// The items of a plan, one checkbox each (the plan's head aside).
pub fn todo_rows(todos: &[Todo], ctx: &Ctx) -> Vec<Line> {
    let theme = ctx.theme;
    let mut out = Vec::new();
    for t in todos {
        let (mark, role) = todo_mark(&t.status);
        let style = theme.style(role);
        let first = [Span::new(mark, style)];
        let cont = [Span::plain("    ")];
        out.extend(hanging(
            &sanitize::inline(&t.content),
            style,
            &first,
            &cont,
            ctx.width,
        ));
    }
    if todos.is_empty() {
        out.push(Line::styled("(empty plan)", theme.style(Role::Muted)));
    }
    fit_all(out, ctx.width)
}

/// A diagnostic: `⚠ line 12 (byte 3456): reason`, then the raw input (a couple
/// of rows unless the density is full).
pub fn diagnostic(d: &Diagnostic, ctx: &Ctx) -> Vec<Line> {
    let theme = ctx.theme;
    let style = theme.style(Role::Diagnostic);
    let place = if d.origin.line > 0 {
        format!("line {} (byte {}): ", d.origin.line, d.origin.offset)
    } else {
        String::new()
    };
    let first = [Span::new("⚠ ", style)];
    let cont = [Span::plain("  ")];
    let mut out = hanging(
        &format!("{place}{}", d.reason),
        style,
        &first,
        &cont,
        ctx.width,
    );
    let raw = d.raw.trim_end();
    if !raw.is_empty() {
        let muted = theme.style(Role::Muted);
        let inner = ctx.width.saturating_sub(2).max(1);
        let max_rows = if ctx.density == Density::Full {
            DIAGNOSTIC_FULL_ROWS
        } else {
            DIAGNOSTIC_RAW_ROWS
        };
        // Only as much text as the rows can show is wrapped: a raw line
        // may be megabytes.
        let budget = (max_rows + 1).saturating_mul(inner).saturating_mul(4);
        let shown = &raw[..floor_char_boundary(raw, budget)];
        let mut rows: Vec<Line> = sanitize::lines(shown)
            .into_iter()
            .flat_map(|l| wrap::chars(&Line::styled(l, muted), inner))
            .collect();
        let cut = rows.len() > max_rows || shown.len() < raw.len();
        if cut {
            rows.truncate(max_rows);
            if let Some(last) = rows.pop() {
                let last = wrap::fit(last, inner.saturating_sub(1));
                rows.push(last.with("…", muted));
            }
        }
        out.extend(rows.into_iter().map(|r| r.prefixed(&cont)));
        if cut && ctx.density == Density::Full {
            let note = Line::styled(
                format!("({} bytes in all; y copies them)", raw.len()),
                muted,
            );
            out.extend(
                wrap::words(&note, inner)
                    .into_iter()
                    .map(|r| r.prefixed(&cont)),
            );
        }
    }
    fit_all(out, ctx.width)
}

/// The largest char boundary of `s` at or below `at`.
fn floor_char_boundary(s: &str, at: usize) -> usize {
    let mut at = at.min(s.len());
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    at
}

mod tokens;
pub use tokens::{compaction, compaction_text, compaction_title, count, usage_text};

#[cfg(test)]
mod tests;
