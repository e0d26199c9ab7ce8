//! Harbor's ATIF trajectories through the whole of deck, on a
//! `trajectory.json` written by `make.py` from the ATIF v1.4 RFC
//! (`tests/fixtures/agents/atif/tour/`, not a Harbor run: its NOTES.md says
//! so; two prompts, eight calls of a Claude Code run): every call of the
//! raw steps listed by `deck inspect` as its `SUMMARY.json` lists it, on
//! a generic card with no status, exit code or duration (ATIF holds only a
//! result's text); drawn by `deck render`, exported, and listed by `deck
//! sessions` from a jobs folder the user adds
//! (`<job>/<trial>/agent/trajectory.json`: Harbor has no folder of its own).
//! The cards' snapshots are the presenters' own tests, in `src/agents/atif/`.

use crate::common::agent_tour::{
    Call, Home, assert_calls, assert_no_exit_code, export_html, fixture, inspect, json_file,
    render, summary_calls,
};

fn trajectory() -> String {
    fixture("atif/tour/trajectory.json")
}

/// The messages of the trajectory's `user` steps.
fn prompts() -> Vec<String> {
    json_file(&trajectory())["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["source"] == "user")
        .map(|s| s["message"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn every_call_is_listed_with_no_outcome() {
    let raw: Vec<(String, String)> = json_file(&trajectory())["steps"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["tool_calls"].as_array().cloned().unwrap_or_default())
        .map(|c| {
            let s = |k: &str| c[k].as_str().unwrap().to_string();
            (s("tool_call_id"), s("function_name"))
        })
        .collect();
    let summary = summary_calls(&fixture("atif/tour/SUMMARY.json"));
    assert_eq!(raw.len(), summary.len());
    let want: Vec<Call> = raw
        .iter()
        .zip(&summary)
        .map(|((id, tool), s)| {
            assert_eq!(
                (s["callId"].as_str(), s["tool"].as_str()),
                (Some(id.as_str()), Some(tool.as_str()))
            );
            // Every call's outcome is unknown: a result is only text.
            assert_eq!(s["status"], "unknown");
            Call::new(id, tool, "generic", "unknown", None)
        })
        .collect();
    let got = inspect(&trajectory(), "atif");
    assert_calls(&got, &want);
    // One timestamp a step, the call and its result in it: no duration.
    assert!(got.iter().all(|g| g["durationMs"].is_null()), "{got:#?}");
}

#[test]
fn render_draws_the_prompts_and_the_calls() {
    let prompts = prompts();
    let mut want: Vec<&str> = prompts.iter().map(String::as_str).collect();
    want.extend(["• LS", "• Edit", "• WebFetch", "A tour first: the layout"]);
    let text = render(&trajectory(), &want);
    // The text of a failed command says `Exit code 2`; deck claims none.
    assert_no_exit_code(&text);
    // The system step is not drawn.
    assert!(!text.contains("You are a coding agent"), "{text}");
}

#[test]
fn the_library_lists_it_in_a_jobs_folder_the_user_adds() {
    let home = Home::new();
    let file = home.put(
        "atif/tour/trajectory.json",
        "work/jobs/2026-12-04__11-00-00/demo__abc123/agent/trajectory.json",
    );
    let jobs = home.path().join("work/jobs");
    let row = home.listed_once(&[], &[&jobs], &file, "atif");
    assert_eq!(row["id"], json_file(&trajectory())["session_id"], "{row}");
    assert_eq!(row["calls"], 8, "{row}");
    // Nowhere else: Harbor keeps no folder of its own.
    assert_eq!(home.sessions(&[], &[]).len(), 0);
}

#[test]
fn the_html_export_holds_the_prompts() {
    let prompts = prompts();
    let want: Vec<&str> = prompts.iter().map(String::as_str).collect();
    export_html(&trajectory(), &want);
}
