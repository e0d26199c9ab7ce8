//! The loader's hot path: a frame line decoded without building a JSON tree.
//!
//! Envelopes, `session/event` frames and bare session events — nearly every
//! line of a frame log or session log — are read with borrowed serde structs:
//! the few fields deck routes on are typed, the event's `data` and the view
//! are kept as raw JSON text ([`RawJson`]). Anything else, and anything that
//! does not fit exactly (a wrong type, a missing field, a duplicate key),
//! returns `None` and goes the lenient [`Frame::from_owned`] way, which
//! decides the same thing with a precise error message.
//!
//! [`Frame::from_text`], which tries this path first, is here too: the
//! lenient decoder (`frame.rs`) knows nothing of this one.

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Number, Value};

use super::SessionEvent;
use super::error::WireError;
use super::frame::{Frame, KNOWN_FRAMES, ViewEnvelope, ViewFor};
use super::kind::EventKind;
use super::raw::RawJson;

#[derive(Deserialize)]
struct Msg<'a> {
    #[serde(rename = "type", borrow)]
    ty: Cow<'a, str>,
    #[serde(borrow)]
    payload: Option<&'a RawValue>,
    #[serde(rename = "sessionId", borrow)]
    session_id: Option<Cow<'a, str>>,
    #[serde(borrow)]
    event: Option<&'a RawValue>,
    #[serde(borrow)]
    view: Option<&'a RawValue>,
    // A bare session event's own fields.
    seq: Option<u64>,
    time: Option<Number>,
    #[serde(borrow)]
    data: Option<&'a RawValue>,
    ignorable: Option<bool>,
    #[serde(rename = "sourceEventSeqs")]
    source_event_seqs: Option<Vec<u64>>,
}

#[derive(Deserialize)]
struct Event<'a> {
    #[serde(rename = "type", borrow)]
    ty: Cow<'a, str>,
    seq: u64,
    time: Option<Number>,
    #[serde(borrow)]
    data: Option<&'a RawValue>,
    ignorable: Option<bool>,
    #[serde(rename = "sourceEventSeqs")]
    source_event_seqs: Option<Vec<u64>>,
}

#[derive(Deserialize)]
struct Envelope<'a> {
    #[serde(rename = "for", borrow)]
    for_: Cow<'a, str>,
    #[serde(borrow)]
    view: Option<&'a RawValue>,
}

fn time_of(t: Option<Number>) -> i64 {
    t.and_then(|n| n.as_i64().or_else(|| n.as_f64().map(|f| f as i64)))
        .unwrap_or(0)
}

fn event(
    ty: Cow<'_, str>,
    seq: u64,
    time: Option<Number>,
    data: Option<&RawValue>,
    ignorable: Option<bool>,
    source_event_seqs: Option<Vec<u64>>,
) -> SessionEvent {
    SessionEvent {
        kind: EventKind::parse(&ty),
        seq,
        time: time_of(time),
        data: data.map_or_else(RawJson::null, RawJson::from_raw),
        ignorable: ignorable.unwrap_or(false),
        source_event_seqs: source_event_seqs.unwrap_or_default(),
    }
}

fn view(raw: &RawValue) -> Option<ViewEnvelope> {
    let env: Envelope = serde_json::from_str(raw.get()).ok()?;
    let for_ = match &*env.for_ {
        "call" => ViewFor::Call,
        "result" => ViewFor::Result,
        _ => return None,
    };
    Some(ViewEnvelope::from_raw(for_, RawJson::from_raw(env.view?)))
}

impl Frame {
    /// Decode one message from its text: frame and event lines without
    /// building a JSON tree (see `wire/fast.rs`), anything else leniently.
    pub fn from_text(text: &str) -> Result<Frame, WireError> {
        if let Some(f) = Frame::decode_fast(text) {
            return Ok(f);
        }
        let v: Value = serde_json::from_str(text).map_err(|e| WireError::NotJson(e.to_string()))?;
        Frame::from_owned(v)
    }

    /// The fast path alone: `None` when the text needs the lenient one.
    pub fn decode_fast(text: &str) -> Option<Frame> {
        decode(text)
    }
}

/// Decode a frame line, or `None` to let the lenient path decide.
fn decode(text: &str) -> Option<Frame> {
    let m: Msg = serde_json::from_str(text).ok()?;
    match &*m.ty {
        "server-request" => match decode(m.payload?.get())? {
            f @ Frame::Event { .. } => Some(f),
            // Other frames keep the envelope's rpc id: the lenient path.
            Frame::Other { .. } => None,
        },
        "session/event" => {
            let e: Event = serde_json::from_str(m.event?.get()).ok()?;
            let view = match m.view {
                Some(v) if v.get() != "null" => Some(view(v)?),
                _ => None,
            };
            Some(Frame::Event {
                session_id: m.session_id.map(Cow::into_owned),
                event: event(
                    e.ty,
                    e.seq,
                    e.time,
                    e.data,
                    e.ignorable,
                    e.source_event_seqs,
                ),
                view,
            })
        }
        ty if m.seq.is_some()
            && m.data.is_some()
            && !KNOWN_FRAMES.contains(&ty)
            && m.payload.is_none()
            && m.event.is_none()
            && m.view.is_none() =>
        {
            Some(Frame::Event {
                session_id: m.session_id.map(Cow::into_owned),
                event: event(
                    m.ty,
                    m.seq?,
                    m.time,
                    m.data,
                    m.ignorable,
                    m.source_event_seqs,
                ),
                view: None,
            })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fast path and the lenient path agree wherever the fast one answers.
    fn agree(line: &str) -> bool {
        let slow = Frame::from_owned(serde_json::from_str::<Value>(line).unwrap());
        match decode(line) {
            Some(f) => {
                assert_eq!(Ok(f), slow, "{line}");
                true
            }
            None => false,
        }
    }

    #[test]
    fn agrees_with_the_lenient_path() {
        assert!(agree(
            r#"{"type":"server-request","rpcId":"r","method":"session/event","payload":{"type":"session/event","sessionId":"s","event":{"type":"tool/call","seq":5,"time":1.5,"data":{"callId":"c","x":[1,{"y":null}]},"sourceEventSeqs":[4]},"view":{"for":"call","view":{"card":"generic","title":"x"}}}}"#
        ));
        assert!(agree(
            r#"{"type":"session/event","sessionId":"s","event":{"type":"turn/start","seq":1,"time":2,"data":{"turn":1}},"view":null}"#
        ));
        assert!(agree(
            r#"{"type":"assistant/message","seq":3,"time":4,"data":{"a":"b"},"ignorable":true}"#
        ));
        // Left to the lenient path.
        for line in [
            r#"{"type":"session/subscribed","sessionId":"s","lastSeq":3}"#,
            r#"{"type":"server-request","rpcId":"q","payload":{"type":"question/requested","questions":[]}}"#,
            r#"{"type":"session/event","sessionId":"s","event":{"type":"x","seq":"1","data":{}}}"#,
            r#"{"type":"session/event","sessionId":"s","event":{"type":"x","seq":1,"data":{}},"view":{"for":"side","view":{}}}"#,
            r#"{"type":"session/event","sessionId":"s","event":{"type":"x","seq":1},"view":{"for":"call"}}"#,
            r#"{"type":"x","type":"y","seq":1,"data":{}}"#,
            r#"{"type":"approval/requested","seq":1,"data":{}}"#,
            r#"[1,2]"#,
            // `data: null` reads as absent to the fast path.
            r#"{"type":"x","seq":3,"data":null}"#,
        ] {
            assert!(!agree(line), "{line}");
        }
    }
}
