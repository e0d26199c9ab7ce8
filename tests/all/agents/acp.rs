//! ACP recordings through the whole of deck: the real capture of Claude
//! Code's ACP adapter (`tests/fixtures/agents/acp/tour/acp-trace.jsonl`,
//! its quirks in the README beside it) is detected by content, read and
//! drawn by `deck inspect` and `deck render`, and snapshotted card by card
//! (the reader and the presenters have their own tests beside them, in
//! `src/agents/acp/`).

use deck::theme::Theme;

use crate::common::dump::{THEMES, cards_at_widths};
use crate::common::{card_of, deck_ok, fold, inspect_lines as inspect};

fn tour() -> String {
    format!(
        "{}/tests/fixtures/agents/acp/tour/acp-trace.jsonl",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn every_call_of_the_capture_has_its_card_and_final_status() {
    let calls = inspect(&tour());
    // The capture's README: 18 calls, each announced twice (one card).
    assert_eq!(calls.len(), 18, "{calls:#?}");
    for v in &calls {
        assert_eq!(v["viewSource"], "presenter:acp", "{v}");
        assert!(
            v["callId"]
                .as_str()
                .is_some_and(|id| id.starts_with("toolu_")),
            "{v}"
        );
        let status = v["status"].as_str().unwrap_or_default();
        let card = card_of(v);
        // Failed and rejected calls are error cards; every other call of
        // an execute/edit/read/search/fetch kind gets its own card.
        if matches!(status, "error" | "rejected") {
            assert_eq!(v["resultView"]["card"], "generic", "{v}");
        } else {
            assert_ne!(card, "generic", "{v}");
        }
    }
    let row = |i: usize| {
        let v = &calls[i];
        (
            v["tool"].as_str().unwrap_or_default().to_string(),
            card_of(v),
            v["status"].as_str().unwrap_or_default().to_string(),
        )
    };
    let want = [
        ("mcp__acp__Bash", "terminal", "ok"),
        ("mcp__acp__Read", "read", "ok"),
        ("mcp__acp__Read", "read", "ok"),
        ("Grep", "search", "ok"),
        ("Glob", "search", "ok"),
        ("mcp__acp__Bash", "terminal", "failed"),
        ("mcp__acp__Bash", "terminal", "ok"),
        ("mcp__acp__Read", "read", "ok"),
        ("mcp__acp__Edit", "diff", "ok"),
        ("mcp__acp__Write", "diff", "ok"),
        ("mcp__acp__Bash", "terminal", "ok"),
        ("WebFetch", "generic", "error"),
        ("WebSearch", "web", "ok"),
        ("mcp__acp__Bash", "terminal", "interrupted"),
        ("mcp__acp__Bash", "terminal", "ok"),
        ("mcp__acp__BashOutput", "terminal", "ok"),
        ("mcp__acp__KillShell", "terminal", "ok"),
        ("mcp__acp__Bash", "generic", "rejected"),
    ];
    for (i, (tool, card, status)) in want.iter().enumerate() {
        assert_eq!(
            row(i),
            (tool.to_string(), card.to_string(), status.to_string()),
            "call {i}"
        );
    }
    // The failing command's exit code comes from the client's answers.
    assert_eq!(calls[5]["resultView"]["exitCode"], 1);
    // The edit's hunk is placed where the written file has it; the new
    // file starts at 1; the read is numbered from the line asked for.
    assert_eq!(calls[8]["resultView"]["diffs"][0]["startLine"], 20);
    assert_eq!(calls[9]["resultView"]["diffs"][0]["startLine"], 1);
    assert!(calls[8]["callView"]["diffs"][0].get("startLine").is_none());
    assert_eq!(calls[2]["resultView"]["lines"][0]["number"], 1);
    assert_eq!(
        calls[2]["resultView"]["lines"].as_array().map(Vec::len),
        Some(12)
    );
    // The refusal is said on the rejected call.
    assert_eq!(
        calls[17]["resultView"]["content"][0]["text"],
        "User refused permission to run tool"
    );
}

#[test]
fn the_capture_folds_to_turns_text_plan_and_no_diagnostics() {
    let t = fold(&tour());
    assert!(t.diagnostics().is_empty(), "{:?}", t.diagnostics());
    let loaded = deck::source::load_path(&tour()).expect("loads");
    assert_eq!(loaded.format.name(), "ACP recording");
    let header = loaded.sessions[0].header.as_ref().expect("header");
    assert_eq!(header["agent"], "acp");
    assert_eq!(header["agentName"], "@zed-industries/claude-code-acp");
    assert_eq!(header["version"], "0.16.2");
    assert_eq!(header["cwd"], "/workspace/demo");
    assert_eq!(header["mode"], "default");
    assert!(
        header["commands"].as_array().is_some_and(|c| !c.is_empty()),
        "{header}"
    );
    assert_eq!(
        loaded.sessions[0].id.as_deref(),
        Some("43e60b42-56a6-4e36-bf2d-d1c55b5e9aa6")
    );
}

#[test]
fn render_draws_the_capture() {
    let text = deck_ok(&["render", "--width", "100", &tour()]);
    for want in [
        "[acp-1] Give me a quick tour",
        "ls -la && ls -la src",
        "Tour the project layout",
        "exit 1",
        "statistics.median returns the middle value",
        "User refused permission to run tool",
    ] {
        assert!(text.contains(want), "{want:?} missing:\n{text}");
    }
}

#[test]
fn snapshots_of_the_capture() {
    let t = fold(&tour());
    for theme_name in THEMES {
        let theme = Theme::builtin(theme_name).expect("built-in theme");
        let out = cards_at_widths(&t, &theme, "acp");
        insta::assert_snapshot!(format!("agents_acp_tour__{theme_name}"), out);
    }
}
