//! Redaction of a session's records before they are folded: every string
//! of every record — event data, views, other frames, diagnostics, the
//! records nested under a call — goes through one
//! [`Redactor`](crate::text::redact::Redactor), so every field of every
//! card drawn from the records is redacted (presenters are pure functions
//! of the records), and no wrapping can split a secret.
//!
//! A string under an object key is also judged as that key's value, so a
//! value whose key says what it is (`{"password": "…"}`,
//! `{"OPENAI_API_KEY": "…"}` in an environment) is caught by the same
//! assignment rules; a string holding JSON text (a tool's arguments) has
//! its own strings redacted, decoded, whatever quoting the agent used.
//!
//! Fails closed: a string the redactor cannot scan, or JSON that cannot be
//! read to be scanned (nested deeper than a tree can hold), is an
//! [`Unredacted`] error naming the session and the card; nothing is passed
//! through unscanned. What was replaced is reported as [`Hit`]s (kinds and
//! counts, never the values).

use std::borrow::Cow;
use std::collections::HashMap;
use std::collections::hash_map::Entry;

use serde_json::Value;

use crate::text::redact::{Carry, RedactError, Redactor, Tally};
use crate::wire::{Diagnostic, RawJson, Record, ViewEnvelope};

/// What was replaced in one card (or other part) of a session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    pub kind: String,
    pub session: Option<String>,
    /// The call id of the card, else what the record is (`user/message #3`,
    /// `line 12`).
    pub card: String,
    pub count: usize,
}

/// Why a session could not be redacted: it must not be shown or written.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("cannot redact session {}, {card}: {why}", session.as_deref().unwrap_or("(no id)"))]
pub struct Unredacted {
    pub session: Option<String>,
    pub card: String,
    pub why: String,
}

/// A session's records redacted, and what was replaced.
#[derive(Debug, Clone, Default)]
pub struct Redacted {
    pub records: Vec<Record>,
    pub hits: Vec<Hit>,
}

/// Redact the records of `session`, in order.
pub fn records(
    redactor: &Redactor,
    session: Option<&str>,
    records: &[Record],
) -> Result<Redacted, Unredacted> {
    let each = crate::par::map(records, 512, |r| {
        let mut tally = Tally::default();
        let out = record(redactor, r, &mut tally).map_err(|why| Unredacted {
            session: session.map(str::to_string),
            card: label(r),
            why,
        })?;
        Ok((out, tally))
    });
    let mut done = Redacted {
        records: Vec::with_capacity(records.len()),
        hits: Vec::new(),
    };
    // Where each (card, kind) is in `hits`: one hit each, in order met.
    let mut at: HashMap<(String, String), usize> = HashMap::new();
    for r in each {
        let (rec, tally) = r?;
        if !tally.is_empty() {
            let card = label(&rec);
            for (kind, count) in tally.iter() {
                match at.entry((card.clone(), kind.to_string())) {
                    Entry::Occupied(e) => done.hits[*e.get()].count += count,
                    Entry::Vacant(e) => {
                        e.insert(done.hits.len());
                        done.hits.push(Hit {
                            kind: kind.to_string(),
                            session: session.map(str::to_string),
                            card: card.clone(),
                            count,
                        });
                    }
                }
            }
        }
        done.records.push(rec);
    }
    Ok(done)
}

/// Records redacted, each one that cannot be replaced by
/// a diagnostic saying it was withheld (what the TUI shows with `R`: the
/// rest of the session stays readable, nothing unredacted is shown).
pub fn records_or_withheld(redactor: &Redactor, records: &[Record]) -> Vec<Record> {
    crate::par::map(records, 512, |r| {
        let mut tally = Tally::default();
        record(redactor, r, &mut tally).unwrap_or_else(|why| {
            Record::Diagnostic(Diagnostic::new(
                r.origin(),
                format!("withheld: cannot redact {} ({why})", label(r)),
                String::new(),
            ))
        })
    })
}

/// One record redacted (what a live source's records go through), the
/// kinds replaced counted in `tally`; `Err`: why it cannot be scanned.
pub fn record(redactor: &Redactor, r: &Record, tally: &mut Tally) -> Result<Record, String> {
    let why = |e: RedactError| e.to_string();
    Ok(match r {
        Record::Event {
            event,
            view,
            origin,
        } => {
            let mut event = event.clone();
            if let Some(data) = raw(redactor, &event.data, tally)? {
                event.data = data;
            }
            let view = match view {
                Some(v) => Some(match raw(redactor, &v.view, tally)? {
                    Some(new) => ViewEnvelope::from_raw(v.for_, new),
                    None => v.clone(),
                }),
                None => None,
            };
            Record::Event {
                event,
                view,
                origin: *origin,
            }
        }
        Record::Frame {
            kind,
            rpc_id,
            payload,
            origin,
        } => {
            let mut payload = payload.clone();
            walk(redactor, &mut payload, &mut Carry::default(), tally).map_err(why)?;
            Record::Frame {
                kind: kind.clone(),
                rpc_id: rpc_id.clone(),
                payload,
                origin: *origin,
            }
        }
        Record::Diagnostic(d) => {
            let reason = redactor.redact(&d.reason, tally).map_err(why)?;
            let raw = redactor.redact(&d.raw, tally).map_err(why)?;
            Record::Diagnostic(Diagnostic::new(
                d.origin,
                reason.into_owned(),
                raw.into_owned(),
            ))
        }
        Record::Nested {
            parent_call,
            record: inner,
        } => Record::Nested {
            parent_call: parent_call.clone(),
            record: Box::new(record(redactor, inner, tally)?),
        },
    })
}

