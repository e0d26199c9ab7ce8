#!/usr/bin/env python3
"""Copy what Kimi Code CLI wrote in its share folder into the fixture's form.

usage: sanitize.py RUN_DIR OUT_DIR

RUN_DIR holds demo/ (the workspace) and home/ (the CLI's HOME; home/.kimi its
KIMI_SHARE_DIR). Copies, with the workspace path replaced by /workspace/demo,
the HOME by /home/user and the work dir's session folder (the md5 of the
workspace path, kimi-cli's WorkDirMeta.sessions_dir) by the md5 of
/workspace/demo (bytes otherwise untouched: no reformatting):

  .kimi/sessions/<md5>/<session id>/{wire.jsonl, state.json}
      -> OUT_DIR/sessions/<md5 of /workspace/demo>/<session id>/
      (not context.jsonl beside them: the model's messages, which deck does
      not read and which no agent's reader would claim in the fixtures)
  .kimi/kimi.json -> OUT_DIR/kimi.json (the work dirs and their last session)
  the share folder's file tree -> OUT_DIR/files.txt (paths, sanitised)

Fails when a sanitised JSON line no longer parses, or when a temporary path
is still in a file.
"""
import hashlib
import json
import os
import sys


def md5(s):
    return hashlib.md5(s.encode("utf-8")).hexdigest()


def main():
    run, out = os.path.realpath(sys.argv[1]), sys.argv[2]
    ws, home = os.path.join(run, "demo"), os.path.join(run, "home")
    for p in (ws, home):
        if any(c in p for c in '"\\'):
            raise SystemExit(f"sanitize: {p!r} would be escaped in JSON; choose another OUT_DIR")
    subs = [(home.encode(), b"/home/user"), (ws.encode(), b"/workspace/demo"),
            (md5(ws).encode(), md5("/workspace/demo").encode())]
    leak = os.path.dirname(run).encode()
    share = os.path.join(home, ".kimi")
    copies, tree, bad = [], [], []
    for d, dirs, files in os.walk(share):
        dirs.sort()
        for f in sorted(files):
            src = os.path.join(d, f)
            rel = os.path.relpath(src, share)
            tree.append("~/.kimi/" + rel)
            parts = rel.split(os.sep)
            if len(parts) == 4 and parts[0] == "sessions" and f != "context.jsonl":
                if parts[1] != md5(ws):
                    bad.append(f"{rel}: work dir folder {parts[1]!r}, expected {md5(ws)!r} (md5 of the workspace path)")
                copies.append((src, os.path.join("sessions", md5("/workspace/demo"), parts[2], f)))
            elif rel == "kimi.json":
                copies.append((src, "kimi.json"))
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
        else:
            json.loads(data)
        dst = os.path.join(out, name)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with open(dst, "wb") as f:
            f.write(data)
        print(f"sanitize: {os.path.relpath(src, home)} -> {name} ({len(data)} bytes)", file=sys.stderr)
    with open(os.path.join(out, "files.txt"), "w", encoding="utf-8") as f:
        f.write("# every file the CLI's share folder (KIMI_SHARE_DIR) held after the run (the kit wrote config.toml)\n")
        for p in tree:
            for a, b in subs:
                p = p.replace(a.decode(), b.decode())
            f.write(p + "\n")
    if not any(n.endswith("wire.jsonl") for _, n in copies):
        bad.append("no wire.jsonl under ~/.kimi/sessions/*/*/")
    if bad:
        for b in bad:
            print(f"sanitize: FAIL: {b}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
