//! Claude Code sessions: the real capture of Claude Code 2.1.328
//! (`tests/fixtures/agents/claude-code/tour/`, with its `tool-calls.md`)
//! and hand-written lines of shapes that version no longer writes
//! (`shapes.jsonl`: Grep, Glob, TodoWrite, MultiEdit, `progress` lines, …)
//! read as cards: `deck inspect`, `deck render`, and snapshots of every
//! mapping at 40/80/120 columns in the dark and light themes.

use std::collections::HashMap;
use std::fmt::Write as _;

use deck::cards::Density;
use deck::theme::Theme;
use serde_json::Value;

use crate::common::dump::{Runs, THEMES, WIDTHS, render_card, styled};
use crate::common::{deck, deck_ok, fold, stderr, stdout};

const DIR: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/agents/claude-code"
);

fn fixture(rel: &str) -> String {
    format!("{DIR}/{rel}")
}

const TOUR: &str = "tour/7a3f1c2e-0d4b-4e8a-9c61-2b5d8e0f4a17.jsonl";

/// `deck inspect` lines by call id.
fn inspect(path: &str) -> HashMap<String, Value> {
    deck_ok(&["inspect", path])
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).expect("inspect line is JSON");
            (v["callId"].as_str().expect("callId").to_string(), v)
        })
        .collect()
}

/// The card a line shows: its result view's tag, else its call view's.
fn tag(line: &Value) -> String {
    let of = |k: &str| line[k]["card"].as_str().map(str::to_string);
    of("resultView")
        .or_else(|| of("callView"))
        .unwrap_or_default()
}

/// The tool of each row of `tool-calls.md` for one log, in order.
fn listed_tools(file: &str) -> Vec<String> {
    std::fs::read_to_string(fixture("tour/tool-calls.md"))
        .expect("tool-calls.md")
        .lines()
        .filter_map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            (cells.len() > 3 && cells[1] == file).then(|| cells[2].to_string())
        })
        .collect()
}

/// The card each tool of the capture must get (success; errors keep the
/// call's card with the error).
fn expected(tool: &str) -> &'static str {
    match tool {
        "Bash" => "terminal",
        "Read" => "read",
        "Edit" | "Write" | "MultiEdit" => "diff",
        "Grep" | "Glob" => "search",
        "WebSearch" | "WebFetch" => "web",
        _ => "generic",
    }
}

#[test]
fn inspect_lists_every_call_of_the_capture_with_its_card() {
    let path = fixture(TOUR);
    let out = deck(&["inspect", &path]);
    assert!(out.status.success(), "{}", stderr(&out));
    let order: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    let tools: Vec<&str> = order.iter().filter_map(|v| v["tool"].as_str()).collect();
    let listed = listed_tools("7a3f1c2e-0d4b-4e8a-9c61-2b5d8e0f4a17.jsonl");
    assert_eq!(tools, listed);
    for v in &order {
        let id = v["callId"].as_str().expect("callId");
        assert!(id.starts_with("toolu_"), "{id}");
        assert_eq!(v["viewSource"], "presenter:claude-code", "{v}");
        let tool = v["tool"].as_str().expect("tool");
        let status = v["status"].as_str().expect("status");
        if status == "error" {
            // Grep (no such tool), WebFetch (offline) and `exit 1`.
            assert!(matches!(tool, "Grep" | "WebFetch" | "Bash"), "{v}");
            continue;
        }
        assert_eq!(status, "ok", "{v}");
        assert_eq!(tag(v), expected(tool), "{v}");
    }
    // The failed command is a terminal card with its exit code.
    let bash_err = order
        .iter()
        .find(|v| v["tool"] == "Bash" && v["status"] == "error")
        .expect("failed Bash");
    assert_eq!(bash_err["resultView"]["exitCode"], 1);
    // Reads at their real line numbers.
    let read = &inspect(&path)["toolu_01c02375c22d3156459b2de1"];
    assert_eq!(read["resultView"]["offset"], 1);
    assert_eq!(read["resultView"]["lines"][11]["number"], 12);
    assert_eq!(read["resultView"]["totalLines"], 40);
}

