#!/usr/bin/env python3
"""`deck inspect` of the session files Gemini CLI wrote, against their SUMMARY.json.

usage: check.py DECK DIR

DIR is a capture in the fixture's form (run.sh's OUT_DIR/tour, or
tests/fixtures/agents/gemini-cli/tour or …/legacy-json), or run.sh's OUT_DIR
itself (then every sub-folder holding a SUMMARY.json is checked). For each
session file (session-*.jsonl, session-*.json) SUMMARY.json lists, `deck
inspect FILE` must list the same calls, in the same order:

  callId     the file's own call id (toolCalls[].id)
  tool       the file's tool name (run_shell_command, read_file, …)
  status     the file's status, as deck words it: success -> ok, error ->
             error, cancelled -> cancelled; a run_shell_command whose output
             says `Exit Code: N` with N != 0 -> failed (the file says
             success: the exit code is the outcome, as for Claude Code's Bash
             and Codex's exec_command)
  exitCode   a run_shell_command's: N when its output says `Exit Code: N`;
             0 or none when it says none (Gemini CLI 0.61.0 writes the line
             only for a non-zero exit)

The cards deck draws are printed here and checked by `cargo test` on the
committed fixture (tests/all/agents/gemini_cli.rs, against docs/agents.md's
table). Exits 1 when a call differs or deck cannot read the file.
"""
import glob
import json
import os
import subprocess
import sys

STATUS = {"success": "ok", "error": "error", "cancelled": "cancelled"}


def expected_status(call):
    if call["tool"] == "run_shell_command" and call.get("exitCode") not in (None, 0):
        return "failed"
    return STATUS.get(call["status"], call["status"])


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
                bad.append(f"status {g.get('status')!r} (want {st!r}; the file says {w['status']!r})")
            if w["tool"] == "run_shell_command":
                code = g.get("exitCode", (g.get("resultView") or {}).get("exitCode"))
                ok = code in (None, 0) if w.get("exitCode") is None else code == w["exitCode"]
                if not ok:
                    bad.append(f"exitCode {code!r} (want {w.get('exitCode')!r}: {w.get('exitCodeNote')})")
            mark = "FAIL" if bad else "ok  "
            print(f"  {mark} turn {w['turn']} {w['tool']:<18} {card(g):<9} {g.get('status', '-'):<9} {w['callId']}")
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
    print("check: every call listed with the file's id, tool and status")
    return 0


if __name__ == "__main__":
    sys.exit(main())
