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

/// Views for calls and results that came without one. Pure functions of
/// their arguments: the fold may ask again (a result before its call) and
/// must get the same answer. `None`: no view (the card shows its raw parts).
pub trait Presenters: fmt::Debug + Send + Sync {
    /// The call view of a call of `tool` with raw JSON `arguments`.
    fn call_view(&self, tool: &str, arguments: &str) -> Option<Value>;

    /// The result view of a settled call: the result's content blocks, its
    /// `isError` and its `meta`.
    fn result_view(
        &self,
        tool: &str,
        arguments: &str,
        content: &[Value],
        is_error: bool,
        meta: Option<&Value>,
    ) -> Option<Value>;

    /// [`Presenters::result_view`] as the card keeps it: JSON text, with
    /// what the presenter knows of it (its tag; whether a terminal view's
    /// command failed) noted, not found again in the text. Presenters that
    /// write a big view straight as text (no tree) give it here; by default
    /// it is the tree, serialized.
    fn result_view_attached(
        &self,
        tool: &str,
        arguments: &str,
        content: &[Value],
        is_error: bool,
        meta: Option<&Value>,
    ) -> Option<AttachedView> {
        self.result_view(tool, arguments, content, is_error, meta)
            .map(AttachedView::presented)
    }

    /// The answers a settled call that asks ([`CallRole::Asks`]) got, read
    /// from its result by the agent's own rules; `None`: read the result's
    /// text as DSH's answers ([`super::parse_answers`]).
    fn answers(
        &self,
        _tool: &str,
        _arguments: &str,
        _content: &[Value],
        _meta: Option<&Value>,
    ) -> Option<Vec<super::Answer>> {
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
