#!/usr/bin/env python3
"""Real-host e2e: deck drives a session, keys in, through a terminal.

usage: drive.py DECK URL WORKSPACE OUT

A DSH host (the kit's `host.sh start`, in `workspace-write` mode) must be
listening on URL. This script runs `deck record URL` (to watch what the host
does) and `deck connect URL --new --cwd WORKSPACE --preset capture` in a
pseudo-terminal, then types as a user would:

1. a message of two lines (Alt-Enter between them), sent with Enter;
2. a bracketed paste of two lines, sent with Enter;
3. the kit's turn 2: its question is answered with the option key `1`, its
   escalation approved with `y` (both focused by deck on arrival);
4. the kit's turn 3 (a long command): a message steers the running turn,
   then Ctrl-c cancels it;
5. Esc, q: deck quits with status 0.

It waits for each step in the recording, never on a clock alone, and then
checks the recording: the session deck created, the user messages as typed,
the question answered with the first option, the approval allowed once, the
long command aborted by the user and its turn ended `aborted`, and `deck
render` of the recording drawing those cards.
"""
import fcntl
import json
import os
import pty
import signal
import struct
import subprocess
import sys
import termios
import threading
import time

TIMEOUT = 60


class Pty:
    """A process on a pseudo-terminal; everything it writes is kept."""

    def __init__(self, argv, env, cols=120, rows=40):
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave,
                                     env=env, start_new_session=True, close_fds=True)
        os.close(slave)
        self.master = master
        self.out = bytearray()
        self.lock = threading.Lock()
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self):
        while True:
            try:
                b = os.read(self.master, 65536)
            except OSError:
                return
            if not b:
                return
            with self.lock:
                self.out += b

    def send(self, data):
        os.write(self.master, data.encode() if isinstance(data, str) else data)
        time.sleep(0.15)

    def tail(self, n=3000):
        with self.lock:
            text = self.out[-n:].decode("utf-8", "replace")
        # Rough: drop escape sequences so the words can be read.
        import re
        return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\x1b.", " ", text)


def messages(path):
    """Every message of the recording so far, as the host sent it."""
    out = []
    try:
        with open(path) as f:
            for line in f:
                if line.endswith("\n") and line.strip():
                    try:
                        v = json.loads(line)
                    except ValueError:
                        continue
                    out.append(v["payload"] if v.get("type") == "server-request" else v)
    except FileNotFoundError:
        pass
    return out


