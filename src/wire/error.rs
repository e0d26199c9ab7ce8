//! [`WireError`]: why a frame, an event or a view did not decode — said the
//! way deck's diagnostics and fallback cards show it (the field, what was
//! expected, what came).

use std::fmt;

/// JSON's six types, named as messages name them (`expected string, got number`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonType {
    /// `null`.
    Null,
    /// `true` or `false`.
    Boolean,
    /// A number, integer or not.
    Number,
    /// A string.
    String,
    /// An array.
    Array,
    /// An object.
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

    /// Its name in messages (`null`, `boolean`, `number` …).
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

    /// A message (a line, a WebSocket message) that is not an object.
    #[error("message is not a JSON object")]
    MessageNotObject,
    /// A message without a string `type`.
    #[error("message has no string \"type\"")]
    MessageNoType,
    /// A `server-request` envelope without its `payload`.
    #[error("server-request without \"payload\"")]
    NoPayload,
    /// The frame inside a `server-request` envelope did not decode.
    #[error("payload: {0}")]
    Payload(Box<WireError>),
    /// A `session/event` frame without its `event`.
    #[error("session/event without \"event\"")]
    NoEvent,
    /// A frame type deck does not know (its type).
    #[error("unknown frame type {0:?}")]
    UnknownFrame(String),

    /// A frame's `view` that is not an object.
    #[error("view envelope is not an object")]
    EnvelopeNotObject,
    /// A view envelope without `for` (which slot of the card it fills).
    #[error("view without \"for\"")]
    NoSlot,
    /// A view envelope whose `for` is neither `call` nor `result` (what it is).
    #[error("view.for: unknown slot {0:?}")]
    UnknownSlot(String),
    /// A view envelope without its `view`.
    #[error("view envelope without \"view\"")]
    NoView,

    /// A session event that is not an object.
    #[error("event is not a JSON object")]
    EventNotObject,
    /// A session event without a string `type`.
    #[error("event has no string \"type\"")]
    EventNoType,
    /// A session event without `seq` (its type).
    #[error("event {0:?} has no \"seq\"")]
    NoSeq(String),
    /// A session event whose `seq` is not a non-negative integer (its type).
    #[error("event {0:?}: \"seq\" is not a non-negative integer")]
    BadSeq(String),

    /// A view that is not an object (what it is).
    #[error("view is {0}, not an object")]
    ViewNotObject(JsonType),
    /// A view without its `card` tag.
    #[error("view has no \"card\" tag")]
    NoCard,
    /// A view whose `card` tag is not a string (what it is).
    #[error("card: expected string, got {0}")]
    CardNotString(JsonType),
    /// A card tag deck does not know (the tag).
    #[error("unknown card {0:?}")]
    UnknownCard(String),
    /// A `search` view without a string `shape`.
    #[error("search view without a string \"shape\"")]
    NoSearchShape,
    /// A `search` view's `shape` deck does not know (the shape).
    #[error("unknown search shape {0:?}")]
    UnknownSearchShape(String),
    /// A `web` view without a string `kind`.
    #[error("web view without a string \"kind\"")]
    NoWebKind,
    /// A `web` view's `kind` deck does not know (the kind).
    #[error("unknown web kind {0:?}")]
    UnknownWebKind(String),
    /// A field that does not fit its type: where (`diffs[0].path`; empty
    /// for the value itself) and why (`expected string, got number`, `missing`).
    #[error("{}", field_message(.path, .reason))]
    Field {
        /// Where: `diffs[0].path`, empty for the value itself.
        path: String,
        /// Why: `expected string, got number`, `missing`.
        reason: String,
    },
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
