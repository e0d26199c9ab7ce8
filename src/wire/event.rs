//! Session events: `{type, seq, time, data, ignorable?, sourceEventSeqs?, surfaceOp?}`.

use std::borrow::Cow;
use std::collections::HashSet;
use std::sync::{Mutex, OnceLock};

use serde_json::{Map, Value};

use super::raw::RawJson;

/// Distinct event types kept once for the whole process.
const INTERNED_MAX: usize = 1024;

/// An event type, shared: a session has hundreds of thousands of events
/// and a few dozen types. Past `INTERNED_MAX` distinct types (a hostile
/// log), types are kept per event instead.
pub fn intern_kind(kind: &str) -> Cow<'static, str> {
    static SET: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    let Ok(mut set) = SET.get_or_init(Mutex::default).lock() else {
        return Cow::Owned(kind.to_string());
    };
    if let Some(k) = set.get(kind) {
        return Cow::Borrowed(k);
    }
    if set.len() >= INTERNED_MAX {
        return Cow::Owned(kind.to_string());
    }
    let k: &'static str = Box::leak(kind.to_string().into_boxed_str());
    set.insert(k);
    Cow::Borrowed(k)
}

/// One session event. `data` stays JSON text: the reducer parses it when it
/// folds the event (see [`RawJson`] for why).
#[derive(Debug, Clone, PartialEq)]
pub struct SessionEvent {
    pub kind: Cow<'static, str>,
    pub seq: u64,
    /// Unix epoch milliseconds (0 when absent).
    pub time: i64,
    /// Shared: the transcript keeps it (results) without copying.
    pub data: RawJson,
    pub ignorable: bool,
    pub source_event_seqs: Vec<u64>,
}

impl SessionEvent {
    /// Read an event from a JSON object. Errors name the missing or ill-typed field.
    pub fn from_value(v: &Value) -> Result<SessionEvent, String> {
        match v {
            Value::Object(o) => Self::from_map(o),
            _ => Err("event is not a JSON object".into()),
        }
    }

    /// [`SessionEvent::from_value`] without copying: takes the value apart.
    pub fn from_owned(v: Value) -> Result<SessionEvent, String> {
        match v {
            Value::Object(o) => Self::from_map(&o),
            _ => Err("event is not a JSON object".into()),
        }
    }

    fn from_map(obj: &Map<String, Value>) -> Result<SessionEvent, String> {
        let kind = obj
            .get("type")
            .and_then(Value::as_str)
            .map(intern_kind)
            .ok_or("event has no string \"type\"")?;
        let seq = match obj.get("seq") {
            Some(s) => s
                .as_u64()
                .ok_or_else(|| format!("event {kind:?}: \"seq\" is not a non-negative integer"))?,
            None => return Err(format!("event {kind:?} has no \"seq\"")),
        };
        let time = obj
            .get("time")
            .and_then(|t| t.as_i64().or_else(|| t.as_f64().map(|f| f as i64)))
            .unwrap_or(0);
        let data = obj
            .get("data")
            .map_or_else(RawJson::null, RawJson::from_value);
        let ignorable = obj
            .get("ignorable")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        let source_event_seqs = obj
            .get("sourceEventSeqs")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_u64).collect())
            .unwrap_or_default();
        Ok(SessionEvent {
            kind,
            seq,
            time,
            data,
            ignorable,
            source_event_seqs,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_a_full_event() {
        let e = SessionEvent::from_value(&json!({"type":"tool/call","seq":3,"time":17,"data":{"callId":"c"},"sourceEventSeqs":[1]})).unwrap();
        assert_eq!((&*e.kind, e.seq, e.time), ("tool/call", 3, 17));
        assert!(matches!(intern_kind("tool/call"), Cow::Borrowed(_)));
        assert_eq!(e.data.parse()["callId"], "c");
        assert_eq!(e.source_event_seqs, vec![1]);
    }

    #[test]
    fn errors_name_the_field() {
        assert!(
            SessionEvent::from_value(&json!({"seq":1}))
                .unwrap_err()
                .contains("type")
        );
        assert!(
            SessionEvent::from_value(&json!({"type":"x"}))
                .unwrap_err()
                .contains("seq")
        );
        assert!(
            SessionEvent::from_value(&json!({"type":"x","seq":"1"}))
                .unwrap_err()
                .contains("seq")
        );
        assert!(SessionEvent::from_value(&json!([1])).is_err());
    }
}
