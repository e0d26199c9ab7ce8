//! Views typed from their text and from their tree: the same views, and
//! the reasons the fallback cards show.

use super::*;
use serde_json::json;

/// The view typed from its text, which must agree with its tree.
fn typed(v: &Value) -> Result<View, WireError> {
    let from_text = View::from_json(&v.to_string());
    assert_eq!(from_text, View::parse(v), "{v}");
    from_text
}

#[test]
fn parses_every_tag() {
    let cases = [
        json!({"card":"generic","title":"t","kind":"read","locations":[{"path":"a","line":1}]}),
        json!({"card":"terminal","title":"ls","output":"x","exitCode":0}),
        json!({"card":"diff","title":"Edit","diffs":[{"path":"a","oldText":null,"newText":"x"}]}),
        json!({"card":"search","shape":"matches","files":[{"path":"a","matches":[{"lineNumber":1,"line":"x"}]}],"truncated":false,"total":1}),
        json!({"card":"search","shape":"paths","paths":["a"],"truncated":true,"total":9}),
        json!({"card":"read","path":"a","offset":1,"lines":[{"number":1,"text":"x"}],"totalLines":1,"lang":"py"}),
        json!({"card":"web","kind":"search","sources":[{"url":"u"}],"truncated":false}),
        json!({"card":"web","kind":"fetch","url":"u","statusCode":200,"truncated":false}),
    ];
    for c in cases {
        let v = typed(&c).unwrap_or_else(|e| panic!("{c}: {e}"));
        assert_eq!(v.tag(), c["card"].as_str().unwrap());
        assert_eq!(View::tag_of(&c.to_string()).as_deref(), Some(v.tag()));
        // Written, it reads back the same.
        assert_eq!(View::from_json(&v.to_json()).ok(), Some(v), "{c}");
    }
}

/// What a typed view writes: the tags first, absent fields left out.
#[test]
fn a_view_writes_its_tags_first_and_leaves_out_what_is_absent() {
    let cases = [
        (
            json!({"card":"terminal","title":"ls","exitCode":0,"description":null}),
            r#"{"card":"terminal","title":"ls","exitCode":0}"#,
        ),
        (
            json!({"title":"g","card":"search","files":[{"path":"a","matches":[{"line":"x"}]}],"shape":"matches"}),
            r#"{"card":"search","shape":"matches","title":"g","files":[{"path":"a","matches":[{"line":"x"}]}]}"#,
        ),
        (
            json!({"card":"web","kind":"fetch","url":"u","truncated":true}),
            r#"{"card":"web","kind":"fetch","url":"u","truncated":true}"#,
        ),
        (
            json!({"card":"generic","content":[{"type":"image","data":"…"},{"type":"text","text":"t"}]}),
            r#"{"card":"generic","content":[{"type":"image"},{"type":"text","text":"t"}]}"#,
        ),
        (
            json!({"card":"read","path":"a","lines":[]}),
            r#"{"card":"read","path":"a","offset":1,"lines":[]}"#,
        ),
    ];
    for (c, written) in cases {
        let v = typed(&c).unwrap_or_else(|e| panic!("{c}: {e}"));
        assert_eq!(v.to_json(), written);
    }
}

#[test]
fn wrong_shapes_name_the_field() {
    let err = |v: Value| typed(&v).unwrap_err().to_string();
    assert_eq!(err(json!({"card":"nope"})), "unknown card \"nope\"");
    assert_eq!(
        err(json!({"card":"terminal","exitCode":"3"})),
        "exitCode: expected integer, got string"
    );
    assert_eq!(
        err(json!({"card":"diff","diffs":[{"path":1}]})),
        "diffs[0].path: expected string, got number"
    );
    assert_eq!(
        err(json!({"card":"search","shape":"tree"})),
        "unknown search shape \"tree\""
    );
    assert_eq!(
        err(json!({"card":"web","kind":"video"})),
        "unknown web kind \"video\""
    );
    assert!(
        err(json!({"card":"read","path":"a","lines":[{"number":"1","text":""}]}))
            .starts_with("lines[0].number")
    );
    assert_eq!(err(json!(["card"])), "view is array, not an object");
    assert_eq!(err(json!({"title":"x"})), "view has no \"card\" tag");
    assert_eq!(err(json!({"card":5})), "card: expected string, got number");
    assert_eq!(err(json!({"card":null})), "card: expected string, got null");
}

