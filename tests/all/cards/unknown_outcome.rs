//! A call whose log does not say how it ended (deck's `outcome: "unknown"`
//! on its result, which any agent's reader may write): its card claims
//! neither success nor failure — no `✓` or `✗`, the word `unknown` where
//! a status word goes, counted as no error — at 40, 80 and 120 columns in
//! the dark and light themes; a diff says it is not known to be applied.
//! Built through `deck::testing`, so the frames go through the loader and
//! the fold as a session's do.

use deck::testing::{Density, ToolCard};
use serde_json::json;

fn terminal() -> ToolCard {
    ToolCard::new("bash")
        .arguments(json!({"command": "cat .env"}))
        .result_view(json!({"card": "terminal", "title": "cat .env", "output": "[redacted]"}))
        .output("[redacted]")
        .outcome_unknown()
}

fn edit() -> ToolCard {
    ToolCard::new("edit")
        .arguments(json!({"path": "notes.md"}))
        .result_view(json!({"card": "diff", "title": "Edit notes.md", "diffs": [
            {"path": "notes.md", "oldText": "status: draft\n", "newText": "status: reviewed\n"}]}))
        .output("[redacted]")
        .outcome_unknown()
}

#[test]
fn an_unknown_outcome_claims_neither_success_nor_failure() {
    for (name, card) in [("terminal", terminal()), ("diff", edit())] {
        let log = card.frames();
        let loaded = deck::source::load_bytes("x", log.as_bytes()).unwrap();
        let t = crate::common::fold_records(&loaded.sessions[0].records);
        assert_eq!(
            t.cards()[0].status,
            deck::session::Status::Unknown,
            "{name}"
        );
        assert_eq!(t.cards()[0].status.name(), "unknown");
        assert_eq!(t.error_count(), 0, "{name}");
        for theme in ["dark", "light"] {
            let mut out = String::new();
            for width in [40, 80, 120] {
                let r = card.render(width, theme, Density::Full).unwrap();
                let header = r.text.lines().next().unwrap_or_default();
                assert!(header.starts_with("· "), "{name} {width}: {header}");
                assert!(header.contains("unknown"), "{name} {width}: {header}");
                assert!(!r.text.contains('✓') && !r.text.contains('✗'), "{}", r.text);
                out.push_str(&format!("── width {width} ──\n{}", r.styled));
            }
            insta::assert_snapshot!(format!("unknown_outcome_{name}__{theme}"), out);
        }
    }
    let r = edit().render(80, "dark", Density::Full).unwrap();
    assert!(
        r.text
            .contains("+1 −1 · 1 file · not known whether applied"),
        "{}",
        r.text
    );
    // Any other result of the same call is what it was.
    let known = ToolCard::new("bash").output("x").frames();
    let loaded = deck::source::load_bytes("x", known.as_bytes()).unwrap();
    let t = crate::common::fold_records(&loaded.sessions[0].records);
    assert_eq!(t.cards()[0].status, deck::session::Status::Ok);
}
