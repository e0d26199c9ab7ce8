//! mini-swe-agent's trajectories through the whole of deck, on the real
//! `last_mini_run.traj.json` of mini-swe-agent 2.4.6
//! (`tests/fixtures/agents/mini-swe-agent/tour/`, written by
//! `tests/e2e/agents/mini-swe-agent/`: two tasks, fourteen bash actions —
//! failing, refused, submitting) and on a SWE-agent 1.1 `.traj` written
//! from its format (`swe-agent/demo__demo-1.traj`, five steps): every action listed by
//! `deck inspect` with the status and exit code its `SUMMARY.json` expects
//! (the `returncode` of an action that ran; none for one that did not, none
//! for a SWE-agent step), a plain read at the lines its command fixes,
//! SWE-agent's submitted patch at its hunk's lines and its steps' times;
//! drawn by `deck render`, exported, and listed by `deck sessions` from
//! mini-swe-agent's config folder (`$MSWEA_GLOBAL_CONFIG_DIR`) — and a
//! SWE-agent run's trajectory from a folder the user adds. The cards'
//! snapshots are the presenters' own tests, in `src/agents/mini_swe_agent/`.

use crate::common::agent_tour::{
    Call, Home, assert_calls, export_html, first_hunk, first_read_line, fixture, inspect,
    json_file, render, start_lines, summary_calls,
};

fn tour() -> String {
    fixture("mini-swe-agent/tour/last_mini_run.traj.json")
}

fn swe() -> String {
    fixture("mini-swe-agent/swe-agent/demo__demo-1.traj")
}

/// The calls of a SUMMARY.json, each with its card, as `deck inspect`
/// must list them.
fn want(summary: &str, cards: &[&str]) -> Vec<Call> {
    let calls = summary_calls(&fixture(summary));
    assert_eq!(calls.len(), cards.len());
    calls
        .iter()
        .zip(cards)
        .map(|(c, card)| {
            let s = |v: &serde_json::Value| v.as_str().unwrap().to_string();
            Call::new(
                &s(&c["callId"]),
                &s(&c["tool"]),
                card,
                &s(&c["expect"]["status"]),
                c["expect"]["exitCode"].as_i64(),
            )
        })
        .collect()
}

#[test]
fn every_action_is_listed_as_its_summary_expects() {
    // docs/agents.md's table: a terminal, but a plain read or search that
    // exited 0 is a read or search card.
    let cards = [
        "terminal", "read", "read", "search", "search", "terminal", "terminal", "terminal",
        "terminal", "terminal", "terminal", "terminal", "read", "terminal",
    ];
    let got = inspect(&tour(), "mini-swe-agent");
    assert_calls(&got, &want("mini-swe-agent/tour/SUMMARY.json", &cards));
    // A read at the lines its command asks for: `sed -n 'A,Bp'`, `head`.
    let calls = summary_calls(&fixture("mini-swe-agent/tour/SUMMARY.json"));
    for (g, c) in got.iter().zip(&calls) {
        let cmd = c["command"].as_str().unwrap();
        let first = if let Some(range) = cmd.strip_prefix("sed -n '") {
            range.split(',').next().unwrap().parse().ok()
        } else if cmd.starts_with("head ") || (cmd.starts_with("cat ") && !cmd.contains('>')) {
            Some(1)
        } else {
            continue;
        };
        assert_eq!(first_read_line(g), first, "{cmd}");
    }
}

#[test]
fn every_swe_agent_step_is_listed_as_its_summary_expects() {
    let cards = ["terminal", "read", "terminal", "terminal", "diff"];
    let got = inspect(&swe(), "mini-swe-agent");
    assert_calls(&got, &want("mini-swe-agent/swe-agent/SUMMARY.json", &cards));
    let traj = json_file(&swe());
    // Each step's time is its `execution_time`.
    for (g, step) in got.iter().zip(traj["trajectory"].as_array().unwrap()) {
        let secs = step["execution_time"].as_f64().unwrap();
        assert_eq!(
            g["durationMs"].as_f64(),
            Some((secs * 1000.0).round()),
            "{g}"
        );
    }
    // The submitted patch at its hunk's lines.
    let patch = traj["info"]["submission"].as_str().unwrap();
    assert_eq!(start_lines(&got[4]), [Some(first_hunk(patch).0)]);
}

#[test]
fn render_draws_the_tasks_and_the_cards() {
    render(
        &tour(),
        &[
            "[msa-1] Give me a quick tour of this project",
            "[msa-2] Show me the first lines of src/stats.py.",
            "Read src/stats.py (12 - 18)",
            "$ curl -sS --max-time 5 http://127.0.0.1:47319/docs",
            "exit 7",
            "$ rm README.md",
            "rejected",
        ],
    );
    render(
        &swe(),
        &[
            "spread() of an empty list raises ValueError",
            "$ find /testbed -name '*.py'",
            "Submit",
            "if xs else 0",
        ],
    );
}

#[test]
fn the_library_lists_it_in_the_config_folder() {
    let home = Home::new();
    let at = ".config/mini-swe-agent/last_mini_run.traj.json";
    let file = home.put("mini-swe-agent/tour/last_mini_run.traj.json", at);
    let row = home.listed_once(&[], &[], &file, "mini-swe-agent");
    assert_eq!(row["calls"], 14, "{row}");
    // `$MSWEA_GLOBAL_CONFIG_DIR` moves the folder.
    let other = Home::new();
    let file = other.put(
        "mini-swe-agent/tour/last_mini_run.traj.json",
        "mswea/last_mini_run.traj.json",
    );
    let dir = other.path().join("mswea");
    other.listed_once(
        &[("MSWEA_GLOBAL_CONFIG_DIR", &dir)],
        &[],
        &file,
        "mini-swe-agent",
    );
}

#[test]
fn the_library_finds_swe_agent_trajectories_in_a_folder_the_user_adds() {
    // SWE-agent writes `trajectories/<user>/<run>/<instance>/<instance>.traj`
    // where it runs: no folder of its own.
    let home = Home::new();
    let run = "work/trajectories/me/demo-run/demo__demo-1";
    let file = home.put(
        "mini-swe-agent/swe-agent/demo__demo-1.traj",
        &format!("{run}/demo__demo-1.traj"),
    );
    let trajectories = home.path().join("work/trajectories");
    let row = home.listed_once(&[], &[&trajectories], &file, "mini-swe-agent");
    assert_eq!(row["id"], "demo__demo-1", "{row}");
}

#[test]
fn the_html_export_holds_the_tasks() {
    export_html(&tour(), &["[msa-1] Give me a quick tour of this project"]);
    export_html(&swe(), &["spread() of an empty list raises ValueError"]);
}
