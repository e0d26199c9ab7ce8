//! Approval and question cards, from the real captures: one card per
//! approval although the host announces it twice (mux frame and session
//! event), the outcome filled in place, a question linked to the call that
//! asked it and showing the chosen answer. Snapshots at three widths in dark
//! and light.

use deck::cards::{Ctx, Density, prompt};
use deck::headless::{Format, write_lines};
use deck::session::{Ask, Item, Prompt, Transcript};
use deck::theme::Theme;
use serde_json::json;

use crate::common::dump::{THEMES, WIDTHS, check_widths};
use crate::common::{self, build};

fn prompts(t: &Transcript) -> Vec<Prompt> {
    t.items()
        .iter()
        .filter_map(|i| match i {
            Item::Prompt(p) => Some((**p).clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn approvals_capture_has_one_card_per_approval_and_question() {
    let t = common::fold(&common::capture_str("approvals", "frames.jsonl"));
    let ps = prompts(&t);
    assert_eq!(ps.len(), 2, "{ps:#?}");
    let approval = ps
        .iter()
        .find(|p| matches!(p.ask, Ask::Approval { .. }))
        .unwrap();
    let Ask::Approval {
        id, tool, call_id, ..
    } = &approval.ask
    else {
        unreachable!()
    };
    assert_eq!(id, "253f2666-fb4d-4cea-a285-ce52ec8b154b");
    assert_eq!(tool, "bash");
    assert_eq!(call_id.as_deref(), Some("call_t2s1_0"));
    assert_eq!(approval.seq, Some(305));
    assert_eq!(approval.outcome.as_deref(), Some("allowed-once"));
    // What /api/respond answers to: the approval/requested envelope's rpcId.
    assert_eq!(
        approval.rpc_id.as_deref(),
        Some("5591933c-b781-4e27-8d43-cee9737229ae")
    );
    let question = ps
        .iter()
        .find(|p| matches!(p.ask, Ask::Question { .. }))
        .unwrap();
    let Ask::Question {
        questions,
        call_id,
        answers,
    } = &question.ask
    else {
        unreachable!()
    };
    assert_eq!(questions[0].question, "Continue the capture?");
    assert_eq!(questions[0].options.len(), 2);
    assert_eq!(call_id.as_deref(), Some("call_t2s0_1"));
    assert_eq!(answers[0].selected, vec!["Yes (Recommended)"]);
    assert_eq!(question.outcome.as_deref(), Some("answered"));
    assert_eq!(
        question.rpc_id.as_deref(),
        Some("1e5ca53c-aa90-4f67-a86a-e0e4a04a98fa")
    );
    // Both are on their calls' cards too, and drawn there.
    assert_eq!(
        t.card("call_t2s1_0").unwrap().approval.as_deref(),
        Some(approval)
    );
    assert_eq!(
        t.card("call_t2s0_1").unwrap().question.as_deref(),
        Some(question)
    );
    for i in t.items().iter().filter(|i| matches!(i, Item::Prompt(_))) {
        assert!(t.merged(i));
    }
}

#[test]
fn a_saved_log_has_the_approval_and_its_question_call() {
    let t = common::fold(&common::capture_str("approvals", "session.jsonl.zstd"));
    let ps = prompts(&t);
    assert_eq!(ps.len(), 1);
    assert_eq!(ps[0].outcome.as_deref(), Some("allowed-once"));
    // The question is read from the asking call's arguments, the answer
    // from its result.
    let q = t.card("call_t2s0_1").unwrap().question.clone().unwrap();
    let Ask::Question {
        questions, answers, ..
    } = &q.ask
    else {
        unreachable!()
    };
    assert_eq!(questions[0].question, "Continue the capture?");
    assert_eq!(answers[0].selected, vec!["Yes (Recommended)"]);
}

#[test]
fn outcomes_update_the_card_in_place() {
    let mut t = Transcript::new(Some("s".into()), deck::stock());
    t.apply(&build::rec(json!({"type":"server-request","rpcId":"r1","method":"approval/requested",
        "payload":{"type":"approval/requested","sessionId":"s","approvalId":"a","toolName":"bash","callId":"c","reason":"why"}})));
    let rev0 = prompts(&t)[0].rev;
    assert!(prompts(&t)[0].is_waiting());
    // The mirrored session event adds its seq, not a second card.
    t.apply(&build::rec(
        json!({"type":"approval/asked","seq":4,"time":1,
        "data":{"id":"a","toolName":"bash","callId":"c","reason":"why"}}),
    ));
    t.apply(&build::rec(json!({"type":"server-request","rpcId":"r2","method":"approval/resolved",
        "payload":{"type":"approval/resolved","sessionId":"s","approvalId":"a","outcome":"denied"}})));
    t.apply(&build::rec(
        json!({"type":"approval/decided","seq":5,"time":2,
        "data":{"id":"a","outcome":"denied"}}),
    ));
    let ps = prompts(&t);
    assert_eq!(ps.len(), 1);
    assert_eq!(ps[0].seq, Some(4));
    assert_eq!(ps[0].rpc_id.as_deref(), Some("r1"));
    assert_eq!(ps[0].outcome.as_deref(), Some("denied"));
    assert!(ps[0].is_refused());
    assert!(ps[0].rev > rev0, "a changed card gets a new rev");
    // A question resolved without an envelope settles the newest question.
    t.apply(&build::rec(
        json!({"type":"question/requested","sessionId":"s",
        "questions":[{"id":"q","question":"Go?","options":[{"label":"Yes"}]}]}),
    ));
    t.apply(&build::rec(
        json!({"type":"question/resolved","sessionId":"s","outcome":"cancelled"}),
    ));
    let ps = prompts(&t);
    assert_eq!(ps.len(), 2);
    assert_eq!(ps[1].outcome.as_deref(), Some("cancelled"));
    let ctx_theme = Theme::dark();
    let lines = prompt::render(&ps[1], &Ctx::new(40, &ctx_theme, Density::Preview));
    assert!(
        lines[0].text().starts_with("✗ ? Question"),
        "{:?}",
        lines[0].text()
    );
    assert!(lines[0].text().trim_end().ends_with("cancelled"));
}

#[test]
fn a_decision_without_its_request_still_shows() {
    let mut t = Transcript::new(None, deck::stock());
    t.apply(&build::rec(
        json!({"type":"approval/decided","seq":9,"time":2,
        "data":{"id":"z","outcome":"allowed-always"}}),
    ));
    let ps = prompts(&t);
    assert_eq!(ps.len(), 1);
    let lines = prompt::render(&ps[0], &Ctx::new(60, &Theme::dark(), Density::Preview));
    assert!(lines[0].text().trim_end().ends_with("allowed always"));
}

#[test]
fn prompt_snapshots() {
    let cases: Vec<(&str, Transcript)> = vec![
        (
            "approvals",
            common::fold(&common::capture_str("approvals", "frames.jsonl")),
        ),
        ("showcase", common::fold("demo-sessions/showcase.jsonl")),
    ];
    for (name, t) in &cases {
        let ps = prompts(t);
        assert_eq!(ps.len(), 2, "{name}");
        for theme_name in THEMES {
            let theme = Theme::builtin(theme_name).unwrap();
            let mut out = String::new();
            for width in WIDTHS {
                for p in &ps {
                    let lines = prompt::render(p, &Ctx::new(width, &theme, Density::Preview));
                    check_widths(&lines, width, name);
                    out.push_str(&format!("── width {width}\n"));
                    out.push_str(&write_lines(&lines, Format::Styled));
                }
            }
            insta::assert_snapshot!(format!("prompts_{name}_{theme_name}"), out);
        }
    }
}

/// The first `lines` lines of a capture's frame log, folded, then `extra` frames.
fn fold_cut(capture: &str, lines: usize, extra: &[serde_json::Value]) -> Transcript {
    let text = common::capture_text(capture, "frames.jsonl");
    let mut cut: Vec<String> = text.lines().take(lines).map(str::to_string).collect();
    cut.extend(extra.iter().map(|v| v.to_string()));
    common::fold_session(&common::load_text(&(cut.join("\n") + "\n")))
}

/// Line number (1-based) of the first line of a capture holding `marker`.
fn line_of(capture: &str, marker: &str) -> usize {
    let text = common::capture_text(capture, "frames.jsonl");
    text.lines().position(|l| l.contains(marker)).unwrap() + 1
}

/// The item of the card of the call a prompt item is about.
fn item_call(t: &Transcript, item: &Item) -> Option<Item> {
    let Item::Prompt(p) = item else {
        return None;
    };
    let call = p.call_id()?;
    t.items()
        .iter()
        .find(|i| matches!(i, Item::Tool(c) if t.cards()[*c].call_id == call))
        .cloned()
}

#[test]
fn waiting_prompts_show_their_call_and_numbered_options() {
    let approval_at = line_of("approvals", "\"method\":\"approval/resolved\"") - 1;
    let question_at = line_of("approvals", "\"method\":\"question/resolved\"") - 1;
    // An approval asked for the tour's first edit: the diff it would apply.
    let edit_at = line_of("tour", "\"callId\":\"call_t1s2_0\"");
    let edit_approval = json!({"type": "server-request", "rpcId": "r-edit", "method": "approval/requested",
        "payload": {"type": "approval/requested", "sessionId": "session-3fdc990d-5fc2-4ba8-bb88-c9a2e81eff47",
            "approvalId": "a-edit", "toolName": "edit", "callId": "call_t1s2_0",
            "reason": "edit outside the usual files"}});
    let cases: Vec<(&str, Transcript, &[&str])> = vec![
        (
            "approval_bash",
            fold_cut("approvals", approval_at, &[]),
            &[
                "$ echo probe > /var/tmp/dsh-capture-probe.txt",
                "Retry outside write with escalation",
            ],
        ),
        (
            "approval_edit",
            fold_cut("tour", edit_at, &[edit_approval]),
            &[
                "status: draft",
                "status: reviewed",
                "/workspace/demo/notes.md",
            ],
        ),
        (
            "question",
            fold_cut("approvals", question_at, &[]),
            &["  1 Yes (Recommended) — Keep going", "  2 No"],
        ),
    ];
    for (name, t, wanted) in &cases {
        let (idx, item) = t
            .items()
            .iter()
            .enumerate()
            .find(|(_, i)| matches!(i, Item::Prompt(p) if p.is_waiting()))
            .unwrap_or_else(|| panic!("{name}: a waiting prompt"));
        for theme_name in THEMES {
            let theme = Theme::builtin(theme_name).unwrap();
            let mut out = String::new();
            for width in WIDTHS {
                let opts = deck::view::transcript::LayoutOptions::new(width, Density::Preview);
                let lines = deck::view::transcript::render_item(t, item, &theme, &opts);
                check_widths(&lines, width, name);
                if width == 120 {
                    let text: String = lines.iter().map(|l| l.text() + "\n").collect();
                    for w in *wanted {
                        assert!(text.contains(w), "{name}: {w:?} in\n{text}");
                    }
                }
                out.push_str(&format!("── width {width}\n"));
                out.push_str(&write_lines(&lines, Format::Styled));
            }
            insta::assert_snapshot!(format!("waiting_{name}_{theme_name}"), out);
        }
        // Waiting, it stands in for its call's card (drawn inside it).
        let call = item_call(t, item);
        if let Some(c) = &call {
            assert!(t.merged(c), "{name}: the call's card is in the approval");
        }
        // Resolved, the approval closes onto its call's card: a pill there,
        // nothing apart.
        if let (Some(_), Item::Prompt(p)) = (&call, item)
            && let Ask::Approval { id, .. } = &p.ask
        {
            let mut t = t.clone();
            t.apply(&build::rec(
                json!({"type": "server-request", "rpcId": "r-done",
                "method": "approval/resolved", "payload": {"type": "approval/resolved",
                "sessionId": "s", "approvalId": id, "outcome": "allowed-once"}}),
            ));
            let opts = deck::view::transcript::LayoutOptions::new(120, Density::Preview);
            let draw = |i: &Item| {
                let lines = deck::view::transcript::render_item(&t, i, &Theme::dark(), &opts);
                lines.iter().map(|l| l.text() + "\n").collect::<String>()
            };
            assert_eq!(draw(&t.items()[idx]), "", "{name}: closed");
            let card = draw(&item_call(&t, &t.items()[idx]).unwrap());
            assert!(
                card.lines().next().unwrap().contains("⚑ allowed once"),
                "{name}\n{card}"
            );
            assert!(!card.contains("call_t"), "{name}\n{card}");
        }
    }
}
