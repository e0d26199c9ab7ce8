//! What the host asked about a call is drawn on that call's card (issue 15,
//! "calm, not noisy"): an answered approval is a pill on the card of the call
//! it gated (`⚑ allowed once`) with its reason said once, never a raw call id
//! nor a card of its own after the call; a rejected call reads as rejected;
//! a call that asks questions is its question card and a call that writes
//! the plan is its checklist, with no raw JSON before them. A prompt that
//! waits for an answer here keeps its own card (the keys answer it there)
//! and stands in for its call's meanwhile; one whose call is not in the
//! session keeps its own card, naming the tool. Nothing disappears: inspect
//! and search still find every call, and a failed question shows its error.

use deck::cards::Density;
use deck::session::{Item, Status, Transcript};
use deck::theme::Theme;
use deck::view::transcript::{LayoutOptions, layout, render_item};
use serde_json::{Value, json};

use crate::common::{self, build};

fn text_of(lines: &[deck::text::Line]) -> String {
    lines
        .iter()
        .map(|l| l.text().trim_end().to_string() + "\n")
        .collect()
}

/// The whole transcript as `deck render` lays it out, as text.
fn rendered(t: &Transcript, width: usize) -> String {
    text_of(&layout(
        t,
        &Theme::dark(),
        &LayoutOptions::new(width, Density::Preview),
    ))
}

fn item(t: &Transcript, i: &Item) -> String {
    text_of(&render_item(
        t,
        i,
        &Theme::dark(),
        &LayoutOptions::new(100, Density::Preview),
    ))
}

/// The item of the card of call `id`.
fn card_item(t: &Transcript, id: &str) -> Item {
    t.items()
        .iter()
        .find(|i| matches!(i, Item::Tool(c) if t.cards()[*c].call_id == id))
        .cloned()
        .unwrap_or_else(|| panic!("a card for {id}"))
}

fn prompt_items(t: &Transcript) -> Vec<Item> {
    t.items()
        .iter()
        .filter(|i| matches!(i, Item::Prompt(_)))
        .cloned()
        .collect()
}

fn approvals() -> [Transcript; 2] {
    [
        common::fold(&common::capture_str("approvals", "frames.jsonl")),
        common::fold(&common::capture_str("approvals", "session.jsonl.zstd")),
    ]
}

#[test]
fn an_answered_approval_is_a_pill_on_the_call_it_gated() {
    let [frames, log] = approvals();
    let text = rendered(&frames, 120);
    assert!(!text.contains("⚑ Approval"), "no card of its own:\n{text}");
    assert!(!text.contains("call_t2s1_0"), "no raw call id:\n{text}");
    let header = text
        .lines()
        .find(|l| {
            l.contains(
                "$ echo probe > /var/tmp/dsh-capture-probe.txt && echo wrote-outside-escalated",
            )
        })
        .unwrap();
    assert!(header.starts_with("✓ $"), "{header}");
    assert!(header.contains("⚑ allowed once  exit 0"), "{header}");
    let reason =
        "escalate sandbox to danger-full-access: The capture run probes the approval flow.";
    assert_eq!(text.matches(reason).count(), 1, "the reason, once:\n{text}");
    // The card says it under its header.
    let card = item(&frames, &card_item(&frames, "call_t2s1_0"));
    assert_eq!(card.lines().nth(1), Some(format!("│ {reason}").as_str()));
    // The approval's own item is drawn there, not apart.
    for p in prompt_items(&frames) {
        assert!(frames.merged(&p));
        assert!(item(&frames, &p).is_empty());
    }
    // The saved log of the same run (no frames, no views) draws the same.
    assert_eq!(item(&log, &card_item(&log, "call_t2s1_0")), card);
    let text = rendered(&log, 120);
    assert!(!text.contains("⚑ Approval") && !text.contains("call_t2s1_0"));
    let a = frames
        .card("call_t2s1_0")
        .unwrap()
        .approval
        .clone()
        .unwrap();
    assert_eq!(a.outcome.as_deref(), Some("allowed-once"));
}

