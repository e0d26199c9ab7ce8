#!/usr/bin/env python3
"""Copy what Gemini CLI wrote in the private HOME into the fixture's form.

usage: sanitize.py RUN_DIR OUT_DIR

RUN_DIR holds demo/ (the workspace) and home/ (the CLI's HOME). Copies, with
the workspace path replaced by /workspace/demo and the HOME by /home/user
and the header's projectHash (sha256 of the workspace's path) by the
sha256 of /workspace/demo (bytes otherwise untouched: no reformatting):

  home/.gemini/tmp/<project>/chats/session-*.jsonl (and any session-*.json)
                                   -> OUT_DIR/<same name>
  home/.gemini/projects.json       -> OUT_DIR/projects.json
  home/.gemini/tmp/<project>/.project_root -> OUT_DIR/.project_root
  the HOME's file tree             -> OUT_DIR/files.txt (paths, sanitised: an
                                      older CLI names tmp/<sha256 of the path>)

Fails when a sanitised line of a .jsonl no longer parses as JSON (or a .json
file), or when a temporary path (RUN_DIR's parent) is still in a file.
"""
import hashlib
import json
import os
import sys


def main():
    run, out = os.path.realpath(sys.argv[1]), sys.argv[2]
    ws, home = os.path.join(run, "demo"), os.path.join(run, "home")
    for p in (ws, home):
        if any(c in p for c in '"\\'):
            raise SystemExit(f"sanitize: {p!r} would be escaped in JSON; choose another OUT_DIR")
    # projectHash is the sha256 of the workspace's path: the sanitised path's.
    sha = lambda p: hashlib.sha256(p.encode()).hexdigest().encode()
    subs = [(home.encode(), b"/home/user"), (ws.encode(), b"/workspace/demo"),
            (sha(ws), sha("/workspace/demo"))]
    leak = os.path.dirname(run).encode()
    gem = os.path.join(home, ".gemini")
    os.makedirs(out, exist_ok=True)
    copies = []
    tree = []
    for d, dirs, files in os.walk(gem):
        dirs.sort()
        for f in sorted(files):
            src = os.path.join(d, f)
            rel = os.path.relpath(src, home)
            tree.append("~/" + rel)
            parts = rel.split(os.sep)
            if f.startswith("session-") and parts[-2] == "chats":
                copies.append((src, f))
            elif rel == os.path.join(".gemini", "projects.json"):
                copies.append((src, "projects.json"))
            elif f == ".project_root" and parts[1] == "tmp":
                copies.append((src, ".project_root"))
    bad = []
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
        elif name.endswith(".json"):
            try:
                json.loads(data)
            except ValueError as e:
                bad.append(f"{name}: does not parse after sanitising: {e}")
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
        print(f"sanitize: {os.path.relpath(src, home)} -> {name} ({len(data)} bytes)", file=sys.stderr)
    with open(os.path.join(out, "files.txt"), "w", encoding="utf-8") as f:
        f.write("# every file the CLI's HOME held after the run (the kit wrote settings.json)\n")
        for p in tree:
            for a, b in subs:
                p = p.replace(a.decode(), b.decode())
            f.write(p + "\n")
    if not any(n.startswith("session-") for _, n in copies):
        bad.append("no session file under ~/.gemini/tmp/*/chats/")
    if bad:
        for b in bad:
            print(f"sanitize: FAIL: {b}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
