//! What a session says of its turns and its context, for every format:
//! token usage at each turn's end (DSH's steps summed, Claude Code's
//! messages each counted once, Codex's turn usage) and compaction markers
//! (DSH's compaction events and checkpoint, Claude Code's
//! `compact_boundary` and summary message, Codex's `compacted` line and
//! `context_compacted` event): folded, listed by `deck inspect --turns`,
//! drawn by `deck render`, and snapshots of both at 40/80/120 columns in
//! the dark and light themes.

use std::fmt::Write as _;

use deck::cards::conversation::{compaction, turn};
use deck::cards::{Ctx, Density};
use deck::session::{Compaction, Item, TokenUsage, Transcript};
use deck::theme::Theme;
use serde_json::{Value, json};

use crate::common::build::{event, rec, text};
use crate::common::dump::{Runs, THEMES, WIDTHS, check_widths, styled};
use crate::common::{capture_str, deck_ok, fold, fold_records};

fn fixture(rel: &str) -> String {
    format!("{}/tests/fixtures/agents/{rel}", env!("CARGO_MANIFEST_DIR"))
}

const CLAUDE_TOUR: &str = "claude-code/tour/7a3f1c2e-0d4b-4e8a-9c61-2b5d8e0f4a17.jsonl";
const CLAUDE_COMPACTION: &str = "claude-code/compaction.jsonl";
const CODEX_COMPACTION: &str = "codex/compaction.rollout.jsonl";

