//! `deck sessions` through the binary, over a fake home holding the real
//! captures of the three agents at their own paths: each session listed
//! once with its agent, title and counts (the same `deck inspect` says),
//! a string of one card of one session found there, a grown file read
//! again, files that cannot be read listed with their problem, a broken
//! index built anew, and the filters.

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

use crate::common::{capture, deck_cmd};

pub const CLAUDE_ID: &str = "7a3f1c2e-0d4b-4e8a-9c61-2b5d8e0f4a17";

/// A home folder with the agents' sessions where they keep them:
/// (home, DSH session log, Claude Code session, Codex rollout).
pub fn fake_home() -> (tempfile::TempDir, [PathBuf; 3]) {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dsh = h.join(".dsh/sessions/--workspace--demo--/session-3fdc990d/session.jsonl");
    let claude = h.join(format!(
        ".claude/projects/-workspace-demo/{CLAUDE_ID}.jsonl"
    ));
    let codex = h.join(".codex/sessions/2026/12/01/rollout-2026-12-01T10-00-38-01a2310c.jsonl");
    for p in [&dsh, &claude, &codex] {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    }
    std::fs::copy(capture("tour", "session.jsonl"), &dsh).unwrap();
    let tour = root.join("tests/fixtures/agents/claude-code/tour");
    std::fs::copy(tour.join(format!("{CLAUDE_ID}.jsonl")), &claude).unwrap();
    // Its subagent's log, beside it: read with it, not listed.
    copy_dir(&tour.join(CLAUDE_ID), &claude.with_extension(""));
    std::fs::copy(
        root.join("tests/fixtures/agents/codex/tour.rollout.jsonl"),
        &codex,
    )
    .unwrap();
    (home, [dsh, claude, codex])
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let dest = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &dest);
        } else {
            std::fs::copy(e.path(), dest).unwrap();
        }
    }
}

/// `deck sessions ARGS` with `home` as the home folder and its cache.
fn sessions(home: &Path, args: &[&str]) -> Output {
    deck_cmd()
        .arg("sessions")
        .args(args)
        .env("HOME", home)
        .env("XDG_CACHE_HOME", home.join(".cache"))
        .env_remove("DSH_HOME")
        .env_remove("CLAUDE_CONFIG_DIR")
        .env_remove("CODEX_HOME")
        .output()
        .unwrap()
}

fn json_lines(o: &Output) -> Vec<Value> {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn row_of<'a>(rows: &'a [Value], path: &Path) -> &'a Value {
    let p = path.to_string_lossy();
    let mine: Vec<&Value> = rows.iter().filter(|r| r["path"] == *p).collect();
    assert_eq!(mine.len(), 1, "{p} listed {} times: {rows:#?}", mine.len());
    mine[0]
}

#[test]
fn each_session_once_with_its_agent_title_and_counts() {
    let (home, files) = fake_home();
    let rows = json_lines(&sessions(home.path(), &["--json"]));
    assert_eq!(rows.len(), 3, "{rows:#?}");
    for (file, agent) in files.iter().zip(["dsh", "claude-code", "codex"]) {
        let row = row_of(&rows, file);
        assert_eq!(row["agent"], agent);
        // What `deck inspect --sessions` says of the same file.
        let o = deck_cmd()
            .args(["inspect", "--sessions"])
            .arg(file)
            .output()
            .unwrap();
        let inspected: Value =
            serde_json::from_str(String::from_utf8_lossy(&o.stdout).lines().next().unwrap())
                .unwrap();
        assert_eq!(row["id"], inspected["sessionId"], "{agent}");
        assert_eq!(row["calls"], inspected["cards"], "{agent}");
        assert_eq!(row["errors"], inspected["errors"], "{agent}");
        assert!(row["calls"].as_u64().unwrap() > 5, "{agent}: {row}");
        assert_eq!(row["bytes"], std::fs::metadata(file).unwrap().len());
        assert_eq!(row["cwd"], "/workspace/demo");
        assert!(
            row["started"].as_str().unwrap().starts_with("2026-1"),
            "{row}"
        );
        assert_eq!(row["problem"], Value::Null);
    }
    let title = |f: &Path| row_of(&rows, f)["title"].as_str().unwrap().to_string();
    // The host's own title; else the first prompt.
    assert_eq!(title(&files[0]), "Capture run: tool tour");
    assert!(
        title(&files[1]).starts_with("[tour-1] Give me a quick tour"),
        "{}",
        title(&files[1])
    );
    assert!(
        title(&files[2]).starts_with("Give me a quick tour of this repo"),
        "{}",
        title(&files[2])
    );
    // Newest first.
    let started: Vec<&str> = rows
        .iter()
        .map(|r| r["started"].as_str().unwrap())
        .collect();
    let mut sorted = started.clone();
    sorted.sort_by(|a, b| b.cmp(a));
    assert_eq!(started, sorted);
    // The index is where XDG says.
    assert!(home.path().join(".cache/deck/index/manifest.json").exists());
}

