use super::*;
use crate::session::{AssistantBlock, TurnEnd};
use crate::theme::Theme;
use crate::wire::Origin;

fn texts(lines: &[Line]) -> Vec<String> {
    lines.iter().map(Line::text).collect()
}

fn user_msg(text: &str, source: Option<&str>) -> UserMessage {
    UserMessage {
        seq: 1,
        time: 0,
        text: text.into(),
        source: source.map(str::to_string),
    }
}

#[test]
fn user_messages_have_a_marker_and_wrap() {
    let theme = Theme::dark();
    let ctx = Ctx::new(20, &theme, Density::Preview);
    let lines = user(
        &user_msg("please take a tour of every tool", Some("user")),
        &ctx,
    );
    assert_eq!(
        texts(&lines),
        vec!["› please take a tour", "  of every tool"]
    );
    assert_eq!(lines[0].spans[0].style, theme.style(Role::User));
}

#[test]
fn injected_context_collapses_unless_full() {
    let theme = Theme::dark();
    let m = user_msg(
        "Current runtime context.\n\npolicy one\npolicy two\n",
        Some("plugin"),
    );
    let preview = user(&m, &Ctx::new(80, &theme, Density::Preview));
    assert_eq!(
        texts(&preview),
        vec!["↳ [plugin] Current runtime context.", "  (3 more lines)"]
    );
    assert!(
        preview
            .iter()
            .flat_map(|l| &l.spans)
            .all(|s| s.style == theme.style(Role::Muted) || s.text.trim().is_empty())
    );
    let full = user(&m, &Ctx::new(80, &theme, Density::Full));
    assert_eq!(full.len(), 4);
}

fn message(blocks: &[(bool, &str)]) -> AssistantMessage {
    AssistantMessage {
        turn: 1,
        step: 1,
        blocks: blocks
            .iter()
            .enumerate()
            .map(|(i, (r, t))| AssistantBlock {
                index: i as u64,
                reasoning: *r,
                text: t.to_string(),
            })
            .collect(),
        complete: true,
        interrupted: false,
        cut_off: false,
        time: 0,
        rev: 0,
    }
}

#[test]
fn assistant_text_is_markdown_and_reasoning_is_dim() {
    let theme = Theme::dark();
    let m = message(&[(true, "one\n\ntwo\n\nthree"), (false, "Done **now**.")]);
    let ctx = Ctx::new(40, &theme, Density::Full);
    let lines = assistant(&m, true, &ctx);
    assert_eq!(
        texts(&lines),
        vec![
            "∴ thinking",
            "  one",
            "",
            "  two",
            "",
            "  three",
            "Done now."
        ]
    );
    assert_eq!(lines[0].spans[0].style, theme.style(Role::Reasoning));
    assert_eq!(lines[1].spans[1].style, theme.style(Role::Reasoning));
    let hidden = assistant(&m, false, &ctx);
    assert_eq!(texts(&hidden), vec!["Done now."]);
    let preview = assistant(&m, true, &Ctx::new(40, &theme, Density::Preview));
    assert_eq!(
        texts(&preview),
        vec!["∴ thinking", "  one", "", "  … 3 more lines", "Done now."]
    );
}

#[test]
fn turns_are_rules_with_reasons() {
    let theme = Theme::dark();
    let ctx = Ctx::new(30, &theme, Density::Preview);
    let start = TurnMarker {
        turn: 2,
        seq: 1,
        time: 0,
        end: None,
        numbered: true,
    };
    assert_eq!(
        texts(&turn(&start, &ctx)),
        vec!["── turn 2 ────────────────────"]
    );
    let end = TurnMarker {
        turn: 4,
        seq: 2,
        time: 0,
        end: Some(TurnEnd {
            reason: "error".into(),
            message: Some("scripted invalid request".into()),
            code: Some("INVALID_REQUEST".into()),
            usage: None,
        }),
        numbered: true,
    };
    let lines = turn(&end, &ctx);
    assert_eq!(
        texts(&lines),
        vec![
            "✗ turn 4 · error ·",
            "  INVALID_REQUEST: scripted",
            "  invalid request"
        ]
    );
    assert_eq!(
        lines[0].spans[1].style,
        crate::cards::status_style(&theme, Status::Error)
    );
    // A turn that completed draws nothing: the next turn's rule is the
    // boundary.
    let done = TurnMarker {
        end: Some(TurnEnd {
            reason: "completed".into(),
            message: None,
            code: None,
            usage: None,
        }),
        ..end.clone()
    };
    assert!(turn(&done, &ctx).is_empty());
    assert!(turn_is_silent(&done));
    assert!(lines.iter().all(|l| l.width() <= 30));
}

