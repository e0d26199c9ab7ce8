#!/usr/bin/env python3
"""Checks a run of run.sh: usage check.py DECK OUT_DIR.

* the turn ended with end_turn (deck's stderr);
* `deck inspect` on the recording lists the nine calls of the scenario,
  in order, each with the card of its ACP kind and its final status (the
  same rows as tests/all/agents/acp_gemini.rs checks on the fixture);
* every file deck wrote for the agent (`fs/write_text_file`) is on disk
  as written, and the diff cards' new text is what was written;
* the file whose creation the CLI fails on (see the fixture's README) is
  not there.
"""
import json
import os
import subprocess
import sys

WANT = [
    ("search", "generic", "ok"),
    ("read", "generic", "ok"),
    ("search", "generic", "ok"),
    ("search", "generic", "ok"),
    ("edit", "diff", "ok"),
    ("edit", "generic", "error"),
    ("edit", "diff", "ok"),
    ("execute", "terminal", "ok"),
    ("execute", "terminal", "ok"),
]


def main():
    deck, out = sys.argv[1], sys.argv[2]
    rec = os.path.join(out, "acp-trace.jsonl")
    errs = []
    stderr = open(os.path.join(out, "agent-stderr.txt"), encoding="utf-8").read()
    if "1 turn(s): end_turn" not in stderr:
        errs.append("the turn did not end with end_turn:\n" + stderr[-2000:])
    lines = subprocess.run([deck, "inspect", rec], check=True, capture_output=True, text=True).stdout
    calls = [json.loads(l) for l in lines.splitlines() if l.strip()]
    rows = []
    for c in calls:
        card = (c.get("resultView") or {}).get("card") or (c.get("callView") or {}).get("card")
        rows.append((c.get("tool"), card, c.get("status")))
    if rows != WANT:
        errs.append(f"inspect rows:\n  got  {rows}\n  want {WANT}")
    written = {}
    for l in open(rec, encoding="utf-8"):
        m = json.loads(l)["msg"]
        if m.get("method") == "fs/write_text_file":
            written[m["params"]["path"]] = m["params"]["content"]
    if len(written) != 2:
        errs.append(f"expected 2 files written, got {sorted(written)}")
    for path, content in written.items():
        with open(path, encoding="utf-8") as f:
            if f.read() != content:
                errs.append(f"{path} on disk differs from what was written")
    for c in calls:
        for d in (c.get("resultView") or {}).get("diffs") or []:
            if written.get(d["path"]) != d["newText"]:
                errs.append(f"diff card of {d['path']} is not what was written")
    if os.path.exists(os.path.join(out, "ws", "src", "test_stats.py")):
        errs.append("src/test_stats.py exists: the CLI's new-file write works now (update the fixture's README)")
    if errs:
        print("gemini e2e: FAILED\n" + "\n".join(errs))
        sys.exit(1)
    print(f"gemini e2e: {len(calls)} calls checked, {len(written)} files as written")


if __name__ == "__main__":
    main()
