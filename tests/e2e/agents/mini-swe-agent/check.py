#!/usr/bin/env python3
"""`deck inspect` of the trajectories mini-swe-agent (and SWE-agent) wrote, against their SUMMARY.json.

usage: check.py DECK DIR

DIR is a capture in the fixture's form (run.sh's OUT_DIR/tour, or
tests/fixtures/agents/mini-swe-agent/tour), or a folder whose sub-folders hold
a SUMMARY.json (each is checked). For each file SUMMARY.json lists, `deck
inspect FILE` must list the same actions, in the same order:

  callId     the action's tool_call_id (a SWE-agent step: `step-N`, its place
             in `trajectory`)
  tool       `bash` (a SWE-agent step: `action`)
  status     SUMMARY's `expect.status`: the returncode (0 ok, else failed); an
             action not executed: rejected (a UserRejection follows), ok (the
             submitting command, which ran), cancelled (a UserInterruption
             follows), else error; a SWE-agent step: unknown
  exitCode   SUMMARY's `expect.exitCode`: the returncode of an action that
             ran (never the -1 mini-swe-agent writes for one that did not)

The cards are checked by `cargo test` on the committed fixture
(src/agents/mini_swe_agent/present/tests.rs). Exits 1 when an action differs
or deck cannot read the file.
"""
import glob
import json
import os
import subprocess
import sys


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
        print(f"check: {entry['file']}: {len(want)} actions in SUMMARY.json, deck inspect lists {len(got)}"
              + (f" ({r.stderr.strip()[:200]})" if r.stderr.strip() else ""))
        if [g.get("callId") for g in got] != [w["callId"] for w in want]:
            failures.append(f"{entry['file']}: deck lists the calls\n  {[g.get('callId') for g in got]}\n"
                            f"SUMMARY.json has\n  {[w['callId'] for w in want]}")
            continue
        for w, g in zip(want, got):
            bad = []
            if g.get("tool") != w["tool"]:
                bad.append(f"tool {g.get('tool')!r} (want {w['tool']!r})")
            e = w["expect"]
            if g.get("status") != e["status"]:
                bad.append(f"status {g.get('status')!r} (want {e['status']!r})")
            code = g.get("exitCode", (g.get("resultView") or {}).get("exitCode"))
            if code != e["exitCode"]:
                bad.append(f"exitCode {code!r} (want {e['exitCode']!r})")
            mark = "FAIL" if bad else "ok  "
            print(f"  {mark} turn {w['turn']} {card(g):<9} {g.get('status', '-'):<9} {w['callId']:<12} "
                  f"{(w.get('command') or '').splitlines()[0][:50] if w.get('command') else ''}")
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
    print("check: every action listed with the file's id, tool, status and exit code")
    return 0


if __name__ == "__main__":
    sys.exit(main())
