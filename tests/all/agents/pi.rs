//! pi's session files through the whole of deck, on the real session of
//! pi 0.73.1 (`tests/fixtures/agents/pi/tour/`, written by
//! `tests/e2e/agents/pi/`: three runs, the third branching back from the
//! first's end, so the file holds a tree): every call on the branch pi
//! continues listed by `deck inspect` with the tool, status and exit code
//! its `SUMMARY.json` says (the other branch's call not listed, a
//! diagnostic saying so), the edit at the lines its listing numbers, drawn
//! by `deck render`, exported, and listed by `deck sessions` from
//! `~/.pi/agent/sessions/` or `$PI_CODING_AGENT_DIR` (the cards' snapshots
//! are the presenters' own tests, in `src/agents/pi/`).

use serde_json::Value;

use crate::common::agent_tour::{
    Call, Home, assert_calls, export_html, first_read_line, fixture, inspect, json_lines, render,
    start_lines, summary_calls,
};
use crate::common::deck_ok;

const NAME: &str = "2026-12-04T10-19-52-759Z_01a24091-4836-74ba-9643-b89fe1f6b26a.jsonl";

fn tour() -> String {
    fixture(&format!("pi/tour/{NAME}"))
}

/// The raw toolCall or toolResult part of the call `id`.
fn raw_part(id: &str, role: &str) -> Value {
    json_lines(&tour())
        .into_iter()
        .find_map(|l| {
            let m = &l["message"];
            match (m["role"].as_str(), role) {
                (Some("toolResult"), "toolResult") if m["toolCallId"] == id => Some(m.clone()),
                (Some("assistant"), "toolCall") => m["content"]
                    .as_array()?
                    .iter()
                    .find(|p| p["type"] == "toolCall" && p["id"] == id)
                    .cloned(),
                _ => None,
            }
        })
        .unwrap_or_else(|| panic!("no {role} of {id}"))
}

#[test]
fn every_call_on_the_drawn_branch_is_listed_as_its_summary_says() {
    let calls = summary_calls(&fixture("pi/tour/SUMMARY.json"));
    let (on, off): (Vec<&Value>, Vec<&Value>) = calls.iter().partition(|c| c["onPath"] == true);
    // The card each tool draws (docs/agents.md's table for pi).
    let card = |tool: &str| match tool {
        "ls" => "generic",
        "find" | "grep" => "search",
        "read" => "read",
        "edit" | "write" => "diff",
        "bash" => "terminal",
        other => panic!("{other}"),
    };
    let want: Vec<Call> = on
        .iter()
        .map(|c| {
            let tool = c["tool"].as_str().unwrap();
            // A command that exited non-zero failed; pi writes the code only
            // then (in the text), so a passing command's is unknown.
            let exit = c["exitCode"].as_i64();
            let status = match exit {
                Some(n) if n != 0 => "failed",
                _ => c["status"].as_str().unwrap(),
            };
            Call::new(
                c["callId"].as_str().unwrap(),
                tool,
                card(tool),
                status,
                exit,
            )
        })
        .collect();
    let got = inspect(&tour(), "pi");
    assert_calls(&got, &want);
    // The turn on the other branch is not drawn, and a diagnostic says so.
    assert_eq!(off.len(), 1);
    assert!(got.iter().all(|g| g["callId"] != off[0]["callId"]));
    let said = deck_ok(&["inspect", "--diagnostics", &tour()]);
    assert!(said.contains("the session's tree branches"), "{said}");
    assert!(said.contains("lines 13-16"), "{said}");

    let at = |id: &str| got.iter().find(|g| g["callId"] == id).unwrap();
    // The edit at the first line its numbered listing shows.
    let listing = raw_part("call_3_1_0", "toolResult")["details"]["diff"]
        .as_str()
        .unwrap()
        .to_string();
    let first: u64 = listing
        .lines()
        .find_map(|l| l[1..].split_whitespace().next()?.parse().ok())
        .unwrap();
    assert_eq!(start_lines(at("call_3_1_0")), [Some(first)]);
    // A write's content is the file whole, from line 1.
    assert_eq!(start_lines(at("call_3_2_0")), [Some(1)]);
    // The read window at the line its offset asks for (pi's are 1-based).
    let offset = raw_part("call_3_0_0", "toolCall")["arguments"]["offset"].as_u64();
    assert_eq!(first_read_line(at("call_3_0_0")), offset);
}

