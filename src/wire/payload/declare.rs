//! The `payloads!` macro: a payload struct declared once, each field with
//! its key and its loose reader, and both ways between it and JSON derived
//! from that one declaration — `Deserialize` for the fold, `Serialize` for
//! the readers of other agents' logs — so the data a reader writes is the
//! type the fold reads.
//!
//! Reading: any JSON value (an object's fields, else the default); keys not
//! named are skipped, and so are the values of written-only fields (reader
//! [`written`](super::written::written)): never copied. Writing: each
//! present field ([`Present`]) under its key, in declaration order; absent
//! ones are left out (`Some(None)` of an `Option<Option<T>>` — the key there
//! whatever its value — is written `null`).

use serde_json::Value;

use super::TextOrObjects;

/// Whether a field is written: an absent one (`None`, content that is
/// neither text nor objects) is left out of the object.
pub(crate) trait Present {
    /// True when the field has a value to write.
    fn present(&self) -> bool;
}

impl<T> Present for Option<T> {
    fn present(&self) -> bool {
        self.is_some()
    }
}

impl<T> Present for TextOrObjects<T> {
    fn present(&self) -> bool {
        !matches!(self, TextOrObjects::Neither)
    }
}

/// A tree is written as it is (`null` included).
impl Present for Value {
    fn present(&self) -> bool {
        true
    }
}

/// Declares payload structs: each field with its key and its loose reader
/// (`written`: a field deck writes and does not read). A struct may take
/// one lifetime, `'a`, for written-only fields that borrow what they write.
macro_rules! payloads {
    ($(
        $(#[$doc:meta])*
        pub struct $name:ident $(<$lt:lifetime>)? {
            $($(#[$fdoc:meta])* $key:literal => $field:ident: $ty:ty = $read:path,)*
        }
    )*) => {$(
        $(#[$doc])*
        #[derive(Debug, Clone, Default, PartialEq)]
        #[non_exhaustive]
        pub struct $name $(<$lt>)? {
            $($(#[$fdoc])* pub $field: $ty,)*
        }

        impl $(<$lt>)? $name $(<$lt>)? {
            /// Its keys, in the order they are written.
            #[cfg(test)]
            pub(crate) const KEYS: &'static [&'static str] = &[$($key,)*];
        }

        impl<'de $(, $lt)?> serde::Deserialize<'de> for $name $(<$lt>)? {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                use std::marker::PhantomData;
                use serde::de::{DeserializeSeed, Deserializer, MapAccess, Visitor};
                struct Fields $(<$lt>)? ($name $(<$lt>)?);
                impl<'de $(, $lt)?> serde::Deserialize<'de> for Fields $(<$lt>)? {
                    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                        d.deserialize_map(FieldsVisitor(PhantomData))
                    }
                }
                struct FieldsVisitor $(<$lt>)? (PhantomData<$name $(<$lt>)?>);
                impl<'de $(, $lt)?> Visitor<'de> for FieldsVisitor $(<$lt>)? {
                    type Value = Fields $(<$lt>)?;
                    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                        f.write_str("an object")
                    }
                    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                        let mut out = $name::default();
                        while let Some(loose::Key(key)) = map.next_key()? {
                            match &*key {
                                $($key => {
                                    // `'a`: the struct's own lifetime, which
                                    // the field's type may name.
                                    struct Seed<'a>(PhantomData<&'a ()>);
                                    impl<'de, 'a> DeserializeSeed<'de> for Seed<'a> {
                                        type Value = $ty;
                                        fn deserialize<D: Deserializer<'de>>(
                                            self,
                                            d: D,
                                        ) -> Result<$ty, D::Error> {
                                            $read(d)
                                        }
                                    }
                                    out.$field = map.next_value_seed(Seed(PhantomData))?;
                                })*
                                _ => {
                                    map.next_value::<crate::wire::de::Skip>()?;
                                }
                            }
                        }
                        Ok(Fields(out))
                    }
                }
                Ok(loose::object::<D, Fields>(d)?.map(|f| f.0).unwrap_or_default())
            }
        }

        impl $(<$lt>)? serde::Serialize for $name $(<$lt>)? {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                use serde::ser::SerializeMap;
                let mut map = s.serialize_map(None)?;
                $(if Present::present(&self.$field) {
                    map.serialize_entry($key, &self.$field)?;
                })*
                map.end()
            }
        }
    )*};
}
