#!/usr/bin/env python3
"""Seed the fuzz corpora from the real DSH captures in the repo (frame and zstd
logs in demo-sessions/, the other files in tests/fixtures/captures/) into
corpus-raw/TARGET (git-ignored). Run before a
long `cargo +nightly fuzz run TARGET corpus-raw/TARGET`, then minimise into
corpus/TARGET with `cargo +nightly fuzz cmin` (`fuzz/corpus.sh unpack TARGET`
first, `fuzz/corpus.sh pack TARGET` after).

loader: every frame-log and session-log line, small whole logs, a zstd log
        and a small history document;
views:  every frame-log line;
ansi, markdown: terminal outputs and assistant texts from the frames, each
        after two bytes of width (80 columns);
cards:  nothing (its input is structured: libFuzzer starts from empty).
"""
import hashlib
import json
import os
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def capture(name, file):
    """One file of a real capture, where the tests' `common::capture` finds it."""
    if file in ("frames.jsonl", "session.jsonl.zstd"):
        return os.path.join(ROOT, "demo-sessions", name + "." + file)
    return os.path.join(ROOT, "tests", "fixtures", "captures", name, file)


WIDTH80 = (80).to_bytes(2, "little")


def put(target, data):
    d = os.path.join(HERE, "corpus-raw", target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, hashlib.sha1(data).hexdigest()), "wb") as f:
        f.write(data)


def strings(v, key):
    """Every string under `key` anywhere in a JSON value."""
    if isinstance(v, dict):
        for k, x in v.items():
            if k == key and isinstance(x, str):
                yield x
            else:
                yield from strings(x, key)
    elif isinstance(v, list):
        for x in v:
            yield from strings(x, key)


for name in ("tour", "approvals"):
    with open(capture(name, "frames.jsonl"), "rb") as f:
        frames = f.read().splitlines()
    with open(capture(name, "session.jsonl"), "rb") as f:
        log = f.read().splitlines()
    for line in frames:
        put("loader", line + b"\n")
        put("views", line)
        v = json.loads(line)
        for out in strings(v, "output"):
            put("ansi", WIDTH80 + out.encode())
        for text in strings(v, "text"):
            if len(text) > 40:
                put("markdown", WIDTH80 + text.encode())
    for line in log:
        put("loader", line + b"\n")
    for small in ("frames-reconnect.jsonl", "host-frames.jsonl"):
        with open(capture(name, small), "rb") as f:
            put("loader", f.read())
    head = b"\n".join(log[:40]) + b"\n"
    put("loader", head)
    put("loader", subprocess.run(["zstd", "-q", "-c"], input=head, capture_output=True, check=True).stdout)
    with open(capture(name, "history.json"), "rb") as f:
        history = json.load(f)
    page = history["pages"][0]
    page["result"]["value"]["events"] = page["result"]["value"]["events"][:6]
    put("loader", json.dumps({"sessionId": history["sessionId"], "pages": [page]}, indent=1).encode())

# Hand-made terminal output: colours, \r progress, cursor moves, erases, wide text.
for s in [
    "\x1b[31mred\x1b[0m plain \x1b[1;4;38;5;200mfancy\x1b[0m\n",
    "progress 10%\rprogress 50%\rprogress 100%\n",
    "a\x1b[2Kb\x1b[1A\x1b[3Cc\n\x1b[2J\x1b[Hhome\n",
    "tab\there\t日本語\x1b[7minverse\x1b[27m e\u0301\n",
    "\x1b]0;title\x07\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\\x1bP+q\x1b\\\n",
]:
    put("ansi", WIDTH80 + s.encode())
for name in ("README.md",):
    with open(os.path.join(ROOT, name), "rb") as f:
        for part in f.read().split(b"\n## "):
            put("markdown", WIDTH80 + b"## " + part)

for t in ("loader", "views", "ansi", "markdown"):
    d = os.path.join(HERE, "corpus-raw", t)
    print(t, len(os.listdir(d)), "files", sum(os.path.getsize(os.path.join(d, x)) for x in os.listdir(d)), "bytes")
