//! WebSocket frames. A message is either an envelope
//! `{type:"server-request", rpcId, method, payload:<frame>}` or a bare frame
//! `{type:"session/event", sessionId, event, view?}`, or — in logs and simple
//! streams — a bare session event `{type, seq, time, data}`.

use serde_json::Value;

use super::error::WireError;
use super::event::SessionEvent;
use super::raw::RawJson;
use super::view::View;

/// Frame types of the host's two WebSockets (besides `session/event`).
/// `host/*` and `workspace/*` frames are accepted by prefix.
pub const KNOWN_FRAMES: &[&str] = &[
    "session/subscribed",
    "session/queue",
    "session/jobs",
    "session/projection",
    "approval/requested",
    "approval/resolved",
    "question/requested",
    "question/resolved",
    "stream/error",
];

/// True for a frame type deck knows (an unknown one is reported).
pub fn is_known_frame(kind: &str) -> bool {
    KNOWN_FRAMES.contains(&kind) || kind.starts_with("host/") || kind.starts_with("workspace/")
}

/// Which slot of a tool card a view fills.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ViewFor {
    /// The call's view: what was asked of the tool.
    Call,
    /// The result's view: what the tool gave back.
    Result,
}

/// `view: {for, view}` attached to a `tool/call` or `tool/result` frame.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ViewEnvelope {
    /// The slot it fills (`for`).
    pub for_: ViewFor,
    /// The render intent, raw: typed later by [`super::View::from_json`] so a
    /// malformed view becomes a fallback card, not a lost frame.
    pub view: RawJson,
}

impl PartialEq for ViewEnvelope {
    fn eq(&self, other: &Self) -> bool {
        self.for_ == other.for_ && self.view == other.view
    }
}

impl ViewEnvelope {
    /// An envelope of a view given as a tree.
    pub fn new(for_: ViewFor, view: Value) -> ViewEnvelope {
        ViewEnvelope::from_raw(for_, RawJson::from_value(&view))
    }

    /// An envelope of a view given as its JSON text.
    pub fn from_raw(for_: ViewFor, view: RawJson) -> ViewEnvelope {
        ViewEnvelope { for_, view }
    }

    /// The typed view, or why it did not type (parsed on each call).
    pub fn parsed(&self) -> Result<View, WireError> {
        View::from_json(self.view.as_str())
    }
}

/// One decoded frame.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Frame {
    /// A session event, with its view when the host attached one.
    Event {
        /// The session it belongs to (`sessionId`), when the frame says.
        session_id: Option<String>,
        /// The event.
        event: SessionEvent,
        /// The view of its call or result, when the host attached one.
        view: Option<ViewEnvelope>,
    },
    /// Any other frame (`session/subscribed`, `approval/requested`, `host/*` …), kept raw.
    Other {
        /// The frame's `type`.
        kind: String,
        /// The session it belongs to (`sessionId`), when the frame says.
        session_id: Option<String>,
        /// The envelope's `rpcId` (what `/api/respond` answers to).
        rpc_id: Option<String>,
        /// The whole frame.
        payload: Value,
    },
}

impl Frame {
    /// The session the frame belongs to, when it says.
    pub fn session_id(&self) -> Option<&str> {
        match self {
            Frame::Event { session_id, .. } | Frame::Other { session_id, .. } => {
                session_id.as_deref()
            }
        }
    }

    /// Decode one message. Errors say what did not fit.
    pub fn from_value(v: &Value) -> Result<Frame, WireError> {
        Frame::from_owned(v.clone())
    }

