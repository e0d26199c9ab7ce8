#!/usr/bin/env python3
"""Copy what GitHub Copilot CLI wrote in the private HOME into the fixture's form.

usage: sanitize.py RUN_DIR OUT_DIR

RUN_DIR holds demo/ (the workspace) and home/ (the CLI's HOME). Copies, with
the workspace path replaced by /workspace/demo and the HOME by /home/user
(bytes otherwise untouched: no reformatting; the diffs' `a/<path>` headers
hold the workspace path without its leading `/`, replaced the same way):

  home/.copilot/session-state/<id>/events.jsonl   -> OUT_DIR/events.jsonl
  home/.copilot/session-state/<id>/workspace.yaml -> OUT_DIR/workspace.yaml
  the HOME's file tree (but the unpacked package) -> OUT_DIR/files.txt (paths,
                                      sanitised; the process logs' epoch-ms and
                                      pid names kept: they are not secret)

Not copied: session-store.db (SQLite, the CLI's index of sessions for its own
search), the process logs, rewind snapshots (file backups). Fails when a
sanitised line no longer parses as JSON, or when a temporary path (RUN_DIR's
parent) is still in a copied file.
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
    leak = os.path.dirname(run).encode()
    ch = os.path.join(home, ".copilot")
    os.makedirs(out, exist_ok=True)
    copies, tree, bad = [], [], []
    for d, dirs, files in os.walk(home):
        dirs.sort()
        for f in sorted(files):
            src = os.path.join(d, f)
            rel = os.path.relpath(src, home)
            tree.append("~/" + rel)
            parts = rel.split(os.sep)
            if len(parts) == 4 and parts[:2] == [".copilot", "session-state"] and f in ("events.jsonl", "workspace.yaml"):
                copies.append((src, f))
    sessions = {os.path.dirname(s) for s, _ in copies}
    if len(sessions) != 1:
        bad.append(f"{len(sessions)} sessions under ~/.copilot/session-state/ (want 1)")
    for src, name in copies:
        data = open(src, "rb").read()
        for a, b in subs:
            data = data.replace(a, b)
        if leak in data:
            bad.append(f"{name}: still holds {leak.decode()}")
        if name.endswith(".jsonl"):
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
        f.write("# every file the CLI's HOME held after the run\n")
        for p in tree:
            for a, b in subs:
                p = p.replace(a.decode(), b.decode())
            f.write(p + "\n")
    if not any(n == "events.jsonl" for _, n in copies):
        bad.append("no events.jsonl under ~/.copilot/session-state/<id>/")
    if bad:
        for b in bad:
            print(f"sanitize: FAIL: {b}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
