//! The `search` card.
use super::{Body, Ctx};
use crate::text::{Line, sanitize};
use crate::wire::view::{SearchBody, SearchView};

pub fn outcome(v: &SearchView) -> Option<String> {
    Some(format!("{} results", v.total))
}

pub fn body(v: &SearchView, _raw: Option<&str>, _ctx: &Ctx) -> Body {
    let lines = match &v.body {
        SearchBody::Paths(p) => p.iter().map(|p| Line::plain(sanitize::inline(p))).collect(),
        SearchBody::Matches(f) => f.iter().map(|f| Line::plain(sanitize::inline(&f.path))).collect(),
    };
    Body { lines, keep: None }
}
