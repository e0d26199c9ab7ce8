//! Cline's session files through the whole of deck, on the real session of
//! the Cline CLI 3.0.65 (`tests/fixtures/agents/cline/tour/`, written by
//! `tests/e2e/agents/cline/`: three turns, one resumed over ACP, nine
//! calls): every call listed by `deck inspect` with the tool, status and
//! exit code its `SUMMARY.json` says, the insert at its `insert_line`, a
//! patch's hunk at no line (its `@@` has none), a new file from line 1;
//! drawn by `deck render`, exported, and listed by `deck sessions` from
//! `~/.cline/data/sessions/` or `$CLINE_DIR` (the cards' snapshots are the
//! presenters' own tests, in `src/agents/cline/`).

use serde_json::Value;

use crate::common::agent_tour::{
    Call, Home, assert_calls, export_html, fixture, inspect, json_file, render, start_lines,
    summary_calls,
};

const ID: &str = "1796379653114_ae203";

fn messages() -> String {
    fixture(&format!("cline/tour/{ID}/{ID}.messages.json"))
}

/// The raw `tool_use` block of the call `id`.
fn raw_call(id: &str) -> Value {
    json_file(&messages())["messages"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|m| m["content"].as_array().cloned().unwrap_or_default())
        .find(|b| b["type"] == "tool_use" && b["id"] == id)
        .unwrap_or_else(|| panic!("no call {id}"))
}

#[test]
fn every_call_is_listed_as_its_summary_says() {
    let calls = summary_calls(&fixture("cline/tour/SUMMARY.json"));
    // The card each call draws (docs/agents.md's table for Cline): a
    // failed edit says its error on a generic card.
    let card = |c: &Value| match (c["tool"].as_str().unwrap(), c["status"].as_str()) {
        ("run_commands", _) => "terminal",
        ("search_codebase", _) => "search",
        ("read_files", _) => "generic",
        ("editor", Some("error")) => "generic",
        ("editor" | "apply_patch", _) => "diff",
        ("fetch_web_content", _) => "web",
        (other, _) => panic!("{other}"),
    };
    let want: Vec<Call> = calls
        .iter()
        .map(|c| {
            let s = |k: &str| c[k].as_str().unwrap();
            // Only a command batch says an exit code (0 included).
            Call::new(
                s("callId"),
                s("tool"),
                card(c),
                s("status"),
                c["exitCode"].as_i64(),
            )
        })
        .collect();
    let got = inspect(&messages(), "cline");
    assert_calls(&got, &want);

    let at = |id: &str| got.iter().find(|g| g["callId"] == id).unwrap();
    // The insert at the line it was asked to go before.
    let insert = raw_call("call_1_2_0")["input"]["insert_line"].as_u64();
    assert!(insert.is_some());
    assert_eq!(start_lines(at("call_1_2_0")), [insert]);
    // A patch's `@@` names no line: unknown; an added file starts at 1.
    for id in ["call_2_0_0", "call_2_0_1"] {
        let patch = raw_call(id)["input"]["input"].as_str().unwrap().to_string();
        let want = if patch.contains("*** Add File:") {
            Some(1)
        } else {
            assert!(patch.lines().any(|l| l.trim() == "@@"), "{patch}");
            None
        };
        assert_eq!(start_lines(at(id)), [want], "{id}");
    }
}

#[test]
fn render_draws_the_prompts_and_the_cards() {
    let text = render(
        &messages(),
        &[
            "[cl-1] Give me a quick tour of this project",
            "[cl-2] Make spread return 0 for an empty list",
            "[cl-3] Compare with the docs",
            "$ ls -R",
            "$ ls missing-dir (exit 2)",
            "Edit /workspace/demo/src/stats.py",
            "# The helpers module.",
        ],
    );
    // The prompt's wrapper is Cline's, not the user's words.
    assert!(!text.contains("<user_input"), "{text}");
}

#[test]
fn the_library_lists_it_where_cline_keeps_it() {
    let manifest = json_file(&fixture(&format!("cline/tour/{ID}/{ID}.json")));
    for moved in [false, true] {
        let home = Home::new();
        let root = if moved { "cline-dir" } else { ".cline" };
        let at = |name: &str| format!("{root}/data/sessions/{ID}/{name}");
        let file = home.put(
            &format!("cline/tour/{ID}/{ID}.messages.json"),
            &at(&format!("{ID}.messages.json")),
        );
        home.put(
            &format!("cline/tour/{ID}/{ID}.json"),
            &at(&format!("{ID}.json")),
        );
        let dir = home.path().join(root);
        let env: &[(&str, &std::path::Path)] = if moved { &[("CLINE_DIR", &dir)] } else { &[] };
        let row = home.listed_once(env, &[], &file, "cline");
        // The directory is in the manifest beside, not in the messages.
        assert_eq!(row["cwd"], manifest["cwd"], "{row}");
        assert_eq!(row["id"], ID, "{row}");
    }
}

#[test]
fn the_html_export_holds_the_prompts() {
    export_html(
        &messages(),
        &[
            "[cl-1] Give me a quick tour of this project",
            "[cl-2] Make spread return 0 for an empty list",
        ],
    );
}
