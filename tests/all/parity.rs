//! Presenter parity with the real DSH host.
//!
//! For both real captures (`tour` and `approvals`, in the repo: see
//! `common::capture`) this reads the on-disk session log
//! (`session.jsonl.zstd`, which stores no views) and the host's own frames
//! (`frames.jsonl`, whose `tool/call` / `tool/result` frames carry the views
//! the host computed), pairs calls and results by `callId`, runs deck's
//! built-in presenters on the log's data, and requires the very same view —
//! or no view where the host sent none — for every call and every result.
//! The history-page views of the capture's `summary.json` are checked the
//! same way.

use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::io::BufRead;

use deck::agents::dsh::present::{call_view, result_view};
use deck::session::{Call, Settled};
use deck::wire::View;
use serde_json::Value;

use crate::common;

/// One call as the session log has it.
struct LoggedCall {
    name: String,
    arguments: String,
    result: Option<LoggedResult>,
}

struct LoggedResult {
    content: Vec<Value>,
    is_error: bool,
    meta: Option<Value>,
}

/// What the host sent for one call: `None` = frame seen without a view.
#[derive(Default)]
struct HostViews {
    call: Option<Option<Value>>,
    result: Option<Option<Value>>,
}

fn read_lines(bytes: &[u8]) -> Vec<Value> {
    bytes
        .lines()
        .map(|l| l.expect("readable line"))
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(&l).unwrap_or_else(|e| panic!("bad JSON line ({e}): {l}")))
        .collect()
}

/// The `tool-result` part of a `tool/result` event's data.
fn result_part(data: &Value) -> &Value {
    data["message"]["content"]
        .as_array()
        .and_then(|parts| parts.iter().find(|p| p["type"] == "tool-result"))
        .unwrap_or_else(|| panic!("tool/result without a tool-result part: {data}"))
}

fn load_log(name: &str) -> (Vec<String>, HashMap<String, LoggedCall>) {
    let file = File::open(common::capture(name, "session.jsonl.zstd")).expect("session.jsonl.zstd");
    let bytes = zstd::stream::decode_all(file).expect("zstd log");
    let mut order = Vec::new();
    let mut calls: HashMap<String, LoggedCall> = HashMap::new();
    for event in read_lines(&bytes) {
        let data = &event["data"];
        match event["type"].as_str() {
            Some("tool/call") => {
                let id = data["callId"].as_str().expect("callId").to_string();
                let call = LoggedCall {
                    name: data["name"].as_str().expect("name").to_string(),
                    arguments: data["arguments"]
                        .as_str()
                        .expect("arguments string")
                        .to_string(),
                    result: None,
                };
                assert!(
                    calls.insert(id.clone(), call).is_none(),
                    "duplicate call {id}"
                );
                order.push(id);
            }
            Some("tool/result") => {
                let part = result_part(data);
                let id = part["toolCallId"].as_str().expect("toolCallId");
                let call = calls
                    .get_mut(id)
                    .unwrap_or_else(|| panic!("result before call {id}"));
                call.result = Some(LoggedResult {
                    content: part["content"].as_array().cloned().unwrap_or_default(),
                    is_error: part["isError"].as_bool().unwrap_or(false),
                    meta: data.get("meta").filter(|m| !m.is_null()).cloned(),
                });
            }
            _ => {}
        }
    }
    (order, calls)
}

fn load_frames(name: &str) -> HashMap<String, HostViews> {
    let bytes = std::fs::read(common::capture(name, "frames.jsonl")).expect("frames.jsonl");
    let mut host: HashMap<String, HostViews> = HashMap::new();
    for frame in read_lines(&bytes) {
        let payload = &frame["payload"];
        if payload["type"] != "session/event" {
            continue;
        }
        let event = &payload["event"];
        let (id, want_for) = match event["type"].as_str() {
            Some("tool/call") => (event["data"]["callId"].as_str().expect("callId"), "call"),
            Some("tool/result") => (
                result_part(&event["data"])["toolCallId"]
                    .as_str()
                    .expect("id"),
                "result",
            ),
            _ => continue,
        };
        let view = payload.get("view").map(|env| {
            assert_eq!(env["for"], want_for, "view for the wrong phase on {id}");
            env["view"].clone()
        });
        let entry = host.entry(id.to_string()).or_default();
        let slot = if want_for == "call" {
            &mut entry.call
        } else {
            &mut entry.result
        };
        assert!(slot.is_none(), "two {want_for} frames for {id}");
        *slot = Some(view);
    }
    host
}

/// A call's (call view, result view) as one history page carried them.
type HistoryViews = (Option<Value>, Option<Value>);

