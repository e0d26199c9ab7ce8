use serde_json::{Value, json};

use crate::agents::claude_code::read as claude;
use crate::agents::codex::read as codex;
use crate::agents::read::Translate;
use super::is_line;
use crate::wire::{Origin, Record};

fn lines(msgs: &[Value]) -> Vec<(Option<String>, Record)> {
    let mut r = super::Reader::default();
    let mut out = Vec::new();
    for (i, m) in msgs.iter().enumerate() {
        r.line(m, Origin { line: i + 1, offset: 0 }, &mut out);
    }
    r.finish(&mut out);
    out
}

/// (kind, data) of every event.
fn events(out: &[(Option<String>, Record)]) -> Vec<(String, Value)> {
    out.iter()
        .filter_map(|(_, r)| match r {
            Record::Event { event, .. } => {
                Some((event.kind.as_str().to_string(), event.data.parse()))
            }
            _ => None,
        })
        .collect()
}

fn update(t: u64, u: Value) -> Value {
    json!({"t": t, "dir": "agent->client", "msg": {"jsonrpc": "2.0", "method": "session/update",
        "params": {"sessionId": "s", "update": u}}})
}

#[test]
fn a_trace_line_is_known_by_its_shape_and_no_other_format_takes_it() {
    let acp = json!({"t": 5, "dir": "client->agent", "msg": {"jsonrpc": "2.0", "id": 0, "method": "initialize"}});
    let raw = json!({"t": 5, "dir": "agent->client", "raw": "debug: hello"});
    assert!(is_line(&acp) && is_line(&raw));
    assert_eq!(crate::agents::of_line(&acp).map(|a| a.name()), Some("acp"));
    assert!(!claude::is_line(&acp) && !codex::is_line(&acp));
    for not in [
        json!({"t": 5, "dir": "sideways", "msg": {"jsonrpc": "2.0"}}),
        json!({"t": 5, "dir": "client->agent", "msg": {"id": 1}}),
        json!({"t": "5", "dir": "client->agent", "msg": {"jsonrpc": "2.0"}}),
        json!({"type": "session/event", "dir": "client->agent", "msg": {"jsonrpc": "2.0"}}),
        json!({"type": "user", "sessionId": "s", "uuid": "u", "message": {}}),
        json!({"timestamp": "2026-01-01T00:00:00Z", "type": "event_msg", "payload": {}}),
        json!({"jsonrpc": "2.0", "method": "session/update"}),
    ] {
        assert!(!is_line(&not), "{not}");
    }
    // (The line decoder hands it on whole, though it names a sessionId:
    // `load::decode`'s tests.)
}

#[test]
fn calls_merge_by_id_and_a_cancelled_prompt_interrupts_what_it_left_open() {
    let out = lines(&[
        json!({"t": 1, "dir": "client->agent", "msg": {"jsonrpc": "2.0", "id": 2, "method": "session/prompt",
            "params": {"sessionId": "s", "prompt": [{"type": "text", "text": "go"}]}}}),
        // An update before its call, an unknown kind, an empty first chunk.
        update(2, json!({"sessionUpdate": "tool_call_update", "toolCallId": "a", "title": "early"})),
        update(3, json!({"sessionUpdate": "something_new", "x": 1})),
        update(4, json!({"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": ""}})),
        update(5, json!({"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": "hi"}})),
        update(6, json!({"sessionUpdate": "tool_call", "toolCallId": "a", "kind": "execute", "rawInput": {}, "status": "pending"})),
        update(7, json!({"sessionUpdate": "tool_call", "toolCallId": "a", "rawInput": {"command": "ls"}, "title": "ls"})),
        update(8, json!({"sessionUpdate": "tool_call_update", "toolCallId": "a", "status": "in_progress"})),
        json!({"t": 9, "dir": "agent->client", "msg": {"jsonrpc": "2.0", "id": 2, "result": {"stopReason": "cancelled"}}}),
        json!({"t": 10, "dir": "agent->client", "raw": "not json"}),
    ]);
    let ev = events(&out);
    let kinds: Vec<&str> = ev.iter().map(|e| e.0.as_str()).collect();
    assert_eq!(kinds, ["turn/start", "user/message", "assistant/message", "tool/call", "turn/end"]);
    let call = &ev[3].1;
    assert_eq!(call["callId"], "a");
    let args: Value = serde_json::from_str(call["arguments"].as_str().unwrap()).unwrap();
    assert_eq!((args["title"].as_str(), args["rawInput"]["command"].as_str()), (Some("ls"), Some("ls")));
    assert_eq!(ev[4].1["reason"]["kind"], "cancelled");
    let diags = out.iter().filter(|(_, r)| matches!(r, Record::Diagnostic(_))).count();
    assert_eq!(diags, 1, "the raw line is a diagnostic");
    // Times are the trace's `t`.
    let Record::Event { event, .. } = &out.iter().find(|(_, r)| matches!(r, Record::Event { .. })).unwrap().1 else {
        unreachable!()
    };
    assert_eq!(event.time, 1);
}

