//! What deck shows of a Claude Code session is what its log says (issue
//! 29), on real 2.1.328 output (`tests/fixtures/agents/claude-code/truth/`,
//! see its README) and 2.1.38/2.1.39 shapes (`older/`): a refusal is
//! rejected and an interrupt interrupted, neither an error nor timed; a
//! failed command says its exit code; a synthetic message is no turn and a
//! count the CLI filled in is no count; a read says the lines it returned
//! and the file's length; a multi-hunk edit without the original file is
//! placed hunk by hunk. `deck inspect`, `deck render`, the fold, the
//! library, and snapshots of the changed cards at 40/80/120 columns in the
//! dark and light themes.

use std::fmt::Write as _;

use deck::cards::Density;
use deck::session::{Item, Status};
use deck::theme::Theme;
use serde_json::Value;

use crate::agents::claude::{fixture, inspect};
use crate::common::dump::{Runs, THEMES, WIDTHS, render_card, styled};
use crate::common::{deck_ok, fold};

pub(crate) const TRUTH: &str = "truth/3c9e2b71-5a4d-4f08-b6e1-9d2a7c4e8f10.jsonl";
pub(crate) const OLDER: &str = "older/9b2d4e61-7c3a-4f85-a0d2-6e1b8c5f3a90.jsonl";

/// The calls of the truth capture (`tool-calls.md` lists them in order).
pub(crate) const GIT_LOG: &str = "toolu_01cf1f6ae922086d4cae6363";
pub(crate) const READ_WHOLE: &str = "toolu_0195c230ddbd96497b144233";
pub(crate) const READ_40: &str = "toolu_01ad982c3da788ce27a0b992";
pub(crate) const READ_END: &str = "toolu_010c4e07096d0551f32ada5c";
pub(crate) const REPLACE_ALL: &str = "toolu_01f5965cf80a7e11bd1ad4ef";
pub(crate) const REFUSED: &str = "toolu_019f5077917ae95dce287d9c";
pub(crate) const STOPPED: &str = "toolu_016c0df09b50a45adf2caea8";
pub(crate) const OLDER_REFUSED: &str = "toolu_01olderrejected0000000001";

/// The header row of a call's card in `deck render` at 100 columns.
fn header(render: &str, starts: &str) -> String {
    render
        .lines()
        .find(|l| l.contains(starts))
        .unwrap_or_else(|| panic!("no card {starts:?} in\n{render}"))
        .to_string()
}

#[test]
fn a_refusal_is_rejected_and_an_interrupt_interrupted_not_errors() {
    let lines = inspect(&fixture(TRUTH));
    // Refused at its permission prompt (`toolDenialKind: permission-rule`).
    assert_eq!(lines[REFUSED]["status"], "rejected", "{}", lines[REFUSED]);
    // Stopped while it ran (`toolDenialKind: user-rejected`, "stopped while
    // running").
    assert_eq!(
        lines[STOPPED]["status"], "interrupted",
        "{}",
        lines[STOPPED]
    );
    // 2.1.38: `toolUseResult: "User rejected tool use"`, no denial kind.
    let older = inspect(&fixture(OLDER));
    assert_eq!(older[OLDER_REFUSED]["status"], "rejected");
    // Neither counts as an error: the capture's one error is `git log`.
    let t = fold(&fixture(TRUTH));
    assert_eq!(t.error_count(), 1, "only the failed command");
    for id in [REFUSED, STOPPED] {
        let card = t.card(id).expect("card");
        assert!(!card.status.is_bad(), "{id}: {:?}", card.status);
    }
    assert_eq!(t.card(REFUSED).map(|c| c.status), Some(Status::Rejected));
    assert_eq!(t.card(STOPPED).map(|c| c.status), Some(Status::Interrupted));
    // Drawn `⊘ … rejected` with no duration (the time the person took to
    // answer is not the tool's), `⊘ … interrupted`.
    let render = deck_ok(&["render", "--width", "100", &fixture(TRUTH)]);
    let refused = header(&render, "$ rm -rf build");
    assert!(refused.starts_with("⊘ $ rm -rf build"), "{refused}");
    assert!(refused.trim_end().ends_with("rejected"), "{refused}");
    let stopped = header(&render, "$ python3 -c");
    assert!(stopped.starts_with("⊘ "), "{stopped}");
    assert!(stopped.contains("interrupted"), "{stopped}");
    assert!(!render.contains("✗ $ rm -rf build"));
}

#[test]
fn the_library_counts_no_refusal_as_an_error() {
    let (read, docs) = crate::common::library_read(&fixture(TRUTH));
    assert_eq!(read.rows[0].errors, 1, "{:?}", read.rows[0]);
    let refused = docs
        .iter()
        .find(|d| d.call.as_deref() == Some(REFUSED))
        .expect("doc");
    assert!(!refused.error);
}

