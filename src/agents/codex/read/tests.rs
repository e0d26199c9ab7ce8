//! Tests of the Codex rollout reader: the real 0.169 capture
//! (`tests/fixtures/agents/codex/tour.rollout.jsonl`) folded into cards with
//! the Codex presenters, the two older generations' shapes (fixtures
//! written by hand), and lines the reader must take quietly or report.

use std::sync::Arc;

use serde_json::{Value, json};

use super::{Reader, is_line};
use crate::cards::resolve;
use crate::agents::codex::present::Codex;
use crate::session::{Item, Status, ToolCard, Transcript};
use crate::agents::read::{Out, Translate};
use crate::wire::view::{DiffView, TerminalView, View, WebBody};
use crate::wire::{Origin, Record};

const TOUR: &str = include_str!("../../../../tests/fixtures/agents/codex/tour.rollout.jsonl");
const GEN2: &str = include_str!("../../../../tests/fixtures/agents/codex/gen2.rollout.jsonl");
const GEN1: &str = include_str!("../../../../tests/fixtures/agents/codex/gen1.rollout.jsonl");

/// Every line of `text` read in order.
pub(crate) fn read(text: &str) -> Out {
    let mut reader = Reader::default();
    let mut out = Out::new();
    for (i, line) in text.lines().enumerate() {
        let v: Value = serde_json::from_str(line).expect("fixture lines are JSON");
        assert!(is_line(&v), "line {} not recognised: {line}", i + 1);
        assert_eq!(crate::agents::of_line(&v).map(|a| a.name()), Some("codex"));
        let origin = Origin {
            line: i + 1,
            offset: 0,
        };
        reader.line(&v, origin, &mut out);
    }
    reader.finish(&mut out);
    out
}

/// The records folded with the Codex presenters.
pub(crate) fn fold(out: &Out) -> Transcript {
    let id = out.first().and_then(|(id, _)| id.clone());
    Transcript::from_records(id, out.iter().map(|(_, r)| r), Arc::new(Codex))
}

/// A folded fixture, checked: one header first, seqs consecutive from 1,
/// times never going back, one session id, no diagnostics.
fn session(text: &str) -> (Out, Transcript) {
    let out = read(text);
    let Some((id, Record::Frame { kind, payload, .. })) = out.first() else {
        panic!("no header first: {:?}", out.first());
    };
    assert_eq!(kind, "session");
    assert_eq!(payload["agent"], "codex");
    assert!(out.iter().all(|(i, _)| i == id), "one session");
    let mut last = (0, 0);
    for (_, r) in &out[1..] {
        let Record::Event { event, .. } = r else {
            panic!("not an event: {r:?}");
        };
        assert_eq!(event.seq, last.0 + 1);
        assert!(event.time >= last.1);
        last = (event.seq, event.time);
    }
    let t = fold(&out);
    assert!(t.diagnostics().is_empty(), "{:?}", t.diagnostics());
    (out, t)
}

/// Each card as `call id: tool → tag status`.
fn summary(t: &Transcript) -> Vec<String> {
    t.cards()
        .iter()
        .map(|c| {
            let r = resolve(c);
            let tag = r.view.tag();
            format!("{}: {} → {tag} {:?}", c.call_id, c.tool_name(), c.status)
        })
        .collect()
}

fn card<'a>(t: &'a Transcript, call_id: &str) -> &'a ToolCard {
    t.cards()
        .iter()
        .find(|c| c.call_id == call_id)
        .unwrap_or_else(|| panic!("no card {call_id}"))
}

fn terminal(t: &Transcript, call_id: &str) -> TerminalView {
    match resolve(card(t, call_id)).view {
        View::Terminal(v) => v,
        other => panic!("{call_id}: {other:?}"),
    }
}

fn diff(t: &Transcript, call_id: &str) -> DiffView {
    match resolve(card(t, call_id)).view {
        View::Diff(v) => v,
        other => panic!("{call_id}: {other:?}"),
    }
}

