#!/usr/bin/env python3
"""Copy what the Cline CLI wrote in the private HOME into the fixture's form.

usage: sanitize.py RUN_DIR OUT_DIR

RUN_DIR holds demo/ (the workspace) and home/ (the CLI's HOME). Copies, with
the workspace path replaced by /workspace/demo and the HOME by /home/user
(bytes otherwise untouched: no reformatting):

  home/.cline/data/sessions/<id>/<id>.json           -> OUT_DIR/<id>/<id>.json
        (the session's manifest: status, exit_code, provider, model, cwd,
        prompt, usage)
  home/.cline/data/sessions/<id>/<id>.messages.json  -> OUT_DIR/<id>/<id>.messages.json
        (its conversation: one JSON document, rewritten whole as it grows)
  the HOME's file tree                               -> OUT_DIR/files.txt
        (paths, sanitised; the SQLite databases are not kept)

Fails when a sanitised file no longer parses as JSON, or when a temporary
path (RUN_DIR's parent) is still in a file.
"""
import json
import os
import sys


def main():
    run, out = os.path.realpath(sys.argv[1]), sys.argv[2]
    ws, home = os.path.join(run, "demo"), os.path.join(run, "home")
    for p in (ws, home):
        if any(c in p for c in '"\\'):
            raise SystemExit(f"sanitize: {p!r} would be escaped in JSON; choose another OUT_DIR")
    subs = [(home.encode(), b"/home/user"), (ws.encode(), b"/workspace/demo")]
    leaks = [os.path.dirname(run).encode()]
    root = os.path.join(home, ".cline")
    os.makedirs(out, exist_ok=True)
    copies, tree, bad = [], [], []
    for d, dirs, files in os.walk(root):
        dirs.sort()
        for f in sorted(files):
            src = os.path.join(d, f)
            rel = os.path.relpath(src, home)
            tree.append("~/" + rel)
            parts = rel.split(os.sep)
            if len(parts) == 5 and parts[1:3] == ["data", "sessions"] and f in (parts[3] + ".json", parts[3] + ".messages.json"):
                copies.append((src, os.path.join(parts[3], f)))
    for src, name in copies:
        data = open(src, "rb").read()
        for a, b in subs:
            data = data.replace(a, b)
        for leak in leaks:
            if leak in data:
                bad.append(f"{name}: still holds {leak.decode()}")
        try:
            json.loads(data)
        except ValueError as e:
            bad.append(f"{name}: does not parse after sanitising: {e}")
        os.makedirs(os.path.join(out, os.path.dirname(name)), exist_ok=True)
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
        print(f"sanitize: {os.path.relpath(src, home)} -> {name} ({len(data)} bytes)", file=sys.stderr)
    with open(os.path.join(out, "files.txt"), "w", encoding="utf-8") as f:
        f.write("# every file the CLI's HOME held after the run (`cline auth` wrote settings/providers.json)\n")
        for p in tree:
            for a, b in subs:
                p = p.replace(a.decode(), b.decode())
            f.write(p + "\n")
    if not any(n.endswith(".messages.json") for _, n in copies):
        bad.append("no session under ~/.cline/data/sessions/<id>/")
    if bad:
        for b in bad:
            print(f"sanitize: FAIL: {b}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