#[test]
fn a_failed_commands_exit_code_is_its_outcome() {
    let lines = inspect(&fixture(TRUTH));
    let git = &lines[GIT_LOG];
    assert_eq!(git["resultView"]["exitCode"], 128, "{git}");
    assert_eq!(git["status"], "failed", "{git}");
    let render = deck_ok(&["render", "--width", "100", &fixture(TRUTH)]);
    let h = header(&render, "$ git log -1 --oneline");
    assert!(h.starts_with("✗ $ git log"), "{h}");
    assert!(h.contains("exit 128"), "{h}");
    assert!(!h.contains("error"), "{h}");
    assert!(render.contains("│ fatal: not a git repository"));
}

/// The `(turn, usage)` of each `deck inspect --turns` turn line.
fn turn_lines(path: &str) -> Vec<Value> {
    deck_ok(&["inspect", "--turns", path])
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("JSON"))
        .filter(|v| v["kind"] == "turn")
        .collect()
}

#[test]
fn a_synthetic_message_is_no_turn_and_a_filled_in_zero_no_count() {
    let turns = turn_lines(&fixture(TRUTH));
    // Six prompts (`/model` is no request: no turn), six turns; none of
    // Claude Code's own "No response requested." with its zero usage.
    let numbers: Vec<u64> = turns.iter().map(|t| t["turn"].as_u64().unwrap()).collect();
    assert_eq!(numbers, vec![1, 2, 3, 4, 5], "{turns:#?}");
    for t in &turns {
        assert_ne!(t["usage"]["input"], 0, "{t}");
        // `thinking_tokens: 0` is what the CLI writes when the API gave no
        // count: no count.
        assert!(t["usage"].get("reasoning").is_none(), "{t}");
    }
    assert_eq!(turns[4]["usage"]["input"], 10925, "the last prompt's turn");
    let t = fold(&fixture(TRUTH));
    let said: Vec<String> = t
        .items()
        .iter()
        .filter_map(|i| match i {
            Item::Assistant(m) => Some(m.blocks.iter().map(|b| b.text.clone()).collect()),
            _ => None,
        })
        .collect();
    assert!(
        !said.iter().any(|s| s.contains("No response requested")),
        "{said:?}"
    );
    let render = deck_ok(&["render", "--width", "100", &fixture(TRUTH)]);
    assert!(!render.contains("── turn 6"), "{render}");
    assert!(!render.contains("↑ 0 in"), "{render}");
}

#[test]
fn reads_say_the_lines_returned_and_the_files_length() {
    let lines = inspect(&fixture(TRUTH));
    let range = |id: &str| {
        let v = &lines[id]["resultView"];
        let ls = v["lines"].as_array().expect("lines");
        (
            ls.first().map(|l| l["number"].as_u64().unwrap()),
            ls.last().map(|l| l["number"].as_u64().unwrap()),
            v.get("totalLines").and_then(Value::as_u64),
        )
    };
    // 371 lines and a final newline: Claude counts 372.
    assert_eq!(range(READ_WHOLE), (Some(1), Some(371), Some(371)));
    // `offset 1, limit 40`: line 40 is empty, and is one of them; the window
    // ends before the file does, so whether the file ends in a newline (and
    // has 120 lines or 121) is not known: no length claimed.
    assert_eq!(range(READ_40), (Some(1), Some(40), None));
    // `offset 360, limit 50`: to the file's end.
    assert_eq!(range(READ_END), (Some(360), Some(371), Some(371)));
    let render = deck_ok(&["render", "--width", "100", &fixture(TRUTH)]);
    assert!(header(&render, "≡ Read src/server.py  ").contains("371 lines"));
    assert!(header(&render, "≡ Read docs/guide.md (1 - 40)").contains("lines 1–40"));
    assert!(header(&render, "≡ Read src/server.py (360 - 409)").contains("lines 360–371 of 371"));
}

#[test]
fn a_replace_all_without_the_original_is_placed_hunk_by_hunk() {
    let lines = inspect(&fixture(TRUTH));
    let diffs = lines[REPLACE_ALL]["resultView"]["diffs"]
        .as_array()
        .expect("diffs")
        .clone();
    let starts: Vec<u64> = diffs
        .iter()
        .map(|d| d["startLine"].as_u64().expect("placed"))
        .collect();
    assert_eq!(starts, vec![120, 236, 246, 274, 327, 345, 359]);
    let t = fold(&fixture(TRUTH));
    let card = t.card(REPLACE_ALL).expect("card");
    let shown = render_card(card, &Theme::dark(), 100, Density::Full, "replace_all");
    let text: Vec<String> = shown.iter().map(|l| l.text()).collect();
    assert!(
        !text.iter().any(|l| l.contains("lines unknown")),
        "{text:#?}"
    );
    assert_eq!(
        text.iter().filter(|l| l.trim_end().ends_with("⋯")).count(),
        6,
        "{text:#?}"
    );
    // Each changed line at its own number.
    for n in [123, 239, 249, 277, 330, 348, 362] {
        let old = format!("│ {n} ");
        assert!(
            text.iter().any(
                |l| l.starts_with(&old) && l.contains(&format!("-     log(DEBUG, 'step {n}')"))
            ),
            "line {n}: {text:#?}"
        );
    }
}

