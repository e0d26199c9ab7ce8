#!/usr/bin/env python3
"""First screen: how soon `deck view` / `deck replay` of a big log shows
something, and whether it answers keys while it loads.

    bench/first_screen.py --deck PATH --log session.jsonl [--runs 3]

For each command, deck is started in a detached tmux session (tmux is the
terminal; keys are sent and the screen read through one tmux control-mode
client, so no process is started per poll) and the time from starting it to
the first screen that shows deck (its loading screen, or the transcript) is
measured. Then, once more while it loads, `q` is pressed and the time until
deck has exited is measured (it must leave the loading screen at once).
Prints verdict lines as bench/compare.sh does:

    first screen deck view 105 MB: deck X ms vs ref 200 ms = ratio R (goal ≤ 1.0) PASS|FAIL
    q while loading deck view 105 MB: deck X ms vs ref 200 ms = ratio R (goal ≤ 1.0) PASS|FAIL
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

p = argparse.ArgumentParser()
p.add_argument("--deck", required=True)
p.add_argument("--log", required=True)
p.add_argument("--runs", type=int, default=3)
p.add_argument("--width", type=int, default=200)
p.add_argument("--height", type=int, default=60)
a = p.parse_args()

GOAL_MS = 200.0


def log(*m):
    print("[first]", *m, file=sys.stderr, flush=True)


class Control:
    """A tmux control-mode client on session `name` (see bench/ingest.py)."""

    def __init__(self, name):
        self.name = name
        self.p = subprocess.Popen(
            ["tmux", "-C", "attach-session", "-t", name, "-f", "no-output,ignore-size,read-only"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
        self.buf = b""

    def _line(self):
        while b"\n" not in self.buf:
            chunk = os.read(self.p.stdout.fileno(), 1 << 16)
            if not chunk:
                raise RuntimeError("tmux control client ended")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line

    def command(self, cmd):
        self.p.stdin.write(cmd.encode() + b"\n")
        while not self._line().startswith(b"%begin"):
            pass
        out = []
        while True:
            line = self._line()
            if line.startswith(b"%end") or line.startswith(b"%error"):
                return out
            out.append(line)

    def screen(self):
        return "\n".join(l.decode("utf-8", "replace") for l in self.command(f"capture-pane -p -t {self.name}"))

    def pane_dead(self):
        out = self.command(f"display-message -p -t {self.name} '#{{pane_dead}}'")
        return bool(out) and out[0].strip() == b"1"

    def close(self):
        try:
            self.p.stdin.close()
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


def run_once(cmd, press_q):
    name = f"deck-first-{os.getpid()}-{time.monotonic_ns()}"
    # A shell that waits first, so the control client is attached before
    # deck starts; remain-on-exit keeps the pane to see that deck ended.
    go = f"/tmp/{name}.go"
    script = f"while [ ! -e {go} ]; do sleep 0.005; done; exec env XDG_CONFIG_HOME=/nonexistent TERM=xterm-256color {cmd}"
    subprocess.run(["tmux", "new-session", "-d", "-s", name, "-x", str(a.width), "-y", str(a.height),
                    "sh", "-c", script], check=True)
    subprocess.run(["tmux", "set-option", "-t", name, "remain-on-exit", "on"], check=True)
    ctl = Control(name)
    try:
        ctl.command("display-message -p ready")
        t0 = time.perf_counter()
        open(go, "w").close()
        first = None
        while time.perf_counter() - t0 < 30:
            s = ctl.screen()
            if "loading" in s or "── turn" in s or "cards" in s:
                first = (time.perf_counter() - t0) * 1000
                break
        if not press_q:
            return first, None, "loading" in (s if first else "")
        ctl.command(f"send-keys -t {name} q")
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


def verdict(name, ms):
    ok = ms is not None and ms <= GOAL_MS
    shown = f"{ms:.0f}" if ms is not None else "none"
    ratio = f"{ms / GOAL_MS:.2f}" if ms is not None else "inf"
    print(f"{name}: deck {shown} ms vs ref {GOAL_MS:.0f} ms = ratio {ratio} (goal ≤ 1.0) {'PASS' if ok else 'FAIL'}")


def main():
    size = os.path.getsize(a.log) / 1e6
    for sub in ("view", "replay"):
        cmd = f"{a.deck} {sub} {a.log}"
        firsts, quits = [], []
        for _ in range(a.runs):
            f, _, loading = run_once(cmd, press_q=False)
            log(f"{sub}: first screen after {f} ms ({'loading screen' if loading else 'transcript'})")
            firsts.append(f if f is not None else float("inf"))
            f, q, _ = run_once(cmd, press_q=True)
            log(f"{sub}: q answered (deck exited) after {q} ms")
            quits.append(q if q is not None else float("inf"))
        verdict(f"first screen deck {sub} {size:.0f} MB", statistics.median(firsts))
        verdict(f"q while loading deck {sub} {size:.0f} MB", statistics.median(quits))


main()
