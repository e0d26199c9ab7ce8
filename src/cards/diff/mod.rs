//! The `diff` card: file changes as exact line diffs.
//!
//! Owns the body below the frame's header: per file a path header, the line
//! diff of `oldText` → `newText` (computed here with `similar`; DSH sends
//! texts, not diffs) grouped into hunks with three context lines and `⋯`
//! between hunks, word-level emphasis inside changed lines, syntax colours
//! from the path's language blended with the diff roles, old/new line numbers
//! (relative to the texts given: DSH's result diffs are hunks without line
//! numbers), and a `+A −R · N files` footer. Consecutive entries for the same
//! path (DSH sends one per applied hunk) share one header. At 160 columns and
//! more the hunks are laid out side by side.
//!
//! Split: [`lines`] is the line diff (linear work, see there), [`model`]
//! computes (lines, hunks, counts, emphasis), `rows` pairs a hunk's lines
//! into rows, [`layout`] styles and wraps them. Must not: name a tool, or show file text
//! that has not been through the sanitizer.

mod layout;
mod lines;
mod model;
mod rows;

use std::collections::BTreeSet;

use super::{Ctx, Rows};
use crate::text::highlight::lang_for_path;
use crate::text::{Line, sanitize, wrap};
use crate::theme::Role;
use crate::wire::view::{DiffView, FileDiff};
use layout::Painter;
use model::FileModel;

/// Body width from which hunks are shown side by side.
pub const SIDE_BY_SIDE_WIDTH: usize = 160;

/// Totals over a whole view.
struct Totals {
    added: usize,
    removed: usize,
    files: usize,
}

fn totals(v: &DiffView, models: &[FileModel]) -> Totals {
    let files: BTreeSet<&str> = v.diffs.iter().map(|d| d.path.as_str()).collect();
    Totals {
        added: models.iter().map(|m| m.added).sum(),
        removed: models.iter().map(|m| m.removed).sum(),
        files: files.len(),
    }
}

/// Files from which a view's files are diffed and laid out on every core.
const PARALLEL_FILES: usize = 2;

fn compute(v: &DiffView) -> Vec<FileModel> {
    crate::par::map(&v.diffs, PARALLEL_FILES, |d| {
        FileModel::compute(d.old_text.as_deref(), &d.new_text)
    })
}

fn plural(n: usize, one: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {one}s")
    }
}

/// Steps the line diffs of a view may take at most (see [`lines`]): each
/// file costs at most the square of its lines, and at most its budget.
pub fn cost(v: &DiffView) -> u64 {
    v.diffs
        .iter()
        .map(|d| {
            let n = d.old_text.as_deref().map_or(0, count_lines) + count_lines(&d.new_text);
            let n = n as u64;
            (n * n).min(lines::BUDGET_BASE + lines::BUDGET_PER_LINE * n)
        })
        .sum()
}

fn count_lines(s: &str) -> usize {
    memchr::memchr_iter(b'\n', s.as_bytes()).count() + 1
}

/// The diffs of a view's files, computed once for its header and its body.
pub struct Models(Vec<FileModel>, Applied);

/// Whether the change was made: a failed edit is drawn as what was asked,
/// said `not applied` (no `+A −R` totals).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Applied {
    Yes,
    No,
}

impl Models {
    pub fn of(v: &DiffView) -> Models {
        Models(compute(v), Applied::Yes)
    }

    /// The change failed (its card is an error).
    pub fn not_applied(mut self) -> Models {
        self.1 = Applied::No;
        self
    }

    /// The files' diffs numbered from where the session placed each entry
    /// (a card's `placements`, one per entry; a new file starts at 1).
    pub fn placed(mut self, placements: &[Option<usize>]) -> Models {
        for (m, p) in self.0.iter_mut().zip(placements) {
            if m.start.is_none() {
                m.start = *p;
            }
        }
        self
    }
}

pub fn outcome(v: &DiffView) -> Option<String> {
    outcome_of(v, &Models::of(v))
}

