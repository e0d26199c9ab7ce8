//! Cards of calls that speak to the person: a call that asks questions is
//! drawn as its question (the options, the one chosen), a call that writes
//! the plan as its checklist — not as raw JSON arguments. The chrome stays a
//! tool card's (status, duration, the error and the result's text when the
//! call did not end well), so nothing the call did is hidden.
//!
//! ```text
//! ✓ ? Question · Confirm                               answered  11ms
//! │ Continue the capture?
//! │   ● Yes (Recommended) — Keep going
//! │   ○ No
//! ✓ ☑ Plan                                             1/3 done   5ms
//! │ [x] Tour the shell
//! │ [~] Tour the file tools
//! ```

use super::{Ctx, Resolved, Rows, conversation, prompt};
use crate::session::{Status, ToolCard};
use crate::wire::View;
use crate::wire::view::GenericView;

/// What a card shows instead of its views: its question or its plan.
enum Asked<'a> {
    Question(&'a crate::session::Prompt),
    Plan(&'a [crate::session::Todo]),
}

fn asked(card: &ToolCard) -> Option<Asked<'_>> {
    match (&card.question, &card.todos) {
        (Some(q), _) => Some(Asked::Question(q)),
        (None, Some(t)) => Some(Asked::Plan(t)),
        (None, None) => None,
    }
}

/// The card resolved as its question or plan (`None`: a tool card): its
/// title, no fallback (nothing is missing), and the raw result text only
/// when the call did not end well (an answer or "updated" says nothing the
/// card does not).
pub fn resolved(card: &ToolCard, r: &Resolved) -> Option<Resolved> {
    let title = title(card)?;
    let quiet = matches!(card.status, Status::Ok | Status::Pending);
    Some(Resolved {
        view: View::Generic(GenericView {
            title: Some(title.clone()),
            kind: None,
            raw_input: None,
            content: None,
            locations: Vec::new(),
        }),
        title,
        fallback: None,
        raw_result: if quiet {
            None
        } else {
            r.raw_result
                .clone()
                .or_else(|| card.result.as_ref().map(|x| x.text()))
                .filter(|t| !t.is_empty())
        },
    })
}

/// `Question · Confirm`, `Plan` (`None`: a tool card).
pub fn title(card: &ToolCard) -> Option<String> {
    Some(match asked(card)? {
        Asked::Question(p) => prompt::title(p),
        Asked::Plan(_) => "Plan".into(),
    })
}

/// `?` for a question, `☑` for a plan.
pub fn glyph(card: &ToolCard) -> Option<&'static str> {
    Some(match asked(card)? {
        Asked::Question(_) => "?",
        Asked::Plan(_) => "☑",
    })
}

/// The card's own outcome (`Some`: a question or a plan): `answered`,
/// `waiting for an answer`, `1/3 done`.
pub fn outcome(card: &ToolCard) -> Option<Option<String>> {
    Some(match asked(card)? {
        Asked::Question(p) => match (&p.outcome, card.status) {
            (Some(_), _) => Some(prompt::outcome_label(p)),
            (None, Status::Pending) => Some("waiting for an answer".into()),
            (None, Status::Ok) => Some("answered".into()),
            (None, _) => None,
        },
        Asked::Plan(todos) => Some(conversation::todo_progress(todos)),
    })
}

/// The question (options, the answer marked) or the checklist; false for
/// a tool card (nothing drawn).
pub fn rows(card: &ToolCard, ctx: &Ctx, out: &mut Rows) -> bool {
    match asked(card) {
        // Answered with the keys on the prompt's own card, never here.
        Some(Asked::Question(p)) => out.extend(prompt::question_rows(p, false, ctx)),
        Some(Asked::Plan(todos)) => out.extend(conversation::todo_rows(todos, ctx)),
        None => return false,
    }
    true
}

/// The question and its answers, or the checklist, as plain text (`None`:
/// a tool card).
pub fn plain_text(card: &ToolCard) -> Option<String> {
    Some(match asked(card)? {
        Asked::Question(p) => prompt::titled_text(p, &outcome(card).flatten().unwrap_or_default()),
        Asked::Plan(todos) => conversation::todo_text(todos),
    })
}
