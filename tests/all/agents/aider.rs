//! aider's chat history through the whole of deck, on the real
//! `.aider.chat.history.md` of aider 0.86.2 (`tests/fixtures/agents/aider/tour/`,
//! written by `tests/e2e/agents/aider/`: four runs, the last restoring the
//! chat; two edits, a `/run` and a failing `/test`): every call listed by
//! `deck inspect` with the tool, status and card its `SUMMARY.json` reads
//! from the text, no exit code (the file says none), an edit of an existing
//! file at no line (a SEARCH/REPLACE block names none) and a new file from
//! line 1; drawn by `deck render`, exported, and listed by `deck sessions`
//! from the repository it sits in, a folder the user adds (aider keeps no
//! sessions folder). The cards' snapshots are the presenters' own tests,
//! in `src/agents/aider/`.

use crate::common::agent_tour::{
    Call, Home, assert_calls, assert_no_exit_code, export_html, fixture, inspect, json_file,
    render, start_lines, summary_calls,
};

fn history() -> String {
    fixture("aider/tour/.aider.chat.history.md")
}

#[test]
fn every_call_is_listed_as_its_summary_says() {
    let calls = summary_calls(&fixture("aider/tour/SUMMARY.json"));
    let want: Vec<Call> = calls
        .iter()
        .map(|c| {
            let s = |k: &str| c[k].as_str().unwrap();
            // docs/agents.md's table for aider.
            let card = if s("tool") == "edit" {
                "diff"
            } else {
                "terminal"
            };
            // The file never says how a command exited.
            assert!(c["exitCode"].is_null());
            Call::new(s("callId"), s("tool"), card, s("status"), None)
        })
        .collect();
    let got = inspect(&history(), "aider");
    assert_calls(&got, &want);
    for (g, c) in got.iter().zip(&calls) {
        if c["tool"] == "edit" {
            // A new file is whole from line 1; a block of an existing one
            // names no line.
            let line = (c["newFile"] == true).then_some(1);
            assert_eq!(start_lines(g), [line], "{g}");
        }
    }
}

#[test]
fn render_draws_the_prompts_and_the_cards() {
    let summary = json_file(&fixture("aider/tour/SUMMARY.json"));
    let prompts: Vec<String> = summary["prompts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| format!("› {}", p["text"].as_str().unwrap()))
        .collect();
    let mut want: Vec<&str> = prompts.iter().map(String::as_str).collect();
    want.extend([
        "Edit src/stats.py",
        "Create src/test_stats.py",
        "$ python3 -m unittest discover -s src -v",
        "$ ls missing-dir",
    ]);
    let text = render(&history(), &want);
    // A /run says nothing of how it ended; nothing claims an exit code.
    assert_no_exit_code(&text);
}

#[test]
fn the_library_lists_it_in_the_repository_the_user_adds() {
    let home = Home::new();
    let file = home.put(
        "aider/tour/.aider.chat.history.md",
        "code/demo/.aider.chat.history.md",
    );
    // Beside it, the input history is not a session.
    home.put(
        "aider/tour/.aider.input.history",
        "code/demo/.aider.input.history",
    );
    let code = home.path().join("code");
    let row = home.listed_once(&[], &[&code], &file, "aider");
    assert!(
        row["title"]
            .as_str()
            .unwrap()
            .starts_with("[ad-1] Make spread() return 0"),
        "{row}"
    );
    // Nothing in the file names the directory, and its times have no zone.
    assert_eq!(
        (row["cwd"].as_str(), row["started"].as_str()),
        (None, None),
        "{row}"
    );
    // Without the folder, nothing is found: aider has no folder of its own.
    assert_eq!(home.sessions(&[], &[]).len(), 0);
}

#[test]
fn the_html_export_holds_the_prompts() {
    export_html(
        &history(),
        &[
            "[ad-1] Make spread() return 0 for an empty list",
            "/run python3 -m unittest discover -s src -v",
        ],
    );
}
