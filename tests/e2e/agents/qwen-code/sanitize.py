#!/usr/bin/env python3
"""Copy what Qwen Code wrote in the private HOME into the fixture's form.

usage: sanitize.py RUN_DIR OUT_DIR

RUN_DIR holds demo/ (the workspace) and home/ (the CLI's HOME). Copies, with
the workspace path replaced by /workspace/demo, the HOME by /home/user and
the project folder's name (the workspace path with every character outside
[a-zA-Z0-9] turned into `-`, Qwen Code's sanitizeCwd) by `-workspace-demo`
(bytes otherwise untouched: no reformatting):

  home/.qwen/projects/<project>/chats/<session id>.jsonl -> OUT_DIR/<same name>
  home/.qwen/usage_record.jsonl    -> OUT_DIR/usage_record.jsonl (one line per
                                      run: the session id, project, durations,
                                      per-tool counts)
  the HOME's file tree             -> OUT_DIR/files.txt (paths, sanitised;
                                      `.openai-logs-cleanup-<16 hex>`, a
                                      marker named by the sha256 of a log
                                      folder's temporary path, loses its hex)

Fails when a sanitised line no longer parses as JSON, or when a temporary
path (RUN_DIR's parent, or the project folder's temporary name) is still in a
file.
"""
import json
import os
import re
import sys


def main():
    run, out = os.path.realpath(sys.argv[1]), sys.argv[2]
    ws, home = os.path.join(run, "demo"), os.path.join(run, "home")
    for p in (ws, home):
        if any(c in p for c in '"\\'):
            raise SystemExit(f"sanitize: {p!r} would be escaped in JSON; choose another OUT_DIR")
    proj = re.sub(r"[^a-zA-Z0-9]", "-", ws)
    subs = [(home.encode(), b"/home/user"), (ws.encode(), b"/workspace/demo"),
            (proj.encode(), re.sub(r"[^a-zA-Z0-9]", "-", "/workspace/demo").encode())]
    leaks = [os.path.dirname(run).encode(), re.sub(r"[^a-zA-Z0-9]", "-", os.path.dirname(run)).encode()]
    qh = os.path.join(home, ".qwen")
    os.makedirs(out, exist_ok=True)
    copies, tree, bad = [], [], []
    for d, dirs, files in os.walk(qh):
        dirs.sort()
        for f in sorted(files):
            src = os.path.join(d, f)
            rel = os.path.relpath(src, home)
            tree.append("~/" + rel)
            parts = rel.split(os.sep)
            if len(parts) == 5 and parts[1] == "projects" and parts[3] == "chats" and f.endswith(".jsonl"):
                if parts[2] != proj:
                    bad.append(f"{rel}: project folder {parts[2]!r}, expected {proj!r} (the workspace path's sanitizeCwd)")
                copies.append((src, f))
            elif rel == os.path.join(".qwen", "usage_record.jsonl"):
                copies.append((src, "usage_record.jsonl"))
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
        f.write("# every file the CLI's HOME held after the run (the kit wrote settings.json)\n")
        for p in tree:
            for a, b in subs:
                p = p.replace(a.decode(), b.decode())
            p = re.sub(r"(\.openai-logs-cleanup-)[0-9a-f]{16}$", r"\1<sha256 of the log folder's path, 16 hex>", p)
            f.write(p + "\n")
    if not any(n != "usage_record.jsonl" for _, n in copies):
        bad.append("no session file under ~/.qwen/projects/*/chats/")
    if bad:
        for b in bad:
            print(f"sanitize: FAIL: {b}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
