//! The `diff` card.
use super::{Body, Ctx};
use crate::text::{Line, sanitize};
use crate::wire::view::DiffView;

pub fn outcome(v: &DiffView) -> Option<String> {
    Some(format!("{} files", v.diffs.len()))
}

pub fn body(v: &DiffView, _ctx: &Ctx) -> Body {
    let mut lines = Vec::new();
    for d in &v.diffs {
        lines.push(Line::plain(sanitize::inline(&d.path)));
        lines.extend(sanitize::lines(&d.new_text).into_iter().map(Line::plain));
    }
    Body { lines, keep: None }
}
