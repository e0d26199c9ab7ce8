#!/usr/bin/env python3
"""Generate demo-sessions/showcase.jsonl: a frame log that exercises every card
variant deck draws (the default demo, compiled into the binary).

Deterministic: run it again and the file is byte-identical. The frames have the
shape the DSH host sends (`server-request` envelopes around `session/event`
frames with views); the views follow ../shared/dsh/PROTOCOL.md.
"""
import json
import os

SID = "session-showcase-0001"
T0 = 1796069000000
out = []
state = {"seq": 0, "time": T0, "rpc": 0}


def rpc():
    state["rpc"] += 1
    return f"showcase-{state['rpc']:04d}"


def frame(payload):
    out.append(json.dumps({"type": "server-request", "rpcId": rpc(), "method": payload["type"], "payload": payload},
                          ensure_ascii=False, separators=(",", ":")))


def event(kind, data, dt=40, view=None):
    state["time"] += dt
    ev = {"type": kind, "seq": state["seq"], "time": state["time"], "data": data}
    state["seq"] += 1
    payload = {"type": "session/event", "sessionId": SID, "event": ev}
    if view is not None:
        payload["view"] = view
    frame(payload)
    return ev["seq"]


def stream_text(turn, step, index, text, kind="text", dt=25):
    event("assistant/chunk", {"turn": turn, "step": step, "chunk": {"type": "block-start", "index": index, "blockType": kind}}, dt=dt)
    words = text.split(" ")
    pieces = [" ".join(words[i:i + 6]) + (" " if i + 6 < len(words) else "") for i in range(0, len(words), 6)]
    for p in pieces:
        event("assistant/chunk", {"turn": turn, "step": step, "chunk": {"type": f"{kind}-delta", "index": index, "text": p}}, dt=dt)
    event("assistant/chunk", {"turn": turn, "step": step, "chunk": {"type": "block-end", "index": index, "block": {"type": kind, "text": text}}}, dt=5)


def assistant(turn, step, reasoning, text, calls=()):
    event("step/start", {"turn": turn, "step": step}, dt=60)
    content = []
    idx = 0
    if reasoning:
        stream_text(turn, step, idx, reasoning, "reasoning")
        content.append({"type": "reasoning", "text": reasoning})
        idx += 1
    if text:
        stream_text(turn, step, idx, text, "text")
        content.append({"type": "text", "text": text})
        idx += 1
    for (cid, name, args) in calls:
        content.append({"type": "tool-call", "id": cid, "name": name, "arguments": json.dumps(args)})
    event("assistant/message", {"turn": turn, "step": step, "message": {"role": "assistant", "content": content},
                                "usage": {"inputTokens": 1200, "outputTokens": 180}}, dt=10)


def call(turn, step, cid, name, args, view=None, dt=15):
    return event("tool/call", {"turn": turn, "step": step, "callId": cid, "name": name, "arguments": json.dumps(args)},
                 dt=dt, view=None if view is None else {"for": "call", "view": view})


def result(turn, step, cid, text, view=None, is_error=False, error=None, dt=300, blocks=None):
    data = {"turn": turn, "step": step, "message": {"source": {"kind": "tool", "callId": cid}, "role": "user",
            "content": [{"type": "tool-result", "toolCallId": cid,
                         "content": blocks if blocks is not None else [{"type": "text", "text": text}],
                         "isError": is_error}]}}
    if error:
        data["error"] = error
    return event("tool/result", data, dt=dt, view=None if view is None else {"for": "result", "view": view})


def user(text, dt=500):
    event("user/message", {"content": [{"type": "text", "text": text}], "source": {"kind": "user"}, "role": "user"}, dt=dt)


# ---------------------------------------------------------------- turn 1 ----
frame({"type": "session/subscribed", "sessionId": SID, "lastSeq": -1})
event("turn/start", {"turn": 1}, dt=0)
user("Tidy up the parser, run the tests, and tell me what you changed.")
event("session/title", {"title": "Tidy the parser and run the tests", "source": {"kind": "llm"}})

