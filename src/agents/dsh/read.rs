//! DSH's own formats, whose lines are deck's records as they are (`wire`):
//! what the loader needs to tell them apart and read the ones that are not
//! plain frames — a session log's header line ([`header_id`], read as a
//! `session` frame: [`header_record`]), its packed chunk rows ([`chunks`]),
//! and `session.history` answers ([`history`], [`looks_like_history`]).

use serde_json::Value;

use crate::wire::{Frame, Origin, Record};

pub mod chunks;
pub mod history;

/// The session id of a session log's header line (`{type: "session", id,
/// …}` without a `seq`), when `v` is one.
pub fn header_id(v: &Value) -> Option<String> {
    let kind = v.get("type").and_then(Value::as_str).unwrap_or("");
    (kind == "session" && v.get("id").is_some() && v.get("seq").is_none()).then(|| {
        v.get("id")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    })
}

/// The record a session log's header line stands for in its session: a
/// `session` frame the reducer reads the session's working directory from.
pub fn header_record(value: &Value) -> Record {
    Record::Frame {
        kind: "session".into(),
        rpc_id: None,
        payload: value.clone(),
        origin: Origin::default(),
    }
}

/// True for a value shaped like a `session.history` answer: a page of
/// events, `{pages}`, a server response carrying one, or a list of those.
pub fn looks_like_history(v: &Value) -> bool {
    match v {
        Value::Array(items) => items.first().is_some_and(looks_like_history),
        Value::Object(o) => {
            o.get("events").is_some_and(Value::is_array)
                || o.contains_key("pages")
                || o.get("result")
                    .and_then(|r| r.get("value"))
                    .is_some_and(looks_like_history)
        }
        _ => false,
    }
}

/// Whether `v` is a line of one of DSH's formats: a session log's header
/// or packed chunk row, a history answer, or a frame.
pub fn is_line(v: &Value) -> bool {
    let kind = v.get("type").and_then(Value::as_str).unwrap_or("");
    header_id(v).is_some()
        || chunks::is_chunk_row(kind)
        || looks_like_history(v)
        || Frame::from_value(v).is_ok()
}
