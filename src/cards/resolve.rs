//! Which view a card shows and under what title: the protocol's fallback
//! rules applied to its call and result views ([`Resolved`]), its question
//! or plan for a call that asks or plans, and how it was resolved, for
//! `deck inspect` ([`Resolution`]). The views are typed here; the card files
//! draw what this resolves.

use serde_json::Value;

use super::{NO_PRESENTATION, asked};
use crate::session::{AttachedView, Status, ToolCard};
use crate::wire::view::{GenericView, TerminalView};
use crate::wire::{View, WireError};

/// What a card shows, after applying the fallback rules of the protocol.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Resolved {
    /// The card to draw; a fallback is a `View::Generic`.
    pub view: View,
    /// The card's title, as its header shows it.
    pub title: String,
    /// Why the card fell back to generic, if it did.
    pub fallback: Option<String>,
    /// Raw result text to show because the result has no view of its own.
    pub raw_result: Option<String>,
}

/// How a card was resolved, for `deck inspect`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Resolution {
    /// The host's view.
    Wire,
    /// A view of deck's presenters.
    Presenter,
    /// No view that types: the generic fallback card.
    Fallback,
}

/// Pretty JSON for a raw arguments string (as is when it does not parse).
pub fn pretty_arguments(arguments: &str) -> Value {
    match serde_json::from_str::<Value>(arguments) {
        Ok(v) => v,
        Err(_) => Value::String(arguments.to_string()),
    }
}

/// What a card shows: its views after the protocol's fallback rules, or
/// its question or plan for a call that asks or plans (`asked.rs`). Views
/// are typed here (callers cache what they draw from the result).
pub fn resolve(card: &ToolCard) -> Resolved {
    shown(card, resolve_views(card))
}

/// The protocol's fallback rules applied to a card's views alone (what
/// `deck inspect` reports), question or plan aside.
pub fn resolve_views(card: &ToolCard) -> Resolved {
    resolve_by(card, AttachedView::typed)
}

/// [`resolve`] with a `read` view typed only as far as its first `lines`
/// lines (the rest counted): enough for a first screen, or a title, of a
/// card too big to type on the UI thread. Other views are typed whole.
pub fn resolve_head(card: &ToolCard, lines: usize) -> Resolved {
    shown(card, resolve_by(card, |v| v.typed_head(lines)))
}

/// A card's views resolved, or what it shows instead (its question, its plan).
fn shown(card: &ToolCard, views: Resolved) -> Resolved {
    asked::resolved(card, &views).unwrap_or(views)
}

/// A card's views that do not type, as diagnostics: where each was read,
/// why it fell back, and its JSON text (for `deck inspect --diagnostics`).
pub fn view_problems(card: &ToolCard) -> Vec<crate::wire::Diagnostic> {
    [("call", &card.call_view), ("result", &card.result_view)]
        .into_iter()
        .filter_map(|(slot, v)| {
            let v = v.as_ref()?;
            let reason = v.typed().err()?;
            Some(crate::wire::Diagnostic {
                origin: v.origin,
                reason: format!("{} of call {:?}: {reason}", v.place(slot), card.call_id),
                raw: v.raw().as_str().to_string(),
            })
        })
        .collect()
}

/// A card's title without typing a big view (for a stand-in drawn on the
/// UI thread): its question's or plan's, the call view's title when that
/// view is small, else the tool's name.
pub fn quick_title(card: &ToolCard) -> String {
    if let Some(title) = asked::title(card) {
        return title;
    }
    card.call_view
        .as_ref()
        .filter(|v| v.size() <= 64 * 1024)
        .and_then(|v| v.typed().ok())
        .and_then(|v| v.title().map(str::to_string))
        .unwrap_or_else(|| card.tool_name().to_string())
}

