#!/usr/bin/env python3
"""Scaling: every path from input to screen is linear in its input and
bounded in memory.

    bench/scaling.py [--deck PATH] [--scale X] [--only CASE,…] [--list] [--keep DIR]

For each case, generates inputs at N, 2N, 4N and 8N (deterministic, Python 3
standard library only), runs one deck command on each, and reports the wall
time and the peak RSS (the child's `ru_maxrss`, read with `wait4`). A case
fails when

* the time at 8N is more than 10× the time at N (linear is 8×; the start-up
  cost of the process makes small inputs look slower, not faster), or
* the peak RSS at any size exceeds 4× the input bytes plus a fixed base (the
  RSS of deck on a tiny session, measured first, or of the case's own
  command on the smallest input of its kind when more — compiled redaction
  rules are a fixed cost —, plus 64 MB) — or, for a
  case whose memory must not grow with its input at all (`library-files`),
  the base plus a constant, whatever the input; for one big file indexed,
  the base plus a constant and an eighth of the input (`library-claude`),
  or the lesser of that and 4× the input (`library-index`) —, or
* a run takes longer than --timeout seconds (default 120), or exits non-zero.

Each size runs `--runs` times (3): the time is the median (the spread,
min–max, is printed beside it), the RSS the largest. `--scale X` multiplies
every N (CI runs at 1, a few seconds per case; 4 or 8 shows the trend more
clearly). The exit status is 1 when any case fails.

Cases (each names what grows):

| case | grows | command |
|---|---|---|
| terminal-line | bytes of one output line with an SGR colour every 80 chars | render --density full |
| terminal-line-preview | the same | render (preview) |
| open-turns | turns left open, then as many `turn/end` of other turns | inspect --sessions (the fold) |
| chunk-indices | distinct block indices of chunks in one step | inspect --sessions, render |
| listen-sessions | sessions in one `deck listen -` stream (TUI on a pty) | listen - |
| export-cast | events of a session | export --format cast |
| export-stream | chunks of one answer streamed in paragraphs | export --format cast |
| diff-unlike | bytes of one file pair whose lines all differ | render --density full |
| diff-unlike-preview | the same | render (preview) |
| diff-files | files of ~6 KB with scattered edits | render --density full |
| md-code-preview | lines of a fenced code block in a message | render (preview) |
| md-code | the same | render --density full |
| read-long-line-preview | bytes of one line of a read card | render (preview) |
| read-long-line | the same | render --density full |
| read-lines | lines of a read card | render --density full |
| md-table | bytes of a markdown table in a message | render --density full |
| md-list-view | items of a markdown list in an answer | bench frames (the list, as `deck view` draws it) |
| md-links | bytes of a run of links in a message | render --density full |
| search-matches | matches of a search card | render --density full |
| web-sources | sources of a web card | render --density full |
| generic-json | keys of a generic card's raw input | render --density full |
| cards | cards of a mixed session | render (preview) |
| claude-blocks | blocks of one Claude Code message, one a line | render (preview) |
| claude-calls | shell calls and results of a Claude Code session | render (preview) |
| codex-polls | polls (`write_stdin`) of one running Codex command | render --density full |
| pi-calls, copilot-calls, cursor-turns, grok-calls, kimi-calls, cline-messages, cline-tasks-turns, atif-steps, mini-swe-messages, opencode-messages, aider-turns | blocks of the agent's fixture (a call and its result, or a turn) grown to ~7.7 KB a call, copied (`gen_agents.py`) | render (preview) |
| library-index | cards of a mixed session, one file | sessions --json (its index built) |
| library-claude | calls of one Claude Code session (the most calls a byte) | sessions --json (its index built) |
| library-files | sessions of ~0.5 MB, one a file (RSS held to a constant) | sessions --json (its index built) |
"""
import argparse
import json
import os
import pty
import random
import resource
import select
import shutil
import signal
import struct
import sys
import tempfile
import termios
import time
import fcntl

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from framelog import FrameLog  # noqa: E402
from gen_agents import writer as agent  # noqa: E402

MB = 1 << 20


# ---------------------------------------------------------------- generators

def gen_terminal_line(f, n):
    log = FrameLog(f)
    log.turn_open(1, "print a long line")
    log.step_open(1, 1, "Printing.")
    parts = []
    size = 0
    i = 0
    while size < n:
        chunk = f"\x1b[3{i % 7 + 1}m" + ("abcdefghij" * 8)
        parts.append(chunk)
        size += len(chunk)
        i += 1
    out = "".join(parts) + "\x1b[0m\n"
    seq = log.call(1, 1, "c1", "bash", {"command": "gen"}, {"card": "terminal", "title": "gen"})
    log.result(1, 1, "c1", seq, "(output)", {"card": "terminal", "output": out, "exitCode": 0})
    log.turn_close(1)


