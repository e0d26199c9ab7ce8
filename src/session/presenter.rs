//! [`Presenters`]: what the fold asks for views the host did not send (logs,
//! old hosts). The session names no tool: whoever builds a [`Transcript`]
//! gives it presenters (deck's are `agents::stock()`), and live,
//! replay and headless all give the same, so the same records make the same
//! cards.
//!
//! Here too what the fold and the views drawn ahead of it ([`super::prefetch`])
//! both hand the presenters, read by the same rules: the agent a header
//! names, a call's arguments as text, a result's `meta`.
//!
//! [`Transcript`]: super::Transcript

use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use super::AttachedView;
use crate::wire::View;

/// A call, as presenters are asked for its view.
#[derive(Debug, Clone, Copy)]
pub struct Call<'a> {
    /// The tool called.
    pub tool: &'a str,
    /// Its arguments, as the JSON text the card keeps.
    pub arguments: &'a str,
}

/// A settled call, as presenters are asked for its result's view and its
/// answers: the call, and its result's content blocks, `isError` and `meta`.
#[derive(Debug, Clone, Copy)]
pub struct Settled<'a> {
    /// The tool called.
    pub tool: &'a str,
    /// Its arguments, as the JSON text the card keeps.
    pub arguments: &'a str,
    /// The result's content blocks.
    pub content: &'a [Value],
    /// Whether the result is an error.
    pub is_error: bool,
    /// The result's `meta`.
    pub meta: Option<&'a Value>,
}

impl<'a> Call<'a> {
    /// A call of `tool` with `arguments`.
    pub fn new(tool: &'a str, arguments: &'a str) -> Call<'a> {
        Call { tool, arguments }
    }
}

impl<'a> Settled<'a> {
    /// A call of `tool` with `arguments`, settled by a result of `content`,
    /// `is_error` and `meta`.
    pub fn new(
        tool: &'a str,
        arguments: &'a str,
        content: &'a [Value],
        is_error: bool,
        meta: Option<&'a Value>,
    ) -> Settled<'a> {
        Settled {
            tool,
            arguments,
            content,
            is_error,
            meta,
        }
    }

    /// The call it settles.
    pub fn call(&self) -> Call<'_> {
        Call {
            tool: self.tool,
            arguments: self.arguments,
        }
    }
}

