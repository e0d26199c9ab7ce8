//! The findings of one view: the field and the fallback card's words for
//! an error, the field of each warning. (The CLI and whole logs:
//! `tests/all/kit/lint.rs`.)

use super::*;

fn one(view: &str) -> Finding {
    let mut f = lint_view(view);
    assert_eq!(f.len(), 1, "{view}: {f:?}");
    f.remove(0)
}

#[test]
fn an_error_names_the_field_and_says_what_the_card_says() {
    for (view, field, reason, message) in [
        (
            r#"{"card": "diff", "diffs": [{"newText": "x"}]}"#,
            "diffs[0].path",
            "missing",
            "result view: diffs[0].path: missing",
        ),
        (
            r#"{"card": "hologram"}"#,
            "card",
            r#"unknown card "hologram""#,
            r#"result view: unknown card "hologram""#,
        ),
        (
            r#"{"card": "search", "paths": []}"#,
            "shape",
            r#"search view without a string "shape""#,
            r#"result view: search view without a string "shape""#,
        ),
        (
            r#"{"card": "web", "kind": 3}"#,
            "kind",
            r#"web view without a string "kind""#,
            r#"result view: web view without a string "kind""#,
        ),
        (
            "7",
            "",
            "view is number, not an object",
            "result view: view is number, not an object",
        ),
    ] {
        let f = one(view);
        assert_eq!(f.severity, Severity::Error);
        assert_eq!(
            (f.field.as_str(), f.reason.as_str(), f.message.as_str()),
            (field, reason, message),
            "{view}"
        );
        assert_eq!((f.line, f.slot), (1, "result"));
    }
    assert_eq!(one(r#"{"card": "read", "path": 1}"#).card.as_deref(), Some("read"));
}

#[test]
fn a_warning_names_its_field() {
    for (view, field) in [
        (r#"{"card": "read", "path": "a.unknownext", "lines": []}"#, "lang"),
        (r#"{"card": "terminal", "title": "ls"}"#, "exitCode"),
        (
            r#"{"card": "diff", "diffs": [{"path": "a", "oldText": "x", "newText": "x"}]}"#,
            "diffs[0]",
        ),
        (
            r#"{"card": "search", "shape": "matches", "files": [], "truncated": true}"#,
            "total",
        ),
        (
            r#"{"card": "web", "kind": "search", "sources": [{"url": "u"}]}"#,
            "sources[0].title",
        ),
        (r#"{"card": "generic", "kind": "dance"}"#, "kind"),
    ] {
        let f = one(view);
        assert_eq!((f.severity, f.field.as_str()), (Severity::Warning, field), "{view}");
        assert_eq!(f.message, format!("result view: {field}: {}", f.reason));
    }
    // Good views have nothing to say.
    for view in [
        r#"{"card": "read", "path": "a.py", "lines": []}"#,
        r#"{"card": "terminal", "title": "ls", "signal": "SIGKILL"}"#,
        r#"{"card": "web", "kind": "fetch", "url": "u"}"#,
    ] {
        assert_eq!(lint_view(view), vec![], "{view}");
    }
}
