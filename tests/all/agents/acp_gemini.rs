//! The real capture of Gemini CLI 0.61.0 over ACP
//! (`tests/fixtures/agents/acp/gemini/acp-trace.jsonl`, recorded by
//! `deck acp --record` through `tests/e2e/agents/gemini/run.sh`; what it
//! teaches in the README beside it) through the whole of deck: detected,
//! read, listed by `deck inspect`, drawn by `deck render`, and snapshotted
//! card by card at 40/80/120 in dark and light.

use deck::theme::Theme;

use crate::common::dump::{THEMES, cards_at_widths};
use crate::common::{card_of, deck_ok, fold, inspect_lines as inspect};

fn gemini() -> String {
    format!(
        "{}/tests/fixtures/agents/acp/gemini/acp-trace.jsonl",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn inspect_lists_every_gemini_call_with_its_card_and_status() {
    let calls = inspect(&gemini());
    let rows: Vec<(String, String, String, Option<String>)> = calls
        .iter()
        .map(|v| {
            assert_eq!(v["viewSource"], "presenter:acp", "{v}");
            (
                v["tool"].as_str().unwrap_or_default().to_string(),
                card_of(v),
                v["status"].as_str().unwrap_or_default().to_string(),
                v["approval"]["outcome"].as_str().map(str::to_string),
            )
        })
        .collect();
    // Gemini CLI names no tool (no `_meta`): the tool is the ACP kind.
    // list_directory, glob and grep_search show no listing (generic, or
    // nothing but a count); read_file reads the file itself and shows
    // nothing (generic, not an empty read card); write_file of a new file
    // fails in the CLI (see the README); `ls` needs no approval.
    let allowed = || Some("allowed once".to_string());
    let want = [
        ("search", "generic", "ok", None),
        ("read", "generic", "ok", None),
        ("search", "generic", "ok", None),
        ("search", "generic", "ok", None),
        ("edit", "diff", "ok", allowed()),
        ("edit", "generic", "error", None),
        ("edit", "diff", "ok", allowed()),
        ("execute", "terminal", "ok", allowed()),
        ("execute", "terminal", "ok", None),
    ];
    let want: Vec<(String, String, String, Option<String>)> = want
        .into_iter()
        .map(|(t, c, s, a)| (t.into(), c.into(), s.into(), a))
        .collect();
    assert_eq!(rows, want, "{calls:#?}");
    // Calls announced only by their permission request keep its content:
    // replace's whole-file diff, placed at line 1; write_file over an
    // existing file diffs against what the client served.
    assert_eq!(calls[4]["callView"]["card"], "diff");
    assert_eq!(calls[4]["resultView"]["diffs"][0]["startLine"], 1);
    let readme = &calls[6]["resultView"]["diffs"][0];
    assert_eq!(readme["path"], "/workspace/demo/README.md");
    assert_eq!(readme["oldText"], "# demo\n\nA tiny statistics helper.\n");
    assert_eq!(
        calls[1]["resultView"]["locations"][0]["path"],
        "/workspace/demo/src/stats.py"
    );
    assert!(
        calls[5]["resultView"]["content"][0]["text"]
            .as_str()
            .is_some_and(|t| t.starts_with("Error checking existing file")),
        "{}",
        calls[5]
    );
    // Gemini runs commands itself (no terminal/*): no output, no exit code.
    assert_eq!(calls[7]["resultView"]["output"], "");
    assert!(calls[7]["resultView"].get("exitCode").is_none());
}

#[test]
fn the_gemini_capture_folds_to_its_session_and_no_diagnostics() {
    let t = fold(&gemini());
    assert!(t.diagnostics().is_empty(), "{:?}", t.diagnostics());
    let loaded = deck::source::load_path(&gemini()).expect("loads");
    assert_eq!(loaded.format.name(), "ACP recording");
    let header = loaded.sessions[0].header.as_ref().expect("header");
    assert_eq!(header["agent"], "acp");
    assert_eq!(header["agentName"], "gemini-cli");
    assert_eq!(header["version"], "0.61.0");
    assert_eq!(header["cwd"], "/workspace/demo");
    assert_eq!(header["mode"], "default");
}

#[test]
fn render_draws_the_gemini_capture() {
    let text = deck_ok(&["render", "--width", "100", &gemini()]);
    for want in [
        "[gem-1] Tour this project",
        "I'll look around first.",
        "if not xs:",
        "`spread([])` is 0.",
        "Error checking existing file",
        "cd src && python3 -m unittest -v test_stats",
        "the new test file could not be",
    ] {
        assert!(text.contains(want), "{want:?} missing:\n{text}");
    }
}

#[test]
fn snapshots_of_the_gemini_capture() {
    let t = fold(&gemini());
    for theme_name in THEMES {
        let theme = Theme::builtin(theme_name).expect("built-in theme");
        let out = cards_at_widths(&t, &theme, "acp gemini");
        insta::assert_snapshot!(format!("agents_acp_gemini__{theme_name}"), out);
    }
}

#[test]
fn a_call_gemini_never_ends_after_its_rejection_is_rejected_not_interrupted() {
    // The same scenario run with `--reject`: Gemini CLI sends no update
    // for a call whose permission was rejected; the turn ends around it.
    let path = format!(
        "{}/tests/fixtures/agents/acp/gemini/acp-trace-rejected.jsonl",
        env!("CARGO_MANIFEST_DIR")
    );
    let rows: Vec<(String, String, Option<String>)> = inspect(&path)
        .iter()
        .map(|v| {
            (
                v["tool"].as_str().unwrap_or_default().to_string(),
                v["status"].as_str().unwrap_or_default().to_string(),
                v["approval"]["outcome"].as_str().map(str::to_string),
            )
        })
        .collect();
    let rejected = || Some("rejected once".to_string());
    let want = [
        ("search", "ok", None),
        ("read", "ok", None),
        ("search", "ok", None),
        ("search", "ok", None),
        ("edit", "rejected", rejected()),
        ("edit", "error", None),
        ("edit", "rejected", rejected()),
        ("execute", "rejected", rejected()),
        ("execute", "ok", None),
    ];
    let want: Vec<(String, String, Option<String>)> = want
        .into_iter()
        .map(|(t, s, a)| (t.into(), s.into(), a))
        .collect();
    assert_eq!(rows, want);
}
