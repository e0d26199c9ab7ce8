//! The hostile views: a valid view of each card (and shape, and kind), and
//! from each, one broken view per field — the field given a value of
//! another type, or a required field taken out — plus unknown tags and
//! views that are not objects. Each broken view says which field deck's
//! fallback card names. `log` puts each in a call's result, one call each.

use serde_json::{Value, json};

use super::build;

/// The turn every log starts with.
pub const TURN_START: &str = r#"{"type":"turn/start","seq":0,"time":1,"data":{"turn":1}}"#;

/// One view, and what deck says of it.
pub struct Case {
    pub view: Value,
    /// `None`: a valid view.
    pub broken: Option<Broken>,
}

/// Why a view falls back.
pub struct Broken {
    /// The field as the fallback card names it (`files[0].matches[0].line`;
    /// `card`, `shape`, `kind` for the tags; empty for the view itself).
    pub field: String,
    /// What the fallback reason holds.
    pub says: String,
}

/// A valid view of each card (and shape / kind), the JSON pointers of its
/// fields, and those of its required fields.
pub fn views() -> Vec<(Value, Vec<&'static str>, Vec<&'static str>)> {
    vec![
        (
            json!({"card": "generic", "title": "T", "kind": "read",
                   "content": [{"type": "text", "text": "c"}], "locations": [{"path": "p", "line": 1}]}),
            vec![
                "/title",
                "/kind",
                "/content",
                "/content/0",
                "/content/0/text",
                "/locations",
                "/locations/0",
                "/locations/0/path",
                "/locations/0/line",
            ],
            vec!["/content/0/type", "/content/0/text", "/locations/0/path"],
        ),
        (
            json!({"card": "terminal", "title": "T", "description": "d", "cwd": "/", "output": "o",
                   "exitCode": 0, "signal": "TERM"}),
            vec![
                "/title",
                "/description",
                "/cwd",
                "/output",
                "/exitCode",
                "/signal",
            ],
            vec![],
        ),
        (
            json!({"card": "diff", "title": "T", "diffs": [{"path": "a", "oldText": "x", "newText": "y"}],
                   "locations": [{"path": "a"}]}),
            vec![
                "/title",
                "/diffs",
                "/diffs/0",
                "/diffs/0/path",
                "/diffs/0/oldText",
                "/diffs/0/newText",
                "/locations/0/path",
            ],
            vec![
                "/diffs",
                "/diffs/0/path",
                "/diffs/0/newText",
                "/locations/0/path",
            ],
        ),
        (
            json!({"card": "search", "shape": "matches", "title": "T", "truncated": false, "total": 1,
                   "files": [{"path": "a", "matches": [{"lineNumber": 1, "line": "l"}]}]}),
            vec![
                "/title",
                "/shape",
                "/files",
                "/files/0",
                "/files/0/path",
                "/files/0/matches",
                "/files/0/matches/0",
                "/files/0/matches/0/lineNumber",
                "/files/0/matches/0/line",
                "/truncated",
                "/total",
            ],
            vec![
                "/shape",
                "/files",
                "/files/0/path",
                "/files/0/matches",
                "/files/0/matches/0/line",
            ],
        ),
        (
            json!({"card": "search", "shape": "paths", "paths": ["a"]}),
            vec!["/paths", "/paths/0"],
            vec!["/paths"],
        ),
        (
            json!({"card": "read", "title": "T", "path": "a.rs", "offset": 1, "totalLines": 1, "lang": "rs",
                   "lines": [{"number": 1, "text": "x"}], "content": [{"type": "text", "text": "x"}]}),
            vec![
                "/title",
                "/path",
                "/offset",
                "/lines",
                "/lines/0",
                "/lines/0/number",
                "/lines/0/text",
                "/totalLines",
                "/lang",
                "/content",
                "/content/0/text",
            ],
            vec![
                "/path",
                "/lines",
                "/lines/0/number",
                "/lines/0/text",
                "/content/0/type",
            ],
        ),
        (
            json!({"card": "web", "kind": "search", "title": "T", "answer": "a", "truncated": false,
                   "sources": [{"url": "u", "title": "t", "snippet": "s", "publishedAt": "p"}],
                   "failures": [{"query": "q", "code": "c", "message": "m"}]}),
            vec![
                "/title",
                "/kind",
                "/sources",
                "/sources/0",
                "/sources/0/url",
                "/sources/0/title",
                "/sources/0/snippet",
                "/sources/0/publishedAt",
                "/answer",
                "/failures",
                "/failures/0/query",
                "/failures/0/code",
                "/failures/0/message",
                "/truncated",
            ],
            vec!["/kind", "/sources/0/url"],
        ),
        (
            json!({"card": "web", "kind": "fetch", "url": "u", "statusCode": 200}),
            vec!["/url", "/statusCode"],
            vec!["/url"],
        ),
    ]
}