assistant(1, 1,
          "The user wants a cleanup of the parser. I should look at the code first, then the tests, "
          "and keep the public API stable.",
          "I'll start by reading the parser and running the test suite to see where we stand.",
          [("sc_read", "read", {"file_path": "/work/app/src/parser.rs", "offset": 10, "limit": 24}),
           ("sc_test", "bash", {"command": "cargo test --quiet", "description": "Run the test suite"})])

PARSER = [
    "/// Parse one `key = value` line.",
    "pub fn parse_line(line: &str) -> Result<(String, Value), ParseError> {",
    "    let line = line.trim();",
    "    if line.is_empty() || line.starts_with('#') {",
    "        return Err(ParseError::Blank);",
    "    }",
    "    let (key, value) = line",
    "        .split_once('=')",
    "        .ok_or_else(|| ParseError::MissingEquals { line: line.to_string() })?;",
    "    let key = key.trim().to_string();",
    "    let value = match value.trim() {",
    "        \"true\" => Value::Bool(true),",
    "        \"false\" => Value::Bool(false),",
    "        v if v.parse::<i64>().is_ok() => Value::Int(v.parse().unwrap()),",
    "        v => Value::Str(v.trim_matches('\"').to_string()),",
    "    };",
    "    Ok((key, value))",
    "}",
    "",
    "#[cfg(test)]",
    "mod tests {",
    "    use super::*;",
    "    // A deliberately long line, to show how deck wraps code that does not fit the width of the terminal window.",
    "    #[test] fn parses_ints() { assert_eq!(parse_line(\"a = 1\").unwrap().1, Value::Int(1)); }",
]
call(1, 1, "sc_read", "read", {"file_path": "/work/app/src/parser.rs", "offset": 10, "limit": 24},
     view={"card": "generic", "title": "Read /work/app/src/parser.rs (10 - 33)", "kind": "read",
           "locations": [{"path": "/work/app/src/parser.rs", "line": 10}]})
call(1, 1, "sc_test", "bash", {"command": "cargo test --quiet", "description": "Run the test suite"},
     view={"card": "terminal", "title": "cargo test --quiet", "description": "Run the test suite"})
result(1, 1, "sc_read", "\n".join(f"{10 + i}: {l}" for i, l in enumerate(PARSER)),
       view={"card": "read", "path": "/work/app/src/parser.rs", "offset": 10,
             "lines": [{"number": 10 + i, "text": l} for i, l in enumerate(PARSER)],
             "totalLines": 212, "lang": "rs"}, dt=20)
progress = "".join(f"\r\x1b[1m\x1b[32m   Compiling\x1b[0m app v0.3.0 [{n:>3}/120]" for n in range(0, 121, 20))
test_lines = [f"test parser::tests::case_{i:02} ... \x1b[32mok\x1b[0m" for i in range(1, 31)]
test_out = (progress + "\n" + "\x1b[1m\x1b[32m    Finished\x1b[0m `test` profile [unoptimized + debuginfo] target(s) in 4.21s\n"
            + "running 31 tests\n" + "\n".join(test_lines)
            + "\ntest parser::tests::rejects_missing_equals ... \x1b[31mFAILED\x1b[0m\n\nfailures:\n\n"
            + "---- parser::tests::rejects_missing_equals stdout ----\n"
            + "thread 'parser::tests::rejects_missing_equals' panicked at src/parser.rs:48:9:\n"
            + "expected MissingEquals, got Blank\n\n"
            + "test result: \x1b[31mFAILED\x1b[0m. 30 passed; 1 failed; 0 ignored; finished in 0.02s\n")
result(1, 1, "sc_test", test_out + "\n[exit code: 101]",
       view={"card": "terminal", "output": test_out, "exitCode": 101}, dt=4200)