def gen_open_turns(f, n):
    log = FrameLog(f)
    for t in range(1, n + 1):
        log.turn_open(t, f"task {t}")
        log.emit("assistant/chunk", {"turn": t, "step": 1, "chunk": {"type": "text-delta", "index": 0, "text": f"working on {t}"}})
        log.call(t, 1, f"c{t}", "bash", {"command": f"sleep {t}"}, {"card": "terminal", "title": f"sleep {t}"})
    for t in range(n + 1, 2 * n + 1):
        log.emit("turn/end", {"turn": t, "reason": {"kind": "completed"}})


def gen_chunk_indices(f, n):
    log = FrameLog(f)
    log.turn_open(1, "many blocks")
    log.emit("step/start", {"turn": 1, "step": 1})
    # Distinct indices in a scrambled order (a permutation of 0..n).
    stride = 7919 if n % 7919 else 7907
    for i in range(n):
        idx = (i * stride) % n
        log.emit("assistant/chunk", {"turn": 1, "step": 1, "chunk": {"type": "text-delta", "index": idx, "text": f"b{idx} "}})
    log.turn_close(1)


def gen_listen_sessions(f, n):
    for i in range(n):
        ev = {"type": "session/event", "sessionId": f"session-{i:07d}",
              "event": {"type": "turn/start", "seq": 0, "time": 1796000000000 + i, "data": {"turn": 1}}}
        f.write(json.dumps(ev, separators=(",", ":")))
        f.write("\n")


def gen_export_cast(f, n):
    log = FrameLog(f)
    rnd = random.Random(3)
    turn = 0
    while log.seq < n:
        turn += 1
        log.turn_open(turn, f"turn {turn}")
        for step in range(1, 4):
            log.step_open(turn, step, "Running the tests of the crate again.")
            cid = f"c{turn}_{step}"
            seq = log.call(turn, step, cid, "bash", {"command": "cargo test"}, {"card": "terminal", "title": "cargo test"})
            out = "".join(f"test case_{k} ... ok\n" for k in range(rnd.randint(2, 8)))
            log.result(turn, step, cid, seq, out, {"card": "terminal", "output": out, "exitCode": 0})
            log.step_close(turn, step)
        log.turn_close(turn)


def gen_secrets(f, n):
    """n tool results of code and configuration with secrets in them: .env
    lines, keys in code, a token folded over two lines, a base64 blob, a
    private key; what redaction finds, replaces and checks again."""
    log = FrameLog(f)
    rnd = random.Random(9)
    alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

    def tok(k):
        return "".join(rnd.choice(alnum) for _ in range(k))

    turn = 0
    done = 0
    while done < n:
        turn += 1
        log.turn_open(turn, f"turn {turn}")
        log.step_open(turn, 1, "Reading the configuration.")
        cid = f"c{turn}"
        ghp = "ghp_" + tok(36)
        out = (
            f"DB_PASSWORD={tok(14)}\nexport API_TOKEN=\"{tok(40)}\"\n"
            f"let token = lexer.next_token();\npub password: String,\n"
            f"client = Client(api_key=\"sk-ant-api03-{tok(93)}AA\")\n"
            f"{ghp[:20]}\n{ghp[20:]}\n"
            f"-----BEGIN RSA PRIVATE KEY-----\n{tok(64)}\n{tok(64)}\n-----END RSA PRIVATE KEY-----\n"
            + "".join(f"fn step_{k}(x: u32) -> u32 {{ x + {k} }}\n" for k in range(rnd.randint(4, 12)))
        )
        seq = log.call(turn, 1, cid, "bash", {"command": "cat .env src/lib.rs"}, {"card": "terminal", "title": "cat"})
        log.result(turn, 1, cid, seq, out, {"card": "terminal", "output": out, "exitCode": 0})
        log.step_close(turn, 1)
        log.turn_close(turn)
        done += 1


def gen_export_stream(f, n):
    # One answer streamed in n chunks, in paragraphs with a code block now
    # and then: each frame used to lay the whole growing answer out again.
    log = FrameLog(f)
    log.turn_open(1, "stream an answer")
    log.emit("step/start", {"turn": 1, "step": 1})
    for i in range(n):
        if i % 60 == 59:
            text = f"word{i}.\n\n"
        elif i % 300 == 150:
            text = "\n\n```rust\nfn step() -> u32 { 1 }\n```\n\n"
        else:
            text = f"word{i} " + ("\n" if i % 12 == 11 else "")
        log.emit("assistant/chunk", {"turn": 1, "step": 1, "chunk": {"type": "text-delta", "index": 0, "text": text}}, dt=30)
    log.turn_close(1)


def unlike_lines(rnd, nbytes, tag):
    lines = []
    size = 0
    k = 0
    while size < nbytes:
        line = f"    let {tag}_{k}_{rnd.randrange(10**9)} = compute_{rnd.randrange(10**6)}(&state, {k});"
        lines.append(line)
        size += len(line) + 1
        k += 1
    return "\n".join(lines) + "\n"


