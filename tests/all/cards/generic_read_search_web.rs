//! Snapshots of the generic, read, search and web cards, every fallback case and
//! the conversation items, at 40, 80 and 120 columns in the `dark` and `light`
//! themes. Views and result contents are the host's own, taken from
//! `demo-sessions/tour.frames.jsonl` (a few synthetic cases cover shapes the tour
//! never produced: a truncated search, a fetch view, broken views).
//!
//! Each snapshot line is the rendered text; under it, one row per styled run:
//! `  ^ [from..to fg=#rrggbb bg=… bold link=…]` in display columns (the `^`
//! points at the text line above).

use serde_json::{Value, json};

use deck::cards::{Ctx, Density, conversation};
use deck::session::{
    AssistantBlock, AssistantMessage, Diagnostic, Todo, ToolCard, TurnEnd, TurnMarker, UserMessage,
};
use deck::text::Line;
use deck::theme::Theme;
use deck::wire::Origin;

use crate::common::build::{STARTED, text, tool_card};
use crate::common::dump::{Runs, THEMES, WIDTHS, check_widths, render_card, styled};

// ---------------------------------------------------------------- cards

struct Case {
    name: &'static str,
    card: ToolCard,
}

const NOTES_RESULT: &str = "<path>/workspace/demo/notes.md</path>\n<type>file</type>\n<content>\n1: # Notes\n2: \n3: status: draft\n4: \n5: TODO: review the wire protocol\n6: A line with \u{1b}[1mno\u{1b}[0m escape in a file is fine.\n\n(End of file - total 6 lines)\n</content>";
const APP_WINDOW_RESULT: &str = "<path>/workspace/demo/src/app.py</path>\n<type>file</type>\n<content>\n2:     return a + b\n3: \n4: \n\n(Showing lines 2-4 of 8. Use offset=5 to continue.)\n</content>";
const GREP_RESULT: &str = "Found 2 matches\n\ndocs/new.md\nLine 3: TODO: fill this in\n\nnotes.md\nLine 5: TODO: review the wire protocol";
const WEB_SEARCH_RESULT: &str = "Sources:\n- [deepseek-ai/deepseek-harness](https://github.com/deepseek-ai/deepseek-harness) — DeepSeek Harness: a coding agent host with a web UI. (2026-08-21)\n- [DSH wire protocol notes](https://example.com/dsh-protocol) — Frames are ServerRequest envelopes over /api/events.mux.\n- [example.com](https://example.com/no-snippet)\n\nCite the relevant URLs above as markdown links in your answer.";
const SPILL_FOOTER: &str = "[output truncated; full output: /tmp/dsh-subprocess-DVvDLc/dsh-subprocess-1493-1-26b048381f8d-stdout.log]\n\n(Omitted 14312 bytes. Full formatted result stored at: /tmp/dsh-spill-WGnLIU/session-fbe1c19da975/b01748be398d-bash.txt. Use read with offset/limit, or grep this path to search within it.)\n";

fn read_call(path: &str, title: &str, line: u64) -> Value {
    json!({"card": "generic", "title": title, "kind": "read", "locations": [{"path": path, "line": line}]})
}

fn notes_view() -> Value {
    json!({"card": "read", "path": "/workspace/demo/notes.md", "offset": 1, "lines": [
        {"number": 1, "text": "# Notes"}, {"number": 2, "text": ""}, {"number": 3, "text": "status: draft"},
        {"number": 4, "text": ""}, {"number": 5, "text": "TODO: review the wire protocol"},
        {"number": 6, "text": "A line with \u{1b}[1mno\u{1b}[0m escape in a file is fine."}],
        "totalLines": 6, "lang": "md", "content": [text("1: # Notes\n2: \n3: status: draft\n4: \n5: TODO: review the wire protocol\n6: A line with \u{1b}[1mno\u{1b}[0m escape in a file is fine.\n\n(End of file - total 6 lines)")]})
}

fn grep_call() -> Value {
    json!({"card": "generic", "title": "Grep TODO (*.md)", "kind": "search", "rawInput": "TODO"})
}