/// `summary.json`'s history-page views, by callId.
fn load_history_views(name: &str) -> HashMap<String, HistoryViews> {
    let text = common::capture_text(name, "summary.json");
    let summary: Value = serde_json::from_str(&text).expect("summary.json");
    let view = |v: &Value| (!v.is_null()).then(|| v["view"].clone());
    let tools = summary["tools"].as_array().expect("summary tools");
    tools
        .iter()
        .map(|t| {
            let id = t["callId"].as_str().expect("callId").to_string();
            (
                id,
                (view(&t["historyCallView"]), view(&t["historyResultView"])),
            )
        })
        .collect()
}

fn show(v: &Option<Value>) -> String {
    match v {
        Some(v) => serde_json::to_string(v).unwrap_or_default(),
        None => "no view".to_string(),
    }
}

#[derive(Default)]
struct Tally {
    checked: usize,
    by_tool: BTreeMap<String, usize>,
    mismatches: Vec<String>,
}

impl Tally {
    fn check(
        &mut self,
        what: &str,
        id: &str,
        tool: &str,
        expected: &Option<Value>,
        actual: &Option<View>,
    ) {
        self.checked += 1;
        *self.by_tool.entry(tool.to_string()).or_default() += 1;
        // Every view the host sent is one a card reads.
        let host = expected.as_ref().map(|v| {
            View::parse(v)
                .unwrap_or_else(|e| panic!("{what} {id}: the host's view does not type: {e}"))
        });
        // The typed views first; then what each writes, read back as a tree.
        let written = |v: &Option<View>| v.as_ref().map(View::to_tree);
        let problem = if host != *actual {
            Some("mismatch")
        } else if written(&host) != written(actual) {
            Some("written form mismatch")
        } else {
            None
        };
        if let Some(problem) = problem {
            self.mismatches.push(format!(
                "{what} {problem} for callId {id} (tool {tool}):\n  expected: {}\n  actual:   {}",
                show(expected),
                show(&written(actual))
            ));
        }
    }
}

fn check_capture(name: &str, tally: &mut Tally) {
    let (order, calls) = load_log(name);
    let host = load_frames(name);
    assert!(!order.is_empty(), "{name}: the log has no tool calls");
    assert_eq!(
        order.len(),
        host.len(),
        "{name}: log and frames disagree on the number of calls"
    );
    let history = load_history_views(name);
    assert_eq!(
        history.len(),
        order.len(),
        "{name}: summary.json lists a different number of calls"
    );
    let checked_before = tally.checked;
    for id in &order {
        let call = &calls[id];
        let host_views = host
            .get(id)
            .unwrap_or_else(|| panic!("{name}: no frames for call {id}"));
        let live_call = host_views
            .call
            .as_ref()
            .unwrap_or_else(|| panic!("{name}: no tool/call frame for {id}"));
        let ours_call = call_view(Call::new(&call.name, &call.arguments));
        tally.check(
            &format!("{name} call view"),
            id,
            &call.name,
            live_call,
            &ours_call,
        );

        let result = call
            .result
            .as_ref()
            .unwrap_or_else(|| panic!("{name}: call {id} has no result in the log"));
        let live_result = host_views
            .result
            .as_ref()
            .unwrap_or_else(|| panic!("{name}: no tool/result frame for {id}"));
        let ours_result = result_view(&Settled::new(
            &call.name,
            &call.arguments,
            &result.content,
            result.is_error,
            result.meta.as_ref(),
        ));
        tally.check(
            &format!("{name} result view"),
            id,
            &call.name,
            live_result,
            &ours_result,
        );

        let (hist_call, hist_result) = history
            .get(id)
            .unwrap_or_else(|| panic!("{name}: {id} not in summary.json"));
        tally.check(
            &format!("{name} history call view"),
            id,
            &call.name,
            hist_call,
            &ours_call,
        );
        tally.check(
            &format!("{name} history result view"),
            id,
            &call.name,
            hist_result,
            &ours_result,
        );
    }
    // Four views per call: live call and result, history call and result.
    assert_eq!(tally.checked - checked_before, 4 * order.len(), "{name}");
}

#[test]
fn presenters_match_host_views_in_every_capture() {
    let mut tally = Tally::default();
    for name in common::CAPTURES {
        check_capture(name, &mut tally);
    }
    eprintln!(
        "parity: {} captures, {} views checked, {} mismatches; per tool: {:?}",
        common::CAPTURES.len(),
        tally.checked,
        tally.mismatches.len(),
        tally.by_tool
    );
    for mismatch in &tally.mismatches {
        eprintln!("{mismatch}");
    }
    assert!(
        tally.mismatches.is_empty(),
        "{} presenter mismatches (see above)",
        tally.mismatches.len()
    );
}
