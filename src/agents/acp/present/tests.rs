use serde_json::{Value, json};

use super::{Call, exited, files, unfence};

// The views as JSON trees, as they are written.
fn diff(call: &Call) -> Value {
    files::diff(call).to_tree()
}
fn read(call: &Call, text: &str) -> Value {
    files::read(call, text).to_tree()
}
fn search(call: &Call, text: &str) -> Option<Value> {
    files::search(call, text).map(|v| v.to_tree())
}
fn terminal(call: &Call, text: &str) -> Value {
    super::terminal(call, text).to_tree()
}

#[test]
fn fences_and_exit_lines_are_read_and_nothing_else_is() {
    assert_eq!(unfence("```\nhello\n```"), "hello");
    assert_eq!(unfence("````\na\n```b```\n````"), "a\n```b```");
    assert_eq!(unfence("plain ```x```"), "plain ```x```");
    assert_eq!(exited("Exited with code 3.Final output:\n\noops\n"), (Some(3), "oops\n".into()));
    assert_eq!(exited("something else"), (None, "something else".into()));
}

#[test]
fn a_hunk_gets_a_line_number_only_where_the_file_places_it_once() {
    let state = json!({"kind": "edit", "title": "Edit", "content": [
        {"type": "diff", "path": "/a", "oldText": "b\n", "newText": "B\n"},
    ]});
    let call = |files| Call { state: std::borrow::Cow::Borrowed(state.as_object().unwrap()), acp: Some(files) };
    let served = json!({"files": {"/a": {"read": {"line": 10, "content": "a\nb\nc\n"}}}});
    assert_eq!(diff(&call(&served))["diffs"][0]["startLine"], 11);
    let twice = json!({"files": {"/a": {"read": {"line": 1, "content": "b\nb\n"}}}});
    assert!(diff(&call(&twice))["diffs"][0].get("startLine").is_none());
    let none = json!({});
    assert!(diff(&call(&none))["diffs"][0].get("startLine").is_none());
}

#[test]
fn search_text_is_matches_or_paths_or_nothing() {
    let state = json!({"kind": "search", "title": "s"});
    let call = Call { state: std::borrow::Cow::Borrowed(state.as_object().unwrap()), acp: None };
    assert_eq!(search(&call, "a.rs:3:fn x\nb.rs:1:y").unwrap()["shape"], "matches");
    assert_eq!(search(&call, "src/a.rs\nsrc/b.rs").unwrap()["shape"], "paths");
    assert!(search(&call, "No files found").is_none());
}

#[test]
fn a_read_with_nothing_to_show_is_not_an_empty_file() {
    // Gemini CLI reads files itself: no `fs/read_text_file`, no content.
    let state = json!({"kind": "read", "title": "src/stats.py", "content": [],
        "locations": [{"path": "/w/src/stats.py"}]});
    let call = |acp| Call { state: std::borrow::Cow::Borrowed(state.as_object().unwrap()), acp };
    let view = read(&call(None), "");
    assert_eq!(view["card"], "generic", "{view}");
    assert_eq!(view["kind"], "read");
    assert_eq!(view["locations"][0]["path"], "/w/src/stats.py");
    // Text, or the client's own answer, still make a read card.
    assert_eq!(read(&call(None), "a\nb")["card"], "read");
    let served = json!({"files": {"/w/src/stats.py": {"read": {"content": ""}}}});
    assert_eq!(read(&call(Some(&served)), "")["card"], "read");
}

/// Issue 28 §2, "true or absent": a terminal the client ran shows what the
/// client saw of it, never the agent's word; unknown, it is absent. A call
/// the agent ran itself has only the agent's word.
#[test]
fn a_terminals_output_and_exit_are_what_the_client_saw() {
    let state = json!({"kind": "execute", "title": "make", "rawOutput": "Exited with code 9.Final output:\n\nlies\n",
        "content": [{"type": "terminal", "terminalId": "t1"}]});
    let call = |acp| Call { state: std::borrow::Cow::Borrowed(state.as_object().unwrap()), acp };
    let seen = json!({"terminals": [{"terminalId": "t1", "command": "make", "output": "built\n", "exitStatus": {"exitCode": 0}}]});
    let view = terminal(&call(Some(&seen)), "the agent's text");
    assert_eq!((view["output"].as_str(), view["exitCode"].as_i64()), (Some("built\n"), Some(0)), "{view}");
    let unknown = json!({"terminals": [{"terminalId": "t1", "command": "make"}]});
    let view = terminal(&call(Some(&unknown)), "the agent's text");
    assert_eq!(view["output"], "", "{view}");
    assert!(view.get("exitCode").is_none() && view.get("signal").is_none(), "{view}");
    let view = terminal(&call(None), "");
    assert_eq!((view["output"].as_str(), view["exitCode"].as_i64()), (Some("lies\n"), Some(9)), "{view}");
}