fn cases() -> Vec<Case> {
    let notes_call = read_call(
        "/workspace/demo/notes.md",
        "Read /workspace/demo/notes.md",
        1,
    );
    let app_call = read_call(
        "/workspace/demo/src/app.py",
        "Read /workspace/demo/src/app.py (2 - 4)",
        2,
    );
    let grep_view = json!({"card": "search", "shape": "matches", "files": [
        {"path": "docs/new.md", "matches": [{"lineNumber": 3, "line": "TODO: fill this in"}]},
        {"path": "notes.md", "matches": [{"lineNumber": 5, "line": "TODO: review the wire protocol"}]}],
        "truncated": false, "total": 2});
    let many: Vec<Value> = (0..6)
        .map(|i| json!({"path": format!("src/module_{i}.rs"), "matches": [
            {"lineNumber": 10 + i, "line": format!("    // TODO: handle case {i} before the release")},
            {"lineNumber": 120 + i, "line": "let todo = \"TODO\"; // a long line that will need to be hard-wrapped at narrow widths"}]}))
        .collect();
    vec![
        Case {
            name: "read_notes",
            card: tool_card(
                Some("read"),
                r#"{"file_path":"/workspace/demo/notes.md"}"#,
                Some(notes_call.clone()),
                Some(notes_view()),
                Some((NOTES_RESULT, false, None)),
            ),
        },
        Case {
            name: "read_window",
            card: tool_card(
                Some("read"),
                r#"{"file_path":"/workspace/demo/src/app.py","offset":2,"limit":3}"#,
                Some(app_call.clone()),
                Some(
                    json!({"card": "read", "path": "/workspace/demo/src/app.py", "offset": 2, "lines": [
                    {"number": 2, "text": "    return a + b"}, {"number": 3, "text": ""}, {"number": 4, "text": ""}],
                    "totalLines": 8, "lang": "py", "content": [text("2:     return a + b\n3: \n4: \n\n(Showing lines 2-4 of 8. Use offset=5 to continue.)")]}),
                ),
                Some((APP_WINDOW_RESULT, false, None)),
            ),
        },
        Case {
            name: "read_pending",
            card: tool_card(
                Some("read"),
                r#"{"file_path":"/workspace/demo/notes.md"}"#,
                Some(notes_call.clone()),
                None,
                None,
            ),
        },
        Case {
            name: "read_missing_file",
            card: tool_card(
                Some("read"),
                r#"{"file_path":"/workspace/demo/missing.txt"}"#,
                Some(read_call(
                    "/workspace/demo/missing.txt",
                    "Read /workspace/demo/missing.txt",
                    1,
                )),
                None,
                Some((
                    "Error: cannot read \"/workspace/demo/missing.txt\": not found",
                    true,
                    Some(("FsError", "FS_NOT_FOUND")),
                )),
            ),
        },
        Case {
            name: "grep_todo",
            card: tool_card(
                Some("grep"),
                r#"{"pattern":"TODO","include":"*.md"}"#,
                Some(grep_call()),
                Some(grep_view),
                Some((GREP_RESULT, false, None)),
            ),
        },
        Case {
            name: "grep_truncated",
            card: tool_card(
                Some("grep"),
                r#"{"pattern":"TODO"}"#,
                Some(
                    json!({"card": "generic", "title": "Grep TODO", "kind": "search", "rawInput": "TODO"}),
                ),
                Some(
                    json!({"card": "search", "shape": "matches", "files": many, "truncated": true, "total": 5000}),
                ),
                Some((
                    "Found 5000 matches (showing first 12)\n\nsrc/module_0.rs\nLine 10: …\n\n(Results truncated.)\nFull grep results stored at: /tmp/dsh-spill-WGnLIU/grep.txt",
                    false,
                    None,
                )),
            ),
        },
        Case {
            name: "glob",
            card: tool_card(
                Some("glob"),
                r#"{"pattern":"**/*.md"}"#,
                Some(
                    json!({"card": "generic", "title": "Glob **/*.md", "kind": "search", "rawInput": "**/*.md"}),
                ),
                Some(
                    json!({"card": "search", "shape": "paths", "paths": ["README.md", "docs/guide.md", "notes.md", "docs/new.md"], "truncated": false, "total": 4}),
                ),
                Some((
                    "README.md\ndocs/guide.md\nnotes.md\ndocs/new.md",
                    false,
                    None,
                )),
            ),
        },
        Case {
            name: "web_search",
            card: tool_card(
                Some("web_search"),
                r#"{"queries":["deepseek harness protocol"]}"#,
                Some(
                    json!({"card": "generic", "title": "deepseek harness protocol", "kind": "search", "rawInput": "deepseek harness protocol"}),
                ),
                Some(
                    json!({"card": "web", "kind": "search", "title": "deepseek harness protocol", "sources": [
                    {"url": "https://github.com/deepseek-ai/deepseek-harness", "title": "deepseek-ai/deepseek-harness", "snippet": "DeepSeek Harness: a coding agent host with a web UI.", "publishedAt": "2026-08-21"},
                    {"url": "https://example.com/dsh-protocol", "title": "DSH wire protocol notes", "snippet": "Frames are ServerRequest envelopes over /api/events.mux."},
                    {"url": "https://example.com/no-snippet"}], "truncated": false}),
                ),
                Some((WEB_SEARCH_RESULT, false, None)),
            ),
        },
        Case {
            name: "web_search_answer_failures",
            card: tool_card(
                Some("web_search"),
                r#"{"queries":["deepseek harness","offline failure probe"]}"#,
                Some(
                    json!({"card": "generic", "title": "deepseek harness", "kind": "search", "rawInput": "deepseek harness"}),
                ),
                Some(json!({"card": "web", "kind": "search", "sources": [
                    {"url": "https://github.com/deepseek-ai/deepseek-harness", "title": "deepseek-ai/deepseek-harness"}],
                    "answer": "DSH is a **coding agent host**; see [the repo](https://github.com/deepseek-ai/deepseek-harness).",
                    "failures": [{"query": "offline failure probe", "code": "WEB_PROVIDER_ERROR", "message": "fake search backend unavailable (scripted 503)"}],
                    "truncated": true})),
                Some(("Sources: …", false, None)),
            ),
        },
        Case {
            name: "web_fetch_view",
            card: tool_card(
                Some("web_fetch"),
                r#"{"url":"http://127.0.0.1:18431/page.html"}"#,
                Some(
                    json!({"card": "generic", "title": "http://127.0.0.1:18431/page.html", "kind": "fetch", "rawInput": "http://127.0.0.1:18431/page.html"}),
                ),
                Some(
                    json!({"card": "web", "kind": "fetch", "url": "http://127.0.0.1:18431/page.html", "statusCode": 200, "truncated": false}),
                ),
                Some(("<html>…</html>", false, None)),
            ),
        },
        Case {
            name: "web_fetch_failure",
            card: tool_card(
                Some("web_fetch"),
                r#"{"url":"https://example.invalid/offline"}"#,
                Some(
                    json!({"card": "generic", "title": "https://example.invalid/offline", "kind": "fetch", "rawInput": "https://example.invalid/offline"}),
                ),
                None,
                Some((
                    "Error: no usable web provider is registered",
                    true,
                    Some(("WebError", "WEB_PROVIDER_UNAVAILABLE")),
                )),
            ),
        },
        Case {
            name: "mcp_echo_no_view",
            card: tool_card(
                Some("mcp__fake__echo"),
                r#"{"text":"hello from a real MCP tool"}"#,
                None,
                None,
                Some(("echo: hello from a real MCP tool", false, None)),
            ),
        },
        Case {
            name: "question_json_result",
            card: tool_card(
                Some("ask_user_question"),
                r#"{"questions":[{"id":"q1","header":"Confirm","question":"Continue the capture?","options":[{"label":"Yes (Recommended)","description":"Keep going"},{"label":"No"}]}]}"#,
                None,
                None,
                Some((
                    r#"{"answers":[{"id":"q1","selected":["Yes (Recommended)"]}]}"#,
                    false,
                    None,
                )),
            ),
        },
        Case {
            name: "todo_write",
            card: tool_card(
                Some("todo_write"),
                r#"{"todos":[{"content":"Tour the shell","status":"completed"},{"content":"Tour the file tools","status":"in_progress"},{"content":"Write the report","status":"pending"}]}"#,
                Some(
                    json!({"card": "generic", "title": "Update todo list", "kind": "other", "rawInput": [
                    {"content": "Tour the shell", "status": "completed"}, {"content": "Tour the file tools", "status": "in_progress"},
                    {"content": "Write the report", "status": "pending"}]}),
                ),
                None,
                Some((
                    "Updated todo list: 1 pending, 1 in progress, 1 completed.",
                    false,
                    None,
                )),
            ),
        },
        Case {
            name: "background_job",
            card: tool_card(
                Some("bash"),
                r#"{"command":"sleep 1; echo bg-done","description":"Background sleep","run_in_background":true}"#,
                Some(
                    json!({"card": "generic", "title": "sleep 1; echo bg-done", "kind": "execute", "rawInput": "sleep 1; echo bg-done", "content": [text("Background sleep")]}),
                ),
                Some(
                    json!({"card": "generic", "content": [text("```console\nstarted background job bash-1\n```")]}),
                ),
                Some(("started background job bash-1", false, None)),
            ),
        },
        Case {
            name: "spilled_without_view",
            card: tool_card(
                Some("mcp__fake__dump"),
                r#"{"count":20000}"#,
                None,
                None,
                Some((
                    &format!(
                        "201\n9202\n9203\n9204\n9205\n9206\n9207\n9208\n9209\n9210\n9211\n9212\n9213\n9214\n\n{SPILL_FOOTER}"
                    ),
                    false,
                    None,
                )),
            ),
        },
        Case {
            name: "diff_result_without_view",
            card: tool_card(
                Some("mcp__vcs__show"),
                r#"{"rev":"HEAD"}"#,
                None,
                None,
                Some((
                    "--- a/notes.md\n+++ b/notes.md\n@@ -1,3 +1,3 @@\n # Notes\n \n-status: draft\n+status: reviewed",
                    false,
                    None,
                )),
            ),
        },
        Case {
            name: "fallback_unknown_card_tag",
            card: tool_card(
                Some("read"),
                r#"{"file_path":"/workspace/demo/notes.md"}"#,
                Some(notes_call.clone()),
                Some(
                    json!({"card": "chart", "title": "Read /workspace/demo/notes.md", "series": [1, 2, 3]}),
                ),
                Some((NOTES_RESULT, false, None)),
            ),
        },
        Case {
            name: "fallback_unknown_search_shape",
            card: tool_card(
                Some("grep"),
                r#"{"pattern":"TODO","include":"*.md"}"#,
                Some(grep_call()),
                Some(
                    json!({"card": "search", "shape": "tree", "root": {"path": ".", "children": []}, "truncated": false, "total": 2}),
                ),
                Some((GREP_RESULT, false, None)),
            ),
        },
        Case {
            name: "fallback_wrong_field_type",
            card: tool_card(
                Some("read"),
                r#"{"file_path":"/workspace/demo/src/app.py","offset":2,"limit":3}"#,
                Some(app_call),
                Some(
                    json!({"card": "read", "path": "/workspace/demo/src/app.py", "offset": 2, "lines": [
                    {"number": "2", "text": "    return a + b"}], "totalLines": 8, "lang": "py"}),
                ),
                Some((APP_WINDOW_RESULT, false, None)),
            ),
        },
        Case {
            name: "fallback_result_without_call",
            card: tool_card(
                None,
                "",
                None,
                None,
                Some(("echo: hello from a real MCP tool", false, None)),
            ),
        },
        Case {
            name: "generic_non_text_block",
            card: tool_card(
                Some("mcp__fake__screenshot"),
                r#"{"url":"https://example.com"}"#,
                Some(
                    json!({"card": "generic", "title": "Screenshot https://example.com", "kind": "fetch",
                    "rawInput": {"url": "https://example.com", "fullPage": true}}),
                ),
                Some(json!({"card": "generic", "content": [
                    {"type": "image", "mimeType": "image/png", "data": "iVBORw0KGgo="},
                    text("Captured **1280×720** of <https://example.com>.")]})),
                Some(("[image]", false, None)),
            ),
        },
    ]
}

