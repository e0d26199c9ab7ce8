#!/usr/bin/env python3
"""`deck inspect` of the session store OpenCode wrote, against its SUMMARY.json.

usage: check.py DECK DIR

DIR is a capture in the fixture's form (run.sh's OUT_DIR/tour, or
tests/fixtures/agents/opencode/tour), or run.sh's OUT_DIR itself (then every
sub-folder holding a SUMMARY.json is checked). For each session SUMMARY.json
lists, `deck inspect DIR/<its file>` must list the same calls, in the same
order: the file is `opencode.db` (the db holds one session here; when it
holds several, deck is expected to list them session by session, in
SUMMARY.json's order), or for a JSON tree (OpenCode before 1.2, scenario
`tree`) the session's info file, `storage/session/<project>/<id>.json`:

  callId     the part's own call id (part.data.callID)
  tool       the part's tool name (read, glob, grep, edit, write, bash, webfetch, …)
  status     the part's state.status, as deck words it: completed -> ok,
             error -> error; a bash call whose state.metadata.exit is not 0
             -> failed (the store says completed: the exit code is the
             outcome, as for Claude Code's Bash and Codex's exec_command);
             pending/running (a call cut off) -> as deck words an unfinished
             call, not checked
  exitCode   a bash call's: state.metadata.exit

The cards deck draws are printed here and checked by `cargo test` on the
committed fixture (tests/all/agents/opencode.rs, against docs/agents.md's
table). Exits 1 when a call differs or deck cannot read the store.
"""
import glob
import json
import os
import subprocess
import sys

STATUS = {"completed": "ok", "error": "error"}


def expected_status(call):
    if call["tool"] == "bash" and call.get("exitCode") not in (None, 0):
        return "failed"
    return STATUS.get(call["status"], call["status"])


def card(line):
    return (line.get("resultView") or {}).get("card") or (line.get("callView") or {}).get("card") or "-"


def check_dir(deck, d):
    with open(os.path.join(d, "SUMMARY.json"), encoding="utf-8") as f:
        summary = json.load(f)
    failures = []
    by_file = {}
    for entry in summary:
        by_file.setdefault(entry["file"], []).append(entry)
    for fname, entries in by_file.items():
        path = os.path.join(d, fname)
        want = [c for e in entries for c in e["calls"]]
        entry = {"file": fname}
        r = subprocess.run([deck, "inspect", path], capture_output=True, text=True, timeout=120)
        if r.returncode != 0:
            failures.append(f"{fname}: deck inspect exited {r.returncode}: {r.stderr.strip()[:300]}")
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
            if w["status"] in ("pending", "running"):
                pass
            elif g.get("status") != st:
                bad.append(f"status {g.get('status')!r} (want {st!r}; the file says {w['status']!r})")
            if w["tool"] == "bash":
                code = g.get("exitCode", (g.get("resultView") or {}).get("exitCode"))
                ok = code in (None, 0) if w.get("exitCode") in (None, 0) else code == w["exitCode"]
                if not ok:
                    bad.append(f"exitCode {code!r} (want {w.get('exitCode')!r}: {w.get('exitCodeNote')})")
            mark = "FAIL" if bad else "ok  "
            print(f"  {mark} turn {w['turn']} {w['tool']:<10} {card(g):<9} {g.get('status', '-'):<9} {w['callId']}")
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
    print("check: every call listed with the store's id, tool and status")
    return 0


if __name__ == "__main__":
    sys.exit(main())
