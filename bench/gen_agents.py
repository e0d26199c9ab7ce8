#!/usr/bin/env python3
"""Sessions of other agents, at any size, grown from the repo's real fixtures.

    bench/gen_agents.py --format pi --mb 100 -o pi.jsonl
    bench/gen_agents.py --format opencode --copies 5000 -o opencode.db
    bench/gen_agents.py --list

Each format takes one agent's fixture (`tests/fixtures/agents/…`, written by
the agent itself where a kit runs it), keeps what comes before one block of
it (a tool call and its result, or a whole turn), and writes that block
again and again: the ids the block defines get a `~N` suffix per copy (the
ids it shares with what comes before, a session's or a turn's, stay), and a
chain of entries (`parentId`) is continued from each copy to the next, so
the session stays one path, not a tree of N branches. What came after the
block in the fixture is left out. A JSON document's list (Cline's messages,
ATIF's steps, mini-swe-agent's messages) grows the same way; OpenCode's
SQLite database gets copies of one assistant message and its parts; aider's
markdown history copies of one turn.

Used by bench/scaling.py (one case per format: is each reader linear and
bounded?) and bench/compare.sh's `agents` target (does loading 100 MB of the
format cost ≤ 1.5× a DSH frame log of the same size?). Python 3 standard
library only; deterministic.
"""
import argparse
import json
import os
import sqlite3
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
FIX = os.path.join(ROOT, "tests", "fixtures", "agents")

# format: (kind, fixture, block start, block end, chain: (parent key, id key))
# CALLS: the tool calls one block holds (the others hold one).
# A block runs from the first line (or list item) holding `start` to the
# first one after it holding `end` (the last holding `start` when `end` is
# None; `end` items when a number).
FORMATS = {
    "pi": ("jsonl", "pi/tour/2026-12-04T10-19-52-759Z_01a24091-4836-74ba-9643-b89fe1f6b26a.jsonl",
           "call_3_3_0", None, ("parentId", "id")),
    "copilot-cli": ("jsonl", "copilot-cli/tour/events.jsonl", "call_2_3_0", None, ("parentId", "id")),
    "cursor": ("jsonl", "cursor/tour/5f0c2a8e-3b1d-4c7a-9e62-0d8b7a41c9f3.jsonl",
               "check the build folder", "turn_ended", None),
    "grok": ("jsonl", "grok/tour/updates.jsonl", "call_06", None, None),
    "cline": ("json:messages", "cline/tour/1796379653114_ae203/1796379653114_ae203.messages.json",
              "call_1_0_0", None, None),
    "cline-tasks": ("json:", "cline-tasks/tour/1750000000000/api_conversation_history.json",
                    "<command>python -m pytest -q</command>",
                    "[execute_command for 'python -m pytest -q'] Result", None),
    "atif": ("json:steps", "atif/tour/trajectory.json", "toolu_06", None, None),
    "mini-swe-agent": ("json:messages", "mini-swe-agent/tour/last_mini_run.traj.json",
                       "call_1_3_0", None, None),
    "gemini-cli": ("jsonl", "gemini-cli/tour/session-2026-12-04T07-51-b8660323.jsonl",
                   "Running the tests.", 5, None),
    "qwen-code": ("jsonl", "qwen-code/tour/df671d1b-87bf-4e39-814f-4fc91be8dc0e.jsonl",
                  "call_2_3_0", None, ("parentUuid", "uuid")),
    "codex": ("jsonl", "codex/tour.rollout.jsonl", "call_004_0", None, None),
    "kimi": ("jsonl", "kimi/tour/sessions/2f108d9d78a2ccf520e99c4d45c05ab0/"
             "3c84154a-3e8f-42a2-84e9-d232960af410/wire.jsonl", "call_2_4_0", None, None),
    "opencode": ("sqlite", "opencode/tour/opencode.db", "call_2_3_0", None, None),
    "aider": ("markdown", "aider/tour/.aider.chat.history.md", "#### [ad-1]", "# aider chat started", None),
}

CALLS = {"cline": 2, "mini-swe-agent": 2, "aider": 2}

# --call-bytes: each copy of a block grows to this many bytes a call, by
# lines of output added to its longest text with a newline (a command's
# output, where the format keeps one; else an answer's text): the density of
# calls of the DSH frame log compare.sh measures against (bench/
# gen_session.py's mix: ~7.7 KB a card), so that both logs hold about as
# many calls a MB. 0 keeps the fixture's blocks as they are.
PAD_LINE = "{:>5} | building module_{:04d} … ok  (checked 17 items, 0 warnings)"

MARK = "\x00K\x00"


def padding(nbytes):
    """About `nbytes` of output lines, each starting with a newline."""
    out, j = [], 0
    size = 0
    while size < nbytes:
        line = "\n" + PAD_LINE.format(j, j)
        out.append(line)
        size += len(line.encode())
        j += 1
    return "".join(out)


def _strings(value, out):
    if isinstance(value, dict):
        for v in value.values():
            _strings(v, out)
    elif isinstance(value, list):
        for v in value:
            _strings(v, out)
    elif isinstance(value, str):
        out.append(value)


