#!/usr/bin/env python3
"""A Claude Code session log of about --mb megabytes, shaped like Claude Code
2.1's own (user prompts, assistant thinking/text/tool_use lines sharing a
message id, tool_result lines with `toolUseResult`, and the bookkeeping line
types deck skips): Bash calls with N-line outputs, Reads, Edits. Standard
library only, deterministic. For bench/compare.sh: loading it must cost no
more than a DSH frame log of the same size."""

import argparse
import json
import sys

SID = "00000000-0000-4000-8000-000000000001"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=float, default=100.0)
    ap.add_argument("--output-lines", type=int, default=60)
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args()
    limit = int(a.mb * 1024 * 1024)
    written = 0
    n = 0
    t = 1_796_000_000_000

    def ts():
        ms = t % 1000
        s = t // 1000
        import time
        return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(s)) + f".{ms:03d}Z"

    base = {"isSidechain": False, "userType": "external", "cwd": "/work/proj",
            "sessionId": SID, "version": "2.1.328", "gitBranch": "main"}
    with open(a.output, "w") as out:
        def put(obj):
            nonlocal written
            line = json.dumps(obj, separators=(",", ":")) + "\n"
            out.write(line)
            written += len(line)

        turn = 0
        while written < limit:
            turn += 1
            t += 1000
            put({**base, "type": "user", "uuid": f"u{turn}", "parentUuid": None, "timestamp": ts(),
                 "message": {"role": "user", "content": f"[turn {turn}] run the build and fix what fails"}})
            put({"type": "last-prompt", "lastPrompt": f"turn {turn}", "sessionId": SID})
            for k in range(8):
                n += 1
                t += 250
                mid = f"msg_{n:08d}"
                tid = f"toolu_{n:016x}"
                usage = {"input_tokens": 2000 + n % 97, "output_tokens": 100}
                msg = {"id": mid, "type": "message", "role": "assistant", "model": "claude-opus-5-5",
                       "stop_reason": "tool_use", "usage": usage}
                put({**base, "type": "assistant", "uuid": f"a{n}t", "timestamp": ts(),
                     "message": {**msg, "content": [{"type": "thinking", "thinking": f"Step {k}: check the output of the last command and decide.", "signature": "s"}]}})
                put({**base, "type": "assistant", "uuid": f"a{n}x", "timestamp": ts(),
                     "message": {**msg, "content": [{"type": "text", "text": f"Running step {k} of turn {turn}."}]}})
                kind = k % 4
                if kind == 3:
                    path = f"/work/proj/src/mod_{n % 50}.rs"
                    body = "".join(f"fn f{i}() -> u32 {{ {i} }}\n" for i in range(a.output_lines))
                    inp = {"file_path": path, "offset": 1, "limit": a.output_lines}
                    put({**base, "type": "assistant", "uuid": f"a{n}u", "timestamp": ts(),
                         "message": {**msg, "content": [{"type": "tool_use", "id": tid, "name": "Read", "input": inp}]}})
                    text = "".join(f"{i + 1:>6}\u2192{l}\n" for i, l in enumerate(body.splitlines()))
                    put({**base, "type": "user", "uuid": f"r{n}", "timestamp": ts(),
                         "message": {"role": "user", "content": [{"tool_use_id": tid, "type": "tool_result", "content": text}]},
                         "toolUseResult": {"type": "text", "file": {"filePath": path, "content": body,
                                           "numLines": a.output_lines, "startLine": 1, "totalLines": a.output_lines + 10}}})
                else:
                    cmd = f"cargo test -p crate_{n % 13} -- --nocapture"
                    inp = {"command": cmd, "description": "Run the tests"}
                    put({**base, "type": "assistant", "uuid": f"a{n}u", "timestamp": ts(),
                         "message": {**msg, "content": [{"type": "tool_use", "id": tid, "name": "Bash", "input": inp}]}})
                    stdout = "".join(f"test module_{n}::case_{i} ... ok\n" for i in range(a.output_lines))
                    err = n % 11 == 0
                    text = (f"Exit code 101\n{stdout}" if err else stdout)
                    put({**base, "type": "user", "uuid": f"r{n}", "timestamp": ts(),
                         "message": {"role": "user", "content": [{"tool_use_id": tid, "type": "tool_result", "content": text, "is_error": err}]},
                         "toolUseResult": {"stdout": stdout, "stderr": "", "interrupted": False, "isImage": False}})
                put({"type": "cost-state", "sessionId": SID, "totalCostUSD": n * 0.001})
    print(f"{written} bytes, {n} calls, {turn} turns", file=sys.stderr)


if __name__ == "__main__":
    main()
