//! Reducer tests: pairing by callId, out-of-order and duplicate results,
//! results without calls, interrupted calls, chunk assembly, unknown events.

use deck::session::{Item, Status, Transcript, ViewSource};
use deck::wire::{Record, View};
use serde_json::{Value, json};

use crate::common::build::{call_data, event, frame, in_turn, rec, result_data, text};
use crate::common::{self, fold_records};

/// A session log event at `seq`, 10 ms after the one before.
fn ev(kind: &str, seq: u64, data: Value) -> Record {
    rec(event(kind, seq, 1000 + seq as i64 * 10, data))
}

/// Call `id` of tool `name` in turn 1.
fn call(seq: u64, id: &str, name: &str, args: &str) -> Record {
    ev("tool/call", seq, in_turn(call_data(id, name, args)))
}

/// The result of call `id` in turn 1: one text block.
fn result(seq: u64, id: &str, out: &str, is_error: bool) -> Record {
    let content = json!([text(out)]);
    ev(
        "tool/result",
        seq,
        in_turn(result_data(id, content, is_error)),
    )
}

#[test]
fn pairs_by_call_id_not_order() {
    let t = fold_records(&[
        ev("turn/start", 0, json!({"turn": 1})),
        call(1, "a", "mcp__x__one", "{}"),
        call(2, "b", "mcp__x__two", "{}"),
        result(3, "b", "second", false),
        result(4, "a", "first", true),
    ]);
    assert_eq!(t.card("a").unwrap().status, Status::Error);
    assert_eq!(
        t.card("a").unwrap().result.as_ref().unwrap().text(),
        "first"
    );
    assert_eq!(t.card("b").unwrap().status, Status::Ok);
    assert_eq!(t.card("b").unwrap().duration_ms(), Some(10));
}

#[test]
fn result_before_call_is_paired_when_the_call_arrives() {
    let t = fold_records(&[
        result(5, "x", "out", false),
        call(4, "x", "mcp__y__z", "{\"q\":1}"),
    ]);
    assert_eq!(t.cards().len(), 1);
    let c = t.card("x").unwrap();
    assert_eq!(c.tool.as_deref(), Some("mcp__y__z"));
    assert_eq!(c.arguments, "{\"q\":1}");
    assert_eq!(c.status, Status::Ok);
    assert_eq!(
        t.items()
            .iter()
            .filter(|i| matches!(i, Item::Tool(_)))
            .count(),
        1
    );
}

#[test]
fn result_without_call_still_shows() {
    let t = fold_records(&[result(1, "ghost", "orphan output", false)]);
    let c = t.card("ghost").unwrap();
    assert_eq!(c.tool, None);
    assert_eq!(c.status, Status::Ok);
    let r = deck::cards::resolve(c);
    assert!(r.fallback.unwrap().contains("no tool/call"));
    assert_eq!(r.raw_result.as_deref(), Some("orphan output"));
}

#[test]
fn duplicate_results_keep_the_first_and_say_so() {
    let t = fold_records(&[
        call(1, "a", "t", "{}"),
        result(2, "a", "one", false),
        result(3, "a", "two", true),
    ]);
    let c = t.card("a").unwrap();
    assert_eq!(c.result.as_ref().unwrap().text(), "one");
    assert_eq!(c.status, Status::Ok);
    assert_eq!(t.diagnostics().len(), 1);
    assert!(t.diagnostics()[0].reason.contains("duplicate result"));
}

#[test]
fn repeated_seqs_are_applied_once() {
    let r = call(1, "a", "t", "{}");
    let t = fold_records(&[
        r.clone(),
        r.clone(),
        result(2, "a", "x", false),
        result(2, "a", "x", false),
    ]);
    assert_eq!(t.events(), 2);
    assert_eq!(t.duplicates(), 2);
    // Counted, not reported (a backfilled recording may repeat events).
    assert!(t.diagnostics().is_empty());
}

#[test]
fn seq_gaps_and_reordering_are_said_where_they_happen() {
    let t = fold_records(&[
        ev("turn/start", 3, json!({"turn": 1})),
        ev(
            "turn/end",
            4,
            json!({"turn": 1, "reason": {"kind": "completed"}}),
        ),
        ev("turn/start", 6, json!({"turn": 2})),
        ev(
            "turn/end",
            9,
            json!({"turn": 2, "reason": {"kind": "completed"}}),
        ),
        ev("session/title", 5, json!({"title": "late"})),
    ]);
    let reasons: Vec<&str> = t.diagnostics().iter().map(|d| d.reason.as_str()).collect();
    assert_eq!(
        reasons,
        [
            "seq 5 missing before seq 6",
            "seqs 7–8 missing before seq 9",
            "seq 5 after seq 9: out of order, applied where it came"
        ]
    );
    // Everything is applied all the same.
    assert_eq!(t.events(), 5);
    assert_eq!(t.title(), Some("late"));
}