/// JSON text redacted: `None` when nothing in it was replaced.
fn raw(redactor: &Redactor, json: &RawJson, tally: &mut Tally) -> Result<Option<RawJson>, String> {
    if json.is_null() {
        return Ok(None);
    }
    let mut v = json
        .try_parse()
        .map_err(|e| format!("its JSON cannot be read to be scanned ({e})"))?;
    if walk(redactor, &mut v, &mut Carry::default(), tally).map_err(|e| e.to_string())? {
        Ok(Some(RawJson::from_value(&v)))
    } else {
        Ok(None)
    }
}

/// Every string in `v` redacted in place, in order (a private key block
/// cut over strings, as a read card's lines, is followed by `carry`);
/// whether any changed.
fn walk(
    redactor: &Redactor,
    v: &mut Value,
    carry: &mut Carry,
    tally: &mut Tally,
) -> Result<bool, RedactError> {
    walk_at(redactor, v, carry, tally, 0)
}

/// [`walk`] of JSON found `depth` strings deep (JSON text in a string).
fn walk_at(
    redactor: &Redactor,
    v: &mut Value,
    carry: &mut Carry,
    tally: &mut Tally,
    depth: usize,
) -> Result<bool, RedactError> {
    match v {
        Value::String(s) => string(redactor, None, s, carry, tally, depth),
        Value::Array(a) => {
            let mut changed = false;
            for x in a.iter_mut() {
                changed |= walk_at(redactor, x, carry, tally, depth)?;
            }
            changed |= across(redactor, a, tally)?;
            Ok(changed)
        }
        Value::Object(o) => {
            let mut changed = false;
            for (k, x) in o.iter_mut() {
                changed |= match x {
                    Value::String(s) => string(redactor, Some(k), s, carry, tally, depth)?,
                    x => walk_at(redactor, x, carry, tally, depth)?,
                };
            }
            Ok(changed)
        }
        _ => Ok(false),
    }
}

/// The fields that hold a line's text in an array of lines (a read
/// view's `{"number", "text"}`, a search's `{"lineNumber", "line"}`).
const LINE_FIELDS: [&str; 2] = ["text", "line"];

/// An array of lines (strings, or objects with a line's text): a secret
/// cut over consecutive lines is redacted in each (see
/// [`Redactor::redact_across`]).
fn across(redactor: &Redactor, a: &mut [Value], tally: &mut Tally) -> Result<bool, RedactError> {
    if a.len() < 2 {
        return Ok(false);
    }
    let mut lines: Vec<&mut String> = Vec::with_capacity(a.len());
    for x in a.iter_mut() {
        match x {
            Value::String(s) => lines.push(s),
            Value::Object(o) => {
                let Some(field) = LINE_FIELDS.iter().find(|f| o.get(**f).is_some_and(Value::is_string))
                else {
                    return Ok(false);
                };
                match o.get_mut(*field) {
                    Some(Value::String(s)) => lines.push(s),
                    _ => return Ok(false),
                }
            }
            _ => return Ok(false),
        }
    }
    redactor.redact_across(&mut lines, tally)
}

/// Longest string read as JSON text to redact its own strings (a tool's
/// arguments, a JSON result); longer ones are scanned as text only.
const NESTED_MAX: usize = 1 << 20;
/// How deep JSON text in strings is followed.
const NESTED_DEPTH: usize = 4;

/// One string redacted in place: as JSON text when it is some (its strings
/// decoded, so `"password": "…"` escaped in an agent's arguments is read as
/// written), then as text, and as the value of `key` when it sits under one.
fn string(
    redactor: &Redactor,
    key: Option<&str>,
    s: &mut String,
    carry: &mut Carry,
    tally: &mut Tally,
    depth: usize,
) -> Result<bool, RedactError> {
    // JSON text had each of its strings redacted, decoded: its escaped
    // form is not read again.
    if let Some(changed) = nested(redactor, s, tally, depth)? {
        return Ok(changed);
    }
    let mut changed = false;
    if let Cow::Owned(new) = redactor.redact_next(s, carry, tally)? {
        *s = new;
        changed = true;
    }
    if !changed
        && let Some(key) = key
        && let Some(new) = redactor.redact_keyed(key, s, tally)
    {
        *s = new;
        changed = true;
    }
    Ok(changed)
}