#[test]
fn the_capture_is_folded_once_turns_plan_and_no_diagnostics() {
    let t = fold(&fixture(TOUR));
    assert_eq!(t.agent(), Some("claude-code"));
    assert_eq!(t.cwd(), Some("/workspace/demo"));
    assert_eq!(t.cards().len(), 24);
    assert!(t.diagnostics().is_empty(), "{:?}", t.diagnostics());
    // The task tools write the plan: the last one shows it done.
    let planned: Vec<_> = t.cards().iter().filter(|c| c.todos.is_some()).collect();
    // Every task call shows the list as it left it, the two TaskCreate
    // calls made together included (each its own).
    let tasks: Vec<_> = t
        .cards()
        .iter()
        .filter(|c| c.tool.as_deref().is_some_and(|n| n.starts_with("Task")))
        .collect();
    assert_eq!(tasks.len(), 5);
    for c in &tasks {
        assert!(c.todos.is_some(), "{} {:?}: no plan", c.call_id, c.tool);
    }
    let first = tasks[0].todos.clone().expect("plan");
    assert_eq!(first.len(), 1, "the first TaskCreate made one task");
    let last = planned.last().and_then(|c| c.todos.clone()).expect("plan");
    assert_eq!(last[0].status, "completed");
    // Three prompts, three turns.
    let turns = t
        .items()
        .iter()
        .filter(|i| matches!(i, deck::session::Item::Turn(m) if m.end.is_none()))
        .count();
    assert_eq!(turns, 3);
}

#[test]
fn subagent_logs_read_alone() {
    for (file, tools) in [
        ("agent-a6a1a5e4ad1eadaa6.jsonl", vec!["Bash"]),
        ("agent-af605bc8e444bce71.jsonl", vec!["Bash", "Read"]),
    ] {
        let path = fixture(&format!(
            "tour/7a3f1c2e-0d4b-4e8a-9c61-2b5d8e0f4a17/subagents/{file}"
        ));
        let t = fold(&path);
        let got: Vec<_> = t.cards().iter().filter_map(|c| c.tool.clone()).collect();
        assert_eq!(got, tools);
        assert!(t.diagnostics().is_empty());
    }
}

#[test]
fn older_shapes_get_their_cards() {
    let lines = inspect(&fixture("shapes.jsonl"));
    let card = |id: &str| tag(&lines[id]);
    assert_eq!(card("toolu_shape01"), "search"); // Grep, content
    assert_eq!(
        lines["toolu_shape01"]["resultView"]["files"][0]["matches"][1]["lineNumber"],
        12
    );
    assert_eq!(card("toolu_shape02"), "search"); // Grep, files
    assert_eq!(card("toolu_shape03"), "search"); // Glob
    assert_eq!(card("toolu_shape05"), "diff"); // MultiEdit
    assert_eq!(card("toolu_shape07"), "terminal"); // interrupted
    assert_eq!(
        lines["toolu_shape07"]["resultView"]["signal"],
        "interrupted"
    );
    assert_eq!(lines["toolu_shape08"]["resultView"]["exitCode"], 1);
    assert_eq!(card("toolu_shape12"), "web"); // WebFetch
    assert_eq!(card("toolu_shape13"), "read"); // Read without toolUseResult
    assert_eq!(lines["toolu_shape13"]["resultView"]["offset"], 5);
    let t = fold(&fixture("shapes.jsonl"));
    assert!(t.diagnostics().is_empty(), "{:?}", t.diagnostics());
    assert_eq!(t.title(), Some("Shapes of older Claude Code tools"));
    let todo = t.card("toolu_shape04").expect("TodoWrite");
    assert_eq!(todo.todos.as_ref().map(|l| l.len()), Some(3));
    let ask = t.card("toolu_shape09").expect("AskUserQuestion");
    assert!(ask.question.is_some());
    let diff = &lines["toolu_shape05"]["resultView"]["diffs"][0];
    assert!(
        diff["newText"]
            .as_str()
            .unwrap()
            .contains("raise ValueError")
    );
    assert!(diff["newText"].as_str().unwrap().contains("if xs else 0.0"));
    assert_eq!(diff["startLine"], 1);
    // The message written twice is one message.
    let messages = t
        .items()
        .iter()
        .filter(|i| matches!(i, deck::session::Item::Assistant(_)))
        .count();
    assert_eq!(messages, 2);
}

#[test]
fn a_malformed_line_is_a_diagnostic_and_unknown_lines_are_nothing() {
    let t = fold(&fixture("malformed.jsonl"));
    let reasons: Vec<_> = t.diagnostics().iter().map(|d| d.reason.clone()).collect();
    assert_eq!(reasons.len(), 2, "{reasons:?}");
    assert!(reasons[0].contains("no message object"));
    assert!(reasons[1].contains("not JSON"));
}

