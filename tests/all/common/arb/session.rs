//! Whole sessions for the property tests: tool calls and results carrying
//! random views (and presentation meta for the presenters), conversation
//! items, prompts, diagnostics and unknown events, folded into records with
//! increasing seqs and times.

use deck::wire::{Diagnostic, Frame, Origin, Record};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use serde_json::{Map, Value, json};

use super::{arr, field, json_value, object, one_of, s, short, t, text, view};

/// The stock tools deck presents, and one it does not.
fn tools() -> Vec<&'static str> {
    let mut t: Vec<&str> = deck::agents::dsh::present::stock_tools().collect();
    t.push("mcp__thing");
    t
}

const ARG_KEYS: &[&str] = &[
    "command",
    "description",
    "workdir",
    "path",
    "file_path",
    "offset",
    "limit",
    "content",
    "old_string",
    "new_string",
    "oldText",
    "newText",
    "pattern",
    "include",
    "query",
    "queries",
    "url",
    "todos",
    "run_in_background",
];

/// Tool arguments: usually a JSON object of likely keys, else any text.
fn arguments() -> BoxedStrategy<String> {
    let value = prop_oneof![3 => t(), 1 => json_value().boxed()];
    prop_oneof![
        4 => vec((select(ARG_KEYS), value), 0..5).prop_map(|kv| {
            let o: Map<String, Value> = kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
            Value::Object(o).to_string()
        }),
        1 => text(),
    ]
    .boxed()
}

/// One thing that happens in a session.
#[derive(Debug, Clone)]
pub enum Step {
    Tool {
        name: String,
        arguments: String,
        call_view: Option<Value>,
        /// `None`: the call is still running.
        result: Option<ToolOutcome>,
    },
    User(String, Option<String>),
    Assistant {
        reasoning: Option<String>,
        text: String,
    },
    Chunk(String),
    TurnStart,
    TurnEnd(Value),
    Todo(Value),
    Title(String),
    Approval(String, String, Option<String>),
    Question(Value),
    Diagnostic(String, String),
    Unknown(String, Value),
}

#[derive(Debug, Clone)]
pub struct ToolOutcome {
    pub view: Option<Value>,
    pub text: String,
    pub is_error: bool,
    pub meta: Option<Value>,
}

fn tool_step() -> BoxedStrategy<Step> {
    let outcome = (
        prop::option::weighted(0.8, view()),
        text(),
        prop::bool::weighted(0.2),
        prop::option::weighted(0.3, view()),
    )
        .prop_map(|(view, text, is_error, meta)| ToolOutcome {
            view,
            text,
            is_error,
            meta,
        });
    (
        one_of(tools()),
        arguments(),
        prop::option::weighted(0.7, view()),
        prop::option::weighted(0.9, outcome),
    )
        .prop_map(|(name, arguments, call_view, result)| Step::Tool {
            name: name.as_str().map(str::to_string).unwrap_or_default(),
            arguments,
            call_view,
            result,
        })
        .boxed()
}

fn step() -> BoxedStrategy<Step> {
    prop_oneof![
        8 => tool_step(),
        2 => (text(), prop::option::weighted(0.2, short())).prop_map(|(t, s)| Step::User(t, s)),
        3 => (prop::option::of(text()), text())
            .prop_map(|(reasoning, text)| Step::Assistant { reasoning, text }),
        1 => text().prop_map(Step::Chunk),
        1 => Just(Step::TurnStart),
        1 => json_value().prop_map(Step::TurnEnd),
        1 => arr(object(vec![("content", field(s())), ("status", field(one_of(&["pending", "in_progress", "completed"])))]), 5)
            .prop_map(Step::Todo),
        1 => short().prop_map(Step::Title),
        1 => (short(), short(), prop::option::of(one_of(&["allow", "allow-once", "deny"])))
            .prop_map(|(tool, reason, outcome)| Step::Approval(tool, reason, outcome.and_then(|o| o.as_str().map(str::to_string)))),
        1 => arr(object(vec![("question", field(s())), ("header", field(s())), ("options", field(arr(object(vec![("label", field(s())), ("description", field(s()))]), 3)))]), 2)
            .prop_map(Step::Question),
        1 => (short(), text()).prop_map(|(r, raw)| Step::Diagnostic(r, raw)),
        1 => (short(), json_value()).prop_map(|(k, d)| Step::Unknown(k, d)),
    ]
    .boxed()
}