#[test]
fn render_draws_the_continued_branch() {
    let text = render(
        &tour(),
        &[
            "[pi-1] Give me a quick tour of this project",
            "[pi-3] Never mind the README.",
            "Read src/stats.py (7 - 9)",
            "if not xs:",
            "ls missing-dir",
            "exit 2",
        ],
    );
    // The prompt of the branch pi left is not drawn as a prompt (the
    // diagnostic naming that branch quotes its line).
    assert!(!text.contains("› [pi-2]"), "{text}");
    assert!(text.contains("the session's tree branches"), "{text}");
}

#[test]
fn the_library_lists_it_where_pi_keeps_it() {
    let home = Home::new();
    let at = format!(".pi/agent/sessions/--workspace-demo--/{NAME}");
    let file = home.put(&format!("pi/tour/{NAME}"), &at);
    let row = home.listed_once(&[], &[], &file, "pi");
    // The header's cwd and id.
    let header = &json_lines(&tour())[0];
    assert_eq!(row["cwd"], header["cwd"], "{row}");
    assert_eq!(row["id"], header["id"], "{row}");
    // `$PI_CODING_AGENT_DIR` moves `~/.pi/agent`.
    let elsewhere = Home::new();
    let moved = elsewhere.put(
        &format!("pi/tour/{NAME}"),
        &format!("agent-dir/sessions/--workspace-demo--/{NAME}"),
    );
    let dir = elsewhere.path().join("agent-dir");
    elsewhere.listed_once(&[("PI_CODING_AGENT_DIR", &dir)], &[], &moved, "pi");
}

#[test]
fn the_html_export_holds_the_prompts() {
    export_html(
        &tour(),
        &[
            "[pi-1] Give me a quick tour of this project",
            "[pi-3] Never mind the README.",
        ],
    );
}

/// A big result's view is not kept beside the result (its text would be
/// held twice): it is drawn again from the result when looked at, and
/// draws what it holds — the whole output, the same as a small one's.
#[test]
fn a_big_results_view_is_drawn_again_from_the_result_not_kept() {
    let path = "tests/fixtures/agents/pi/tour/2026-12-04T10-19-52-759Z_01a24091-4836-74ba-9643-b89fe1f6b26a.jsonl";
    let pad: String = (0..2000).map(|i| format!("padding line {i}\n")).collect();
    let mut big = None;
    let text: String = std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|line| {
            let mut v: serde_json::Value = serde_json::from_str(line).unwrap();
            if big.is_none()
                && v.pointer("/message/role")
                    .is_some_and(|r| r == "toolResult")
            {
                big = v
                    .pointer("/message/toolCallId")
                    .and_then(|c| c.as_str())
                    .map(str::to_string);
                if let Some(text) = v.pointer_mut("/message/content/0/text") {
                    *text = format!("{}{pad}", text.as_str().unwrap()).into();
                }
            }
            format!("{v}\n")
        })
        .collect();
    let big = big.expect("a result to grow");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("s.jsonl");
    std::fs::write(&file, text).unwrap();
    let loaded = deck::source::load_path(file.to_str().unwrap()).unwrap();
    let t =
        deck::session::Transcript::from_records(None, &loaded.sessions[0].records, deck::stock());
    let card = t.card(&big).expect("the card");
    let view = card.result_view.as_ref().expect("its view");
    assert!(view.is_drawn_again() && view.kept_text().is_none());
    assert!(view.raw().as_str().contains("padding line 1999"));
    let small = t
        .cards()
        .iter()
        .filter_map(|c| c.result_view.as_ref())
        .filter(|v| !v.is_drawn_again())
        .count();
    assert!(small > 5, "small views are kept: {small}");
}
