//! A line taken whole (the decoder's tree, not a borrowed one): an agent's
//! `tool_call` / `tool_call_update` moves into its call, and the call into
//! its result once settled — a recording's outputs, most of its bytes, are
//! never copied on the way.

use serde_json::Value;
use serde_json::value::RawValue;

use super::{Reader, calls};
use crate::agents::read::{Out, Translate};
use crate::wire::Origin;

impl Reader {
    /// One line taken whole: an agent's `tool_call` / `tool_call_update`
    /// notification moves into its call (the bulk of a recording's bytes,
    /// not copied); any other line is read as [`Translate::line`] reads it.
    pub fn owned(&mut self, v: Value, origin: Origin, out: &mut Out) {
        self.owned_raw(v, None, origin, out);
    }

    /// [`Reader::owned`], the update's `rawOutput` apart as its text (read
    /// so by the agent's reader, not built as a tree): a call keeps it as
    /// text and writes it so.
    pub fn owned_raw(&mut self, mut v: Value, raw_output: Option<Box<RawValue>>, origin: Origin, out: &mut Out) {
        let is_call = v.get("dir").and_then(Value::as_str) == Some("agent->client")
            && v.get("seen").is_none()
            && v.get("msg").is_some_and(|m| {
                m.get("method").and_then(Value::as_str) == Some("session/update")
                    && m.get("id").is_none_or(Value::is_null)
                    && matches!(
                        m.get("params").and_then(|p| p.get("update")).and_then(|u| u.get("sessionUpdate")).and_then(Value::as_str),
                        Some("tool_call" | "tool_call_update")
                    )
            });
        if !is_call {
            // Any other update reads its output as a tree, as it was.
            if let Some(raw) = raw_output
                && let Some(u) = v.get_mut("msg").and_then(|m| m.get_mut("params")).and_then(|p| p.get_mut("update")).and_then(Value::as_object_mut)
            {
                u.insert("rawOutput".into(), serde_json::from_str(raw.get()).unwrap_or_default());
            }
            return self.line(&v, origin, out);
        }
        if let Some(t) = v.get("t").and_then(Value::as_f64) {
            self.time = self.time.max((t as i64).max(1));
        }
        let Some(params) = v.get_mut("msg").and_then(|m| m.get_mut("params")) else {
            return;
        };
        if !calls::is_announcement(params) {
            self.flush_calls(origin, out);
        }
        let update = params.get_mut("update").map(Value::take).unwrap_or_default();
        self.call_update(update, raw_output, origin, out);
    }

    /// A `tool_call` or `tool_call_update`, taken whole.
    pub(super) fn call_update(&mut self, u: Value, raw_output: Option<Box<RawValue>>, origin: Origin, out: &mut Out) {
        self.flush_text(origin, out);
        let id = u.get("toolCallId").and_then(Value::as_str).map(str::to_string);
        let ready = self.calls.upsert(u, raw_output, self.time);
        if let Some(id) = ready {
            self.call_ready(&id, origin, out);
        }
        if let Some(id) = id
            && let Some((content, is_error, meta)) = self.calls.settled(&id)
        {
            self.call_ready(&id, origin, out);
            self.result(&id, content, is_error, meta, origin, out);
        }
    }
}