#[test]
fn a_turn_end_says_its_usage_muted() {
    let theme = Theme::dark();
    let ctx = Ctx::new(30, &theme, Density::Preview);
    let mut usage = crate::session::TokenUsage::new(Some(50_851), Some(1_135));
    usage.cache_read = Some(9_800);
    let done = TurnMarker::end(
        1,
        9,
        0,
        TurnEnd::new("completed".into(), None, None).with_usage(Some(usage)),
    );
    let lines = turn(&done, &ctx);
    assert_eq!(
        texts(&lines),
        vec!["↑ 50.9k in (9.8k cached)", "  ↓ 1.1k out"]
    );
    assert!(!turn_is_silent(&done));
    let muted = theme.style(Role::Muted);
    assert!(lines.iter().flat_map(|l| &l.spans).all(|s| s.style == muted || s.text.trim().is_empty()));
    // After how the turn ended, when it did not complete.
    let aborted = TurnMarker::end(
        2,
        12,
        0,
        TurnEnd::new("aborted".into(), None, None).with_usage(Some(usage)),
    );
    let wide = Ctx::new(80, &theme, Density::Line);
    assert_eq!(
        texts(&turn(&aborted, &wide)),
        vec!["⊘ turn 2 · aborted", "↑ 50.9k in (9.8k cached) · ↓ 1.1k out"]
    );
    // Usage that says nothing draws nothing.
    let empty = TurnMarker::end(
        3,
        13,
        0,
        TurnEnd::new("completed".into(), None, None)
            .with_usage(Some(crate::session::TokenUsage::default())),
    );
    assert!(turn_is_silent(&empty) && turn(&empty, &ctx).is_empty());
}

fn compaction_of(summary: Option<&str>) -> crate::session::Compaction {
    let mut c = crate::session::Compaction::new(20, 0);
    c.trigger = Some("auto".into());
    c.tokens_before = Some(155_025);
    c.tokens_after = Some(6_330);
    c.summary = summary.map(str::to_string);
    c
}

#[test]
fn a_compaction_is_a_rule_with_its_numbers_and_a_folded_summary() {
    let theme = Theme::dark();
    let c = compaction_of(Some("Summary:\n1. the tour\n2. the fix\n"));
    let at = |w, d| texts(&compaction(&c, &Ctx::new(w, &theme, d)));
    assert_eq!(
        at(60, Density::Preview),
        vec![
            "── context compacted · auto · 155k → 6.3k tokens ───────────",
            "  Summary:",
            "  (2 more lines)",
        ]
    );
    assert_eq!(at(60, Density::Full).len(), 4);
    assert_eq!(at(60, Density::Line).len(), 1);
    // Too narrow for the details in the rule: they go below it.
    assert_eq!(
        at(30, Density::Line),
        vec!["── context compacted ─────────", "  auto · 155k → 6.3k tokens"]
    );
    // Nothing known but that it happened.
    let bare = crate::session::Compaction::new(3, 0);
    assert_eq!(
        texts(&compaction(&bare, &Ctx::new(30, &theme, Density::Full))),
        vec!["── context compacted ─────────"]
    );
    let mut failed = bare.clone();
    failed.error = Some("summary request failed".into());
    let lines = compaction(&failed, &Ctx::new(40, &theme, Density::Preview));
    assert_eq!(
        texts(&lines),
        vec![
            "── context compaction failed ───────────",
            "⚠ summary request failed"
        ]
    );
    assert_eq!(
        compaction_text(&c),
        "context compacted · auto · 155k → 6.3k tokens\nSummary:\n1. the tour\n2. the fix\n"
    );
}

#[test]
fn todos_are_a_checklist() {
    let theme = Theme::dark();
    let todos = [
        ("Tour the shell", "completed"),
        ("Tour the file tools", "in_progress"),
        ("Write", "pending"),
    ]
    .map(|(c, s)| Todo {
        content: c.into(),
        status: s.into(),
    });
    let lines = todo(&todos, &Ctx::new(40, &theme, Density::Preview));
    assert_eq!(
        texts(&lines),
        vec![
            "Plan  1/3 done",
            "[x] Tour the shell",
            "[~] Tour the file tools",
            "[ ] Write"
        ]
    );
    assert_eq!(lines[1].spans[0].style, theme.style(Role::TodoDone));
    assert_eq!(lines[2].spans[0].style, theme.style(Role::TodoActive));
    assert_eq!(lines[3].spans[0].style, theme.style(Role::TodoPending));
}

#[test]
fn diagnostics_show_place_and_raw() {
    let theme = Theme::dark();
    let ctx = Ctx::new(40, &theme, Density::Preview);
    let d = Diagnostic {
        origin: Origin {
            line: 12,
            offset: 3456,
        },
        reason: "not JSON".into(),
        raw: format!("{{\"type\":\u{1b}[2J{}", "x".repeat(200)),
    };
    let lines = diagnostic(&d, &ctx);
    assert_eq!(lines[0].text(), "⚠ line 12 (byte 3456): not JSON");
    assert_eq!(lines[0].spans[0].style, theme.style(Role::Diagnostic));
    assert_eq!(lines.len(), 3);
    assert!(lines[1].text().contains("␛[2J"));
    assert!(lines[2].text().ends_with('…'));
    assert!(lines.iter().all(|l| l.width() <= 40));
    assert!(diagnostic(&d, &Ctx::new(40, &theme, Density::Full)).len() > 3);
}

#[test]
fn every_item_fits_tiny_widths() {
    let theme = Theme::dark();
    let m = message(&[(true, "think"), (false, "# Head\n\n- a\n- b")]);
    for w in 1..=12 {
        let ctx = Ctx::new(w, &theme, Density::Preview);
        let start = TurnMarker {
            turn: 12,
            seq: 1,
            time: 0,
            end: None,
            numbered: true,
        };
        let all = [
            user(&user_msg("hello there", None), &ctx),
            user(&user_msg("a\nb", Some("job")), &ctx),
            assistant(&m, true, &ctx),
            turn(&start, &ctx),
            todo(
                &[Todo {
                    content: "x y z".into(),
                    status: "pending".into(),
                }],
                &ctx,
            ),
        ];
        for l in all.iter().flatten() {
            assert!(l.width() <= w, "width {w}: {:?}", l.text());
        }
    }
}
