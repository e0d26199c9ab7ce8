#!/usr/bin/env python3
"""Copy the trajectory mini-swe-agent wrote into the fixture's form.

usage: sanitize.py RUN_DIR TRAJ OUT_FILE

RUN_DIR holds demo/ (the workspace) and home/ (the CLI's HOME). Copies TRAJ
(one JSON document, `json.dumps(data, indent=2)`) to OUT_FILE with the
workspace path replaced by /workspace/demo and the HOME by /home/user, bytes
otherwise untouched (no reformatting). Fails when the result no longer parses
as JSON, or when a temporary path (RUN_DIR's parent) is still in it.
"""
import json
import os
import sys


def main():
    run, traj, out = os.path.realpath(sys.argv[1]), sys.argv[2], sys.argv[3]
    ws, home = os.path.join(run, "demo"), os.path.join(run, "home")
    for p in (ws, home):
        if any(c in p for c in '"\\'):
            raise SystemExit(f"sanitize: {p!r} would be escaped in JSON; choose another OUT_DIR")
    data = open(traj, "rb").read()
    for a, b in ((home.encode(), b"/home/user"), (ws.encode(), b"/workspace/demo")):
        data = data.replace(a, b)
    json.loads(data)
    if os.path.dirname(run).encode() in data:
        raise SystemExit(f"sanitize: {os.path.dirname(run)} is still in {out}")
    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
    with open(out, "wb") as f:
        f.write(data)


if __name__ == "__main__":
    main()
