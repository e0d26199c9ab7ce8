//! The `web` card.
use super::{Body, Ctx};
use crate::text::{Line, sanitize};
use crate::wire::view::{WebBody, WebView};

pub fn outcome(_v: &WebView) -> Option<String> {
    None
}

pub fn body(v: &WebView, _ctx: &Ctx) -> Body {
    let lines = match &v.body {
        WebBody::Search { sources, .. } => sources.iter().map(|s| Line::plain(sanitize::inline(&s.url))).collect(),
        WebBody::Fetch { url, .. } => vec![Line::plain(sanitize::inline(url))],
    };
    Body { lines, keep: None }
}
