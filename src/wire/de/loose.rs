//! Readers that take a misfit for absent (event payloads, frame fields), as
//! the protocol asks of a client: "parse leniently". Only what no JSON tree
//! could hold (nested past the recursion limit) is an error.

use std::borrow::Cow;

use super::*;

/// An object read into `T`, or `None` for anything else (skipped).
pub(crate) struct Object<T>(pub Option<T>);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Object<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Object<T>, D::Error> {
        object_or_type(d).map(|o| Object(o.ok()))
    }
}

/// An object, or `None`.
pub(crate) fn object<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<T>, D::Error> {
    Object::deserialize(d).map(|o| o.0)
}

/// The key is there, whatever its value (`null` included): `Some`
/// around the loose reading of an object.
pub(crate) fn present_object<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<Option<T>>, D::Error> {
    object(d).map(Some)
}

/// An array, each item an object or `None` (kept in its place); `None`
/// for anything but an array.
pub(crate) fn objects<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<Vec<Option<T>>>, D::Error> {
    d.deserialize_any(ObjectsVisitor(PhantomData))
}

struct ObjectsVisitor<T>(PhantomData<T>);

impl<T> ObjectsVisitor<T> {
    fn other<E>(self, _: JsonType) -> Result<Option<Vec<Option<T>>>, E> {
        Ok(None)
    }
}

impl<'de, T: Deserialize<'de>> Visitor<'de> for ObjectsVisitor<T> {
    type Value = Option<Vec<Option<T>>>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    visit_scalars_with_other!();
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(Object(item)) = seq.next_element()? {
            out.push(item);
        }
        Ok(Some(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        SkipVisitor.visit_map(map)?;
        Ok(None)
    }
}

pub(crate) fn string<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(match Scalar::read(d)? {
        Scalar::Str(s) => Some(s),
        _ => None,
    })
}

/// Any value, as a tree (`null` included).
pub(crate) fn value<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

/// A string, or an array of objects (each `None` where it is not one),
/// or neither (skipped): message content.
pub(crate) fn text_or_objects<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<TextOrObjects<T>, D::Error> {
    struct V<T>(PhantomData<T>);
    impl<T> V<T> {
        fn other<E>(self, _: JsonType) -> Result<TextOrObjects<T>, E> {
            Ok(TextOrObjects::Neither)
        }
    }
    impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
        type Value = TextOrObjects<T>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("any JSON value")
        }
        visit_non_strings_with_other!();
        fn visit_str<E>(self, s: &str) -> Result<Self::Value, E> {
            Ok(TextOrObjects::Text(s.to_owned()))
        }
        fn visit_string<E>(self, s: String) -> Result<Self::Value, E> {
            Ok(TextOrObjects::Text(s))
        }
        fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
            let items = ObjectsVisitor(PhantomData).visit_seq(seq)?;
            Ok(TextOrObjects::Objects(items.unwrap_or_default()))
        }
        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
            SkipVisitor.visit_map(map)?;
            Ok(TextOrObjects::Neither)
        }
    }
    d.deserialize_any(V(PhantomData))
}

/// What `text_or_objects` read: message content.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum TextOrObjects<T> {
    /// Absent, or neither a string nor an array.
    #[default]
    Neither,
    /// A bare string.
    Text(String),
    /// An array: each item read as `T`, `None` where it is not an object.
    Objects(Vec<Option<T>>),
}

/// Written as it reads: a string, an array (`null` where an item is no
/// object), or (`Neither`) `null` — a payload leaves it out instead.
impl<T: serde::Serialize> serde::Serialize for TextOrObjects<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            TextOrObjects::Neither => s.serialize_unit(),
            TextOrObjects::Text(t) => s.serialize_str(t),
            TextOrObjects::Objects(items) => s.collect_seq(items),
        }
    }
}

/// An object's key, borrowed from the text where it can be (payload
/// fields are matched by name without a copy).
pub(crate) struct Key<'de>(pub Cow<'de, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Key<'de>, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_str<E>(self, s: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(s.to_owned())))
            }
            fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(s)))
            }
            fn visit_string<E>(self, s: String) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(s)))
            }
        }
        d.deserialize_str(V)
    }
}

/// The key is there, whatever its value: `Some` around [`string`].
pub(crate) fn present_string<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<Option<String>>, D::Error> {
    string(d).map(Some)
}

pub(crate) fn u64<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    Ok(match Scalar::read(d)? {
        Scalar::Num(n) => n.as_u64(),
        _ => None,
    })
}

pub(crate) fn i64<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    Ok(match Scalar::read(d)? {
        Scalar::Num(n) => n.as_i64(),
        _ => None,
    })
}

pub(crate) fn bool<'de, D: Deserializer<'de>>(d: D) -> Result<Option<bool>, D::Error> {
    Ok(match Scalar::read(d)? {
        Scalar::Bool(b) => Some(b),
        _ => None,
    })
}

/// A code: a string, or a number as its text.
pub(crate) fn code<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(match Scalar::read(d)? {
        Scalar::Str(s) => Some(s),
        Scalar::Num(n) => Some(n.to_string()),
        _ => None,
    })
}