fn resolve_by(
    card: &ToolCard,
    typed: impl Fn(&AttachedView) -> Result<View, WireError>,
) -> Resolved {
    let parsed = |v: &Option<AttachedView>| v.as_ref().map(&typed);
    let tool = card.tool_name().to_string();
    // The result's raw text, read only where a card shows it.
    let raw_text = || {
        card.result
            .as_ref()
            .map(|r| r.text())
            .filter(|t| !t.is_empty())
    };
    let fallback = |reason: String| Resolved {
        view: View::Generic(GenericView {
            title: Some(tool.clone()),
            kind: None,
            raw_input: Some(pretty_arguments(&card.arguments)),
            content: None,
            locations: Vec::new(),
        }),
        title: tool.clone(),
        fallback: Some(reason),
        raw_result: raw_text(),
    };
    let call = parsed(&card.call_view);
    let mut result = parsed(&card.result_view);
    // A cancelled or rejected call keeps its own card (`$ command`,
    // description): the host's result view for it is only a generic text.
    if matches!(card.status, Status::Cancelled | Status::Rejected)
        && matches!(call, Some(Ok(_)))
        && matches!(result, Some(Ok(View::Generic(_))))
    {
        result = None;
    }
    let call_title = match &call {
        Some(Ok(v)) => v.title().map(str::to_string),
        _ => None,
    };
    match (call, result) {
        // Where the view was read is for `deck inspect --diagnostics`
        // ([`view_problems`]); the card says which view and why.
        (_, Some(Err(reason))) => {
            let mut r = fallback(format!("result view: {reason}"));
            if let Some(t) = call_title {
                r.title = t;
            }
            r
        }
        (call, Some(Ok(rv))) => {
            let title = rv
                .title()
                .map(str::to_string)
                .or(call_title)
                .unwrap_or_else(|| tool.clone());
            let view = match (call, rv) {
                (Some(Ok(View::Terminal(c))), View::Terminal(r)) => View::Terminal(TerminalView {
                    title: Some(title.clone()),
                    description: r.description.clone().or(c.description),
                    cwd: r.cwd.clone().or(c.cwd),
                    ..r
                }),
                (Some(Ok(View::Generic(c))), View::Generic(r)) => View::Generic(GenericView {
                    title: Some(title.clone()),
                    kind: r.kind.or(c.kind),
                    raw_input: r.raw_input.or(c.raw_input),
                    content: r.content,
                    locations: if r.locations.is_empty() {
                        c.locations
                    } else {
                        r.locations
                    },
                }),
                (_, rv) => rv,
            };
            // A generic result without content shows the raw result content.
            let raw_result = match &view {
                View::Generic(g) if g.content.is_none() => raw_text(),
                _ => None,
            };
            Resolved {
                view,
                title,
                fallback: None,
                raw_result,
            }
        }
        (Some(Err(reason)), None) => fallback(format!("call view: {reason}")),
        (Some(Ok(cv)), None) => {
            let title = call_title.unwrap_or_else(|| tool.clone());
            let mut view = cv;
            let mut raw_result = raw_text();
            // A terminal card without a result view shows the raw result as its output.
            if let View::Terminal(t) = &mut view
                && card.result.is_some()
                && t.output.is_none()
            {
                t.output = raw_result.take();
            }
            Resolved {
                view,
                title,
                fallback: None,
                raw_result,
            }
        }
        (None, None) => fallback(match &card.tool {
            Some(_) => NO_PRESENTATION.to_string(),
            None => "no tool/call seen for this result".to_string(),
        }),
    }
}

/// Which source the card's shown view came from, for `deck inspect`.
pub fn resolution(card: &ToolCard) -> Resolution {
    resolution_of(card, &resolve_views(card))
}

/// [`resolution`] of a card already resolved.
pub fn resolution_of(card: &ToolCard, r: &Resolved) -> Resolution {
    if r.fallback.is_some() {
        return Resolution::Fallback;
    }
    let src = card.result_view.as_ref().or(card.call_view.as_ref());
    match src.map(|a| a.source) {
        Some(crate::session::ViewSource::Wire) => Resolution::Wire,
        Some(crate::session::ViewSource::Presenter) => Resolution::Presenter,
        None => Resolution::Fallback,
    }
}
