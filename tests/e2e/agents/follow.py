#!/usr/bin/env python3
"""`deck follow`, started before a real agent CLI, sees every call while it runs.

usage: follow.py --deck DECK --agent claude-code|codex --scenario DIR --ws WS
                 --cwd DIR --out DIR [--env NAME=VALUE ...] --follow ARG [--follow ARG ...]
                 -- KIT_COMMAND ...

1. `deck follow ARGS` (in --cwd, with the --env variables) starts in a tmux
   window of its own server before the session file exists: the session
   path for Claude Code (its name is fixed by the scenario), or `--latest
   codex` (a rollout's name holds the time and the thread id, unknown
   beforehand); deck must say it is waiting.
2. KIT_COMMAND (the kit's run.sh) plays the tour; the kit prints a line
   when each CLI turn has exited (`turn N: rc=…`, `turn N done`).
3. While the CLI runs, deck's screen is read every 0.1 s: the status bar's
   `N cards` must grow while the CLI runs (part of the session on screen
   before the CLI's last turn exited) and reach the number of calls the
   scenario makes in the followed file no later than LAG seconds after the
   kit said the last turn exited: the CLI may write its last call and exit
   within one of deck's 100 ms polls, so "before it exited" alone would be
   a race, while LAG still bounds how late deck draws what was written.
4. Then, still live, the screen must show each call's card, in order, by
   the text its line shows (the command, `Read PATH`, the query, …; see
   check_inspect.Call.follow_keys) and `● live`; `q` quits with status 0.

Why this way: `deck follow` has only the terminal view (no headless
output), so the test reads its screen. The status bar counts every card
whatever the viewport shows; the window is tall (250 rows) and the cards
drawn one line each (`--density line`), so the whole tour fits on one
screen and every card's line can be read without scrolling. The subagents'
own calls are in their own logs (`<session>/subagents/agent-*.jsonl`, named
when the agent starts), not in the followed file: check_inspect.py checks
those.
"""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_inspect import expected  # noqa: E402

SOCKET = f"deck-e2e-agents-{os.getpid()}"
COLS, ROWS = 200, 250
KIT_TIMEOUT = 900
SETTLE = 30  # seconds for deck to draw the last lines once the kit is done
LAG = 1.0  # seconds deck may take to draw a call the CLI wrote as it exited


def tmux(*args, check=True):
    r = subprocess.run(["tmux", "-L", SOCKET, *args], capture_output=True, text=True, timeout=20)
    if check and r.returncode != 0:
        raise RuntimeError(f"tmux {' '.join(args)}: {r.stderr.strip()}")
    return r.stdout


def screen():
    return tmux("capture-pane", "-p", "-t", "deck", check=False)


def status_bar(text):
    lines = text.rstrip("\n").split("\n")
    return lines[-1] if lines else ""


def cards(text):
    m = re.search(r"(\d+) cards?\b", status_bar(text))
    return int(m.group(1)) if m else None


def in_order(text, calls):
    """The calls whose line is missing: each call's key on a line of its
    own after the previous call's line."""
    lines = text.split("\n")
    at, missing = 0, []
    for call in calls:
        keys = call.follow_keys()
        hit = next((i for i in range(at, len(lines)) if any(k in lines[i] for k in keys)), None)
        if hit is None:
            missing.append(f"{call.tool} (a line with {' or '.join(repr(k) for k in keys)})")
        else:
            at = hit + 1
    return missing