#[test]
fn a_failed_call_is_an_error_result_and_terminal_answers_go_in_its_meta() {
    let out = lines(&[
        update(1, json!({"sessionUpdate": "tool_call", "toolCallId": "a", "kind": "execute", "rawInput": {"c": 1}, "status": "pending"})),
        json!({"t": 2, "dir": "agent->client", "msg": {"jsonrpc": "2.0", "id": 1, "method": "terminal/create", "params": {"sessionId": "s", "command": "false"}}}),
        json!({"t": 3, "dir": "client->agent", "msg": {"jsonrpc": "2.0", "id": 1, "result": {"terminalId": "t1"}}}),
        update(4, json!({"sessionUpdate": "tool_call_update", "toolCallId": "a", "content": [{"type": "terminal", "terminalId": "t1"}]})),
        json!({"t": 5, "dir": "agent->client", "msg": {"jsonrpc": "2.0", "id": 2, "method": "terminal/wait_for_exit", "params": {"sessionId": "s", "terminalId": "t1"}}}),
        json!({"t": 6, "dir": "client->agent", "msg": {"jsonrpc": "2.0", "id": 2, "result": {"exitCode": 1, "signal": null}}}),
        update(7, json!({"sessionUpdate": "tool_call_update", "toolCallId": "a", "status": "completed"})),
        update(8, json!({"sessionUpdate": "tool_call", "toolCallId": "b", "kind": "fetch", "rawInput": {"u": 1}})),
        update(9, json!({"sessionUpdate": "tool_call_update", "toolCallId": "b", "status": "failed", "rawOutput": "offline"})),
    ]);
    let ev = events(&out);
    let results: Vec<&Value> = ev.iter().filter(|e| e.0 == "tool/result").map(|e| &e.1).collect();
    assert_eq!(results.len(), 2);
    let term = &results[0]["meta"]["acp"]["terminals"][0];
    assert_eq!((term["command"].as_str(), term["exitStatus"]["exitCode"].as_i64()), (Some("false"), Some(1)));
    let part = &results[1]["message"]["content"][0];
    assert_eq!((part["isError"].as_bool(), part["content"][0]["text"].as_str()), (Some(true), Some("offline")));
}

