//! Grok Build's session files through the whole of deck, on an
//! `updates.jsonl` written by `make.py` from Grok Build's source
//! (`tests/fixtures/agents/grok/tour/`, not a run: its NOTES.md says
//! where each shape comes from; two prompts, eight calls): every call
//! listed by `deck inspect` with the tool, status and exit code its
//! `SUMMARY.json` says (a command that exits non-zero is still
//! `completed`: failed by its `exit_code`), the edit at the line its
//! `old_line` says, a read window at its offset; drawn by `deck render`,
//! exported, and listed by `deck sessions` from `~/.grok/sessions/` or
//! `$GROK_HOME` (the cards' snapshots are the presenters' own tests, in
//! `src/agents/grok/`).

use serde_json::Value;

use crate::common::agent_tour::{
    Call, Home, assert_calls, export_html, first_read_line, fixture, inspect, json_lines, render,
    start_lines, summary_calls,
};

fn updates() -> String {
    fixture("grok/tour/updates.jsonl")
}

/// The raw `tool_call` (`pending`) or last `tool_call_update` (`done`) of
/// the call `id`.
fn raw_update(id: &str, done: bool) -> Value {
    let all: Vec<Value> = json_lines(&updates())
        .into_iter()
        .map(|l| l["params"]["update"].clone())
        .filter(|u| u["toolCallId"] == id)
        .collect();
    if done { all.last() } else { all.first() }
        .cloned()
        .unwrap()
}

#[test]
fn every_call_is_listed_as_its_summary_says() {
    let calls = summary_calls(&fixture("grok/tour/SUMMARY.json"));
    let want: Vec<Call> = calls
        .iter()
        .map(|c| {
            let tool = c["tool"].as_str().unwrap();
            let exit = c["exitCode"].as_i64();
            let status = match (c["status"].as_str().unwrap(), exit) {
                ("completed", Some(n)) if n != 0 => "failed",
                ("completed", _) => "ok",
                ("failed", _) => "error",
                other => panic!("{other:?}"),
            };
            // docs/agents.md's table for Grok Build: any other tool is
            // the ACP presenters' generic card.
            let card = match tool {
                "run_terminal_cmd" => "terminal",
                "read_file" => "read",
                "search_replace" => "diff",
                "grep" => "search",
                _ => "generic",
            };
            Call::new(c["callId"].as_str().unwrap(), tool, card, status, exit)
        })
        .collect();
    let got = inspect(&updates(), "grok");
    assert_calls(&got, &want);

    let at = |id: &str| got.iter().find(|g| g["callId"] == id).unwrap();
    // The edit at the line the applied edit names.
    let applied = raw_update("call_05", true);
    let line = applied["rawOutput"]["EditsApplied"]["edits"]["details"][0]["old_line"].as_u64();
    assert!(line.is_some());
    assert_eq!(start_lines(at("call_05")), [line]);
    // The window read from the line asked for.
    let offset = raw_update("call_04", false)["rawInput"]["offset"].as_u64();
    assert_eq!(first_read_line(at("call_04")), offset);
    assert_eq!(first_read_line(at("call_02")), Some(1));
}

#[test]
fn render_draws_the_prompts_and_the_cards() {
    render(
        &updates(),
        &[
            "Give me a quick tour of this project",
            "Now list missing-dir and fetch https://example.com/docs for me.",
            "Edit src/stats.py",
            "if not xs:",
            "$ ls missing-dir",
            "exit 2",
            "Fetch: https://example.com/docs",
        ],
    );
}

#[test]
fn the_library_lists_it_where_grok_keeps_it() {
    let id = json_lines(&updates())[0]["params"]["sessionId"]
        .as_str()
        .unwrap()
        .to_string();
    for root in [".grok", "grok-home"] {
        let home = Home::new();
        let dir = format!("{root}/sessions/%2Fworkspace%2Fdemo/{id}");
        let file = home.put("grok/tour/updates.jsonl", &format!("{dir}/updates.jsonl"));
        home.put("grok/tour/summary.json", &format!("{dir}/summary.json"));
        let moved = home.path().join(root);
        let env: &[(&str, &std::path::Path)] = if root == ".grok" {
            &[]
        } else {
            &[("GROK_HOME", &moved)]
        };
        let row = home.listed_once(env, &[], &file, "grok");
        assert_eq!(row["id"], id.as_str(), "{row}");
        // The directory is in `summary.json` beside (and the folder's
        // name), not in the log.
        assert_eq!(row["cwd"], "/workspace/demo", "{row}");
    }
}

#[test]
fn the_html_export_holds_the_prompts() {
    export_html(
        &updates(),
        &[
            "Give me a quick tour of this project",
            "Now list missing-dir and fetch https://example.com/docs for me.",
        ],
    );
}
