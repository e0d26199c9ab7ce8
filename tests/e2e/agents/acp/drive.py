#!/usr/bin/env python3
"""`deck acp`, in tmux, drives the real Claude Code ACP adapter through a scenario.

usage: drive.py --deck DECK --node NODE --adapter INDEX_JS --scenario DIR --work DIR

deck replaces the kit's own scripted client (the capture kit's driver.py):
the user's keys go to deck's terminal view, and deck speaks ACP.

1. The workspace (`WORK/ws`, from the scenario's `workspace/`) and a
   private HOME are made; `fake_anthropic.py` (the scripted model) starts
   on a free port of 127.0.0.1 with the scenario (`{{WS}}`, `{{HOME}}`
   filled in).
2. `deck acp --cwd WS --record WORK/rec.jsonl -- timeout … NODE INDEX_JS`
   starts in a tmux window of its own server (200x250, `--density line`,
   no colours), with the kit's environment for the agent (ANTHROPIC_BASE_URL
   on the fake model, a private HOME, IS_SANDBOX=1, the caller's
   ANTHROPIC_*, CLAUDE_*, OTEL_* variables removed).
3. For each turn of the scenario: the prompt is typed into deck's composer
   and sent with Enter. While the turn runs, the recording (written by deck
   as it goes) says what the agent asks:
   * a permission request: once deck's screen shows the approval focused
     (`y allow once · n reject`), `y` is pressed, or `n` when a `permissions`
     rule of the scenario (`{"match": substring of the toolCall JSON, "kind":
     "reject_once"}`) matches, as the kit's driver decided; a rule of kind
     `cancel` (deck's own) has Ctrl-c cancel the turn on the approval
     instead, which deck answers `cancelled`;
   * a `terminal/create` whose command holds the turn's `cancel_on_command`:
     `cancel_after_s` later, once its card is on the screen, Ctrl-c.
   The turn is over when deck's recording has the `session/prompt` answer.
4. Every screen is kept (WORK/screens.txt); the lines seen while the agent
   ran go to WORK/seen.txt for check.py. Esc, then `q`, ends deck, which must
   exit 0 and leave nothing it started running (no process left whose
   working directory is the workspace: the agent, the CLI it runs, the
   terminals' commands and their children).

The decisions taken are written to WORK/decisions.json.
"""
import argparse
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time

SOCKET = f"deck-e2e-acp-{os.getpid()}"
COLS, ROWS = 200, 250
TURN_TIMEOUT = 120
APPROVAL_HINT = "y allow once · n reject"


def subst(v, m):
    if isinstance(v, str):
        for k, x in m.items():
            v = v.replace("{{" + k + "}}", x)
        return v
    if isinstance(v, list):
        return [subst(x, m) for x in v]
    if isinstance(v, dict):
        return {k: subst(x, m) for k, x in v.items()}
    return v


def tmux(*args, check=True):
    r = subprocess.run(["tmux", "-L", SOCKET, *args], capture_output=True, text=True, timeout=20)
    if check and r.returncode != 0:
        raise RuntimeError(f"tmux {' '.join(args)}: {r.stderr.strip()}")
    return r.stdout


class Recording:
    """deck's recording, read as it grows: the JSON-RPC messages both ways."""

    def __init__(self, path):
        self.path, self.at, self.lines, self.rest = path, 0, [], b""

    def poll(self):
        try:
            with open(self.path, "rb") as f:
                f.seek(self.at)
                data = f.read()
        except FileNotFoundError:
            return
        self.at += len(data)
        data = self.rest + data
        *whole, self.rest = data.split(b"\n")
        for line in whole:
            if line.strip():
                self.lines.append(json.loads(line))

    def requests(self, method, by="agent->client"):
        return [l["msg"] for l in self.lines if l.get("dir") == by and l.get("msg", {}).get("method") == method]

    def answer(self, rpc_id, by="client->agent"):
        for l in self.lines:
            m = l.get("msg", {})
            if l.get("dir") == by and "method" not in m and m.get("id") == rpc_id:
                return m
        return None