/// `deck inspect --turns` of `path`, a JSON value per line.
fn turns(path: &str) -> Vec<Value> {
    deck_ok(&["inspect", "--turns", path])
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// The usage of each turn's end, in order.
fn usages(t: &Transcript) -> Vec<Option<TokenUsage>> {
    t.items()
        .iter()
        .filter_map(|i| match i {
            Item::Turn(m) => Some(m.end.as_ref()?.usage),
            _ => None,
        })
        .collect()
}

fn compactions(t: &Transcript) -> Vec<Compaction> {
    t.items()
        .iter()
        .filter_map(|i| match i {
            Item::Compaction(c) => Some((**c).clone()),
            _ => None,
        })
        .collect()
}

fn prompts(t: &Transcript) -> Vec<String> {
    t.items()
        .iter()
        .filter_map(|i| match i {
            Item::User(u) => Some(u.text.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn claude_turns_count_each_message_once() {
    // As Claude Code's own cost-state lines say after each turn (less the
    // subagents' and the web search's requests of turn 2, which are not
    // this log's messages): 50,851 / 1,135, then 101,107 / 1,721 and
    // 139,413 / 1,990 in all.
    let lines = turns(&fixture(CLAUDE_TOUR));
    let got: Vec<(u64, u64)> = lines
        .iter()
        .map(|l| {
            let u = &l["usage"];
            (u["input"].as_u64().unwrap(), u["output"].as_u64().unwrap())
        })
        .collect();
    assert_eq!(got, [(50_851, 1_135), (50_256, 586), (38_306, 269)]);
    assert!(
        lines
            .iter()
            .all(|l| l["kind"] == "turn" && l["end"] == "completed")
    );
}

#[test]
fn claude_compaction_is_a_marker_not_a_prompt() {
    let path = fixture(CLAUDE_COMPACTION);
    let t = fold(&path);
    assert!(t.diagnostics().is_empty(), "{:?}", t.diagnostics());
    assert_eq!(
        prompts(&t),
        [
            "Refactor src/stats.py: one function per statistic.",
            "Make mean() return 0.0 for an empty list."
        ]
    );
    let lines = turns(&path);
    assert_eq!(lines.len(), 3);
    let c = &lines[0];
    assert_eq!(
        (
            &c["kind"],
            &c["turn"],
            &c["trigger"],
            &c["tokensBefore"],
            &c["tokensAfter"]
        ),
        (
            &json!("compaction"),
            &json!(1),
            &json!("auto"),
            &json!(155_025),
            &json!(6_330)
        )
    );
    assert!(
        c["summary"]
            .as_str()
            .unwrap()
            .starts_with("This session is being continued")
    );
    // Turn 1: two messages (the first on three lines), each counted once:
    // 12 + 148,210 read + 1,904 written, and 9 + 150,114 + 321. Their
    // `thinking_tokens: 0` is the CLI's filler when the API gave no count:
    // no reasoning count.
    assert_eq!(
        lines[1]["usage"],
        json!({"input": 300_570, "cacheRead": 298_324, "cacheWrite": 2_225, "output": 222})
    );
    assert_eq!(lines[2]["usage"]["input"], 13_078);
    let text = deck_ok(&["render", "--width", "80", &path]);
    assert!(
        text.contains("── context compacted · auto · 155k → 6.3k tokens ──"),
        "{text}"
    );
    assert!(
        text.contains("↑ 301k in (298k cached, 2.2k to cache) · ↓ 222 out"),
        "{text}"
    );
    assert!(
        !text.contains("› This session"),
        "the summary is no prompt:\n{text}"
    );
}

#[test]
fn codex_compactions_and_the_turn_of_compact_alone() {
    let path = fixture(CODEX_COMPACTION);
    let t = fold(&path);
    assert!(t.diagnostics().is_empty(), "{:?}", t.diagnostics());
    // The summary Codex gave the model (in the compacted history) is no
    // prompt either.
    assert_eq!(
        prompts(&t),
        [
            "Run the test suite and tell me what fails.",
            "Fix it: an empty list has mean 0.0."
        ]
    );
    let lines = turns(&path);
    let kinds: Vec<&str> = lines.iter().map(|l| l["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["turn", "compaction", "turn", "compaction", "turn"]);
    // A compacted line and its event: one marker, with Codex's summary;
    // no numbers (Codex's log has none for a compaction).
    assert_eq!(lines[1]["turn"], 2);
    assert!(
        lines[1]["summary"]
            .as_str()
            .unwrap()
            .starts_with("The user asked")
    );
    assert!(lines[1].get("tokensBefore").is_none());
    // A remote compaction keeps no summary text.
    assert_eq!(lines[3], json!({"kind": "compaction", "turn": 3}));
    // Each turn's usage: the turn's requests (its usage record), not the
    // last request's.
    assert_eq!(
        lines[0]["usage"],
        json!({"input": 365_113, "cacheRead": 362_624, "output": 76, "reasoning": 16})
    );
    assert_eq!(lines[4]["usage"]["input"], 9_213);
    let text = deck_ok(&["render", "--width", "80", &path]);
    assert_eq!(text.matches("── context compacted ──").count(), 2, "{text}");
    assert!(
        text.contains("↑ 365k in (363k cached) · ↓ 76 out (16 reasoning)"),
        "{text}"
    );
}

#[test]
fn dsh_turns_sum_their_steps() {
    let lines = turns(&capture_str("tour", "session.jsonl.zstd"));
    let usage: Vec<&Value> = lines.iter().map(|l| &l["usage"]).collect();
    // Eleven steps of turn 1, each `inputTokens` 101…111 and 900 read.
    assert_eq!(
        usage[0],
        &json!({"input": 11_076, "cacheRead": 9_900, "output": 550})
    );
    // Turn 4 failed before a request finished: no usage, not zero.
    assert_eq!(lines[3]["end"], "error");
    assert_eq!(usage[3], &Value::Null);
    // The frame log says the same.
    assert_eq!(turns(&capture_str("tour", "frames.jsonl")), lines);
}

/// A session event at `seq`, 10 ms apart.
fn ev(kind: &str, seq: u64, data: Value) -> deck::wire::Record {
    rec(event(kind, seq, 1000 + seq as i64 * 10, data))
}

fn step_usage(step: u64, usage: Value) -> deck::wire::Record {
    ev(
        "assistant/message",
        step,
        json!({"turn": 1, "step": step, "message": {"content": [text("ok")]}, "usage": usage}),
    )
}

#[test]
fn a_turns_usage_is_its_own_else_its_steps_each_count_only_when_all_say_it() {
    let t = fold_records(&[
        ev("turn/start", 0, json!({"turn": 1})),
        step_usage(
            1,
            json!({"inputTokens": 10, "outputTokens": 5, "cacheReadTokens": 90}),
        ),
        // A step told again replaces its own.
        step_usage(2, json!({"inputTokens": 1, "outputTokens": 1})),
        step_usage(3, json!({"inputTokens": 20, "outputTokens": 7})),
        ev(
            "assistant/message",
            4,
            json!({"turn": 1, "step": 2, "message": {"content": [text("ok!")]}, "usage": {"inputTokens": 20, "outputTokens": 6}}),
        ),
        ev(
            "turn/end",
            5,
            json!({"turn": 1, "reason": {"kind": "completed"}}),
        ),
        ev("turn/start", 6, json!({"turn": 2})),
        step_usage(7, json!({"inputTokens": 1, "outputTokens": 1})),
        // The turn's own usage wins over its steps'.
        ev(
            "turn/end",
            8,
            json!({"turn": 2, "reason": {"kind": "aborted"}, "usage": {"inputTokens": 3, "cacheWriteTokens": 4, "outputTokens": 2}}),
        ),
        // Counts no JSON number of tokens could be are not counts.
        ev("turn/start", 9, json!({"turn": 3})),
        step_usage(10, json!({"inputTokens": -1, "outputTokens": "7"})),
        ev(
            "turn/end",
            11,
            json!({"turn": 3, "reason": {"kind": "completed"}}),
        ),
    ]);
    assert!(t.diagnostics().is_empty(), "{:?}", t.diagnostics());
    let mut first = TokenUsage::new(Some(10 + 90 + 20 + 20), Some(5 + 6 + 7));
    // Only step 1 says what it read from the cache: no sum of it.
    first.cache_read = None;
    let mut second = TokenUsage::new(Some(3 + 4), Some(2));
    second.cache_write = Some(4);
    assert_eq!(usages(&t), [Some(first), Some(second), None]);
}

#[test]
fn dsh_compaction_events_and_checkpoint_are_one_marker() {
    let checkpoint = json!({"content": [text("<compacted-summary>\nsummary text\n</compacted-summary>")],
        "source": {"kind": "plugin", "plugin": "compact"}});
    let t = fold_records(&[
        ev("turn/start", 0, json!({"turn": 1})),
        ev(
            "user/message",
            1,
            json!({"content": [text("go")], "source": {"kind": "user"}}),
        ),
        ev(
            "compaction/start",
            2,
            json!({"compactionId": "c1", "turn": 1}),
        ),
        ev(
            "compaction/summary",
            3,
            json!({"compactionId": "c1", "summary": [text("summary text")],
            "shadowedRange": {"start": 1, "end": 1}, "shadowedSeqs": [1], "shadowedTokenCount": 154_321,
            "provider": "p", "model": "m", "usage": {"inputTokens": 9, "outputTokens": 9}}),
        ),
        ev("user/message", 4, checkpoint.clone()),
        ev(
            "compaction/end",
            5,
            json!({"compactionId": "c1", "turn": 1}),
        ),
        // One that failed: no summary, its error said.
        ev(
            "compaction/start",
            6,
            json!({"compactionId": "c2", "turn": null}),
        ),
        ev(
            "compaction/end",
            7,
            json!({"compactionId": "c2", "turn": null, "error": "summary request failed"}),
        ),
        // A checkpoint whose events are not in the log: a marker of its own.
        ev(
            "turn/end",
            8,
            json!({"turn": 1, "reason": {"kind": "completed"}}),
        ),
    ]);
    let c = compactions(&t);
    assert_eq!(c.len(), 2);
    assert_eq!((c[0].turn, c[0].tokens_condensed), (Some(1), Some(154_321)));
    assert_eq!(c[0].summary.as_deref(), Some("summary text"));
    assert_eq!(c[0].error, None);
    assert_eq!(
        (c[1].turn, c[1].error.as_deref()),
        (None, Some("summary request failed"))
    );
    assert_eq!(prompts(&t), ["go"]);
    let alone = fold_records(&[ev("user/message", 0, checkpoint)]);
    assert!(prompts(&alone).is_empty());
    let c = compactions(&alone);
    assert_eq!(c.len(), 1);
    assert!(
        c[0].summary
            .as_deref()
            .is_some_and(|s| s.contains("summary text"))
    );
}

/// Every turn's end and compaction of a fixture drawn at every width (the
/// compactions at preview and full density), one snapshot per theme.
fn snapshot_turns(name: &str, path: &str) {
    let t = fold(path);
    for theme_name in THEMES {
        let theme = Theme::builtin(theme_name).expect("built-in theme");
        let mut out = String::new();
        for w in WIDTHS {
            for item in t.items() {
                let drawn = match item {
                    Item::Turn(m) if m.end.is_some() => {
                        let lines = turn(m, &Ctx::new(w, &theme, Density::Preview));
                        vec![(format!("turn {} end", m.turn), lines)]
                    }
                    Item::Compaction(c) => [Density::Preview, Density::Full]
                        .into_iter()
                        .map(|d| {
                            (
                                format!("compaction {d:?}"),
                                compaction(c, &Ctx::new(w, &theme, d)),
                            )
                        })
                        .collect(),
                    _ => Vec::new(),
                };
                for (what, lines) in drawn {
                    check_widths(&lines, w, &format!("{name} {what}"));
                    let _ = writeln!(out, "── {what} at {w} ──");
                    out.push_str(&styled(&lines, Runs::OneRow));
                }
            }
        }
        insta::assert_snapshot!(format!("agents_turns_{name}__{theme_name}"), out);
    }
}

#[test]
fn snapshots_of_claude_turns_and_compaction() {
    snapshot_turns("claude", &fixture(CLAUDE_COMPACTION));
}

#[test]
fn snapshots_of_codex_turns_and_compactions() {
    snapshot_turns("codex", &fixture(CODEX_COMPACTION));
}

#[test]
fn in_the_tui_the_summary_unfolds_and_opens_in_the_pager() {
    use crate::common::tui::{ch, focused, key, pager, screen, viewer_sized};
    let path = fixture(CLAUDE_COMPACTION);
    let mut app = viewer_sized(&path, 100, 60);
    let t = fold(&path);
    let at = t
        .items()
        .iter()
        .position(|i| matches!(i, Item::Compaction(_)))
        .expect("a compaction");
    while focused(&app) != at {
        app.update(ch('j'));
    }
    let folded = screen(&mut app);
    assert!(
        folded.contains("── context compacted · auto · 155k → 6.3k tokens ──"),
        "{folded}"
    );
    assert!(
        folded.contains("(15 more lines)") && !folded.contains("4. Pending Tasks"),
        "{folded}"
    );
    // Enter unfolds it, as it does a card.
    app.update(key(crossterm::event::KeyCode::Enter));
    let open = screen(&mut app);
    assert!(
        open.contains("4. Pending Tasks") && !open.contains("more lines)"),
        "{open}"
    );
    app.update(ch('v'));
    assert_eq!(pager(&app).title(), "context compacted");
    assert!(screen(&mut app).contains("Please continue the conversation"));
}

#[test]
fn the_html_page_folds_the_summary_under_the_marker_and_says_the_usage() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("page.html");
    let path = fixture(CLAUDE_COMPACTION);
    deck_ok(&[
        "export",
        &path,
        "--format",
        "html",
        "-o",
        out.to_str().unwrap(),
    ]);
    let html = std::fs::read_to_string(&out).unwrap();
    let marker = html
        .find("context compacted · auto · 155k → 6.3k tokens")
        .expect("the marker");
    // The marker is the summary line of a closed <details>, the summary in it.
    let opened = html[..marker].rfind("<details").expect("in a <details>");
    assert!(html[opened..marker].starts_with("<details class=\"card item\">\n<summary>"));
    let closed = marker + html[marker..].find("</details>").unwrap();
    assert!(html[marker..closed].contains("4. Pending Tasks"));
    assert!(html.contains("↑ 301k in (298k cached, 2.2k to cache) · ↓ 222 out"));
}
