use serde_json::json;

use super::*;

fn result(tool: &str, args: Value, text: &str, is_error: bool, meta: Option<Value>) -> Option<Value> {
    let content = [json!({"type": "text", "text": text})];
    ClaudeCode
        .result_view(&Settled::new(tool, &args.to_string(), &content, is_error, meta.as_ref()))
        .map(|p| p.to_tree())
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
    // A window inside the file: whether it ends with a newline (29 lines
    // or 30) is not known.
    assert!(v.get("totalLines").is_none(), "{v}");
    let v = result("Read", json!({"file_path": "/a"}), "    9→a\n   10→b", false, None).unwrap();
    assert_eq!(v["offset"], 9);
    // Without the file record the file's length is unknown: none claimed.
    assert!(v.get("totalLines").is_none(), "{v}");
    assert!(result("Read", json!({"file_path": "/a"}), "not numbered", false, None).is_none());
}

/// Claude Code counts the empty "line" after a final newline: a read to
/// the end shows the lines the tool returned and the file's real length.
#[test]
fn reads_show_the_lines_returned_and_the_files_length() {
    let read = |content: &str, start: u64, num: u64, total: u64| {
        let meta = json!({"type": "text", "file": {"filePath": "/a", "content": content,
            "numLines": num, "startLine": start, "totalLines": total}});
        result("Read", json!({"file_path": "/a"}), "x", false, Some(meta)).unwrap()
    };
    let range = |v: &Value| {
        let ls = v["lines"].as_array().unwrap();
        let n = |l: Option<&Value>| l.and_then(|l| l["number"].as_u64());
        (n(ls.first()), n(ls.last()), v.get("totalLines").and_then(Value::as_u64))
    };
    // Whole, with a final newline (2 lines; Claude says 3).
    assert_eq!(range(&read("a\nb\n", 1, 3, 3)), (Some(1), Some(2), Some(2)));
    // Whole, without one.
    assert_eq!(range(&read("a\nb", 1, 2, 2)), (Some(1), Some(2), Some(2)));
    // A window whose last line is empty, inside the file: that line is one
    // of them; no length.
    assert_eq!(range(&read("a\nb\n", 1, 3, 90)), (Some(1), Some(3), None));
    // A window to the end.
    assert_eq!(range(&read("y\nz\n", 8, 3, 10)), (Some(8), Some(9), Some(9)));
    // An empty file.
    assert_eq!(range(&read("", 1, 1, 1)), (None, None, Some(0)));
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
    let v = ClaudeCode.call_view(Call::new("mcp__gh__list", "{}")).unwrap().to_tree();
    assert_eq!(v["title"], "list (MCP server gh)");
    let v = ClaudeCode.call_view(Call::new("Whatever", "{\"a\":1}")).unwrap().to_tree();
    assert_eq!(v["card"], "generic");
    assert_eq!(v["rawInput"]["a"], 1);
    assert!(ClaudeCode.call_view(Call::new("Edit", "not json")).is_none());
    assert_eq!(ClaudeCode.role("AskUserQuestion"), CallRole::Asks);
    assert_eq!(ClaudeCode.role("TodoWrite"), CallRole::Plans);
}

/// A file of `n` numbered lines.
fn numbered(n: usize) -> String {
    (1..=n).map(|i| format!("line {i}\n")).collect()
}

