#!/usr/bin/env python3
"""Real-host e2e: deck drives a session, keys in, through a terminal.

usage: drive.py DECK URL WORKSPACE OUT

A DSH host (the kit's `host.sh start`, in `workspace-write` mode) must be
listening on URL. This script runs `deck record URL` (to see what the host
does) and `deck connect URL --new --cwd WORKSPACE --preset capture` in tmux
(its own server), then types as a user would, reading deck's screen:

1. a message of two lines (Alt-Enter between them), sent with Enter;
2. a bracketed paste of two lines, sent with Enter;
3. the kit's turn 2: its question is answered with the option key `1`, its
   escalation approved with `y`, each once deck shows it focused;
4. the kit's turn 3 (a long command): a message steers the running turn,
   then Ctrl-c cancels it;
5. Esc, q: deck quits with status 0.

Each step waits for deck's screen or the recording, never on a clock alone.
Then it checks the recording: the session deck created, the user messages as
typed, the steer, the question answered with the first option, the approval
allowed once, the long command's turn ended `aborted`, and `deck render` of
the recording drawing those cards.
"""
import json
import os
import shlex
import signal
import subprocess
import sys
import time

TIMEOUT = 60
SOCKET = f"deck-e2e-{os.getpid()}"


def tmux(*args, check=True):
    r = subprocess.run(["tmux", "-L", SOCKET, *args], capture_output=True, text=True, timeout=20)
    if check and r.returncode != 0:
        raise RuntimeError(f"tmux {' '.join(args)}: {r.stderr.strip()}")
    return r.stdout


class Tmux:
    """deck in a tmux window of its own server: keys in, the screen out."""

    def __init__(self, argv, env, status_file, cols=120, rows=40):
        cmd = " ".join(shlex.quote(a) for a in argv)
        envs = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
        script = f"env {envs} {cmd}; echo $? > {shlex.quote(status_file)}; sleep 600"
        tmux("new-session", "-d", "-s", "deck", "-x", str(cols), "-y", str(rows), script)
        self.status_file = status_file

    def keys(self, *keys):
        tmux("send-keys", "-t", "deck", *keys)
        time.sleep(0.1)

    def text(self, s):
        tmux("send-keys", "-t", "deck", "-l", s)
        time.sleep(0.1)

    def paste(self, s):
        # -p: bracketed, as the terminal does when the app asked for it.
        tmux("set-buffer", "-b", "e2e", s)
        tmux("paste-buffer", "-p", "-b", "e2e", "-t", "deck")
        time.sleep(0.1)

    def screen(self):
        return tmux("capture-pane", "-p", "-t", "deck", check=False)

    def exited(self):
        try:
            with open(self.status_file) as f:
                return int(f.read().strip() or "-1")
        except (FileNotFoundError, ValueError):
            return None

    def close(self):
        tmux("kill-server", check=False)


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
    env = {"DECK_HISTORY": os.path.join(out, "history.jsonl"), "XDG_CONFIG_HOME": os.path.join(out, "config")}
    recorder = subprocess.Popen([deck, "record", url, "-o", rec],
                                stdout=open(os.path.join(out, "record.log"), "w"),
                                stderr=subprocess.STDOUT)
    tui = None

    def fail(why):
        print(f"drive: FAIL: {why}", file=sys.stderr)
        if tui is not None:
            print("---- deck's screen ----\n" + tui.screen(), file=sys.stderr)
            tui.close()
        sys.exit(1)

    def wait(what, pred):
        start = time.time()
        while time.time() - start < TIMEOUT:
            r = pred()
            if r:
                return r
            if tui is not None and tui.exited() is not None:
                fail(f"deck exited ({tui.exited()}) while waiting for {what}")
            time.sleep(0.1)
        fail(f"timed out waiting for {what}")

    try:
        before = set()
        wait("the recorder to see the host", lambda: os.path.exists(rec))
        time.sleep(0.5)
        for p in messages(rec):
            if p.get("sessionId"):
                before.add(p["sessionId"])
        tui = Tmux([deck, "connect", url, "--new", "--cwd", ws, "--preset", "capture",
                    "--theme", "dark"], env, os.path.join(out, "deck.status"))

        def shows(text):
            return lambda: text in tui.screen()

        def status_bar(text):
            return lambda: text in (tui.screen().rstrip("\n").split("\n") or [""])[-1]

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
        wait("deck's message field", shows("message · Enter sends"))
        tui.text("hello from deck")
        tui.keys("M-Enter")
        tui.text("a second line")
        wait("two lines in the field", shows("  a second line"))
        tui.keys("Enter")
        wait("the first turn to end", turn_ends(1))
        # 2. A bracketed paste of two lines, then Enter.
        tui.paste("pasted one\npasted two")
        wait("the paste in the field", shows("  pasted two"))
        tui.keys("Enter")
        wait("the second turn to end", turn_ends(2))
        # 3. Turn 2 of the kit: a question (1), then an approval (y), each
        # answered once deck shows it focused.
        tui.text("[capture-turn-2] Probe outside writes, ask a question, then escalate.")
        tui.keys("Enter")
        wait("the question, focused", status_bar("question: 1–2 choose"))
        tui.keys("1")
        wait("the answer to reach the host", frame("question/resolved"))
        wait("the approval, focused", status_bar("approval: y allow once · n reject"))
        if "$ echo probe > /var/tmp/dsh-capture-probe.txt" not in tui.screen():
            fail("the approval does not show the command it would run")
        tui.keys("y")
        wait("the approval to be resolved", frame("approval/resolved"))
        wait("the third turn to end", turn_ends(3))
        # 4. Turn 3: a long command; steer, then Ctrl-c.
        wait("the message field back", shows("message · Enter sends"))
        tui.text("[capture-turn-3] Run a long command.")
        tui.keys("Enter")

        def sleeping():
            return any(e["type"] == "tool/call" and "sleep 20" in e["data"].get("arguments", "")
                       for e in events(rec, sid))
        wait("the long command", sleeping)
        wait("the steer label", shows("steer › "))
        tui.text("steering words")
        tui.keys("Enter")
        wait("the steer to be sent", status_bar("sent into the running turn"))
        tui.keys("C-c")
        wait("the cancelled turn to end", turn_ends(4))
        # 5. Leave.
        tui.keys("Escape")
        wait("the transcript keys", shows("i or Tab to type a message"))
        tui.keys("q")
        wait("deck to quit", lambda: tui.exited() is not None)
        if tui.exited() != 0:
            fail(f"deck connect ended with {tui.exited()}")
    finally:
        if tui is not None:
            tui.close()
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
    # The approval is drawn on the card of the call it gated (a pill), not
    # as a card of its own.
    for want_text in ("⚑ allowed once", "? Question · Confirm", "● Yes (Recommended)",
                      "hello from deck", "pasted two", "aborted"):
        if want_text not in render.stdout:
            problems.append(f"deck render of the recording lacks {want_text!r}")
    if "⚑ Approval" in render.stdout:
        problems.append("deck render of the recording draws the approval as a card of its own")
    if problems:
        for p in problems:
            print(f"drive: {p}", file=sys.stderr)
        fail(f"{len(problems)} problems")
    print(f"drive: {len(users)} messages sent with deck, question answered, approval allowed once, "
          f"turn cancelled; {len(evs)} events recorded")


if __name__ == "__main__":
    main()