def _grow(value, text, pad):
    """`value` with `text` followed by `pad` wherever a string holds it."""
    if isinstance(value, dict):
        return {k: _grow(v, text, pad) for k, v in value.items()}
    if isinstance(value, list):
        return [_grow(v, text, pad) for v in value]
    if isinstance(value, str) and text in value:
        return value.replace(text, text + pad)
    return value


def grown(items, want):
    """The block's items grown to about `want` bytes in all."""
    have = sum(len(json.dumps(i, ensure_ascii=False).encode()) for i in items)
    if want <= have:
        return items
    strings = []
    for i in items:
        _strings(i, strings)
    outputs = [t for t in strings if "\n" in t and len(t) > 20] or [t for t in strings if len(t) > 20]
    if not outputs:
        return items
    text = max(outputs, key=len)
    count = sum(t.count(text) for t in strings)
    return [_grow(i, text, padding((want - have) // max(count, 1))) for i in items]


def _ids(value, out):
    """The string values of keys named like ids (`id`, `toolCallId`, …)."""
    if isinstance(value, dict):
        for k, v in value.items():
            if isinstance(v, str) and k.lower().endswith("id") and len(v) >= 6:
                out.add(v)
            else:
                _ids(v, out)
    elif isinstance(value, list):
        for v in value:
            _ids(v, out)


def dump(item, indent=None):
    """One line of JSON, or (`indent`: the list's depth) an item of a list
    pretty-printed as the agents write their documents (2 spaces)."""
    if indent is None:
        return json.dumps(item, separators=(",", ":"), ensure_ascii=False)
    pad = " " * indent
    return pad + json.dumps(item, indent=2, ensure_ascii=False).replace("\n", "\n" + pad)


def _span(texts, start, end):
    first = next(i for i, t in enumerate(texts) if start in t)
    if end is None:
        last = max(i for i, t in enumerate(texts) if start in t)
    elif isinstance(end, int):
        last = first + end - 1
    else:
        last = next(i for i in range(first + 1, len(texts)) if end in texts[i])
    return first, last + 1


class Block:
    """One block's items as templates, each copy numbered."""

    def __init__(self, head_items, block_items, chain, want=0, indent=None):
        block_items = grown(block_items, want)
        own, shared = set(), set()
        for item in block_items:
            _ids(item, own)
        for item in head_items:
            _ids(item, shared)
        own -= shared
        self.chain = chain
        self.link = block_items[0].get(chain[0]) if chain else None
        self.tail_id = block_items[-1].get(chain[1]) if chain else None
        self.templates = []
        for item in block_items:
            text = dump(item, indent)
            for v in sorted(own, key=len, reverse=True):
                text = text.replace(json.dumps(v), json.dumps(v)[:-1] + "~" + MARK + '"')
            self.templates.append(text)

    def copy(self, k):
        """The block's items, numbered k (copy 0 is the fixture's own)."""
        out = [t.replace("~" + MARK, "" if k == 0 else f"~{k}") for t in self.templates]
        if k > 0 and self.link and self.tail_id:
            prev = self.tail_id if k == 1 else f"{self.tail_id}~{k - 1}"
            out[0] = out[0].replace(json.dumps(self.link), json.dumps(prev), 1)
        return out


def _jsonl(f, path, start, end, chain, copies, budget, want):
    lines = [line for line in open(path, encoding="utf-8").read().splitlines() if line.strip()]
    a, b = _span(lines, start, end)
    head = [json.loads(line) for line in lines[:a]]
    block = Block(head, [json.loads(line) for line in lines[a:b]], chain, want)
    written = 0
    for line in lines[:a]:
        f.write(line + "\n")
        written += len(line.encode()) + 1
    k = 0
    while (copies is not None and k < copies) or (copies is None and written < budget):
        for text in block.copy(k):
            f.write(text + "\n")
            written += len(text.encode()) + 1
        k += 1
    return k


def _json(f, path, key, start, end, copies, budget, want):
    """A JSON document whose list `key` grows (the document itself when
    `key` is empty: a list at the top)."""
    doc = json.load(open(path, encoding="utf-8"))
    items = doc[key] if key else doc
    texts = [json.dumps(i) for i in items]
    a, b = _span(texts, start, end)
    depth = 4 if key else 2
    block = Block(items[:a], items[a:b], None, want, indent=depth)
    # The document around the list, pretty-printed as the agents write it,
    # the list written item by item.
    if key:
        doc = dict(doc)
        doc[key] = "\x00LIST\x00"
        outer = json.dumps(doc, indent=2, ensure_ascii=False)
        before, after = outer.split('"\\u0000LIST\\u0000"')
    else:
        before, after = "", ""
    close = "\n" + " " * (depth - 2) + "]"
    f.write(before + "[\n")
    written = len(before.encode()) + 2
    sep = ""
    for item in items[:a]:
        text = dump(item, depth)
        f.write(sep + text)
        written += len(text.encode()) + 2
        sep = ",\n"
    k = 0
    while (copies is not None and k < copies) or (copies is None and written < budget):
        for text in block.copy(k):
            f.write(sep + text)
            written += len(text.encode()) + 2
            sep = ",\n"
        k += 1
    f.write(close + after + "\n")
    return k


def _markdown(f, path, start, end, copies, budget, want):
    lines = open(path, encoding="utf-8").read().split("\n")
    a, b = _span(lines, start, end)
    head, block = "\n".join(lines[:a]) + "\n", "\n".join(lines[a:b - 1]) + "\n"
    if want > len(block.encode()):
        # The answer grows by lines of prose, before aider's own lines.
        block = block.rstrip("\n") + padding(want - len(block.encode())) + "\n\n"
    f.write(head)
    written, k = len(head), 0
    while (copies is not None and k < copies) or (copies is None and written < budget):
        f.write(block)
        written += len(block)
        k += 1
    return k


def _sqlite(out_path, path, call, copies, budget, want):
    """OpenCode's database with copies of the assistant message holding
    `call` and its parts, ordered where the message is (same time, later
    ids)."""
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(out_path + suffix):
            os.remove(out_path + suffix)
    src = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    dst = sqlite3.connect(out_path)
    src.backup(dst)
    src.close()
    dst.execute("PRAGMA journal_mode=DELETE")
    (msg_id,) = dst.execute("SELECT message_id FROM part WHERE data LIKE ?", (f'%"{call}"%',)).fetchone()
    msg = dst.execute("SELECT id, session_id, time_created, time_updated, data FROM message WHERE id = ?",
                      (msg_id,)).fetchone()
    parts = dst.execute("SELECT id, message_id, session_id, time_created, time_updated, data FROM part "
                        "WHERE message_id = ? ORDER BY id", (msg_id,)).fetchall()
    datas = [json.dumps(d, ensure_ascii=False) for d in grown([json.loads(p[5]) for p in parts], want)]
    parts = [p[:5] + (d,) for p, d in zip(parts, datas)]
    size = sum(len(p[5]) for p in parts) + len(msg[4])
    base = os.path.getsize(out_path)
    k = 1
    while (copies is not None and k < copies) or (copies is None and base + k * size < budget):
        mid = f"{msg[0]}~{k:08d}"
        dst.execute("INSERT INTO message VALUES (?, ?, ?, ?, ?)", (mid, msg[1], msg[2], msg[3], msg[4]))
        dst.executemany("INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)", [
            (f"{p[0]}~{k:08d}", mid, p[2], p[3], p[4], p[5].replace(f'"{call}"', f'"{call}~{k}"'))
            for p in parts])
        k += 1
    dst.commit()
    dst.close()
    return k


def generate(fmt, out_path, copies=None, mb=None, call_bytes=0):
    """Write `fmt`'s session to out_path: `copies` blocks, or about `mb` MB,
    each block grown to `call_bytes` a call. Returns the number of blocks."""
    kind, rel, start, end, chain = FORMATS[fmt]
    path = os.path.join(FIX, rel)
    budget = int((mb or 0) * 1e6)
    want = call_bytes * CALLS.get(fmt, 1)
    if kind == "sqlite":
        return _sqlite(out_path, path, start, copies, budget, want)
    with open(out_path, "w", encoding="utf-8") as f:
        if kind == "jsonl":
            return _jsonl(f, path, start, end, chain, copies, budget, want)
        if kind.startswith("json:"):
            return _json(f, path, kind.split(":", 1)[1], start, end, copies, budget, want)
        return _markdown(f, path, start, end, copies, budget, want)


# What a call of the DSH frame log compare.sh and scaling.py measure
# against holds, on average (bench/gen_session.py's mix).
DSH_CALL_BYTES = 7700


def writer(fmt, call_bytes=DSH_CALL_BYTES):
    """A bench/scaling.py generator: (file, n) → n blocks of `fmt`, each
    grown to `call_bytes` a call."""
    def gen(f, n):
        name = f.name
        f.close()
        generate(fmt, name, copies=n, call_bytes=call_bytes)
    gen.__doc__ = f"{fmt}: n blocks of its fixture"
    return gen


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--format", choices=sorted(FORMATS))
    p.add_argument("--mb", type=float)
    p.add_argument("--copies", type=int)
    p.add_argument("--call-bytes", type=int, default=0)
    p.add_argument("-o", "--output")
    p.add_argument("--list", action="store_true")
    a = p.parse_args()
    if a.list:
        for name, (kind, rel, *_rest) in FORMATS.items():
            print(f"{name}\t{kind}\t{rel}")
        return
    if not a.format or not a.output or (a.mb is None) == (a.copies is None):
        p.error("--format, -o and one of --mb / --copies")
    n = generate(a.format, a.output, copies=a.copies, mb=a.mb, call_bytes=a.call_bytes)
    print(f"{a.output}: {n} blocks, {os.path.getsize(a.output) / 1e6:.1f} MB", file=sys.stderr)


if __name__ == "__main__":
    main()