/// `s`, when it is JSON text of an object or array, with its strings
/// redacted and written back (pretty when it was on several lines):
/// whether it changed, or `None` when it is no JSON text.
fn nested(
    redactor: &Redactor,
    s: &mut String,
    tally: &mut Tally,
    depth: usize,
) -> Result<Option<bool>, RedactError> {
    let t = s.trim();
    let json_like = (t.starts_with('{') && t.ends_with('}')) || (t.starts_with('[') && t.ends_with(']'));
    if !json_like || t.len() < 2 || s.len() > NESTED_MAX || depth >= NESTED_DEPTH {
        return Ok(None);
    }
    let Ok(mut v) = serde_json::from_str::<Value>(t) else {
        return Ok(None);
    };
    if !walk_at(redactor, &mut v, &mut Carry::default(), tally, depth + 1)? {
        return Ok(Some(false));
    }
    let text = if s.contains('\n') {
        serde_json::to_string_pretty(&v)
    } else {
        serde_json::to_string(&v)
    };
    match text {
        Ok(t) => {
            *s = t;
            Ok(Some(true))
        }
        // Not written back: the text as it is goes through the rules.
        Err(_) => Ok(None),
    }
}

/// What a record is, for reports: the call id of the card it belongs to,
/// else its event type and seq, frame type, or line.
pub fn label(r: &Record) -> String {
    match r {
        Record::Event { event, .. } => call_id_in(&event.data.parse())
            .unwrap_or_else(|| format!("{} #{}", event.kind, event.seq)),
        Record::Frame { kind, payload, .. } => call_id_in(payload).unwrap_or_else(|| kind.clone()),
        Record::Diagnostic(d) => format!("line {}", d.origin.line),
        Record::Nested {
            parent_call,
            record,
        } => format!("{parent_call} › {}", label(record)),
    }
}

/// The first call id in a value (`callId`, `toolCallId`), looking a few
/// levels down.
fn call_id_in(v: &Value) -> Option<String> {
    fn find(v: &Value, depth: usize) -> Option<String> {
        if depth > 5 {
            return None;
        }
        match v {
            Value::Object(o) => ["callId", "toolCallId"]
                .iter()
                .find_map(|k| o.get(*k).and_then(Value::as_str).map(str::to_string))
                .or_else(|| o.values().find_map(|x| find(x, depth + 1))),
            Value::Array(a) => a.iter().find_map(|x| find(x, depth + 1)),
            _ => None,
        }
    }
    find(v, 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::redact::STOCK;
    use crate::wire::{Frame, Origin};
    use serde_json::json;

    fn rec(v: Value) -> Record {
        Record::from_frame(Frame::from_owned(v).unwrap(), Origin::default())
    }

    #[test]
    fn every_string_of_a_record_is_redacted_and_reported() {
        let r = Redactor::new(STOCK, Some("/home/alice")).unwrap();
        let records = vec![
            rec(json!({"type": "tool/call", "seq": 1, "time": 1, "data": {
                "callId": "call_9", "name": "probe",
                "arguments": "{\"command\":\"cat /home/alice/.env\",\"env\":{\"password\":\"pw-1234\"}}"}})),
            rec(json!({"type": "approval/requested", "callId": "call_9",
                "env": {"SERVICE_TOKEN": "q8Zr2Lw9XpT4vKm7Nc3Hs6", "password": "hunter2"}})),
            Record::Diagnostic(Diagnostic::new(
                Origin { line: 7, offset: 0 },
                "not JSON".into(),
                "{ghp_hViIMTloiODWAnnjzk19iMmmbApegA5uS0il".into(),
            )),
        ];
        let out = records_of(&r, &records);
        let text = format!("{:?}", out.records);
        for gone in ["/home/alice", "pw-1234", "hunter2", "q8Zr2Lw9", "ghp_hViIM"] {
            assert!(!text.contains(gone), "{gone} in {text}");
        }
        assert!(text.contains("~/.env"), "{text}");
        let hits: Vec<(&str, &str, usize)> = out
            .hits
            .iter()
            .map(|h| (h.kind.as_str(), h.card.as_str(), h.count))
            .collect();
        assert!(hits.contains(&("home", "call_9", 1)), "{hits:?}");
        assert!(hits.contains(&("password", "call_9", 2)), "{hits:?}");
        assert!(hits.contains(&("secret", "call_9", 1)), "{hits:?}");
        assert!(hits.contains(&("github-pat", "line 7", 1)), "{hits:?}");
    }

    fn records_of(r: &Redactor, records: &[Record]) -> Redacted {
        super::records(r, Some("s1"), records).unwrap()
    }

    #[test]
    fn json_too_deep_to_scan_is_refused() {
        let r = Redactor::new(STOCK, None).unwrap();
        let deep = format!("{}1{}", "[".repeat(200), "]".repeat(200));
        let line = format!(r#"{{"type":"user/message","seq":3,"time":1,"data":{deep}}}"#);
        let record = Record::from_frame(Frame::from_text(&line).unwrap(), Origin::default());
        let err = super::records(&r, Some("s1"), &[record]).unwrap_err();
        assert_eq!(err.session.as_deref(), Some("s1"));
        assert_eq!(err.card, "user/message #3");
        assert!(err.to_string().contains("cannot be read"), "{err}");
    }
}