class Driver:
    def __init__(self, a):
        self.a = a
        self.work = os.path.abspath(a.work)
        self.rec = Recording(os.path.join(self.work, "rec.jsonl"))
        self.screens = open(os.path.join(self.work, "screens.txt"), "w")
        self.seen = set()
        self.last = ""
        self.decisions = []
        self.status_file = os.path.join(self.work, "deck.status")
        self.server = None

    # ---- the screen ------------------------------------------------------
    def screen(self):
        text = tmux("capture-pane", "-p", "-t", "deck", check=False)
        if text != self.last:
            self.last = text
            self.screens.write(f"==== {time.time() - self.t0:.1f} s\n{text}\n")
            self.seen.update(l.strip() for l in text.split("\n") if l.strip())
        return text

    def keys(self, *keys, literal=False):
        tmux("send-keys", "-t", "deck", *(["-l"] if literal else []), *keys)

    def fail(self, why):
        print(f"drive: FAIL: {why}", file=sys.stderr)
        print("---- deck's screen ----\n" + "\n".join(l for l in self.last.split("\n") if l.strip()),
              file=sys.stderr)
        err = os.path.join(self.work, "deck.stderr")
        if os.path.exists(err) and os.path.getsize(err):
            print("---- deck's stderr ----\n" + open(err).read()[-3000:], file=sys.stderr)
        raise SystemExit(1)

    def wait(self, what, cond, timeout=30):
        t = time.time()
        while True:
            self.rec.poll()
            s = self.screen()
            r = cond(s)
            if r:
                return r
            if os.path.exists(self.status_file) and open(self.status_file).read().strip():
                self.fail(f"deck exited while waiting for {what}")
            if time.time() - t > timeout:
                self.fail(f"no {what} after {timeout} s")
            time.sleep(0.1)

    # ---- setup -----------------------------------------------------------
    def setup(self):
        a, work = self.a, self.work
        self.ws, self.home = os.path.join(work, "ws"), os.path.join(work, "home")
        shutil.copytree(os.path.join(a.scenario, "workspace"), self.ws)
        for root, dirs, files in os.walk(self.ws):
            for n in dirs + files:
                os.chmod(os.path.join(root, n), 0o755 if n in dirs else 0o644)
        # What the rejected `rm -rf src/__pycache__` would remove.
        os.makedirs(os.path.join(self.ws, "src", "__pycache__"))
        with open(os.path.join(self.ws, "src", "__pycache__", "keep.txt"), "w") as f:
            f.write("removed only if the rejected command ran\n")
        os.makedirs(self.home)
        with open(os.path.join(a.scenario, "scenario.json"), encoding="utf-8") as f:
            self.scen = subst(json.load(f), {"WS": self.ws, "HOME": self.home})
        script = os.path.join(work, "script.json")
        with open(script, "w", encoding="utf-8") as f:
            json.dump(self.scen, f, ensure_ascii=False, indent=1)
        port_file = os.path.join(work, "port")
        total = TURN_TIMEOUT * (len(self.scen["turns"]) + 2)
        self.total = total
        here = os.path.dirname(os.path.abspath(__file__))
        self.server = subprocess.Popen(
            ["timeout", str(total), sys.executable, os.path.join(here, "..", "claude-code", "fake_anthropic.py"),
             "--script", script, "--log", os.path.join(work, "requests.jsonl"), "--port-file", port_file],
            stdout=open(os.path.join(work, "fake-server.log"), "w"), stderr=subprocess.STDOUT)
        for _ in range(100):
            if os.path.exists(port_file):
                break
            time.sleep(0.1)
        else:
            raise SystemExit("drive: FAIL: the fake model did not start (fake-server.log)")
        self.port = open(port_file).read().strip()

    def agent_env(self):
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("ANTHROPIC_", "CLAUDE_", "OTEL_", "ACP_", "TMUX"))}
        # The tests the agent runs write their bytecode (src/__pycache__).
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env.update({
            "HOME": self.home,
            "XDG_CONFIG_HOME": os.path.join(self.work, "config"),
            "ANTHROPIC_BASE_URL": f"http://127.0.0.1:{self.port}",
            "ANTHROPIC_API_KEY": "sk-fake",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_TELEMETRY": "1",
            "DISABLE_AUTOUPDATER": "1",
            "DISABLE_ERROR_REPORTING": "1",
            "NO_PROXY": "127.0.0.1,localhost",
            "IS_SANDBOX": "1",
        })
        env.update(self.scen.get("env", {}))
        return env

    def start_deck(self):
        a = self.a
        cmd = [os.path.abspath(a.deck), "acp", "--theme", "no-color", "--density", "line",
               "--cwd", self.ws, "--record", self.rec.path, "--",
               "timeout", "-k", "5", str(self.total), a.node, a.adapter]
        script = (f"cd {shlex.quote(self.work)} && {' '.join(shlex.quote(x) for x in cmd)} "
                  f"2> {shlex.quote(os.path.join(self.work, 'deck.stderr'))}; "
                  f"echo $? > {shlex.quote(self.status_file)}; sleep 600")
        print(f"drive: deck acp --cwd WS --record rec.jsonl -- timeout … node …/claude-code-acp/dist/index.js")
        self.t0 = time.time()
        subprocess.run(["tmux", "-L", SOCKET, "new-session", "-d", "-s", "deck", "-x", str(COLS),
                        "-y", str(ROWS), script], env=self.agent_env(), check=True, timeout=20)

    # ---- a turn ----------------------------------------------------------
    def composer_ready(self, s):
        """The composer has the keys (deck's hint for an idle session)."""
        if "message · Enter sends" in s:
            return True
        if "i or Tab to type a message" in s:
            self.keys("i")
        return False

    def rules(self, turn):
        return (turn.get("permissions") or []) + (self.scen.get("permissions") or [])

    def decided(self):
        s = self.last
        return s.count("allowed once") + s.count("rejected once")

    def turn(self, n, turn):
        self.wait("deck's composer (to type a prompt)", self.composer_ready)
        prompts_before = len(self.rec.requests("session/prompt", by="client->agent"))
        terminals_before = len(self.rec.requests("terminal/create"))
        cancels_before = len(self.rec.requests("session/cancel", by="client->agent"))
        self.keys(turn["prompt"], literal=True)
        self.wait("the prompt in the composer", lambda s: turn["prompt"][:60] in s.replace("\n", ""))
        self.keys("Enter")
        prompt = self.wait("the session/prompt sent", lambda s: (
            self.rec.requests("session/prompt", by="client->agent")[prompts_before:] or [None])[0])
        if prompt["params"]["prompt"][0]["text"] != turn["prompt"]:
            self.fail(f"deck sent {prompt['params']['prompt']!r}, not the typed prompt")
        started, handled, cancel_at = time.time(), set(), None
        while True:
            self.rec.poll()
            s = self.screen()
            end = self.rec.answer(prompt["id"], by="agent->client")
            if end is not None:
                stop = (end.get("result") or {}).get("stopReason")
                print(f"drive: turn {n}: {stop} after {time.time() - started:.1f} s")
                return stop
            for req in self.rec.requests("session/request_permission"):
                if req["id"] in handled or self.rec.answer(req["id"]) is not None:
                    continue
                self.permission(req, turn)
                handled.add(req["id"])
            want = turn.get("cancel_on_command")
            if want and cancel_at is None:
                for req in self.rec.requests("terminal/create")[terminals_before:]:
                    if want in req["params"].get("command", ""):
                        cancel_at = time.time() + float(turn.get("cancel_after_s", 1))
                        self.cancel_command = req["params"]["command"]
            if cancel_at is not None and cancel_at <= time.time() and cancel_at > 0:
                self.wait("the running command's card", lambda s: self.cancel_command[:40] in s)
                print(f"drive: turn {n}: Ctrl-c while `{self.cancel_command[:40]}…` runs")
                self.keys("C-c")
                self.decisions.append({"turn": n, "cancel": self.cancel_command})
                cancel_at = -1
                self.wait("deck's session/cancel after Ctrl-c",
                          lambda s: self.rec.requests("session/cancel", by="client->agent")[cancels_before:], 10)
            if time.time() - started > TURN_TIMEOUT:
                self.fail(f"turn {n} did not end in {TURN_TIMEOUT} s")
            time.sleep(0.1)

    def permission(self, req, turn):
        call = req["params"].get("toolCall") or {}
        blob = json.dumps(call, ensure_ascii=False)
        kinds = [r.get("kind", "") for r in self.rules(turn) if r["match"] in blob]
        before = len([d for d in self.decisions if d.get("key") in ("y", "n")])
        # The approval has the keys, and the screen is newer than the last decision.
        self.wait(f"the approval of `{call.get('title')}` focused on deck's screen",
                  lambda s: APPROVAL_HINT in s and self.decided() >= before)
        if "cancel" in kinds:
            key, want = "C-c", "cancelled"
        elif any(k.startswith("reject") for k in kinds):
            key, want = "n", "reject_once"
        else:
            key, want = "y", "allow_once"
        self.keys(key)
        self.decisions.append({"permission": call.get("toolCallId"), "title": call.get("title"), "key": key})
        ans = self.wait("deck's answer to the permission request", lambda s: self.rec.answer(req["id"]), 10)
        outcome = (ans.get("result") or {}).get("outcome") or {}
        options = {o["optionId"]: o["kind"] for o in req["params"].get("options", [])}
        got = options.get(outcome.get("optionId")) or outcome.get("outcome")
        if got != want:
            self.fail(f"`{key}` answered {call.get('title')!r} with {ans}, not {want}")

    # ---- the whole run ---------------------------------------------------
    def run(self):
        self.setup()
        self.start_deck()
        self.wait("the session open in deck's view", lambda s: "acp timeout" in s and "message · Enter" in s, 60)
        stops = []
        for n, turn in enumerate((t for t in self.scen["turns"] if not t.get("subagent")), 1):
            stops.append(self.turn(n, turn))
        time.sleep(1)  # the last updates drawn
        self.wait("the last turn's end drawn", lambda s: "steer ›" not in s, 10)
        with open(os.path.join(self.work, "final-screen.txt"), "w") as f:
            f.write(self.screen())
        self.keys("Escape")
        time.sleep(0.3)
        self.keys("q")
        t = time.time()
        while not (os.path.exists(self.status_file) and open(self.status_file).read().strip()):
            if time.time() - t > 15:
                self.fail("deck acp did not exit on Esc q")
            time.sleep(0.1)
        rc = int(open(self.status_file).read().strip())
        if rc != 0:
            self.fail(f"deck acp exited {rc}")
        # Nothing deck started (the agent, the CLI it runs, the terminals'
        # commands and their children) outlives it.
        t = time.time()
        while left := self.left_running():
            if time.time() - t > 3:
                self.fail("still running after deck exited: " + "; ".join(left))
            time.sleep(0.1)
        with open(os.path.join(self.work, "seen.txt"), "w") as f:
            f.write("\n".join(sorted(self.seen)) + "\n")
        with open(os.path.join(self.work, "decisions.json"), "w") as f:
            json.dump({"stops": stops, "decisions": self.decisions}, f, indent=1, ensure_ascii=False)
        keys = [d["key"] for d in self.decisions if "permission" in d]
        print(f"drive: {len(stops)} turns ({', '.join(stops)}); permissions: {keys.count('y')} allowed "
              f"with y, {keys.count('n')} rejected with n, {keys.count('C-c')} cancelled with Ctrl-c; "
              f"deck exited 0")

    def left_running(self):
        """Processes whose working directory is the workspace (the agent's,
        its terminals')."""
        left = []
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                cwd = os.readlink(f"/proc/{pid}/cwd")
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    cmd = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
            except OSError:
                continue
            if cmd and (cwd == self.ws or cwd.startswith(self.ws + os.sep)):
                left.append(f"{pid} {cmd[:80]}")
        return left

    def close(self):
        tmux("kill-server", check=False)
        if self.server is not None and self.server.poll() is None:
            self.server.send_signal(signal.SIGTERM)
            try:
                self.server.wait(5)
            except subprocess.TimeoutExpired:
                self.server.kill()
        self.screens.close()


def main():
    ap = argparse.ArgumentParser()
    for opt in ("--deck", "--node", "--adapter", "--scenario", "--work"):
        ap.add_argument(opt, required=True)
    d = Driver(ap.parse_args())
    try:
        d.run()
    finally:
        d.close()


if __name__ == "__main__":
    main()