fn user_texts(t: &Transcript) -> Vec<String> {
    t.items()
        .iter()
        .filter_map(|i| match i {
            Item::User(u) => Some(u.text.clone()),
            _ => None,
        })
        .collect()
}

/// (turn, end reason) of every turn marker.
fn turns(t: &Transcript) -> Vec<(u64, Option<String>)> {
    t.items()
        .iter()
        .filter_map(|i| match i {
            Item::Turn(m) => Some((m.turn, m.end.as_ref().map(|e| e.reason.clone()))),
            _ => None,
        })
        .collect()
}

/// (reasoning, text) of every assistant block.
fn assistant(t: &Transcript) -> Vec<(bool, String)> {
    t.items()
        .iter()
        .filter_map(|i| match i {
            Item::Assistant(m) => Some(m.blocks.iter().map(|b| (b.reasoning, b.text.clone()))),
            _ => None,
        })
        .flatten()
        .collect()
}

#[test]
fn tour_header() {
    let out = read(TOUR);
    let (id, Record::Frame { payload, .. }) = &out[0] else {
        panic!("{:?}", out[0]);
    };
    assert_eq!(id.as_deref(), Some("01a2310c-982e-7143-8bf3-deeceea70918"));
    assert_eq!(payload["id"], "01a2310c-982e-7143-8bf3-deeceea70918");
    assert_eq!(payload["cwd"], "/workspace/demo");
    assert_eq!(payload["version"], "0.169.0");
    assert_eq!(payload["model"], "fake-model");
    assert_eq!(payload["modelProvider"], "fake");
}

#[test]
fn tour_every_call_has_its_card() {
    let (_, t) = session(TOUR);
    // The capture's README, in order; the `write_stdin` poll (call 22) is
    // merged into the command it polls (call 21).
    let want = [
        "call_001_2: exec_command → terminal Ok",
        "call_002_0: update_plan → generic Ok",
        "call_003_0: exec_command → read Ok",
        "call_004_0: exec_command → terminal Ok",
        "call_005_1: exec_command → terminal Failed",
        "call_006_0: exec_command → search Ok",
        "call_007_0: exec_command → terminal Ok",
        "call_008_0: update_plan → generic Ok",
        "call_009_1: apply_patch → diff Ok",
        "call_010_0: exec_command → terminal Ok",
        "call_011_0: update_plan → generic Ok",
        "call_013_1: update_plan → generic Ok",
        "call_014_0: apply_patch → diff Ok",
        "call_015_0: apply_patch → diff Ok",
        "call_016_0: apply_patch → diff Ok",
        "call_017_1: apply_patch → diff Error",
        "call_018_0: exec_command → search Ok",
        "call_019_0: update_plan → generic Ok",
        "ws_resp_020_0: web_search_call → web Ok",
        "call_021_0: exec_command → terminal Ok",
        "call_022_0: exec_command → terminal Ok",
    ];
    assert_eq!(summary(&t), want);
    assert!(t.cards().iter().all(|c| c.status != Status::Pending));
}

#[test]
fn tour_terminals() {
    let (_, t) = session(TOUR);
    let ls = terminal(&t, "call_001_2");
    assert_eq!(ls.title.as_deref(), Some("ls -la"));
    assert_eq!(ls.exit_code, Some(0));
    let out = ls.output.unwrap_or_default();
    assert!(out.starts_with("total 20\n"), "{out}");
    assert!(!out.contains("Chunk ID"), "header stripped: {out}");
    let failing = terminal(&t, "call_005_1");
    assert_eq!(failing.exit_code, Some(1));
    let build = terminal(&t, "call_021_0");
    assert_eq!(build.description.as_deref(), Some("wall time 0.30 s"));
    // The slow command: its poll's output and exit code, on its own card.
    let slow = terminal(&t, "call_022_0");
    assert_eq!(slow.title.as_deref(), Some("sleep 2; echo slow check finished"));
    assert_eq!(slow.exit_code, Some(0));
    assert_eq!(slow.output.as_deref(), Some("slow check finished\n"));
    assert_eq!(slow.description.as_deref(), Some("wall time 1.82 s"));
    assert!(t.cards().iter().all(|c| c.call_id != "call_023_0"));
}

