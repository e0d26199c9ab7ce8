#!/usr/bin/env python3
"""First screen and first card: how soon `deck view` / `deck replay` of a
big log shows something, how soon it shows the session's first card, and
whether it answers keys while it loads; and how soon `deck follow` of it
shows its end (its last cards: the end read first while the file is read
from its start, or the whole read to its end, its card count reached).

    bench/first_screen.py --deck PATH --log session.jsonl [--log big.jsonl] [--runs 3]

For each log and command, deck is started in a detached tmux session (tmux
is the terminal; keys are sent and the screen read through one tmux
control-mode client, so no process is started per poll) and two times are
measured from its start: the first screen that shows deck (its loading
screen, or the transcript), and the first screen that shows the session's
cards (its first turn's rule, `── turn`). Then, once more while it loads,
`q` is pressed and the time until deck has exited is measured (it must
leave the loading screen at once). Prints verdict lines as
bench/compare.sh does:

    first screen deck view 105 MB: deck X ms vs ref 200 ms = ratio R (goal ≤ 1.0) PASS|FAIL
    first card deck view 105 MB: deck X ms vs ref 100 ms = ratio R (goal ≤ 1.0) PASS|FAIL
    q while loading deck view 105 MB: deck X ms vs ref 200 ms = ratio R (goal ≤ 1.0) PASS|FAIL
    the end deck follow 105 MB: deck X ms vs ref 100 ms = ratio R (goal ≤ 1.0) PASS|FAIL
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tmuxctl import Control, new_session  # noqa: E402

p = argparse.ArgumentParser()
p.add_argument("--deck", required=True)
p.add_argument("--log", required=True, action="append", help="a log to open (again for each size)")
p.add_argument("--runs", type=int, default=3)
p.add_argument("--width", type=int, default=200)
p.add_argument("--height", type=int, default=60)
p.add_argument("--only", default="view,replay,follow", help="which of view, replay, follow")
a = p.parse_args()

GOAL_MS = 200.0
# The first card on screen, whatever the log's size (issue 32: ≤ 100 ms at
# 100 MB and at 1 GB).
CARD_GOAL_MS = 100.0


def log(*m):
    print("[first]", *m, file=sys.stderr, flush=True)


def run_once(cmd, press_q, end=None):
    name = f"deck-first-{os.getpid()}-{time.monotonic_ns()}"
    # A shell that waits first, so the control client is attached before
    # deck starts; remain-on-exit keeps the pane to see that deck ended.
    go = f"/tmp/{name}.go"
    script = f"while [ ! -e {go} ]; do sleep 0.005; done; exec env XDG_CONFIG_HOME=/nonexistent TERM=xterm-256color {cmd}"
    new_session(name, a.width, a.height, ["sh", "-c", script])
    subprocess.run(["tmux", "set-option", "-t", name, "remain-on-exit", "on"], check=True)
    ctl = Control(name)
    try:
        t0 = time.perf_counter()
        open(go, "w").close()
        first = card = None
        loading = False
        while time.perf_counter() - t0 < 60:
            s = ctl.screen()
            now = (time.perf_counter() - t0) * 1000
            if end is not None:
                # `deck follow`: its end on screen — shown first, or the
                # whole read, its count of cards reached.
                status = s.rstrip("\n").rsplit("\n", 1)[-1]
                if ("the end first" in status and "✓" in s) or (
                        f" {end} cards" in status and "…" not in status):
                    return None, now, False
                time.sleep(0.002)
                continue
            if first is None and ("loading" in s or "── turn" in s or "cards" in s):
                first = now
                loading = "loading" in s
                if press_q:
                    break
            if "── turn" in s:
                card = now
                break
            time.sleep(0.002)
        if not press_q:
            return first, card, loading
        ctl.press("q")
        t1 = time.perf_counter()
        while time.perf_counter() - t1 < 30:
            if ctl.pane_dead():
                return first, (time.perf_counter() - t1) * 1000, True
            time.sleep(0.002)
        return first, None, True
    finally:
        ctl.close()
        subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True)
        if os.path.exists(go):
            os.unlink(go)


def verdict(name, ms, goal=GOAL_MS):
    ok = ms is not None and ms <= goal
    shown = f"{ms:.0f}" if ms is not None else "none"
    ratio = f"{ms / goal:.2f}" if ms is not None else "inf"
    print(f"{name}: deck {shown} ms vs ref {goal:.0f} ms = ratio {ratio} (goal ≤ 1.0) {'PASS' if ok else 'FAIL'}")


def cards_of(path):
    """The log's tool cards, as `deck inspect` lists them (one line each)."""
    out = subprocess.run([a.deck, "inspect", path], capture_output=True, check=True)
    return out.stdout.count(b"\n")


def main():
    for path in a.log:
        size = os.path.getsize(path) / 1e6
        shown = f"{size / 1e3:.1f} GB" if size >= 1e3 else f"{size:.0f} MB"
        if "follow" in a.only:
            n = cards_of(path)
            ends = []
            for _ in range(a.runs):
                _, e, _ = run_once(f"{a.deck} follow {path}", press_q=False, end=n)
                log(f"follow {shown}: its end ({n} cards) on screen after {e} ms")
                ends.append(e if e is not None else float("inf"))
            verdict(f"the end deck follow {shown}", statistics.median(ends), CARD_GOAL_MS)
        for sub in [s for s in ("view", "replay") if s in a.only]:
            cmd = f"{a.deck} {sub} {path}"
            firsts, cards, quits = [], [], []
            for _ in range(a.runs):
                f, c, loading = run_once(cmd, press_q=False)
                log(f"{sub} {shown}: first screen after {f} ms ({'loading screen' if loading else 'transcript'}),"
                    f" first card after {c} ms")
                firsts.append(f if f is not None else float("inf"))
                cards.append(c if c is not None else float("inf"))
                f, q, _ = run_once(cmd, press_q=True)
                log(f"{sub} {shown}: q answered (deck exited) after {q} ms")
                quits.append(q if q is not None else float("inf"))
            verdict(f"first screen deck {sub} {shown}", statistics.median(firsts))
            verdict(f"first card deck {sub} {shown}", statistics.median(cards), CARD_GOAL_MS)
            verdict(f"q while loading deck {sub} {shown}", statistics.median(quits))


main()