#[test]
fn card_snapshots() {
    for c in cases() {
        for theme_name in THEMES {
            let theme = Theme::builtin(theme_name).expect("built-in theme");
            let mut out = String::new();
            for w in WIDTHS {
                out.push_str(&format!("── width {w} ──\n"));
                out.push_str(&styled(
                    &render_card(&c.card, &theme, w, Density::Preview, c.name),
                    Runs::Below,
                ));
            }
            insta::assert_snapshot!(format!("{}_{theme_name}", c.name), out);
        }
    }
}

/// Every card at line density: the header alone carries glyph, title and outcome.
#[test]
fn card_headers_at_line_density() {
    let theme = Theme::dark();
    let mut out = String::new();
    for c in cases() {
        out.push_str(&format!("{}: ", c.name));
        for l in render_card(&c.card, &theme, 80, Density::Line, c.name) {
            out.push_str(l.text().trim_end());
            out.push('\n');
        }
    }
    insta::assert_snapshot!("headers_line_density", out);
}

/// Full density shows what preview caps.
#[test]
fn full_density_shows_everything() {
    let theme = Theme::dark();
    let all = cases();
    for name in ["spilled_without_view", "grep_truncated"] {
        let c = all.iter().find(|c| c.name == name).expect("case");
        let preview = render_card(&c.card, &theme, 80, Density::Preview, name);
        let full = render_card(&c.card, &theme, 80, Density::Full, name);
        assert!(full.len() > preview.len(), "{name}");
        assert!(
            preview.iter().any(|l| l.text().contains("more line")),
            "{name}"
        );
        insta::assert_snapshot!(format!("{name}_full_dark"), styled(&full, Runs::Below));
    }
}

