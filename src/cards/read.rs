//! The `read` card: a window of a file.
//!
//! Owns the file header (path and `lines a–b of N`), the line-number gutter
//! with the file's real numbers (right-aligned; `↪` on continuation rows of a
//! hard-wrapped long line; `⋯` where numbers skip), syntax colours from the
//! view's `lang` or the path's extension, and the view's `content` text when it
//! carries no lines. File text is sanitized by the highlighter.

use super::{Ctx, Rows, blocks_text};
use crate::text::highlight::{self, Checkpoint, highlight_lines_from, lang_for_path};
use crate::text::{Line, Span, sanitize, wrap};
use crate::theme::Role;
use crate::wire::view::{ReadLine, ReadView};

/// `8 lines` for a whole file, `lines 2–4 of 8` for a window.
pub fn outcome(v: &ReadView) -> Option<String> {
    Some(range(v))
}

fn plural(n: u64, one: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {one}s")
    }
}

fn range(v: &ReadView) -> String {
    match (v.lines.first(), v.lines.last()) {
        (Some(a), Some(b)) => {
            // Lines counted but not read end the range.
            let (a, b) = (a.number, v.more.map_or(b.number, |m| m.last));
            // The whole file only when its length is known.
            let whole = a <= 1 && v.total_lines > 0 && b >= v.total_lines;
            if whole {
                plural(v.total_lines.max(b), "line")
            } else if v.total_lines > 0 {
                format!("lines {a}–{b} of {}", v.total_lines)
            } else {
                format!("lines {a}–{b}")
            }
        }
        _ => plural(v.total_lines, "line"),
    }
}

/// Lines of a file highlighted and laid out at a time (each window on
/// every core): a big file is never held laid out whole.
const WINDOW: usize = 8 * 1024;

/// The body, kept whole (see [`rows`]).
#[cfg(any(test, feature = "internals"))]
pub fn body(v: &ReadView, ctx: &Ctx) -> super::Body {
    super::Body::collect(None, |out| rows_titled(v, "", ctx, out))
}

/// The body row by row: the path header (pinned when the file has lines)
/// unless the card's `title` names the path already (the header then says
/// path and range once: title and outcome), then the numbered lines,
/// window by window.
pub fn rows_titled(v: &ReadView, title: &str, ctx: &Ctx, out: &mut Rows) {
    let theme = ctx.theme;
    let path = ctx.path(&v.path);
    let named = title.contains(v.path.as_str()) || title.contains(path.as_ref());
    let head = if named && !v.path.is_empty() {
        Vec::new()
    } else {
        let mut head = Line::styled(sanitize::inline(&path), theme.style(Role::Path));
        head.push_str("  ", theme.style(Role::Muted));
        head.push_str(range(v), theme.style(Role::Muted));
        wrap::words(&head, ctx.width)
    };

    if v.lines.is_empty() {
        out.extend(head);
        let text = v.content.as_deref().map(blocks_text).unwrap_or_default();
        if text.trim().is_empty() {
            out.push(Line::styled("(no lines)", theme.style(Role::Muted)));
        } else {
            for l in sanitize::lines(&text) {
                out.extend(wrap::words(
                    &Line::styled(l, theme.style(Role::Text)),
                    ctx.width,
                ));
            }
        }
        return;
    }
    // The old rule: the first row of the header stays in a preview.
    let mut head = head.into_iter();
    if let Some(first) = head.next() {
        out.pin(first);
    }
    out.extend(head);

    let last = v
        .lines
        .iter()
        .map(|l| l.number)
        .chain(v.more.map(|m| m.last))
        .max()
        .unwrap_or(0);
    let digits = last.to_string().len();
    let gutter = theme.style(Role::Gutter);
    let lang = v.lang.clone().or_else(|| lang_for_path(&v.path));
    let cont = [Span::new(format!("{:>digits$} ", "↪"), gutter)];
    let mut prev: Option<u64> = None;
    let mut at = Checkpoint::default();
    let mut colour = ctx.code_lines();
    let text = theme.style(Role::Text);
    // Once a preview shows no more, the rest is counted, not made, when
    // that is quick (printable ASCII: a row per `inner` bytes).
    let mut may_count = ctx.width > digits + 1;
    let inner = ctx.width.saturating_sub(digits + 1);
    let mut done = 0;
    let texts: Vec<&str> = v.lines.iter().map(|l| l.text.as_str()).collect();
    for range in highlight::windows(&texts, WINDOW) {
        let window = &v.lines[range.clone()];
        let mut coded = if colour > 0 {
            highlight_lines_from(&texts[range], lang.as_deref(), theme, text, colour, &mut at)
        } else {
            Vec::new()
        }
        .into_iter();
        colour = colour.saturating_sub(window.len());
        for (k, l) in window.iter().enumerate() {
            if may_count && !out.showing() {
                match hidden_rows(&v.lines[done + k..], prev, inner) {
                    Some((n, lines)) => return out.skip(n, lines),
                    None => may_count = false,
                }
            }
            if prev.is_some_and(|p| l.number > p.saturating_add(1)) {
                out.push(wrap::fit(
                    Line::styled(format!("{:>digits$}", "⋯"), gutter),
                    ctx.width,
                ));
            }
            prev = Some(l.number);
            let code = coded
                .next()
                .unwrap_or_else(|| Line::styled(sanitize::line(&l.text).into_owned(), text));
            let first = [Span::new(format!("{:>digits$} ", l.number), gutter)];
            out.extend(wrap::with_gutter(code, ctx.width, &first, &cont, true));
        }
        done += window.len();
    }
}

