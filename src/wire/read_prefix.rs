//! A `read` view typed only as far as a screen needs: its fields and its
//! first lines, the rest of `lines` counted (and the last number kept)
//! without keeping their text, `content` skipped. Opening a card of a
//! 20 MB file must draw before the whole view could be typed; the full
//! view is typed off the UI thread meanwhile.
//!
//! The first scan goes over the whole text once (serde, no values kept
//! past the limit) and returns the view's [`Shape`]; given that shape, a
//! later scan stops right after the lines it keeps. Anything unexpected
//! (another card, a wrong type, no lines) gives `None`: the caller types
//! the view the ordinary, lenient way, which also says what is wrong.

use std::borrow::Cow;
use std::fmt;

use serde::Deserialize;
use serde::de::{
    DeserializeSeed, Deserializer, Error as _, IgnoredAny, MapAccess, SeqAccess, Visitor,
};

use super::de::strict::Obj;
use super::view::{MoreLines, ReadLine, ReadView};

/// Everything of a read view but its lines' text: what a scan that stops
/// early cannot see.
#[derive(Debug, Clone, PartialEq)]
pub struct Shape {
    title: Option<String>,
    path: String,
    offset: u64,
    total_lines: u64,
    lang: Option<String>,
    /// Lines in the view, and the number of the last one.
    count: usize,
    last: u64,
    /// One `lines` key (a later duplicate would win, so a scan that stops
    /// at the first cannot be trusted otherwise).
    stoppable: bool,
}

/// The view in `json` with at most `limit` lines kept, when it is a `read`
/// view with lines that types cleanly, and its shape. With the `known`
/// shape of the same text (from an earlier call), only the text up to the
/// kept lines is read.
pub fn read_prefix(json: &str, limit: usize, known: Option<&Shape>) -> Option<(ReadView, Shape)> {
    let mut found = Found::default();
    let mut de = serde_json::Deserializer::from_str(json);
    let seed = Prefix {
        limit,
        stop: known.is_some_and(|k| k.stoppable),
        found: &mut found,
    };
    let whole = seed.deserialize(&mut de).is_ok() && de.end().is_ok();
    let shape = match known {
        Some(k) if found.stopped || whole => k.clone(),
        _ if whole => found.shape()?,
        _ => return None,
    };
    if found.lines.is_empty() {
        // No lines: the card shows `content`, which was skipped.
        return None;
    }
    let kept = found.lines.len();
    let more = (shape.count > kept).then_some(MoreLines {
        count: shape.count - kept,
        last: shape.last,
    });
    let view = ReadView {
        title: shape.title.clone(),
        path: shape.path.clone(),
        offset: shape.offset,
        lines: found.lines,
        total_lines: shape.total_lines,
        lang: shape.lang.clone(),
        content: None,
        more,
    };
    Some((view, shape))
}

/// What a scan saw.
#[derive(Default)]
struct Found {
    card: bool,
    title: Option<String>,
    path: Option<String>,
    offset: Option<u64>,
    total_lines: Option<u64>,
    lang: Option<String>,
    lines: Vec<ReadLine>,
    /// The `lines` array was read to its end: count and last number.
    counted: Option<(usize, u64)>,
    /// The scan stopped on purpose after the kept lines.
    stopped: bool,
    /// `lines` keys seen.
    lines_keys: usize,
}

impl Found {
    fn shape(&self) -> Option<Shape> {
        let (count, last) = self.counted?;
        (self.card && self.path.is_some()).then(|| Shape {
            title: self.title.clone(),
            path: self.path.clone().unwrap_or_default(),
            offset: self.offset.unwrap_or(1),
            total_lines: self.total_lines.unwrap_or(0),
            lang: self.lang.clone(),
            count,
            last,
            stoppable: self.lines_keys == 1,
        })
    }
}

/// The error a scan stops with once it has what it needs.
const ENOUGH: &str = "enough lines";

struct Prefix<'f> {
    limit: usize,
    /// Stop after the kept lines (the rest is known).
    stop: bool,
    found: &'f mut Found,
}

impl<'de> DeserializeSeed<'de> for Prefix<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Prefix<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a read view")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let f = self.found;
        // Later duplicates win, as in the lenient parse.
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            match key.as_ref() {
                "card" => {
                    let c: Cow<'de, str> = map.next_value()?;
                    if c != "read" {
                        return Err(A::Error::custom("not a read view"));
                    }
                    f.card = true;
                }
                "title" => f.title = map.next_value()?,
                "path" => f.path = map.next_value()?,
                "offset" => f.offset = map.next_value()?,
                "totalLines" => f.total_lines = map.next_value()?,
                "lang" => f.lang = map.next_value()?,
                "lines" => {
                    f.lines.clear();
                    f.lines_keys += 1;
                    let seed = Lines {
                        limit: self.limit,
                        stop: self.stop,
                        found: &mut *f,
                    };
                    map.next_value_seed(seed)?;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(())
    }
}