OLD = "\n".join(PARSER[:18]) + "\n"
NEW = OLD.replace("    if line.is_empty() || line.starts_with('#') {\n        return Err(ParseError::Blank);\n    }\n",
                  "    if line.is_empty() || line.starts_with('#') {\n        return Err(ParseError::Blank);\n    }\n    if !line.contains('=') {\n        return Err(ParseError::MissingEquals { line: line.to_string() });\n    }\n")
NEW = NEW.replace("        v if v.parse::<i64>().is_ok() => Value::Int(v.parse().unwrap()),\n",
                  "        v => match v.parse::<i64>() {\n            Ok(n) => Value::Int(n),\n            Err(_) => Value::Str(v.trim_matches('\"').to_string()),\n        },\n")
NEW = NEW.replace("        v => Value::Str(v.trim_matches('\"').to_string()),\n", "")
assistant(1, 2, "One test fails: a line without `=` is reported as blank. Fix the order of checks and the int parse.",
          "One test fails. I'll fix the check order and drop the `unwrap()` in the integer branch.",
          [("sc_edit", "edit", {"file_path": "/work/app/src/parser.rs"}),
           ("sc_new", "write", {"file_path": "/work/app/CHANGELOG.md"})])
call(1, 2, "sc_edit", "edit", {"file_path": "/work/app/src/parser.rs", "old_string": "…", "new_string": "…"},
     view={"card": "diff", "title": "Edit /work/app/src/parser.rs",
           "diffs": [{"path": "/work/app/src/parser.rs", "oldText": OLD, "newText": NEW}],
           "locations": [{"path": "/work/app/src/parser.rs"}]})
result(1, 2, "sc_edit", "The file /work/app/src/parser.rs has been updated successfully.",
       view={"card": "diff", "title": "Edit /work/app/src/parser.rs",
             "diffs": [{"path": "/work/app/src/parser.rs", "oldText": OLD, "newText": NEW}]}, dt=30)
CHANGELOG = "# Changelog\n\n## 0.3.1\n\n- `parse_line` reports a missing `=` before a blank line.\n- No more `unwrap()` when parsing integers.\n"
call(1, 2, "sc_new", "write", {"file_path": "/work/app/CHANGELOG.md", "content": CHANGELOG},
     view={"card": "diff", "title": "Write /work/app/CHANGELOG.md",
           "diffs": [{"path": "/work/app/CHANGELOG.md", "oldText": None, "newText": CHANGELOG}],
           "locations": [{"path": "/work/app/CHANGELOG.md"}]})
result(1, 2, "sc_new", "Created file", view={"card": "diff", "title": "Write /work/app/CHANGELOG.md",
       "diffs": [{"path": "/work/app/CHANGELOG.md", "oldText": None, "newText": CHANGELOG}]}, dt=20)

assistant(1, 3, None, "Let me check for other callers and stale TODOs before re-running the tests.",
          [("sc_grep", "grep", {}), ("sc_glob", "glob", {})])
call(1, 3, "sc_grep", "grep", {"pattern": "parse_line", "include": "*.rs"},
     view={"card": "generic", "title": "Grep parse_line (*.rs)", "kind": "search", "rawInput": "parse_line"})
files = [{"path": f"src/{name}.rs", "matches": [{"lineNumber": 10 + 7 * k, "line": f"    let (k, v) = parse_line(&{name}_line{k})?;"} for k in range(n)]}
         for name, n in [("config", 3), ("loader", 2), ("cli", 1), ("watch", 4)]]
files[0]["matches"].insert(0, {"lineNumber": 3, "line": "use crate::parser::parse_line;"})
result(1, 3, "sc_grep", "Found 57 matches (showing 11)\n…\nFull output stored at: /home/user/.dsh/spill/grep-1.txt",
       view={"card": "search", "shape": "matches", "title": "Grep parse_line (*.rs)", "files": files, "truncated": True, "total": 57}, dt=40)
call(1, 3, "sc_glob", "glob", {"pattern": "tests/**/*.rs"},
     view={"card": "generic", "title": "Glob tests/**/*.rs", "kind": "search", "rawInput": "tests/**/*.rs"})
