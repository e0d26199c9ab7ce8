//! Edge cases of the built-in presenters, through the public entry points.
//!
//! The captures (`tests/all/parity.rs`) cover the happy paths of every stock tool;
//! these cover what a capture cannot: malformed or mistyped arguments, marker
//! and footer placement in shell output, malformed `meta`, and tools the host
//! does not present.

use serde_json::{Value, json};

use super::stock_tools;
use crate::session::{Call, Settled};

// The views as JSON trees, as they are written.
fn call_view(call: Call<'_>) -> Option<Value> {
    super::call_view(call).map(|v| v.to_tree())
}
fn result_view(settled: &Settled<'_>) -> Option<Value> {
    super::result_view(settled).map(|v| v.to_tree())
}

fn text(t: &str) -> Vec<Value> {
    vec![json!({"type": "text", "text": t})]
}

fn bash_result(args: &str, output: &str, is_error: bool) -> Option<Value> {
    result_view(&Settled::new("bash", args, &text(output), is_error, None))
}

const LS: &str = r#"{"command":"ls","description":"List files"}"#;

#[test]
fn unknown_and_unpresented_tools_get_no_view() {
    for tool in [
        "mcp__fake__echo",
        "ask_user_question",
        "nope",
        "",
        "Bash",
        "job_output",
    ] {
        assert_eq!(call_view(Call::new(tool, "{}")), None, "{tool}");
        assert_eq!(call_view(Call::new(tool, LS)), None, "{tool}");
        assert_eq!(
            result_view(&Settled::new(tool, LS, &text("x"), false, None)),
            None,
            "{tool}"
        );
    }
    // todo_write presents its call but has no result presenter.
    let todos = r#"{"todos":[{"content":"a","status":"pending"}]}"#;
    assert!(call_view(Call::new("todo_write", todos)).is_some());
    assert_eq!(
        result_view(&Settled::new("todo_write", todos, &text("Updated todo list"), false, None)),
        None
    );
}

#[test]
fn malformed_arguments_never_panic_and_give_no_view() {
    let raws = [
        "",
        "{",
        "null",
        "[]",
        "42",
        "\"ls\"",
        r#"{"command":"ls"}"#,
        r#"{"command":5,"description":"d"}"#,
        r#"{"command":null,"description":"d"}"#,
        r#"{"command":"ls","description":"d","workdir":null}"#,
        r#"{"command":"ls","description":"d","timeoutMs":"5"}"#,
        r#"{"command":"ls","description":"d","run_in_background":"yes"}"#,
        r#"{"command":"ls","description":"d","sandbox_permissions":"root"}"#,
        r#"{"command":"ls","description":"d"} trailing"#,
        // Negative zero anywhere is not lossless JSON to the host.
        r#"{"command":"ls","description":"d","timeoutMs":-0}"#,
        r#"{"command":"ls","description":"d","extra":{"x":[-0.0]}}"#,
        "\u{0}",
    ];
    for raw in raws {
        for tool in stock_tools() {
            assert_eq!(call_view(Call::new(tool, raw)), None, "{tool} {raw:?}");
            assert_eq!(
                result_view(&Settled::new(tool, raw, &text("x"), false, Some(&json!({})))),
                None,
                "{tool} {raw:?}"
            );
        }
    }
}