/// A session: a few steps, folded into records.
pub fn session() -> BoxedStrategy<Vec<Record>> {
    vec(step(), 0..8).prop_map(|s| records(&s)).boxed()
}

fn frame(v: Value) -> Record {
    match Frame::from_value(&v) {
        Ok(f) => Record::from_frame(f, Origin::default()),
        Err(reason) => Record::Diagnostic(Diagnostic::new(
            Origin::default(),
            reason.to_string(),
            v.to_string(),
        )),
    }
}

/// The records of a list of steps, with increasing seqs and times.
pub fn records(steps: &[Step]) -> Vec<Record> {
    let mut seq = 0u64;
    let mut out = Vec::new();
    let mut next = |kind: &str, data: Value, view: Option<Value>| {
        let mut f = json!({"type":"session/event","sessionId":"s","event":{"type":kind,"seq":seq,"time":1_796_000_000_000i64 + seq as i64 * 250,"data":data}});
        if let Some(v) = view {
            f["view"] = v;
        }
        seq += 1;
        frame(f)
    };
    out.push(next("turn/start", json!({"turn": 1}), None));
    for (i, st) in steps.iter().enumerate() {
        match st {
            Step::Tool {
                name,
                arguments,
                call_view,
                result,
            } => {
                let id = format!("call_{i}");
                out.push(next(
                    "tool/call",
                    json!({"turn":1,"step":1,"callId":id,"name":name,"arguments":arguments}),
                    call_view.clone().map(|v| json!({"for":"call","view":v})),
                ));
                if let Some(r) = result {
                    let mut data = json!({"turn":1,"step":1,"message":{"content":[{"type":"tool-result","toolCallId":id,
                        "content":[{"type":"text","text":r.text}],"isError":r.is_error}]}});
                    if r.is_error {
                        data["error"] = json!({"name": name, "code": "E"});
                    }
                    if let Some(m) = &r.meta {
                        data["meta"] = m.clone();
                    }
                    out.push(next(
                        "tool/result",
                        data,
                        r.view.clone().map(|v| json!({"for":"result","view":v})),
                    ));
                }
            }
            Step::User(text, source) => out.push(next(
                "user/message",
                json!({"content":[{"type":"text","text":text}],"source":{"kind":source.as_deref().unwrap_or("user")}}),
                None,
            )),
            Step::Assistant { reasoning, text } => {
                let mut content = Vec::new();
                if let Some(r) = reasoning {
                    content.push(json!({"type":"reasoning","text":r}));
                }
                content.push(json!({"type":"text","text":text}));
                out.push(next(
                    "assistant/message",
                    json!({"turn":1,"step":i + 2,"message":{"content":content}}),
                    None,
                ));
            }
            Step::Chunk(text) => {
                let step = i + 2;
                out.push(next("assistant/chunk", json!({"turn":1,"step":step,"chunk":{"type":"block-start","index":0,"blockType":"text"}}), None));
                out.push(next("assistant/chunk", json!({"turn":1,"step":step,"chunk":{"type":"text-delta","index":0,"text":text}}), None));
            }
            Step::TurnStart => out.push(next("turn/start", json!({"turn": 1}), None)),
            Step::TurnEnd(reason) => {
                out.push(next("turn/end", json!({"turn":1,"reason":reason}), None))
            }
            Step::Todo(todos) => out.push(next("todo/write", json!({"todos": todos}), None)),
            Step::Title(t) => out.push(next("session/title", json!({"title": t}), None)),
            Step::Approval(tool, reason, outcome) => {
                let id = format!("a{i}");
                out.push(next(
                    "approval/asked",
                    json!({"id":id,"toolName":tool,"reason":reason}),
                    None,
                ));
                if let Some(o) = outcome {
                    out.push(next("approval/decided", json!({"id":id,"outcome":o}), None));
                }
            }
            Step::Question(questions) => out.push(frame(
                json!({"type":"question/requested","sessionId":"s","questions":questions}),
            )),
            Step::Diagnostic(reason, raw) => out.push(Record::Diagnostic(Diagnostic::new(
                Origin {
                    line: i + 1,
                    offset: 0,
                },
                reason.clone(),
                raw.clone(),
            ))),
            Step::Unknown(kind, data) => out.push(next(kind, data.clone(), None)),
        }
    }
    out
}
