//! What a person and a subagent said in a Claude Code session, kept (issue
//! 29): the answers to `AskUserQuestion` (the options chosen, a typed
//! answer) on the question's card, in `deck inspect` and in the library's
//! searchable text; a subagent's own calls when 2.1.3x logged them inline
//! (`agent_progress`), nested under its Task card with the totals its
//! result counts; a background agent named by what it does; slash commands
//! drawn as commands, a local command's output as its output, never their
//! markup. Real 2.1.328 output (`truth/`) and 2.1.38/2.1.39 shapes
//! (`older/`), and snapshots of the changed cards at 40/80/120 columns in
//! the dark and light themes.

use std::fmt::Write as _;
use std::path::Path;

use deck::cards::Density;
use deck::session::Item;
use deck::theme::Theme;
use serde_json::{Value, json};

use crate::agents::claude::{fixture, inspect};
use crate::agents::claude_truth::{OLDER, TRUTH};
use crate::common::dump::{Runs, THEMES, WIDTHS, render_card, styled};
use crate::common::{deck_ok, fold};

const ASK_CI: &str = "toolu_0121715992b6f0406067093c";
const ASK_MORE: &str = "toolu_01f267bb619e48390a971415";
const EXPLORE: &str = "toolu_01b1d04400cc7ae4902498be";
const BACKGROUND: &str = "toolu_01010da9ea39a6adf293c658";
const OLDER_ASK: &str = "toolu_01olderask000000000000001";
const OLDER_TYPED: &str = "toolu_01olderask000000000000002";
const OLDER_TASK: &str = "toolu_01oldertask00000000000001";

#[test]
fn answers_are_marked_typed_answers_shown_and_both_in_inspect() {
    let lines = inspect(&fixture(TRUTH));
    assert_eq!(
        lines[ASK_CI]["answers"],
        json!([
            {"question": "Which CI rig should run the checks?", "selected": ["No rig"]},
            {"question": "Which checks should run?", "selected": ["Credo", "Dialyxir", "mix_audit"]},
        ]),
        "{}",
        lines[ASK_CI]
    );
    // A typed answer; the answers the result holds for questions this call
    // did not ask are not its.
    assert_eq!(
        lines[ASK_MORE]["answers"],
        json!([{"question": "Anything else the checks should cover?", "selected": [],
                "text": "Only the files changed since main"}]),
    );
    let older = inspect(&fixture(OLDER));
    assert_eq!(
        older[OLDER_ASK]["answers"],
        json!([
            {"question": "Which rig do these beads belong to?", "selected": ["No rig"]},
            {"question": "Which tools should we set up?", "selected": ["Credo + Dialyxir + mix_audit"]},
        ])
    );
    assert_eq!(
        older[OLDER_TYPED]["answers"][0]["text"],
        "main was clean; fix the issues"
    );
    let render = deck_ok(&["render", "--width", "100", &fixture(TRUTH)]);
    for want in [
        "│   ● No rig — Run them by hand",
        "│   ○ GitHub Actions — A workflow in .github/",
        "│   ● Credo — Style",
        "│   ● mix_audit — Advisories",
        "│   → Only the files changed since main",
    ] {
        assert!(render.contains(want), "{want:?} missing:\n{render}");
    }
}

#[test]
fn an_answer_is_found_by_the_library_and_by_search() {
    for (file, call, typed) in [
        (TRUTH, ASK_MORE, "Only the files changed since main"),
        (OLDER, OLDER_TYPED, "main was clean; fix the issues"),
    ] {
        let (_, docs) = crate::common::library_read(&fixture(file));
        let doc = docs
            .iter()
            .find(|d| d.call.as_deref() == Some(call))
            .expect("the question's entry");
        assert!(doc.text.contains(typed), "{:?}", doc.text);
    }
    use crate::common::tui::{key, typed, viewer_sized};
    use crossterm::event::KeyCode;
    let mut app = viewer_sized(&fixture(TRUTH), 100, 60);
    typed(&mut app, "/Only the files changed");
    app.update(key(KeyCode::Enter));
    assert_eq!(app.found().matches.len(), 1, "{:?}", app.message());
}