#[test]
fn a_question_call_is_its_question_and_a_plan_call_its_checklist() {
    let [frames, log] = approvals();
    let text = rendered(&frames, 100);
    for raw in [
        "ask_user_question",
        "Update todo list",
        "\"questions\"",
        "\"status\": \"completed\"",
    ] {
        assert!(!text.contains(raw), "{raw:?} in\n{text}");
    }
    assert_eq!(text.matches("? Question · Confirm").count(), 1, "{text}");
    let q = item(&frames, &card_item(&frames, "call_t2s0_1"));
    assert_eq!(
        q.lines().collect::<Vec<_>>(),
        [
            "✓ ? Question · Confirm                                                                answered  11ms",
            "│ Continue the capture?",
            "│   ● Yes (Recommended) — Keep going",
            "│   ○ No",
        ]
    );
    let plan = item(&frames, &card_item(&frames, "call_t1s6_4"));
    assert_eq!(
        plan.lines().collect::<Vec<_>>(),
        [
            "✓ ☑ Plan                                                                               1/3 done  5ms",
            "│ [x] Tour the shell",
            "│ [~] Tour the file tools",
            "│ [ ] Write the report",
        ]
    );
    assert_eq!(text.matches("Tour the file tools").count(), 1, "{text}");
    // The todo/write that carried the list made no item of its own.
    assert!(
        !frames
            .items()
            .iter()
            .any(|i| matches!(i, Item::Todo { .. }))
    );
    // From the saved log (no question frames): the same cards.
    assert_eq!(item(&log, &card_item(&log, "call_t2s0_1")), q);
    assert_eq!(item(&log, &card_item(&log, "call_t1s6_4")), plan);
    // Conversation only (tools hidden): the question and the plan stay.
    let mut talk_only = LayoutOptions::new(100, Density::Preview);
    talk_only.hide_tools = true;
    let talk = text_of(&layout(&frames, &Theme::dark(), &talk_only));
    assert!(talk.contains("? Question · Confirm"), "{talk}");
    assert!(talk.contains("☑ Plan"), "{talk}");
    assert!(!talk.contains("$ echo probe"), "{talk}");
}

#[test]
fn a_rejected_call_reads_as_rejected() {
    let t = common::fold(common::tui::SHOWCASE);
    let card = t.card("sc_deploy").unwrap();
    assert_eq!(card.status, Status::Rejected);
    assert!(!card.status.is_bad(), "the user's doing, not an error");
    let text = item(&t, &card_item(&t, "sc_deploy"));
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("⊘ $ ./deploy.sh staging"), "{text}");
    // No duration: the call never ran, the time was the person's.
    assert!(lines[0].trim_end().ends_with("⚑ rejected"), "{text}");
    assert!(!text.contains("error"), "{text}");
    assert!(!text.contains("APPROVAL_REJECTED"), "{text}");
    assert_eq!(lines[1], "│ run a command outside the workspace sandbox");
    assert!(text.contains("The user rejected this command."), "{text}");
    let o = common::deck_ok(&["inspect", common::tui::SHOWCASE]);
    let line = o.lines().find(|l| l.contains("\"sc_deploy\"")).unwrap();
    assert!(line.contains("\"status\":\"rejected\""), "{line}");
    assert!(
        line.contains("\"approval\":{\"outcome\":\"rejected\"}"),
        "{line}"
    );
}

/// A bash call `c1` and the approval `a1` that gates it, as records.
fn gated_call() -> Vec<Value> {
    vec![
        build::frame(
            build::event(
                "tool/call",
                1,
                1_000,
                build::in_turn(build::call_data(
                    "c1",
                    "bash",
                    r#"{"command":"rm -rf /tmp/x"}"#,
                )),
            ),
            Some((
                "call",
                json!({"card": "terminal", "title": "rm -rf /tmp/x"}),
            )),
        ),
        build::frame(
            build::event(
                "approval/asked",
                2,
                1_010,
                json!({"id": "a1", "toolName": "bash", "callId": "c1", "reason": "outside the sandbox"}),
            ),
            None,
        ),
    ]
}

fn apply(t: &mut Transcript, v: Value) {
    t.apply(&build::rec(v));
}

