//! [`RawJson`]: a piece of JSON kept as its text and parsed when read.
//!
//! Event data and views are most of a session's bytes. Held as
//! `serde_json::Value` trees they cost about four times their text (every
//! object key is its own allocation in an index map), so an hour-long
//! session would not fit comfortably in memory. As text they cost their
//! size; the reducer parses an event's data once while folding it, and a
//! card's view is typed once when it is attached.

use std::fmt;
use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;
use serde_json::value::RawValue;

use super::error::WireError;

/// Immutable JSON text, shared (clones are pointer copies).
#[derive(Clone)]
pub struct RawJson(Text);

/// The text: copied from a parser's slice into one allocation, or a
/// string already built, kept as it is (a big one is not copied again).
#[derive(Clone)]
enum Text {
    Slice(Arc<str>),
    Built(Arc<String>),
}

impl RawJson {
    /// JSON `null`.
    pub fn null() -> RawJson {
        RawJson(Text::Slice(Arc::from("null")))
    }

    /// Text already known to be one JSON value (from a parser's raw slice).
    pub fn from_raw(raw: &RawValue) -> RawJson {
        RawJson(Text::Slice(Arc::from(raw.get())))
    }

    /// Text its writer vouches is one JSON value (assembled from parsed
    /// pieces); not checked, and not copied.
    pub fn from_text(mut text: String) -> RawJson {
        // A string grown by doubling may hold up to twice its text, kept
        // for the session's life: such a one is copied to its size (an
        // allocator may shrink in place without freeing anything). One
        // written into room sized for it is kept as it is.
        if text.capacity() - text.len() > text.len() / 4 + 64 {
            text = text.as_str().to_owned();
        }
        RawJson(Text::Built(Arc::new(text)))
    }

    /// Serialize a value.
    pub fn from_value(v: &Value) -> RawJson {
        RawJson::from_text(v.to_string())
    }

    /// The very same text (one copy shared), not only equal text.
    pub fn is(&self, other: &RawJson) -> bool {
        match (&self.0, &other.0) {
            (Text::Slice(a), Text::Slice(b)) => Arc::ptr_eq(a, b),
            (Text::Built(a), Text::Built(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }

    /// The JSON text.
    pub fn as_str(&self) -> &str {
        match &self.0 {
            Text::Slice(s) => s,
            Text::Built(s) => s,
        }
    }

    /// Bytes of text.
    pub fn len(&self) -> usize {
        self.as_str().len()
    }

    /// No text at all.
    pub fn is_empty(&self) -> bool {
        self.as_str().is_empty()
    }

    /// The text is `null`.
    pub fn is_null(&self) -> bool {
        self.as_str() == "null"
    }

    /// The value; `null` when it cannot be built (see [`RawJson::try_parse`]).
    pub fn parse(&self) -> Value {
        serde_json::from_str(self.as_str()).unwrap_or(Value::Null)
    }

    /// The value, or why it cannot be built: the text is valid JSON (it came
    /// from a parser), but one nested deeper than serde_json's recursion
    /// limit (128) has no tree.
    pub fn try_parse(&self) -> Result<Value, WireError> {
        serde_json::from_str(self.as_str()).map_err(|e| WireError::Unreadable(e.to_string()))
    }
}

impl From<Value> for RawJson {
    fn from(v: Value) -> RawJson {
        RawJson::from_value(&v)
    }
}

/// Equal text.
impl PartialEq for RawJson {
    fn eq(&self, other: &RawJson) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for RawJson {}

impl fmt::Debug for RawJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Serialized as the JSON it holds (not as a string).
impl Serialize for RawJson {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match serde_json::from_str::<&RawValue>(self.as_str()) {
            Ok(raw) => raw.serialize(s),
            Err(_) => Value::Null.serialize(s),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn round_trips_and_serializes_as_json() {
        let v = json!({"b": 1, "a": [true, "x"]});
        let r = RawJson::from_value(&v);
        assert_eq!(r.parse(), v);
        assert_eq!(r.as_str(), r#"{"b":1,"a":[true,"x"]}"#);
        assert_eq!(
            serde_json::to_string(&json!({"k": r})).unwrap(),
            r#"{"k":{"b":1,"a":[true,"x"]}}"#
        );
        assert!(RawJson::null().is_null());
        // A built text keeps little room beyond its size.
        let mut grown = String::with_capacity(4096);
        grown.push_str("[1,2,3]");
        let kept = RawJson::from_text(grown);
        let Text::Built(b) = &kept.0 else {
            panic!("a built text")
        };
        assert!(b.capacity() - b.len() <= 64, "{}", b.capacity());
        let mut sized = String::with_capacity(1100);
        sized.push_str(&"7".repeat(1000));
        let Text::Built(b) = &RawJson::from_text(sized).0 else {
            panic!("a built text")
        };
        assert_eq!(b.capacity(), 1100, "room sized for it is kept, not copied");
        assert_eq!(RawJson::null().parse(), Value::Null);
    }
}
