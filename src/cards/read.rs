//! The `read` card.
use super::{Body, Ctx};
use crate::text::{Line, sanitize};
use crate::wire::view::ReadView;

pub fn outcome(v: &ReadView) -> Option<String> {
    Some(format!("{} lines", v.lines.len()))
}

pub fn body(v: &ReadView, _ctx: &Ctx) -> Body {
    let lines = v.lines.iter().map(|l| Line::plain(format!("{} {}", l.number, sanitize::line(&l.text)))).collect();
    Body { lines, keep: None }
}