result(1, 3, "sc_glob", "tests/cli.rs\ntests/parser.rs\ntests/fixtures/mod.rs",
       view={"card": "search", "shape": "paths", "paths": ["tests/cli.rs", "tests/parser.rs", "tests/fixtures/mod.rs"], "truncated": False, "total": 3}, dt=15)

assistant(1, 4, None, "Tests again, this time with a failing build script for the docs crate so you can see stderr.",
          [("sc_build", "bash", {}), ("sc_sleep", "bash", {})])
call(1, 4, "sc_build", "bash", {"command": "cargo build -p docs && ./scripts/check-links.sh \\\n  --strict \\\n  --offline", "workdir": "crates/docs"},
     view={"card": "terminal", "title": "cargo build -p docs && ./scripts/check-links.sh \\\n  --strict \\\n  --offline",
           "description": "Build the docs crate and check links", "cwd": "crates/docs"})
build_out = ("   Compiling docs v0.1.0 (/work/app/crates/docs)\n    Finished `dev` profile in 1.02s\nchecking 214 links…\n"
             "\n[stderr]\nerror: broken link in guide/intro.md:12 → ../api/parse.html\nerror: broken link in guide/cli.md:40 → #flags\n"
             "2 broken links\n")
result(1, 4, "sc_build", build_out + "\n[exit code: 2]", view={"card": "terminal", "output": build_out, "exitCode": 2}, dt=1900)
call(1, 4, "sc_sleep", "bash", {"command": "./scripts/wait-for-port.sh 8080", "timeout": 5000},
     view={"card": "terminal", "title": "./scripts/wait-for-port.sh 8080", "description": "Wait for the dev server"})
result(1, 4, "sc_sleep", "waiting for :8080 ...\nwaiting for :8080 ...\n[timed out after 5000ms]",
       view={"card": "terminal", "output": "waiting for :8080 ...\nwaiting for :8080 ...\n[timed out after 5000ms]", "signal": "SIGTERM"}, dt=5000)

assistant(1, 5, None, "I'll look up the TOML spec on inline tables, and fetch the page the docs link to.",
          [("sc_web", "web_search", {}), ("sc_fetch", "web_fetch", {})])
call(1, 5, "sc_web", "web_search", {"queries": ["toml inline table spec", "toml 1.1 changes"]},
     view={"card": "generic", "title": "toml inline table spec", "kind": "search", "rawInput": "toml inline table spec"})
result(1, 5, "sc_web", "Sources: …",
       view={"card": "web", "kind": "search", "title": "toml inline table spec",
             "sources": [{"url": "https://toml.io/en/v1.0.0#inline-table", "title": "TOML v1.0.0 — Inline Table",
                          "snippet": "Inline tables provide a more compact syntax for expressing tables. They are especially useful for grouped data that can otherwise quickly become verbose.",
                          "publishedAt": "2021-01-12"},
                         {"url": "https://github.com/toml-lang/toml/blob/main/CHANGELOG.md", "title": "toml-lang/toml CHANGELOG",
                          "snippet": "Allow newlines and trailing commas in inline tables."},
                         {"url": "https://example.com/blog/toml-tips"}],
             "answer": "Inline tables are written `{ key = value, … }` and **must stay on one line** in TOML 1.0; TOML 1.1 allows newlines and a trailing comma.",
             "failures": [{"query": "toml 1.1 changes", "code": "RATE_LIMITED", "message": "search provider rate limit, retry in 30s"}],
             "truncated": False}, dt=900)
call(1, 5, "sc_fetch", "web_fetch", {"url": "https://toml.io/en/v1.0.0"},
     view={"card": "generic", "title": "https://toml.io/en/v1.0.0", "kind": "fetch", "rawInput": "https://toml.io/en/v1.0.0"})
result(1, 5, "sc_fetch", "# TOML v1.0.0\n\nTom's Obvious, Minimal Language. …",
       view={"card": "web", "kind": "fetch", "url": "https://toml.io/en/v1.0.0", "statusCode": 200, "truncated": True}, dt=700)