    /// [`Frame::from_value`] without copying: takes the message apart.
    pub fn from_owned(v: Value) -> Result<Frame, WireError> {
        let Value::Object(mut obj) = v else {
            return Err(WireError::MessageNotObject);
        };
        let ty = obj
            .get("type")
            .and_then(Value::as_str)
            .ok_or(WireError::MessageNoType)?
            .to_string();
        if ty == "server-request" {
            let payload = obj.remove("payload").ok_or(WireError::NoPayload)?;
            let mut frame =
                Frame::from_owned(payload).map_err(|e| WireError::Payload(Box::new(e)))?;
            if let Frame::Other { rpc_id, .. } = &mut frame
                && rpc_id.is_none()
            {
                *rpc_id = obj.get("rpcId").and_then(Value::as_str).map(str::to_string);
            }
            return Ok(frame);
        }
        let session_id = obj
            .get("sessionId")
            .and_then(Value::as_str)
            .map(str::to_string);
        if ty == "session/event" {
            let event = obj.remove("event").ok_or(WireError::NoEvent)?;
            let event = SessionEvent::from_owned(event)?;
            let view = match obj.remove("view") {
                None | Some(Value::Null) => None,
                Some(v) => Some(parse_envelope(v)?),
            };
            return Ok(Frame::Event {
                session_id,
                event,
                view,
            });
        }
        if obj.contains_key("seq")
            && obj.contains_key("data")
            && !KNOWN_FRAMES.contains(&ty.as_str())
        {
            // A bare session event (session logs, simple streams).
            let event = SessionEvent::from_owned(Value::Object(obj))?;
            return Ok(Frame::Event {
                session_id,
                event,
                view: None,
            });
        }
        if !is_known_frame(&ty) {
            return Err(WireError::UnknownFrame(ty));
        }
        let rpc_id = obj.get("rpcId").and_then(Value::as_str).map(str::to_string);
        Ok(Frame::Other {
            kind: ty,
            session_id,
            rpc_id,
            payload: Value::Object(obj),
        })
    }
}

fn parse_envelope(v: Value) -> Result<ViewEnvelope, WireError> {
    let Value::Object(mut o) = v else {
        return Err(WireError::EnvelopeNotObject);
    };
    let for_ = match o.get("for").and_then(Value::as_str) {
        Some("call") => ViewFor::Call,
        Some("result") => ViewFor::Result,
        Some(other) => return Err(WireError::UnknownSlot(other.to_string())),
        None => return Err(WireError::NoSlot),
    };
    let view = o.remove("view").ok_or(WireError::NoView)?;
    Ok(ViewEnvelope::new(for_, view))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn unwraps_envelopes() {
        let m = json!({"type":"server-request","rpcId":"r","method":"session/event","payload":{
            "type":"session/event","sessionId":"s","event":{"type":"tool/call","seq":5,"time":1,"data":{}},
            "view":{"for":"call","view":{"card":"generic","title":"x"}}}});
        match Frame::from_value(&m).unwrap() {
            Frame::Event {
                session_id,
                event,
                view,
            } => {
                assert_eq!(session_id.as_deref(), Some("s"));
                assert_eq!(event.seq, 5);
                assert_eq!(view.unwrap().for_, ViewFor::Call);
            }
            f => panic!("{f:?}"),
        }
    }

    #[test]
    fn bare_events_and_other_frames() {
        assert!(matches!(
            Frame::from_value(&json!({"type":"turn/start","seq":1,"time":2,"data":{"turn":1}}))
                .unwrap(),
            Frame::Event { .. }
        ));
        assert!(matches!(
            Frame::from_value(&json!({"type":"session/subscribed","sessionId":"s","lastSeq":3}))
                .unwrap(),
            Frame::Other { .. }
        ));
        assert!(Frame::from_value(&json!({"type":"session/event","sessionId":"s"})).is_err());
        let q = json!({"type":"server-request","rpcId":"r9","method":"question/requested",
            "payload":{"type":"question/requested","sessionId":"s","questions":[]}});
        assert!(matches!(
            Frame::from_value(&q).unwrap(),
            Frame::Other { rpc_id: Some(r), .. } if r == "r9"
        ));
        assert!(Frame::from_value(&json!({"type":"server-request"})).is_err());
    }
}
