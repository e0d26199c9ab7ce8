//! `deck schema`: the JSON Schema of views, checked by a validator
//! (`jsonschema`) against what deck's decoder does — every view of the real
//! captures is valid; every hostile view fails exactly at the field its
//! fallback card names; for random views, valid ⇔ deck reads it.

use std::collections::BTreeSet;

use deck::wire::View;
use deck::wire::view::schema::schema;
use jsonschema::error::ValidationErrorKind;
use proptest::prelude::*;
use serde_json::Value;

use crate::common::{self, arb, hostile};

fn validator(card: Option<&str>) -> jsonschema::Validator {
    jsonschema::draft202012::new(&schema(card).unwrap()).unwrap()
}

/// Where `view` fails `v`, each place as deck names fields (a missing
/// field is named, not its parent), with the keywords that failed.
fn failures(v: &jsonschema::Validator, view: &Value) -> BTreeSet<(String, String)> {
    v.iter_errors(view)
        .map(|e| {
            let mut at = hostile::label(e.instance_path().as_str());
            if let ValidationErrorKind::Required { property } = e.kind() {
                if !at.is_empty() {
                    at.push('.');
                }
                at.push_str(property.as_str().unwrap_or_default());
            }
            (at, e.kind().keyword().to_string())
        })
        .collect()
}

fn places(f: &BTreeSet<(String, String)>) -> BTreeSet<String> {
    f.iter().map(|(at, _)| at.clone()).collect()
}

/// Every view the host sent in a capture's frame log.
fn capture_views(name: &str) -> Vec<Value> {
    let loaded = deck::source::load_path(&common::capture_str(name, "frames.jsonl")).unwrap();
    let mut out = Vec::new();
    for s in &loaded.sessions {
        for r in &s.records {
            if let deck::wire::Record::Event { view: Some(v), .. } = r {
                out.push(serde_json::from_str(v.view.as_str()).unwrap());
            }
        }
    }
    out
}

#[test]
fn every_view_of_the_real_captures_is_valid_against_the_schema_and_its_cards() {
    let all = validator(None);
    for name in common::CAPTURES {
        let views = capture_views(name);
        assert!(views.len() >= 40, "{name}: {} views", views.len());
        let mut cards = BTreeSet::new();
        for view in &views {
            assert!(View::from_json(&view.to_string()).is_ok(), "{view}");
            assert_eq!(failures(&all, view), BTreeSet::new(), "{name}: {view}");
            let card = view["card"].as_str().unwrap();
            cards.insert(card.to_string());
            // The card's own schema (`deck schema --card TAG`) takes it too…
            assert!(validator(Some(card)).is_valid(view), "{card}: {view}");
            // …and another card's does not.
            let other = if card == "generic" {
                "terminal"
            } else {
                "generic"
            };
            assert!(!validator(Some(other)).is_valid(view), "{other}: {view}");
        }
        // Every card the captures hold was checked.
        assert!(cards.len() >= 5, "{name}: {cards:?}");
    }
}

#[test]
fn every_view_of_the_showcase_is_valid_or_fails_where_deck_says() {
    // The showcase holds every card variant, and views that fall back.
    let path = format!(
        "{}/demo-sessions/showcase.jsonl",
        env!("CARGO_MANIFEST_DIR")
    );
    let loaded = deck::source::load_path(&path).unwrap();
    let all = validator(None);
    let (mut valid, mut broken) = (0, 0);
    for r in &loaded.sessions[0].records {
        let deck::wire::Record::Event { view: Some(v), .. } = r else {
            continue;
        };
        let view: Value = serde_json::from_str(v.view.as_str()).unwrap();
        let found = places(&failures(&all, &view));
        match View::from_json(v.view.as_str()) {
            Ok(_) => {
                valid += 1;
                assert_eq!(found, BTreeSet::new(), "{view}");
            }
            Err(e) => {
                broken += 1;
                let (field, _) = e.view_field().unwrap();
                assert_eq!(found, BTreeSet::from([field.to_string()]), "{view}: {e}");
            }
        }
    }
    assert!(valid >= 20 && broken >= 1, "{valid} valid, {broken} broken");
}