#[test]
fn an_approval_waits_on_its_call_card_and_apart_while_it_can_be_answered_here() {
    let mut t = Transcript::new(Some("s".into()), deck::stock());
    for v in gated_call() {
        apply(&mut t, v);
    }
    // Asked (the session event): no answer can be sent from here yet.
    let card = item(&t, &card_item(&t, "c1"));
    let head = card.lines().next().unwrap();
    assert!(head.contains("⚑ waiting for approval"), "{card}");
    assert!(card.contains("│ outside the sandbox"), "{card}");
    let p = prompt_items(&t).remove(0);
    assert!(t.merged(&p) && item(&t, &p).is_empty());
    // The request frame: the prompt's own card, with the keys, draws the call.
    let merges = t.merges();
    apply(
        &mut t,
        json!({"type": "server-request", "rpcId": "r1", "method": "approval/requested",
            "payload": {"type": "approval/requested", "sessionId": "s", "approvalId": "a1",
                "toolName": "bash", "callId": "c1", "reason": "outside the sandbox"}}),
    );
    assert_ne!(t.merges(), merges, "a list rebuilds its entries");
    let p = prompt_items(&t).remove(0);
    assert!(!t.merged(&p));
    assert!(t.merged(&card_item(&t, "c1")));
    let apart = item(&t, &p);
    assert!(apart.starts_with("◌ ⚑ Approval · bash"), "{apart}");
    assert!(apart.contains("$ rm -rf /tmp/x"), "{apart}");
    assert_eq!(apart.matches("waiting for approval").count(), 1, "{apart}");
    // Denied, then the call fails: its card again, rejected.
    apply(
        &mut t,
        json!({"type": "server-request", "rpcId": "r2", "method": "approval/resolved",
            "payload": {"type": "approval/resolved", "sessionId": "s", "approvalId": "a1", "outcome": "denied"}}),
    );
    apply(
        &mut t,
        build::frame(
            build::event(
                "tool/result",
                3,
                1_500,
                json!({"turn": 1, "step": 1, "error": {"name": "ApprovalDeniedError", "code": "APPROVAL_DENIED"},
                    "message": {"content": [{"type": "tool-result", "toolCallId": "c1",
                    "content": [build::text("The user denied this command.")], "isError": true}]}}),
            ),
            None,
        ),
    );
    let p = prompt_items(&t).remove(0);
    assert!(t.merged(&p) && !t.merged(&card_item(&t, "c1")));
    let card = item(&t, &card_item(&t, "c1"));
    assert!(card.starts_with("⊘ $ rm -rf /tmp/x"), "{card}");
    assert!(card.lines().next().unwrap().contains("⚑ denied"), "{card}");
    assert_eq!(t.card("c1").unwrap().status, Status::Rejected);
    assert_eq!(t.error_count(), 0);
}

#[test]
fn an_approval_whose_call_is_not_in_the_session_stands_apart_naming_the_tool() {
    let mut t = Transcript::new(Some("s".into()), deck::stock());
    apply(
        &mut t,
        build::event(
            "approval/asked",
            1,
            1_000,
            json!({"id": "a9", "toolName": "bash", "callId": "call_gone", "reason": "why not"}),
        ),
    );
    apply(
        &mut t,
        build::event(
            "approval/decided",
            2,
            1_100,
            json!({"id": "a9", "outcome": "allowed-always"}),
        ),
    );
    let p = prompt_items(&t).remove(0);
    assert!(!t.merged(&p));
    let text = item(&t, &p);
    assert!(text.starts_with("✓ ⚑ Approval · bash"), "{text}");
    assert!(
        text.lines().next().unwrap().ends_with("allowed always"),
        "{text}"
    );
    assert!(text.contains("│ why not"), "{text}");
    assert!(!text.contains("call_gone"), "no raw call id:\n{text}");
    assert!(!deck::view::transcript::item_text(&t, &p).contains("call_gone"));
}

/// An `ask_user_question` call `q1` that ended with `result`.
fn question_call(result: Value) -> Transcript {
    let args = json!({"questions": [{"id": "q1", "header": "Confirm", "question": "Go on?",
        "options": [{"label": "Yes"}, {"label": "No"}]}]});
    let mut t = Transcript::new(Some("s".into()), deck::stock());
    apply(
        &mut t,
        build::event(
            "tool/call",
            1,
            1_000,
            build::in_turn(build::call_data(
                "q1",
                "ask_user_question",
                &args.to_string(),
            )),
        ),
    );
    apply(
        &mut t,
        build::event("tool/result", 2, 1_020, build::in_turn(result)),
    );
    t
}

