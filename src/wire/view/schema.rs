//! The JSON Schema (draft 2020-12) of the views deck reads (`deck schema`),
//! made from the structs the decoder reads them into (their `JsonSchema`
//! derives, beside their `Deserialize` ones) and the tables it switches on
//! (`card`, a search view's `shape`, a web view's `kind`), so that schema and
//! decoder cannot tell two stories.
//!
//! The schema is laid out so that a validator names the field deck names:
//! the card and its shape or kind are picked with `if`/`then` (not `oneOf`,
//! whose error is about the whole view), so a view that falls back fails
//! validation at the field path on its fallback card (`diffs[0].path` is
//! `/diffs/0/path`; a missing field is a `required` error on its parent).
//!
//! What the schema cannot say, the descriptions do: numbers are read as
//! integers only when written without a fraction or exponent (JSON Schema
//! takes `1.0` for an integer), and a `kind` of a generic view outside the
//! protocol's list is kept as sent (drawn as `other`; `deck lint` warns).

use schemars::{Schema, SchemaGenerator, generate::SchemaSettings, json_schema};
use serde_json::{Map, Value, json};

use super::decode::{SEARCH_SHAPES, Tag, WEB_KINDS};
use super::{CARD_TAGS, GENERIC_KINDS};

/// What every view's description ends with.
const UNKNOWN_FIELDS: &str = "Unknown fields are ignored (every object allows them: `additionalProperties` is true). `null` in an optional field is the same as leaving it out. An integer is read only when written as one: no fraction, no exponent (`1.0` is not 1). A view that does not fit (a field of the wrong type, a required field missing, an unknown `card`, `shape` or `kind`) is not dropped: deck draws the generic fallback card instead — the tool's name, the call's arguments, the result's text — and says which field and why (`deck lint` lists them).";

/// The schema of every view (`card: None`) or of one card's views; `None`
/// for a tag that is not a card.
pub fn schema(card: Option<&str>) -> Option<Value> {
    let mut generator = SchemaSettings::draft2020_12().into_generator();
    let mut root = match card {
        None => every_card(&mut generator),
        Some(tag) => {
            let mut one = card_schema(tag, &mut generator)?;
            let mut described = Map::new();
            described.insert("title".into(), json!(format!("A deck `{tag}` view")));
            described.append(&mut one);
            described
        }
    };
    let mut out = Map::new();
    out.insert(
        "$schema".into(),
        json!("https://json-schema.org/draft/2020-12/schema"),
    );
    out.append(&mut root);
    let defs = generator.take_definitions(true);
    if !defs.is_empty() {
        out.insert("$defs".into(), Value::Object(defs));
    }
    let mut out = Value::Object(out);
    bound_integers(&mut out);
    Some(out)
}

/// The bounds of the integers deck reads (`int64`, `uint64`): a number
/// past them is not read, so the schema says so.
fn bound_integers(v: &mut Value) {
    match v {
        Value::Object(o) => {
            match o.get("format").and_then(Value::as_str) {
                Some("int64") => {
                    o.insert("minimum".into(), json!(i64::MIN));
                    o.insert("maximum".into(), json!(i64::MAX));
                }
                Some("uint64") => {
                    o.insert("minimum".into(), json!(0));
                    o.insert("maximum".into(), json!(u64::MAX));
                }
                _ => {}
            }
            o.values_mut().for_each(bound_integers);
        }
        Value::Array(a) => a.iter_mut().for_each(bound_integers),
        _ => {}
    }
}

/// The root schema: `card` picks one card's schema.
fn every_card(generator: &mut SchemaGenerator) -> Map<String, Value> {
    let mut cards = Vec::new();
    for tag in CARD_TAGS {
        if let Some(schema) = card_schema(tag, generator) {
            cards.push(when("card", tag, Value::Object(schema)));
        }
    }
    let root = json!({
        "title": "A deck view (DSH render intent)",
        "description": format!("A view a DSH tool's `presentCall` or `presentResult` returns: the card deck draws for the call, picked by `card`. {UNKNOWN_FIELDS}"),
        "type": "object",
        "properties": {
            "card": {
                "type": "string",
                "enum": CARD_TAGS,
                "description": "The card to draw. A call view is one of generic, terminal, diff; a result view any of the six. Any other value: the generic fallback card.",
            },
        },
        "required": ["card"],
        "allOf": cards,
    });
    object(root)
}

