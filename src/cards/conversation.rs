//! Conversation items: user and assistant messages, reasoning, turn
//! separators, todo plans, notes and diagnostics.
use super::Ctx;
use crate::session::{AssistantMessage, Diagnostic, Note, Todo, TurnMarker, UserMessage};
use crate::text::{Line, sanitize, wrap};

fn para(text: &str, ctx: &Ctx) -> Vec<Line> {
    sanitize::lines(text).iter().flat_map(|l| wrap::words(&Line::plain(l.clone()), ctx.width)).collect()
}

pub fn user(m: &UserMessage, ctx: &Ctx) -> Vec<Line> {
    para(&m.text, ctx)
}

pub fn assistant(m: &AssistantMessage, show_reasoning: bool, ctx: &Ctx) -> Vec<Line> {
    m.blocks.iter().filter(|b| show_reasoning || !b.reasoning).flat_map(|b| para(&b.text, ctx)).collect()
}

pub fn turn(t: &TurnMarker, ctx: &Ctx) -> Vec<Line> {
    para(&format!("turn {}", t.turn), ctx)
}

pub fn todo(todos: &[Todo], ctx: &Ctx) -> Vec<Line> {
    todos.iter().flat_map(|t| para(&t.content, ctx)).collect()
}

pub fn note(n: &Note, ctx: &Ctx) -> Vec<Line> {
    para(&n.text, ctx)
}

pub fn diagnostic(d: &Diagnostic, ctx: &Ctx) -> Vec<Line> {
    para(&d.reason, ctx)
}
