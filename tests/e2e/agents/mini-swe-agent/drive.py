#!/usr/bin/env python3
"""Drive the real `mini` CLI in a pseudo-terminal and answer its prompts from a scenario.

    drive.py SCENARIO_JSON TRANSCRIPT TIMEOUT -- mini ARGS...

mini-swe-agent's interactive agent (confirm mode, the CLI's default) asks on its
terminal before each batch of actions ("Execute N action(s)? Enter to confirm,
type comment to reject") and when the model submits ("Agent wants to finish.
Type new task or Enter to quit"); both are prompt_toolkit prompts, so they need a
terminal (run.sh sets TERM=dumb: prompt_toolkit then reads a plain line). This
driver runs the command under a pty, waits for each prompt, checks that it is
the kind the scenario's next `answers` entry expects ("confirm" or "finish"),
and types that entry's `say` and Enter. Everything the CLI printed goes to
TRANSCRIPT. Exits with the CLI's status; 3 when a prompt does not match the
script, the script runs out, or TIMEOUT seconds pass. Stdlib only.
"""
import json
import os
import pty
import re
import select
import sys
import time

PROMPTS = [("confirm", re.compile(r"Execute \d+ action\(s\)\?")), ("finish", re.compile(r"Agent wants to finish\."))]
ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07")


def main():
    scen, transcript, timeout = sys.argv[1], sys.argv[2], float(sys.argv[3])
    cmd = sys.argv[sys.argv.index("--") + 1:]
    answers = json.load(open(scen, encoding="utf-8")).get("answers", [])
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp(cmd[0], cmd)
    out = open(transcript, "w", encoding="utf-8")
    seen = ""  # the screen text since the last answered prompt, escapes stripped
    deadline = time.time() + timeout
    status = None
    while True:
        if time.time() > deadline:
            print(f"drive.py: timed out after {timeout:.0f} s", file=sys.stderr)
            os.kill(pid, 9)
            status = 3
            break
        r, _, _ = select.select([fd], [], [], 0.2)
        if r:
            try:
                data = os.read(fd, 4096)
            except OSError:
                data = b""
            if not data:
                break
            text = data.decode("utf-8", "replace")
            out.write(text)
            out.flush()
            seen += ANSI.sub("", text)
            for kind, rx in PROMPTS:
                if rx.search(seen):
                    if not answers:
                        print(f"drive.py: a {kind} prompt past the script's answers", file=sys.stderr)
                        os.kill(pid, 9)
                        sys.exit(3)
                    a = answers.pop(0)
                    if a["at"] != kind:
                        print(f"drive.py: a {kind} prompt where the script expects {a['at']}", file=sys.stderr)
                        os.kill(pid, 9)
                        sys.exit(3)
                    time.sleep(0.2)  # let prompt_toolkit start reading
                    os.write(fd, (a["say"] + "\r").encode())
                    seen = ""
                    break
    _, st = os.waitpid(pid, 0)
    out.close()
    if status is not None:
        sys.exit(status)
    if answers:
        print(f"drive.py: {len(answers)} scripted answers left unused", file=sys.stderr)
        sys.exit(3)
    sys.exit(os.waitstatus_to_exitcode(st))


if __name__ == "__main__":
    main()
