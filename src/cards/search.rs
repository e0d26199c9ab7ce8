//! The `search` card: matches grouped by file, or a list of paths.
//!
//! Owns the match layout (a path header per file, then `lineNumber: line`
//! rows with a right-aligned gutter), the emphasis of the query term — taken
//! from the card title when a word of it occurs in every matched line — the
//! `showing N of M (truncated)` banner, and, for a truncated result, the spill
//! / recovery note found in the raw result text. Text is sanitized here.

use super::generic::is_spill_line;
use super::{Ctx, Rows};
use crate::text::{Line, Span, sanitize, wrap};
use crate::theme::Role;
use crate::wire::view::{SearchBody, SearchFile, SearchView};

/// `12 matches in 4 files` / `4 paths`, plus ` (truncated)`.
pub fn outcome(v: &SearchView) -> Option<String> {
    let mut s = match &v.body {
        SearchBody::Matches(files) => {
            let n = v.total.max(shown_matches(files));
            if n == 0 {
                "no matches".to_string()
            } else {
                format!(
                    "{} in {}",
                    count(n, "match", "matches"),
                    count(files.len() as u64, "file", "files")
                )
            }
        }
        SearchBody::Paths(paths) => {
            let n = v.total.max(paths.len() as u64);
            if n == 0 {
                "no paths".to_string()
            } else {
                count(n, "path", "paths")
            }
        }
    };
    if v.truncated {
        s.push_str(" (truncated)");
    }
    Some(s)
}

fn shown_matches(files: &[SearchFile]) -> u64 {
    files.iter().map(|f| f.matches.len() as u64).sum()
}

/// `1 match`, `5,000 matches`.
fn count(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", thousands(n), if n == 1 { one } else { many })
}

/// `5000` → `5,000`.
pub(crate) fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The word of `title` to emphasise: the longest one that occurs (ASCII
/// case-insensitively) in every matched line.
fn query_term(title: &str, files: &[SearchFile]) -> Option<String> {
    let lines: Vec<String> = files
        .iter()
        .flat_map(|f| &f.matches)
        .map(|m| m.line.to_ascii_lowercase())
        .collect();
    if lines.is_empty() {
        return None;
    }
    title
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| "\"'`()[]{},;".contains(c)))
        .filter(|w| w.chars().count() >= 2)
        .filter(|w| {
            let lw = w.to_ascii_lowercase();
            lines.iter().all(|l| l.contains(&lw))
        })
        .max_by_key(|w| w.len())
        .map(str::to_string)
}

/// A matched line with every occurrence of `term` in the match role.
fn emphasised(line: &str, term: Option<&str>, ctx: &Ctx) -> Line {
    let text = sanitize::line(line).into_owned();
    let base = ctx.theme.style(Role::Text);
    let Some(term) = term.filter(|t| !t.is_empty()) else {
        return Line::styled(text, base);
    };
    let hit = ctx.theme.style(Role::Match);
    let lower = text.to_ascii_lowercase();
    let needle = term.to_ascii_lowercase();
    let mut out = Line::new();
    let mut at = 0;
    while let Some(i) = lower[at..].find(&needle) {
        let start = at + i;
        let end = start + needle.len();
        out.push(Span::new(&text[at..start], base));
        out.push(Span::new(&text[start..end], hit));
        at = end;
    }
    out.push(Span::new(&text[at..], base));
    out
}

/// The body: banner, spill note, then matches or paths. `title` is the card's
/// title (it may name the query); `raw` is the raw result text.
#[cfg(any(test, feature = "internals"))]
pub fn body(v: &SearchView, title: &str, raw: Option<&str>, ctx: &Ctx) -> super::Body {
    super::Body::collect(None, |out| rows(v, title, raw, ctx, out))
}