#[test]
fn missing_and_misfit_items_say_where() {
    let err = |v: Value| typed(&v).unwrap_err().to_string();
    for (view, reason) in [
        (json!({"card":"read","lines":[]}), "path: missing"),
        (
            json!({"card":"read","path":null,"lines":[]}),
            "path: missing",
        ),
        (json!({"card":"read","path":"a"}), "lines: missing"),
        (
            json!({"card":"read","path":"a","lines":[{"text":"x"}]}),
            "lines[0].number: missing",
        ),
        (
            json!({"card":"read","path":"a","lines":[7]}),
            "lines[0]: expected object, got number",
        ),
        (
            json!({"card":"read","path":"a","lines":[[1,"x"]]}),
            "lines[0]: expected object, got array",
        ),
        (
            json!({"card":"diff","diffs":{"path":"a"}}),
            "diffs: expected array, got object",
        ),
        (
            json!({"card":"diff","diffs":[{"path":"a"}]}),
            "diffs[0].newText: missing",
        ),
        (
            json!({"card":"search","shape":"paths","paths":["a",null]}),
            "paths[1]: expected string, got null",
        ),
        (
            json!({"card":"search","shape":5,"paths":[]}),
            "search view without a string \"shape\"",
        ),
        (
            json!({"card":"search","shape":"matches","files":[{"path":"a","matches":[{"line":3}]}]}),
            "files[0].matches[0].line: expected string, got number",
        ),
        (
            json!({"card":"generic","locations":["a"]}),
            "locations[0]: expected object, got string",
        ),
        (
            json!({"card":"generic","content":[{"text":"x"}]}),
            "content[0].type: missing",
        ),
        (
            json!({"card":"generic","content":[{"type":7,"text":"x"}]}),
            "content[0].type: missing",
        ),
        (
            json!({"card":"generic","content":[{"text":7,"type":"text"}]}),
            "content[0].text: expected string, got number",
        ),
        (
            json!({"card":"generic","content":[{"type":"text"}]}),
            "content[0].text: missing",
        ),
        (
            json!({"card":"web","kind":"search","failures":[{"code":1}]}),
            "failures[0].code: expected string, got number",
        ),
        (
            json!({"card":"web","kind":"fetch","statusCode":200}),
            "url: missing",
        ),
        (
            json!({"card":"web","kind":"fetch","url":"u","truncated":"no"}),
            "truncated: expected boolean, got string",
        ),
        (
            json!({"card":"search","shape":"paths","paths":[],"total":-1}),
            "total: expected non-negative integer, got number",
        ),
    ] {
        assert_eq!(err(view.clone()), reason, "{view}");
    }
}

#[test]
fn nulls_read_as_absent_and_extra_fields_are_ignored() {
    let v = typed(
        &json!({"card":"read","title":null,"path":"p","offset":null,"lines":[],
        "totalLines":null,"lang":null,"content":null,"extra":{"deep":[1]}}),
    )
    .unwrap();
    let View::Read(r) = v else { panic!() };
    assert_eq!(
        (r.title, r.offset, r.total_lines, r.lang, r.content),
        (None, 1, 0, None, None)
    );
    let v = typed(&json!({"card":"search","shape":"paths","paths":[],"files":5})).unwrap();
    assert!(matches!(
        v,
        View::Search(SearchView {
            body: SearchBody::Paths(_),
            ..
        })
    ));
    let v = typed(&json!({"card":"generic","content":[{"type":"image","text":5}]})).unwrap();
    let View::Generic(g) = v else { panic!() };
    assert_eq!(
        g.content.unwrap()[0],
        Block::Other {
            kind: "image".into()
        }
    );
}

#[test]
fn duplicate_keys_keep_the_last_as_a_tree_does() {
    for (text, want) in [
        (
            r#"{"card":"read","path":"a","path":"b","lines":[]}"#,
            json!({"card":"read","path":"b","lines":[]}),
        ),
        (
            r#"{"card":"read","path":"a","lines":[{"number":1,"number":2,"text":"x"}]}"#,
            json!({"card":"read","path":"a","lines":[{"number":2,"text":"x"}]}),
        ),
        (
            r#"{"card":"read","path":"a","lines":[],"card":"terminal"}"#,
            json!({"card":"terminal","path":"a","lines":[]}),
        ),
        (
            r#"{"card":"search","shape":"paths","paths":[],"shape":"matches","files":[]}"#,
            json!({"card":"search","shape":"matches","files":[]}),
        ),
    ] {
        assert_eq!(View::from_json(text), View::parse(&want), "{text}");
    }
}

#[test]
fn numbers_read_alike_from_text_and_tree() {
    for n in [
        "-0",
        "0.0",
        "1e2",
        "18446744073709551615",
        "18446744073709551616",
        "-1",
    ] {
        let text = format!(r#"{{"card":"read","path":"p","lines":[{{"number":{n},"text":"x"}}]}}"#);
        let tree: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(View::from_json(&text), View::parse(&tree), "{n}");
        let text = format!(r#"{{"card":"terminal","exitCode":{n}}}"#);
        let tree: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(View::from_json(&text), View::parse(&tree), "{n}");
    }
}

#[test]
fn too_deep_is_not_readable() {
    let deep = "[".repeat(200) + &"]".repeat(200);
    let text = format!(r#"{{"card":"generic","rawInput":{deep}}}"#);
    let err = View::from_json(&text).unwrap_err().to_string();
    assert!(
        err.starts_with("not readable: recursion limit exceeded"),
        "{err}"
    );
}
