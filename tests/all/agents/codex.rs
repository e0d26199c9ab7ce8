//! Codex rollouts through the whole of deck: the real rollout of Codex
//! 0.169 (`tests/fixtures/agents/codex/tour.rollout.jsonl`) and the two
//! older generations are detected by content, read and drawn by `deck
//! inspect` and `deck render` (the reader and the presenters have their own
//! tests beside them, in `src/agents/codex/`).

use serde_json::Value;

use crate::common::{card_of, deck_ok, inspect_lines as inspect};

fn fixture(name: &str) -> String {
    format!(
        "{}/tests/fixtures/agents/codex/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn every_call_of_the_real_rollout_has_its_card() {
    let calls = inspect(&fixture("tour.rollout.jsonl"));
    let got: Vec<(String, String, String)> = calls
        .iter()
        .map(|v| {
            (
                v["tool"].as_str().unwrap_or_default().to_string(),
                card_of(v),
                v["status"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    // The capture's README: 22 calls, the one `write_stdin` poll folded
    // into the command it polls; plans are drawn as their checklist.
    assert_eq!(got.len(), 21, "{got:#?}");
    for (tool, card, _) in &got {
        let want = match tool.as_str() {
            "exec_command" => &["terminal", "read", "search"][..],
            "apply_patch" => &["diff", "generic"][..],
            "update_plan" => &["generic"][..],
            "web_search_call" => &["web"][..],
            other => panic!("unexpected tool {other}"),
        };
        assert!(want.contains(&card.as_str()), "{tool} drawn as {card}");
    }
    // The failed patch is an error card; a failing command is `failed`.
    assert!(
        got.iter().any(|g| g.0 == "apply_patch" && g.2 == "error"),
        "{got:#?}"
    );
    assert!(
        got.iter().any(|g| g.0 == "exec_command" && g.2 == "failed"),
        "{got:#?}"
    );
    for v in &calls {
        assert!(
            v["callId"].as_str().is_some_and(|id| id.contains('_')),
            "{v}"
        );
        assert_eq!(v["viewSource"], "presenter:codex", "{v}");
    }
}

#[test]
fn a_rollout_renders_as_a_session_of_cards() {
    let text = deck_ok(&["render", &fixture("tour.rollout.jsonl"), "--width", "100"]);
    for want in [
        "── turn 1 ─",
        "› Give me a quick tour of this repo",
        "✓ $ ls -la",
        "✓ ☑ Plan",
        "≡ cat README.md",
        "✗ $ python3 src/stats.py",
        "± Patch: update src/stats.py",
        "-     return sum(values) / (len(values) + 1)",
    ] {
        assert!(text.contains(want), "{want:?} in\n{text}");
    }
}

#[test]
fn older_generations_are_read_too() {
    for name in ["gen1.rollout.jsonl", "gen2.rollout.jsonl"] {
        let calls = inspect(&fixture(name));
        assert!(!calls.is_empty(), "{name}");
        assert!(
            calls.iter().all(|v| v["viewSource"] == "presenter:codex"),
            "{name}"
        );
        let text = deck_ok(&["render", &fixture(name), "--width", "80"]);
        assert!(text.contains("$ ") || text.contains("± "), "{name}: {text}");
    }
}

#[test]
fn follow_latest_finds_the_agents_newest_session_here_or_says_where_it_looked() {
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let run = |agent: &str| {
        crate::common::deck_cmd()
            .args(["follow", "--latest", agent])
            .current_dir(work.path())
            .env("CLAUDE_CONFIG_DIR", home.path().join("claude"))
            .env("CODEX_HOME", home.path().join("codex"))
            .output()
            .unwrap()
    };
    // Nothing there: the error names the directory and where deck looked.
    let out = run("claude");
    assert!(!out.status.success());
    let err = crate::common::stderr(&out);
    assert!(err.contains("no Claude Code session for"), "{err}");
    assert!(err.contains("claude/projects/"), "{err}");
    let err = crate::common::stderr(&run("codex"));
    assert!(err.contains("no Codex session for"), "{err}");
    // A session of this directory: found, and then deck wants a terminal
    // (the tests have none), which it says.
    let cwd = std::fs::canonicalize(work.path()).unwrap();
    let project: String = cwd
        .to_string_lossy()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let dir = home.path().join("claude/projects").join(project);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("s.jsonl"), "").unwrap();
    let err = crate::common::stderr(&run("claude"));
    assert!(err.contains("needs a terminal"), "{err}");
}

#[test]
fn inspect_gives_the_plan_a_call_is_drawn_as() {
    let calls = inspect(&fixture("tour.rollout.jsonl"));
    let plans: Vec<&Value> = calls
        .iter()
        .filter(|v| v["tool"] == "update_plan")
        .collect();
    assert_eq!(plans.len(), 5);
    for v in &plans {
        let plan = v["plan"].as_array().expect("plan");
        let steps = v["callView"]["rawInput"].as_array().expect("the steps");
        assert_eq!(plan.len(), steps.len(), "{v}");
        for (item, step) in plan.iter().zip(steps) {
            assert_eq!(item["content"], step["step"], "{v}");
            assert_eq!(item["status"], step["status"], "{v}");
        }
    }
    // Calls not drawn as a plan have no `plan`.
    assert!(
        calls
            .iter()
            .filter(|v| v["tool"] != "update_plan")
            .all(|v| v.get("plan").is_none())
    );
}

/// `deck inspect` says of each call what its card says: its status, its
/// exit code, how long it took (absent where the log does not say).
#[test]
fn inspect_says_how_each_call_ended_as_its_card_does() {
    let facts = |name: &str| -> Vec<String> {
        inspect(&fixture(name))
            .iter()
            .map(|v| {
                format!(
                    "{} {} exit {} took {}",
                    v["callId"].as_str().unwrap_or_default(),
                    v["status"].as_str().unwrap_or_default(),
                    v["exitCode"],
                    v["durationMs"]
                )
            })
            .collect()
    };
    // A 2025 rollout: exit codes in its outputs (JSON, a sandbox denial),
    // Codex's error texts, durations it recorded and no times.
    assert_eq!(
        facts("legacy.rollout.jsonl"),
        [
            "call_pytest ok exit 0 took 4600",
            "call_touch failed exit 1 took null",
            "call_patch_bad error exit null took null",
            "call_heredoc_bad error exit null took null",
            "call_patch_ok ok exit 0 took 12",
            "call_grep failed exit 1 took 31",
            "call_rejected rejected exit null took null",
            "call_redacted unknown exit null took null",
        ]
    );
    // Codex Desktop: exit codes from its end events, times from its lines.
    assert_eq!(
        facts("desktop.rollout.jsonl"),
        [
            "call_status ok exit 0 took 1000",
            "call_test failed exit 101 took 5000",
            "call_fix ok exit null took 0",
            "call_note unknown exit null took 0",
            "call_secret unknown exit null took 0",
            "call_gone error exit null took 0",
        ]
    );
    let text = deck_ok(&["render", &fixture("legacy.rollout.jsonl"), "--width", "100"]);
    for want in [
        "✓ $ pytest -q",
        "exit 0  4.6s",
        "✗ $ touch /etc/app.conf",
        "stopped by Codex's sandbox",
        "⊘ $ rm -rf build",
        "· $ cat .env",
    ] {
        assert!(text.contains(want), "{want:?} in\n{text}");
    }
    // No card claims a time the log does not hold.
    assert!(!text.contains(" 0ms"), "{text}");
}

/// A patch Codex applied in the middle of a file (the real 0.169 kit run)
/// is drawn at the file's line numbers, both sides.
#[test]
fn a_patch_mid_file_renders_at_its_line_numbers() {
    let text = deck_ok(&[
        "render",
        &fixture("mid_file.rollout.jsonl"),
        "--width",
        "100",
        "--density",
        "full",
    ]);
    // The applied patch's card (the one that does not apply, after it, is
    // drawn `not applied`: Codex recorded no lines for it).
    let applied = text.split("✗ ± Patch").next().unwrap_or_default();
    assert!(applied.contains("✓ ± Patch: update data.txt"), "{text}");
    assert!(!applied.contains("lines unknown"), "{text}");
    let failed = text.split("✗ ± Patch").nth(1).unwrap_or_default();
    assert!(failed.contains("not applied"), "{text}");
    for want in [
        "409     - line 409",
        "    411 + line four hundred nine",
        "408 410   line 408",
    ] {
        assert!(text.contains(want), "{want:?} in\n{text}");
    }
}
