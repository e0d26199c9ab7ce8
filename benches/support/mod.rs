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

/// `n` lines of plausible Rust, the same every call: fns, structs, impls,
/// comments, string literals, macros and closures from templates.
pub fn rust_lines(n: usize) -> Vec<String> {
    const WORDS: &[&str] = &[
        "config", "parser", "buffer", "token", "frame", "record", "session", "cache", "index",
        "layout", "span", "cursor",
    ];
    let mut out = Vec::with_capacity(n);
    let mut i = 0usize;
    while out.len() < n {
        let a = WORDS[i % WORDS.len()];
        let b = WORDS[(i * 7 + 3) % WORDS.len()];
        let block = [
            format!("/// Resolve the {a} against the {b} ({i} of them)."),
            "#[derive(Debug, Clone, PartialEq)]".to_string(),
            format!("pub struct {}{i} {{", a.to_uppercase()),
            format!("    pub {a}: Vec<u{}>,", 8 << (i % 4)),
            format!("    pub {b}_name: Option<String>,"),
            "}".to_string(),
            String::new(),
            format!("impl {}{i} {{", a.to_uppercase()),
            format!("    pub fn {a}_{b}(&mut self, limit: usize) -> Result<usize, Error> {{"),
            format!(
                "        let total = self.{a}.iter().map(|x| *x as usize * {i}).sum::<usize>();"
            ),
            "        // Keep the total under the limit; report the rest.".to_string(),
            "        if total > limit {".to_string(),
            format!(
                "            return Err(Error::new(format!(\"{a} over {{}}: {{total}}\", limit)));"
            ),
            "        }".to_string(),
            format!("        println!(\"{b}: {{:>8}}\", total);"),
            format!("        Ok(total + {})", i % 97),
            "    }".to_string(),
            "}".to_string(),
            String::new(),
        ];
        out.extend(block);
        i += 1;
    }
    out.truncate(n);
    out
}

/// `old` with every 10th line changed, and a line inserted and one removed
/// every 50: a diff with many small hunks.
pub fn edited(old: &[String]) -> Vec<String> {
    let mut new = Vec::with_capacity(old.len());
    for (i, l) in old.iter().enumerate() {
        match i % 50 {
            5 => new.push(format!("{l} // checked")),
            15 | 35 => new.push(l.replace("total", "sum")),
            25 => {
                new.push(l.clone());
                new.push("        debug_assert!(limit > 0, \"limit\");".to_string());
            }
            45 => {}
            _ if i % 10 == 0 => new.push(l.replace("pub ", "pub(crate) ")),
            _ => new.push(l.clone()),
        }
    }
    new
}

/// The records of one tool call with these views (and a result).
pub fn call_records(call_view: Value, result_view: Value) -> Vec<Record> {
    let frames = [
        json!({"type": "session/event", "sessionId": "bench", "event": {"type": "tool/call", "seq": 0, "time": 1,
            "data": {"turn": 1, "step": 1, "callId": "c1", "name": "tool", "arguments": "{}"}},
            "view": {"for": "call", "view": call_view}}),
        json!({"type": "session/event", "sessionId": "bench", "event": {"type": "tool/result", "seq": 1, "time": 2,
            "data": {"turn": 1, "step": 1, "message": {"content": [{"type": "tool-result", "toolCallId": "c1",
            "content": [{"type": "text", "text": "done"}], "isError": false}]}}},
            "view": {"for": "result", "view": result_view}}),
    ];
    frames
        .iter()
        .map(|f| Record::from_frame(Frame::from_value(f).expect("frame"), Origin::default()))
        .collect()
}
