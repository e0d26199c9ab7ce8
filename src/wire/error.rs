//! [`WireError`]: why a frame, an event or a view did not decode — said the
//! way deck's diagnostics and fallback cards show it (the field, what was
//! expected, what came).

use std::fmt;

/// JSON's six types, named as messages name them (`expected string, got number`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonType {
    Null,
    Boolean,
    Number,
    String,
    Array,
    Object,
}

impl JsonType {
    /// The type of a value.
    pub fn of(v: &serde_json::Value) -> JsonType {
        use serde_json::Value;
        match v {
            Value::Null => JsonType::Null,
            Value::Bool(_) => JsonType::Boolean,
            Value::Number(_) => JsonType::Number,
            Value::String(_) => JsonType::String,
            Value::Array(_) => JsonType::Array,
            Value::Object(_) => JsonType::Object,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            JsonType::Null => "null",
            JsonType::Boolean => "boolean",
            JsonType::Number => "number",
            JsonType::String => "string",
            JsonType::Array => "array",
            JsonType::Object => "object",
        }
    }
}

impl fmt::Display for JsonType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What did not decode. The text of each is what users read in a
/// diagnostic or on a fallback card.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WireError {
    /// The text is not JSON.
    #[error("not JSON: {0}")]
    NotJson(String),
    /// Valid JSON (it came from a parser) with no tree: nested deeper than
    /// serde_json's recursion limit (128).
    #[error("not readable: {0}")]
    Unreadable(String),

    #[error("message is not a JSON object")]
    MessageNotObject,
    #[error("message has no string \"type\"")]
    MessageNoType,
    #[error("server-request without \"payload\"")]
    NoPayload,
    /// The frame inside a `server-request` envelope did not decode.
    #[error("payload: {0}")]
    Payload(Box<WireError>),
    #[error("session/event without \"event\"")]
    NoEvent,
    #[error("unknown frame type {0:?}")]
    UnknownFrame(String),

    #[error("view envelope is not an object")]
    EnvelopeNotObject,
    #[error("view without \"for\"")]
    NoSlot,
    #[error("view.for: unknown slot {0:?}")]
    UnknownSlot(String),
    #[error("view envelope without \"view\"")]
    NoView,

    #[error("event is not a JSON object")]
    EventNotObject,
    #[error("event has no string \"type\"")]
    EventNoType,
    #[error("event {0:?} has no \"seq\"")]
    NoSeq(String),
    #[error("event {0:?}: \"seq\" is not a non-negative integer")]
    BadSeq(String),

    #[error("view is {0}, not an object")]
    ViewNotObject(JsonType),
    #[error("view has no \"card\" tag")]
    NoCard,
    #[error("card: expected string, got {0}")]
    CardNotString(JsonType),
    #[error("unknown card {0:?}")]
    UnknownCard(String),
    #[error("search view without a string \"shape\"")]
    NoSearchShape,
    #[error("unknown search shape {0:?}")]
    UnknownSearchShape(String),
    #[error("web view without a string \"kind\"")]
    NoWebKind,
    #[error("unknown web kind {0:?}")]
    UnknownWebKind(String),
    /// A field that does not fit its type: where (`diffs[0].path`; empty
    /// for the value itself) and why (`expected string, got number`, `missing`).
    #[error("{}", field_message(.path, .reason))]
    Field { path: String, reason: String },
}

impl WireError {
    /// For an error of a view: the field it is about, as the fallback card
    /// names fields (`diffs[0].path`; `card`, `shape`, `kind` for the tags;
    /// empty for the view itself), and why, without the field. `None` for
    /// an error of a frame or an event.
    pub fn view_field(&self) -> Option<(&str, String)> {
        let at = match self {
            WireError::Field { path, reason } => return Some((path, reason.clone())),
            WireError::NotJson(_) | WireError::Unreadable(_) | WireError::ViewNotObject(_) => "",
            WireError::NoCard | WireError::CardNotString(_) | WireError::UnknownCard(_) => "card",
            WireError::NoSearchShape | WireError::UnknownSearchShape(_) => "shape",
            WireError::NoWebKind | WireError::UnknownWebKind(_) => "kind",
            _ => return None,
        };
        Some((at, self.to_string()))
    }
}

fn field_message(path: &str, reason: &str) -> String {
    if path.is_empty() {
        reason.to_string()
    } else {
        format!("{path}: {reason}")
    }
}
