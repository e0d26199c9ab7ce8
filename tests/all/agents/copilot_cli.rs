//! GitHub Copilot CLI's session files through the whole of deck, on the
//! real `events.jsonl` of Copilot CLI 1.0.102
//! (`tests/fixtures/agents/copilot-cli/tour/`, written by
//! `tests/e2e/agents/copilot-cli/`: three runs, two resumes, eleven calls):
//! every call listed by `deck inspect` with the tool, status and exit code
//! its `SUMMARY.json` says (a shell command's `shellExecution.exitCode`, 0
//! included), the edit and the new file at their hunks' lines, a view
//! window at its first line; drawn by `deck render`, exported, and listed
//! by `deck sessions` from `~/.copilot/session-state/` or `$COPILOT_HOME`
//! with `workspace.yaml`'s directory (the cards' snapshots are the
//! presenters' own tests, in `src/agents/copilot_cli/`).

use serde_json::Value;

use crate::common::agent_tour::{
    Call, Home, assert_calls, export_html, first_hunk, first_read_line, fixture, inspect, render,
    start_lines, summary_calls,
};

fn events() -> String {
    fixture("copilot-cli/tour/events.jsonl")
}

#[test]
fn every_call_is_listed_as_its_summary_says() {
    let calls = summary_calls(&fixture("copilot-cli/tour/SUMMARY.json"));
    // docs/agents.md's table for Copilot CLI: a view of a folder is a
    // listing (generic), of a file a read; the fetch the CLI does not have
    // is an error on a generic card.
    let cards = [
        "generic", "search", "search", "read", "read", "diff", "diff", "terminal", "generic",
        "terminal", "terminal",
    ];
    assert_eq!(calls.len(), cards.len());
    let want: Vec<Call> = calls
        .iter()
        .zip(cards)
        .map(|(c, card)| {
            let exit = c["exitCode"].as_i64();
            // A command keeps `success: true` whatever it exits with.
            let status = match (exit, c["success"].as_bool()) {
                (Some(n), _) if n != 0 => "failed",
                (_, Some(true)) => "ok",
                (_, Some(false)) => "error",
                other => panic!("{other:?}"),
            };
            let s = |k: &str| c[k].as_str().unwrap();
            Call::new(s("callId"), s("tool"), card, status, exit)
        })
        .collect();
    let got = inspect(&events(), "copilot-cli");
    assert_calls(&got, &want);

    for (g, c) in got.iter().zip(&calls) {
        match c["tool"].as_str() {
            // The change at its hunk's lines (`@@ -6,6 +6,8 @@`, `@@ -1,0 +1,15 @@`).
            Some("edit" | "create") => {
                let hunk = c["detailedDiff"]["hunks"][0].as_str().unwrap();
                assert_eq!(start_lines(g), [Some(first_hunk(hunk).1)], "{g}");
            }
            // A window of a file at its first line.
            Some("view") if c["args"]["view_range"].is_array() => {
                assert_eq!(first_read_line(g), c["args"]["view_range"][0].as_u64());
            }
            _ => {}
        }
    }
}

#[test]
fn render_draws_the_prompts_and_the_cards() {
    render(
        &events(),
        &[
            "[cp-1] Give me a quick tour of this project",
            "[cp-2] Make spread return 0 for an empty list",
            "[cp-3] Compare with the docs",
            "View src/stats.py (8 - 10)",
            "Create src/test_stats.py",
            "$ ls missing-dir",
            "exit 2",
            "if not xs:",
        ],
    );
}

#[test]
fn the_library_lists_it_where_copilot_keeps_it() {
    let yaml = std::fs::read_to_string(fixture("copilot-cli/tour/workspace.yaml")).unwrap();
    let field = |k: &str| -> Value {
        let line = yaml.lines().find_map(|l| l.strip_prefix(&format!("{k}: ")));
        Value::from(line.unwrap())
    };
    for root in [".copilot", "copilot-home"] {
        let home = Home::new();
        let dir = format!("{root}/session-state/{}", field("id").as_str().unwrap());
        let file = home.put(
            "copilot-cli/tour/events.jsonl",
            &format!("{dir}/events.jsonl"),
        );
        home.put(
            "copilot-cli/tour/workspace.yaml",
            &format!("{dir}/workspace.yaml"),
        );
        let moved = home.path().join(root);
        let env: &[(&str, &std::path::Path)] = if root == ".copilot" {
            &[]
        } else {
            &[("COPILOT_HOME", &moved)]
        };
        let row = home.listed_once(env, &[], &file, "copilot-cli");
        assert_eq!(row["cwd"], field("cwd"), "{row}");
        assert_eq!(row["id"], field("id"), "{row}");
    }
}

#[test]
fn the_html_export_holds_the_prompts() {
    export_html(
        &events(),
        &[
            "[cp-1] Give me a quick tour of this project",
            "[cp-2] Make spread return 0 for an empty list",
        ],
    );
}
