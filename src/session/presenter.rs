//! [`Presenters`]: what the fold asks for views the host did not send (logs,
//! old hosts). The session names no tool: whoever builds a [`Transcript`]
//! gives it presenters (deck's stock ones are `present::stock()`), and live,
//! replay and headless all give the same, so the same records make the same
//! cards.
//!
//! [`Transcript`]: super::Transcript

use std::fmt;
use std::sync::Arc;

use serde_json::Value;

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
}

/// Presenters shared by a transcript and its clones.
pub type SharedPresenters = Arc<dyn Presenters>;