#[test]
fn a_string_of_one_card_is_found_there() {
    let (home, files) = fake_home();
    let hits = json_lines(&sessions(home.path(), &["search", "hello", "--json"]));
    assert_eq!(hits.len(), 1, "{hits:#?}");
    let h = &hits[0];
    assert_eq!(h["agent"], "dsh");
    assert_eq!(h["path"], *files[0].to_string_lossy());
    assert_eq!(h["call"], "call_t1s6_1");
    assert_eq!(h["tool"], "mcp__fake__echo");
    // The entry is the card's item in the folded session.
    let t = crate::common::fold(&files[0].to_string_lossy());
    let item = h["item"].as_u64().unwrap() as usize;
    match &t.items()[item] {
        deck::session::Item::Tool(c) => assert_eq!(t.cards()[*c].call_id, "call_t1s6_1"),
        other => panic!("item {item} is {other:?}"),
    }
    // The snippet marks the word.
    let snippet = h["snippet"].as_str().unwrap();
    let marks = h["marks"].as_array().unwrap();
    assert!(!marks.is_empty());
    for m in marks {
        let (a, b) = (
            m[0].as_u64().unwrap() as usize,
            m[1].as_u64().unwrap() as usize,
        );
        assert_eq!(snippet[a..b].to_lowercase(), "hello");
    }
    // The plain output names the session and the card.
    let o = sessions(home.path(), &["search", "hello"]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("Capture run: tool tour") && text.contains("mcp__fake__echo call_t1s6_1"),
        "{text}"
    );
}

