//! Arbitrary bytes into one card of each tag (generic, terminal, diff, read,
//! search, web and an unknown tag), filled from the input, drawn at a width
//! 0–400 and a density taken from the input: every line must fit the width
//! and carry no control character.
#![no_main]

use arbitrary::Arbitrary;
use deck::cards::{self, Ctx};
use deck::session::{AttachedView, Status, ToolCard, ToolError, ToolResult, ViewSource};
use deck_fuzz::{check_lines, density, theme};
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};

#[derive(Debug, Arbitrary)]
struct Input {
    width: u16,
    density: u8,
    theme: u8,
    plain_code: bool,
    pending: bool,
    is_error: bool,
    tool: String,
    arguments: String,
    title: Option<String>,
    a: String,
    b: String,
    text: String,
    other_text: Option<String>,
    n: u64,
    m: u64,
    code: Option<i64>,
    flag: bool,
    lines: Vec<(u64, String)>,
    files: Vec<(String, Vec<(u64, String)>)>,
    /// The result's raw content text (shown when a card has no result view).
    result_text: String,
}

fn views(i: &Input) -> Vec<Value> {
    let title = i.title.clone();
    let lines: Vec<Value> = i
        .lines
        .iter()
        .map(|(n, t)| json!({"number": n, "text": t}))
        .collect();
    let files: Vec<Value> = i
        .files
        .iter()
        .map(|(p, ms)| {
            json!({"path": p, "matches": ms.iter().map(|(n, l)| json!({"lineNumber": n, "line": l})).collect::<Vec<_>>()})
        })
        .collect();
    vec![
        json!({"card": "generic", "title": title, "kind": i.a, "rawInput": i.arguments,
            "content": [{"type": "text", "text": i.text}, {"type": i.b}],
            "locations": [{"path": i.a, "line": i.n}]}),
        json!({"card": "terminal", "title": title, "description": i.a, "cwd": i.b,
            "output": i.text, "exitCode": i.code, "signal": if i.flag { Some(&i.b) } else { None }}),
        json!({"card": "diff", "title": title, "diffs": [
            {"path": i.a, "oldText": i.other_text, "newText": i.text},
            {"path": i.b, "oldText": i.text, "newText": i.other_text.clone().unwrap_or_default()}]}),
        json!({"card": "read", "title": title, "path": i.a, "offset": i.n, "lines": lines,
            "totalLines": i.m, "lang": i.b, "content": if i.flag { Some(json!([{"type": "text", "text": i.text}])) } else { None }}),
        json!({"card": "search", "title": title, "shape": "matches", "files": files,
            "truncated": i.flag, "total": i.n}),
        json!({"card": "search", "title": title, "shape": "paths",
            "paths": [i.a, i.b, i.text], "truncated": i.flag, "total": i.m}),
        json!({"card": "web", "title": title, "kind": "search", "sources": [
            {"url": i.a, "title": i.b, "snippet": i.text, "publishedAt": i.b}],
            "answer": i.other_text, "failures": [{"query": i.a, "code": i.b, "message": i.text}],
            "truncated": i.flag}),
        json!({"card": "web", "title": title, "kind": "fetch", "url": i.a, "statusCode": i.code,
            "truncated": i.flag}),
        json!({"card": i.b, "title": title, "output": i.text}),
    ]
}

fuzz_target!(|i: Input| {
    let width = usize::from(i.width) % 401;
    let theme = theme(i.theme);
    let ctx = Ctx {
        plain_code: i.plain_code,
        now_ms: Some(1_000),
        ..Ctx::new(width, &theme, density(i.density))
    };
    for v in views(&i) {
        // The view as the call's (the result pending or without a view of
        // its own), then as the result's.
        for in_result in [false, true] {
            let view = AttachedView::new(ViewSource::Wire, v.clone());
            let (call_view, result_view) = if in_result {
                (None, Some(view))
            } else {
                (Some(view), None)
            };
            let settled = !i.pending || in_result;
            let card = ToolCard {
                call_id: "c".into(),
                tool: Some(i.tool.clone()),
                arguments: i.arguments.clone(),
                turn: Some(1),
                step: Some(1),
                call_seq: Some(0),
                started: Some(0),
                ended: settled.then_some(i.m.min(1 << 40) as i64),
                call_view,
                result_view,
                result: settled.then(|| {
                    ToolResult::new(
                        1,
                        vec![json!({"type": "text", "text": i.result_text})],
                        i.is_error,
                        i.is_error.then(|| ToolError {
                            name: Some(i.a.clone()),
                            code: Some(i.b.clone()),
                        }),
                        None,
                    )
                }),
                status: match (settled, i.is_error, i.code) {
                    (false, _, _) => Status::Pending,
                    (true, true, _) => Status::Error,
                    (true, false, Some(c)) if c != 0 => Status::Failed,
                    _ => Status::Ok,
                },
                rev: 0,
            };
            check_lines(&cards::render(&card, &ctx), width, "card");
            let _ = cards::export::plain_text(&card);
        }
    }
});
