use serde_json::json;

use super::*;

fn result(tool: &str, args: Value, text: &str, is_error: bool, meta: Option<Value>) -> Option<Value> {
    let content = [json!({"type": "text", "text": text})];
    ClaudeCode.result_view(tool, &args.to_string(), &content, is_error, meta.as_ref())
}

#[test]
fn bash_exit_codes_and_streams() {
    let args = json!({"command": "false", "description": "d"});
    let v = result("Bash", args.clone(), "Exit code 3\nboom", true, None).unwrap();
    assert_eq!(v["exitCode"], 3);
    assert_eq!(v["output"], "boom");
    let meta = json!({"stdout": "out", "stderr": "err", "interrupted": false});
    let v = result("Bash", args, "out\nerr", false, Some(meta)).unwrap();
    assert_eq!(v["output"], "out\nerr");
    assert_eq!(v["exitCode"], 0);
}

#[test]
fn read_numbers_from_the_file_record_or_the_text() {
    let meta = json!({"type": "text", "file": {"filePath": "/a", "content": "x\ny\n",
        "numLines": 2, "startLine": 7, "totalLines": 30}});
    let v = result("Read", json!({"file_path": "/a"}), "ignored", false, Some(meta)).unwrap();
    assert_eq!(v["lines"][1], json!({"number": 8, "text": "y"}));
    assert_eq!(v["totalLines"], 30);
    let v = result("Read", json!({"file_path": "/a"}), "    9→a\n   10→b", false, None).unwrap();
    assert_eq!(v["offset"], 9);
    // Without the file record the file's length is unknown: none claimed.
    assert!(v.get("totalLines").is_none(), "{v}");
    assert!(result("Read", json!({"file_path": "/a"}), "not numbered", false, None).is_none());
}

#[test]
fn edits_are_applied_to_the_original() {
    let meta = json!({"filePath": "/f", "originalFile": "a\nb\nc\n"});
    let args = json!({"file_path": "/f", "old_string": "b", "new_string": "B"});
    let v = result("Edit", args, "ok", false, Some(meta)).unwrap();
    assert_eq!(v["diffs"][0]["oldText"], "a\nb\nc\n");
    assert_eq!(v["diffs"][0]["newText"], "a\nB\nc\n");
    assert_eq!(v["diffs"][0]["startLine"], 1);
    let meta = json!({"filePath": "/f", "structuredPatch": [{"oldStart": 4, "lines": [" a", "-b", "+B"]}]});
    let args = json!({"file_path": "/f", "old_string": "zz", "new_string": "B"});
    let v = result("Edit", args, "ok", false, Some(meta)).unwrap();
    assert_eq!(v["diffs"][0]["oldText"], "a\nb\n");
    assert_eq!(v["diffs"][0]["startLine"], 4);
}

#[test]
fn mcp_and_unknown_tools_are_generic() {
    let v = ClaudeCode.call_view("mcp__gh__list", "{}").unwrap();
    assert_eq!(v["title"], "list (MCP server gh)");
    let v = ClaudeCode.call_view("Whatever", "{\"a\":1}").unwrap();
    assert_eq!(v["card"], "generic");
    assert_eq!(v["rawInput"]["a"], 1);
    assert!(ClaudeCode.call_view("Edit", "not json").is_none());
    assert_eq!(ClaudeCode.role("AskUserQuestion"), CallRole::Asks);
    assert_eq!(ClaudeCode.role("TodoWrite"), CallRole::Plans);
}