/// One card's schema: `card` (and the shape or kind that picks its struct)
/// and its fields.
fn card_schema(tag: &str, generator: &mut SchemaGenerator) -> Option<Map<String, Value>> {
    let by = |key: &str, table: &[(&str, Tag)], generator: &mut SchemaGenerator, about: &str| {
        let values: Vec<&str> = table.iter().map(|(v, _)| *v).collect();
        let picks: Vec<Value> = table
            .iter()
            .map(|(v, t)| when(key, v, t.schema(generator).to_value()))
            .collect();
        json!({
            "type": "object",
            "properties": {
                "card": {"const": tag},
                key: {"type": "string", "enum": values, "description": about},
            },
            "required": ["card", key],
            "allOf": picks,
        })
    };
    let one = |t: Tag, generator: &mut SchemaGenerator| {
        json!({
            "$ref": t.schema(generator).get("$ref"),
            "type": "object",
            "properties": {"card": {"const": tag}},
            "required": ["card"],
        })
    };
    let schema = match tag {
        "generic" => one(Tag::Generic, generator),
        "terminal" => one(Tag::Terminal, generator),
        "diff" => one(Tag::Diff, generator),
        "read" => one(Tag::Read, generator),
        "search" => by(
            "shape",
            SEARCH_SHAPES,
            generator,
            "`matches`: files and their matching lines (a grep); `paths`: paths (a glob). Any other value, or none: the generic fallback card.",
        ),
        "web" => by(
            "kind",
            WEB_KINDS,
            generator,
            "`search`: the pages a web search found; `fetch`: a page fetched. Any other value, or none: the generic fallback card.",
        ),
        _ => return None,
    };
    let mut schema = object(schema);
    let about = Value::String(format!("A `{tag}` view. {UNKNOWN_FIELDS}"));
    schema.insert("description".into(), about);
    schema.insert("additionalProperties".into(), Value::Bool(true));
    Some(schema)
}

/// `if key == value then schema` (the key required, so that a view without
/// it is not taken for this one).
fn when(key: &str, value: &str, then: Value) -> Value {
    json!({
        "if": {"properties": {key: {"const": value}}, "required": [key]},
        "then": then,
    })
}

fn object(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

/// A generic view's `kind`: the protocol's kinds.
pub(super) fn generic_kind(_: &mut SchemaGenerator) -> Schema {
    let mut kinds: Vec<Value> = GENERIC_KINDS.iter().map(|k| json!(k)).collect();
    kinds.push(Value::Null);
    json_schema!({
        "type": ["string", "null"],
        "enum": kinds,
        "description": "What the call does, a glyph hint (`execute` draws the input as a command). deck keeps any other string as sent and draws it as `other` (`deck lint` warns).",
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_card_has_a_schema_and_nothing_else_does() {
        for tag in CARD_TAGS {
            let s = schema(Some(tag)).unwrap();
            assert_eq!(s["properties"]["card"]["const"], json!(tag), "{tag}");
        }
        assert!(schema(Some("hologram")).is_none());
        let all = schema(None).unwrap();
        assert_eq!(all["properties"]["card"]["enum"], json!(CARD_TAGS));
        assert_eq!(all["allOf"].as_array().unwrap().len(), CARD_TAGS.len());
    }

    #[test]
    fn a_card_alone_holds_only_the_definitions_it_uses() {
        let s = schema(Some("terminal")).unwrap();
        let defs: Vec<&String> = s["$defs"].as_object().unwrap().keys().collect();
        assert_eq!(defs, ["TerminalView"]);
        let s = schema(Some("search")).unwrap();
        assert_eq!(
            s["properties"]["shape"]["enum"],
            json!(["matches", "paths"])
        );
    }
}
