//! A `read` view typed straight from its text — the common case, a view as
//! the host writes it — without building a JSON tree first (a tree of a
//! 50-line view cost three times the rest of drawing its card).
//!
//! It accepts exactly what [`super::View::parse`] accepts the same way, or
//! nothing: anything it is not sure of (another card, a field of another
//! type, a duplicate key, `content` given, an array where an object goes)
//! gives `None`, and the caller types the view the lenient way, which also
//! says what is wrong. A test holds the two to the same views.

use std::fmt;

use serde::Deserialize;
use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};

use super::view::{ReadLine, ReadView};

/// The view in `json` when it is a `read` view this reads exactly as the
/// lenient parse does.
pub fn read_view(json: &str) -> Option<ReadView> {
    // Only an object is a view (serde would take an array for a struct).
    if !json.trim_start().starts_with('{') {
        return None;
    }
    let v: Fast = serde_json::from_str(json).ok()?;
    if v.card != "read" || v.content.is_some() {
        return None;
    }
    Some(ReadView {
        title: v.title,
        path: v.path?,
        offset: v.offset.unwrap_or(1),
        lines: v.lines?.0,
        total_lines: v.total_lines.unwrap_or(0),
        lang: v.lang,
        content: None,
        more: None,
    })
}

/// The fields of a read view (null reads as missing, as in the lenient
/// parse; a duplicate key fails, so the lenient parse decides).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Fast {
    card: String,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    path: Option<String>,
    #[serde(default)]
    offset: Option<u64>,
    #[serde(default)]
    lines: Option<Lines>,
    #[serde(default)]
    total_lines: Option<u64>,
    #[serde(default)]
    lang: Option<String>,
    /// Present (not null): left to the lenient parse, which types it.
    #[serde(default)]
    content: Option<IgnoredAny>,
}

/// `lines`: an array of `{number, text}` objects (objects only).
struct Lines(Vec<ReadLine>);

impl<'de> Deserialize<'de> for Lines {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Lines, D::Error> {
        struct Seq;
        impl<'de> Visitor<'de> for Seq {
            type Value = Lines;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an array of lines")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut a: A) -> Result<Lines, A::Error> {
                let mut out = Vec::with_capacity(a.size_hint().unwrap_or(0));
                while let Some(Line(l)) = a.next_element()? {
                    out.push(l);
                }
                Ok(Lines(out))
            }
        }
        d.deserialize_seq(Seq)
    }
}

/// One line: an object with a non-negative integer `number` and a string
/// `text` (other keys ignored, a repeated one refused).
struct Line(ReadLine);

impl<'de> Deserialize<'de> for Line {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Line, D::Error> {
        struct Obj;
        impl<'de> Visitor<'de> for Obj {
            type Value = Line;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a line object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Line, A::Error> {
                use serde::de::Error;
                let (mut number, mut text): (Option<Option<u64>>, Option<Option<String>>) =
                    (None, None);
                while let Some(k) = m.next_key::<std::borrow::Cow<'de, str>>()? {
                    match k.as_ref() {
                        "number" if number.is_none() => number = Some(m.next_value()?),
                        "text" if text.is_none() => text = Some(m.next_value()?),
                        "number" | "text" => return Err(A::Error::custom("duplicate key")),
                        _ => {
                            m.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                match (number.flatten(), text.flatten()) {
                    (Some(number), Some(text)) => Ok(Line(ReadLine { number, text })),
                    _ => Err(A::Error::custom("number and text wanted")),
                }
            }
        }
        d.deserialize_map(Obj)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::View;
    use serde_json::{Value, json};

    fn lenient(v: &Value) -> Option<ReadView> {
        match View::parse(v) {
            Ok(View::Read(r)) => Some(r),
            _ => None,
        }
    }

    #[test]
    fn the_same_views_as_the_lenient_parse() {
        let good = json!({"card": "read", "title": "Read a", "path": "src/a.rs", "offset": 3,
            "lines": [{"number": 3, "text": "fn a() {}", "extra": [1]}, {"number": 4, "text": ""}],
            "totalLines": 40, "lang": "rs", "unknown": {"x": 1}});
        let fast = read_view(&good.to_string()).unwrap();
        assert_eq!(Some(fast), lenient(&good));
        // Nulls read as missing; defaults as the lenient parse has them.
        let nulls = json!({"card": "read", "title": null, "path": "p", "offset": null,
            "lines": [], "totalLines": null, "lang": null, "content": null});
        assert_eq!(read_view(&nulls.to_string()), lenient(&nulls));
        assert!(read_view(&nulls.to_string()).is_some());
        // Whatever it is not sure of is left to the lenient parse.
        for (k, v) in [
            ("card", json!("terminal")),
            ("card", json!(1)),
            ("path", json!(3)),
            ("path", Value::Null),
            ("offset", json!(-1)),
            ("offset", json!(2.0)),
            ("totalLines", json!("9")),
            ("lang", json!([])),
            ("title", json!({})),
            ("lines", json!({})),
            ("lines", Value::Null),
            ("lines", json!([[1, "x"]])),
            ("lines", json!([{"number": 1}])),
            ("lines", json!([{"number": null, "text": "x"}])),
            ("lines", json!([{"number": 1, "text": 2}])),
            ("content", json!([{"type": "text", "text": "x"}])),
            ("content", json!(7)),
        ] {
            let mut view = good.clone();
            view[k] = v.clone();
            assert_eq!(read_view(&view.to_string()), None, "{k}: {v}");
        }
        assert_eq!(read_view("[\"read\", null, \"p\"]"), None);
        // Numbers written oddly: the same answer either way.
        for n in [
            "-0",
            "0.0",
            "1e2",
            "18446744073709551615",
            "18446744073709551616",
            "007",
        ] {
            let text =
                format!(r#"{{"card":"read","path":"p","lines":[{{"number":{n},"text":"x"}}]}}"#);
            let tree: Option<Value> = serde_json::from_str(&text).ok();
            assert_eq!(read_view(&text), tree.as_ref().and_then(lenient), "{n}");
        }
        assert_eq!(
            read_view(r#"{"card":"read","path":"a","path":"b","lines":[]}"#),
            None
        );
        assert_eq!(
            read_view(r#"{"card":"read","path":"a","lines":[{"number":1,"number":2,"text":"x"}]}"#),
            None
        );
    }
}