#[test]
fn a_question_call_that_failed_shows_its_error() {
    let mut data = build::result_data("q1", json!([build::text("Error: nobody can answer")]), true);
    data["error"] = json!({"name": "QuestionError", "code": "NO_ANSWERER"});
    let t = question_call(data);
    let text = item(&t, &card_item(&t, "q1"));
    let head = text.lines().next().unwrap();
    assert!(head.starts_with("✗ ? Question · Confirm"), "{text}");
    assert!(head.contains("error NO_ANSWERER"), "{text}");
    for shown in [
        "QuestionError · NO_ANSWERER",
        "Go on?",
        "○ Yes",
        "Error: nobody can answer",
    ] {
        assert!(text.contains(shown), "{shown:?} in\n{text}");
    }
    assert_eq!(t.error_count(), 1);
    // Answered: the answer marked, the result's JSON not shown.
    let t = question_call(build::result_data(
        "q1",
        json!([build::text(
            r#"{"answers":[{"id":"q1","selected":["No"]}]}"#
        )]),
        false,
    ));
    let text = item(&t, &card_item(&t, "q1"));
    assert!(text.contains("● No") && text.contains("○ Yes"), "{text}");
    assert!(!text.contains("answers"), "{text}");
}

#[test]
fn a_plan_without_its_call_stands_apart_and_a_failed_plan_call_keeps_its_card() {
    let todos = json!({"todos": [{"content": "Write it", "status": "pending"}]});
    let mut t = Transcript::new(Some("s".into()), deck::stock());
    apply(&mut t, build::event("todo/write", 1, 1_000, todos.clone()));
    assert!(matches!(t.items().last(), Some(Item::Todo { .. })));
    // A plan call that failed wrote no plan: its card, its error.
    apply(
        &mut t,
        build::event(
            "tool/call",
            2,
            1_100,
            build::in_turn(build::call_data("t1", "todo_write", r#"{"todos":"nope"}"#)),
        ),
    );
    let mut data = build::result_data(
        "t1",
        json!([build::text("Error: todos must be a list")]),
        true,
    );
    data["error"] = json!({"name": "ValidationError", "code": "INVALID_ARGUMENTS"});
    apply(
        &mut t,
        build::event("tool/result", 3, 1_110, build::in_turn(data)),
    );
    let text = item(&t, &card_item(&t, "t1"));
    assert!(text.starts_with("✗ • todo_write"), "{text}");
    assert!(text.contains("Error: todos must be a list"), "{text}");
    // A list written after it is not that call's: it stands apart.
    apply(&mut t, build::event("todo/write", 4, 1_200, todos));
    assert!(matches!(t.items().last(), Some(Item::Todo { .. })));
    assert!(!t.card("t1").unwrap().converses());
}

#[test]
fn inspect_and_search_still_find_the_calls() {
    let path = common::capture_str("approvals", "frames.jsonl");
    let o = common::deck_ok(&["inspect", &path]);
    for id in ["call_t2s0_1", "call_t1s6_4"] {
        assert!(o.contains(&format!("\"callId\":\"{id}\"")), "{id}");
    }
    let gated = o.lines().find(|l| l.contains("\"call_t2s1_0\"")).unwrap();
    assert!(
        gated.contains("\"approval\":{\"outcome\":\"allowed-once\"}"),
        "{gated}"
    );
    let t = common::fold(&path);
    let mut list = deck::view::list::TranscriptList::new();
    let opts = deck::view::list::ListOptions::new(100, Density::Preview);
    list.sync(&t, &opts);
    let theme = Theme::dark();
    for (query, call) in [
        ("Continue the capture?", "call_t2s0_1"),
        ("Tour the file tools", "call_t1s6_4"),
        ("allowed once", "call_t2s1_0"),
        ("escalate sandbox", "call_t2s1_0"),
    ] {
        let hits = deck::view::search::find(&t, &list.entries, &theme, 100, true, query);
        let items: Vec<Item> = hits
            .iter()
            .map(|m| t.items()[list.entries[m.entry]].clone())
            .collect();
        assert!(!items.is_empty(), "{query:?} found");
        assert!(
            items.iter().all(|i| *i == card_item(&t, call)),
            "{query:?}: {items:?}"
        );
    }
}