/// The changed cards of the truth capture at every width, dark and light.
#[test]
fn snapshots_of_the_truth() {
    let t = fold(&fixture(TRUTH));
    let older = fold(&fixture(OLDER));
    let ids = [
        GIT_LOG,
        READ_WHOLE,
        READ_40,
        READ_END,
        REPLACE_ALL,
        REFUSED,
        STOPPED,
    ];
    for theme_name in THEMES {
        let theme = Theme::builtin(theme_name).expect("built-in theme");
        let mut out = String::new();
        let cards = ids
            .iter()
            .map(|id| t.card(id).expect("card"))
            .chain(older.card(OLDER_REFUSED));
        for card in cards {
            // A whole file's read: what changed is its header.
            let density = if card.call_id == READ_WHOLE {
                Density::Preview
            } else {
                Density::Full
            };
            for w in WIDTHS {
                let _ = writeln!(out, "── {} {} at {w} ──", card.tool_name(), card.call_id);
                let what = format!("truth {}", card.call_id);
                out.push_str(&styled(
                    &render_card(card, &theme, w, density, &what),
                    Runs::OneRow,
                ));
            }
        }
        insta::assert_snapshot!(format!("agents_claude_truth__{theme_name}"), out);
    }
}

/// Every card of `t`, each followed by those nested under it, with the
/// call it is nested under: `deck inspect`'s order.
fn every_card(
    t: &deck::session::Transcript,
    parent: Option<&str>,
    out: &mut Vec<(deck::session::ToolCard, Option<String>)>,
) {
    for card in t.cards() {
        out.push(((**card).clone(), parent.map(str::to_string)));
        if let Some(n) = &card.nested {
            every_card(n.transcript(), Some(&card.call_id), out);
        }
    }
}

/// `deck inspect` says what the cards show, card for card, a subagent's
/// under the call that started it: the status (rejected, interrupted,
/// failed — none of them an error), the exit code the header draws, the
/// answers a question card marks.
#[test]
fn inspect_carries_what_the_cards_show() {
    let theme = Theme::builtin("dark").expect("theme");
    let mut statuses = Vec::new();
    let mut codes = Vec::new();
    let mut nested = 0;
    let mut answered = 0;
    for file in [TRUTH, OLDER] {
        let path = fixture(file);
        let t = fold(&path);
        let lines: Vec<Value> = deck_ok(&["inspect", &path])
            .lines()
            .map(|l| serde_json::from_str(l).expect("JSON"))
            .collect();
        let mut cards = Vec::new();
        every_card(&t, None, &mut cards);
        assert_eq!(lines.len(), cards.len(), "{file}");
        for ((card, parent), line) in cards.iter().zip(&lines) {
            let id = &card.call_id;
            assert_eq!(line["callId"], id.as_str());
            assert_eq!(line["parentCallId"].as_str(), parent.as_deref(), "{id}");
            nested += usize::from(parent.is_some());
            assert_eq!(line["status"], card.status.name(), "{id}");
            statuses.push(card.status.name());
            let head = render_card(card, &theme, 120, Density::Line, id)[0].text();
            match line["resultView"]["exitCode"].as_i64() {
                Some(n) => {
                    assert!(head.contains(&format!("exit {n}")), "{id}: {head}");
                    codes.push(n);
                }
                None => assert!(!head.contains(" exit "), "{id}: {head}"),
            }
            if line.get("answers").is_some() {
                let drawn = render_card(card, &theme, 120, Density::Full, id);
                let marked = drawn.iter().filter(|l| l.text().contains('●')).count();
                let selected: usize = line["answers"]
                    .as_array()
                    .expect("answers")
                    .iter()
                    .map(|a| a["selected"].as_array().map_or(0, Vec::len))
                    .sum();
                assert_eq!(marked, selected, "{id}: {line}");
                answered += 1;
            }
        }
    }
    for s in ["rejected", "interrupted", "failed"] {
        assert!(statuses.contains(&s), "{s}: {statuses:?}");
    }
    assert!(codes.contains(&128) && codes.contains(&1), "{codes:?}");
    assert!(
        nested >= 3 + 3,
        "the 2.1.328 subagents' and the inline one's calls: {nested}"
    );
    assert_eq!(answered, 4, "two questions in each fixture");
}