/// [`outcome`] from the files' diffs computed already.
pub fn outcome_of(v: &DiffView, models: &Models) -> Option<String> {
    if v.diffs.is_empty() {
        return None;
    }
    let t = totals(v, &models.0);
    let mut s = format!("+{} −{}", t.added, t.removed);
    if t.files > 1 {
        s.push_str(&format!(" · {}", plural(t.files, "file")));
    }
    Some(s)
}

/// The body, kept whole (see [`rows`]).
#[cfg(any(test, feature = "internals"))]
pub fn body(v: &DiffView, ctx: &Ctx) -> super::Body {
    super::Body::collect(None, |out| rows(v, ctx, out))
}

/// Runs of files laid out at once on every core at full density (the
/// rest wait their turn, so a card of many files is never held whole).
const FILES_AT_ONCE: usize = 8;

/// The body row by row: per file its header and hunks, then the totals.
pub fn rows(v: &DiffView, ctx: &Ctx, lines: &mut Rows) {
    rows_of(v, &Models::of(v), ctx, lines)
}

/// [`rows`] from the files' diffs computed already.
pub fn rows_of(v: &DiffView, models: &Models, ctx: &Ctx, lines: &mut Rows) {
    let applied = models.1;
    let models = &models.0;
    let theme = ctx.theme;
    let width = ctx.width.max(1);
    let muted = theme.style(Role::Muted);
    if v.diffs.is_empty() {
        lines.extend(wrap::words(&Line::styled("no file changes", muted), width));
        return;
    }
    // Runs of entries for the same path: one header, hunks separated by `⋯`.
    let mut runs = Vec::new();
    let mut i = 0;
    while i < v.diffs.len() {
        let path = &v.diffs[i].path;
        let end = i + v.diffs[i..].iter().take_while(|d| &d.path == path).count();
        runs.push(i..end);
        i = end;
    }
    if ctx.code_lines() == usize::MAX {
        // Every line highlighted: files are independent, lay them out on
        // every core, a few runs at a time.
        for chunk in runs.chunks(FILES_AT_ONCE) {
            let per_run = crate::par::map(chunk, PARALLEL_FILES, |r| {
                file_lines(v, models, r.clone(), ctx, usize::MAX)
            });
            lines.extend(per_run.into_iter().flatten());
        }
    } else {
        // A preview's highlighting budget runs across files: in order; none
        // once the preview has all it shows.
        for r in runs {
            let budget = if lines.showing() {
                ctx.code_lines().saturating_sub(lines.len())
            } else {
                0
            };
            lines.extend(file_lines(v, models, r, ctx, budget));
        }
    }
    let footer = if applied == Applied::No {
        "not applied".to_string()
    } else {
        let t = totals(v, models);
        format!("+{} −{} · {}", t.added, t.removed, plural(t.files, "file"))
    };
    lines.extend(wrap::words(&Line::styled(footer, muted), width));
}

/// The lines of a run of entries for one path: its header, then every
/// entry's hunks; `budget`: rows worth highlighting.
fn file_lines(
    v: &DiffView,
    models: &[FileModel],
    run: std::ops::Range<usize>,
    ctx: &Ctx,
    budget: usize,
) -> Vec<Line> {
    let (theme, width) = (ctx.theme, ctx.width.max(1));
    let muted = theme.style(Role::Muted);
    let side_by_side = width >= SIDE_BY_SIDE_WIDTH;
    let path = &v.diffs[run.start].path;
    let placed = models[run.clone()].iter().all(|m| m.start.is_some());
    let mut lines = file_header(&v.diffs[run.start], placed, ctx);
    let digits = models[run.clone()]
        .iter()
        .map(|m| m.max_line_number())
        .max()
        .unwrap_or(1)
        .max(1)
        .to_string()
        .len();
    let lang = lang_for_path(path);
    let mut first_hunk = true;
    for (d, m) in v.diffs[run.clone()].iter().zip(&models[run]) {
        if let Some(why) = &m.approximate {
            lines.extend(wrap::words(&Line::styled(why.clone(), muted), width));
        }
        let rows_left = budget.saturating_sub(lines.len());
        let painter = Painter::new(m, lang.as_deref(), theme, rows_left);
        if m.hunks.is_empty() {
            let what = if d.old_text.is_none() {
                "empty new file"
            } else {
                "no changes"
            };
            lines.extend(wrap::words(&Line::styled(what, muted), width));
            continue;
        }
        for hunk in &m.hunks {
            if !first_hunk {
                lines.push(painter.separator(width));
            }
            first_hunk = false;
            if side_by_side {
                lines.extend(painter.side_by_side(hunk, digits, width));
            } else {
                lines.extend(painter.unified(hunk, digits, width));
            }
        }
    }
    lines
}