/// The `lines` array: the first `limit` kept, the rest counted (or, with
/// `stop`, not read at all).
struct Lines<'f> {
    limit: usize,
    stop: bool,
    found: &'f mut Found,
}

/// A line past the limit: its number; its text skipped (not checked to be
/// a string: the full, lenient typing that follows does that).
#[derive(Deserialize)]
struct Skimmed {
    number: u64,
    #[serde(rename = "text")]
    _text: IgnoredAny,
}

impl<'de> DeserializeSeed<'de> for Lines<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Lines<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an array of lines")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let f = self.found;
        let (mut count, mut last) = (0, 0);
        while f.lines.len() < self.limit {
            match seq.next_element::<Obj<ReadLine>>()? {
                Some(Obj(line)) => {
                    (count, last) = (count + 1, line.number);
                    f.lines.push(line);
                }
                None => {
                    f.counted = Some((count, last));
                    return Ok(());
                }
            }
        }
        if self.stop {
            f.stopped = true;
            return Err(A::Error::custom(ENOUGH));
        }
        while let Some(s) = seq.next_element::<Skimmed>()? {
            (count, last) = (count + 1, s.number);
        }
        f.counted = Some((count, last));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::View;
    use serde_json::json;

    fn full(v: &serde_json::Value) -> ReadView {
        match View::parse(v).unwrap() {
            View::Read(r) => r,
            other => panic!("{other:?}"),
        }
    }

    fn sample() -> serde_json::Value {
        let lines: Vec<_> = (1..=50)
            .map(|n| json!({"number": n + 9, "text": format!("line \"{n}\"\t\u{1b}x")}))
            .collect();
        json!({"card": "read", "title": "Read a.rs", "path": "/a.rs", "offset": 10,
               "lines": lines, "totalLines": 400, "lang": "rs",
               "content": [{"type": "text", "text": "x"}], "extra": {"deep": [1, 2]}})
    }

    #[test]
    fn a_prefix_is_the_full_view_cut_short() {
        let v = sample();
        let whole = full(&v);
        let text = v.to_string();
        // Everything kept: the lenient parse's view (minus the skipped content).
        let all = read_prefix(&text, 1000, None).unwrap().0;
        assert_eq!(all.lines, whole.lines);
        assert_eq!((all.more, all.content), (None, None));
        assert_eq!(
            (
                &all.title,
                &all.path,
                all.offset,
                all.total_lines,
                &all.lang
            ),
            (
                &whole.title,
                &whole.path,
                whole.offset,
                whole.total_lines,
                &whole.lang
            )
        );
        // Twelve kept, 38 counted, the last number known.
        let (head, shape) = read_prefix(&text, 12, None).unwrap();
        assert_eq!(head.lines, whole.lines[..12]);
        assert_eq!(
            head.more,
            Some(MoreLines {
                count: 38,
                last: 59
            })
        );
        // Knowing the shape, a scan stops after its lines: same view, even
        // with the rest of the text cut away.
        let (again, same) = read_prefix(&text, 12, Some(&shape)).unwrap();
        assert_eq!((&again, &same), (&head, &shape));
        let cut = &text[..text.find(r#""number":30"#).unwrap()];
        assert_eq!(read_prefix(cut, 12, Some(&shape)).unwrap().0, head);
        assert_eq!(read_prefix(cut, 12, None), None);
        // Fewer lines than the limit: all of them, nothing more.
        let (all, _) = read_prefix(&text, 80, Some(&shape)).unwrap();
        assert_eq!((all.lines.len(), all.more), (50, None));
    }

    #[test]
    fn anything_else_is_left_to_the_lenient_parse() {
        let text = |v: serde_json::Value| v.to_string();
        let mut v = sample();
        v["card"] = json!("terminal");
        assert_eq!(read_prefix(&text(v), 5, None), None);
        for (field, wrong) in [
            ("path", json!(3)),
            ("offset", json!(-1)),
            ("totalLines", json!("many")),
            ("lang", json!([])),
            ("lines", json!({})),
            ("lines", json!([])),
            ("lines", json!([{"number": 1, "text": 2}])),
            (
                "lines",
                json!([{"number": 1, "text": "a"}, {"number": "2", "text": "b"}]),
            ),
            ("lines", json!([{"number": 1, "text": "a"}, {"number": 2}])),
        ] {
            let mut v = sample();
            v[field] = wrong;
            assert_eq!(read_prefix(&text(v), 1, None), None, "{field}");
        }
        let mut v = sample();
        v.as_object_mut().unwrap().remove("path");
        assert_eq!(read_prefix(&text(v), 5, None), None);
        assert_eq!(read_prefix("not json", 5, None), None);
        assert_eq!(
            read_prefix(&format!("{} trailing", sample()), 5, None),
            None
        );
        // Nulls read as absent, as in the lenient parse.
        let mut v = sample();
        v["offset"] = json!(null);
        v["lang"] = json!(null);
        let p = read_prefix(&text(v.clone()), 5, None).unwrap().0;
        let f = full(&v);
        assert_eq!((p.offset, p.lang), (f.offset, f.lang));
    }
}