assistant(1, 6, None, "Recording the plan, and noting the location of the spec section I used.",
          [("sc_todo", "todo_write", {}), ("sc_note", "notes_add", {})])
todos = [{"content": "Fix the check order in parse_line", "status": "completed"},
         {"content": "Remove unwrap() from the integer branch", "status": "completed"},
         {"content": "Fix the two broken doc links", "status": "in_progress"},
         {"content": "Re-run the full test suite", "status": "pending"}]
call(1, 6, "sc_todo", "todo_write", {"todos": todos},
     view={"card": "generic", "title": "Update plan (2/4 done)", "kind": "other"})
event("todo/write", {"todos": todos}, dt=5)
result(1, 6, "sc_todo", "Todos updated.", dt=5)
call(1, 6, "sc_note", "notes_add", {"text": "inline tables"},
     view={"card": "generic", "title": "Save note", "kind": "edit",
           "rawInput": {"note": "inline tables are single-line in TOML 1.0", "tags": ["toml", "spec"], "pinned": True},
           "content": [{"type": "text", "text": "Saved to **notes/toml.md** under _Spec_."}, {"type": "image", "mimeType": "image/png", "data": "iVBORw0KGgo="}],
           "locations": [{"path": "notes/toml.md", "line": 14}]})
result(1, 6, "sc_note", "saved", view={"card": "generic", "title": "Saved note to notes/toml.md",
       "content": [{"type": "text", "text": "Saved. The note now has **3** entries:\n\n1. inline tables\n2. arrays of tables\n3. dotted keys"}]}, dt=60)

final = """## What changed

- `parse_line` now reports **`MissingEquals`** before treating a line as blank.
- The integer branch no longer calls `unwrap()`:

```rust
v => match v.parse::<i64>() {
    Ok(n) => Value::Int(n),
    Err(_) => Value::Str(v.trim_matches('"').to_string()),
},
```

| check | before | after |
|---|---|---|
| tests | 30/31 | 31/31 |
| doc links | 2 broken | 2 broken (next) |

> The docs build still fails on two links; see the [TOML spec](https://toml.io/en/v1.0.0#inline-table) for the inline-table rule."""
assistant(1, 7, "Summarise: what changed, test status, what is left.", final)
event("turn/end", {"turn": 1, "reason": {"kind": "completed"}}, dt=20)

# ---------------------------------------------------------------- turn 2 ----
event("turn/start", {"turn": 2}, dt=3000)
user("Now try the deploy tools and the ones you don't know how to draw.")
assistant(2, 1, None, "Trying the MCP tools and the deploy step.",
          [("sc_mcp", "mcp__db__query", {}), ("sc_holo", "render_hologram", {}), ("sc_bad", "lint", {})])
call(2, 1, "sc_mcp", "mcp__db__query", {"sql": "select id, name from users limit 3", "database": "dev"})
result(2, 1, "sc_mcp", json.dumps({"rows": [{"id": 1, "name": "ada"}, {"id": 2, "name": "grace"}, {"id": 3, "name": "linus"}], "elapsedMs": 4}), dt=120)
call(2, 1, "sc_holo", "render_hologram", {"scene": "parser"}, view={"card": "hologram", "title": "Render a hologram"})
result(2, 1, "sc_holo", "rendered 1 frame", dt=50)
call(2, 1, "sc_bad", "lint", {"paths": ["src"]}, view={"card": "terminal", "title": "cargo clippy"})
result(2, 1, "sc_bad", "warning: unused import\n", view={"card": "terminal", "output": "warning: unused import\n", "exitCode": "1"}, dt=800)

assistant(2, 2, None, "The deploy needs approval; asking first.",
          [("sc_deploy", "bash", {}), ("sc_ask", "ask_user_question", {}), ("sc_missing", "mcp__nope__gone", {})])
call(2, 2, "sc_deploy", "bash", {"command": "./deploy.sh staging"},
     view={"card": "terminal", "title": "./deploy.sh staging", "description": "Deploy to staging"})