#[test]
fn calls_without_results_are_interrupted_at_turn_end() {
    let t = fold_records(&[
        ev("turn/start", 0, json!({"turn": 1})),
        call(1, "a", "t", "{}"),
        call(2, "b", "t", "{}"),
        result(3, "b", "ok", false),
    ]);
    assert_eq!(t.card("a").unwrap().status, Status::Pending);
    let mut records = vec![
        ev("turn/start", 0, json!({"turn": 1})),
        call(1, "a", "t", "{}"),
        call(2, "b", "t", "{}"),
        result(3, "b", "ok", false),
    ];
    records.push(ev(
        "turn/end",
        4,
        json!({"turn": 1, "reason": {"kind": "aborted"}}),
    ));
    let t = fold_records(&records);
    assert_eq!(t.card("a").unwrap().status, Status::Interrupted);
    assert_eq!(t.card("b").unwrap().status, Status::Ok);
}

#[test]
fn terminal_nonzero_exit_is_failed_not_error() {
    let t = fold_records(&[
        rec(frame(
            event("tool/call", 1, 1, call_data("c", "sh", "{}")),
            Some(("call", json!({"card": "terminal", "title": "false"}))),
        )),
        rec(frame(
            event("tool/result", 2, 2, result_data("c", json!([]), false)),
            Some((
                "result",
                json!({"card": "terminal", "output": "", "exitCode": 1}),
            )),
        )),
    ]);
    let c = t.card("c").unwrap();
    assert_eq!(c.status, Status::Failed);
    assert_eq!(c.result_view.as_ref().unwrap().source, ViewSource::Wire);
}

#[test]
fn error_names_and_codes_are_kept() {
    let mut r = result(2, "a", "", true);
    if let Record::Event { event, .. } = &mut r {
        let mut data = event.data.parse();
        data["error"] = json!({"name": "AbortError", "code": "ABORTED"});
        event.data = data.into();
    }
    let t = fold_records(&[call(1, "a", "t", "{}"), r]);
    let err = t
        .card("a")
        .unwrap()
        .result
        .as_ref()
        .unwrap()
        .error
        .clone()
        .unwrap();
    assert_eq!(
        (err.name.as_deref(), err.code.as_deref()),
        (Some("AbortError"), Some("ABORTED"))
    );
}

#[test]
fn chunks_assemble_text_and_reasoning_without_final_message() {
    let chunk = |seq: u64, c: Value| {
        ev(
            "assistant/chunk",
            seq,
            json!({"turn": 1, "step": 1, "chunk": c}),
        )
    };
    let t = fold_records(&[
        chunk(
            1,
            json!({"type":"block-start","index":0,"blockType":"reasoning"}),
        ),
        chunk(
            2,
            json!({"type":"reasoning-delta","index":0,"text":"think "}),
        ),
        chunk(3, json!({"type":"reasoning-delta","index":0,"text":"hard"})),
        chunk(
            4,
            json!({"type":"block-start","index":1,"blockType":"text"}),
        ),
        chunk(5, json!({"type":"text-delta","index":1,"text":"Hel"})),
        chunk(6, json!({"type":"text-delta","index":1,"text":"lo"})),
    ]);
    let Item::Assistant(m) = &t.items()[0] else {
        panic!("{:?}", t.items())
    };
    assert_eq!(m.blocks.len(), 2);
    assert!(m.blocks[0].reasoning);
    assert_eq!(m.blocks[0].text, "think hard");
    assert_eq!(m.blocks[1].text, "Hello");
    assert!(!m.complete);
}

#[test]
fn final_message_replaces_streamed_text() {
    let t = fold_records(&[
        ev(
            "assistant/chunk",
            1,
            json!({"turn":1,"step":1,"chunk":{"type":"text-delta","index":0,"text":"Hel"}}),
        ),
        ev(
            "assistant/message",
            2,
            json!({"turn":1,"step":1,"message":{"role":"assistant","content":[
            {"type":"text","text":"Hello, world"},{"type":"tool-call","id":"c","name":"t","arguments":"{}"}]}}),
        ),
    ]);
    assert_eq!(t.items().len(), 1);
    let Item::Assistant(m) = &t.items()[0] else {
        panic!()
    };
    assert_eq!(m.blocks[0].text, "Hello, world");
    assert!(m.complete);
}

#[test]
fn unknown_events_are_reported_unless_ignorable() {
    let t = fold_records(&[
        ev("future/thing", 1, json!({})),
        rec(json!({"type":"future/other","seq":2,"time":1,"data":{},"ignorable":true})),
        ev("compaction/start", 3, json!({})),
    ]);
    assert_eq!(t.diagnostics().len(), 1);
    assert!(t.diagnostics()[0].reason.contains("future/thing"));
    assert!(matches!(t.items()[0], Item::Diagnostic(0)));
}

#[test]
fn error_turns_keep_message_and_code() {
    let t = fold_records(&[ev(
        "turn/end",
        1,
        json!({"turn":4,"reason":{"kind":"error","error":{"message":"bad request","code":"INVALID_REQUEST"}}}),
    )]);
    let Item::Turn(m) = &t.items()[0] else {
        panic!()
    };
    let end = m.end.as_ref().unwrap();
    assert_eq!(
        (
            end.reason.as_str(),
            end.message.as_deref(),
            end.code.as_deref()
        ),
        ("error", Some("bad request"), Some("INVALID_REQUEST"))
    );
}

