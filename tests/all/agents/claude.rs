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

use crate::common::dump::{Runs, THEMES, WIDTHS, cards_at_widths, render_card, styled};
use crate::common::{deck, deck_ok, fold, stderr, stdout};

pub(crate) const DIR: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/agents/claude-code"
);

pub(crate) fn fixture(rel: &str) -> String {
    format!("{DIR}/{rel}")
}

pub(crate) const TOUR: &str = "tour/7a3f1c2e-0d4b-4e8a-9c61-2b5d8e0f4a17.jsonl";

/// `deck inspect` lines by call id.
pub(crate) fn inspect(path: &str) -> HashMap<String, Value> {
    deck_ok(&["inspect", path])
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).expect("inspect line is JSON");
            (v["callId"].as_str().expect("callId").to_string(), v)
        })
        .collect()
}

/// The card a line shows: its result view's tag, else its call view's.
pub(crate) fn tag(line: &Value) -> String {
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
    // The session's calls, each subagent's after the call that started it.
    let under = |parent: Option<&str>| -> Vec<&str> {
        order
            .iter()
            .filter(|v| v["parentCallId"].as_str() == parent)
            .filter_map(|v| v["tool"].as_str())
            .collect()
    };
    assert_eq!(
        under(None),
        listed_tools("7a3f1c2e-0d4b-4e8a-9c61-2b5d8e0f4a17.jsonl")
    );
    for (agent, call) in [
        ("af605bc8e444bce71", "toolu_01c2371404ce16b988db7614"),
        ("a6a1a5e4ad1eadaa6", "toolu_01b59d87c3804d0a7660f63e"),
    ] {
        let file = format!("7a3f1c2e-0d4b-4e8a-9c61-2b5d8e0f4a17/subagents/agent-{agent}.jsonl");
        assert_eq!(under(Some(call)), listed_tools(&file), "{agent}");
        let at = order
            .iter()
            .position(|v| v["callId"] == call)
            .expect("call");
        assert_eq!(order[at + 1]["parentCallId"], call, "right after its call");
    }
    for v in &order {
        let id = v["callId"].as_str().expect("callId");
        assert!(id.starts_with("toolu_"), "{id}");
        assert_eq!(v["viewSource"], "presenter:claude-code", "{v}");
        let tool = v["tool"].as_str().expect("tool");
        let status = v["status"].as_str().expect("status");
        if status == "error" {
            // Grep (no such tool), WebFetch (offline).
            assert!(matches!(tool, "Grep" | "WebFetch"), "{v}");
            continue;
        }
        if status == "failed" {
            // `exit 1`: failed, its exit code its outcome.
            assert_eq!(tool, "Bash", "{v}");
            continue;
        }
        assert_eq!(status, "ok", "{v}");
        assert_eq!(tag(v), expected(tool), "{v}");
    }
    // The failed command is a terminal card with its exit code.
    let bash_err = order
        .iter()
        .find(|v| v["tool"] == "Bash" && v["status"] == "failed")
        .expect("failed Bash");
    assert_eq!(bash_err["resultView"]["exitCode"], 1);
    // Reads at their real line numbers.
    let read = &inspect(&path)["toolu_01c02375c22d3156459b2de1"];
    assert_eq!(read["resultView"]["offset"], 1);
    assert_eq!(read["resultView"]["lines"][11]["number"], 12);
    // Lines 1–12 of a file Claude counts 40 "lines" (39 and a final
    // newline, or 40 without one: a window cannot tell): no length.
    assert!(read["resultView"].get("totalLines").is_none(), "{read}");
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
        let out = cards_at_widths(&t, &theme, name);
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
    // Bytes have no folder beside them: the same records, without the
    // subagents' logs the path's folder holds.
    let own = |s: &deck::source::LoadedSession| {
        s.records
            .iter()
            .filter(|r| !matches!(r, deck::wire::Record::Nested { .. }))
            .count()
    };
    assert_eq!(own(&z.sessions[0]), own(&loaded.sessions[0]));
    assert_eq!(own(&z.sessions[0]), z.sessions[0].records.len());
    assert!(loaded.sessions[0].records.len() > own(&loaded.sessions[0]));
}