#[test]
fn every_hostile_view_fails_the_schema_at_the_field_deck_names() {
    let all = validator(None);
    let cases = hostile::cases();
    let broken = cases.iter().filter(|c| c.broken.is_some()).count();
    assert!(broken > 80, "{broken} broken views");
    for case in &cases {
        let found = failures(&all, &case.view);
        let decoded = View::from_json(&case.view.to_string());
        match &case.broken {
            None => {
                assert!(decoded.is_ok(), "{}", case.view);
                assert_eq!(found, BTreeSet::new(), "{}", case.view);
            }
            Some(b) => {
                let e = decoded.unwrap_err();
                // Deck names this field…
                let (field, _) = e.view_field().unwrap();
                assert_eq!(field, b.field, "{}: {e}", case.view);
                // …and so does the validator, and nothing else.
                let want = BTreeSet::from([b.field.clone()]);
                assert_eq!(places(&found), want, "{}: {found:?}", case.view);
                // A card's own schema fails it at the same field.
                if let Some(card) = case.view["card"].as_str()
                    && deck::wire::view::CARD_TAGS.contains(&card)
                {
                    let one = failures(&validator(Some(card)), &case.view);
                    assert_eq!(places(&one), want, "{card}: {}: {one:?}", case.view);
                }
            }
        }
    }
}

#[test]
fn the_schema_says_what_deck_does_with_unknown_fields_and_the_enums() {
    let s = schema(None).unwrap();
    assert_eq!(s["$schema"], "https://json-schema.org/draft/2020-12/schema");
    assert!(
        s["description"]
            .as_str()
            .unwrap()
            .contains("Unknown fields are ignored")
    );
    // An unknown field anywhere is valid.
    let v = validator(None);
    let view = serde_json::json!({"card": "diff", "futureField": {"x": 1},
        "diffs": [{"path": "a", "newText": "b", "hunkHeader": "@@"}]});
    assert!(v.is_valid(&view));
    assert!(View::from_json(&view.to_string()).is_ok());
    let defs = s["$defs"].as_object().unwrap();
    for (name, def) in defs {
        assert_eq!(def["additionalProperties"], true, "{name}");
        assert!(def["description"].is_string(), "{name}");
    }
    // The enums: card, a search's shape, a web view's kind, a generic kind.
    assert_eq!(
        s["properties"]["card"]["enum"],
        serde_json::json!(["generic", "terminal", "diff", "read", "search", "web"])
    );
    let search = schema(Some("search")).unwrap();
    assert_eq!(
        search["properties"]["shape"]["enum"],
        serde_json::json!(["matches", "paths"])
    );
    let web = schema(Some("web")).unwrap();
    assert_eq!(
        web["properties"]["kind"]["enum"],
        serde_json::json!(["search", "fetch"])
    );
    let kinds = &defs["GenericView"]["properties"]["kind"]["enum"];
    assert!(kinds.as_array().unwrap().contains(&"execute".into()));
    // Required fields are the ones deck cannot do without.
    assert_eq!(
        defs["FileDiff"]["required"],
        serde_json::json!(["path", "newText"])
    );
    assert_eq!(
        defs["ReadView"]["required"],
        serde_json::json!(["path", "lines"])
    );
}

#[test]
fn deck_schema_prints_the_schema_and_one_card() {
    let out: Value = serde_json::from_str(&common::deck_ok(&["schema"])).unwrap();
    assert_eq!(out, schema(None).unwrap());
    let out: Value = serde_json::from_str(&common::deck_ok(&["schema", "--card", "read"])).unwrap();
    assert_eq!(out, schema(Some("read")).unwrap());
    assert_eq!(out["properties"]["card"]["const"], "read");
    let o = common::deck(&["schema", "--card", "hologram"]);
    assert_eq!(o.status.code(), Some(2));
    let err = common::stderr(&o);
    assert!(
        err.contains("hologram") && err.contains("terminal"),
        "{err}"
    );
}

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(256);
    ProptestConfig {
        cases,
        // Beside this file, as `robust/props.rs` keeps its own.
        failure_persistence: Some(Box::new(
            proptest::test_runner::FileFailurePersistence::WithSource("proptest-regressions"),
        )),
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    /// For any view (valid, corrupted, of an unknown card, not an object),
    /// the schema takes it exactly when deck reads it, and when deck does
    /// not, the validator names the field deck names. (A generic view's
    /// `kind` outside the protocol's list is the one difference: deck keeps
    /// it, the schema's enum does not.)
    #[test]
    fn the_schema_takes_a_view_exactly_when_deck_reads_it(view in arb::view()) {
        let v = validator(None);
        let found: BTreeSet<(String, String)> = failures(&v, &view)
            .into_iter()
            .filter(|(at, keyword)| {
                !(view["card"] == "generic" && at == "kind" && keyword == "enum"
                    && view["kind"].is_string())
            })
            .collect();
        match View::from_json(&view.to_string()) {
            Ok(_) => prop_assert!(found.is_empty(), "{view}: {found:?}"),
            Err(e) => {
                let (field, _) = e.view_field().unwrap();
                prop_assert!(
                    places(&found).contains(field),
                    "{view}: deck says {e}, the schema {found:?}"
                );
            }
        }
    }
}
