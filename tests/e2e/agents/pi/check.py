#!/usr/bin/env python3
"""`deck inspect` of the session file pi wrote, against its SUMMARY.json.

usage: check.py DECK DIR

DIR is a capture in the fixture's form (run.sh's OUT_DIR/tour, or
tests/fixtures/agents/pi/tour), or run.sh's OUT_DIR itself (then every
sub-folder holding a SUMMARY.json is checked). For each session file
SUMMARY.json lists, `deck inspect FILE` must list the calls on the path pi
continues (SUMMARY's `onPath`: the branch leading to the file's last entry;
calls on other branches are not drawn), in the same order:

  callId     the file's own call id (toolCall.id = toolResult.toolCallId)
  tool       the toolCall's name (read, bash, edit, write, grep, find, ls)
  status     isError false -> ok, true -> error; a bash call whose text ends
             `Command exited with code N` (N != 0) -> failed, as for Claude
             Code's Bash and Codex's exec_command
  exitCode   a bash call's: N from that text; absent when the text names no
             code (pi writes none for a command that succeeded)

and say that the file has other branches (a diagnostic of `deck inspect
--diagnostics` naming a branch) when SUMMARY.json lists a call off the path. The cards deck draws are
printed here and checked by `cargo test` on the committed fixture
(src/agents/pi/present/tests.rs). Exits 1 when a call differs or deck cannot
read the file.
"""
import glob
import json
import os
import subprocess
import sys



def expected_tool(call):
    return call["tool"]


def expected_status(call):
    if call["tool"] == "bash" and call.get("exitCode") not in (None, 0):
        return "failed"
    return call["status"]


def card(line):
    return (line.get("resultView") or {}).get("card") or (line.get("callView") or {}).get("card") or "-"


def check_dir(deck, d):
    with open(os.path.join(d, "SUMMARY.json"), encoding="utf-8") as f:
        summary = json.load(f)
    failures = []
    for entry in summary:
        path = os.path.join(d, entry["file"])
        want = [c for c in entry["calls"] if c["onPath"]]
        off = [c for c in entry["calls"] if not c["onPath"]]
        r = subprocess.run([deck, "inspect", path], capture_output=True, text=True, timeout=120)
        if r.returncode != 0:
            failures.append(f"{entry['file']}: deck inspect exited {r.returncode}: {r.stderr.strip()[:300]}")
            continue
        got = [json.loads(line) for line in r.stdout.splitlines() if line.strip()]
        got = [g for g in got if not g.get("parentCallId")]
        print(f"check: {entry['file']}: {len(want)} calls in SUMMARY.json, deck inspect lists {len(got)}"
              + (f" ({r.stderr.strip()[:200]})" if r.stderr.strip() else ""))
        if off:
            dr = subprocess.run([deck, "inspect", "--diagnostics", path], capture_output=True, text=True, timeout=120)
            said = [json.loads(x).get("reason", "") for x in dr.stdout.splitlines() if x.strip()]
            for reason in said:
                print(f"  diagnostic: {reason}")
            if not any("branch" in reason for reason in said):
                failures.append(f"{entry['file']}: {len(off)} calls sit on another branch "
                                f"({', '.join(c['callId'] for c in off)}), and no diagnostic of "
                                f"`deck inspect --diagnostics` names a branch")
        if [g.get("callId") for g in got] != [w["callId"] for w in want]:
            failures.append(f"{entry['file']}: deck lists the calls\n  {[g.get('callId') for g in got]}\n"
                            f"SUMMARY.json has\n  {[w['callId'] for w in want]}")
            continue
        for w, g in zip(want, got):
            bad = []
            tool = expected_tool(w)
            if g.get("tool") != tool:
                bad.append(f"tool {g.get('tool')!r} (want {tool!r}" + ")")
            st = expected_status(w)
            if g.get("status") != st:
                bad.append(f"status {g.get('status')!r} (want {st!r}; the file says {w['status']!r})")
            if w["tool"] == "bash":
                code = g.get("exitCode", (g.get("resultView") or {}).get("exitCode"))
                if code != w.get("exitCode"):
                    bad.append(f"exitCode {code!r} (want {w.get('exitCode')!r}, from {w.get('exitCodeFrom')})")
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