/// [`body`], row by row.
pub fn rows(v: &SearchView, title: &str, raw: Option<&str>, ctx: &Ctx, lines: &mut Rows) {
    let theme = ctx.theme;
    let (shown, noun) = match &v.body {
        SearchBody::Matches(files) => (shown_matches(files), "matches"),
        SearchBody::Paths(paths) => (paths.len() as u64, "paths"),
    };
    if v.truncated || v.total > shown {
        let mut text = format!(
            "showing {} of {} {noun}",
            thousands(shown),
            thousands(v.total.max(shown))
        );
        if v.truncated {
            text.push_str(" (truncated)");
        }
        lines.extend(wrap::words(
            &Line::styled(text, theme.style(Role::Warning)),
            ctx.width,
        ));
    }
    if v.truncated {
        for l in raw.unwrap_or("").lines().filter(|l| is_spill_line(l)) {
            let note = Line::styled(sanitize::inline(l.trim()), theme.style(Role::Muted));
            lines.extend(wrap::words(&note, ctx.width));
        }
    }
    match &v.body {
        SearchBody::Matches(files) => {
            let term = query_term(title, files);
            let digits = files
                .iter()
                .flat_map(|f| &f.matches)
                .map(|m| m.line_number.to_string().len())
                .max()
                .unwrap_or(1);
            let gutter = theme.style(Role::Gutter);
            let cont = [Span::new(" ".repeat(digits + 4), gutter)];
            // Once a preview shows no more, the rest is counted, not made:
            // a path or a match is a line (its wrapped rows continue it).
            let mut left: usize = files.iter().map(|f| 1 + f.matches.len()).sum();
            for f in files {
                if !lines.showing() {
                    return lines.skip(left, left);
                }
                left -= 1;
                let path = Line::styled(sanitize::inline(&ctx.path(&f.path)), theme.style(Role::Path));
                lines.extend(wrap::chars(&path, ctx.width));
                for m in &f.matches {
                    if !lines.showing() {
                        return lines.skip(left, left);
                    }
                    left -= 1;
                    let first = [Span::new(format!("  {:>digits$}: ", m.line_number), gutter)];
                    let text = emphasised(&m.line, term.as_deref(), ctx);
                    lines.extend(wrap::with_gutter(text, ctx.width, &first, &cont, true));
                }
            }
            if files.is_empty() {
                lines.push(Line::styled("no matches", theme.style(Role::Muted)));
            }
        }
        SearchBody::Paths(paths) => {
            for (i, p) in paths.iter().enumerate() {
                if !lines.showing() {
                    let left = paths.len() - i;
                    return lines.skip(left, left);
                }
                let path = Line::styled(sanitize::inline(&ctx.path(p)), theme.style(Role::Path));
                lines.extend(wrap::chars(&path, ctx.width));
            }
            if paths.is_empty() {
                lines.push(Line::styled("no paths", theme.style(Role::Muted)));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Density;
    use crate::text::Keep;
    use crate::theme::Theme;
    use crate::wire::View;
    use ratatui::style::Style;

    fn view(json: serde_json::Value) -> SearchView {
        match View::parse(&json).unwrap() {
            View::Search(s) => s,
            other => panic!("{other:?}"),
        }
    }

    fn matches_view() -> SearchView {
        view(
            serde_json::json!({"card": "search", "shape": "matches", "files": [
            {"path": "docs/new.md", "matches": [{"lineNumber": 3, "line": "TODO: fill this in"}]},
            {"path": "notes.md", "matches": [{"lineNumber": 5, "line": "TODO: review the todo list"},
                                             {"lineNumber": 12, "line": "a second TODO"}]}
        ], "truncated": false, "total": 3}),
        )
    }

    #[test]
    fn matches_group_by_file_with_numbers() {
        let theme = Theme::dark();
        let b = body(
            &matches_view(),
            "Grep TODO (*.md)",
            None,
            &Ctx::new(80, &theme, Density::Full),
        );
        let t: Vec<String> = b.lines.iter().map(Line::text).collect();
        assert_eq!(
            t,
            vec![
                "docs/new.md",
                "   3: TODO: fill this in",
                "notes.md",
                "   5: TODO: review the todo list",
                "  12: a second TODO"
            ]
        );
        assert_eq!(b.lines[0].spans[0].style, theme.style(Role::Path));
    }

    /// A preview counts what it does not show without making it: the same
    /// rows and the same `… N more lines` as every row made, then capped —
    /// lines that wrap, paths, matches, a cut in the middle of a file.
    #[test]
    fn a_preview_counts_the_hidden_matches_and_paths_exactly() {
        let theme = Theme::dark();
        let long = "TODO ".repeat(30);
        let files: Vec<serde_json::Value> = (0..6)
            .map(|f| {
                let matches: Vec<serde_json::Value> = (0..f + 1)
                    .map(|m| serde_json::json!({"lineNumber": m * 7 + 1, "line": if m % 2 == 0 { long.as_str() } else { "TODO" }}))
                    .collect();
                serde_json::json!({"path": format!("src/dir{f}/a/rather/long/path/file{f}.rs"), "matches": matches})
            })
            .collect();
        let paths: Vec<String> = (0..40).map(|i| format!("src/dir/a/long/path/{i}.rs")).collect();
        for v in [
            view(serde_json::json!({"card": "search", "shape": "matches", "files": files, "truncated": false, "total": 21})),
            view(serde_json::json!({"card": "search", "shape": "paths", "paths": paths, "truncated": false, "total": 40})),
        ] {
            for (width, budget) in [(30, 4), (30, 10), (80, 7), (80, 60)] {
                let ctx = Ctx::new(width, &theme, Density::Full);
                let mut all = Rows::all();
                rows(&v, "Grep TODO", None, &ctx, &mut all);
                let want = crate::cards::chrome::cap(
                    all.finish(Style::default()),
                    budget,
                    Keep::Head,
                    Style::default(),
                );
                let mut capped = Rows::capped(budget, Keep::Head);
                rows(&v, "Grep TODO", None, &ctx, &mut capped);
                assert_eq!(capped.finish(Style::default()), want, "width {width}, {budget} rows");
            }
        }
    }

    #[test]
    fn the_query_term_is_emphasised() {
        let theme = Theme::dark();
        let b = body(
            &matches_view(),
            "Grep TODO (*.md)",
            None,
            &Ctx::new(80, &theme, Density::Full),
        );
        let hits: Vec<&str> = b.lines[3]
            .spans
            .iter()
            .filter(|s| s.style == theme.style(Role::Match))
            .map(|s| s.text.as_str())
            .collect();
        assert_eq!(hits, vec!["TODO", "todo"]);
        assert_eq!(
            query_term(
                "Grep TODO (*.md)",
                match &matches_view().body {
                    SearchBody::Matches(f) => f,
                    _ => unreachable!(),
                }
            )
            .as_deref(),
            Some("TODO")
        );
        // A title that names nothing in the lines emphasises nothing.
        let plain = body(
            &matches_view(),
            "Search",
            None,
            &Ctx::new(80, &theme, Density::Full),
        );
        assert!(
            plain
                .lines
                .iter()
                .flat_map(|l| &l.spans)
                .all(|s| s.style != theme.style(Role::Match))
        );
    }

    #[test]
    fn truncation_banner_and_spill_note() {
        let theme = Theme::dark();
        let v = view(
            serde_json::json!({"card": "search", "shape": "paths", "paths": ["a.rs", "b.rs"],
            "truncated": true, "total": 5000}),
        );
        let raw =
            "a.rs\nb.rs\n\n(Results are truncated.)\nFull results stored at: /tmp/spill/glob.txt";
        let b = body(
            &v,
            "Glob **/*.rs",
            Some(raw),
            &Ctx::new(80, &theme, Density::Full),
        );
        let t: Vec<String> = b.lines.iter().map(Line::text).collect();
        assert_eq!(t[0], "showing 2 of 5,000 paths (truncated)");
        assert_eq!(t[1], "Full results stored at: /tmp/spill/glob.txt");
        assert_eq!(t[2..], ["a.rs", "b.rs"]);
        assert_eq!(b.lines[0].spans[0].style, theme.style(Role::Warning));
        assert_eq!(outcome(&v).as_deref(), Some("5,000 paths (truncated)"));
    }

    #[test]
    fn outcomes_count() {
        assert_eq!(
            outcome(&matches_view()).as_deref(),
            Some("3 matches in 2 files")
        );
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(thousands(999), "999");
    }
}