#[test]
fn undeclared_keys_are_allowed_but_declared_ones_are_typed() {
    let args = r#"{"command":"ls","description":"d","whatever":[1,{"a":null}]}"#;
    assert_eq!(
        call_view(Call::new("bash", args)),
        Some(json!({"card": "terminal", "title": "ls", "description": "d"}))
    );
    // Closed todo items reject extra keys and unknown statuses.
    assert_eq!(
        call_view(Call::new("todo_write", r#"{"todos":[{"content":"a","status":"pending","x":1}]}"#)),
        None
    );
    assert_eq!(
        call_view(Call::new("todo_write", r#"{"todos":[{"content":"a","status":"doing"}]}"#)),
        None
    );
    assert_eq!(
        call_view(Call::new("todo_write", r#"{"todos":[{"content":"a"}]}"#)),
        None
    );
    assert_eq!(call_view(Call::new("web_search", r#"{"queries":["a",1]}"#)), None);
    assert_eq!(call_view(Call::new("web_search", r#"{"queries":"a"}"#)), None);
    // A later duplicate key wins, as with JSON.parse.
    let dup = r#"{"command":"a","description":"d","command":"b"}"#;
    assert_eq!(
        call_view(Call::new("bash", dup)).and_then(|v| v.get("title").cloned()),
        Some(json!("b"))
    );
}

#[test]
fn bash_call_views() {
    assert_eq!(
        call_view(Call::new("bash", LS)),
        Some(json!({"card": "terminal", "title": "ls", "description": "List files"}))
    );
    let with_dir = r#"{"command":"ls","description":"d","workdir":"sub/dir"}"#;
    assert_eq!(
        call_view(Call::new("bash", with_dir)),
        Some(json!({"card": "terminal", "title": "ls", "description": "d", "cwd": "sub/dir"}))
    );
    let background = r#"{"command":"sleep 1","description":"Nap","run_in_background":true}"#;
    assert_eq!(
        call_view(Call::new("bash", background)),
        Some(json!({
            "card": "generic", "title": "sleep 1", "kind": "execute", "rawInput": "sleep 1",
            "content": [{"type": "text", "text": "Nap"}],
        }))
    );
    // `run_in_background: false` is a foreground run.
    let foreground = r#"{"command":"ls","description":"d","run_in_background":false}"#;
    assert_eq!(
        call_view(Call::new("bash", foreground)).and_then(|v| v.get("card").cloned()),
        Some(json!("terminal"))
    );
}

#[test]
fn bash_exit_code_trailer_becomes_exit_code() {
    assert_eq!(
        bash_result(LS, "\u{1b}[31mred\u{1b}[0m\n[exit code: 3]", false),
        Some(json!({"card": "terminal", "output": "\u{1b}[31mred\u{1b}[0m", "exitCode": 3}))
    );
    assert_eq!(
        bash_result(LS, "a\n", false),
        Some(json!({"card": "terminal", "output": "a\n", "exitCode": 0}))
    );
    // Only a final-line marker counts.
    assert_eq!(
        bash_result(LS, "[exit code: 3]", false),
        Some(json!({"card": "terminal", "output": "[exit code: 3]", "exitCode": 0}))
    );
    assert_eq!(
        bash_result(LS, "x\n[exit code: 3]\n", false),
        Some(json!({"card": "terminal", "output": "x\n[exit code: 3]\n", "exitCode": 0}))
    );
}

#[test]
fn bash_signal_trailer_becomes_signal_and_keeps_the_timeout_marker() {
    assert_eq!(
        bash_result(
            LS,
            "(no output)\n[timed out after 1500ms]\n[killed by signal: SIGTERM]",
            false
        ),
        Some(
            json!({"card": "terminal", "output": "(no output)\n[timed out after 1500ms]", "signal": "SIGTERM"})
        )
    );
    // stderr and sandbox markers stay in the body.
    let denied = "[stderr]\nPermission denied\n[sandbox: file access denied under workspace-write mode]\n[exit code: 1]";
    assert_eq!(
        bash_result(LS, denied, false),
        Some(json!({
            "card": "terminal",
            "output": "[stderr]\nPermission denied\n[sandbox: file access denied under workspace-write mode]",
            "exitCode": 1,
        }))
    );
}

#[test]
fn bash_spill_footers_stay_in_the_output() {
    let spilled = "201\n9202\n20000\n\n[output truncated; full output: /tmp/x-stdout.log]\n\n\
                   (Omitted 14312 bytes. Full formatted result stored at: /tmp/s/bash.txt. Use read with offset/limit.)";
    assert_eq!(
        bash_result(LS, spilled, false),
        Some(json!({"card": "terminal", "output": spilled, "exitCode": 0}))
    );
    // A spill footer after the exit marker hides the marker, as on the host.
    let after =
        "x\n[exit code: 2]\n\n(Omitted 10 bytes. Full formatted result stored at: /tmp/b.txt.)";
    assert_eq!(
        bash_result(LS, after, false),
        Some(json!({"card": "terminal", "output": after, "exitCode": 0}))
    );
}

#[test]
fn background_and_failed_bash_results_are_fenced_generic_cards() {
    let background = r#"{"command":"sleep 1","description":"Nap","run_in_background":true}"#;
    let fenced =
        |t: &str| Some(json!({"card": "generic", "content": [{"type": "text", "text": t}]}));
    assert_eq!(
        bash_result(background, "started background job bash-1", false),
        fenced("```console\nstarted background job bash-1\n```")
    );
    assert_eq!(
        bash_result(LS, "Error: tool call aborted\n\n", true),
        fenced("```console\nError: tool call aborted\n```")
    );
    // An error wins over the exit marker.
    assert_eq!(
        bash_result(LS, "x\n[exit code: 1]", true),
        fenced("```console\nx\n[exit code: 1]\n```")
    );
}

#[test]
fn bash_results_need_exactly_one_text_block() {
    assert_eq!(result_view(&Settled::new("bash", LS, &[], false, None)), None);
    let two = [
        json!({"type": "text", "text": "a"}),
        json!({"type": "text", "text": "b"}),
    ];
    assert_eq!(result_view(&Settled::new("bash", LS, &two, false, None)), None);
    assert_eq!(
        result_view(&Settled::new("bash", LS, &[json!({"type": "image", "data": "x"})], false, None)),
        None
    );
    assert_eq!(
        result_view(&Settled::new("bash", LS, &[json!("plain string")], false, None)),
        None
    );
    assert_eq!(
        result_view(&Settled::new("bash", LS, &[json!({"type": "text"})], true, None)),
        None
    );
}

#[test]
fn read_call_titles_follow_the_raw_window() {
    let title = |args: &str| call_view(Call::new("read", args)).and_then(|v| v.get("title").cloned());
    assert_eq!(title(r#"{"file_path":"a.py"}"#), Some(json!("Read a.py")));
    assert_eq!(
        title(r#"{"file_path":"a.py","offset":2,"limit":3}"#),
        Some(json!("Read a.py (2 - 4)"))
    );
    assert_eq!(
        title(r#"{"file_path":"a.py","limit":10}"#),
        Some(json!("Read a.py (1 - 10)"))
    );
    assert_eq!(
        title(r#"{"file_path":"a.py","offset":5}"#),
        Some(json!("Read a.py (from line 5)"))
    );
    assert_eq!(
        title(r#"{"file_path":"a.py","offset":5,"limit":0}"#),
        Some(json!("Read a.py (from line 5)"))
    );
    assert_eq!(
        title(r#"{"file_path":"a.py","offset":2,"limit":1e21}"#),
        Some(json!("Read a.py (2 - 1e+21)"))
    );
    // The host's view would put the read at line 2.5, which no card reads
    // (it falls back to the generic card): none, and the same fallback.
    assert_eq!(title(r#"{"file_path":"a.py","offset":2.5,"limit":1}"#), None);
    assert_eq!(
        call_view(Call::new("read", r#"{"file_path":"a.py","offset":2.0}"#)).map(|v| v["locations"].clone()),
        Some(json!([{"path": "a.py", "line": 2}]))
    );
    assert_eq!(
        call_view(Call::new("read", r#"{"file_path":"a.py","offset":"2"}"#)),
        None
    );
}

fn read_meta() -> Value {
    json!({"path": "/w/a.py", "offset": 2, "lines": [{"number": 2, "text": "x"}, {"number": 3, "text": ""}],
           "totalLines": 8, "lang": "py"})
}

const READ_TEXT: &str = "<path>/w/a.py</path>\n<type>file</type>\n<content>\n2: x\n3: \n\n(Showing lines 2-3 of 8. Use offset=4 to continue.)\n</content>";

#[test]
fn read_result_strips_the_envelope_and_uses_meta() {
    let args = r#"{"file_path":"/w/a.py","offset":2,"limit":2}"#;
    assert_eq!(
        result_view(&Settled::new("read", args, &text(READ_TEXT), false, Some(&read_meta()))),
        Some(json!({
            "card": "read", "path": "/w/a.py", "offset": 2,
            "lines": [{"number": 2, "text": "x"}, {"number": 3, "text": ""}], "totalLines": 8, "lang": "py",
            "content": [{"type": "text", "text": "2: x\n3: \n\n(Showing lines 2-3 of 8. Use offset=4 to continue.)"}],
        }))
    );
    let mut no_lang = read_meta();
    no_lang.as_object_mut().map(|m| m.remove("lang"));
    let view = result_view(&Settled::new("read", args, &text(READ_TEXT), false, Some(&no_lang)));
    assert_eq!(view.as_ref().map(|v| v.get("lang").is_none()), Some(true));
}

#[test]
fn read_result_declines_on_error_bad_meta_or_bad_envelope() {
    let args = r#"{"file_path":"/w/a.py"}"#;
    let meta = read_meta();
    assert_eq!(
        result_view(&Settled::new("read", args, &text(READ_TEXT), true, Some(&meta))),
        None
    );
    assert_eq!(
        result_view(&Settled::new("read", args, &text(READ_TEXT), false, None)),
        None
    );
    assert_eq!(
        result_view(&Settled::new("read", args, &text("2: x"), false, Some(&meta))),
        None
    );
    assert_eq!(
        result_view(&Settled::new("read", args, &text(&format!("{READ_TEXT}\n")), false, Some(&meta))),
        None
    );
    let bad_metas = [
        json!({"path": "/w/a.py", "offset": 0, "lines": [], "totalLines": 8}),
        json!({"path": "/w/a.py", "offset": 1.5, "lines": [], "totalLines": 8}),
        json!({"path": "/w/a.py", "offset": 1, "lines": [], "totalLines": -1}),
        json!({"path": "/w/a.py", "offset": 1, "lines": [], "totalLines": 8, "lang": null}),
        json!({"path": "/w/a.py", "offset": 3, "lines": [{"number": 2, "text": "x"}], "totalLines": 8}),
        json!({"path": "/w/a.py", "offset": 1, "lines": [{"number": 9, "text": "x"}], "totalLines": 8}),
        json!({"path": "/w/a.py", "offset": 1, "lines": [{"number": 2, "text": "x"}, {"number": 2, "text": "y"}],
               "totalLines": 8}),
        json!({"path": "/w/a.py", "offset": 1, "lines": [{"number": 1}], "totalLines": 8}),
        json!({"offset": 1, "lines": [], "totalLines": 8}),
        json!([]),
    ];
    for bad in bad_metas {
        assert_eq!(
            result_view(&Settled::new("read", args, &text(READ_TEXT), false, Some(&bad))),
            None,
            "{bad}"
        );
    }
}

#[test]
fn write_and_edit_diffs() {
    let write = r#"{"file_path":"/w/n.md","content":"hi\n"}"#;
    // A new file: no old text (the host writes `oldText: null`; deck leaves it out).
    let whole = json!([{"path": "/w/n.md", "newText": "hi\n"}]);
    assert_eq!(
        call_view(Call::new("write", write)),
        Some(
            json!({"card": "diff", "title": "Write /w/n.md", "diffs": whole, "locations": [{"path": "/w/n.md"}]})
        )
    );
    // A create (empty meta diffs) repeats the whole-file diff; an overwrite shows its hunks.
    let created = json!({"diffs": []});
    assert_eq!(
        result_view(&Settled::new("write", write, &text("Created"), false, Some(&created))),
        Some(json!({"card": "diff", "title": "Write /w/n.md", "diffs": whole}))
    );
    let hunks = json!({"diffs": [{"path": "/w/n.md", "oldText": "a\nb", "newText": "a\nc"}]});
    assert_eq!(
        result_view(&Settled::new("write", write, &text("Updated"), false, Some(&hunks))),
        Some(json!({"card": "diff", "title": "Write /w/n.md", "diffs": hunks["diffs"]}))
    );
    assert_eq!(
        result_view(&Settled::new("write", write, &text("Error"), true, Some(&hunks))),
        None
    );

    let edit = r#"{"file_path":"/w/a","old_string":"","new_string":"x"}"#;
    assert_eq!(
        call_view(Call::new("edit", edit)).map(|v| v["diffs"].clone()),
        Some(json!([{"path": "/w/a", "newText": "x"}]))
    );
    assert_eq!(
        result_view(&Settled::new("edit", edit, &text("ok"), false, Some(&hunks))),
        Some(json!({"card": "diff", "title": "Edit /w/a", "diffs": hunks["diffs"]}))
    );
    assert_eq!(
        result_view(&Settled::new("edit", edit, &text("ok"), false, Some(&created))),
        None
    );
    assert_eq!(result_view(&Settled::new("edit", edit, &text("ok"), false, None)), None);
    let bad = json!({"diffs": [{"path": "/w/a", "newText": "x"}]});
    assert_eq!(
        result_view(&Settled::new("edit", edit, &text("ok"), false, Some(&bad))),
        None
    );
    assert_eq!(
        result_view(&Settled::new("edit", edit, &text("Error"), true, Some(&hunks))),
        None
    );
}

#[test]
fn search_views() {
    assert_eq!(
        call_view(Call::new("grep", r#"{"pattern":"TODO","path":"src","include":"*.rs"}"#)),
        Some(
            json!({"card": "generic", "title": "Grep TODO in src (*.rs)", "kind": "search", "rawInput": "TODO"})
        )
    );
    assert_eq!(
        call_view(Call::new("glob", r#"{"pattern":"**/*.md","path":"docs"}"#)),
        Some(
            json!({"card": "generic", "title": "Glob **/*.md in docs", "kind": "search", "rawInput": "**/*.md"})
        )
    );
    let paths = json!({"shape": "paths", "paths": ["a", "b"], "truncated": true, "total": 9});
    let matches = json!({"shape": "matches", "files": [], "truncated": false, "total": 0});
    let glob = r#"{"pattern":"*"}"#;
    let grep = r#"{"pattern":"x"}"#;
    assert_eq!(
        result_view(&Settled::new("glob", glob, &text("a\nb"), false, Some(&paths))),
        Some(
            json!({"card": "search", "shape": "paths", "paths": ["a", "b"], "truncated": true, "total": 9})
        )
    );
    assert_eq!(
        result_view(&Settled::new("grep", grep, &text("No files found"), false, Some(&matches))),
        // `truncated: false` and `total: 0` read as absent: not written.
        Some(json!({"card": "search", "shape": "matches", "files": []}))
    );
    // The other tool's shape, errors and malformed meta give no view.
    assert_eq!(
        result_view(&Settled::new("grep", grep, &text(""), false, Some(&paths))),
        None
    );
    assert_eq!(
        result_view(&Settled::new("glob", glob, &text(""), false, Some(&matches))),
        None
    );
    assert_eq!(
        result_view(&Settled::new("glob", glob, &text(""), true, Some(&paths))),
        None
    );
    let bad = json!({"shape": "paths", "paths": ["a", 1], "truncated": false, "total": 2});
    assert_eq!(
        result_view(&Settled::new("glob", glob, &text(""), false, Some(&bad))),
        None
    );
}

#[test]
fn web_views() {
    let search = r#"{"queries":["a b","c"]}"#;
    assert_eq!(
        call_view(Call::new("web_search", search)),
        Some(json!({"card": "generic", "title": "a b, c", "kind": "search", "rawInput": "a b, c"}))
    );
    let meta = json!({"sources": [{"url": "u", "title": "t"}, {"url": "v"}], "truncated": false, "answer": "42"});
    assert_eq!(
        result_view(&Settled::new("web_search", search, &text("Sources"), false, Some(&meta))),
        Some(json!({
            "card": "web", "kind": "search", "title": "a b, c",
            "sources": [{"url": "u", "title": "t"}, {"url": "v"}], "answer": "42",
        }))
    );
    let bad = json!({"sources": [{"url": "u", "title": null}], "truncated": false});
    assert_eq!(
        result_view(&Settled::new("web_search", search, &text("x"), false, Some(&bad))),
        None
    );
    assert_eq!(
        result_view(&Settled::new("web_search", search, &text("Error"), true, Some(&meta))),
        None
    );

    let fetch = r#"{"url":"https://e.x/a"}"#;
    assert_eq!(
        call_view(Call::new("web_fetch", fetch)),
        Some(
            json!({"card": "generic", "title": "https://e.x/a", "kind": "fetch", "rawInput": "https://e.x/a"})
        )
    );
    let fetched = json!({"url": "https://e.x/b", "statusCode": 200, "truncated": true});
    assert_eq!(
        result_view(&Settled::new("web_fetch", fetch, &text("Fetched"), false, Some(&fetched))),
        Some(json!({
            "card": "web", "kind": "fetch", "title": "https://e.x/a", "url": "https://e.x/b",
            "statusCode": 200, "truncated": true,
        }))
    );
    assert_eq!(
        result_view(&Settled::new("web_fetch", fetch, &text("Error: no usable web provider"), true, None)),
        None
    );
}

#[test]
fn todo_call_view_carries_the_list() {
    let todos = r#"{"todos":[{"content":"a","status":"in_progress"}]}"#;
    assert_eq!(
        call_view(Call::new("todo_write", todos)),
        Some(json!({
            "card": "generic", "title": "Update todo list", "kind": "other",
            "rawInput": [{"content": "a", "status": "in_progress"}],
        }))
    );
}
