#!/usr/bin/env python3
"""`deck inspect` of the wire log Kimi Code CLI wrote, against its SUMMARY.json.

usage: check.py DECK DIR

DIR is a capture in the fixture's form (run.sh's OUT_DIR/tour, or
tests/fixtures/agents/kimi/tour). For each wire.jsonl SUMMARY.json lists,
`deck inspect FILE` must list the same calls, in the same order:

  callId     the ToolCall's id (= the ToolResult's tool_call_id)
  tool       the ToolCall's function.name (Shell, ReadFile, StrReplaceFile, …)
  status     return_value.is_error as deck words it: false -> ok, true ->
             error; a Shell whose message says a non-zero exit code
             (`Command failed with exit code: N.`) -> failed
  exitCode   a Shell's: the code its message says (SUMMARY's exitCode:
             `Command executed successfully.` is 0), else none
  lines      an edit's diff at the line its first `diff` display block
             says (old_start); a ReadFile window from its line_offset

Prints the cards deck draws. Exits 1 when a call differs or deck cannot
read the file.
"""
import json
import os
import subprocess
import sys


def expected_status(call):
    if call.get("isError"):
        return "failed" if call.get("exitCode") not in (None, 0) else "error"
    return "ok"


def card(line):
    return (line.get("resultView") or {}).get("card") or (line.get("callView") or {}).get("card") or "-"


def check_dir(deck, d):
    with open(os.path.join(d, "SUMMARY.json"), encoding="utf-8") as f:
        summary = json.load(f)
    failures = []
    for entry in summary:
        path = os.path.join(d, entry["file"])
        want = entry["calls"]
        r = subprocess.run([deck, "inspect", path], capture_output=True, text=True, timeout=120)
        if r.returncode != 0:
            failures.append(f"{entry['file']}: deck inspect exited {r.returncode}: {r.stderr.strip()[:300]}")
            continue
        got = [json.loads(line) for line in r.stdout.splitlines() if line.strip()]
        print(f"check: {entry['file']}: {len(want)} calls in SUMMARY.json, deck inspect lists {len(got)}")
        if [g.get("callId") for g in got] != [w["callId"] for w in want]:
            failures.append(f"{entry['file']}: deck lists the calls\n  {[g.get('callId') for g in got]}\n"
                            f"SUMMARY.json has\n  {[w['callId'] for w in want]}")
            continue
        for w, g in zip(want, got):
            bad = []
            if g.get("tool") != w["tool"]:
                bad.append(f"tool {g.get('tool')!r} (want {w['tool']!r})")
            st = expected_status(w)
            if g.get("status") != st:
                bad.append(f"status {g.get('status')!r} (want {st!r}; is_error {w.get('isError')}, message {w.get('message')!r})")
            if g.get("exitCode") != w.get("exitCode"):
                bad.append(f"exitCode {g.get('exitCode')!r} (want {w.get('exitCode')!r}, from {w.get('exitCodeFrom')})")
            rv = g.get("resultView") or {}
            if w.get("diffs") and not w.get("isError"):
                at = (rv.get("diffs") or [{}])[0].get("startLine")
                if at != w["diffs"][0]["old_start"]:
                    bad.append(f"diff at line {at!r} (want old_start {w['diffs'][0]['old_start']})")
            if w["tool"] == "ReadFile" and w["args"].get("line_offset") and not w.get("isError"):
                first = ((rv.get("lines") or [{}])[0]).get("number")
                if first != w["args"]["line_offset"]:
                    bad.append(f"read from line {first!r} (want {w['args']['line_offset']})")
            mark = "FAIL" if bad else "ok  "
            print(f"  {mark} turn {w['turn']} {w['tool']:<15} {card(g):<9} {g.get('status', '-'):<9} {w['callId']}")
            if bad:
                failures.append(f"{entry['file']}: {w['callId']}: " + "; ".join(bad)
                                + f"\n    deck inspect: {json.dumps(g)[:800]}")
    return failures


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    failures = check_dir(sys.argv[1], sys.argv[2])
    for f in failures:
        print(f"check: FAIL: {f}", file=sys.stderr)
    if failures:
        return 1
    print("check: every call listed with the file's id, tool, status, exit code and lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