/// A value of another type than `v`.
pub fn wrong(v: &Value) -> Value {
    match v {
        Value::String(_) => json!(7),
        Value::Number(_) => json!("seven"),
        Value::Bool(_) => json!("yes"),
        Value::Array(_) => json!({"not": "an array"}),
        Value::Object(_) => json!("not an object"),
        Value::Null => json!(1),
    }
}

/// `/files/0/matches/0/line` → `files[0].matches[0].line`.
pub fn label(pointer: &str) -> String {
    let mut out = String::new();
    for seg in pointer.trim_start_matches('/').split('/') {
        if seg.is_empty() {
            continue;
        }
        if seg.parse::<usize>().is_ok() {
            out.push_str(&format!("[{seg}]"));
        } else {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(seg);
        }
    }
    out
}

/// `v` without the value at `pointer`.
fn without(v: &Value, pointer: &str) -> Value {
    let mut v = v.clone();
    let (parent, key) = pointer.rsplit_once('/').unwrap();
    let parent = if parent.is_empty() {
        &mut v
    } else {
        v.pointer_mut(parent).unwrap()
    };
    parent.as_object_mut().unwrap().remove(key).unwrap();
    v
}

/// Every case: each valid view, then its broken ones; then the broken tags.
pub fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    for (base, fields, required) in views() {
        out.push(Case {
            view: base.clone(),
            broken: None,
        });
        for f in fields {
            let mut v = base.clone();
            let slot = v.pointer_mut(f).unwrap();
            *slot = wrong(slot);
            out.push(Case {
                view: v,
                broken: Some(Broken {
                    field: label(f),
                    says: label(f),
                }),
            });
        }
        for f in required {
            let says = match f {
                "/shape" => r#"search view without a string "shape""#.to_string(),
                "/kind" => r#"web view without a string "kind""#.to_string(),
                f => format!("{}: missing", label(f)),
            };
            out.push(Case {
                view: without(&base, f),
                broken: Some(Broken {
                    field: label(f),
                    says,
                }),
            });
        }
    }
    // Unknown tags, shapes and kinds; not an object; no tag.
    for (view, field, says) in [
        (
            json!({"card": "hologram"}),
            "card",
            "unknown card \"hologram\"",
        ),
        (
            json!({"card": 5}),
            "card",
            "card: expected string, got number",
        ),
        (
            json!({"card": "search", "shape": "grid"}),
            "shape",
            "unknown search shape \"grid\"",
        ),
        (
            json!({"card": "web", "kind": "video"}),
            "kind",
            "unknown web kind \"video\"",
        ),
        (
            json!(["not", "an", "object"]),
            "",
            "view is array, not an object",
        ),
        (json!({"title": "T"}), "card", "view has no \"card\" tag"),
    ] {
        out.push(Case {
            view,
            broken: Some(Broken {
                field: field.into(),
                says: says.into(),
            }),
        });
    }
    out
}

/// Call `c{seq}` of tool `probe{seq}` and its empty result, with `view`
/// for the result: two frame lines.
pub fn probe(seq: u64, view: Value) -> [String; 2] {
    let call = format!("c{seq}");
    [
        build::frame(
            build::event(
                "tool/call",
                seq,
                3,
                build::call_data(&call, &format!("probe{seq}"), "{}"),
            ),
            None,
        )
        .to_string(),
        build::frame(
            build::event(
                "tool/result",
                seq + 1,
                4,
                build::result_data(&call, json!([]), false),
            ),
            Some(("result", view)),
        )
        .to_string(),
    ]
}

/// A frame log with each case's view as the result view of its own call
/// (`c1`, `c3` …), and the line of each view's frame (1-based).
pub fn log(cases: &[Case]) -> (String, Vec<usize>) {
    let mut lines = vec![TURN_START.to_string()];
    let mut at = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        lines.extend(probe(1 + 2 * i as u64, case.view.clone()));
        at.push(lines.len());
    }
    (lines.join("\n") + "\n", at)
}
