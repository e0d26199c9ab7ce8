#!/usr/bin/env python3
"""Copy what pi wrote in the private HOME into the fixture's form.

usage: sanitize.py RUN_DIR OUT_DIR

RUN_DIR holds demo/ (the workspace) and home/ (pi's HOME). Copies, with the
workspace path replaced by /workspace/demo, the HOME by /home/user and the
session folder's name (`--<workspace path without its leading />--` with
every / turned into -, pi's getDefaultSessionDir) by `--workspace-demo--`
(bytes otherwise untouched: no reformatting):

  home/.pi/agent/sessions/--<cwd>--/<timestamp>_<session id>.jsonl -> OUT_DIR/<same name>
  the HOME's file tree -> OUT_DIR/files.txt (paths, sanitised)

Fails when a sanitised line no longer parses as JSON, or when a temporary
path (RUN_DIR's parent, or its session-folder form) is still in a file.
"""
import json
import os
import sys


def folder(cwd):
    return "--" + cwd.lstrip("/").replace("/", "-").replace(":", "-") + "--"


def main():
    run, out = os.path.realpath(sys.argv[1]), sys.argv[2]
    ws, home = os.path.join(run, "demo"), os.path.join(run, "home")
    for p in (ws, home):
        if any(c in p for c in '"\\'):
            raise SystemExit(f"sanitize: {p!r} would be escaped in JSON; choose another OUT_DIR")
    proj = folder(ws)
    subs = [(home.encode(), b"/home/user"), (ws.encode(), b"/workspace/demo"),
            (proj.encode(), folder("/workspace/demo").encode())]
    leaks = [os.path.dirname(run).encode(), folder(os.path.dirname(run)).strip("-").encode()]
    os.makedirs(out, exist_ok=True)
    copies, tree, bad = [], [], []
    for d, dirs, files in os.walk(os.path.join(home, ".pi")):
        dirs.sort()
        for f in sorted(files):
            src = os.path.join(d, f)
            rel = os.path.relpath(src, home)
            tree.append("~/" + rel)
            parts = rel.split(os.sep)
            if len(parts) == 5 and parts[:3] == [".pi", "agent", "sessions"] and f.endswith(".jsonl"):
                if parts[3] != proj:
                    bad.append(f"{rel}: session folder {parts[3]!r}, expected {proj!r}")
                copies.append((src, f))
    for src, name in copies:
        data = open(src, "rb").read()
        for a, b in subs:
            data = data.replace(a, b)
        for leak in leaks:
            if leak in data:
                bad.append(f"{name}: still holds {leak.decode()}")
        for n, line in enumerate(data.split(b"\n"), 1):
            if line.strip():
                try:
                    json.loads(line)
                except ValueError as e:
                    bad.append(f"{name}:{n}: does not parse after sanitising: {e}")
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
        print(f"sanitize: {os.path.relpath(src, home)} -> {name} ({len(data)} bytes)", file=sys.stderr)
    with open(os.path.join(out, "files.txt"), "w", encoding="utf-8") as f:
        f.write("# every file pi's HOME held after the run (the kit wrote models.json, settings.json"
                " and, with an fd older than 8.7, bin/fd)\n")
        for p in tree:
            for a, b in subs:
                p = p.replace(a.decode(), b.decode())
            f.write(p + "\n")
    if not copies:
        bad.append("no session file under ~/.pi/agent/sessions/*/")
    if bad:
        for b in bad:
            print(f"sanitize: FAIL: {b}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
