#!/usr/bin/env python3
"""A Claude Code session log of about --mb megabytes: the session
gen_session.py writes as a DSH frame log, written as Claude Code 2.1 writes
its own. Same seed, same draws in the same order, so the same turns, texts and
calls with the same outputs: bash commands with --output-lines lines of output
(one in ten exits 101), reads of 50 lines, edits of 12 lines, grep (content
mode, 12 matches in 4 files) and glob (10 paths), two bash calls to one of each
other kind. What differs is only the format: one line per content block
sharing a message id, `tool_result` lines with the structured `toolUseResult`
Claude Code keeps beside the model's text (for an edit, the whole file before
it, `originalFile`, and the `structuredPatch`), and the bookkeeping lines deck
skips. Standard library only, deterministic. For bench/compare.sh: loading it
must cost no more, per byte, than the frame log of the same session."""

import argparse
import json
import random
import sys
import time

SID = "00000000-0000-4000-8000-000000000001"
WORDS = "the parser reads each line splits on equals and trims keys values into a table of settings".split()
CODE = [f"    let value_{i} = compute({i}, &config); // step {i}" for i in range(200)]
WS = "/work/proj"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=float, default=100.0)
    ap.add_argument("--output-lines", type=int, default=60)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args()
    rnd = random.Random(a.seed)
    limit = int(a.mb * 1024 * 1024)
    written = 0
    calls = 0
    msgs = 0
    t = 1_796_000_000_000

    def ts():
        return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t // 1000)) + f".{t % 1000:03d}Z"

    def sentence(n):
        return " ".join(rnd.choice(WORDS) for _ in range(n))

    base = {"parentUuid": None, "isSidechain": False, "userType": "external", "cwd": WS,
            "sessionId": SID, "version": "2.1.328", "gitBranch": "main"}
    out = open(a.output, "w", encoding="utf-8")
    uuid = 0

    def put(kind, message, **extra):
        nonlocal written, uuid
        uuid += 1
        line = json.dumps({**base, "type": kind, "uuid": f"00000000-0000-4000-8000-{uuid:012x}",
                           "timestamp": ts(), "message": message, **extra},
                          separators=(",", ":"), ensure_ascii=False) + "\n"
        out.write(line)
        written += len(line.encode())

    def result(tid, content, meta, is_error=False):
        block = {"tool_use_id": tid, "type": "tool_result", "content": content}
        if is_error:
            block["is_error"] = True
        put("user", {"role": "user", "content": [block]}, toolUseResult=meta)

    turn = 0
    while written < limit:
        turn += 1
        t += 7
        put("user", {"role": "user", "content": sentence(12)})
        for step in range(1, 6):
            msgs += 1
            text = sentence(30)
            msg = {"id": f"msg_{msgs:08d}", "type": "message", "role": "assistant",
                   "model": "claude-opus-5-5", "stop_reason": "tool_use",
                   "usage": {"input_tokens": 2000 + msgs % 97, "output_tokens": 100,
                             "cache_read_input_tokens": 15000}}
            todo = []
            for _ in range(rnd.randint(1, 4)):
                calls += 1
                todo.append((f"toolu_{calls:024x}", rnd.choice(["bash", "bash", "read", "edit", "grep", "glob"])))
            t += 7
            put("assistant", {**msg, "content": [{"type": "text", "text": text}]})
            for tid, kind in todo:
                def use(name, inp):
                    put("assistant", {**msg, "content": [{"type": "tool_use", "id": tid, "name": name, "input": inp}]})
                if kind == "bash":
                    cmd = f"cargo test -p crate{rnd.randint(1, 40)}"
                    use("Bash", {"command": cmd, "description": "Run tests"})
                    lines = [f"\x1b[32mtest\x1b[0m case_{i} ... {'ok' if rnd.random() > 0.05 else 'FAILED'}" for i in range(a.output_lines)]
                    code = 0 if rnd.random() > 0.1 else 101
                    stdout = "\n".join(lines) + "\n"
                    t += 300
                    text_out = stdout if code == 0 else f"Exit code {code}\n{stdout}"
                    result(tid, text_out, {"stdout": stdout, "stderr": "", "interrupted": False, "isImage": False},
                           is_error=code != 0)
                elif kind == "read":
                    path = f"{WS}/src/module_{rnd.randint(1, 300)}.rs"
                    off = rnd.randint(1, 100)
                    ls = [CODE[(off + i) % 200] for i in range(50)]
                    use("Read", {"file_path": path, "offset": off, "limit": 50})
                    t += 20
                    result(tid, "".join(f"{off + i:>6}\u2192{l}\n" for i, l in enumerate(ls)),
                           {"type": "text", "file": {"filePath": path, "content": "\n".join(ls) + "\n",
                                                     "numLines": 50, "startLine": off, "totalLines": 400}})
                elif kind == "edit":
                    path = f"{WS}/src/module_{rnd.randint(1, 300)}.rs"
                    i = rnd.randint(0, 180)
                    old = "\n".join(CODE[i:i + 12]) + "\n"
                    new = old.replace("compute", "compute_checked", 2)
                    use("Edit", {"file_path": path, "old_string": old, "new_string": new, "replace_all": False})
                    lo = max(0, i - 3)
                    hi = min(200, i + 15)
                    patch = ([" " + l for l in CODE[lo:i]] + ["-" + l for l in old.splitlines()]
                             + ["+" + l for l in new.splitlines()] + [" " + l for l in CODE[i + 12:hi]])
                    t += 15
                    result(tid, f"The file {path} has been updated successfully.",
                           {"filePath": path, "oldString": old, "newString": new,
                            "originalFile": "\n".join(CODE) + "\n",
                            "structuredPatch": [{"oldStart": lo + 1, "oldLines": hi - lo, "newStart": lo + 1,
                                                 "newLines": hi - lo, "lines": patch}],
                            "userModified": False, "replaceAll": False})
                elif kind == "grep":
                    use("Grep", {"pattern": "compute", "output_mode": "content", "-n": True})
                    files = [f"src/m{j}.rs" for j in range(4)]
                    body = "\n".join(f"{f}:{10 * m + 1}:{CODE[m]}" for f in files for m in range(3))
                    t += 15
                    result(tid, body, {"mode": "content", "numFiles": 4, "filenames": files,
                                       "content": body, "numLines": 12})
                else:
                    use("Glob", {"pattern": "**/*.rs"})
                    paths = [f"{WS}/src/m{j}.rs" for j in range(10)]
                    t += 15
                    result(tid, "\n".join(paths), {"filenames": paths, "durationMs": 3, "numFiles": 10,
                                                   "truncated": False})
        line = json.dumps({"type": "last-prompt", "lastPrompt": f"turn {turn}", "sessionId": SID}) + "\n"
        out.write(line)
        written += len(line.encode())
    out.close()
    print(f"{written} bytes, {calls} calls, {turn} turns", file=sys.stderr)


if __name__ == "__main__":
    main()