/// `deck follow`'s source on a Claude Code log being written: every call
/// arrives as its lines do (the last turn stays open, and its last message
/// is told block by block, not yet whole: the file may grow).
#[tokio::test]
async fn follow_reads_a_growing_log() {
    let all = deck::source::load_path(&fixture(TOUR)).expect("loads");
    let events = all.sessions[0]
        .records
        .iter()
        .filter_map(|r| r.seq())
        .count();
    let seqs = crate::common::follow::follow_half_then_rest(&fixture(TOUR), events - 2).await;
    assert_eq!(seqs, (1..events as u64 - 1).collect::<Vec<_>>());
}

// ---------------------------------------------------------------------------
// A subagent's own transcript, nested under the call that started it.

pub(crate) const EXPLORE: &str = "toolu_01c2371404ce16b988db7614";
pub(crate) const BACKGROUND_AGENT: &str = "toolu_01b59d87c3804d0a7660f63e";

/// The tour's two Agent calls hold their subagents' transcripts: the
/// calls each made, nothing skipped.
pub(crate) fn assert_subagents_nested(t: &deck::session::Transcript) {
    for (call, tools) in [
        (EXPLORE, vec!["Bash", "Read"]),
        (BACKGROUND_AGENT, vec!["Bash"]),
    ] {
        let card = t.card(call).expect("Agent call");
        let child = card.nested.as_ref().expect("nested").transcript();
        let got: Vec<_> = child
            .cards()
            .iter()
            .filter_map(|c| c.tool.clone())
            .collect();
        assert_eq!(got, tools, "{call}");
        assert!(child.diagnostics().is_empty(), "{:?}", child.diagnostics());
        assert_eq!(child.agent(), Some("claude-code"));
    }
}

#[test]
fn each_subagents_log_is_folded_under_its_call() {
    let t = fold(&fixture(TOUR));
    // The session's own calls only; none of the subagents' is counted.
    assert_eq!(t.cards().len(), 24);
    assert_subagents_nested(&t);
    // Read from stdin the log has no folder: nothing nested, nothing said.
    let bytes = std::fs::read(fixture(TOUR)).expect("read");
    let alone = deck::source::load_bytes("-", &bytes).expect("loads");
    let t = crate::common::fold_session(&alone.sessions[0]);
    assert!(t.cards().iter().all(|c| c.nested.is_none()));
    assert!(t.diagnostics().is_empty());
}

#[test]
fn render_opens_a_subagent_and_a_closed_one_is_one_row() {
    use deck::view::transcript::{LayoutOptions, layout};
    let text = deck_ok(&["render", "--width", "80", &fixture(TOUR)]);
    for want in [
        "│ ▾ subagent · 2 calls",
        "│   ✓ $ grep -n 'pub fn' src/lib.rs",
        "│   ✓ ≡ Read src/lib.rs (3 - 22)",
        "│ ▾ subagent · 1 call",
        "│   ✓ $ python3 src/stats.py 3 1 4 1 5",
    ] {
        assert!(text.contains(want), "{want:?} missing:\n{text}");
    }
    let t = fold(&fixture(TOUR));
    let theme = Theme::dark();
    let shown = |density, open| {
        let mut opts = LayoutOptions::new(80, density);
        opts.open_nested = open;
        let lines = layout(&t, &theme, &opts);
        lines
            .iter()
            .map(|l| l.text())
            .collect::<Vec<_>>()
            .join("\n")
    };
    // Closed (the TUI's cards until opened): a summary row, no calls.
    let closed = shown(Density::Preview, false);
    assert!(closed.contains("│ ▸ subagent · 2 calls"), "{closed}");
    assert!(!closed.contains("grep -n 'pub fn'"));
    // A card at full density is open whatever the options.
    let full = shown(Density::Full, false);
    assert!(full.contains("│ ▾ subagent · 2 calls"));
    assert!(full.contains("│   ✓ $ grep -n 'pub fn' src/lib.rs"));
    // A line is one row: nothing nested.
    let lines = shown(Density::Line, true);
    assert!(!lines.contains("subagent ·"));
}