// ---------------------------------------------------------------- conversation

fn assistant(turn: u64, step: u64, blocks: &[(bool, &str)], interrupted: bool) -> AssistantMessage {
    let blocks = blocks
        .iter()
        .enumerate()
        .map(|(i, (reasoning, text))| AssistantBlock::new(i as u64, *reasoning, *text))
        .collect();
    let mut m = AssistantMessage::new(turn, step, blocks, STARTED);
    m.complete = true;
    m.interrupted = interrupted;
    m.rev = 1;
    m
}

fn user(text: &str, source: &str) -> UserMessage {
    UserMessage::new(7, STARTED, text.into(), Some(source.into()))
}

fn turn_end(turn: u64, reason: &str, message: Option<&str>, code: Option<&str>) -> TurnMarker {
    let end = TurnEnd::new(
        reason.into(),
        message.map(str::to_string),
        code.map(str::to_string),
    );
    TurnMarker::end(turn, 264, STARTED, end)
}

fn conversation_items(ctx: &Ctx) -> Vec<(&'static str, Vec<Line>)> {
    let todos: Vec<Todo> = [
        ("Tour the shell", "completed"),
        ("Tour the file tools", "in_progress"),
        ("Write the report", "pending"),
    ]
    .iter()
    .map(|(c, s)| Todo::new(c.to_string(), s.to_string()))
    .collect();
    vec![
        ("turn start", conversation::turn(&TurnMarker::start(1, 6, STARTED), ctx)),
        ("user", conversation::user(&user("[capture-turn-1] Please take a tour of every tool you have, one after another.", "user"), ctx)),
        (
            "injected context",
            conversation::user(
                &user("Current runtime context. This snapshot supersedes earlier runtime-context snapshots.\n\nCurrent DSH file policy: danger-full-access. The DSH file sandbox does not restrict file modifications by available operations.\n\nApproval prompts are disabled in this session: actions that require approval are rejected automatically — do not request sandbox escalation (do not set `sandbox_permissions`).", "plugin"),
                ctx,
            ),
        ),
        (
            "assistant with reasoning",
            conversation::assistant(
                &assistant(1, 1, &[(true, "The user wants a tour of every tool. Start with the shell: one plain listing and one failing command with ANSI colour."), (false, "I will start by looking at the workspace.")], false),
                true,
                ctx,
            ),
        ),
        ("todo", conversation::todo(&todos, ctx)),
        (
            "job notice",
            conversation::user(&user("background job bash-1 (bash: sleep 1; echo bg-done) finished [status: completed, exit code: 0]. Read its output with job_output.", "plugin"), ctx),
        ),
        (
            "assistant final",
            conversation::assistant(
                &assistant(1, 11, &[(true, "All tools exercised. Summarise."), (false, "Done. I ran **bash** (ok and exit 3), **read**, **edit**, **write**, **grep**, **glob**, **web_search**, **web_fetch**, an unknown tool, `todo_write`, a spilled output, a background job and a timeout.\n\n```text\nsummary: complete\n```\n")], false),
                true,
                ctx,
            ),
        ),
        (
            "assistant markdown",
            conversation::assistant(
                &assistant(1, 12, &[(false, "## Results\n\n| tool | status | notes |\n|:--|:-:|--:|\n| bash | ok | exit 3 on the second call |\n| web_fetch | error | no provider |\n\n1. First\n   - nested [link](https://example.com/docs)\n2. Second\n\n> A quoted line that goes on for a while so that it wraps.\n\n- [x] checked\n- [ ] open\n\n---\n\n```py\ndef add(a, b):\n    return a + b  # a trailing comment that is long enough to wrap\n```")], false),
                true,
                ctx,
            ),
        ),
        ("turn end completed", conversation::turn(&turn_end(1, "completed", None, None), ctx)),
        (
            "assistant interrupted",
            conversation::assistant(&assistant(3, 1, &[(false, "Starting a long command (the driver cancels it).")], true), true, ctx),
        ),
        ("turn end aborted", conversation::turn(&turn_end(3, "aborted", None, None), ctx)),
        (
            "turn end error",
            conversation::turn(&turn_end(4, "error", Some("fake-llm: scripted invalid request (capture of an LLM failure)"), Some("INVALID_REQUEST")), ctx),
        ),
        (
            "diagnostic",
            conversation::diagnostic(
                &Diagnostic::new(
                    Origin { line: 12, offset: 3456 },
                    "unknown event type \"agent/teleport\" (seq 99) without \"ignorable\"".into(),
                    r#"{"type":"agent/teleport","seq":99,"time":1796069109719,"data":{"to":"mars","escape":"\u001b[2J","payload":"a long payload that keeps going and going so the raw text needs more than two rows"}}"#.into(),
                ),
                ctx,
            ),
        ),
    ]
}

#[test]
fn conversation_snapshots() {
    for theme_name in THEMES {
        let theme = Theme::builtin(theme_name).expect("built-in theme");
        let mut out = String::new();
        for w in WIDTHS {
            out.push_str(&format!("══ width {w} ══\n"));
            let ctx = Ctx::new(w, &theme, Density::Preview);
            for (name, lines) in conversation_items(&ctx) {
                check_widths(&lines, w, name);
                out.push_str(&format!("── {name} ──\n"));
                out.push_str(&styled(&lines, Runs::Below));
            }
        }
        insta::assert_snapshot!(format!("conversation_{theme_name}"), out);
    }
}

#[test]
fn conversation_full_density_expands_context_and_reasoning() {
    let theme = Theme::dark();
    let ctx = Ctx::new(80, &theme, Density::Full);
    let mut out = String::new();
    for (name, lines) in conversation_items(&ctx) {
        if matches!(
            name,
            "injected context" | "assistant with reasoning" | "diagnostic"
        ) {
            out.push_str(&format!("── {name} ──\n"));
            out.push_str(&styled(&lines, Runs::Below));
        }
    }
    insta::assert_snapshot!("conversation_full_dark", out);
}