def gen_diff_unlike(f, n):
    rnd = random.Random(5)
    log = FrameLog(f)
    log.turn_open(1, "rewrite")
    log.step_open(1, 1, "Rewriting the file.")
    old = unlike_lines(rnd, n, "old")
    new = unlike_lines(rnd, n, "new")
    view = {"card": "diff", "title": "Edit src/big.rs", "diffs": [{"path": "src/big.rs", "oldText": old, "newText": new}]}
    seq = log.call(1, 1, "c1", "edit", {"file_path": "src/big.rs"}, view)
    log.result(1, 1, "c1", seq, "ok", view)
    log.turn_close(1)


def gen_diff_files(f, n):
    rnd = random.Random(9)
    log = FrameLog(f)
    log.turn_open(1, "edit many files")
    log.step_open(1, 1, "Editing.")
    files = []
    for i in range(n):
        lines = [f"fn item_{i}_{k}() -> u32 {{ {rnd.randrange(1000)} }}" for k in range(160)]
        new = list(lines)
        for k in range(0, 160, rnd.randint(8, 20)):
            new[k] = new[k].replace("u32", "u64")
        files.append({"path": f"src/f{i}.rs", "oldText": "\n".join(lines) + "\n", "newText": "\n".join(new) + "\n"})
    for c in range(0, n, 8):
        view = {"card": "diff", "title": f"Edit batch {c}", "diffs": files[c:c + 8]}
        seq = log.call(1, 1, f"c{c}", "edit", {"batch": c}, view)
        log.result(1, 1, f"c{c}", seq, "ok", view)
    log.turn_close(1)


def message(log, text):
    log.turn_open(1, "show it")
    log.emit("step/start", {"turn": 1, "step": 1})
    log.emit("assistant/message", {"turn": 1, "step": 1,
                                   "message": {"role": "assistant", "content": [{"type": "text", "text": text}]}})
    log.turn_close(1)


def gen_md_code(f, n):
    body = "".join(f"    let value_{i} = compute({i}, &config); // step {i}\n" for i in range(n))
    message(FrameLog(f), "Here is the code:\n\n```rust\n" + body + "```\n\nDone.")


def gen_md_list(f, n):
    body = "".join(f"- item number {i} with a few words of text\n" for i in range(n))
    message(FrameLog(f), body)