/// The rows `lines` make (after the line numbered `prev`): gap marks and
/// each line's rows at `inner` columns, when every line is printable ASCII;
/// `None` when one is not (then they must be laid out to be counted). With
/// the rows, how many of them start a line (gap marks included).
fn hidden_rows(
    lines: &[ReadLine],
    mut prev: Option<u64>,
    inner: usize,
) -> Option<(usize, usize)> {
    let (mut n, mut starts) = (0, 0);
    for l in lines {
        let gap = usize::from(prev.is_some_and(|p| l.number > p.saturating_add(1)));
        prev = Some(l.number);
        n += gap + wrap::chars_rows_ascii(&l.text, inner)?;
        starts += gap + 1;
    }
    Some((n, starts))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Density;
    use crate::theme::Theme;
    use crate::wire::View;

    fn view(json: serde_json::Value) -> ReadView {
        match View::parse(&json).unwrap() {
            View::Read(r) => r,
            other => panic!("{other:?}"),
        }
    }

    fn window() -> ReadView {
        view(serde_json::json!({
            "card": "read", "path": "/workspace/demo/src/app.py", "offset": 8,
            "lines": [{"number": 8, "text": "def add(a, b):"}, {"number": 9, "text": "    return a + b"},
                      {"number": 10, "text": "x = \"a long string literal that wraps\""}],
            "totalLines": 120, "lang": "py"
        }))
    }

    #[test]
    fn gutter_has_real_numbers_right_aligned() {
        let theme = Theme::dark();
        let b = body(&window(), &Ctx::new(80, &theme, Density::Full));
        let t: Vec<String> = b.lines.iter().map(Line::text).collect();
        assert_eq!(t[0], "/workspace/demo/src/app.py  lines 8–10 of 120");
        assert_eq!(t[1], " 8 def add(a, b):");
        assert_eq!(t[2], " 9     return a + b");
        assert!(t[3].starts_with("10 x = "));
        assert_eq!(b.lines[1].spans[0].style, theme.style(Role::Gutter));
        assert!(b.lines[1].spans.len() > 2, "expected python colours");
    }

    #[test]
    fn long_lines_wrap_with_a_continuation_mark() {
        let theme = Theme::dark();
        let b = body(&window(), &Ctx::new(20, &theme, Density::Full));
        let t: Vec<String> = b.lines.iter().map(Line::text).collect();
        let i = t.iter().position(|l| l.starts_with("10 ")).unwrap();
        assert!(t[i + 1].starts_with(" ↪ "), "{t:?}");
        assert!(b.lines.iter().all(|l| l.width() <= 20));
    }

    #[test]
    fn outcome_names_the_range() {
        assert_eq!(outcome(&window()).as_deref(), Some("lines 8–10 of 120"));
        let whole = view(serde_json::json!({"card": "read", "path": "a.md",
            "lines": [{"number": 1, "text": "x"}, {"number": 2, "text": "y"}], "totalLines": 2}));
        assert_eq!(outcome(&whole).as_deref(), Some("2 lines"));
        // A length not given is not claimed: the range read, no end.
        let unknown = view(serde_json::json!({"card": "read", "path": "a.md",
            "lines": [{"number": 1, "text": "x"}, {"number": 2, "text": "y"}]}));
        assert_eq!(outcome(&unknown).as_deref(), Some("lines 1–2"));
    }

    #[test]
    fn content_is_shown_without_lines() {
        let theme = Theme::dark();
        let v = view(
            serde_json::json!({"card": "read", "path": "a.bin", "lines": [], "totalLines": 0,
            "content": [{"type": "text", "text": "binary file \u{1b}[1m"}]}),
        );
        let b = body(&v, &Ctx::new(80, &theme, Density::Full));
        assert_eq!(b.lines[1].text(), "binary file ␛[1m");
        assert_eq!(outcome(&v).as_deref(), Some("0 lines"));
    }

    #[test]
    fn a_preview_counts_hidden_rows_without_making_them_and_says_the_same() {
        let theme = Theme::dark();
        // Long and short lines, a gap in the numbers, and (second case) a
        // line that is not ASCII, so the rows are made to be counted.
        let mut lines: Vec<serde_json::Value> = (1..=300)
            .filter(|n| n % 50 != 0)
            .map(|n| serde_json::json!({"number": n, "text": "x".repeat(n as usize % 170)}))
            .collect();
        for tail in [false, true] {
            if tail {
                lines.push(serde_json::json!({"number": 999, "text": "日本語 ".repeat(40)}));
            }
            let v = view(
                serde_json::json!({"card": "read", "path": "a.txt", "lines": lines, "totalLines": 999}),
            );
            for width in [12, 40, 80] {
                let ctx = Ctx::new(width, &theme, Density::Preview);
                let mut capped = Rows::capped(12, crate::cards::Keep::Head);
                rows_titled(&v, "", &ctx, &mut capped);
                let got = capped.finish(theme.style(Role::Muted));
                let all = body(&v, &Ctx::new(width, &theme, Density::Full));
                let mut want = Rows::capped(12, crate::cards::Keep::Head);
                want.pin_all(all.lines[..all.pinned].iter().cloned());
                want.extend(all.lines[all.pinned..].iter().cloned());
                let want = want.finish(theme.style(Role::Muted));
                let text = |l: &[Line]| l.iter().map(Line::text).collect::<Vec<_>>();
                assert_eq!(text(&got), text(&want), "width {width}");
            }
        }
    }

    #[test]
    fn skipped_numbers_show_a_gap() {
        let theme = Theme::dark();
        let v = view(serde_json::json!({"card": "read", "path": "a.txt",
            "lines": [{"number": 1, "text": "a"}, {"number": 5, "text": "b"}], "totalLines": 9}));
        let t: Vec<String> = body(&v, &Ctx::new(80, &theme, Density::Full))
            .lines
            .iter()
            .map(Line::text)
            .collect();
        assert_eq!(t[1..], ["1 a", "⋯", "5 b"]);
    }
}
