//! The `terminal` card: a shell command and its output.
use super::{Body, Ctx, Keep};
use crate::text::{Line, sanitize};
use crate::wire::view::TerminalView;

pub fn outcome(v: &TerminalView) -> Option<String> {
    match (&v.signal, v.exit_code) {
        (Some(s), _) => Some(s.clone()),
        (None, Some(c)) => Some(format!("exit {c}")),
        _ => None,
    }
}

pub fn body(v: &TerminalView, _ctx: &Ctx) -> Body {
    let lines = sanitize::lines(v.output.as_deref().unwrap_or("")).into_iter().map(Line::plain).collect();
    Body { lines, keep: Some(Keep::Tail) }
}
