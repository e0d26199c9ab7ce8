//! Readers that say what they expected (views): a value of another type is
//! an error (`expected string, got number`), `null` reads as absent, and a
//! required field that is absent as `missing`.

use super::*;

pub(crate) fn misfit<E: de::Error>(want: &str, got: JsonType) -> E {
    E::custom(format_args!("expected {want}, got {got}"))
}

fn missing<E: de::Error>() -> E {
    E::custom("missing")
}

/// An object read into `T`; anything else is `expected object, got …`.
pub(crate) struct Obj<T>(pub T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Obj<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Obj<T>, D::Error> {
        match object_or_type(d)? {
            Ok(t) => Ok(Obj(t)),
            Err(got) => Err(misfit("object", got)),
        }
    }
}

/// A string, `null` included in what is not one (an item of `paths`).
struct Text(String);

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Text, D::Error> {
        match Scalar::read(d)? {
            Scalar::Str(s) => Ok(Text(s)),
            other => Err(misfit("string", other.json_type())),
        }
    }
}

/// An array, or `None` for null; its items read as `T`.
fn array<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<Vec<T>>, D::Error> {
    d.deserialize_any(ArrayVisitor(PhantomData))
}

struct ArrayVisitor<T>(PhantomData<T>);

impl<T> ArrayVisitor<T> {
    fn other<E: de::Error>(self, got: JsonType) -> Result<Option<Vec<T>>, E> {
        match got {
            JsonType::Null => Ok(None),
            got => Err(misfit("array", got)),
        }
    }
}

impl<'de, T: Deserialize<'de>> Visitor<'de> for ArrayVisitor<T> {
    type Value = Option<Vec<T>>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an array")
    }
    visit_scalars_with_other!();
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(item) = seq.next_element()? {
            out.push(item);
        }
        Ok(Some(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        SkipVisitor.visit_map(map)?;
        self.other(JsonType::Object)
    }
}

/// A required array of objects.
pub(crate) fn objects<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Vec<T>, D::Error> {
    let items: Option<Vec<Obj<T>>> = array(d)?;
    Ok(items
        .ok_or_else(missing)?
        .into_iter()
        .map(|o| o.0)
        .collect())
}

/// An optional array of objects (absent or null: empty).
pub(crate) fn objects_or_none<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Vec<T>, D::Error> {
    let items: Option<Vec<Obj<T>>> = array(d)?;
    Ok(items.unwrap_or_default().into_iter().map(|o| o.0).collect())
}

/// An optional array of items that check their own type (content blocks).
pub(crate) fn opt_array<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<Vec<T>>, D::Error> {
    array(d)
}

/// A required array of strings.
pub(crate) fn strings<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    let items: Option<Vec<Text>> = array(d)?;
    Ok(items
        .ok_or_else(missing)?
        .into_iter()
        .map(|t| t.0)
        .collect())
}

pub(crate) fn opt_str<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    match Scalar::read(d)? {
        Scalar::Null => Ok(None),
        Scalar::Str(s) => Ok(Some(s)),
        other => Err(misfit("string", other.json_type())),
    }
}

pub(crate) fn req_str<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    opt_str(d)?.ok_or_else(missing)
}

/// An optional string, empty when absent.
pub(crate) fn str_or_empty<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    opt_str(d).map(Option::unwrap_or_default)
}

pub(crate) fn opt_u64<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    match Scalar::read(d)? {
        Scalar::Null => Ok(None),
        Scalar::Num(n) if n.as_u64().is_some() => Ok(n.as_u64()),
        other => Err(misfit("non-negative integer", other.json_type())),
    }
}

pub(crate) fn req_u64<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    opt_u64(d)?.ok_or_else(missing)
}

/// An optional non-negative integer, `N` when absent.
pub(crate) fn u64_or<'de, D: Deserializer<'de>, const N: u64>(d: D) -> Result<u64, D::Error> {
    opt_u64(d).map(|n| n.unwrap_or(N))
}

pub(crate) fn opt_i64<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    match Scalar::read(d)? {
        Scalar::Null => Ok(None),
        Scalar::Num(n) if n.as_i64().is_some() => Ok(n.as_i64()),
        other => Err(misfit("integer", other.json_type())),
    }
}

/// An optional boolean, false when absent.
pub(crate) fn bool_or_false<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    match Scalar::read(d)? {
        Scalar::Null => Ok(false),
        Scalar::Bool(b) => Ok(b),
        other => Err(misfit("boolean", other.json_type())),
    }
}

/// A string or the type of what came instead (checked later, when
/// another field says whether it matters).
pub(crate) fn str_or_type<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Result<String, JsonType>, D::Error> {
    Ok(match Scalar::read(d)? {
        Scalar::Str(s) => Ok(s),
        other => Err(other.json_type()),
    })
}

/// `expected string, got …`, for a [`str_or_type`] that mattered.
pub(crate) fn not_a_string(got: JsonType) -> String {
    format!("expected string, got {got}")
}
