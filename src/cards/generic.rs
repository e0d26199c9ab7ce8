//! The `generic` card and the fallback card.
//!
//! Owns how a generic view's fields are drawn (raw input as is or as
//! highlighted JSON, locations, content blocks as markdown, placeholders for
//! non-text blocks) and how raw result text is shown when a result has no view
//! of its own: the text is sniffed (JSON, unified diff, markdown, plain) and a
//! spill footer (`(Omitted N bytes. …)`, `[output truncated; …]`, `Full … stored
//! at: …`) is split off and muted. The fallback reason line is drawn by the
//! chrome, not here. Nothing here names a tool.

use ratatui::style::Style;
use serde_json::Value;

use super::{Ctx, Resolved, Rows};
use crate::text::highlight::Highlighter;
use crate::text::{Line, markdown, sanitize, wrap};
use crate::theme::Role;
use crate::wire::view::{Block, GenericView};

/// The header outcome: how long the raw result is (when it is more than a
/// line), whether it was spilled, or `no view` for a fallback card.
pub fn outcome(_v: &GenericView, r: &Resolved) -> Option<String> {
    let raw = r.raw_result.as_deref().map(split_spill);
    let count = raw.as_ref().map_or(0, |(main, _)| main.lines().count());
    let spilled = raw.as_ref().is_some_and(|(_, footer)| !footer.is_empty());
    let mut parts = Vec::new();
    if count > 1 {
        parts.push(format!("{count} lines"));
    }
    if spilled {
        parts.push("truncated".to_string());
    }
    if parts.is_empty() && r.fallback.is_some() {
        parts.push("no view".to_string());
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}

/// The body of a generic view: raw input, locations, content blocks.
#[cfg(any(test, feature = "internals"))]
pub fn body(v: &GenericView, ctx: &Ctx) -> super::Body {
    super::Body::collect(None, |out| rows(v, ctx, false, out))
}

/// True when the view shows the call's raw input (not blank). Locations
/// alone (a path the card's title names too) need no label.
pub fn has_input(v: &GenericView) -> bool {
    match &v.raw_input {
        None => false,
        Some(Value::String(s)) => !s.trim().is_empty(),
        Some(_) => true,
    }
}

/// [`body`], row by row. With `output` (more follows: content blocks or
/// the raw result), the input and what follows are labelled, so the two
/// never run together.
pub fn rows(v: &GenericView, ctx: &Ctx, output: bool, lines: &mut Rows) {
    let theme = ctx.theme;
    let labelled = output && has_input(v);
    if labelled {
        lines.push(Line::styled("input", theme.style(Role::Muted)));
    }
    if let Some(input) = &v.raw_input {
        match input {
            Value::String(s) if s.trim().is_empty() => {}
            Value::String(s) => {
                let role = if v.kind.as_deref() == Some("execute") {
                    Role::Command
                } else {
                    Role::Text
                };
                plain(s, theme.style(role), ctx.width, lines);
            }
            other => json(other, ctx, lines),
        }
    }
    for loc in &v.locations {
        let path = ctx.path(&loc.path);
        let text = match loc.line {
            Some(n) => format!("{}:{n}", sanitize::inline(&path)),
            None => sanitize::inline(&path),
        };
        lines.extend(wrap::chars(
            &Line::styled(text, theme.style(Role::Path)),
            ctx.width,
        ));
    }
    if labelled {
        lines.push(Line::styled("output", theme.style(Role::Muted)));
    }
    for block in v.content.iter().flatten() {
        match block {
            Block::Text(t) => {
                markdown::render_into(t, ctx.width, theme, theme.style(Role::Text), lines)
            }
            Block::Other { kind } => {
                let l = Line::styled(
                    format!("[{} block]", sanitize::inline(kind)),
                    theme.style(Role::Muted),
                );
                lines.push(wrap::truncate(&l, ctx.width));
            }
        }
    }
}

/// What untyped result text looks like.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Sniffed {
    Json(Value),
    Diff,
    Markdown,
    Plain,
}

