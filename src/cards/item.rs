//! One item of a transcript drawn by its renderer (a tool card, a prompt,
//! a conversation item). The transcript's layout (`view::transcript`) and
//! a card's nested transcript (`nested.rs`) both draw their items here, so
//! an item looks the same wherever it is. Its plain text is `plain.rs`'s.

use super::{Ctx, Density, Rows, conversation};
use crate::session::{Ask, Item, Prompt, ToolCard, Transcript};

/// Draw `item` of `t` into `out`: nothing for an item drawn on another
/// item's card ([`Transcript::merged`]), nor for a tool card when tools are
/// hidden (`hide_tools`; a question or a plan is conversation and stays).
pub fn item_into(t: &Transcript, item: &Item, ctx: &Ctx, hide_tools: bool, out: &mut Rows) {
    if t.merged(item) {
        return;
    }
    match item {
        Item::User(m) => conversation::user_into(m, ctx, out),
        Item::Assistant(m) => conversation::assistant_into(m, ctx.show_reasoning, ctx, out),
        Item::Turn(m) => out.extend(conversation::turn(m, ctx)),
        Item::Todo { todos, .. } => out.extend(conversation::todo(todos, ctx)),
        Item::Tool(i) => {
            let card = &t.cards()[*i];
            if !hide_tools || card.converses() {
                super::render_into(card, ctx, out);
            }
        }
        Item::Prompt(p) => out.extend(super::prompt::render_with_call(
            p,
            approval_call(t, p),
            ctx,
        )),
        Item::Diagnostic(i) => out.extend(conversation::diagnostic(&t.diagnostics()[*i], ctx)),
        Item::Retry(r) => out.extend(conversation::retry(r, ctx)),
        Item::Compaction(c) => out.extend(conversation::compaction(c, ctx)),
    }
}

/// The tool card a waiting approval is about, drawn inside it.
pub fn approval_call<'a>(t: &'a Transcript, p: &Prompt) -> Option<&'a ToolCard> {
    match &p.ask {
        Ask::Approval {
            call_id: Some(c), ..
        } if p.is_waiting() => t.card(c),
        _ => None,
    }
}

/// Two items drawn one after the other with no blank row between them:
/// tool cards at `line` density, one row each, read as a list; a command
/// and its output.
pub fn joined(prev: &Item, prev_density: Density, next: &Item, next_density: Density) -> bool {
    joined_as(joins(prev), prev_density, joins(next), next_density)
}

/// What of an item [`joined`] looks at: noted once per item by a list
/// that asks on every frame (an item never changes its kind).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Joins {
    Tool,
    /// A user message that is a command, or its output.
    Command,
    Output,
    Other,
}

/// How [`joined`] sees `item`.
pub fn joins(item: &Item) -> Joins {
    match item {
        Item::Tool(_) => Joins::Tool,
        Item::User(m) => match m.source.as_deref() {
            Some("command") => Joins::Command,
            Some("output") => Joins::Output,
            _ => Joins::Other,
        },
        _ => Joins::Other,
    }
}

/// [`joined`], of items seen as [`joins`] sees them.
pub fn joined_as(prev: Joins, prev_density: Density, next: Joins, next_density: Density) -> bool {
    match (prev, next) {
        // A command and its output are one exchange.
        (Joins::Command, Joins::Output) => true,
        (Joins::Tool, Joins::Tool) => prev_density == Density::Line && next_density == Density::Line,
        _ => false,
    }
}
