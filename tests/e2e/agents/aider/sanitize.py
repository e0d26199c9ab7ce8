#!/usr/bin/env python3
"""Copy what aider wrote in the workspace into the fixture's form.

usage: sanitize.py RUN_DIR OUT_DIR

RUN_DIR holds demo/ (the workspace, a git repository) and home/ (aider's
HOME). Copies, bytes otherwise untouched (no reformatting):

  demo/.aider.chat.history.md  -> OUT_DIR/.aider.chat.history.md
  demo/.aider.input.history    -> OUT_DIR/.aider.input.history
  the HOME's and the workspace's file lists -> OUT_DIR/files.txt

replacing the workspace path by /workspace/demo, aider's HOME and the
caller's HOME by /home/user, run.sh's OUT_DIR by /tmp/out (the
--llm-history-file's path in the logged command line) and the fake's port
(`127.0.0.1:<port>`) by `127.0.0.1:PORT`. Fails when a temporary path is
still in a file, or when the history no longer starts with `# aider chat
started at` (after its blank first line).
"""
import os
import re
import sys


def main():
    run, out = os.path.realpath(sys.argv[1]), sys.argv[2]
    ws, home = os.path.join(run, "demo"), os.path.join(run, "home")
    outer = os.path.dirname(run)
    subs = [(ws.encode(), b"/workspace/demo"), (home.encode(), b"/home/user"),
            (outer.encode(), b"/tmp/out"), (os.path.expanduser("~").encode() + b"/", b"/home/user/")]
    os.makedirs(out, exist_ok=True)
    bad = []
    for name in (".aider.chat.history.md", ".aider.input.history"):
        src = os.path.join(ws, name)
        data = open(src, "rb").read()
        for a, b in subs:
            data = data.replace(a, b)
        data = re.sub(rb"127\.0\.0\.1:\d+", b"127.0.0.1:PORT", data)
        if outer.encode() in data or run.encode() in data:
            bad.append(f"{name}: still holds {outer}")
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
        print(f"sanitize: {name} ({len(data)} bytes)", file=sys.stderr)
    history = open(os.path.join(out, ".aider.chat.history.md"), encoding="utf-8").read()
    if not history.lstrip("\n").startswith("# aider chat started at "):
        bad.append(".aider.chat.history.md: does not start with `# aider chat started at`")
    with open(os.path.join(out, "files.txt"), "w", encoding="utf-8") as f:
        f.write("# every file aider's HOME and the workspace held after the runs (not .git/)\n")
        for root, label in ((home, "~"), (ws, "/workspace/demo")):
            for d, dirs, files in os.walk(root):
                dirs[:] = sorted(x for x in dirs if x != ".git")
                for name in sorted(files):
                    f.write(label + "/" + os.path.relpath(os.path.join(d, name), root) + "\n")
    for b in bad:
        print(f"sanitize: {b}", file=sys.stderr)
    if bad:
        sys.exit(1)


if __name__ == "__main__":
    main()
