#!/usr/bin/env python3
"""Peak RSS of `deck view` itself: each log opened under tmux, read to its
end (the status bar's counts final: no `loading`, no `…`), then the
process's high-water mark (`VmHWM` of /proc/PID/status) read before `q`.

    view_rss.py --deck PATH --log FILE [--log FILE …] [--runs 3]

Prints one verdict line per log, against 2 × its size + 64 MB (issue 32),
the median of RUNS, as compare.sh does:

    peak RSS deck view 100 MB codex (vs 2× file size + 64 MB): deck X MB vs ref Y MB = ratio R (goal ≤ 1.0) PASS|FAIL
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from tmuxctl import Control, new_session  # noqa: E402
from verdict import verdict  # noqa: E402


def log(*m):
    print("[view-rss]", *m, file=sys.stderr, flush=True)


def once(deck, path):
    name = f"deck-rss-{os.getpid()}-{time.monotonic_ns()}"
    pidfile = f"/tmp/{name}.pid"
    script = f"echo $$ > {pidfile}; exec env XDG_CONFIG_HOME=/nonexistent TERM=xterm-256color {deck} view {path}"
    new_session(name, 200, 60, ["sh", "-c", script])
    ctl = Control(name)
    try:
        def read(s):
            last = s.rstrip("\n").split("\n")[-1]
            return " card" in last and "loading" not in last and "… card" not in last
        if ctl.wait_for(read, limit=120, poll=0.05) is None:
            sys.exit(f"[view-rss] {path}: not read to its end in 120 s")
        pid = open(pidfile).read().strip()
        hwm = next(l for l in open(f"/proc/{pid}/status") if l.startswith("VmHWM:"))
        mb = int(hwm.split()[1]) * 1024 / 1e6
        ctl.press("q")
        return mb
    finally:
        ctl.close()
        subprocess.run(["tmux", "kill-session", "-t", name], stderr=subprocess.DEVNULL)
        if os.path.exists(pidfile):
            os.remove(pidfile)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--deck", required=True)
    ap.add_argument("--log", required=True, action="append")
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    for path in a.log:
        size = os.path.getsize(path)
        runs = [once(a.deck, path) for _ in range(a.runs)]
        mb = statistics.median(runs)
        ref = 2 * size / 1e6 + 64
        name = os.path.basename(path).removeprefix("agent-").removesuffix(".log").removesuffix(".jsonl")
        log(f"{name}: {', '.join(f'{r:.0f}' for r in runs)} MB")
        verdict(f"peak RSS deck view {size / 1e6:.0f} MB {name} (vs 2× file size + 64 MB)", mb, ref, "MB", digits=1)


if __name__ == "__main__":
    main()
