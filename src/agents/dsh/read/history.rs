//! `session.history` answers read as documents: their pages of events in
//! any of the shapes they come in (`{events, hasMore}`, server-response
//! envelopes, lists of pages, `{pages:[…]}`), in seq order.

use serde_json::Value;

use crate::wire::{Diagnostic, Origin, Record, SessionEvent, ViewEnvelope, ViewFor};

/// Collect history pages from any of the shapes they come in.
fn collect_pages<'a>(v: &'a Value, pages: &mut Vec<&'a Value>, errors: &mut Vec<String>) {
    match v {
        Value::Array(items) => items.iter().for_each(|i| collect_pages(i, pages, errors)),
        Value::Object(o) => {
            if o.get("events").is_some_and(Value::is_array) {
                pages.push(v);
            } else if let Some(p) = o.get("pages") {
                collect_pages(p, pages, errors);
            } else if let Some(r) = o.get("result") {
                match (r.get("ok").and_then(Value::as_bool), r.get("value")) {
                    (Some(true), Some(value)) => collect_pages(value, pages, errors),
                    _ => errors.push(format!(
                        "history page is an error response: {}",
                        crate::source::lines::quote(
                            &r.get("error").map(Value::to_string).unwrap_or_default()
                        )
                    )),
                }
            }
        }
        _ => {}
    }
}

/// The records of a `session.history` document read at `origin`: its
/// session id when it names one, and its events in seq order (exact
/// repeats dropped), after diagnostics for error pages and events that do
/// not decode. `None`: not a history (no page of events in it).
pub fn records(doc: &Value, origin: Origin) -> Option<(Option<String>, Vec<Record>)> {
    let mut pages = Vec::new();
    let mut errors = Vec::new();
    collect_pages(doc, &mut pages, &mut errors);
    if pages.is_empty() {
        return None;
    }
    let session_id = doc
        .get("sessionId")
        .and_then(Value::as_str)
        .map(str::to_string);
    let mut records: Vec<Record> = errors
        .into_iter()
        .map(|reason| {
            Record::Diagnostic(Diagnostic {
                origin,
                reason,
                raw: String::new(),
            })
        })
        .collect();
    let mut events: Vec<(SessionEvent, Option<ViewEnvelope>)> = Vec::new();
    for (p, page) in pages.iter().enumerate() {
        let list = page
            .get("events")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        for (i, entry) in list.iter().enumerate() {
            let ev = entry.get("event").unwrap_or(entry);
            match SessionEvent::from_value(ev) {
                Ok(event) => {
                    let view = entry.get("view").and_then(|v| {
                        let for_ = match v.get("for").and_then(Value::as_str)? {
                            "call" => ViewFor::Call,
                            "result" => ViewFor::Result,
                            _ => return None,
                        };
                        Some(ViewEnvelope::new(for_, v.get("view")?.clone()))
                    });
                    events.push((event, view));
                }
                Err(reason) => records.push(Record::Diagnostic(Diagnostic {
                    origin,
                    reason: format!("history page {} event {}: {reason}", p + 1, i + 1),
                    raw: entry.to_string(),
                })),
            }
        }
    }
    // Pages may come newest first: order by seq, and drop exact repeats.
    events.sort_by_key(|(e, _)| e.seq);
    events.dedup_by(|a, b| a.0.seq == b.0.seq && a.0 == b.0);
    records.extend(events.into_iter().map(|(event, view)| Record::Event {
        event,
        view,
        origin,
    }));
    Some((session_id, records))
}