def gen_read_long_line(f, n):
    log = FrameLog(f)
    log.turn_open(1, "read it")
    log.step_open(1, 1, "Reading.")
    text = ("let x = 1; " * (n // 11 + 1))[:n]
    seq = log.call(1, 1, "c1", "read", {"file_path": "min.js"}, {"card": "generic", "title": "Read min.js", "kind": "read"})
    log.result(1, 1, "c1", seq, "(file)", {"card": "read", "path": "min.js", "offset": 1,
                                            "lines": [{"number": 1, "text": text}], "totalLines": 1, "lang": "js"})
    log.turn_close(1)


def gen_read_lines(f, n):
    log = FrameLog(f)
    log.turn_open(1, "read it")
    log.step_open(1, 1, "Reading.")
    lines = [{"number": i + 1, "text": f"    let value_{i} = compute({i}, &config); // step {i}"} for i in range(n)]
    seq = log.call(1, 1, "c1", "read", {"file_path": "big.rs"}, {"card": "generic", "title": "Read big.rs", "kind": "read"})
    log.result(1, 1, "c1", seq, "(file)", {"card": "read", "path": "big.rs", "offset": 1, "lines": lines,
                                            "totalLines": n, "lang": "rs"})
    log.turn_close(1)


def gen_md_table(f, n):
    rows = ["| name | value | note |", "|---|---:|---|"]
    size = 0
    i = 0
    while size < n:
        row = f"| item {i} | {i * 37 % 1000} | the **note** of row {i} |"
        rows.append(row)
        size += len(row) + 1
        i += 1
    message(FrameLog(f), "\n".join(rows) + "\n")


def gen_md_links(f, n):
    parts = []
    size = 0
    i = 0
    while size < n:
        link = f"[link {i}](https://example.com/page/{i}) "
        parts.append(link)
        size += len(link)
        i += 1
    message(FrameLog(f), "".join(parts))


def gen_search_matches(f, n):
    log = FrameLog(f)
    log.turn_open(1, "grep")
    log.step_open(1, 1, "Searching.")
    files = [{"path": f"src/m{j}.rs", "matches": [{"lineNumber": k + 1, "line": f"    let compute_{k} = compute({k});"}
                                                  for k in range(50)]} for j in range(n // 50)]
    seq = log.call(1, 1, "c1", "grep", {"pattern": "compute"}, {"card": "generic", "title": "Grep compute", "kind": "search"})
    log.result(1, 1, "c1", seq, "(matches)", {"card": "search", "shape": "matches", "query": "compute", "files": files,
                                               "truncated": False, "total": (n // 50) * 50})
    log.turn_close(1)


def gen_web_sources(f, n):
    log = FrameLog(f)
    log.turn_open(1, "search the web")
    log.step_open(1, 1, "Searching.")
    sources = [{"url": f"https://example.com/{i}", "title": f"Result {i}", "snippet": f"The snippet of result {i} says something."}
               for i in range(n)]
    seq = log.call(1, 1, "c1", "web_search", {"query": "x"}, {"card": "generic", "title": "Web search x", "kind": "fetch"})
    log.result(1, 1, "c1", seq, "(results)", {"card": "web", "kind": "search", "query": "x", "sources": sources})
    log.turn_close(1)


def gen_generic_json(f, n):
    log = FrameLog(f)
    log.turn_open(1, "call a tool")
    log.step_open(1, 1, "Calling.")
    args = {f"key_{i}": {"value": i, "label": f"label {i}"} for i in range(n)}
    seq = log.call(1, 1, "c1", "custom_tool", args, {"card": "generic", "title": "custom_tool", "rawInput": args})
    log.result(1, 1, "c1", seq, "done", {"card": "generic", "content": [{"type": "text", "text": "done"}]})
    log.turn_close(1)


def gen_cards(f, n):
    gen_export_cast(f, n * 6)


def claude_line(kind, uuid, message, **extra):
    line = {"type": kind, "uuid": uuid, "sessionId": "s1", "cwd": "/w", "version": "2",
            "timestamp": "2026-12-01T10:00:00.000Z", "message": message, **extra}
    return json.dumps(line, separators=(",", ":")) + "\n"


def gen_claude_blocks(f, n):
    """A Claude Code message told one block a line (its own lines share its id)."""
    f.write(claude_line("user", "u0", {"role": "user", "content": "go"}))
    for i in range(n):
        block = {"type": "text", "text": f"paragraph {i} of the answer, with a few words in it."}
        f.write(claude_line("assistant", f"a{i}", {"id": "m1", "role": "assistant", "model": "m",
                                                    "content": [block]}))


def gen_claude_calls(f, n):
    """A Claude Code session of shell calls and their results."""
    f.write(claude_line("user", "u0", {"role": "user", "content": "go"}))
    for i in range(n):
        call = {"type": "tool_use", "id": f"toolu_{i}", "name": "Bash", "input": {"command": f"echo {i}"}}
        f.write(claude_line("assistant", f"a{i}", {"id": f"m{i}", "role": "assistant", "model": "m",
                                                    "content": [{"type": "text", "text": f"step {i}"}, call]}))
        out = "\n".join(f"line {j} of output {i}" for j in range(8))
        result = {"type": "tool_result", "tool_use_id": f"toolu_{i}", "content": out}
        f.write(claude_line("user", f"r{i}", {"role": "user", "content": [result]},
                            toolUseResult={"stdout": out, "stderr": "", "interrupted": False}))


def gen_codex_polls(f, n):
    """A Codex command still running, polled n times (write_stdin), each poll's
    output added to the command's card."""
    t = [0]

    def line(kind, payload):
        t[0] += 1
        f.write(json.dumps({"timestamp": "2026-12-01T10:00:00.000Z", "ordinal": t[0], "type": kind,
                            "payload": payload}, separators=(",", ":")) + "\n")

    line("session_meta", {"id": "s1", "session_id": "s1", "cwd": "/w", "cli_version": "0.169.0"})
    line("event_msg", {"type": "task_started"})
    line("response_item", {"type": "message", "role": "user",
                           "content": [{"type": "input_text", "text": "run the slow check"}]})
    line("response_item", {"type": "function_call", "name": "exec_command", "call_id": "c0",
                           "arguments": json.dumps({"cmd": "./slow-check", "yield_time_ms": 500})})
    line("response_item", {"type": "function_call_output", "call_id": "c0", "output":
                           "Chunk ID: a\nWall time: 0.5 seconds\nProcess running with session ID 7\n"
                           "Original token count: 0\nOutput:\nstarting\n"})
    for i in range(1, n + 1):
        line("response_item", {"type": "function_call", "name": "write_stdin", "call_id": f"c{i}",
                               "arguments": json.dumps({"chars": "", "session_id": 7})})
        last = i == n
        head = "Process exited with code 0" if last else "Process running with session ID 7"
        line("response_item", {"type": "function_call_output", "call_id": f"c{i}", "output":
                               f"Chunk ID: {i}\nWall time: 1.0 seconds\n{head}\n"
                               f"Original token count: 4\nOutput:\nstill checking, pass {i}\n"})
    line("event_msg", {"type": "task_complete"})


def gen_gemini_calls(f, n):
    """A Gemini CLI session file of shell calls: each model message written
    twice (the second time with its settled call), its result message after."""
    def w(v):
        f.write(json.dumps(v, separators=(",", ":")) + "\n")

    t = "2026-12-01T10:00:00.000Z"
    w({"sessionId": "s1", "projectHash": "h", "startTime": t, "lastUpdated": t, "kind": "main"})
    w({"id": "u0", "timestamp": t, "type": "user", "content": [{"text": "go"}]})
    for i in range(n):
        out = "\n".join(f"line {j} of output {i}" for j in range(8))
        text = f"<untrusted_context>\nOutput: {out}\nProcess Group PGID: {i}\n</untrusted_context>"
        msg = {"id": f"g{i}", "timestamp": t, "type": "gemini", "content": f"step {i}",
               "tokens": {"input": 10, "output": 2}, "model": "m"}
        w(msg)
        response = {"functionResponse": {"id": f"c{i}", "name": "run_shell_command",
                                         "response": {"output": text}}}
        call = {"id": f"c{i}", "name": "run_shell_command", "args": {"command": f"echo {i}"},
                "result": [response], "status": "success", "timestamp": t, "resultDisplay": out}
        w({**msg, "toolCalls": [call]})
        w({"id": f"r{i}", "timestamp": t, "type": "user", "content": [response]})
        w({"$set": {"lastUpdated": t}})


def gen_qwen_calls(f, n):
    """A Qwen Code session file of shell calls: each a model response, its
    telemetry line and its result."""
    base = {"sessionId": "s1", "cwd": "/w", "version": "0.24.4",
            "timestamp": "2026-12-01T10:00:00.000Z"}

    def w(i, kind, provenance, **rest):
        line = {"uuid": f"{kind}-{i}", "parentUuid": None, **base, "type": kind,
                "provenance": provenance, **rest}
        f.write(json.dumps(line, separators=(",", ":")) + "\n")

    w(0, "user", "real_user", message={"role": "user", "parts": [{"text": "go"}]})
    for i in range(n):
        out = "\n".join(f"line {j} of output {i}" for j in range(8))
        call = {"id": f"c{i}", "name": "run_shell_command", "args": {"command": f"echo {i}"}}
        w(i, "assistant", "assistant_output", model="m",
          message={"role": "model", "parts": [{"text": f"step {i}"}, {"functionCall": call}]},
          usageMetadata={"promptTokenCount": 10, "candidatesTokenCount": 2})
        w(i, "system", "system", subtype="ui_telemetry", systemPayload={"uiEvent": {
            "event.name": "qwen-code.tool_call", "call_id": f"c{i}", "duration_ms": 5}})
        text = f"Command: echo {i}\nDirectory: (root)\nOutput: {out}\nError: (none)\nExit Code: 0"
        w(i, "tool_result", "tool_result",
          message={"role": "user", "parts": [{"functionResponse": {
              "id": f"c{i}", "name": "run_shell_command", "response": {"output": text}}}]},
          toolCallResult={"callId": f"c{i}", "status": "success", "resultDisplay": {
              "type": "shell_result", "exitCode": 0, "outcome": "completed", "output": out}})


# ---------------------------------------------------------------- running

def run(cmd, timeout, stdin=None):
    """Run cmd; (seconds, peak RSS bytes, exit status, stderr tail)."""
    err = tempfile.TemporaryFile()
    t0 = time.monotonic()
    pid = os.fork()
    if pid == 0:
        try:
            if stdin is not None:
                fd = os.open(stdin, os.O_RDONLY)
                os.dup2(fd, 0)
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.dup2(err.fileno(), 2)
            os.execv(cmd[0], cmd)
        finally:
            os._exit(127)
    status, rusage = wait_with_timeout(pid, timeout)
    dt = time.monotonic() - t0
    err.seek(0)
    tail = err.read()[-400:].decode("utf-8", "replace")
    return dt, rusage.ru_maxrss * 1024 if rusage else 0, status, tail


def wait_with_timeout(pid, timeout):
    deadline = time.monotonic() + timeout
    while True:
        wpid, status, rusage = os.wait4(pid, os.WNOHANG)
        if wpid == pid:
            return os.waitstatus_to_exitcode(status), rusage
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            _, status, rusage = os.wait4(pid, 0)
            return "timeout", rusage
        time.sleep(0.005)


def run_pty(cmd, timeout, stdin, done_marker):
    """Run a TUI command on a pseudo-terminal (120×40) with stdin from a
    file; press q once `done_marker` shows. Same result shape as run()."""
    master, slave = pty.openpty()
    fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    t0 = time.monotonic()
    pid = os.fork()
    if pid == 0:
        try:
            os.setsid()
            fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
            fd = os.open(stdin, os.O_RDONLY)
            os.dup2(fd, 0)
            os.dup2(slave, 1)
            os.dup2(slave, 2)
            os.close(master)
            os.execv(cmd[0], cmd)
        finally:
            os._exit(127)
    os.close(slave)
    seen = b""
    done_at = None
    deadline = time.monotonic() + timeout
    marker = done_marker.encode()
    status = None
    rusage = None
    while True:
        wpid, st, ru = os.wait4(pid, os.WNOHANG)
        if wpid == pid:
            status, rusage = os.waitstatus_to_exitcode(st), ru
            break
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            _, st, rusage = os.wait4(pid, 0)
            status = "timeout"
            break
        r, _, _ = select.select([master], [], [], 0.05)
        if r:
            try:
                chunk = os.read(master, 1 << 16)
            except OSError:
                chunk = b""
            seen = (seen + chunk)[-4096:]
            if done_at is None and marker in seen:
                done_at = time.monotonic()
                os.write(master, b"q")
    os.close(master)
    dt = (done_at or time.monotonic()) - t0
    return dt, (rusage.ru_maxrss * 1024 if rusage else 0), status, seen[-300:].decode("utf-8", "replace")


def render(*extra):
    return lambda deck, path: [deck, "render", path, "--width", "100", "--theme", "dark", *extra]


def frames(deck, path):
    """The interactive list (as `deck view` draws it): loaded, then screens
    drawn after scrolls and jumps."""
    return [deck, "bench", "frames", path, "--width", "100", "--height", "40", "--iterations", "200"]


def inspect_sessions(deck, path):
    return [deck, "inspect", "--sessions", path]


def export_html(deck, path):
    # Redacted, the default: the records redacted, the page checked again.
    return [deck, "export", path, "--format", "html", "-o", "/dev/null"]


def export_cast(deck, path):
    return [deck, "export", path, "--format", "cast", "-o", "/dev/null", "--width", "100", "--height", "30"]


def library(deck, path):
    """`deck sessions` indexing the one session, in a home and cache of
    its own (removed after)."""
    script = ('d=$(mktemp -d) && ln -s "$2" "$d/s.jsonl" && '
              'HOME="$d" XDG_CACHE_HOME="$d/c" XDG_CONFIG_HOME="$d/cfg" "$1" sessions --json --dir "$d" >/dev/null; '
              'rc=$?; rm -rf "$d"; exit $rc')
    return ["/bin/sh", "-c", script, "sh", deck, path]


# The session each file of `library-files` holds (~0.5 MB).
LIBRARY_FILE = None


def library_file():
    global LIBRARY_FILE
    if LIBRARY_FILE is None:
        import io
        buf = io.StringIO()
        gen_cards(buf, 250)
        LIBRARY_FILE = buf.getvalue()
    return LIBRARY_FILE


def gen_library_files(f, n):
    """n copies of one session, one after another: the command splits them
    into a file each."""
    one = library_file()
    for _ in range(n):
        f.write(one)


def library_files(deck, path):
    """`deck sessions` indexing a folder of sessions, one a file (split
    from the input), in a home and cache of its own (removed after)."""
    script = ('d=$(mktemp -d) && mkdir "$d/s" && '
              'split -l "$3" -a 6 --additional-suffix=.jsonl "$2" "$d/s/f-" && '
              'HOME="$d" XDG_CACHE_HOME="$d/c" XDG_CONFIG_HOME="$d/cfg" "$1" sessions --json --dir "$d/s" >/dev/null; '
              'rc=$?; rm -rf "$d"; exit $rc')
    return ["/bin/sh", "-c", script, "sh", deck, path, str(library_file().count("\n"))]


def listen(deck, path):
    return [deck, "listen", "-", "--theme", "dark"]


FULL = render("--density", "full")
PREVIEW = render()

# name: (generator, N at scale 1, command, unit, pty?)
CASES = {
    "terminal-line": (gen_terminal_line, 1 * MB, FULL, "bytes", False),
    "terminal-line-preview": (gen_terminal_line, 1 * MB, PREVIEW, "bytes", False),
    "open-turns": (gen_open_turns, 2500, inspect_sessions, "turns", False),
    "chunk-indices": (gen_chunk_indices, 12500, inspect_sessions, "indices", False),
    "chunk-indices-render": (gen_chunk_indices, 12500, PREVIEW, "indices", False),
    "listen-sessions": (gen_listen_sessions, 2500, listen, "sessions", True),
    "export-cast": (gen_export_cast, 1250, export_cast, "events", False),
    "export-stream": (gen_export_stream, 1250, export_cast, "chunks", False),
    "export-redact": (gen_secrets, 1000, export_html, "results", False),
    "diff-unlike": (gen_diff_unlike, 16 << 10, FULL, "bytes", False),
    "diff-unlike-preview": (gen_diff_unlike, 16 << 10, PREVIEW, "bytes", False),
    "diff-files": (gen_diff_files, 16, FULL, "files", False),
    "md-code-preview": (gen_md_code, 25000, PREVIEW, "lines", False),
    "md-code": (gen_md_code, 25000, FULL, "lines", False),
    "read-long-line-preview": (gen_read_long_line, 1 * MB, PREVIEW, "bytes", False),
    "read-long-line": (gen_read_long_line, 512 << 10, FULL, "bytes", False),
    "read-lines": (gen_read_lines, 12500, FULL, "lines", False),
    "md-table": (gen_md_table, 512 << 10, FULL, "bytes", False),
    "md-list-view": (gen_md_list, 25000, frames, "items", False),
    "md-links": (gen_md_links, 512 << 10, FULL, "bytes", False),
    "search-matches": (gen_search_matches, 5000, FULL, "matches", False),
    "web-sources": (gen_web_sources, 2500, FULL, "sources", False),
    "generic-json": (gen_generic_json, 5000, FULL, "keys", False),
    "cards": (gen_cards, 500, PREVIEW, "cards", False),
    "claude-blocks": (gen_claude_blocks, 2500, PREVIEW, "blocks", False),
    "claude-calls": (gen_claude_calls, 2500, PREVIEW, "calls", False),
    "codex-polls": (gen_codex_polls, 2500, FULL, "polls", False),
    "gemini-calls": (gen_gemini_calls, 2000, PREVIEW, "calls", False),
    "qwen-calls": (gen_qwen_calls, 2000, PREVIEW, "calls", False),
    # The other agents' formats, each grown from its fixture (gen_agents.py)
    # at the DSH mix's density of calls (~7.7 KB a call; the densest, many
    # tiny calls a MB, is claude-calls').
    "pi-calls": (agent("pi"), 250, PREVIEW, "calls", False),
    "copilot-calls": (agent("copilot-cli"), 250, PREVIEW, "calls", False),
    "cursor-turns": (agent("cursor"), 250, PREVIEW, "turns", False),
    "grok-calls": (agent("grok"), 250, PREVIEW, "calls", False),
    "kimi-calls": (agent("kimi"), 250, PREVIEW, "calls", False),
    "cline-messages": (agent("cline"), 125, PREVIEW, "blocks", False),
    "cline-tasks-turns": (agent("cline-tasks"), 250, PREVIEW, "calls", False),
    "atif-steps": (agent("atif"), 250, PREVIEW, "steps", False),
    "mini-swe-messages": (agent("mini-swe-agent"), 125, PREVIEW, "blocks", False),
    "opencode-messages": (agent("opencode"), 250, PREVIEW, "messages", False),
    "aider-turns": (agent("aider"), 125, PREVIEW, "turns", False),
    "library-index": (gen_cards, 2500, library, "cards", False),
    "library-claude": (gen_claude_calls, 2500, library, "calls", False),
    "library-files": (gen_library_files, 32, library_files, "files", False),
}

# Cases held to a constant peak RSS (MB over the base), not to 4× their
# input: an index update holds the tantivy writer's arena (at most 64 MB)
# and the files being read, never all it read.
CONSTANT_RSS = {
    "library-files": 96,
}

# Cases held to a constant and a fraction of their input (MB over the base,
# the divisor of the input, and whether 4× the input is the limit when
# less): one big file folded as it is read (library/fold.rs) holds the
# decoding pipeline (blocks of 4 MB, two per core in flight, their decoded
# lines), the writer's arena and a sweep of records — constants, ~190 MB
# once filled — and, to stay exact, 8–16 bytes of each call id, call seq
# and message it let go of (~55 bytes a Claude Code call of ~1 KB):
# docs/library.md. Claude Code's calls fill the constants at a few MB of
# input, so its case is held to them, not to 4× (at --scale 1 a loose
# check; --scale 8 and more show the eighth).
#
# Gemini CLI's and Qwen Code's lines are decoded as JSON trees on the
# decoder threads (no text fast path as Claude Code's has yet): the blocks
# in flight, as trees about 5x their text, fill by ~25 MB of input and are
# a constant after; the transcript then costs ~1.5x the input (gemini-calls
# at --scale 4: 45 MB -> 218 MB, 91 MB -> 284 MB peak RSS). Held to that
# constant plus half the input, not to 4x (which they pass past the fill,
# and fail by a few MB inside it).
FRACTION_RSS = {
    "library-index": (256, 8, True),
    "library-claude": (256, 8, False),
    "gemini-calls": (256, 2, False),
    "qwen-calls": (256, 2, False),
}


def limit_of(name, size, case_base):
    """The peak RSS case `name` may reach on an input of `size` bytes."""
    if name in CONSTANT_RSS:
        return case_base + CONSTANT_RSS[name] * MB
    if name in FRACTION_RSS:
        fixed, part, capped = FRACTION_RSS[name]
        limit = fixed * MB + size // part
        return case_base + (min(4 * size, limit) if capped else limit)
    return case_base + 4 * size


def bound_of(name, size):
    """The limit of `limit_of`, said."""
    if name in CONSTANT_RSS:
        return f"{CONSTANT_RSS[name]} MB"
    if name in FRACTION_RSS:
        fixed, part, capped = FRACTION_RSS[name]
        bound = f"{fixed} MB + 1/{part} of {fmt_bytes(size)}"
        return f"min(4 × {fmt_bytes(size)}, {bound})" if capped else bound
    return f"4 × {fmt_bytes(size)}"


def fmt_bytes(b):
    return f"{b / MB:.1f} MB"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--deck", default=os.path.join(HERE, "..", "target", "release", "deck"))
    p.add_argument("--scale", type=float, default=1.0)
    p.add_argument("--only", default="")
    p.add_argument("--timeout", type=float, default=120.0)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--keep", help="write the inputs here and keep them")
    p.add_argument("--list", action="store_true")
    a = p.parse_args()
    if a.list:
        for name, (_, n, _, unit, _) in CASES.items():
            print(f"{name}: N = {n} {unit}")
        return 0
    deck = os.path.abspath(a.deck)
    if not os.access(deck, os.X_OK):
        print(f"scaling: {deck} is not built (cargo build --release)", file=sys.stderr)
        return 2
    names = [n for n in a.only.split(",") if n] or list(CASES)
    unknown = [n for n in names if n not in CASES]
    if unknown:
        print(f"scaling: unknown case(s) {', '.join(unknown)}; --list shows them", file=sys.stderr)
        return 2
    work = a.keep or tempfile.mkdtemp(prefix="deck-scaling-")
    os.makedirs(work, exist_ok=True)
    # The fixed base: deck on a tiny session.
    tiny = os.path.join(work, "tiny.jsonl")
    with open(tiny, "w", encoding="utf-8") as f:
        gen_cards(f, 2)
    _, base_rss, st, tail = run(PREVIEW(deck, tiny), a.timeout)
    if st != 0:
        print(f"scaling: deck failed on a tiny session: {tail}", file=sys.stderr)
        return 2
    base = base_rss + 64 * MB
    print(f"base: {fmt_bytes(base_rss)} RSS on a tiny session; limit 4 × input + {fmt_bytes(base)}")
    failed = []
    for name in names:
        gen, n0, cmd, unit, on_pty = CASES[name]
        n0 = max(1, int(n0 * a.scale))
        rows = []
        problems = []
        # The case's own fixed cost (its command on the smallest input of its
        # kind: compiled redaction rules, an index's writer), when more.
        case_base = base
        if not on_pty:
            small = os.path.join(work, f"{name}-small.jsonl")
            with open(small, "w", encoding="utf-8") as f:
                gen(f, 1)
            _, small_rss, st, _ = run(cmd(deck, small), a.timeout)
            if st == 0 and small_rss + 64 * MB > case_base:
                case_base = small_rss + 64 * MB
                print(f"  {name}: base {fmt_bytes(small_rss)} RSS on its smallest input")
            os.remove(small)
        for k in (1, 2, 4, 8):
            n = n0 * k
            path = os.path.join(work, f"{name}-{n}.jsonl")
            with open(path, "w", encoding="utf-8") as f:
                gen(f, n)
            size = os.path.getsize(path)
            times, rss, st, tail = [], 0, 0, ""
            for _ in range(max(1, a.runs)):
                if on_pty:
                    dt, r, st, tail = run_pty(cmd(deck, path), a.timeout, path, "ended")
                else:
                    dt, r, st, tail = run(cmd(deck, path), a.timeout)
                times.append(dt)
                rss = max(rss, r)
                if st != 0:
                    break
            times.sort()
            dt = times[len(times) // 2]
            rows.append((n, size, dt, rss))
            limit = limit_of(name, size, case_base)
            spread = f" ({times[0]:.3f}–{times[-1]:.3f})" if len(times) > 1 else ""
            print(f"  {name} N={n} {unit}: input {fmt_bytes(size)}, {dt:.3f} s{spread}, peak RSS {fmt_bytes(rss)}"
                  + ("" if rss <= limit else f" (over {fmt_bytes(limit)})"), flush=True)
            if st != 0:
                problems.append(f"exit {st} at N={n}: {tail.strip()[-200:]}")
                break
            if rss > limit:
                bound = bound_of(name, size)
                problems.append(f"RSS {fmt_bytes(rss)} at N={n} over {bound} + base")
            if not a.keep:
                os.remove(path)
        if len(rows) == 4:
            growth = rows[3][2] / max(rows[0][2], 1e-3)
            rss_growth = rows[3][3] / max(rows[0][3], 1)
            if growth > 10:
                problems.append(f"time grew {growth:.1f}× for 8× the input")
        else:
            growth = rss_growth = float("nan")
        verdict = "PASS" if not problems else "FAIL"
        print(f"{name}: time ×{growth:.1f}, RSS ×{rss_growth:.1f} for 8× the {unit} {verdict}"
              + ("" if not problems else " — " + "; ".join(problems)), flush=True)
        if problems:
            failed.append(name)
    if not a.keep:
        shutil.rmtree(work, ignore_errors=True)
    if failed:
        print(f"scaling: FAIL: {', '.join(failed)}")
        return 1
    print("scaling: every case PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
