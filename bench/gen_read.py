#!/usr/bin/env python3
"""A big Rust file and a frame log holding one `read` card of all of it.

    gen_read.py --bytes 2000000 --rust big.rs -o read.jsonl [--seed 11]

The log is one turn: a user message, an assistant message, a `read` tool call
(generic call view, as the host sends it) and its result, shaped like the
host's: the numbered text in the result content, the tool's `meta`
(`path/offset/lines/totalLines/lang`) and the `read` result view with the
same lines and the text as `content`. Same arguments: same bytes.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from framelog import FrameLog  # noqa: E402
from rustgen import RustGen  # noqa: E402

p = argparse.ArgumentParser()
p.add_argument("--bytes", type=int, default=2_000_000)
p.add_argument("--seed", type=int, default=11)
p.add_argument("--rust", required=True, help="where to write the Rust file")
p.add_argument("--path", default="/workspace/bench/src/big.rs", help="the path the card names")
p.add_argument("-o", "--output", required=True)
a = p.parse_args()

lines = RustGen(a.seed).lines(a.bytes)
with open(a.rust, "w", encoding="utf-8", newline="\n") as f:
    f.write("\n".join(lines) + "\n")

n = len(lines)
numbered = [{"number": i + 1, "text": t} for i, t in enumerate(lines)]
body = "\n".join(f"{i + 1}: {t}" for i, t in enumerate(lines)) + f"\n\n(End of file - total {n} lines)"
text = f"<path>{a.path}</path>\n<type>file</type>\n<content>\n{body}\n</content>"
meta = {"path": a.path, "offset": 1, "lines": numbered, "totalLines": n, "lang": "rust"}
view = dict(meta, card="read", content=[{"type": "text", "text": body}])

with open(a.output, "w", encoding="utf-8", newline="\n") as out:
    log = FrameLog(out)
    log.turn_open(1, "Read the big file and tell me what it does.")
    log.step_open(1, 1, "Reading the file.")
    cid = "call_read_0"
    cseq = log.call(1, 1, cid, "read", {"file_path": a.path},
                    {"card": "generic", "title": f"Read {a.path}", "kind": "read",
                     "locations": [{"path": a.path, "line": 1}]})
    log.result(1, 1, cid, cseq, text, view, meta=meta)
    log.step_close(1, 1)
    log.turn_close(1)