#[test]
fn tour_patches() {
    let (_, t) = session(TOUR);
    let paths = |d: &DiffView| d.diffs.iter().map(|f| f.path.clone()).collect::<Vec<_>>();
    let fix = diff(&t, "call_009_1");
    assert_eq!(paths(&fix), ["src/stats.py"]);
    assert!(fix.diffs[0].new_text.contains("return sum(values) / len(values)"));
    let add = diff(&t, "call_014_0");
    assert_eq!(paths(&add), ["CHANGELOG.md"]);
    assert_eq!(add.diffs[0].old_text, None);
    assert!(add.diffs[0].new_text.starts_with("# Changelog\n"));
    let delete = diff(&t, "call_015_0");
    assert_eq!(paths(&delete), ["notes.txt"]);
    assert_eq!(delete.diffs[0].new_text, "");
    assert!(delete.diffs[0].old_text.as_deref().is_some_and(|o| o.starts_with("scratch notes")));
    let bump = diff(&t, "call_016_0");
    assert_eq!(paths(&bump), ["README.md", "src/lib.rs", "src/stats.py"]);
    assert_eq!(
        bump.title.as_deref(),
        Some("Patch: update README.md, update src/lib.rs, update src/stats.py")
    );
    // A patch that does not apply keeps its diff (drawn `not applied`),
    // and what Codex said of it.
    let failed = card(&t, "call_017_1");
    assert_eq!(failed.status, Status::Error);
    let r = resolve(failed);
    let View::Diff(d) = &r.view else {
        panic!("{failed:?}");
    };
    assert_eq!(paths(d), ["src/lib.rs"]);
    let text = r.raw_result.unwrap_or_default();
    assert!(text.contains("apply_patch verification failed"), "{text}");
}

#[test]
fn tour_plans_search_and_conversation() {
    let (_, t) = session(TOUR);
    let plan = card(&t, "call_002_0").todos.clone().expect("plan on its call");
    let items: Vec<(&str, &str)> = plan
        .iter()
        .map(|x| (x.content.as_str(), x.status.as_str()))
        .collect();
    assert_eq!(
        items,
        [
            ("Survey the repository layout", "in_progress"),
            ("Reproduce the failing self-test", "pending"),
            ("Fix mean() in src/stats.py", "pending"),
            ("Re-run the self-test", "pending"),
        ]
    );
    assert!(card(&t, "call_019_0").todos.as_ref().is_some_and(|p| p.iter().all(|x| x.status == "completed")));
    let View::Web(w) = resolve(card(&t, "ws_resp_020_0")).view else {
        panic!("web");
    };
    assert_eq!(w.title.as_deref(), Some("semantic versioning 0.x minor version bump meaning"));
    let WebBody::Search { sources, answer, .. } = w.body else {
        panic!("search");
    };
    assert!(sources.is_empty());
    assert!(answer.is_some_and(|a| a.contains("no search results")));
    assert_eq!(
        user_texts(&t),
        [
            "Give me a quick tour of this repo, then fix the failing Python self-test.",
            "Housekeeping: add a CHANGELOG, drop notes.txt, and bump the version to 0.2.0 everywhere.",
            "Does the Rust port's unit test pass? Build it and tell me.",
        ]
    );
    let blocks = assistant(&t);
    assert_eq!(blocks.iter().filter(|b| b.0).count(), 6, "reasoning summaries");
    assert_eq!(blocks.iter().filter(|b| !b.0).count(), 5, "assistant messages");
    assert!(blocks[0].1.starts_with("**Surveying the workspace**"));
    let ends: Vec<_> = turns(&t);
    assert_eq!(
        ends,
        [
            (1, None),
            (1, Some("completed".into())),
            (2, None),
            (2, Some("completed".into())),
            (3, None),
            (3, Some("completed".into())),
        ]
    );
}

