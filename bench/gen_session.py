#!/usr/bin/env python3
"""Deterministic generator of large DSH frame logs for benchmarks.

    gen_session.py --cards N [--output-lines K] [--chunks C] [-o FILE]

Writes `server-request` envelopes around `session/event` frames with views, as
the DSH host sends them: turns of a user message, streamed assistant text and
tool calls (terminal with ANSI output, read, edit diffs, grep, glob) with their
results. `--chunks C` streams each assistant text as C `assistant/chunk`
deltas (as the host does) instead of one, for logs with many small frames.
The same arguments always produce the same bytes.
"""
import argparse
import json
import random
import sys

p = argparse.ArgumentParser()
p.add_argument("--cards", type=int, default=1000)
p.add_argument("--output-lines", type=int, default=20, help="lines of terminal output per bash card")
p.add_argument("--chunks", type=int, default=1, help="assistant/chunk deltas per assistant text")
p.add_argument("--seed", type=int, default=7)
p.add_argument("-o", "--output", default="-")
a = p.parse_args()
rnd = random.Random(a.seed)
out = sys.stdout if a.output == "-" else open(a.output, "w", encoding="utf-8")
SID = "session-bench"
seq = 0
t = 1796000000000


def emit(kind, data, view=None, dt=7):
    global seq, t
    t += dt
    payload = {"type": "session/event", "sessionId": SID, "event": {"type": kind, "seq": seq, "time": t, "data": data}}
    if view is not None:
        payload["view"] = view
    seq += 1
    out.write(json.dumps({"type": "server-request", "rpcId": f"r{seq}", "method": "session/event", "payload": payload}, separators=(",", ":")))
    out.write("\n")


WORDS = "the parser reads each line splits on equals and trims keys values into a table of settings".split()
CODE = [f"    let value_{i} = compute({i}, &config); // step {i}" for i in range(200)]


def sentence(n):
    return " ".join(rnd.choice(WORDS) for _ in range(n))


card = 0
turn = 0
while card < a.cards:
    turn += 1
    emit("turn/start", {"turn": turn})
    emit("user/message", {"content": [{"type": "text", "text": sentence(12)}], "source": {"kind": "user"}, "role": "user"})
    for step in range(1, 6):
        if card >= a.cards:
            break
        emit("step/start", {"turn": turn, "step": step})
        text = sentence(30)
        n = max(1, a.chunks)
        for c in range(n):
            part = text[len(text) * c // n:len(text) * (c + 1) // n]
            emit("assistant/chunk", {"turn": turn, "step": step, "chunk": {"type": "text-delta", "index": 0, "text": part}})
        calls = []
        for k in range(rnd.randint(1, 4)):
            if card >= a.cards:
                break
            card += 1
            cid = f"c{card}"
            kind = rnd.choice(["bash", "bash", "read", "edit", "grep", "glob"])
            calls.append((cid, kind))
        emit("assistant/message", {"turn": turn, "step": step, "message": {"role": "assistant", "content": [{"type": "text", "text": text}]}})
        for cid, kind in calls:
            if kind == "bash":
                cmd = f"cargo test -p crate{rnd.randint(1, 40)}"
                emit("tool/call", {"turn": turn, "step": step, "callId": cid, "name": "bash", "arguments": json.dumps({"command": cmd})},
                     {"for": "call", "view": {"card": "terminal", "title": cmd, "description": "Run tests"}})
                lines = [f"\x1b[32mtest\x1b[0m case_{i} ... {'ok' if rnd.random() > 0.05 else 'FAILED'}" for i in range(a.output_lines)]
                code = 0 if rnd.random() > 0.1 else 101
                outp = "\n".join(lines) + "\n"
                emit("tool/result", {"turn": turn, "step": step, "message": {"content": [{"type": "tool-result", "toolCallId": cid,
                     "content": [{"type": "text", "text": outp + f"\n[exit code: {code}]"}], "isError": False}]}},
                     {"for": "result", "view": {"card": "terminal", "output": outp, "exitCode": code}}, dt=300)
            elif kind == "read":
                path = f"src/module_{rnd.randint(1, 300)}.rs"
                off = rnd.randint(1, 100)
                ls = [{"number": off + i, "text": CODE[(off + i) % 200]} for i in range(50)]
                emit("tool/call", {"turn": turn, "step": step, "callId": cid, "name": "read", "arguments": json.dumps({"file_path": path})},
                     {"for": "call", "view": {"card": "generic", "title": f"Read {path}", "kind": "read", "locations": [{"path": path, "line": off}]}})
                emit("tool/result", {"turn": turn, "step": step, "message": {"content": [{"type": "tool-result", "toolCallId": cid,
                     "content": [{"type": "text", "text": "\n".join(f"{l['number']}: {l['text']}" for l in ls)}], "isError": False}]}},
                     {"for": "result", "view": {"card": "read", "path": path, "offset": off, "lines": ls, "totalLines": 400, "lang": "rs"}}, dt=20)
            elif kind == "edit":
                path = f"src/module_{rnd.randint(1, 300)}.rs"
                i = rnd.randint(0, 180)
                old = "\n".join(CODE[i:i + 12]) + "\n"
                new = old.replace("compute", "compute_checked", 2)
                emit("tool/call", {"turn": turn, "step": step, "callId": cid, "name": "edit", "arguments": json.dumps({"file_path": path})},
                     {"for": "call", "view": {"card": "diff", "title": f"Edit {path}", "diffs": [{"path": path, "oldText": old, "newText": new}]}})
                emit("tool/result", {"turn": turn, "step": step, "message": {"content": [{"type": "tool-result", "toolCallId": cid,
                     "content": [{"type": "text", "text": "ok"}], "isError": False}]}},
                     {"for": "result", "view": {"card": "diff", "diffs": [{"path": path, "oldText": old, "newText": new}]}}, dt=15)
            elif kind == "grep":
                files = [{"path": f"src/m{j}.rs", "matches": [{"lineNumber": 10 * m + 1, "line": CODE[m]} for m in range(3)]} for j in range(4)]
                emit("tool/call", {"turn": turn, "step": step, "callId": cid, "name": "grep", "arguments": json.dumps({"pattern": "compute"})},
                     {"for": "call", "view": {"card": "generic", "title": "Grep compute", "kind": "search", "rawInput": "compute"}})
                emit("tool/result", {"turn": turn, "step": step, "message": {"content": [{"type": "tool-result", "toolCallId": cid,
                     "content": [{"type": "text", "text": "Found 12 matches"}], "isError": False}]}},
                     {"for": "result", "view": {"card": "search", "shape": "matches", "files": files, "truncated": False, "total": 12}}, dt=15)
            else:
                paths = [f"src/m{j}.rs" for j in range(10)]
                emit("tool/call", {"turn": turn, "step": step, "callId": cid, "name": "glob", "arguments": json.dumps({"pattern": "**/*.rs"})},
                     {"for": "call", "view": {"card": "generic", "title": "Glob **/*.rs", "kind": "search", "rawInput": "**/*.rs"}})
                emit("tool/result", {"turn": turn, "step": step, "message": {"content": [{"type": "tool-result", "toolCallId": cid,
                     "content": [{"type": "text", "text": "\n".join(paths)}], "isError": False}]}},
                     {"for": "result", "view": {"card": "search", "shape": "paths", "paths": paths, "truncated": False, "total": 10}}, dt=15)
        emit("step/end", {"turn": turn, "step": step})
    emit("turn/end", {"turn": turn, "reason": {"kind": "completed"}})
if out is not sys.stdout:
    out.close()