def events(path, sid):
    """The session's events, by seq (one each)."""
    seen = {}
    for p in messages(path):
        if p.get("type") == "session/event" and p.get("sessionId") == sid:
            seen.setdefault(p["event"]["seq"], p["event"])
    return [seen[k] for k in sorted(seen)]


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    deck, url, ws, out = sys.argv[1:]
    os.makedirs(out, exist_ok=True)
    rec = os.path.join(out, "deck-record.jsonl")
    env = dict(os.environ, TERM="xterm-256color", DECK_HISTORY=os.path.join(out, "history.jsonl"))
    recorder = subprocess.Popen([deck, "record", url, "-o", rec],
                                stdout=open(os.path.join(out, "record.log"), "w"),
                                stderr=subprocess.STDOUT)
    tui = None

    def fail(why):
        print(f"drive: FAIL: {why}", file=sys.stderr)
        if tui is not None:
            print("---- deck's terminal (escapes dropped) ----\n" + tui.tail(), file=sys.stderr)
        sys.exit(1)

    def wait(what, pred):
        start = time.time()
        while time.time() - start < TIMEOUT:
            r = pred()
            if r:
                return r
            if tui is not None and tui.proc.poll() is not None:
                fail(f"deck exited ({tui.proc.returncode}) while waiting for {what}")
            time.sleep(0.1)
        fail(f"timed out waiting for {what}")

    try:
        before = set()
        wait("the recorder to see the host", lambda: os.path.exists(rec))
        time.sleep(0.5)
        for p in messages(rec):
            if p.get("sessionId"):
                before.add(p["sessionId"])
        tui = Pty([deck, "connect", url, "--new", "--cwd", ws, "--preset", "capture",
                   "--theme", "dark"], env)

        def created():
            for p in messages(rec):
                sid = p.get("sessionId")
                if sid and sid not in before:
                    return sid
            return None
        sid = wait("the session deck creates", created)
        print(f"drive: deck created {sid}")

        def turn_ends(n):
            return lambda: len([e for e in events(rec, sid) if e["type"] == "turn/end"]) >= n

        def frame(kind, n=1):
            return lambda: len([p for p in messages(rec)
                                if p.get("type") == kind and p.get("sessionId") == sid]) >= n

        # 1. Two lines (Alt-Enter), sent with Enter (deck --new starts typing).
        time.sleep(0.5)
        tui.send("hello from deck")
        tui.send("\x1b\r")
        tui.send("a second line")
        tui.send("\r")
        wait("the first turn to end", turn_ends(1))
        # 2. A bracketed paste of two lines, then Enter.
        tui.send("\x1b[200~pasted one\npasted two\x1b[201~")
        tui.send("\r")
        wait("the second turn to end", turn_ends(2))
        # 3. Turn 2 of the kit: a question (1), then an approval (y).
        tui.send("[capture-turn-2] Probe outside writes, ask a question, then escalate.")
        tui.send("\r")
        wait("the question", frame("question/requested"))
        time.sleep(0.3)
        tui.send("1")
        wait("the answer to reach the host", frame("question/resolved"))
        wait("the approval", frame("approval/requested"))
        time.sleep(0.3)
        tui.send("y")
        wait("the approval to be resolved", frame("approval/resolved"))
        wait("the third turn to end", turn_ends(3))
        # 4. Turn 3: a long command; steer, then Ctrl-c.
        tui.send("[capture-turn-3] Run a long command.")
        tui.send("\r")

        def sleeping():
            return any(e["type"] == "tool/call" and "sleep 20" in e["data"].get("arguments", "")
                       for e in events(rec, sid))
        wait("the long command", sleeping)
        tui.send("steering words")
        tui.send("\r")
        time.sleep(0.5)
        tui.send("\x03")
        wait("the cancelled turn to end", turn_ends(4))
        # 5. Leave.
        tui.send("\x1b")
        time.sleep(1.2)
        tui.send("q")
        start = time.time()
        while tui.proc.poll() is None and time.time() - start < 10:
            time.sleep(0.1)
        if tui.proc.returncode != 0:
            fail(f"deck connect ended with {tui.proc.returncode}")
    finally:
        if tui is not None and tui.proc.poll() is None:
            os.killpg(tui.proc.pid, signal.SIGKILL)
        recorder.send_signal(signal.SIGINT)
        try:
            recorder.wait(10)
        except subprocess.TimeoutExpired:
            recorder.kill()

    # ---- what the host did, as recorded ----
    evs = events(rec, sid)
    problems = []
    users = [e for e in evs if e["type"] == "user/message"
             and (e["data"].get("source") or {}).get("kind") == "user"]

    def text_of(e):
        return "".join(c.get("text", "") for c in e["data"].get("content", []) if isinstance(c, dict))
    texts = [text_of(e) for e in users]
    want = ["hello from deck\na second line", "pasted one\npasted two",
            "[capture-turn-2] Probe outside writes, ask a question, then escalate.",
            "[capture-turn-3] Run a long command."]
    if texts != want:
        problems.append(f"user messages {texts!r}, want {want!r}")
    # Steered: the host put it in the running turn's inbox (placement "steering").
    steered = any(item.get("placement") == "steering" and "steering words" in json.dumps(item)
                  for p in messages(rec)
                  if p.get("type") == "session/queue" and p.get("sessionId") == sid
                  for item in p.get("items", []))
    if not steered:
        problems.append("the steering message never reached the session")
    q = [p for p in messages(rec) if p.get("type") == "question/resolved" and p.get("sessionId") == sid]
    if not q or q[0].get("outcome") != "answered":
        problems.append(f"question resolved as {q!r}")
    results = [e for e in evs if e["type"] == "tool/result" and "Yes (Recommended)" in json.dumps(e["data"])]
    if not results:
        problems.append("no tool result carries the chosen option 'Yes (Recommended)'")
    decided = [e["data"].get("outcome") for e in evs if e["type"] == "approval/decided"]
    if decided != ["allowed-once"]:
        problems.append(f"approvals decided {decided!r}, want ['allowed-once']")
    ends = [e["data"].get("reason", {}).get("kind") for e in evs if e["type"] == "turn/end"]
    if ends[:4] != ["completed", "completed", "completed", "aborted"]:
        problems.append(f"turn ends {ends!r}")
    render = subprocess.run([deck, "render", rec, "--session", sid, "--width", "120"],
                            capture_output=True, text=True, timeout=60)
    for want_text in ("⚑ Approval · bash", "allowed once", "? Question · Confirm", "● Yes (Recommended)",
                      "hello from deck", "pasted two", "aborted"):
        if want_text not in render.stdout:
            problems.append(f"deck render of the recording lacks {want_text!r}")
    if problems:
        for p in problems:
            print(f"drive: {p}", file=sys.stderr)
        fail(f"{len(problems)} problems")
    print(f"drive: {len(users)} messages sent with deck, question answered, approval allowed once, "
          f"turn cancelled; {len(evs)} events recorded")


if __name__ == "__main__":
    main()