def main():
    ap = argparse.ArgumentParser()
    for opt in ("--deck", "--agent", "--scenario", "--ws", "--cwd", "--out"):
        ap.add_argument(opt, required=True)
    ap.add_argument("--env", action="append", default=[])
    ap.add_argument("--follow", action="append", required=True)
    ap.add_argument("kit", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    kit = a.kit[1:] if a.kit[:1] == ["--"] else a.kit
    os.makedirs(a.out, exist_ok=True)
    calls = expected(a.agent, a.scenario, a.ws)[0][1]
    want = len(calls)
    with open(os.path.join(a.scenario, "scenario.json"), encoding="utf-8") as f:
        turns = len([t for t in json.load(f)["turns"] if not t.get("subagent")])
    last_turn = re.compile(rf"^turn {turns}(: rc=| done)", re.M)
    kit_log = os.path.join(a.out, "kit.log")
    status_file = os.path.join(a.out, "deck.status")
    screens = open(os.path.join(a.out, "screens.txt"), "w")
    env = [f"XDG_CONFIG_HOME={os.path.join(a.out, 'config')}", *a.env]
    deck_cmd = [os.path.abspath(a.deck), "follow", "--theme", "no-color", "--density", "line", *a.follow]
    script = (f"cd {shlex.quote(a.cwd)} && env {' '.join(shlex.quote(e) for e in env)} "
              f"{' '.join(shlex.quote(x) for x in deck_cmd)}; echo $? > {shlex.quote(status_file)}; sleep 600")
    print(f"follow: {' '.join(deck_cmd[1:])} (in {a.cwd}), {want} calls to see")
    kit_proc = None
    last = ""

    def fail(why):
        print(f"follow: FAIL: {why}", file=sys.stderr)
        print("---- deck's screen ----\n" + "\n".join(l for l in last.split("\n") if l.strip()), file=sys.stderr)
        if os.path.exists(kit_log):
            print("---- kit log (tail) ----\n" + "".join(open(kit_log).readlines()[-30:]), file=sys.stderr)
        if kit_proc is not None and kit_proc.poll() is None:
            kit_proc.terminate()
            kit_proc.wait(30)
        tmux("kill-server", check=False)
        sys.exit(1)

    def log_text():
        try:
            with open(kit_log) as f:
                return f.read()
        except FileNotFoundError:
            return ""

    tmux("new-session", "-d", "-s", "deck", "-x", str(COLS), "-y", str(ROWS), script)
    try:
        # 1. deck is up, and waits for the session.
        t0 = time.time()
        while time.time() - t0 < 30:
            last = screen()
            if "waiting for" in last and cards(last) == 0:
                break
            if os.path.exists(status_file):
                fail("deck follow exited before the CLI started")
            time.sleep(0.1)
        else:
            fail("deck follow did not say it waits for the session")
        flat = " ".join(l.strip() for l in last.split("\n")[:-1] if l.strip())
        print("follow: deck says: " + flat[:flat.index("waiting for")] + "waiting for …")
        # 2. The CLI plays the tour; 3. deck's screen meanwhile.
        start = time.time()
        kit_proc = subprocess.Popen(kit, stdout=open(kit_log, "w"), stderr=subprocess.STDOUT)
        seen = []  # (seconds, cards) of screens taken while the CLI ran, and LAG s after
        cli_done = None
        shown = None

        def sampling():
            if kit_proc.poll() is None:
                return True
            return cli_done is not None and time.time() - start <= cli_done + LAG

        while sampling():
            if time.time() - start > KIT_TIMEOUT:
                fail(f"the kit ran more than {KIT_TIMEOUT} s")
            text = screen()
            if cli_done is None and last_turn.search(log_text()):
                cli_done = time.time() - start
            if cli_done is None or time.time() - start <= cli_done + LAG:
                last = text
                n = cards(text)
                if n is not None and n != shown:
                    shown = n
                    seen.append((round(time.time() - start, 1), n))
                    screens.write(f"==== {time.time() - start:.1f} s: {n} cards\n{text}\n")
            time.sleep(0.1)
        kit_proc.wait()
        if kit_proc.returncode != 0:
            fail(f"the kit exited {kit_proc.returncode}")
        if cli_done is None:
            fail(f"the kit never said its last turn ({turns}) ended")
        print(f"follow: cards on deck's screen while the CLI ran and {LAG} s after (seconds, cards): {seen}")
        print(f"follow: the CLI's last turn ended at {cli_done:.1f} s, the kit at {time.time() - start:.1f} s")
        if not any(0 < n < want and t < cli_done for t, n in seen):
            fail(f"deck never showed part of the session while the CLI ran: {seen}")
        if max((n for _, n in seen), default=0) != want:
            fail(f"by {LAG} s after the CLI's last turn ended deck showed "
                 f"{max((n for _, n in seen), default=0)} cards, not the {want} calls it made: {seen}")
        # 4. Every call's line, in order, still live.
        t1 = time.time()
        while True:
            last = screen()
            missing = in_order(last, calls)
            if not missing and cards(last) == want and "● live" in status_bar(last):
                break
            if time.time() - t1 > SETTLE:
                fail(f"deck follow shows {cards(last)} cards, {want} wanted; lines missing: {missing}")
            time.sleep(0.2)
        screens.write(f"==== final\n{last}\n")
        print(f"follow: deck shows all {want} calls, each on its line, in order")
        tmux("send-keys", "-t", "deck", "q")
        t2 = time.time()
        while not os.path.exists(status_file) or not open(status_file).read().strip():
            if time.time() - t2 > 10:
                fail("deck follow did not quit on q")
            time.sleep(0.1)
        rc = int(open(status_file).read().strip())
        if rc != 0:
            fail(f"deck follow exited {rc}")
    finally:
        tmux("kill-server", check=False)
        screens.close()
    print(f"follow: {a.agent}: passed")


if __name__ == "__main__":
    main()