#[test]
fn enter_opens_and_closes_the_subagent_of_the_focused_call() {
    use crate::common::tui::{key, screen, viewer_sized};
    use crossterm::event::KeyCode;
    let mut app = viewer_sized(&fixture(TOUR), 100, 60);
    let t = fold(&fixture(TOUR));
    let item = t
        .items()
        .iter()
        .position(|i| matches!(i, deck::session::Item::Tool(c) if t.cards()[*c].call_id == EXPLORE))
        .expect("Agent item");
    let entry = app
        .list()
        .entries
        .iter()
        .position(|&e| e == item)
        .expect("entry");
    app.set_focus(entry);
    app.show_at_top(entry);
    let shown = screen(&mut app);
    assert!(shown.contains("▸ subagent · 2 calls"), "{shown}");
    assert!(!shown.contains("grep -n 'pub fn'"), "{shown}");
    app.update(key(KeyCode::Enter));
    let shown = screen(&mut app);
    assert!(shown.contains("▾ subagent · 2 calls"), "{shown}");
    assert!(shown.contains("$ grep -n 'pub fn' src/lib.rs"), "{shown}");
    app.update(key(KeyCode::Enter));
    let shown = screen(&mut app);
    assert!(shown.contains("▸ subagent · 2 calls"), "{shown}");
    assert!(!shown.contains("grep -n 'pub fn'"), "{shown}");
}

#[test]
fn a_search_finds_what_a_closed_subagent_did_and_opens_it() {
    use crate::common::tui::{key, screen, typed, viewer_sized};
    use crossterm::event::KeyCode;
    let mut app = viewer_sized(&fixture(TOUR), 100, 60);
    // Only the subagent's Bash call has this description.
    typed(&mut app, "/Find public functions");
    app.update(key(KeyCode::Enter));
    assert_eq!(app.found().matches.len(), 1, "{:?}", app.message());
    let t = fold(&fixture(TOUR));
    let item = app.list().entries[app.found().matches[0].entry];
    assert!(
        matches!(&t.items()[item], deck::session::Item::Tool(c) if t.cards()[*c].call_id == EXPLORE)
    );
    assert_eq!(app.list().overrides.get(&item), Some(&Density::Full));
    let shown = screen(&mut app);
    assert!(shown.contains("▾ subagent · 2 calls"), "{shown}");
    assert!(shown.contains("Find public functions"), "{shown}");
}

#[test]
fn snapshots_of_a_subagent_nested_in_its_call() {
    let tour = fold(&fixture(TOUR));
    let extras = fold(&fixture(crate::agents::claude_extras::EXTRAS));
    let cards = [
        tour.card(EXPLORE),
        tour.card(BACKGROUND_AGENT),
        extras.card("toolu_01extrasagent000000001"),
    ];
    for theme_name in THEMES {
        let theme = Theme::builtin(theme_name).expect("built-in theme");
        let mut out = String::new();
        for card in cards {
            let card = card.expect("Agent call");
            for (density, shown) in [(Density::Preview, "closed"), (Density::Full, "open")] {
                for w in WIDTHS {
                    let _ = writeln!(out, "── {} {shown} at {w} ──", card.call_id);
                    let what = format!("nested {}", card.call_id);
                    out.push_str(&styled(
                        &render_card(card, &theme, w, density, &what),
                        Runs::OneRow,
                    ));
                }
            }
        }
        insta::assert_snapshot!(format!("agents_claude_nested__{theme_name}"), out);
    }
}