#[test]
fn tour_turn_ends_carry_token_usage() {
    let out = read(TOUR);
    let ends: Vec<Value> = out
        .iter()
        .filter_map(|(_, r)| match r {
            Record::Event { event, .. } if event.kind.as_str() == "turn/end" => Some(event.data.parse()),
            _ => None,
        })
        .collect();
    assert_eq!(ends.len(), 3);
    // The turn's own usage, as Codex's usage record says (55,701 in, none
    // from the cache; 129 out, 32 of them reasoning), as DSH counts it.
    assert_eq!(
        ends[2]["usage"],
        json!({"inputTokens": 55_701, "cacheReadTokens": 0, "outputTokens": 129, "reasoningTokens": 32})
    );
    // Folded: the turn's, not the last request's (14,100 in).
    let t = fold(&out);
    let usage: Vec<_> = t
        .items()
        .iter()
        .filter_map(|i| match i {
            Item::Turn(m) => m.end.as_ref()?.usage,
            _ => None,
        })
        .collect();
    assert_eq!(usage.len(), 3);
    assert_eq!((usage[2].input, usage[2].output), (Some(55_701), Some(129)));
    assert_eq!((usage[2].cache_read, usage[2].reasoning), (Some(0), Some(32)));
}

#[test]
fn turn_usage_from_running_totals() {
    let ts = "2026-01-01T00:00:00Z";
    let count = |n: u64| json!({"timestamp": ts, "type": "event_msg", "payload": {"type": "token_count", "info": {
        "total_token_usage": {"input_tokens": n, "cached_input_tokens": n / 2, "output_tokens": n / 10},
        "last_token_usage": {"input_tokens": 1, "cached_input_tokens": 0, "output_tokens": 1}}}});
    let started = json!({"timestamp": ts, "type": "event_msg", "payload": {"type": "task_started"}});
    let done = json!({"timestamp": ts, "type": "event_msg", "payload": {"type": "task_complete"}});
    // The third turn counts nothing: it says nothing (not zero).
    let lines = [
        started.clone(),
        count(100),
        done.clone(),
        started.clone(),
        count(130),
        count(250),
        count(250),
        done.clone(),
        started,
        done,
    ];
    let usage: Vec<Value> = records_of(&lines)
        .iter()
        .filter_map(|r| match r {
            Record::Event { event, .. } if event.kind.as_str() == "turn/end" => Some(event.data.parse()["usage"].clone()),
            _ => None,
        })
        .collect();
    assert_eq!(
        usage,
        [
            json!({"inputTokens": 50, "cacheReadTokens": 50, "outputTokens": 10}),
            json!({"inputTokens": 75, "cacheReadTokens": 75, "outputTokens": 15}),
            Value::Null,
        ]
    );
}

