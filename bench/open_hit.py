#!/usr/bin/env python3
"""A search hit opened from `deck sessions`: how soon its card is on screen.

    open_hit.py --deck PATH --big session.jsonl [--out DIR] [--runs 3]

Makes a library of two DSH sessions under OUT/open_hit (a fresh home and
cache): a ~10 MB one (gen_session.py) and a copy of BIG (compare.sh's 100 MB
session.jsonl), each with one word of its own in a prompt at its end (the
hit the furthest in: its card comes last). The index is built once. Then,
under tmux (one control-mode client, as first_screen.py), for each session:
`deck sessions`, `/WORD` Enter (the hits), and Enter on the hit; the time
from that Enter until the hit's prompt is on screen (`› find WORD`), median
of RUNS. Prints verdict lines as compare.sh does (issue 32: ≤ 200 ms):

    open hit deck sessions 10 MB: deck X ms vs ref 200 ms = ratio R (goal ≤ 1.0) PASS|FAIL
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from tmuxctl import Control, new_session  # noqa: E402
from verdict import verdict  # noqa: E402

GOAL_MS = 200.0


def log(*m):
    print("[open-hit]", *m, file=sys.stderr, flush=True)


def prompt_line(word, sid="session-bench"):
    frame = {"type": "server-request", "rpcId": f"hit-{word}", "method": "session/event", "payload": {
        "type": "session/event", "sessionId": sid, "event": {
            "seq": 10_000_000, "time": 1796999999000, "type": "user/message",
            "data": {"content": [{"type": "text", "text": f"find {word} please"}], "role": "user"}}}}
    return json.dumps(frame) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--deck", required=True)
    ap.add_argument("--big", required=True, help="a one-session DSH log (compare.sh's session.jsonl)")
    ap.add_argument("--out", default=os.path.join(HERE, "out"))
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    root = os.path.join(a.out, "open_hit")
    shutil.rmtree(root, ignore_errors=True)
    lib, home = os.path.join(root, "sessions"), os.path.join(root, "home")
    os.makedirs(lib)
    os.makedirs(home)
    small = os.path.join(lib, "small.jsonl")
    subprocess.run([sys.executable, os.path.join(HERE, "gen_session.py"), "--cards", "1250", "--output-lines", "60",
                    "--chunks", "30", "--seed", "7", "-o", small], check=True)
    big = os.path.join(lib, "big.jsonl")
    shutil.copyfile(a.big, big)
    cases = [(small, "zanzibarsmall"), (big, "zanzibarbig")]
    for path, word in cases:
        with open(path, "a") as f:
            f.write(prompt_line(word))
    env = dict(os.environ, HOME=home, XDG_CACHE_HOME=os.path.join(home, "cache"),
               XDG_CONFIG_HOME=os.path.join(home, "config"), XDG_DATA_HOME=os.path.join(home, "data"),
               XDG_STATE_HOME=os.path.join(home, "state"), TERM="xterm-256color")
    for k in ("DSH_HOME", "CLAUDE_CONFIG_DIR", "CODEX_HOME", "DECK_LOG"):
        env.pop(k, None)
    log("indexing")
    subprocess.run([a.deck, "sessions", "--json", "--dir", lib], env=env, check=True, stdout=subprocess.DEVNULL)
    for path, word in cases:
        mb = os.path.getsize(path) / 1e6
        times = []
        for _ in range(a.runs):
            name = f"deck-hit-{os.getpid()}-{time.monotonic_ns()}"
            argv = ["env"] + [f"{k}={v}" for k, v in env.items() if k.startswith(("HOME", "XDG_", "TERM"))] + \
                [a.deck, "sessions", "--dir", lib]
            new_session(name, 200, 60, argv)
            ctl = Control(name)
            try:
                def wait(what, test):
                    if ctl.wait_for(test) is None:
                        sys.exit(f"[open-hit] timed out waiting for {what}:\n{ctl.screen()}")
                    return time.perf_counter()
                wait("the list", lambda s: "deck sessions" in s and "2 sessions" in s)
                ctl.press("/")
                ctl.command(f"send-keys -t {name} -l {word}")
                ctl.press("Enter")
                wait("the hit", lambda s: "1 hit" in s)
                t0 = time.perf_counter()
                ctl.press("Enter")
                t1 = wait("the hit's card", lambda s: f"› find {word}" in s and "1 hit" not in s)
                times.append((t1 - t0) * 1000)
            finally:
                ctl.close()
                subprocess.run(["tmux", "kill-session", "-t", name], stderr=subprocess.DEVNULL)
            log(f"{mb:.0f} MB: the hit's card after {times[-1]:.0f} ms")
        verdict(f"open hit deck sessions {mb:.0f} MB (the hit at the end, median of {a.runs})",
                statistics.median(times), GOAL_MS, "ms")


if __name__ == "__main__":
    main()
