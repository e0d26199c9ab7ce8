//! A line of `updates.jsonl` read from its text on the loader's decoder
//! threads ([`Line::parse`]), in one pass: the tree its reader takes, but
//! for the update's `rawOutput` — most of a session's bytes — kept as the
//! line's text, so that it is checked once and written out as it came,
//! never built as a tree to be escaped again.

use serde::de::{DeserializeSeed, MapAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

/// One line: its tree without the update's `rawOutput`, and that output
/// as text.
#[derive(Debug)]
pub struct Line {
    pub value: Value,
    pub raw_output: Option<Box<RawValue>>,
}

impl PartialEq for Line {
    fn eq(&self, other: &Line) -> bool {
        self.value == other.value
            && self.raw_output.as_ref().map(|r| r.get()) == other.raw_output.as_ref().map(|r| r.get())
    }
}

impl Line {
    /// The line, when it is one of `updates.jsonl`'s ([`super::is_line`]):
    /// `None` for any other (then read as a tree, and offered to every
    /// agent), and for one whose `params` or `update` is not an object.
    pub fn parse(text: &str) -> Option<Line> {
        // Every line of its names its update's kind.
        memchr::memmem::find(text.as_bytes(), b"\"sessionUpdate\"")?;
        let mut raws = Raws::default();
        let seed = Object {
            at: At::Top,
            raws: &mut raws,
        };
        let mut de = serde_json::Deserializer::from_str(text);
        let mut map = seed.deserialize(&mut de).ok()?;
        de.end().ok()?;
        // The output of the update the line's shape names; one found
        // anywhere else goes back into its tree.
        let enveloped = map.contains_key("method");
        let (raw, other) = if enveloped {
            (raws.in_params, raws.in_top)
        } else {
            (raws.in_top, raws.in_params)
        };
        if let Some(other) = other {
            let update = if enveloped {
                map.get_mut("update")
            } else {
                map.get_mut("params").and_then(|p| p.get_mut("update"))
            };
            if let Some(Value::Object(u)) = update {
                u.insert("rawOutput".into(), serde_json::from_str(other.get()).ok()?);
            }
        }
        let value = Value::Object(map);
        super::is_line(&value).then(|| Line {
            value,
            raw_output: raw.map(RawValue::to_owned),
        })
    }
}

/// The `rawOutput`s found: the one of `params.update` (an envelope's)
/// and of a top-level `update` (a bare notification's).
#[derive(Default)]
struct Raws<'a> {
    in_params: Option<&'a RawValue>,
    in_top: Option<&'a RawValue>,
}

/// Which object of the line is being read.
#[derive(Clone, Copy)]
enum At {
    Top,
    Params,
    /// An `update`: the params' (`true`) or the line's own.
    Update(bool),
}

/// An object read as a tree, but for an update's `rawOutput`, kept as
/// text in `raws`.
struct Object<'r, 'a> {
    at: At,
    raws: &'r mut Raws<'a>,
}

impl<'de, 'r> DeserializeSeed<'de> for Object<'r, 'de> {
    type Value = Map<String, Value>;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de, 'r> Visitor<'de> for Object<'r, 'de> {
    type Value = Map<String, Value>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Self::Value, A::Error> {
        let mut map = Map::new();
        while let Some(k) = m.next_key::<String>()? {
            let inner = match (self.at, k.as_str()) {
                (At::Top, "params") => Some(At::Params),
                (At::Top, "update") => Some(At::Update(false)),
                (At::Params, "update") => Some(At::Update(true)),
                _ => None,
            };
            let v = match (self.at, inner) {
                (_, Some(at)) => {
                    // A later member of the same name stands: what the
                    // earlier one held goes.
                    match at {
                        At::Params => self.raws.in_params = None,
                        At::Update(true) => self.raws.in_params = None,
                        At::Update(false) => self.raws.in_top = None,
                        At::Top => {}
                    }
                    let seed = Object {
                        at,
                        raws: &mut *self.raws,
                    };
                    Value::Object(m.next_value_seed(seed)?)
                }
                (At::Update(in_params), None) if k == "rawOutput" => {
                    let raw: &'de RawValue = m.next_value()?;
                    if in_params {
                        self.raws.in_params = Some(raw);
                    } else {
                        self.raws.in_top = Some(raw);
                    }
                    map.shift_remove(&k);
                    continue;
                }
                _ => m.next_value::<Value>()?,
            };
            map.insert(k, v);
        }
        Ok(map)
    }
}