#[test]
fn an_edit_is_cut_to_its_change_and_context_at_real_line_numbers() {
    let original = numbered(40);
    let meta = json!({"filePath": "/f.rs", "originalFile": original});
    let args = json!({"file_path": "/f.rs", "old_string": "line 20\n", "new_string": "LINE 20\n"});
    let v = result("Edit", args, "ok", false, Some(meta.clone())).unwrap();
    let d = &v["diffs"][0];
    assert_eq!(d["startLine"], 17, "{v}");
    assert_eq!(d["oldText"], "line 17\nline 18\nline 19\nline 20\nline 21\nline 22\nline 23\n");
    assert_eq!(d["newText"], "line 17\nline 18\nline 19\nLINE 20\nline 21\nline 22\nline 23\n");
    // Two edits far apart: everything between them is kept.
    let args = json!({"file_path": "/f.rs", "edits": [
        {"old_string": "line 5\n", "new_string": ""},
        {"old_string": "line 35\n", "new_string": "line 35\nline 35b\n"}]});
    let v = result("MultiEdit", args, "ok", false, Some(meta)).unwrap();
    let d = &v["diffs"][0];
    assert_eq!(d["startLine"], 2);
    assert!(d["oldText"].as_str().unwrap().starts_with("line 2\n"));
    assert!(d["oldText"].as_str().unwrap().ends_with("line 38\n"));
    assert!(d["newText"].as_str().unwrap().ends_with("line 35b\nline 36\nline 37\nline 38\n"));
}

#[test]
fn cuts_at_the_edges_of_the_file() {
    // (original, old, new, start, old text kept, new text kept)
    let cases = [
        // A change on the first line: nothing before it to cut.
        ("a\nb\nc\nd\ne\nf\n", "a\n", "A\n", 1, "a\nb\nc\nd\n", "A\nb\nc\nd\n"),
        // On the last line, with no newline at the end.
        ("a\nb\nc\nd\ne\nf", "f", "F", 3, "c\nd\ne\nf", "c\nd\ne\nF"),
        // Lines added at the end.
        ("a\nb\nc\nd\ne\n", "e\n", "e\nf\ng\n", 3, "c\nd\ne\n", "c\nd\ne\nf\ng\n"),
        // A newline added at the end: the last line differs.
        ("a\nb\nc\nd\ne", "e", "e\n", 2, "b\nc\nd\ne", "b\nc\nd\ne\n"),
        // All of a short file.
        ("x\n", "x\n", "y\n", 1, "x\n", "y\n"),
    ];
    for (orig, old, new, start, kept_old, kept_new) in cases {
        let meta = json!({"filePath": "/f", "originalFile": orig});
        let args = json!({"file_path": "/f", "old_string": old, "new_string": new});
        let v = result("Edit", args, "ok", false, Some(meta)).unwrap();
        let d = &v["diffs"][0];
        assert_eq!(d["startLine"], start, "{orig:?}: {v}");
        assert_eq!(d["oldText"], kept_old, "{orig:?}");
        assert_eq!(d["newText"], kept_new, "{orig:?}");
    }
}

/// The cut keeps the context the diff card draws: an edit's card is drawn
/// row for row as the whole file before and after would draw it, at every
/// width (side by side from 160 columns) and in both themes.
#[test]
fn a_cut_edit_draws_as_the_whole_file() {
    use crate::testing::render_view;
    let original: String = (1..=120)
        .map(|i| format!("    let value_{i} = compute({i}, &config);\n"))
        .collect();
    for (old, new) in [
        ("compute(40,", "compute_checked(40,"),
        ("compute(3,", "compute_checked(3,"),
        ("compute(119,", "compute_checked(119,"),
    ] {
        let args = json!({"file_path": "/src/a.rs", "old_string": old, "new_string": new});
        let meta = json!({"filePath": "/src/a.rs", "originalFile": original});
        let cut = result("Edit", args, "ok", false, Some(meta)).unwrap();
        let whole = json!({"card": "diff", "title": "Edit /src/a.rs", "diffs": [{
            "path": "/src/a.rs", "oldText": original,
            "newText": original.replacen(old, new, 1), "startLine": 1}]});
        assert!(cut.to_string().len() * 5 < whole.to_string().len(), "{cut}");
        for theme in ["dark", "light"] {
            for width in [40, 80, 120, 200] {
                let draw = |v: &Value| {
                    render_view(&v.to_string(), width, theme, crate::cards::Density::Full)
                        .unwrap()
                        .styled
                };
                assert_eq!(draw(&cut), draw(&whole), "{old} at {width} {theme}");
            }
        }
    }
}
