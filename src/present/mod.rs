//! Built-in presenters for DSH's stock tools — the only module that names tools.
//! Used when a frame carries no view (session logs, old hosts). Each is a pure
//! function of (tool name, arguments, result content, isError, meta) returning
//! the view JSON exactly as the host would have sent it.

use serde_json::Value;

/// The call view for a call of `tool` with raw JSON `arguments`.
pub fn call_view(tool: &str, arguments: &str) -> Option<Value> {
    let _ = (tool, arguments);
    None
}

/// The result view for a settled call.
pub fn result_view(tool: &str, arguments: &str, content: &[Value], is_error: bool, meta: Option<&Value>) -> Option<Value> {
    let _ = (tool, arguments, content, is_error, meta);
    None
}