/// Guess the shape of untyped text.
pub(crate) fn sniff(text: &str) -> Sniffed {
    let t = text.trim();
    if (t.starts_with('{') || t.starts_with('['))
        && let Ok(v) = serde_json::from_str::<Value>(t)
    {
        return Sniffed::Json(v);
    }
    let lines: Vec<&str> = t.lines().collect();
    let hunk = lines.iter().any(|l| l.starts_with("@@ "));
    // A hunk header and at least one changed line (file headers count too).
    let changes = lines
        .iter()
        .any(|l| l.starts_with('+') || l.starts_with('-'));
    if hunk && changes {
        return Sniffed::Diff;
    }
    let fence = lines.iter().any(|l| l.trim_start().starts_with("```"));
    let heading = lines.iter().any(|l| {
        let hashes = l.chars().take_while(|&c| c == '#').count();
        (1..=6).contains(&hashes) && l[hashes..].starts_with(' ')
    });
    let link = t.contains("](http");
    let items = lines.iter().filter(|l| is_list_item(l)).count();
    if fence || heading || link || items >= 2 {
        return Sniffed::Markdown;
    }
    Sniffed::Plain
}

fn is_list_item(line: &str) -> bool {
    let l = line.trim_start();
    if l.starts_with("- ") || l.starts_with("* ") || l.starts_with("+ ") {
        return true;
    }
    let digits = l.chars().take_while(char::is_ascii_digit).count();
    digits > 0 && (l[digits..].starts_with(". ") || l[digits..].starts_with(") "))
}

/// True for a line of a spill footer: the host's note that a result was cut
/// and where the whole of it is stored.
pub(crate) fn is_spill_line(line: &str) -> bool {
    let l = line.trim();
    l.starts_with("(Omitted ")
        || l.starts_with("[output truncated")
        || (l.starts_with("Full ") && l.contains(" stored at:"))
}

/// Split trailing spill-footer lines off `text`: (the text before them, the footer lines).
pub(crate) fn split_spill(text: &str) -> (&str, Vec<&str>) {
    let mut footer = Vec::new();
    let mut end = text.trim_end().len();
    loop {
        let head = &text[..end];
        let (rest, last) = match head.rfind('\n') {
            Some(i) => (&head[..i], &head[i + 1..]),
            None => ("", head),
        };
        if is_spill_line(last) {
            footer.push(last.trim());
            end = rest.trim_end().len();
            if end == 0 {
                break;
            }
        } else {
            break;
        }
    }
    footer.reverse();
    (&text[..end], footer)
}

/// The raw result content of a call whose result has no view of its own.
#[cfg(any(test, feature = "internals"))]
pub fn raw_result(text: &str, ctx: &Ctx) -> Vec<Line> {
    let mut rows = Rows::all();
    raw_result_into(text, ctx, &mut rows);
    rows.finish(Style::default())
}

/// [`raw_result`], row by row.
pub fn raw_result_into(text: &str, ctx: &Ctx, lines: &mut Rows) {
    let theme = ctx.theme;
    let (main, footer) = split_spill(text);
    match sniff(main) {
        Sniffed::Json(v) => json(&v, ctx, lines),
        Sniffed::Diff => diff(main, ctx, lines),
        Sniffed::Markdown => {
            markdown::render_into(main, ctx.width, theme, theme.style(Role::Text), lines)
        }
        Sniffed::Plain if main.is_empty() => {}
        Sniffed::Plain => plain(main, theme.style(Role::Text), ctx.width, lines),
    }
    for f in footer {
        lines.extend(wrap::words(
            &Line::styled(sanitize::inline(f), theme.style(Role::Muted)),
            ctx.width,
        ));
    }
}

