//! The `web` card: search sources or a fetched URL.
//!
//! Owns the layout of a search (the answer as markdown, then numbered sources:
//! bold title with its date muted, the URL as a link — [`Span::linked`], so the
//! ANSI writer emits OSC 8 — and the snippet word-wrapped under it; failed
//! queries in the warning role) and of a fetch (the URL linked, the HTTP
//! status, a truncation note). URLs and text are sanitized here.

use super::{Ctx, Rows};
use crate::session::Status;
use crate::text::{Line, Span, markdown, sanitize, wrap};
use crate::theme::Role;
use crate::wire::view::{WebBody, WebSource, WebView};

/// `3 sources` (`, 1 failed`) for a search; `HTTP 200` for a fetch.
pub fn outcome(v: &WebView) -> Option<String> {
    let mut s = match &v.body {
        WebBody::Search {
            sources, failures, ..
        } => {
            let mut s = match sources.len() {
                0 => "no sources".to_string(),
                1 => "1 source".to_string(),
                n => format!("{n} sources"),
            };
            if !failures.is_empty() {
                s.push_str(&format!(", {} failed", failures.len()));
            }
            s
        }
        WebBody::Fetch {
            status_code: Some(code),
            ..
        } => format!("HTTP {code}"),
        WebBody::Fetch {
            status_code: None, ..
        } => "fetched".to_string(),
    };
    if v.truncated {
        s.push_str(" (truncated)");
    }
    Some(s)
}

/// A URL as a link, hard-wrapped under `indent` (every piece keeps the link target).
fn url_lines(url: &str, indent: &[Span], ctx: &Ctx) -> Vec<Line> {
    let clean = sanitize::inline(url);
    let link = Line::from_spans(vec![Span::linked(
        clean.clone(),
        ctx.theme.style(Role::Link),
        &clean,
    )]);
    wrap::with_gutter(link, ctx.width, indent, indent, true)
}

fn source(i: usize, s: &WebSource, digits: usize, ctx: &Ctx) -> Vec<Line> {
    let theme = ctx.theme;
    let number = format!("{:>digits$}. ", i + 1);
    let indent = [Span::plain(" ".repeat(number.chars().count()))];
    let first = [Span::new(number, theme.style(Role::ListMarker))];
    let mut out = Vec::new();
    let date = s
        .published_at
        .as_deref()
        .filter(|d| !d.is_empty())
        .map(sanitize::inline);
    match s.title.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
        Some(t) => {
            let mut head = Line::styled(sanitize::inline(t), theme.style(Role::Strong));
            if let Some(d) = date {
                head.push_str("  ", theme.style(Role::Muted));
                head.push_str(d, theme.style(Role::Muted));
            }
            out.extend(wrap::with_gutter(head, ctx.width, &first, &indent, false));
            out.extend(url_lines(&s.url, &indent, ctx));
        }
        None => {
            // No title: the URL is the source's first line.
            let mut rows = url_lines(&s.url, &indent, ctx);
            if let Some(row) = rows.first_mut() {
                row.spans.splice(0..indent.len(), first.iter().cloned());
            }
            out.extend(rows);
            if let Some(d) = date {
                out.push(Line::styled(d, theme.style(Role::Muted)).prefixed(&indent));
            }
        }
    }
    if let Some(snippet) = s.snippet.as_deref() {
        for l in sanitize::lines(snippet.trim()) {
            let line = Line::styled(l, theme.style(Role::Text));
            out.extend(wrap::with_gutter(line, ctx.width, &indent, &indent, false));
        }
    }
    out.into_iter().map(|l| wrap::fit(l, ctx.width)).collect()
}

#[cfg(any(test, feature = "internals"))]
pub fn body(v: &WebView, ctx: &Ctx) -> super::Body {
    super::Body::collect(None, |out| rows(v, ctx, out))
}

