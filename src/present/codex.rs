//! Codex CLI's tools as cards — a placeholder on this branch: the Codex
//! branch replaces this file wholesale. Every call is drawn generic.

use serde_json::Value;

use crate::session::Presenters;

/// The presenters of Codex sessions.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Codex;

impl Presenters for Codex {
    fn call_view(&self, _tool: &str, _arguments: &str) -> Option<Value> {
        None
    }

    fn result_view(
        &self,
        _tool: &str,
        _arguments: &str,
        _content: &[Value],
        _is_error: bool,
        _meta: Option<&Value>,
    ) -> Option<Value> {
        None
    }
}
