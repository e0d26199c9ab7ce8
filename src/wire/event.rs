//! Session events: `{type, seq, time, data, ignorable?, sourceEventSeqs?, surfaceOp?}`.

use serde_json::{Map, Value};

use super::error::WireError;
use super::kind::EventKind;
use super::raw::RawJson;

/// One session event. `data` stays JSON text: the reducer parses it when it
/// folds the event (see [`RawJson`] for why).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct SessionEvent {
    /// Its `type`.
    pub kind: EventKind,
    /// Its place in the session: applied once, in order; a gap is reported.
    pub seq: u64,
    /// Unix epoch milliseconds (0 when absent).
    pub time: i64,
    /// Shared: the transcript keeps it (results) without copying.
    pub data: RawJson,
    /// An event of a type deck does not know that it may skip without a
    /// word (`ignorable: true`).
    pub ignorable: bool,
    /// The seqs of the events this one answers (`sourceEventSeqs`): a
    /// result that names no call is paired with its call by them.
    pub source_event_seqs: Vec<u64>,
}

impl SessionEvent {
    /// Read an event from a JSON object. Errors name the missing or ill-typed field.
    pub fn from_value(v: &Value) -> Result<SessionEvent, WireError> {
        match v {
            Value::Object(o) => Self::from_map(o),
            _ => Err(WireError::EventNotObject),
        }
    }

    /// [`SessionEvent::from_value`] without copying: takes the value apart.
    pub fn from_owned(v: Value) -> Result<SessionEvent, WireError> {
        match v {
            Value::Object(o) => Self::from_map(&o),
            _ => Err(WireError::EventNotObject),
        }
    }

    fn from_map(obj: &Map<String, Value>) -> Result<SessionEvent, WireError> {
        let kind = obj
            .get("type")
            .and_then(Value::as_str)
            .map(EventKind::parse)
            .ok_or(WireError::EventNoType)?;
        let seq = match obj.get("seq") {
            Some(s) => s
                .as_u64()
                .ok_or_else(|| WireError::BadSeq(kind.to_string()))?,
            None => return Err(WireError::NoSeq(kind.to_string())),
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
        assert_eq!((&e.kind, e.seq, e.time), (&EventKind::ToolCall, 3, 17));
        assert_eq!(e.data.parse()["callId"], "c");
        assert_eq!(e.source_event_seqs, vec![1]);
    }

    #[test]
    fn errors_name_the_field() {
        assert!(
            SessionEvent::from_value(&json!({"seq":1}))
                .unwrap_err()
                .to_string()
                .contains("type")
        );
        assert!(
            SessionEvent::from_value(&json!({"type":"x"}))
                .unwrap_err()
                .to_string()
                .contains("seq")
        );
        assert!(
            SessionEvent::from_value(&json!({"type":"x","seq":"1"}))
                .unwrap_err()
                .to_string()
                .contains("seq")
        );
        assert!(SessionEvent::from_value(&json!([1])).is_err());
    }
}
