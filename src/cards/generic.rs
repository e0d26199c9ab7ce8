//! The `generic` card and the fallback card.
use super::{Body, Ctx, Resolved, blocks_text};
use crate::text::{Line, sanitize};
use crate::wire::view::GenericView;

pub fn outcome(_v: &GenericView, _r: &Resolved) -> Option<String> {
    None
}

pub fn body(v: &GenericView, _ctx: &Ctx) -> Body {
    let mut lines = Vec::new();
    if let Some(input) = &v.raw_input {
        let s = match input {
            serde_json::Value::String(s) => s.clone(),
            other => serde_json::to_string_pretty(other).unwrap_or_default(),
        };
        lines.extend(sanitize::lines(&s).into_iter().map(Line::plain));
    }
    if let Some(c) = &v.content {
        lines.extend(sanitize::lines(&blocks_text(c)).into_iter().map(Line::plain));
    }
    Body { lines, keep: None }
}

pub fn raw_result(text: &str, _ctx: &Ctx) -> Vec<Line> {
    sanitize::lines(text).into_iter().map(Line::plain).collect()
}