/// The path line of a file (a new file says so; so do hunks whose place in
/// the file is not known: `lines unknown`, and their rows have no numbers).
fn file_header(d: &FileDiff, placed: bool, ctx: &Ctx) -> Vec<Line> {
    let theme = ctx.theme;
    let mut l = Line::styled(sanitize::inline(&d.path), theme.style(Role::DiffFile));
    if d.old_text.is_none() {
        l.push_str(" (new file)", theme.style(Role::Muted));
    } else if !placed {
        l.push_str(" · lines unknown", theme.style(Role::Muted));
    }
    wrap::words(&l, ctx.width.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Density;
    use crate::theme::Theme;

    fn fd(path: &str, old: Option<&str>, new: &str) -> FileDiff {
        FileDiff {
            path: path.into(),
            old_text: old.map(str::to_string),
            new_text: new.into(),
        }
    }

    fn view(diffs: Vec<FileDiff>) -> DiffView {
        DiffView {
            title: Some("Edit".into()),
            diffs,
            locations: Vec::new(),
        }
    }

    fn texts(b: &crate::cards::Body) -> Vec<String> {
        b.lines.iter().map(Line::text).collect()
    }

    fn multi_hunk() -> DiffView {
        let old: String = (1..=30).map(|i| format!("line {i}\n")).collect();
        let new = old
            .replace("line 3\n", "line three\n")
            .replace("line 25\n", "line 25 changed\n");
        view(vec![fd("src/a.txt", Some(&old), &new)])
    }

    #[test]
    fn outcome_counts_lines_and_files() {
        let v = view(vec![fd("a.md", Some("status: draft"), "status: reviewed")]);
        assert_eq!(outcome(&v).as_deref(), Some("+1 −1"));
        let v = view(vec![
            fd("a.md", Some("x\ny"), "x\nz\nw"),
            fd("b.md", None, "1\n2\n"),
        ]);
        assert_eq!(outcome(&v).as_deref(), Some("+4 −1 · 2 files"));
        assert_eq!(outcome(&view(vec![])), None);
    }

    #[test]
    fn hunks_are_separated_and_numbered_only_where_known() {
        let theme = Theme::dark();
        let ctx = Ctx::new(80, &theme, Density::Full);
        let b = body(&multi_hunk(), &ctx);
        let t: Vec<String> = texts(&b).iter().map(|l| l.trim_end().to_string()).collect();
        // Snippets whose place in the file is unknown: no numbers at all.
        assert_eq!(t[0], "src/a.txt · lines unknown");
        assert_eq!(
            t.iter().filter(|l| l.as_str() == SEPARATOR_TEXT).count(),
            1,
            "{t:#?}"
        );
        assert!(t.contains(&"- line 3".to_string()), "{t:#?}");
        assert!(t.contains(&"+ line three".to_string()), "{t:#?}");
        assert!(t.contains(&"- line 25".to_string()), "{t:#?}");
        assert!(!t.iter().any(|l| l.starts_with(char::is_numeric)), "{t:#?}");
        assert!(t.contains(&"+ line 25 changed".to_string()), "{t:#?}");
        assert_eq!(t.last().unwrap(), "+2 −2 · 1 file");
        // Three context lines on each side of a change.
        let sep = t.iter().position(|l| l == SEPARATOR_TEXT).unwrap();
        assert_eq!(t[sep - 1], "  line 6");
        assert_eq!(t[sep + 1], "  line 22");
    }

    const SEPARATOR_TEXT: &str = layout::SEPARATOR;

    #[test]
    fn changed_words_are_emphasised() {
        let theme = Theme::dark();
        let ctx = Ctx::new(80, &theme, Density::Full);
        let v = view(vec![fd(
            "notes.md",
            Some("# Notes\n\nstatus: draft\n"),
            "# Notes\n\nstatus: reviewed\n",
        )]);
        let b = body(&v, &ctx);
        let emph_add = theme.style(Role::DiffAddedEmph).bg;
        let emph_del = theme.style(Role::DiffRemovedEmph).bg;
        let added = b
            .lines
            .iter()
            .find(|l| l.text().contains("+ status"))
            .unwrap();
        let removed = b
            .lines
            .iter()
            .find(|l| l.text().contains("- status"))
            .unwrap();
        let spans = |l: &Line, bg| {
            l.spans
                .iter()
                .filter(|s| s.style.bg == bg)
                .map(|s| s.text.clone())
                .collect::<String>()
        };
        assert_eq!(spans(added, emph_add), "reviewed");
        assert_eq!(spans(removed, emph_del), "draft");
        // The rest of the changed line has the plain diff background.
        assert!(
            added
                .spans
                .iter()
                .any(|s| s.style.bg == theme.style(Role::DiffAdded).bg)
        );
    }

    #[test]
    fn syntax_colours_blend_with_the_diff_background() {
        let theme = Theme::dark();
        let ctx = Ctx::new(80, &theme, Density::Full);
        let v = view(vec![fd(
            "app.py",
            Some("def add(a, b):\n    return a + b\n"),
            "def add(a, b):\n    return a - b\n",
        )]);
        let b = body(&v, &ctx);
        let added = b
            .lines
            .iter()
            .find(|l| l.text().contains("+     return"))
            .unwrap();
        let bg = theme.style(Role::DiffAdded).bg;
        let code: Vec<_> = added
            .spans
            .iter()
            .filter(|s| s.style.bg == bg && !s.text.trim().is_empty())
            .collect();
        let fgs: BTreeSet<String> = code.iter().map(|s| format!("{:?}", s.style.fg)).collect();
        assert!(
            fgs.len() > 1,
            "expected several syntax colours on the diff background: {fgs:?}"
        );
    }

    #[test]
    fn no_color_theme_has_no_colours() {
        let theme = Theme::builtin("no-color").unwrap();
        for w in [40, 200] {
            let ctx = Ctx::new(w, &theme, Density::Full);
            let v = view(vec![
                fd("app.py", Some("a = 1\nb = 2\n"), "a = 1\nb = 3\n"),
                fd("new.rs", None, "fn main() {}\n"),
            ]);
            for l in body(&v, &ctx).lines {
                for s in &l.spans {
                    assert!(s.style.fg.is_none() && s.style.bg.is_none(), "{:?}", s);
                }
            }
        }
    }

    #[test]
    fn new_files_are_all_added_from_line_one() {
        let theme = Theme::dark();
        let ctx = Ctx::new(60, &theme, Density::Full);
        let v = view(vec![fd(
            "docs/new.md",
            None,
            "# New doc\n\nTODO: fill this in\n",
        )]);
        // A new file starts at line 1: those numbers are true.
        let t = texts(&body(&v, &ctx));
        assert_eq!(t[0], "docs/new.md (new file)");
        assert_eq!(t[1].trim_end(), "  1 + # New doc");
        assert_eq!(t[2].trim_end(), "  2 +");
        assert_eq!(t[3].trim_end(), "  3 + TODO: fill this in");
        assert_eq!(t[4], "+3 −0 · 1 file");
    }

    #[test]
    fn same_path_entries_share_a_header() {
        let theme = Theme::dark();
        let ctx = Ctx::new(60, &theme, Density::Full);
        let v = view(vec![fd("a.md", Some("x"), "y"), fd("a.md", Some("p"), "q")]);
        let t = texts(&body(&v, &ctx));
        assert_eq!(
            t.iter()
                .filter(|l| l.as_str() == "a.md · lines unknown")
                .count(),
            1
        );
        assert_eq!(t.iter().filter(|l| l.as_str() == SEPARATOR_TEXT).count(), 1);
        assert_eq!(outcome(&v).as_deref(), Some("+2 −2"));
    }

    #[test]
    fn side_by_side_from_160_columns() {
        let theme = Theme::dark();
        let v = view(vec![fd(
            "notes.md",
            Some("a\nstatus: draft\nb\n"),
            "a\nstatus: reviewed\nb\n",
        )]);
        let narrow = texts(&body(&v, &Ctx::new(159, &theme, Density::Full)));
        assert!(narrow.iter().all(|l| !l.contains('│')));
        let wide = body(&v, &Ctx::new(160, &theme, Density::Full));
        let t = texts(&wide);
        let row = t.iter().find(|l| l.contains("draft")).unwrap();
        let (left, right) = row.split_once(" │ ").unwrap();
        assert!(left.starts_with("- status: draft"), "{row:?}");
        assert!(right.starts_with("+ status: reviewed"), "{row:?}");
        assert_eq!(unicode_width::UnicodeWidthStr::width(left), 78);
        for l in &wide.lines {
            assert!(l.width() <= 160);
        }
    }

    #[test]
    fn a_diff_past_its_budget_says_so() {
        let theme = Theme::dark();
        let ctx = Ctx::new(80, &theme, Density::Full);
        // Unrelated texts of repeated lines: nothing anchors them, and
        // Myers would cost the square of their length.
        let mut seed = 3u64;
        let mut text = || {
            (0..12_000)
                .map(|_| {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
                    ["}\n", "\n", "  x\n", "y;\n"][(seed >> 33) as usize % 4]
                })
                .collect::<String>()
        };
        let (old, new) = (text(), text());
        let t = texts(&body(&view(vec![fd("big.txt", Some(&old), &new)]), &ctx));
        assert!(
            t.iter().any(|l| l.starts_with("approximate diff")),
            "{:#?}",
            &t[..5]
        );
    }

    #[test]
    fn long_lines_wrap_with_a_continuation_mark() {
        let theme = Theme::dark();
        let ctx = Ctx::new(30, &theme, Density::Full);
        let long = "x".repeat(50);
        let v = view(vec![fd("a.txt", Some("short\n"), &format!("{long}\n"))]);
        let t = texts(&body(&v, &ctx));
        let first = t.iter().position(|l| l.contains("+ xxx")).unwrap();
        assert!(t[first + 1].starts_with("↪ + xxx"), "{t:#?}");
    }

    #[test]
    fn every_width_fits() {
        let theme = Theme::dark();
        let mut diffs = multi_hunk().diffs;
        diffs.push(fd(
            "日本/語.rs",
            Some("fn a() {}\n\tlet x = \"\u{1b}[2J\";\n"),
            "fn a() { 日本語日本語 }\n\tlet x = 1;\n",
        ));
        diffs.push(fd(
            "new.py",
            None,
            &format!("{}\n", "y = 1 + 2 ".repeat(40)),
        ));
        let v = view(diffs);
        for w in 1..=400 {
            let b = body(&v, &Ctx::new(w, &theme, Density::Full));
            for l in &b.lines {
                assert!(l.width() <= w, "width {w}: {:?}", l.text());
                assert!(sanitize::is_clean(&l.text()), "{:?}", l.text());
            }
        }
    }
}
