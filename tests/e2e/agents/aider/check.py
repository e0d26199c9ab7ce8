#!/usr/bin/env python3
"""`deck inspect` of the chat history aider wrote, against its SUMMARY.json.

usage: check.py DECK DIR

DIR is a capture in the fixture's form (run.sh's OUT_DIR/tour, or
tests/fixtures/agents/aider/tour), or run.sh's OUT_DIR itself (then every
sub-folder holding a SUMMARY.json is checked). `deck inspect
DIR/.aider.chat.history.md` must list the calls SUMMARY.json reads from the
text, in the same order:

  callId     `L<line>`: an edit's `<<<<<<< SEARCH` line, a command's `####`
             line (the file names no calls: deck's reader and summarize.py
             both number them by their line)
  tool       edit | run | test
  status     SUMMARY's: ok (`> Applied edit to <file>`), error (a failing
             /test: aider adds its output only on a non-zero exit; an edit
             aider says failed), unknown (a /run: nothing says how it ended)
  exitCode   never: the file says none
  card       edit -> diff, run/test -> terminal (docs/agents.md's table)

The cards are printed. Exits 1 when a call differs or deck cannot read the file.
"""
import glob
import json
import os
import subprocess
import sys

CARD = {"edit": "diff", "run": "terminal", "test": "terminal"}


def card(line):
    return (line.get("resultView") or {}).get("card") or (line.get("callView") or {}).get("card") or "-"


def check_dir(deck, d):
    with open(os.path.join(d, "SUMMARY.json"), encoding="utf-8") as f:
        summary = json.load(f)
    path = os.path.join(d, summary["file"])
    want = summary["calls"]
    r = subprocess.run([deck, "inspect", path], capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        return [f"{summary['file']}: deck inspect exited {r.returncode}: {r.stderr.strip()[:300]}"]
    got = [json.loads(line) for line in r.stdout.splitlines() if line.strip()]
    print(f"check: {summary['file']}: {len(want)} calls in SUMMARY.json, deck inspect lists {len(got)}"
          + (f" ({r.stderr.strip()[:200]})" if r.stderr.strip() else ""))
    if [g.get("callId") for g in got] != [w["callId"] for w in want]:
        return [f"{summary['file']}: deck lists the calls\n  {[g.get('callId') for g in got]}\n"
                f"SUMMARY.json has\n  {[w['callId'] for w in want]}"]
    failures = []
    for w, g in zip(want, got):
        bad = []
        if g.get("tool") != w["tool"]:
            bad.append(f"tool {g.get('tool')!r} (want {w['tool']!r})")
        if g.get("status") != w["status"]:
            bad.append(f"status {g.get('status')!r} (want {w['status']!r}: {w.get('statusFrom')})")
        code = g.get("exitCode", (g.get("resultView") or {}).get("exitCode"))
        if code is not None:
            bad.append(f"exitCode {code!r} (the file says none)")
        if card(g) != CARD[w["tool"]]:
            bad.append(f"card {card(g)!r} (want {CARD[w['tool']]!r})")
        mark = "FAIL" if bad else "ok  "
        print(f"  {mark} run {w['run']} {w['tool']:<5} {card(g):<9} {g.get('status', '-'):<8} {w['callId']}")
        if bad:
            failures.append(f"{w['callId']}: " + "; ".join(bad) + f"\n    deck inspect: {json.dumps(g)[:800]}")
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
    print("check: every call listed with its line id, tool, status and card, and no exit code")
    return 0


if __name__ == "__main__":
    sys.exit(main())