event("approval/asked", {"id": "ap-1", "toolName": "bash", "callId": "sc_deploy", "reason": "run a command outside the workspace sandbox"}, dt=30)
frame({"type": "approval/requested", "sessionId": SID, "approvalId": "ap-1", "toolName": "bash", "callId": "sc_deploy", "reason": "run a command outside the workspace sandbox"})
frame({"type": "approval/resolved", "sessionId": SID, "approvalId": "ap-1", "outcome": "rejected"})
event("approval/decided", {"id": "ap-1", "outcome": "rejected"}, dt=2500)
result(2, 2, "sc_deploy", "The user rejected this command.", is_error=True,
       error={"name": "ApprovalRejectedError", "code": "APPROVAL_REJECTED"}, dt=10)
# The host's order: the call, then the question it asks, then its resolution
# and the call's result (the answer as JSON text).
questions = [{"id": "q1", "question": "Deploy to production instead?", "header": "Target",
              "options": [{"label": "No, stay on staging", "description": "Keep the rollout small"},
                          {"label": "Yes"}]}]
call(2, 2, "sc_ask", "ask_user_question", {"questions": questions})
q_rpc = rpc()
out.append(json.dumps({"type": "server-request", "rpcId": q_rpc, "method": "question/requested",
                       "payload": {"type": "question/requested", "sessionId": SID, "questions": questions}},
                      separators=(",", ":")))
frame({"type": "question/resolved", "sessionId": SID, "questionRpcId": q_rpc, "outcome": "answered"})
result(2, 2, "sc_ask", json.dumps({"answers": [{"id": "q1", "selected": ["No, stay on staging"]}]}), dt=4000)
call(2, 2, "sc_missing", "mcp__nope__gone", {})
result(2, 2, "sc_missing", "Tool mcp__nope__gone not found.", is_error=True,
       error={"name": "ToolNotFoundError", "code": "UNKNOWN_TOOL"}, dt=5)
out.append('{"type":"server-request","rpcId":"showcase-broken","method":"session/event","payload":{"type":"session/event","sessionId":"' + SID + '","event":{"type":"tool/result","seq":')
assistant(2, 3, None, "Starting the long integration run; you can cancel it.", [("sc_long", "bash", {})])
call(2, 3, "sc_long", "bash", {"command": "cargo test --release -- --ignored"},
     view={"card": "terminal", "title": "cargo test --release -- --ignored", "description": "Run the slow integration tests"})
event("turn/end", {"turn": 2, "reason": {"kind": "aborted"}}, dt=6000)

# ---------------------------------------------------------------- turn 3 ----
event("turn/start", {"turn": 3}, dt=2000)
user("Why did it stop?")
event("step/start", {"turn": 3, "step": 1}, dt=50)
event("assistant/chunk", {"turn": 3, "step": 1, "chunk": {"type": "finish", "reason": {"kind": "error", "failure": {"message": "model endpoint answered HTTP 400: context too long", "code": "INVALID_REQUEST", "status": 400}}}}, dt=400)
event("turn/end", {"turn": 3, "reason": {"kind": "error", "error": {"message": "model endpoint answered HTTP 400: context too long", "code": "INVALID_REQUEST", "status": 400}}}, dt=5)

# ---------------------------------------------------------------- turn 4 ----
event("turn/start", {"turn": 4}, dt=2500)
user("Watch the dev server logs for me.")
assistant(4, 1, None, "Tailing the dev server log; this keeps running.", [("sc_tail", "bash", {})])
call(4, 1, "sc_tail", "bash", {"command": "tail -f logs/dev.log"},
     view={"card": "terminal", "title": "tail -f logs/dev.log", "description": "Follow the dev server log"})

path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "showcase.jsonl")
with open(path, "w", encoding="utf-8") as f:
    f.write("\n".join(out) + "\n")
print(f"wrote {path}: {len(out)} lines, {state['seq']} events")
