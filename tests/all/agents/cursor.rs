//! Cursor's agent transcripts through the whole of deck, on a transcript
//! written by hand from the format public parsers describe
//! (`tests/fixtures/agents/cursor/tour/`, no SUMMARY.json: its NOTES.md
//! says why): the expectations are read from the raw lines here. Every
//! `tool_use` is listed by `deck inspect` under the id deck gives it
//! (`L<line>.<block>`: the file has none), with its tool and card, and no
//! outcome, exit code or duration (the transcript keeps no output); the
//! edit at no line, a written file from line 1; drawn by `deck render`
//! (the prompt's query without Cursor's wrapper, the aborted turn),
//! exported, and listed by `deck sessions` from
//! `~/.cursor/projects/*/agent-transcripts/` or `$CURSOR_CONFIG_DIR`, its
//! sub-agents' files not listed of their own (the cards' snapshots are the
//! presenters' own tests, in `src/agents/cursor/`).

use crate::common::agent_tour::{
    Call, Home, assert_calls, assert_no_exit_code, export_html, fixture, inspect, json_lines,
    render, start_lines,
};

const ID: &str = "5f0c2a8e-3b1d-4c7a-9e62-0d8b7a41c9f3";

fn transcript() -> String {
    fixture(&format!("cursor/tour/{ID}.jsonl"))
}

/// The text of each prompt's `<user_query>`.
fn queries() -> Vec<String> {
    json_lines(&transcript())
        .iter()
        .filter(|l| l["role"] == "user")
        .map(|l| {
            let text = l["message"]["content"][0]["text"].as_str().unwrap();
            let q = text.split("<user_query>\n").nth(1).unwrap();
            q.split("\n</user_query>").next().unwrap().to_string()
        })
        .collect()
}

#[test]
fn every_call_is_listed_with_no_outcome() {
    let mut want = Vec::new();
    for (n, line) in json_lines(&transcript()).iter().enumerate() {
        let Some(blocks) = line["message"]["content"].as_array() else {
            continue;
        };
        for (i, b) in blocks.iter().enumerate() {
            if b["type"] != "tool_use" {
                continue;
            }
            let tool = b["name"].as_str().unwrap();
            // docs/agents.md's table for Cursor; any other tool is generic.
            let card = match tool {
                "Shell" => "terminal",
                "StrReplace" | "Write" => "diff",
                _ => "generic",
            };
            let id = format!("L{}.{}", n + 1, i + 1);
            want.push(Call::new(&id, tool, card, "unknown", None));
        }
    }
    assert_eq!(want.len(), 9);
    let got = inspect(&transcript(), "cursor");
    assert_calls(&got, &want);
    for g in &got {
        assert!(g["durationMs"].is_null(), "{g}");
        match g["tool"].as_str() {
            // The replaced text's place is not in the log.
            Some("StrReplace") => assert_eq!(start_lines(g), [None]),
            // The file whole, from its first line.
            Some("Write") => assert_eq!(start_lines(g), [Some(1)]),
            _ => {}
        }
    }
}

#[test]
fn render_draws_the_queries_and_the_aborted_turn() {
    let queries = queries();
    let mut want: Vec<&str> = queries.iter().map(String::as_str).collect();
    want.extend([
        "Edit /workspace/demo/src/stats.py",
        "$ ls missing-dir",
        "aborted · User aborted/interrupted manually.",
    ]);
    let text = render(&transcript(), &want);
    for wrapper in ["<user_query>", "<timestamp>"] {
        assert!(!text.contains(wrapper), "{text}");
    }
    // Nothing says how a command ended.
    assert_no_exit_code(&text);
}

#[test]
fn the_library_lists_it_where_cursor_keeps_it() {
    for root in [".cursor", "cursor-config"] {
        let home = Home::new();
        let dir = format!("{root}/projects/workspace-demo/agent-transcripts/{ID}");
        let file = home.put(
            &format!("cursor/tour/{ID}.jsonl"),
            &format!("{dir}/{ID}.jsonl"),
        );
        // A sub-agent's transcript is part of the session, not one of its own.
        home.put(
            &format!("cursor/tour/{ID}.jsonl"),
            &format!("{dir}/subagents/sub-1.jsonl"),
        );
        let moved = home.path().join(root);
        let env: &[(&str, &std::path::Path)] = if root == ".cursor" {
            &[]
        } else {
            &[("CURSOR_CONFIG_DIR", &moved)]
        };
        let row = home.listed_once(env, &[], &file, "cursor");
        // The project folder's name is lossy: no directory is made of it.
        assert!(row["cwd"].is_null(), "{row}");
        assert_eq!(row["calls"], 9, "{row}");
    }
}

#[test]
fn the_html_export_holds_the_queries() {
    let queries = queries();
    let want: Vec<&str> = queries.iter().map(String::as_str).collect();
    export_html(&transcript(), &want);
}
