//! The `diff` card: file changes as exact line diffs.
//!
//! Owns the body below the chrome's header: per file a path header, the line
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
use crate::text::{self, Line, sanitize, wrap};
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
        let mut m = FileModel::compute(d.old_text.as_deref(), &d.new_text);
        if let Some(start) = d.start_line.and_then(|s| usize::try_from(s).ok())
            && start > 0
        {
            m.start = Some(start);
            m.new_start = d
                .new_start_line
                .and_then(|s| usize::try_from(s).ok())
                .filter(|s| *s > 0);
        }
        m
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
/// said `not applied` (no `+A −R` totals); one whose outcome the log does
/// not say, as what was asked, said not known to be applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Applied {
    Yes,
    No,
    Unknown,
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

    /// Whether the change was made is not known (its card's outcome).
    pub fn maybe_applied(mut self) -> Models {
        self.1 = Applied::Unknown;
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
    let t = totals(v, models);
    let footer = match applied {
        Applied::No => "not applied".to_string(),
        Applied::Yes => format!("+{} −{} · {}", t.added, t.removed, plural(t.files, "file")),
        Applied::Unknown => format!(
            "+{} −{} · {} · not known whether applied",
            t.added,
            t.removed,
            plural(t.files, "file")
        ),
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
    let side_by_side = width >= SIDE_BY_SIDE_WIDTH && !text::unbounded(width);
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
            // A new file has no old side: its lines take the full width.
            if side_by_side && d.old_text.is_some() {
                lines.extend(painter.side_by_side(hunk, digits, width));
            } else {
                lines.extend(painter.unified(hunk, digits, width));
            }
        }
    }
    lines
}

/// The path line of a file (a new file says so, and a file written whole
/// not known to be new says what is known; so do hunks whose place in
/// the file is not known: `lines unknown`, and their rows have no numbers).
fn file_header(d: &FileDiff, placed: bool, ctx: &Ctx) -> Vec<Line> {
    let theme = ctx.theme;
    let mut l = Line::styled(sanitize::inline(&ctx.path(&d.path)), theme.style(Role::DiffFile));
    if d.old_text.is_none() {
        let said = match d.before.as_deref() {
            None => " (new file)",
            Some("overwritten") => " (overwritten; old text unknown)",
            Some(_) => " (whole file written; new: unknown)",
        };
        l.push_str(said, theme.style(Role::Muted));
    } else if !placed {
        l.push_str(" · lines unknown", theme.style(Role::Muted));
    }
    wrap::words(&l, ctx.width.max(1))
}

#[cfg(test)]
mod tests;
