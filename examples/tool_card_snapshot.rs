//! A tool author's snapshot test of their own tool's cards, with
//! `deck::testing` and insta. Run with `cargo test --example tool_card_snapshot`
//! (deck's `cargo test` runs it too); `cargo run --example tool_card_snapshot`
//! prints the cards.
//!
//! The tool here is a made-up `lint` tool whose `presentResult` returns a
//! search card (one file per finding) and whose failures are terminal cards.

#![allow(clippy::unwrap_used, clippy::print_stdout)]

use deck::testing::{Density, ToolCard};
use serde_json::{Value, json};

/// What the tool's `presentResult` would return for these findings.
fn present_findings(findings: &[(&str, u64, &str)]) -> Value {
    let mut files: Vec<Value> = Vec::new();
    for (path, line, text) in findings {
        let m = json!({"lineNumber": line, "line": text});
        match files.iter_mut().find(|f| f["path"] == *path) {
            Some(f) => f["matches"].as_array_mut().unwrap().push(m),
            None => files.push(json!({"path": path, "matches": [m]})),
        }
    }
    json!({"card": "search", "title": "lint", "query": "warnings",
           "shape": "matches", "files": files})
}

fn lint_card() -> ToolCard {
    let findings = [
        ("src/lib.rs", 12, "let x = foo.unwrap();"),
        ("src/lib.rs", 40, "println!(\"debug\");"),
        ("src/main.rs", 3, "use std::*;"),
    ];
    ToolCard::new("lint")
        .arguments(json!({"paths": ["src"]}))
        .result_view(present_findings(&findings))
        .output("3 warnings")
        .took_ms(1_250)
}

fn main() {
    for width in [48, 80] {
        let card = lint_card().render(width, "dark", Density::Full).unwrap();
        println!("{}", card.text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_findings_card_at_two_widths_in_both_themes() {
        for theme in ["dark", "light"] {
            for width in [48, 80] {
                let card = lint_card().render(width, theme, Density::Full).unwrap();
                assert!(card.problems.is_empty(), "{:?}", card.problems);
                insta::assert_snapshot!(format!("lint_{theme}_{width}"), card.styled);
            }
        }
    }

    #[test]
    fn a_collapsed_card_is_one_line() {
        let card = lint_card().render(80, "dark", Density::Line).unwrap();
        assert_eq!(card.height, 1);
        insta::assert_snapshot!("lint_line", card.text);
    }
}
