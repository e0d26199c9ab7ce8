#!/usr/bin/env python3
"""Check a `deck record` recording against the kit driver's own frames.

usage: check_recording.py DECK OUT RECORDING [--verbatim]

* every `session/event` seq of OUT/frames.jsonl is in the recording exactly
  once, with the same view;
* `deck inspect` and `deck render` of the recording equal those of
  OUT/frames.jsonl (every card of the tour, same status and views);
* --verbatim: every message of frames.jsonl and host-frames.jsonl is in the
  recording with the same payload (the host gives each socket its own
  envelope rpcIds), the recorder having run for the whole session.
"""
import json
import subprocess
import sys


def frames(path):
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if line.strip():
                yield n, line.rstrip("\n"), json.loads(line)


def events(path):
    """session id -> seq -> list of views (None when absent)."""
    out = {}
    for _, _, v in frames(path):
        p = v["payload"] if v.get("type") == "server-request" else v
        if p.get("type") == "session/event":
            out.setdefault(p.get("sessionId"), {}).setdefault(p["event"]["seq"], []).append(p.get("view"))
    return out


def deck(bin_, *args):
    r = subprocess.run([bin_, *args], capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        sys.exit(f"check: deck {' '.join(args)} failed: {r.stderr}")
    return r.stdout


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    bin_, out, rec = sys.argv[1:4]
    verbatim = "--verbatim" in sys.argv[4:]
    want = events(f"{out}/frames.jsonl")
    got = events(rec)
    problems = []
    for sid, seqs in want.items():
        have = got.get(sid, {})
        for seq, views in sorted(seqs.items()):
            copies = have.get(seq, [])
            if not copies:
                problems.append(f"{sid} seq {seq}: missing")
            elif len(copies) > 1:
                problems.append(f"{sid} seq {seq}: recorded {len(copies)} times")
            elif copies[0] != views[0]:
                problems.append(f"{sid} seq {seq}: view differs")
        print(f"check: session {sid}: {len(seqs)} events in the driver's frames, "
              f"{sum(1 for s in seqs if s in have)} in the recording")
    if verbatim:
        def key(v):
            return json.dumps(v.get("payload", v), sort_keys=True)
        recorded = {}
        for _, _, v in frames(rec):
            recorded[key(v)] = recorded.get(key(v), 0) + 1
        for name in ("frames.jsonl", "host-frames.jsonl"):
            missing = []
            for n, _, v in frames(f"{out}/{name}"):
                if recorded.get(key(v), 0) > 0:
                    recorded[key(v)] -= 1
                else:
                    missing.append(n)
            if missing:
                problems.append(f"{name}: {len(missing)} messages not in the recording verbatim (first at line {missing[0]})")
    for cmd in (["inspect"], ["render", "--width", "100"]):
        a = deck(bin_, *cmd[:1], rec, *cmd[1:])
        b = deck(bin_, *cmd[:1], f"{out}/frames.jsonl", *cmd[1:])
        if a != b:
            problems.append(f"deck {cmd[0]} of the recording differs from the driver's frames")
    cards = deck(bin_, "inspect", rec).count("\n")
    print(f"check: {cards} cards in the recording")
    if cards == 0:
        problems.append("no cards")
    if problems:
        print("\n".join(f"check: FAIL {p}" for p in problems[:40]), file=sys.stderr)
        sys.exit(1)
    print("check: ok")


main()
