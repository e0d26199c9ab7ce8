//! Field readers for the wire model's serde derives, in two kinds:
//!
//! - [`strict`] (views): a value of another type is an error that says what
//!   was expected and what came (`expected string, got number`); `null`
//!   reads as absent, and a required field that is absent as `missing`.
//! - [`loose`] (event payloads, frame fields): a value of another type reads
//!   as absent, as the protocol asks of a client ("parse leniently").
//!
//! Every reader asks the deserializer what the value is
//! (`deserialize_any`), so JSON text and a `serde_json::Value` read alike,
//! and an object is only ever an object (a derived struct alone would take
//! an array for one). What a reader skips is walked by [`Skip`], which keeps
//! serde_json's recursion limit: a value no JSON tree could hold is an
//! error here too, never read as absent.
//!
//! [`field_error`] turns a serde error and its path (from
//! `serde_path_to_error`) into a [`WireError::Field`].

use std::fmt;
use std::marker::PhantomData;

use serde::Deserialize;
use serde::de::value::MapAccessDeserializer;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Number, Value};

use super::error::{JsonType, WireError};

/// The visits of every JSON value but strings and containers, each
/// answered by the visitor's `other(JsonType)`.
macro_rules! visit_non_strings_with_other {
    () => {
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
            self.other(JsonType::Boolean)
        }
        fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
            self.other(JsonType::Number)
        }
        fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
            self.other(JsonType::Number)
        }
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
            self.other(JsonType::Number)
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            self.other(JsonType::Null)
        }
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            self.other(JsonType::Null)
        }
    };
}

/// The same with strings: every JSON value but containers.
macro_rules! visit_scalars_with_other {
    () => {
        visit_non_strings_with_other!();
        fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
            self.other(JsonType::String)
        }
    };
}

/// A value skipped. Containers are walked (not scanned past) so that the
/// recursion limit holds as it does for a tree.
#[derive(Default)]
pub(crate) struct Skip;

impl<'de> Deserialize<'de> for Skip {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Skip, D::Error> {
        d.deserialize_any(SkipVisitor)
    }
}

struct SkipVisitor;

impl SkipVisitor {
    fn other<E>(self, _: JsonType) -> Result<Skip, E> {
        Ok(Skip)
    }
}

impl<'de> Visitor<'de> for SkipVisitor {
    type Value = Skip;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    visit_scalars_with_other!();
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Skip, D::Error> {
        Skip::deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Skip, A::Error> {
        while seq.next_element::<Skip>()?.is_some() {}
        Ok(Skip)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Skip, A::Error> {
        while map.next_entry::<Skip, Skip>()?.is_some() {}
        Ok(Skip)
    }
}

/// A value as a reader first sees it: a scalar, or a container (skipped)
/// known only by its type.
enum Scalar {
    Null,
    Bool(bool),
    Num(Number),
    Str(String),
    Container(JsonType),
}

impl Scalar {
    fn json_type(&self) -> JsonType {
        match self {
            Scalar::Null => JsonType::Null,
            Scalar::Bool(_) => JsonType::Boolean,
            Scalar::Num(_) => JsonType::Number,
            Scalar::Str(_) => JsonType::String,
            Scalar::Container(t) => *t,
        }
    }

    fn read<'de, D: Deserializer<'de>>(d: D) -> Result<Scalar, D::Error> {
        d.deserialize_any(ScalarVisitor)
    }
}

struct ScalarVisitor;

impl<'de> Visitor<'de> for ScalarVisitor {
    type Value = Scalar;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, b: bool) -> Result<Scalar, E> {
        Ok(Scalar::Bool(b))
    }
    fn visit_i64<E>(self, i: i64) -> Result<Scalar, E> {
        Ok(Scalar::Num(i.into()))
    }
    fn visit_u64<E>(self, u: u64) -> Result<Scalar, E> {
        Ok(Scalar::Num(u.into()))
    }
    fn visit_f64<E>(self, f: f64) -> Result<Scalar, E> {
        // As serde_json's tree reads it: a number that is not finite is null.
        Ok(Number::from_f64(f).map_or(Scalar::Null, Scalar::Num))
    }
    fn visit_str<E>(self, s: &str) -> Result<Scalar, E> {
        Ok(Scalar::Str(s.to_owned()))
    }
    fn visit_string<E>(self, s: String) -> Result<Scalar, E> {
        Ok(Scalar::Str(s))
    }
    fn visit_unit<E>(self) -> Result<Scalar, E> {
        Ok(Scalar::Null)
    }
    fn visit_none<E>(self) -> Result<Scalar, E> {
        Ok(Scalar::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Scalar, D::Error> {
        Scalar::read(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Scalar, A::Error> {
        SkipVisitor.visit_seq(seq)?;
        Ok(Scalar::Container(JsonType::Array))
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Scalar, A::Error> {
        SkipVisitor.visit_map(map)?;
        Ok(Scalar::Container(JsonType::Object))
    }
}

/// An error naming a field below the value being read (`text`, of a
/// content block): [`field_error`] puts it on the path.
pub(crate) fn below<E: de::Error>(field: &str, reason: impl fmt::Display) -> E {
    E::custom(format_args!("field `{field}`: {reason}"))
}

/// A serde error at `path` as a [`WireError::Field`]: a missing field (or a
/// [`below`] error) goes on the path, so both read `diffs[0].path: …`.
pub(crate) fn field_error(path: &serde_path_to_error::Path, message: &str) -> WireError {
    let mut at = path.to_string();
    if at == "." {
        at.clear();
    }
    let mut on = |field: &str| {
        if !at.is_empty() {
            at.push('.');
        }
        at.push_str(field);
    };
    // serde's own words for an absent field.
    let reason = if let Some(field) = message
        .strip_prefix("missing field `")
        .and_then(|r| r.strip_suffix('`'))
    {
        on(field);
        "missing".to_string()
    } else if let Some((field, reason)) = message
        .strip_prefix("field `")
        .and_then(|r| r.split_once("`: "))
    {
        on(field);
        reason.to_string()
    } else {
        message.to_string()
    };
    WireError::Field { path: at, reason }
}

/// An object read into `T`, or the type of what came instead (skipped).
pub(crate) fn object_or_type<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Result<T, JsonType>, D::Error> {
    d.deserialize_any(ObjectOrType(PhantomData))
}

struct ObjectOrType<T>(PhantomData<T>);

impl<T> ObjectOrType<T> {
    fn other<E>(self, got: JsonType) -> Result<Result<T, JsonType>, E> {
        Ok(Err(got))
    }
}

impl<'de, T: Deserialize<'de>> Visitor<'de> for ObjectOrType<T> {
    type Value = Result<T, JsonType>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object")
    }
    visit_scalars_with_other!();
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        SkipVisitor.visit_seq(seq)?;
        self.other(JsonType::Array)
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        T::deserialize(MapAccessDeserializer::new(map)).map(Ok)
    }
}

pub(crate) mod loose;
pub(crate) mod strict;
