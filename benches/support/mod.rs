//! Deterministic synthetic sessions for benchmarks: `cards` tool calls in
//! turns of a user message, an assistant message and terminal / read / diff
//! / search cards with views, as the DSH host sends them.
#![allow(dead_code)]

use deck::wire::{Frame, Origin, Record};
use serde_json::{Value, json};

/// A frame log of `cards` tool cards, as records.
pub fn records(cards: usize) -> Vec<Record> {
    let mut out = Vec::new();
    let mut seq = 0u64;
    let mut time = 1_796_000_000_000i64;
    let mut push = |event: Value, view: Option<Value>| {
        time += 7;
        let mut ev = event;
        ev["seq"] = json!(seq);
        ev["time"] = json!(time);
        seq += 1;
        let mut frame = json!({"type": "session/event", "sessionId": "bench", "event": ev});
        if let Some(v) = view {
            frame["view"] = v;
        }
        out.push(Record::from_frame(
            Frame::from_value(&frame).expect("frame"),
            Origin::default(),
        ));
    };
    let mut card = 0usize;
    let mut turn = 0u64;
    while card < cards {
        turn += 1;
        push(json!({"type": "turn/start", "data": {"turn": turn}}), None);
        push(
            json!({"type": "user/message", "data": {"content": [{"type": "text", "text": format!("turn {turn}: run the tests")}], "source": {"kind": "user"}}}),
            None,
        );
        push(
            json!({"type": "assistant/message", "data": {"turn": turn, "step": 1, "message": {"content": [{"type": "text", "text": "Running the tests and reading the parser."}]}}}),
            None,
        );
        for k in 0..4 {
            if card >= cards {
                break;
            }
            card += 1;
            let id = format!("c{card}");
            let (call_view, result_view) = match k {
                0 => {
                    let output: String = (0..20)
                        .map(|i| format!("\u{1b}[32mtest\u{1b}[0m case_{i} ... ok\n"))
                        .collect();
                    (
                        json!({"card": "terminal", "title": "cargo test"}),
                        json!({"card": "terminal", "output": output, "exitCode": if card.is_multiple_of(9) { 1 } else { 0 }}),
                    )
                }
                1 => {
                    let lines: Vec<Value> = (0..40).map(|i| json!({"number": i + 1, "text": format!("    let value_{i} = compute({i}, &config);")})).collect();
                    (
                        json!({"card": "generic", "title": "Read src/lib.rs", "kind": "read"}),
                        json!({"card": "read", "path": "src/lib.rs", "offset": 1, "lines": lines, "totalLines": 400, "lang": "rs"}),
                    )
                }
                2 => {
                    let old: String = (0..12)
                        .map(|i| format!("    let v{i} = compute({i});\n"))
                        .collect();
                    let new = old.replacen("compute", "compute_checked", 2);
                    let diffs = json!([{"path": "src/lib.rs", "oldText": old, "newText": new}]);
                    (
                        json!({"card": "diff", "title": "Edit src/lib.rs", "diffs": diffs}),
                        json!({"card": "diff", "diffs": diffs}),
                    )
                }
                _ => (
                    json!({"card": "generic", "title": "Grep compute", "kind": "search"}),
                    json!({"card": "search", "shape": "matches", "files": [{"path": "src/a.rs", "matches": [{"lineNumber": 3, "line": "compute(1)"}, {"lineNumber": 9, "line": "compute(2)"}]}], "truncated": false, "total": 2}),
                ),
            };
            push(
                json!({"type": "tool/call", "data": {"turn": turn, "step": 1, "callId": id, "name": "tool", "arguments": "{}"}}),
                Some(json!({"for": "call", "view": call_view})),
            );
            push(
                json!({"type": "tool/result", "data": {"turn": turn, "step": 1, "message": {"content": [{"type": "tool-result", "toolCallId": id, "content": [{"type": "text", "text": "done"}], "isError": false}]}}}),
                Some(json!({"for": "result", "view": result_view})),
            );
        }
        push(
            json!({"type": "turn/end", "data": {"turn": turn, "reason": {"kind": "completed"}}}),
            None,
        );
    }
    out
}