#[test]
fn filters_combine_with_words() {
    let (home, _) = fake_home();
    let count = |args: &[&str]| json_lines(&sessions(home.path(), args)).len();
    let all = count(&["search", "median", "--json", "--limit", "500"]);
    let codex = count(&[
        "search",
        "median",
        "agent:codex",
        "--json",
        "--limit",
        "500",
    ]);
    let claude = count(&[
        "search", "median", "--agent", "claude", "--json", "--limit", "500",
    ]);
    assert!(
        codex > 0 && claude > 0 && codex + claude <= all,
        "{all} {codex} {claude}"
    );
    // Every failed card, and only those.
    let errors = json_lines(&sessions(
        home.path(),
        &["search", "error:true", "--json", "--limit", "500"],
    ));
    let listed: u64 = json_lines(&sessions(home.path(), &["--json"]))
        .iter()
        .map(|r| r["errors"].as_u64().unwrap())
        .sum();
    assert_eq!(errors.len() as u64, listed);
    let diffs = json_lines(&sessions(
        home.path(),
        &["search", "kind:diff", "path:app.py", "--json"],
    ));
    assert!(!diffs.is_empty());
    assert!(
        diffs
            .iter()
            .all(|h| h["kind"] == "diff" && h["agent"] == "dsh"),
        "{diffs:#?}"
    );
    let terminals = json_lines(&sessions(
        home.path(),
        &["search", "tool:bash", "--json", "--limit", "500"],
    ));
    assert!(
        terminals
            .iter()
            .all(|h| h["tool"].as_str().unwrap().eq_ignore_ascii_case("bash"))
    );
    assert!(
        terminals.iter().any(|h| h["tool"] == "Bash")
            && terminals.iter().any(|h| h["tool"] == "bash")
    );
    // Dates: the DSH tour ran on 2026-11-30, the others on 2026-12-01.
    let after = json_lines(&sessions(
        home.path(),
        &["search", "after:2026-12-01", "--json", "--limit", "1000"],
    ));
    assert!(!after.is_empty() && after.iter().all(|h| h["agent"] != "dsh"));
    let before = json_lines(&sessions(
        home.path(),
        &["search", "before:2026-12-01", "--json", "--limit", "1000"],
    ));
    assert!(!before.is_empty() && before.iter().all(|h| h["agent"] == "dsh"));
    // The list's filters.
    assert_eq!(count(&["--json", "--agent", "codex"]), 1);
    assert_eq!(count(&["--json", "--since", "2026-12-01"]), 2);
    assert_eq!(count(&["--json", "--cwd", "/workspace/demo"]), 3);
    assert_eq!(count(&["--json", "--cwd", "/elsewhere"]), 0);
    let bad = sessions(home.path(), &["--json", "--since", "yesterday"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("not a date"));
}

#[test]
fn a_grown_file_is_read_again() {
    let (home, files) = fake_home();
    let codex = &files[2];
    let full = std::fs::read_to_string(codex).unwrap();
    let lines: Vec<&str> = full.lines().collect();
    // The first third of the session, then all of it.
    let head = lines[..lines.len() / 3].join("\n") + "\n";
    std::fs::write(codex, &head).unwrap();
    let before = json_lines(&sessions(home.path(), &["--json", "--agent", "codex"]));
    let calls_before = before[0]["calls"].as_u64().unwrap();
    let late = "CHANGELOG";
    let found =
        |home: &Path| json_lines(&sessions(home, &["search", late, "agent:codex", "--json"])).len();
    assert_eq!(
        found(home.path()),
        0,
        "{late} is in the rest of the session only"
    );
    std::fs::write(codex, &full).unwrap();
    let after = json_lines(&sessions(home.path(), &["--json", "--agent", "codex"]));
    assert!(
        after[0]["calls"].as_u64().unwrap() > calls_before,
        "{before:?} {after:?}"
    );
    assert_eq!(after[0]["bytes"], full.len() as u64);
    assert!(found(home.path()) > 0);
    // A file that shrank is read again too; a file gone is dropped.
    std::fs::write(codex, &head).unwrap();
    assert_eq!(found(home.path()), 0);
    std::fs::remove_file(codex).unwrap();
    let rows = json_lines(&sessions(home.path(), &["--json"]));
    assert_eq!(rows.len(), 2);
    assert!(rows.iter().all(|r| r["agent"] != "codex"));
}

#[test]
fn files_that_cannot_be_read_are_listed_with_their_problem() {
    let (home, files) = fake_home();
    let mine = home.path().join("mine");
    std::fs::create_dir_all(&mine).unwrap();
    std::fs::write(
        mine.join("notes.jsonl"),
        "just some text\nnot json at all\n",
    )
    .unwrap();
    std::fs::write(mine.join("empty.jsonl"), "").unwrap();
    // A DSH session log cut in the middle of a line.
    let dsh = std::fs::read_to_string(&files[0]).unwrap();
    let cut = home
        .path()
        .join(".dsh/sessions/--workspace--demo--/cut/session.jsonl");
    std::fs::create_dir_all(cut.parent().unwrap()).unwrap();
    std::fs::write(&cut, &dsh[..dsh.len() / 2]).unwrap();
    let rows = json_lines(&sessions(
        home.path(),
        &["--json", "--dir", &mine.to_string_lossy()],
    ));
    assert_eq!(rows.len(), 6, "{rows:#?}");
    let problem = |p: &Path| row_of(&rows, p)["problem"].as_str().map(str::to_string);
    let notes = problem(&mine.join("notes.jsonl")).expect("a problem");
    assert!(notes.contains("unknown format"), "{notes}");
    assert_eq!(row_of(&rows, &mine.join("notes.jsonl"))["agent"], "unknown");
    assert!(
        problem(&mine.join("empty.jsonl"))
            .expect("a problem")
            .contains("empty")
    );
    let cut_problem = problem(&cut).expect("the cut line is said");
    assert!(cut_problem.contains("skipped or repaired"), "{cut_problem}");
    // What was read of it is listed too.
    assert_eq!(row_of(&rows, &cut)["agent"], "dsh");
    assert!(row_of(&rows, &cut)["calls"].as_u64().unwrap() > 0);
}

#[test]
fn a_broken_index_is_built_anew() {
    let (home, _) = fake_home();
    assert_eq!(json_lines(&sessions(home.path(), &["--json"])).len(), 3);
    let index = home.path().join(".cache/deck/index");
    std::fs::write(index.join("manifest.json"), "{not json").unwrap();
    let o = sessions(home.path(), &["--json"]);
    assert_eq!(json_lines(&o).len(), 3);
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("built anew"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // Its store gone under a good manifest.
    for e in std::fs::read_dir(index.join("tantivy")).unwrap() {
        let p = e.unwrap().path();
        if p.file_name().unwrap() == "meta.json" {
            std::fs::write(&p, "garbage").unwrap();
        }
    }
    let o = sessions(home.path(), &["search", "hello", "--json"]);
    assert_eq!(json_lines(&o).len(), 1);
    assert!(String::from_utf8_lossy(&o.stderr).contains("built anew"));
    // --reindex starts over.
    let o = sessions(home.path(), &["--json", "--reindex"]);
    assert_eq!(json_lines(&o).len(), 3);
}

#[test]
fn config_folders_and_agent_overrides_are_looked_in() {
    let (home, files) = fake_home();
    // The agents' env overrides: Codex's home moved.
    let moved = home.path().join("elsewhere/codex");
    std::fs::create_dir_all(moved.join("sessions/2026/12/01")).unwrap();
    std::fs::rename(&files[2], moved.join("sessions/2026/12/01/rollout-x.jsonl")).unwrap();
    let o = deck_cmd()
        .args(["sessions", "--json"])
        .env("HOME", home.path())
        .env("XDG_CACHE_HOME", home.path().join(".cache"))
        .env("CODEX_HOME", &moved)
        .env_remove("DSH_HOME")
        .env_remove("CLAUDE_CONFIG_DIR")
        .output()
        .unwrap();
    let rows = json_lines(&o);
    assert_eq!(
        rows.iter().filter(|r| r["agent"] == "codex").count(),
        1,
        "{rows:#?}"
    );
    // The config file's [library] dirs.
    let cfg = home.path().join("cfg/deck");
    std::fs::create_dir_all(&cfg).unwrap();
    let extra = home.path().join("extra");
    std::fs::create_dir_all(&extra).unwrap();
    std::fs::copy(
        capture("approvals", "session.jsonl"),
        extra.join("approvals.jsonl"),
    )
    .unwrap();
    std::fs::write(cfg.join("config.toml"), "[library]\ndirs = [\"~/extra\"]\n").unwrap();
    let o = deck_cmd()
        .args(["sessions", "--json"])
        .env("HOME", home.path())
        .env("XDG_CACHE_HOME", home.path().join(".cache"))
        .env("XDG_CONFIG_HOME", home.path().join("cfg"))
        .env_remove("DSH_HOME")
        .env_remove("CLAUDE_CONFIG_DIR")
        .env_remove("CODEX_HOME")
        .output()
        .unwrap();
    let rows = json_lines(&o);
    assert_eq!(rows.len(), 3, "{rows:#?}");
    assert!(rows.iter().any(|r| {
        r["path"]
            .as_str()
            .unwrap()
            .ends_with("extra/approvals.jsonl")
    }));
}

/// A Codex rollout of 2025 (bare items, no time on them; the cwd only in
/// the environment context Codex sent the model): its row has the cwd and
/// the start the file records, and no duration, which it does not record
/// (not `0ms`).
#[test]
fn a_legacy_codex_rollout_lists_the_cwd_and_start_it_records_and_no_duration() {
    let home = tempfile::tempdir().unwrap();
    let codex = home.path().join(
        ".codex/sessions/2025/07/14/rollout-2025-07-14T09-30-12-7c1f3a52-2b4e-4d8a-9e61-0f5d2c7b9a10.jsonl",
    );
    std::fs::create_dir_all(codex.parent().unwrap()).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(
        root.join("tests/fixtures/agents/codex/legacy.rollout.jsonl"),
        &codex,
    )
    .unwrap();
    let rows = json_lines(&sessions(home.path(), &["--json"]));
    let row = row_of(&rows, &codex);
    assert_eq!(row["agent"], "codex");
    assert_eq!(row["cwd"], "/home/user/app", "{row}");
    assert_eq!(row["started"], "2025-07-14T09:30:12Z", "{row}");
    assert_eq!(row["duration_ms"], Value::Null, "{row}");
    assert_eq!(row["errors"], 4, "{row}");
    // The list says the same.
    let o = sessions(home.path(), &[]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("  /home/user/app  8 calls, 4 errors  "),
        "{text}"
    );
}

/// A search cut by `--limit` says so on stderr: how many of how many, and
/// how to see more; one not cut says nothing; a cut after the search (a
/// cwd filter) says more match without a total it does not know.
#[test]
fn a_cut_search_says_how_many_of_how_many() {
    let (home, _) = fake_home();
    let all = json_lines(&sessions(
        home.path(),
        &["search", "tool:bash", "--json", "--limit", "1000"],
    ))
    .len();
    assert!(all > 3, "{all}");
    let o = sessions(home.path(), &["search", "tool:bash", "--limit", "3"]);
    assert_eq!(String::from_utf8_lossy(&o.stdout).lines().count(), 3);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(&format!("deck: 3 of {all} hits; --limit N for more")),
        "{err}"
    );
    let o = sessions(home.path(), &["search", "tool:bash", "--limit", "1000"]);
    assert!(
        !String::from_utf8_lossy(&o.stderr).contains("--limit"),
        "{:?}",
        o.stderr
    );
    let o = sessions(
        home.path(),
        &[
            "search",
            "tool:bash",
            "--cwd",
            "/workspace/demo",
            "--limit",
            "2",
            "--json",
        ],
    );
    assert_eq!(json_lines(&o).len(), 2);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("deck: the first 2 hits, more match; --limit N for more"),
        "{err}"
    );
}

