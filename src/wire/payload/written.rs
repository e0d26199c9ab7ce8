//! What deck's readers of other agents' logs write that the fold does not
//! read: the fields marked [`written`] (skipped when read, never copied),
//! and the types that let them be written without a copy — JSON kept as
//! its text, borrowed from the line it was read from ([`Json`]), and a
//! result part's content ([`PartContent`]), which the cards read from the
//! event's text.

use std::borrow::Cow;

use serde::ser::SerializeMap;
use serde::{Deserialize, Serialize, Serializer};
use serde_json::Value;
use serde_json::value::RawValue;

/// The reader of a written-only field: its value is skipped (walked, not
/// copied) and the field left at its default.
pub(crate) fn written<'de, D: serde::Deserializer<'de>, T: Default>(d: D) -> Result<T, D::Error> {
    crate::wire::de::Skip::deserialize(d).map(|_| T::default())
}

/// A JSON value to write: its text as read (borrowed, or owned), or a tree.
#[derive(Debug, Clone)]
pub enum Json<'a> {
    /// JSON text, written as it is.
    Text(Cow<'a, RawValue>),
    /// A tree.
    Tree(Value),
}

impl Json<'_> {
    /// The value (a tree of the text; `null` when it has none).
    pub fn to_value(&self) -> Value {
        match self {
            Json::Text(t) => serde_json::from_str(t.get()).unwrap_or(Value::Null),
            Json::Tree(v) => v.clone(),
        }
    }
}

/// The same value, whichever way each holds it.
impl PartialEq for Json<'_> {
    fn eq(&self, other: &Json<'_>) -> bool {
        match (self, other) {
            (Json::Text(a), Json::Text(b)) => a.get() == b.get(),
            _ => self.to_value() == other.to_value(),
        }
    }
}

impl Serialize for Json<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Json::Text(t) => t.serialize(s),
            Json::Tree(v) => v.serialize(s),
        }
    }
}

/// A `tool-result` part's content, DSH content blocks, as a reader writes
/// it (the cards read it from the event's text; the fold does not).
#[derive(Debug, Clone)]
pub enum PartContent<'a> {
    /// One text block of this text.
    Text(Cow<'a, str>),
    /// One text block whose text is this JSON string, written as it was
    /// read (not unescaped to be escaped again).
    JsonText(Cow<'a, RawValue>),
    /// The blocks, as JSON text.
    Blocks(Cow<'a, RawValue>),
}

impl PartContent<'_> {
    /// About the bytes it takes written (to size the text it goes in).
    pub fn size_hint(&self) -> usize {
        match self {
            PartContent::Text(t) => t.len() + 28,
            PartContent::JsonText(t) => t.get().len() + 26,
            PartContent::Blocks(b) => b.get().len(),
        }
    }
}

/// The same JSON.
impl PartialEq for PartContent<'_> {
    fn eq(&self, other: &PartContent<'_>) -> bool {
        let text = |c: &PartContent<'_>| serde_json::to_string(c).unwrap_or_default();
        text(self) == text(other)
    }
}

impl Serialize for PartContent<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        /// `{"type":"text","text":…}`.
        struct TextBlock<'t, T: Serialize + ?Sized>(&'t T);
        impl<T: Serialize + ?Sized> Serialize for TextBlock<'_, T> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut m = s.serialize_map(Some(2))?;
                m.serialize_entry("type", "text")?;
                m.serialize_entry("text", self.0)?;
                m.end()
            }
        }
        match self {
            PartContent::Text(t) => s.collect_seq([TextBlock(&**t)]),
            PartContent::JsonText(t) => s.collect_seq([TextBlock(&**t)]),
            PartContent::Blocks(b) => b.serialize(s),
        }
    }
}