#[test]
fn an_inline_subagent_is_nested_under_its_task_with_its_totals() {
    let t = fold(&fixture(OLDER));
    let card = t.card(OLDER_TASK).expect("Task");
    let child = card.nested.as_ref().expect("nested").transcript();
    let tools: Vec<_> = child
        .cards()
        .iter()
        .filter_map(|c| c.tool.clone())
        .collect();
    assert_eq!(tools, ["Read", "Glob", "Bash"]);
    assert_eq!(child.error_count(), 1, "the Bash that exited 1");
    assert!(child.diagnostics().is_empty(), "{:?}", child.diagnostics());
    // The session's own calls only.
    assert_eq!(
        t.cards().len(),
        4,
        "{:?}",
        t.cards().iter().map(|c| &c.tool).collect::<Vec<_>>()
    );
    let order: Vec<Value> = deck_ok(&["inspect", &fixture(OLDER)])
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    let under: Vec<&str> = order
        .iter()
        .filter(|v| v["parentCallId"] == OLDER_TASK)
        .filter_map(|v| v["tool"].as_str())
        .collect();
    assert_eq!(under, ["Read", "Glob", "Bash"]);
    let render = deck_ok(&["render", "--width", "100", &fixture(OLDER)]);
    for want in [
        "│ ▾ subagent · 3 calls · 1 error",
        "│   ✓ ≡ Read mix.exs",
        "│   ✗ $ mix help | grep -c credo",
        // What the subagent's result counts of it.
        "3 tool calls · 4.2k tokens · 9.2s",
    ] {
        assert!(render.contains(want), "{want:?} missing:\n{render}");
    }
    let truth = deck_ok(&["render", "--width", "100", &fixture(TRUTH)]);
    assert!(
        truth.contains("2 tool calls · 2.5k tokens · 333ms"),
        "{truth}"
    );
    // And deck inspect, which gives the card's views.
    let lines = inspect(&fixture(TRUTH));
    let report = lines[EXPLORE]["resultView"].to_string();
    assert!(
        report.contains("2 tool calls · 2.5k tokens · 333ms"),
        "{report}"
    );
}

/// A subagent's calls are entries of the library, found by their tool and
/// opened at the call that started them; the session counts only its own.
#[test]
fn a_subagents_calls_are_found_by_their_tool() {
    let home = tempfile::tempdir().expect("home");
    let project = home.path().join(".claude/projects/-workspace-demo");
    std::fs::create_dir_all(&project).expect("project");
    let name = Path::new(OLDER).file_name().expect("name");
    std::fs::copy(fixture(OLDER), project.join(name)).expect("copy");
    let search = |args: &[&str]| -> Vec<Value> {
        let o = crate::common::deck_cmd()
            .args(["sessions", "search"])
            .args(args)
            .args(["--json", "--limit", "50"])
            .env("HOME", home.path())
            .env("XDG_CACHE_HOME", home.path().join(".cache"))
            .env_remove("DSH_HOME")
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("CODEX_HOME")
            .output()
            .expect("deck");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .map(|l| serde_json::from_str(l).expect("JSON"))
            .collect()
    };
    let globs = search(&["tool:glob"]);
    let calls: Vec<&str> = globs.iter().filter_map(|h| h["call"].as_str()).collect();
    assert_eq!(calls, ["toolu_01oldersubglob0000000001"], "{globs:#?}");
    // It opens at the Task's entry.
    let t = fold(&fixture(OLDER));
    let item = globs[0]["item"].as_u64().expect("item") as usize;
    match &t.items()[item] {
        Item::Tool(c) => assert_eq!(t.cards()[*c].call_id, OLDER_TASK),
        other => panic!("item {item} is {other:?}"),
    }
    let bash: Vec<String> = search(&["tool:bash"])
        .iter()
        .filter_map(|h| h["call"].as_str().map(str::to_string))
        .collect();
    assert!(
        bash.contains(&"toolu_01oldersubbash0000000001".to_string()),
        "{bash:?}"
    );
}

/// 2.1.39 wrote a subagent's lines both inline and to its own log: its
/// calls are nested once, from its log.
#[test]
fn a_subagent_logged_inline_and_beside_is_nested_once() {
    let dir = tempfile::tempdir().expect("dir");
    let name = Path::new(OLDER).file_name().expect("name");
    let log = dir.path().join(name);
    std::fs::copy(fixture(OLDER), &log).expect("copy");
    let folder = log.with_extension("");
    std::fs::create_dir_all(folder.join("subagents")).expect("folder");
    // The subagent's own log: its inline lines, as 2.1.39 wrote them beside.
    let text = std::fs::read_to_string(&log).expect("read");
    let mut own = String::new();
    for l in text.lines() {
        let v: Value = serde_json::from_str(l).expect("JSON");
        if v["data"]["type"] != "agent_progress" {
            continue;
        }
        let mut inner = v["data"]["message"].clone();
        for k in ["sessionId", "cwd", "version", "gitBranch"] {
            inner[k] = v[k].clone();
        }
        inner["isSidechain"] = json!(true);
        inner["agentId"] = v["data"]["agentId"].clone();
        own.push_str(&inner.to_string());
        own.push('\n');
    }
    std::fs::write(folder.join("subagents/agent-a7c31e9.jsonl"), own).expect("write");
    let t = fold(&log.to_string_lossy());
    let card = t.card(OLDER_TASK).expect("Task");
    let child = card.nested.as_ref().expect("nested").transcript();
    assert_eq!(child.cards().len(), 3, "nested once");
    // What is nested is the log's records, the inline lines left for it.
    let side = folder.join("subagents/agent-a7c31e9.jsonl");
    let own = crate::common::load(&side.to_string_lossy()).records.len();
    let nested = crate::common::load(&log.to_string_lossy())
        .records
        .iter()
        .filter(|r| matches!(r, deck::wire::Record::Nested { parent_call, .. } if parent_call == OLDER_TASK))
        .count();
    assert_eq!(nested, own);
    assert!(t.diagnostics().is_empty(), "{:?}", t.diagnostics());
}