/// Ask `f` about the result whose parsed `data` settles a call of `tool`
/// with `arguments` (its `meta` taken out of it, its content blocks read):
/// the fold, the views drawn ahead of it and the answers read one way.
pub(super) fn settled<R>(
    tool: &str,
    arguments: &str,
    is_error: bool,
    data: &mut Value,
    f: impl FnOnce(&Settled<'_>) -> R,
) -> R {
    let meta = take_meta(data);
    let content = super::content_of(data);
    f(&Settled {
        tool,
        arguments,
        content: &content[..],
        is_error,
        meta: meta.as_ref(),
    })
}

/// A view as a presenter drew it: typed, or JSON text written straight (a
/// file's lines, a search's matches: no string per line copied for them)
/// with its card's tag.
#[derive(Debug, Clone, PartialEq)]
pub enum Presented {
    /// A typed view.
    View(View),
    /// A view written as JSON text, and its card's tag.
    Text(crate::wire::RawJson, &'static str),
}

impl Presented {
    /// The view as JSON text.
    pub fn to_json(&self) -> String {
        match self {
            Presented::View(v) => v.to_json(),
            Presented::Text(t, _) => t.as_str().to_string(),
        }
    }

    /// The view as a JSON tree (its text parsed, when written as text).
    pub fn to_tree(&self) -> Value {
        match self {
            Presented::View(v) => v.to_tree(),
            Presented::Text(t, _) => t.parse(),
        }
    }

    /// The view as a card keeps it: JSON text, with what the presenter
    /// knows of it (its tag; whether a terminal view's command failed)
    /// noted, not found again in the text.
    pub fn attach(self) -> AttachedView {
        match self {
            Presented::View(v) => AttachedView::presented(&v),
            Presented::Text(t, tag) => AttachedView::presented_text(t, tag),
        }
    }
}

impl From<View> for Presented {
    fn from(v: View) -> Presented {
        Presented::View(v)
    }
}

/// Views for calls and results that came without one. Pure functions of
/// their arguments: the fold may ask again (a result before its call) and
/// must get the same answer. `None`: no view (the card shows its raw parts).
pub trait Presenters: fmt::Debug + Send + Sync {
    /// The view of a call.
    fn call_view(&self, call: Call<'_>) -> Option<View>;

    /// The view of a settled call's result.
    fn result_view(&self, settled: &Settled<'_>) -> Option<Presented>;

    /// The answers a settled call that asks ([`CallRole::Asks`]) got, read
    /// from its result by the agent's own rules; `None`: read the result's
    /// text as DSH's answers ([`super::parse_answers`]).
    fn answers(&self, _settled: &Settled<'_>) -> Option<Vec<super::Answer>> {
        None
    }

    /// What a call of `tool` is to the person beyond a tool run: the
    /// questions it asks them, or the plan it writes. The fold draws such a
    /// call as its question or its checklist rather than as raw arguments.
    fn role(&self, _tool: &str) -> CallRole {
        CallRole::Tool
    }

    /// The presenters for sessions of `agent` (a `session` header's
    /// `agent`: `claude-code`, `codex`), when they differ from these.
    fn for_agent(&self, _agent: &str) -> Option<SharedPresenters> {
        None
    }
}

/// What a call is to the person reading the session ([`Presenters::role`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum CallRole {
    /// A tool run, drawn from its views.
    #[default]
    Tool,
    /// It asks the user questions: its arguments carry `questions` (the
    /// shape of `question/requested`) and its result the answers.
    Asks,
    /// It writes the plan: the `todo/write` event that follows it carries
    /// the list.
    Plans,
}

/// Presenters shared by a transcript and its clones.
pub type SharedPresenters = Arc<dyn Presenters>;

/// A session header naming an agent (`payload.agent`) other than `agent`:
/// its presenters draw the calls from now on. Both the fold and the views
/// drawn ahead of it ([`super::prefetch`]) follow headers by this one rule.
pub(super) fn follow_header(
    payload: &serde_json::Value,
    agent: &mut Option<String>,
    presenters: &mut SharedPresenters,
) {
    if let Some(name) = payload.get("agent").and_then(serde_json::Value::as_str)
        && agent.as_deref() != Some(name)
    {
        if let Some(p) = presenters.for_agent(name) {
            *presenters = p;
        }
        *agent = Some(name.to_string());
    }
}

/// A call's arguments as a presenter reads them ([`arguments_object`]).
pub type Args = serde_json::Map<String, Value>;

/// The string argument `key`, when it is one.
pub fn arg<'a>(args: &'a Args, key: &str) -> Option<&'a str> {
    args.get(key).and_then(Value::as_str)
}

/// A call's arguments as the JSON object a presenter reads (arguments
/// that are not one: none).
pub fn arguments_object(arguments: &str) -> serde_json::Map<String, Value> {
    match serde_json::from_str(arguments) {
        Ok(Value::Object(map)) => map,
        _ => serde_json::Map::new(),
    }
}

/// A call's arguments as the card keeps them: the JSON string a host sends,
/// or (older hosts) the value written out; empty when absent.
pub(super) fn arguments_text(arguments: Option<Value>) -> String {
    match arguments {
        Some(Value::String(s)) => s,
        Some(v) if !v.is_null() => v.to_string(),
        _ => String::new(),
    }
}

/// A result's `meta`, taken out of its parsed data (not copied).
pub(super) fn take_meta(data: &mut Value) -> Option<Value> {
    data.as_object_mut()
        .and_then(|o| o.shift_remove("meta"))
        .filter(|m| !m.is_null())
}
