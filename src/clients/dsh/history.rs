//! `session.history` pages: `{events: [{event, view?}], hasMore}` into
//! records, and the line a recording stores for a backfilled event (a bare
//! `session/event` frame that deck's loader reads back).

use serde_json::{Value, json};

use crate::wire::{Diagnostic, Frame, Origin, Record};

/// One page, decoded.
#[derive(Debug, Default)]
pub struct Page {
    /// Event records (and diagnostics for entries that did not decode),
    /// each with its raw entry.
    pub entries: Vec<(Record, Value)>,
    pub has_more: bool,
}

/// Decode a `session.history` value.
pub fn parse_page(v: &Value) -> Result<Page, String> {
    let events = v
        .get("events")
        .and_then(Value::as_array)
        .ok_or("session.history answer without an \"events\" list")?;
    let has_more = v.get("hasMore").and_then(Value::as_bool).unwrap_or(false);
    let mut entries = Vec::with_capacity(events.len());
    for (i, entry) in events.iter().enumerate() {
        // `{event, view?}` is a session/event frame without its type and session.
        let mut frame =
            json!({"type": "session/event", "event": entry.get("event").unwrap_or(entry)});
        if let Some(view) = entry.get("view") {
            frame["view"] = view.clone();
        }
        let record = match Frame::from_owned(frame) {
            Ok(f) => Record::from_frame(f, Origin::default()),
            Err(reason) => Record::Diagnostic(Diagnostic {
                origin: Origin::default(),
                reason: format!("session.history entry {}: {reason}", i + 1),
                raw: entry.to_string(),
            }),
        };
        entries.push((record, entry.clone()));
    }
    Ok(Page { entries, has_more })
}

/// The recording line for a history entry: a bare `session/event` frame.
pub fn bare_frame(session_id: &str, entry: &Value) -> Value {
    let mut frame = json!({
        "type": "session/event",
        "sessionId": session_id,
        "event": entry.get("event").unwrap_or(entry),
    });
    if let Some(view) = entry.get("view") {
        frame["view"] = view.clone();
    }
    frame
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_decode_with_views_and_bad_entries() {
        let p = parse_page(&json!({"events":[
            {"event":{"type":"tool/call","seq":3,"time":1,"data":{}},"view":{"for":"call","view":{"card":"generic","title":"t"}}},
            {"event":{"type":"x"}}
        ],"hasMore":true}))
        .unwrap();
        assert!(p.has_more);
        assert!(
            matches!(&p.entries[0].0, Record::Event { view: Some(_), event, .. } if event.seq == 3)
        );
        assert!(matches!(&p.entries[1].0, Record::Diagnostic(_)));
        let line = bare_frame("s", &p.entries[0].1);
        match Frame::from_value(&line).unwrap() {
            Frame::Event {
                session_id, view, ..
            } => {
                assert_eq!(session_id.as_deref(), Some("s"));
                assert!(view.is_some());
            }
            f => panic!("{f:?}"),
        }
        assert!(parse_page(&json!({"hasMore":false})).is_err());
    }
}