/// [`body`], row by row.
pub fn rows(v: &WebView, ctx: &Ctx, lines: &mut Rows) {
    let theme = ctx.theme;
    match &v.body {
        WebBody::Search {
            sources,
            answer,
            failures,
        } => {
            if let Some(a) = answer.as_deref().filter(|a| !a.trim().is_empty()) {
                markdown::render_into(a, ctx.width, theme, theme.style(Role::Text), lines);
            }
            let digits = sources.len().to_string().len();
            for (i, s) in sources.iter().enumerate() {
                lines.extend(source(i, s, digits, ctx));
            }
            for f in failures {
                let mut l = Line::new();
                if !f.query.is_empty() {
                    l.push_str(
                        format!("{}: ", sanitize::inline(&f.query)),
                        theme.style(Role::Warning),
                    );
                }
                l.push_str(sanitize::inline(&f.message), theme.style(Role::Warning));
                if !f.code.is_empty() {
                    l.push_str(
                        format!(" ({})", sanitize::inline(&f.code)),
                        theme.style(Role::Muted),
                    );
                }
                let first = [Span::new("⚠ ", theme.style(Role::Warning))];
                let indent = [Span::plain("  ")];
                lines.extend(wrap::with_gutter(l, ctx.width, &first, &indent, false));
            }
            if sources.is_empty() && failures.is_empty() && answer.is_none() {
                lines.push(Line::styled("no sources", theme.style(Role::Muted)));
            }
        }
        WebBody::Fetch { url, status_code } => {
            lines.extend(url_lines(url, &[], ctx));
            if let Some(code) = status_code {
                let status = if (200..400).contains(code) {
                    Status::Ok
                } else {
                    Status::Error
                };
                let mut l = Line::styled("HTTP ", theme.style(Role::Muted));
                l.push_str(code.to_string(), super::status_style(theme, status));
                lines.push(wrap::fit(l, ctx.width));
            }
        }
    }
    if v.truncated {
        lines.push(wrap::fit(
            Line::styled("(truncated)", theme.style(Role::Muted)),
            ctx.width,
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Density;
    use crate::theme::Theme;
    use crate::wire::View;

    fn view(json: serde_json::Value) -> WebView {
        match View::parse(&json).unwrap() {
            View::Web(w) => w,
            other => panic!("{other:?}"),
        }
    }

    fn search() -> WebView {
        view(
            serde_json::json!({"card": "web", "kind": "search", "sources": [
            {"url": "https://github.com/deepseek-ai/deepseek-harness", "title": "deepseek-ai/deepseek-harness",
             "snippet": "DeepSeek Harness: a coding agent host with a web UI.", "publishedAt": "2026-08-21"},
            {"url": "https://example.com/no-snippet"}
        ], "failures": [{"query": "q2", "code": "WEB_PROVIDER_ERROR", "message": "backend 503"}], "truncated": false}),
        )
    }

    #[test]
    fn sources_are_numbered_and_linked() {
        let theme = Theme::dark();
        let b = body(&search(), &Ctx::new(80, &theme, Density::Full));
        let t: Vec<String> = b.lines.iter().map(Line::text).collect();
        assert_eq!(t[0], "1. deepseek-ai/deepseek-harness  2026-08-21");
        assert_eq!(t[1], "   https://github.com/deepseek-ai/deepseek-harness");
        assert_eq!(
            t[2],
            "   DeepSeek Harness: a coding agent host with a web UI."
        );
        assert_eq!(t[3], "2. https://example.com/no-snippet");
        assert_eq!(
            b.lines[3].spans[1].link.as_deref(),
            Some("https://example.com/no-snippet")
        );
        let url = b.lines[1].spans.iter().find(|s| s.link.is_some()).unwrap();
        assert_eq!(
            url.link.as_deref(),
            Some("https://github.com/deepseek-ai/deepseek-harness")
        );
        assert_eq!(url.style, theme.style(Role::Link));
        assert_eq!(b.lines[0].spans[1].style, theme.style(Role::Strong));
        assert!(t[4].starts_with("⚠ q2: backend 503 (WEB_PROVIDER_ERROR)"));
        assert_eq!(b.lines[4].spans[0].style, theme.style(Role::Warning));
    }

    #[test]
    fn wrapped_urls_keep_the_link_on_every_row() {
        let theme = Theme::dark();
        let b = body(&search(), &Ctx::new(20, &theme, Density::Full));
        let rows: Vec<&Line> = b
            .lines
            .iter()
            .filter(|l| l.spans.iter().any(|s| s.link.is_some()))
            .collect();
        assert!(rows.len() >= 3, "{rows:?}");
        assert!(b.lines.iter().all(|l| l.width() <= 20));
    }

    #[test]
    fn fetch_shows_url_and_status() {
        let theme = Theme::dark();
        let v = view(
            serde_json::json!({"card": "web", "kind": "fetch", "url": "https://e.com/\u{1b}x",
            "statusCode": 404, "truncated": true}),
        );
        let b = body(&v, &Ctx::new(80, &theme, Density::Full));
        let t: Vec<String> = b.lines.iter().map(Line::text).collect();
        assert_eq!(t, vec!["https://e.com/␛x", "HTTP 404", "(truncated)"]);
        assert_eq!(
            b.lines[0].spans[0].link.as_deref(),
            Some("https://e.com/␛x")
        );
        assert_eq!(outcome(&v).as_deref(), Some("HTTP 404 (truncated)"));
        assert_eq!(outcome(&search()).as_deref(), Some("2 sources, 1 failed"));
    }
}