#[test]
fn render_draws_the_capture() {
    let text = deck_ok(&["render", "--width", "80", &fixture(TOUR)]);
    for want in [
        "$ ls -la && ls -la src",
        "Read src/lib.rs",
        "Edit src/stats.py",
        "Port the empty-list fix to lib.rs",
        "python statistics.median even number of values",
        "Subagent",
        "── turn 3",
    ] {
        assert!(text.contains(want), "{want:?} missing");
    }
}

/// Every card of a fixture, at every width, in one snapshot per theme.
fn snapshot_cards(name: &str, path: &str) {
    let t = fold(path);
    for theme_name in THEMES {
        let theme = Theme::builtin(theme_name).expect("built-in theme");
        let mut out = String::new();
        for card in t.cards() {
            let tool = card.tool.as_deref().unwrap_or("?");
            for w in WIDTHS {
                let _ = writeln!(out, "── {tool} {} at {w} ──", card.call_id);
                let what = format!("{name} {tool}");
                out.push_str(&styled(
                    &render_card(card, &theme, w, Density::Full, &what),
                    Runs::OneRow,
                ));
            }
        }
        insta::assert_snapshot!(format!("agents_claude_{name}__{theme_name}"), out);
    }
}

#[test]
fn snapshots_of_the_capture() {
    snapshot_cards("tour", &fixture(TOUR));
}

#[test]
fn snapshots_of_older_shapes() {
    snapshot_cards("shapes", &fixture("shapes.jsonl"));
}

#[test]
fn the_loader_names_the_format_and_reads_zstd() {
    let path = fixture(TOUR);
    let loaded = deck::source::load_path(&path).expect("loads");
    assert_eq!(loaded.format.name(), "Claude Code session");
    let header = loaded.sessions[0].header.as_ref().expect("header");
    assert_eq!(header["agent"], "claude-code");
    assert_eq!(header["version"], "2.1.328");
    let bytes = std::fs::read(&path).expect("read");
    let packed = zstd::encode_all(&bytes[..], 3).expect("zstd");
    let z = deck::source::load_bytes("tour.jsonl.zst", &packed).expect("loads zstd");
    assert!(z.compressed);
    assert_eq!(z.format, loaded.format);
    assert_eq!(
        z.sessions[0].records.len(),
        loaded.sessions[0].records.len()
    );
}

/// `deck follow`'s source on a Claude Code log being written: every call
/// arrives as its lines do (the last turn stays open: the file may grow).
#[tokio::test]
async fn follow_reads_a_growing_log() {
    use deck::source::follow::Follow;
    use deck::source::live::{self, LiveEvent};
    use std::io::Write as _;

    let whole = std::fs::read_to_string(fixture(TOUR)).expect("capture");
    let all = deck::source::load_path(&fixture(TOUR)).expect("loads");
    let events = all.sessions[0]
        .records
        .iter()
        .filter_map(|r| r.seq())
        .count();
    let lines: Vec<&str> = whole.split_inclusive('\n').collect();
    let (head, tail) = lines.split_at(lines.len() / 2);
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("session.jsonl");
    std::fs::write(&path, head.concat()).expect("write");
    let mut f = Follow::new(&path);
    f.poll = std::time::Duration::from_millis(10);
    let (tx, mut rx) = live::channel();
    let h = tokio::spawn(async move {
        let _ = f.run(None, tx).await;
    });
    let mut seqs = Vec::new();
    let mut appended = false;
    let run = async {
        while seqs.len() < events - 1 {
            if let Some(LiveEvent::Records(rs)) = rx.recv().await {
                seqs.extend(rs.iter().filter_map(|r| r.seq()));
            }
            if !appended && !seqs.is_empty() {
                appended = true;
                let mut file = std::fs::OpenOptions::new()
                    .append(true)
                    .open(&path)
                    .expect("open");
                file.write_all(tail.concat().as_bytes()).expect("append");
            }
        }
    };
    tokio::time::timeout(std::time::Duration::from_secs(30), run)
        .await
        .expect("in time");
    assert_eq!(seqs, (1..events as u64).collect::<Vec<_>>());
    drop(rx);
    let _ = tokio::time::timeout(std::time::Duration::from_secs(30), h).await;
}