/// Text shown as is: sanitized, word-wrapped.
fn plain(text: &str, style: Style, width: usize, out: &mut Rows) {
    for l in text_lines(text) {
        out.extend(wrap::words(&Line::styled(sanitize::line(l), style), width));
    }
}

/// The lines of text as [`sanitize::lines`] splits them (a trailing newline
/// makes no empty last line), unsanitized and borrowed.
fn text_lines(text: &str) -> impl Iterator<Item = &str> {
    text.strip_suffix('\n')
        .unwrap_or(text)
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
}

/// A JSON value pretty-printed, highlighted and hard-wrapped; lines a
/// preview will not show are laid out plain.
fn json(v: &Value, ctx: &Ctx, out: &mut Rows) {
    let pretty = serde_json::to_string_pretty(v).unwrap_or_else(|_| v.to_string());
    let mut h = Highlighter::new(Some("json"), ctx.theme, ctx.theme.style(Role::Text))
        .limit(ctx.code_lines());
    for raw in pretty.split('\n') {
        if !out.showing() {
            h.stop();
        }
        let l = h.line(raw.strip_suffix('\r').unwrap_or(raw));
        out.extend(wrap::chars(&l, ctx.width));
    }
}

/// A unified diff: file headers, hunk headers, added and removed lines in the diff roles.
fn diff(text: &str, ctx: &Ctx, out: &mut Rows) {
    let theme = ctx.theme;
    for l in text_lines(text) {
        let role = if l.starts_with("+++ ")
            || l.starts_with("--- ")
            || l.starts_with("diff ")
            || l.starts_with("index ")
        {
            Role::DiffFile
        } else if l.starts_with("@@") {
            Role::DiffHunk
        } else if l.starts_with('+') {
            Role::DiffAdded
        } else if l.starts_with('-') {
            Role::DiffRemoved
        } else {
            Role::DiffContext
        };
        let line = Line::styled(sanitize::line(l), theme.style(role));
        out.extend(wrap::chars(&line, ctx.width));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Density;
    use crate::theme::Theme;
    use crate::wire::View;

    fn ctx(theme: &Theme, width: usize) -> Ctx<'_> {
        Ctx::new(width, theme, Density::Full)
    }

    fn texts(lines: &[Line]) -> Vec<String> {
        lines.iter().map(Line::text).collect()
    }

    #[test]
    fn sniffs_json_diff_markdown_plain() {
        assert!(matches!(sniff("{\"answers\":[1]}"), Sniffed::Json(_)));
        assert!(matches!(sniff("  [1, 2]\n"), Sniffed::Json(_)));
        assert_eq!(sniff("{not json"), Sniffed::Plain);
        assert_eq!(
            sniff("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b"),
            Sniffed::Diff
        );
        assert_eq!(sniff("# Title\n\ntext"), Sniffed::Markdown);
        assert_eq!(sniff("```console\nok\n```"), Sniffed::Markdown);
        assert_eq!(sniff("- [a](https://a.io)\n- b"), Sniffed::Markdown);
        assert_eq!(sniff("echo: hello from a real MCP tool"), Sniffed::Plain);
        assert_eq!(sniff("#nospace\n- one item"), Sniffed::Plain);
    }

    #[test]
    fn json_results_are_pretty_and_highlighted() {
        let theme = Theme::dark();
        let lines = raw_result("{\"answers\":[{\"id\":\"q1\"}]}", &ctx(&theme, 80));
        assert_eq!(
            texts(&lines),
            vec![
                "{",
                "  \"answers\": [",
                "    {",
                "      \"id\": \"q1\"",
                "    }",
                "  ]",
                "}"
            ]
        );
        assert!(lines[3].spans.len() > 1, "expected json colours");
    }

    #[test]
    fn diffs_get_diff_roles() {
        let theme = Theme::dark();
        let lines = raw_result(
            "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new\n ctx",
            &ctx(&theme, 80),
        );
        let roles = [
            Role::DiffFile,
            Role::DiffFile,
            Role::DiffHunk,
            Role::DiffRemoved,
            Role::DiffAdded,
            Role::DiffContext,
        ];
        for (l, r) in lines.iter().zip(roles) {
            assert_eq!(l.spans[0].style, theme.style(r), "{}", l.text());
        }
    }

    #[test]
    fn spill_footers_are_split_and_muted() {
        let text = "9999\n20000\n\n[output truncated; full output: /tmp/x-stdout.log]\n\n\
                    (Omitted 14312 bytes. Full formatted result stored at: /tmp/spill/b.txt. Use read.)\n";
        let (main, footer) = split_spill(text);
        assert_eq!(main, "9999\n20000");
        assert_eq!(footer.len(), 2);
        let theme = Theme::dark();
        let lines = raw_result(text, &ctx(&theme, 200));
        assert_eq!(lines.len(), 4);
        assert_eq!(lines[3].spans[0].style, theme.style(Role::Muted));
        assert!(lines[3].text().starts_with("(Omitted 14312 bytes."));
        assert_eq!(split_spill("only text"), ("only text", vec![]));
    }

    #[test]
    fn plain_results_wrap_and_sanitize() {
        let theme = Theme::dark();
        let lines = raw_result(
            "Error: \u{1b}[2J no usable web provider is registered",
            &ctx(&theme, 20),
        );
        assert!(lines.iter().all(|l| l.width() <= 20));
        assert!(texts(&lines).join(" ").contains("␛[2J"));
    }

    fn generic(json: serde_json::Value) -> GenericView {
        match View::parse(&json).unwrap() {
            View::Generic(g) => g,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn body_shows_input_locations_and_blocks() {
        let theme = Theme::dark();
        let v = generic(serde_json::json!({
            "card": "generic", "title": "t", "kind": "execute",
            "rawInput": "sleep 1; echo bg-done",
            "locations": [{"path": "/w/a.rs", "line": 3}, {"path": "/w/b.rs"}],
            "content": [{"type": "text", "text": "**Background** sleep"}, {"type": "image", "data": "…"}]
        }));
        let b = body(&v, &ctx(&theme, 80));
        assert_eq!(
            texts(&b.lines),
            vec![
                "sleep 1; echo bg-done",
                "/w/a.rs:3",
                "/w/b.rs",
                "Background sleep",
                "[image block]"
            ]
        );
        assert_eq!(b.lines[0].spans[0].style, theme.style(Role::Command));
        assert_eq!(b.lines[1].spans[0].style, theme.style(Role::Path));
        assert_eq!(b.lines[3].spans[0].style, theme.style(Role::Strong));
    }

    #[test]
    fn json_input_is_pretty() {
        let theme = Theme::dark();
        let v = generic(
            serde_json::json!({"card": "generic", "rawInput": [{"content": "a", "status": "pending"}]}),
        );
        let b = body(&v, &ctx(&theme, 80));
        assert_eq!(b.lines[0].text(), "[");
        assert_eq!(b.lines[2].text(), "    \"content\": \"a\",");
    }

    #[test]
    fn outcome_counts_lines_or_says_no_view() {
        let r = |raw: Option<&str>, fallback: bool| Resolved {
            view: View::Generic(GenericView::default()),
            title: "t".into(),
            fallback: fallback.then(|| "no view".to_string()),
            raw_result: raw.map(str::to_string),
        };
        let v = GenericView::default();
        assert_eq!(
            outcome(&v, &r(Some("a\nb\nc"), false)).as_deref(),
            Some("3 lines")
        );
        assert_eq!(
            outcome(&v, &r(Some("one"), true)).as_deref(),
            Some("no view")
        );
        assert_eq!(outcome(&v, &r(Some("one"), false)), None);
        assert_eq!(
            outcome(&v, &r(Some("a\nb\n(Omitted 3 bytes. x)"), false)).as_deref(),
            Some("2 lines, truncated")
        );
    }
}
