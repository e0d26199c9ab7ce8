//! What a card shows is true (issue "Every card tells the truth"): no
//! printed text lost to a cleared screen, in any density. Cards are built
//! through `deck::testing`, so they go through the same frames, fold and
//! layout as a live session.

use deck::testing::{Density, ToolCard};
use serde_json::json;

/// A bash call whose output clears the screen between two builds, as a
/// watch loop or `clear && make` does.
fn cleared_build() -> ToolCard {
    let output = "build 1: 3 warnings\nwarning: unused x\n\u{1b}[H\u{1b}[2J\u{1b}[3J\
                  build 2: ok\n\u{1b}[?1049h\u{1b}[Hpager text\u{1b}[?1049lexit\n";
    ToolCard::new("bash")
        .arguments(json!({"command": "clear; make; make; less log"}))
        .result_view(
            json!({"card": "terminal", "title": "clear; make; make; less log",
                            "output": output, "exitCode": 0}),
        )
        .output(output)
}

#[test]
fn a_cleared_screen_loses_no_text_in_any_density() {
    let kept = [
        "build 1: 3 warnings",
        "warning: unused x",
        "── screen cleared ──",
        "build 2: ok",
        "── full-screen output ──",
        "pager text",
        "── end of full-screen output ──",
        "exit",
    ];
    for density in [Density::Preview, Density::Full] {
        let card = cleared_build().render(80, "dark", density).unwrap();
        let mut at = 0;
        for want in kept {
            let found = card.text[at..].find(want);
            assert!(
                found.is_some(),
                "{density:?}: {want:?} not after {at} in\n{}",
                card.text
            );
            at += found.unwrap_or(0) + want.len();
        }
        assert!(!card.text.contains('\u{1b}'));
    }
    // One line: the header, which says nothing of the output.
    let line = cleared_build().render(80, "dark", Density::Line).unwrap();
    assert_eq!(line.height, 1);
    // The plain text a user copies holds it all too.
    let full = cleared_build().render(80, "light", Density::Full).unwrap();
    assert!(full.styled.contains("build 1: 3 warnings"));
}