/// The `session` headers read, in order (payloads).
fn headers(out: &[(Option<String>, Record)]) -> Vec<Value> {
    out.iter()
        .filter_map(|(_, r)| match r {
            Record::Frame { kind, payload, .. } if kind == "session" => Some(payload.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn mode_and_commands_changes_come_as_headers_and_permission_options_are_kept() {
    let options = json!([
        {"kind": "allow_always", "name": "Always Allow", "optionId": "aa"},
        {"kind": "allow_once", "name": "Allow", "optionId": "a"},
        {"kind": "reject_once", "name": "Reject", "optionId": "r"},
    ]);
    let out = lines(&[
        json!({"t": 1, "dir": "client->agent", "msg": {"jsonrpc": "2.0", "id": 1, "method": "session/new", "params": {"cwd": "/w"}}}),
        json!({"t": 2, "dir": "agent->client", "msg": {"jsonrpc": "2.0", "id": 1, "result": {"sessionId": "s",
            "modes": {"currentModeId": "default", "availableModes": [{"id": "default"}, {"id": "plan"}]}}}}),
        update(3, json!({"sessionUpdate": "available_commands_update", "availableCommands": [{"name": "review"}, {"name": "init"}]})),
        update(4, json!({"sessionUpdate": "current_mode_update", "currentModeId": "plan"})),
        update(5, json!({"sessionUpdate": "current_mode_update", "currentModeId": 7})),
        update(6, json!({"sessionUpdate": "available_commands_update", "availableCommands": []})),
        json!({"t": 7, "dir": "agent->client", "msg": {"jsonrpc": "2.0", "id": 9, "method": "session/request_permission",
            "params": {"sessionId": "s", "options": options, "toolCall": {"toolCallId": "c", "title": "Edit"}}}}),
        json!({"t": 8, "dir": "client->agent", "msg": {"jsonrpc": "2.0", "id": 9, "result": {"outcome": {"outcome": "selected", "optionId": "aa"}}}}),
    ]);
    let h = headers(&out);
    assert_eq!(h.len(), 3, "{h:#?}");
    assert_eq!((h[0]["mode"].as_str(), h[0]["commands"].clone()), (Some("default"), json!(["review", "init"])));
    // Later changes: a header holding only them (a mode that is no string is not one).
    assert_eq!(h[1], json!({"agent": "acp", "mode": "plan"}));
    assert_eq!(h[2], json!({"agent": "acp", "commands": []}));
    let ev = events(&out);
    let asked = &ev.iter().find(|e| e.0 == "approval/asked").unwrap().1;
    assert_eq!(asked["options"], options);
    assert_eq!(asked["rpcId"], "9");
    let decided = &ev.iter().find(|e| e.0 == "approval/decided").unwrap().1;
    assert_eq!(decided["outcome"], "allowed always");
}

/// (kind, time, data) of every event.
fn timed(out: &[(Option<String>, Record)]) -> Vec<(String, i64, Value)> {
    out.iter()
        .filter_map(|(_, r)| match r {
            Record::Event { event, .. } => {
                Some((event.kind.as_str().to_string(), event.time, event.data.parse()))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn gemini_calls_start_when_first_heard_of_and_a_permission_can_announce_one() {
    // Gemini CLI: no `rawInput`; a read announced then completed; an edit
    // first heard of in its permission request, with its diff.
    let diff = json!([{"type": "diff", "path": "/w/a", "oldText": "a\n", "newText": "b\n"}]);
    let out = lines(&[
        json!({"t": 1, "dir": "client->agent", "msg": {"jsonrpc": "2.0", "id": 2, "method": "session/prompt",
            "params": {"sessionId": "s", "prompt": [{"type": "text", "text": "go"}]}}}),
        update(100, json!({"sessionUpdate": "tool_call", "toolCallId": "r", "status": "in_progress",
            "title": "a", "content": [], "kind": "read"})),
        update(130, json!({"sessionUpdate": "tool_call_update", "toolCallId": "r", "status": "completed",
            "content": [], "kind": "read"})),
        json!({"t": 200, "dir": "agent->client", "msg": {"jsonrpc": "2.0", "id": 0,
            "method": "session/request_permission", "params": {"sessionId": "s",
            "options": [{"optionId": "proceed_once", "name": "Allow", "kind": "allow_once"}],
            "toolCall": {"toolCallId": "e", "status": "pending", "title": "a: a => b",
                "content": diff, "kind": "edit"}}}}),
        json!({"t": 210, "dir": "client->agent", "msg": {"jsonrpc": "2.0", "id": 0,
            "result": {"outcome": {"outcome": "selected", "optionId": "proceed_once"}}}}),
        update(260, json!({"sessionUpdate": "tool_call_update", "toolCallId": "e", "status": "completed",
            "content": diff, "kind": "edit"})),
    ]);
    let ev = timed(&out);
    let at = |kind: &str, id: &str| {
        let i = ev
            .iter()
            .position(|(k, _, d)| k == kind && (d["callId"] == id || d["message"]["content"][0]["toolCallId"] == id))
            .unwrap_or_else(|| panic!("no {kind} for {id}: {ev:#?}"));
        (i, ev[i].1, ev[i].2.clone())
    };
    assert_eq!(at("tool/call", "r").1, 100);
    assert_eq!(at("tool/result", "r").1, 130);
    // The edit's card goes out with the request, before it is asked.
    let (call, t, data) = at("tool/call", "e");
    assert_eq!(t, 200);
    assert!(data["arguments"].as_str().is_some_and(|a| a.contains("\"diff\"")), "{data}");
    let asked = ev.iter().position(|(k, _, _)| k == "approval/asked").expect("asked");
    assert!(call < asked, "{ev:#?}");
    assert_eq!(at("tool/result", "e").1, 260);
}

fn from_agent(t: u64, id: Value, method: &str, params: Value) -> Value {
    json!({"t": t, "dir": "agent->client", "msg": {"jsonrpc": "2.0", "id": id, "method": method, "params": params}})
}

fn from_client(t: u64, id: Value, answer: Value) -> Value {
    let mut msg = json!({"jsonrpc": "2.0", "id": id});
    if let (Some(m), Some(a)) = (msg.as_object_mut(), answer.as_object()) {
        m.extend(a.clone());
    }
    json!({"t": t, "dir": "client->agent", "msg": msg})
}

/// Issue 28 §2: ids 7 and "7" are two permission requests (two cards,
/// each decided by its own answer); a third with id 7 while the first
/// waits is not a request, and the refusal that answers it decides nothing.
#[test]
fn permission_ids_are_typed_and_a_duplicate_is_not_a_request() {
    let options = json!([{"kind": "allow_once", "name": "Allow", "optionId": "allow"},
                         {"kind": "reject_once", "name": "Reject", "optionId": "reject"}]);
    let ask = |t, id: Value, title: &str| {
        from_agent(t, id, "session/request_permission",
            json!({"sessionId": "s", "options": options, "toolCall": {"toolCallId": title, "title": title}}))
    };
    let chose = |o: &str| json!({"result": {"outcome": {"outcome": "selected", "optionId": o}}});
    let out = lines(&[
        ask(1, json!(7), "Read README.md"),
        ask(2, json!("7"), "rm -rf ~"),
        ask(3, json!(7), "touch dup"),
        from_client(4, json!(7), json!({"error": {"code": -32600, "message": "duplicate id 7"}})),
        from_client(5, json!("7"), chose("reject")),
        from_client(6, json!(7), chose("allow")),
    ]);
    let ev = events(&out);
    let asked: Vec<(String, String)> = ev
        .iter()
        .filter(|e| e.0 == "approval/asked")
        .map(|e| (e.1["id"].as_str().unwrap().to_string(), e.1["reason"].as_str().unwrap().to_string()))
        .collect();
    assert_eq!(
        asked,
        [("permission-7".to_string(), "Read README.md".to_string()), ("permission-\"7\"".to_string(), "rm -rf ~".to_string())]
    );
    let decided: Vec<(String, String)> = ev
        .iter()
        .filter(|e| e.0 == "approval/decided")
        .map(|e| (e.1["id"].as_str().unwrap().to_string(), e.1["outcome"].as_str().unwrap().to_string()))
        .collect();
    assert_eq!(
        decided,
        [("permission-\"7\"".to_string(), "rejected once".to_string()), ("permission-7".to_string(), "allowed once".to_string())]
    );
}

/// Issue 28 §2: what `deck acp` saw of a terminal stands for its output
/// and exit; a terminal no call names gets a card of its own, from the
/// moment the agent uses it, ended when deck saw it end.
#[test]
fn seen_terminals_are_cards_tied_to_their_call_or_their_own() {
    let seen = |t, id: &str, output: &str, exit: Value| {
        json!({"t": t, "seen": {"terminal": {"terminalId": id, "output": output, "truncated": false, "exitStatus": exit}}})
    };
    assert!(is_line(&seen(1, "t1", "", json!({}))));
    assert!(!is_line(&json!({"t": 1, "seen": "t1"})));
    let out = lines(&[
        json!({"t": 1, "dir": "client->agent", "msg": {"jsonrpc": "2.0", "id": 2, "method": "session/prompt",
            "params": {"sessionId": "s", "prompt": [{"type": "text", "text": "go"}]}}}),
        // A bare terminal: created, waited for, never named by a call.
        from_agent(2, json!(10), "terminal/create", json!({"sessionId": "s", "command": "make", "args": ["-j2"]})),
        from_client(3, json!(10), json!({"result": {"terminalId": "t1"}})),
        from_agent(4, json!(11), "terminal/wait_for_exit", json!({"sessionId": "s", "terminalId": "t1"})),
        seen(5, "t1", "built\n", json!({"exitCode": 2})),
        from_client(6, json!(11), json!({"result": {"exitCode": 2}})),
        // A terminal tied to a call, its output never asked for.
        update(7, json!({"sessionUpdate": "tool_call", "toolCallId": "c", "kind": "execute", "title": "ls",
            "rawInput": {"command": "ls"}, "status": "pending"})),
        from_agent(8, json!(12), "terminal/create", json!({"sessionId": "s", "command": "ls"})),
        from_client(9, json!(12), json!({"result": {"terminalId": "t2"}})),
        update(10, json!({"sessionUpdate": "tool_call_update", "toolCallId": "c",
            "content": [{"type": "terminal", "terminalId": "t2"}]})),
        seen(11, "t2", "a\nb\n", json!({"exitCode": 0})),
        update(12, json!({"sessionUpdate": "tool_call_update", "toolCallId": "c", "status": "completed",
            "rawOutput": "Exited with code 9"})),
        // One never used nor named: shown when the turn ends.
        from_agent(13, json!(13), "terminal/create", json!({"sessionId": "s", "command": "sleep 9"})),
        from_client(14, json!(13), json!({"result": {"terminalId": "t3"}})),
        json!({"t": 15, "dir": "agent->client", "msg": {"jsonrpc": "2.0", "id": 2, "result": {"stopReason": "end_turn"}}}),
    ]);
    let ev = events(&out);
    let calls: Vec<String> = ev.iter().filter(|e| e.0 == "tool/call").map(|e| e.1["callId"].as_str().unwrap().to_string()).collect();
    assert_eq!(calls, ["terminal:t1", "c", "terminal:t3"]);
    let bare = &ev.iter().find(|e| e.0 == "tool/call").unwrap().1;
    let args: Value = serde_json::from_str(bare["arguments"].as_str().unwrap()).unwrap();
    assert_eq!((args["title"].as_str(), args["kind"].as_str()), (Some("make -j2"), Some("execute")));
    let results: Vec<&Value> = ev.iter().filter(|e| e.0 == "tool/result").map(|e| &e.1).collect();
    assert_eq!(results.len(), 2, "the one still running has no result: {results:#?}");
    let term = |r: &Value| r["meta"]["acp"]["terminals"][0].clone();
    assert_eq!(term(results[0])["output"], "built\n");
    assert_eq!(term(results[0])["exitStatus"]["exitCode"], 2);
    assert_eq!(term(results[1])["output"], "a\nb\n");
    assert_eq!(term(results[1])["exitStatus"]["exitCode"], 0);
    // The own card comes in the turn, before its end.
    let end = ev.iter().position(|e| e.0 == "turn/end").unwrap();
    let t3 = ev.iter().position(|e| e.0 == "tool/call" && e.1["callId"] == "terminal:t3").unwrap();
    assert!(t3 < end, "{ev:#?}");
}