#[test]
fn middle_generation() {
    let (out, t) = session(GEN2);
    let Record::Frame { payload, .. } = &out[0].1 else {
        panic!();
    };
    assert_eq!(payload["version"], "0.36.0");
    assert_eq!(payload["gitBranch"], "main");
    assert_eq!(payload["model"], "gpt-5-codex");
    assert_eq!(
        summary(&t),
        [
            "call_ls: exec_command → terminal Ok",
            "call_mv: apply_patch → diff Ok",
            "call_bad: apply_patch → diff Error",
            "call_cat: local_shell → terminal Ok",
            "ws_1: web_search_call → web Ok",
            "web_search_14: web_search_call → web Ok",
            "call_mcp: mcp__docs__search → generic Ok",
            "call_test: exec_command → terminal Interrupted",
        ]
    );
    assert_eq!(terminal(&t, "call_ls").cwd.as_deref(), Some("/work/app"));
    let cat = terminal(&t, "call_cat");
    assert_eq!((cat.title.as_deref(), cat.exit_code), (Some("cat README.txt"), Some(0)));
    let mv = diff(&t, "call_mv");
    assert_eq!(mv.title.as_deref(), Some("Patch: move README.md → README.txt"));
    assert_eq!(mv.diffs[0].path, "README.txt");
    // The applied hunk Codex recorded, with its context line.
    assert_eq!(mv.diffs[0].old_text.as_deref(), Some("# app\nHelo\n"));
    assert_eq!(resolve(card(&t, "call_mcp")).title, "docs · search");
    assert_eq!(user_texts(&t), ["List the files, fix the README typo, look up linters.", "Now run the tests."]);
    assert_eq!(
        turns(&t),
        [(1, None), (1, Some("completed".into())), (2, None), (2, Some("aborted".into()))]
    );
    let kinds: Vec<&str> = out
        .iter()
        .filter_map(|(_, r)| match r {
            Record::Event { event, .. } => Some(event.kind.as_str()),
            _ => None,
        })
        .collect();
    // The `compacted` line and the `context_compacted` event after it: one
    // compaction, with its summary.
    assert_eq!(kinds.iter().filter(|k| **k == "compaction/summary").count(), 2);
    let compactions: Vec<_> = t
        .items()
        .iter()
        .filter_map(|i| match i {
            Item::Compaction(c) => Some(c.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(compactions.len(), 1);
    let summary = compactions[0].summary.as_deref();
    assert_eq!(summary, Some("Summary: listed files, fixed README, searched."));
    assert_eq!(compactions[0].turn, Some(1));
}

#[test]
fn oldest_generation() {
    let (out, t) = session(GEN1);
    let Record::Frame { payload, .. } = &out[0].1 else {
        panic!();
    };
    assert_eq!(payload["id"], "0d5e7a1c-1111-4222-8333-944455556666");
    assert_eq!(payload["gitBranch"], "feature/x");
    assert_eq!(
        summary(&t),
        [
            "call_s1: shell → terminal Ok",
            "call_s2: shell → terminal Failed",
            "call_s3: shell → diff Ok",
        ]
    );
    let ls = terminal(&t, "call_s1");
    assert_eq!(ls.title.as_deref(), Some("ls src"));
    assert_eq!(ls.cwd.as_deref(), Some("/repo"));
    assert_eq!(ls.output.as_deref(), Some("main.rs\n"));
    assert_eq!(ls.description.as_deref(), Some("wall time 0.01 s"));
    let cat = terminal(&t, "call_s2");
    assert_eq!(cat.title.as_deref(), Some("cat 'src/missing file.rs'"));
    assert_eq!(cat.exit_code, Some(1));
    let lib = diff(&t, "call_s3");
    assert_eq!(lib.diffs[0].path, "src/lib.rs");
    assert_eq!(lib.diffs[0].new_text, "pub fn answer() -> u32 {\n    42\n}\n");
    assert_eq!(user_texts(&t), ["What is in src? Then add a lib.", "Thanks"]);
    assert_eq!(turns(&t), [(1, None), (1, Some("completed".into())), (2, None)]);
    assert_eq!(assistant(&t)[0], (true, "Look at src first.".to_string()));
}

/// The records of `lines` after the header.
fn records_of(lines: &[Value]) -> Vec<Record> {
    let mut reader = Reader::default();
    let mut out = Out::new();
    for (i, v) in lines.iter().enumerate() {
        reader.line(v, Origin { line: i + 1, offset: 0 }, &mut out);
    }
    reader.finish(&mut out);
    out.into_iter().skip(1).map(|(_, r)| r).collect()
}

#[test]
fn unknown_lines_are_quiet() {
    let ts = "2026-01-01T00:00:00Z";
    let lines = [
        json!({"timestamp": ts, "type": "brand_new", "payload": {"x": 1}}),
        json!({"timestamp": ts, "type": "response_item", "payload": {"type": "ghost"}}),
        json!({"timestamp": ts, "type": "event_msg", "payload": {"type": "future", "n": [1]}}),
        json!({"timestamp": ts, "type": "world_state", "payload": {"full": true}}),
        json!({"timestamp": ts, "type": "response_item", "payload": {"type": "message", "role": "developer", "content": [{"type": "input_text", "text": "x"}]}}),
        json!({"record_type": "state"}),
        json!({"timestamp": ts, "type": "event_msg", "payload": {"type": "token_count", "info": null}}),
    ];
    assert_eq!(records_of(&lines), []);
}

#[test]
fn malformed_known_lines_are_diagnostics() {
    let ts = "2026-01-01T00:00:00Z";
    let lines = [
        json!({"timestamp": ts, "type": "response_item", "payload": {"type": "function_call", "name": "x", "arguments": "{}"}}),
        json!({"timestamp": ts, "type": "response_item"}),
        json!({"timestamp": ts, "type": "session_meta", "payload": "oops"}),
        json!({"timestamp": ts, "type": "response_item", "payload": {"no": "type"}}),
        json!({"timestamp": ts, "type": "response_item", "payload": {"type": "function_call_output", "output": "x"}}),
        json!({"timestamp": ts, "type": "event_msg", "payload": {"type": 7}}),
    ];
    let records = records_of(&lines);
    assert_eq!(records.len(), lines.len(), "{records:?}");
    for (i, r) in records.iter().enumerate() {
        let Record::Diagnostic(d) = r else {
            panic!("{r:?}");
        };
        assert_eq!(d.origin.line, i + 1);
        assert_eq!(serde_json::from_str::<Value>(&d.raw).ok().as_ref(), Some(&lines[i]));
    }
}

#[test]
fn shapes_of_other_logs_are_not_codex() {
    for v in [
        json!({"type": "session", "version": 1, "id": "s"}),
        json!({"type": "turn/start", "seq": 1, "time": 0, "data": {}}),
        json!({"type": "session/event", "sessionId": "s", "event": {}}),
        json!({"type": "user", "sessionId": "s", "uuid": "u", "message": {"role": "user"}}),
        json!({"type": "assistant", "sessionId": "s", "uuid": "u", "timestamp": "2026-01-01T00:00:00Z", "message": {}}),
        json!({"type": "summary", "summary": "x", "leafUuid": "u"}),
        json!({"timestamp": "2026-01-01T00:00:00Z", "type": "response_item", "payload": {}, "seq": 3}),
        json!([1, 2]),
        json!("x"),
    ] {
        assert!(!is_line(&v), "{v}");
    }
}

#[test]
fn times() {
    use crate::agents::read::epoch_ms;
    assert_eq!(epoch_ms("1970-01-01T00:00:00Z"), Some(0));
    assert_eq!(epoch_ms("2026-12-01T10:00:38.718Z"), Some(1_796_119_238_718));
    assert_eq!(epoch_ms("2026-12-01T11:00:38.7+01:00"), Some(1_796_119_238_700));
    for bad in ["", "2026-13-01T00:00:00Z", "2026-12-01", "2026-12-01T10:00:38Q",
        "2026-12-01T10:00:38+0é:0", "２０２６-12-01T10:00:38Z"] {
        assert_eq!(epoch_ms(bad), None, "{bad}");
    }
}

/// `v` with each field (top level and payload) in turn set to each of a
/// few values of other types.
fn mutations(v: &Value) -> Vec<Value> {
    let others = [json!(null), json!(7), json!("x"), json!([]), json!({}), json!(true)];
    let mut out = Vec::new();
    let Some(o) = v.as_object() else {
        return out;
    };
    for key in o.keys() {
        for other in &others {
            let mut m = v.clone();
            m[key.as_str()] = other.clone();
            out.push(m);
        }
    }
    if let Some(p) = o.get("payload").and_then(Value::as_object) {
        for key in p.keys() {
            for other in &others {
                let mut m = v.clone();
                m["payload"][key.as_str()] = other.clone();
                out.push(m);
            }
        }
    }
    out
}

#[test]
fn bad_input_never_panics() {
    for text in [TOUR, GEN2, GEN1] {
        let mut reader = Reader::default();
        let mut out = Out::new();
        for (i, line) in text.lines().enumerate() {
            let v: Value = serde_json::from_str(line).expect("fixture lines are JSON");
            for m in mutations(&v).iter().chain([&v]) {
                reader.line(m, Origin { line: i + 1, offset: 0 }, &mut out);
            }
        }
        reader.finish(&mut out);
        let t = fold(&out);
        for c in t.cards() {
            let _ = resolve(c);
        }
    }
}