#[test]
fn malformed_views_fall_back_with_a_reason() {
    let t = fold_records(&[rec(
        json!({"type":"session/event","event":{"type":"tool/call","seq":1,"time":1,
            "data":{"callId":"c","name":"custom","arguments":"{\"a\":1}"}},"view":{"for":"call","view":{"card":"hologram","title":"x"}}}),
    )]);
    let r = deck::cards::resolve(t.card("c").unwrap());
    assert_eq!(r.title, "custom");
    assert!(r.fallback.unwrap().contains("unknown card \"hologram\""));
}

#[test]
fn the_tour_folds_like_the_host_says() {
    let t = common::fold(&common::capture_str("tour", "frames.jsonl"));
    let count = |st: Status| t.cards().iter().filter(|c| c.status == st).count();
    // From cards.md: 9 isError results, one of them the sleep the driver
    // cancelled (AbortError/ABORTED: cancelled, not an error); `printf …
    // exit 3` and the timed-out sleep are failed terminal runs.
    assert_eq!(count(Status::Error), 8);
    assert_eq!(count(Status::Cancelled), 1);
    assert_eq!(count(Status::Failed), 2);
    assert_eq!(count(Status::Pending) + count(Status::Interrupted), 0);
    assert_eq!(t.title().map(|s| !s.is_empty()), Some(true));
    let turns = t
        .items()
        .iter()
        .filter(|i| matches!(i, Item::Turn(m) if m.end.is_some()))
        .count();
    assert_eq!(turns, 4);
}

#[test]
fn queue_and_jobs_frames_keep_the_latest_counts() {
    let queue =
        |items: Value| rec(json!({"type": "session/queue", "sessionId": "s", "items": items}));
    let jobs = |jobs: Value| rec(json!({"type": "session/jobs", "sessionId": "s", "jobs": jobs}));
    let mut t = Transcript::new(Some("s".into()), deck::stock());
    t.apply(&queue(json!([
        {"id": "1", "placement": "queued", "message": {"content": []}},
        {"id": "2", "placement": "context", "message": {"content": []}},
        {"id": "3", "placement": "queued", "message": {"content": []}},
        {"id": "4", "placement": "steering", "message": {"content": []}}
    ])));
    t.apply(&jobs(json!([
        {"id": "bash-1", "kind": "bash", "label": "sleep 1", "status": "running"},
        {"id": "bash-2", "kind": "bash", "label": "make", "status": "completed"}
    ])));
    assert_eq!((t.queued(), t.steering(), t.jobs()), (2, 1, (2, 1)));
    t.apply(&queue(json!([])));
    t.apply(&jobs(json!("not a list")));
    assert_eq!((t.queued(), t.steering(), t.jobs()), (0, 0, (0, 0)));
    // The approvals capture: a job ran and finished, the queue drained.
    let t = common::fold(&common::capture_str("approvals", "frames.jsonl"));
    assert_eq!((t.queued(), t.jobs()), (0, (1, 0)));
}

/// Presenters that name what they were asked, so a test sees which views
/// came from them and with what.
#[derive(Debug)]
struct Echo;

impl deck::session::Presenters for Echo {
    fn call_view(&self, call: deck::session::Call<'_>) -> Option<View> {
        let (tool, arguments) = (call.tool, call.arguments);
        View::parse(&json!({"card": "generic", "title": format!("call {tool} {arguments}")})).ok()
    }

    fn result_view(&self, s: &deck::session::Settled<'_>) -> Option<deck::session::Presented> {
        let text = deck::session::text_of(s.content);
        let (tool, is_error) = (s.tool, s.is_error);
        let title = format!("result {tool} {text} {is_error}");
        View::parse(&json!({"card": "generic", "title": title}))
            .ok()
            .map(Into::into)
    }
}

#[test]
fn views_the_host_did_not_send_come_from_the_presenters_given() {
    let records = [
        ev("turn/start", 0, json!({"turn": 1})),
        // The result first: its view waits for the call's tool name.
        result(1, "a", "out", false),
        call(2, "a", "mcp__x__one", "{\"k\":1}"),
        call(3, "b", "mcp__x__two", "{}"),
        result(4, "b", "more", true),
    ];
    let t = Transcript::from_records(None, &records, std::sync::Arc::new(Echo));
    let title = |id: &str, slot: &str| {
        let card = t.card(id).unwrap();
        let view = match slot {
            "call" => card.call_view.as_ref(),
            _ => card.result_view.as_ref(),
        }
        .unwrap();
        assert_eq!(view.source, ViewSource::Presenter);
        view.typed().unwrap().title().unwrap().to_string()
    };
    assert_eq!(title("a", "call"), "call mcp__x__one {\"k\":1}");
    assert_eq!(title("a", "result"), "result mcp__x__one out false");
    assert_eq!(title("b", "result"), "result mcp__x__two more true");
    // Deck's stock presenters know no such tools: no views at all.
    let stock = common::fold_records(&records);
    assert!(stock.card("a").unwrap().call_view.is_none());
    assert!(stock.card("b").unwrap().result_view.is_none());
}
