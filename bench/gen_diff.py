#!/usr/bin/env python3
"""A big unified diff over many files and a frame log of the same changes.

    gen_diff.py --bytes 5000000 --patch diff.patch -o diff.jsonl [--seed 5]
                [--files-per-card 8] [--file-bytes 6000]

Generates pairs of plausible Rust files (old, new: `new` is `old` with an
edit every 6–20 lines: changed, inserted and deleted lines), until the
unified diff of all pairs (difflib, 3 lines of context, `---`/`+++` headers
per file, as `diff -u` writes them) reaches `--bytes`. The patch is written
to `--patch`; the frame log holds one `edit` tool call per `--files-per-card`
files whose `diff` result view (and the tool's `meta`, as the host sends it)
carries each file's whole old and new text, so that deck diffs exactly the
changes the patch holds. Same arguments: same bytes.
"""
import argparse
import difflib
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from framelog import FrameLog  # noqa: E402
from rustgen import NOUNS, RustGen  # noqa: E402

p = argparse.ArgumentParser()
p.add_argument("--bytes", type=int, default=5_000_000, help="size of the unified diff to reach")
p.add_argument("--seed", type=int, default=5)
p.add_argument("--file-bytes", type=int, default=6000, help="size of each old file")
p.add_argument("--files-per-card", type=int, default=8)
p.add_argument("--patch", required=True)
p.add_argument("-o", "--output", required=True)
a = p.parse_args()

rnd = random.Random(a.seed)
gen = RustGen(a.seed)


def mutate(old):
    new = []
    i = 0
    nxt = rnd.randint(2, 12)
    while i < len(old):
        line = old[i]
        if i != nxt:
            new.append(line)
            i += 1
            continue
        nxt = i + rnd.randint(6, 20)
        k = rnd.randint(0, 5)
        ind = " " * (len(line) - len(line.lstrip()))
        if k == 0:  # rename inside the line
            w = rnd.choice(NOUNS)
            new.append(line.replace(w, w + "_v2") if w in line else line + " // checked")
        elif k == 1:  # insert lines
            new.append(line)
            new.extend(f"{ind}{s.strip()}" for s in gen.stmt(0)[:3])
        elif k == 2:  # delete one or two lines
            i += rnd.randint(1, 2)
            continue
        elif k == 3:  # change numbers
            new.append("".join(str((int(c) + 3) % 10) if c.isdigit() else c for c in line) if any(
                c.isdigit() for c in line) else line + "  // tuned")
        elif k == 4:  # replace with a new statement
            new.extend(f"{ind}{s.strip()}" for s in gen.stmt(0)[:2])
        else:  # change two lines
            new.append(line.rstrip() + " // reviewed")
            if i + 1 < len(old):
                new.append(old[i + 1].replace("let ", "let mut ", 1))
                i += 1
        i += 1
    return new


cards = []
size = 0
idx = 0
with open(a.patch, "w", encoding="utf-8", newline="\n") as patch:
    while size < a.bytes:
        path = f"src/{rnd.choice(NOUNS)}_{idx // 50}/{rnd.choice(NOUNS)}_{idx}.rs"
        idx += 1
        old = gen.lines(a.file_bytes)
        new = mutate(old)
        diff = "".join(l + "\n" for l in difflib.unified_diff(old, new, f"a/{path}", f"b/{path}", lineterm=""))
        if not diff:
            continue
        patch.write(diff)
        size += len(diff.encode())
        if not cards or len(cards[-1]) >= a.files_per_card:
            cards.append([])
        cards[-1].append({"path": path, "oldText": "\n".join(old) + "\n", "newText": "\n".join(new) + "\n"})

with open(a.output, "w", encoding="utf-8", newline="\n") as out:
    log = FrameLog(out)
    log.turn_open(1, "Apply the review comments across the crate.")
    for step, diffs in enumerate(cards, 1):
        log.step_open(1, step, f"Editing {len(diffs)} files.")
        cid = f"call_patch_{step}"
        title = f"Edit {diffs[0]['path']}" if len(diffs) == 1 else f"Edit {len(diffs)} files"
        cseq = log.call(1, step, cid, "apply_patch", {"files": [d["path"] for d in diffs]},
                        {"card": "generic", "title": title, "kind": "edit",
                         "locations": [{"path": d["path"]} for d in diffs]})
        done = "\n".join(f"The file {d['path']} has been updated successfully." for d in diffs)
        log.result(1, step, cid, cseq, done, {"card": "diff", "title": title, "diffs": diffs},
                   meta={"diffs": diffs})
        log.step_close(1, step)
    log.turn_close(1)
print(f"{idx} files, {len(cards)} cards, {size} diff bytes", file=sys.stderr)
