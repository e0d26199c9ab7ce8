#!/usr/bin/env python3
"""`deck inspect` of the session the Cline CLI wrote, against its SUMMARY.json.

usage: check.py DECK DIR

DIR is a capture in the fixture's form (run.sh's OUT_DIR/tour, or
tests/fixtures/agents/cline/tour), or run.sh's OUT_DIR itself (then every
sub-folder holding a SUMMARY.json is checked). For each `<id>/<id>.messages.json`
SUMMARY.json lists, `deck inspect FILE` must list the same calls, in the same
order:

  callId     the file's own call id (tool_use.id = tool_result.tool_use_id)
  tool       the tool_use's name (run_commands, read_files, editor, …)
  status     SUMMARY's status (summarize.py says how it is computed from the
             file: error for is_error or every entry failed; failed for
             run_commands with a non-zero exit code; ok otherwise)
  exitCode   a run_commands call's: SUMMARY's exitCode (from `[Command exited
             with code N]`, 0 for `success: true`), 0 included

The cards deck draws are printed here and checked by `cargo test` on the
committed fixture (src/agents/cline/present/tests.rs). Exits 1 when a call
differs or deck cannot read the file.
"""
import glob
import json
import os
import subprocess
import sys

def expected_tool(call):
    return call["tool"]


def expected_status(call):
    return call["status"]


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
        got = [g for g in got if not g.get("parentCallId")]
        print(f"check: {entry['file']}: {len(want)} calls in SUMMARY.json, deck inspect lists {len(got)}"
              + (f" ({r.stderr.strip()[:200]})" if r.stderr.strip() else ""))
        if [g.get("callId") for g in got] != [w["callId"] for w in want]:
            failures.append(f"{entry['file']}: deck lists the calls\n  {[g.get('callId') for g in got]}\n"
                            f"SUMMARY.json has\n  {[w['callId'] for w in want]}")
            continue
        for w, g in zip(want, got):
            bad = []
            tool = expected_tool(w)
            if g.get("tool") != tool:
                bad.append(f"tool {g.get('tool')!r} (want {tool!r})")
            st = expected_status(w)
            if g.get("status") != st:
                bad.append(f"status {g.get('status')!r} (want {st!r})")
            if w["tool"] == "run_commands":
                code = g.get("exitCode", (g.get("resultView") or {}).get("exitCode"))
                if code != w.get("exitCode"):
                    bad.append(f"exitCode {code!r} (want {w.get('exitCode')!r})")
            mark = "FAIL" if bad else "ok  "
            print(f"  {mark} turn {w['turn']} {tool:<18} {card(g):<9} {g.get('status', '-'):<9} {w['callId']}")
            if bad:
                failures.append(f"{entry['file']}: {w['callId']}: " + "; ".join(bad)
                                + f"\n    deck inspect: {json.dumps(g)[:800]}")
    return failures


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    deck, d = sys.argv[1], sys.argv[2]
    dirs = [d] if os.path.exists(os.path.join(d, "SUMMARY.json")) else \
        sorted(os.path.dirname(p) for p in glob.glob(os.path.join(d, "*", "SUMMARY.json")))
    if not dirs:
        print(f"check: no SUMMARY.json in {d} or its sub-folders", file=sys.stderr)
        return 2
    failures = []
    for x in dirs:
        failures += check_dir(deck, x)
    for f in failures:
        print(f"check: FAIL: {f}", file=sys.stderr)
    if failures:
        return 1
    print("check: every call listed with the file's id, tool, status and exit code")
    return 0


if __name__ == "__main__":
    sys.exit(main())