/// Every hit says what its match is in — prompt, answer, thinking, tool
/// input, tool output, error — and what the log says of an error is found:
/// a card's error code, a turn's error; a diff's snippet is its lines, not
/// `\ No newline at end of file`.
#[test]
fn hits_are_labelled_by_what_they_are_in_and_errors_are_found() {
    let (home, _) = fake_home();
    let hits = |q: &str| {
        json_lines(&sessions(
            home.path(),
            &["search", q, "--json", "--limit", "500"],
        ))
    };
    let part_of = |q: &str| {
        let h = hits(q);
        assert!(!h.is_empty(), "{q}: no hit");
        h[0]["part"].as_str().unwrap().to_string()
    };
    // Codex's reasoning summary, not its answer.
    assert_eq!(part_of("\"Surveying the workspace\""), "thinking");
    // The DSH tour's failed edit: its error code, on the card.
    let edit = hits("FS_EDIT_NOT_FOUND");
    assert!(!edit.is_empty(), "a card's error code is searchable");
    assert!(
        edit.iter()
            .all(|h| h["part"] == "error" && h["call"].is_string()),
        "{edit:#?}"
    );
    // The DSH tour's turn 4 ended in the model's error.
    let turn = hits("\"scripted invalid request\"");
    assert!(
        turn.iter()
            .any(|h| h["kind"] == "error" && h["part"] == "error" && h["call"].is_null()),
        "{turn:#?}"
    );
    assert!(!hits("kind:error").is_empty());
    // A command is the tool's input; what it printed, its output.
    let bash = hits("tool:bash");
    let parts: std::collections::BTreeSet<&str> =
        bash.iter().filter_map(|h| h["part"].as_str()).collect();
    assert!(
        parts.contains("tool input") || parts.contains("tool output"),
        "{parts:?}"
    );
    for h in hits("kind:diff") {
        assert!(
            !h["snippet"]
                .as_str()
                .unwrap()
                .contains("No newline at end of file"),
            "{h:#}"
        );
    }
    let prompt = hits("kind:prompt");
    assert!(prompt.iter().all(|h| h["part"] == "prompt"), "{prompt:#?}");
}