#[test]
fn a_background_agent_is_titled_by_what_it_does() {
    let render = deck_ok(&["render", "--width", "100", &fixture(TRUTH)]);
    assert!(
        render.contains("• Subagent (general-purpose): Scan the guide — in the background"),
        "{render}"
    );
    assert!(!render.contains("Subagent started in the background"));
    let lines = inspect(&fixture(TRUTH));
    assert_eq!(
        lines[BACKGROUND]["resultView"]["title"],
        "Subagent (general-purpose): Scan the guide — in the background"
    );
}

/// The prompts of a fold, as drawn (`source` and text).
fn prompts(path: &str) -> Vec<(Option<String>, String)> {
    fold(path)
        .items()
        .iter()
        .filter_map(|i| match i {
            Item::User(m) => Some((m.source.clone(), m.text.clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn commands_are_drawn_as_commands_and_their_output_as_theirs() {
    let said = prompts(&fixture(TRUTH));
    let texts: Vec<&str> = said.iter().map(|(_, t)| t.as_str()).collect();
    assert!(texts.contains(&"/review src/"), "{said:?}");
    assert!(texts.contains(&"/model sonnet"), "{said:?}");
    assert!(
        texts.contains(&"Set model to `Sonnet 5.5` for this session only"),
        "{said:?}"
    );
    assert!(!texts.iter().any(|t| t.contains('<')), "{said:?}");
    let render = deck_ok(&["render", "--width", "100", &fixture(TRUTH)]);
    assert!(render.contains("› /review src/"), "{render}");
    assert!(render.contains("› /model sonnet"), "{render}");
    assert!(
        render.contains("⎿ Set model to `Sonnet 5.5` for this session only"),
        "{render}"
    );
    assert!(!render.contains("command-name"), "{render}");
    // 2.1.38: the command and its output as `system` lines; a skill.
    let older = prompts(&fixture(OLDER));
    let texts: Vec<&str> = older.iter().map(|(_, t)| t.as_str()).collect();
    assert_eq!(
        texts[0],
        "/elixir:setup-checks credo, dialyzer and mix_audit"
    );
    assert!(texts.contains(&"/model"), "{older:?}");
    assert!(
        texts.contains(&"Kept model as Default (recommended)"),
        "{older:?}"
    );
    let render = deck_ok(&["render", "--width", "100", &fixture(OLDER)]);
    assert!(!render.contains("command-"), "{render}");
    // The library's title is the command, without markup.
    let (read, _) = crate::common::library_read(&fixture(OLDER));
    assert_eq!(
        read.rows[0].title.as_deref(),
        Some("/elixir:setup-checks credo, dialyzer and mix_audit")
    );
}

/// The changed cards at every width, dark and light: questions answered,
/// a subagent nested from inline lines, a background agent.
#[test]
fn snapshots_of_what_was_said() {
    let t = fold(&fixture(TRUTH));
    let older = fold(&fixture(OLDER));
    for theme_name in THEMES {
        let theme = Theme::builtin(theme_name).expect("built-in theme");
        let mut out = String::new();
        let cards = [ASK_CI, ASK_MORE, BACKGROUND]
            .iter()
            .map(|id| t.card(id).expect("card"))
            .chain(
                [OLDER_ASK, OLDER_TYPED, OLDER_TASK]
                    .iter()
                    .map(|id| older.card(id).expect("card")),
            );
        for card in cards {
            for w in WIDTHS {
                let _ = writeln!(out, "── {} {} at {w} ──", card.tool_name(), card.call_id);
                let what = format!("said {}", card.call_id);
                out.push_str(&styled(
                    &render_card(card, &theme, w, Density::Full, &what),
                    Runs::OneRow,
                ));
            }
        }
        // Commands and their output, as the transcript draws them.
        for (source, text) in prompts(&fixture(TRUTH))
            .into_iter()
            .chain(prompts(&fixture(OLDER)))
            .filter(|(s, t)| s.as_deref() != Some("user") || t.starts_with('/'))
        {
            let m = deck::session::UserMessage::new(0, 0, text, source);
            for w in WIDTHS {
                let _ = writeln!(out, "── {:?} at {w} ──", m.source);
                let ctx = deck::cards::Ctx::new(w, &theme, Density::Full);
                let lines = deck::cards::conversation::user(&m, &ctx);
                crate::common::dump::check_widths(&lines, w, "command");
                out.push_str(&styled(&lines, Runs::OneRow));
            }
        }
        insta::assert_snapshot!(format!("agents_claude_said__{theme_name}"), out);
    }
}
