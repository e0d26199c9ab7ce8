#!/usr/bin/env python3
"""The session library's targets (`deck sessions`), over ~1 GB of session logs.

    library.py --deck PATH [--out DIR] [--gb 1.0] [--runs 7]

Writes a corpus under OUT/library/corpus (once; kept while the generators and
the arguments are unchanged): half DSH frame logs (gen_session.py), half
Claude Code sessions (gen_claude.py), ~10 MB each, every one of its own seed,
and one word planted in one session only. Then, with a fresh home and cache:

* build: `deck sessions --json --dir CORPUS` on an empty index: MB/s (goal
  >= 100 MB/s on 2 cores) and its peak RSS (goal < 300 MB);
* query: `deck sessions search WORD --json --dir CORPUS`, index warm, against
  `rg -l WORD CORPUS` over the same files (page cache warm for both), the two
  alternating, median of the pairs' ratios (goal <= 0.1);
* update: one session grows by a turn, then `deck sessions --json --dir
  CORPUS` (finds it, reads it again, commits, lists): seconds (goal <= 0.2),
  median of RUNS growths.

Prints one verdict line per target, as compare.sh does.
"""
import argparse
import hashlib
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
WORD = "zanzibarquokka"


def corpus(out, gb):
    root = os.path.join(out, "library", "corpus")
    stamp_src = b"".join(open(os.path.join(HERE, f), "rb").read() for f in ("gen_session.py", "gen_claude.py", "library.py"))
    stamp = hashlib.sha256(stamp_src + str(gb).encode()).hexdigest()[:16]
    stamp_file = os.path.join(out, "library", ".stamp")
    if os.path.exists(stamp_file) and open(stamp_file).read() == stamp:
        return root
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root)
    n = max(2, int(gb * 1000 / 10))
    for i in range(n):
        if i % 2 == 0:
            path = os.path.join(root, f"dsh-{i:03}.jsonl")
            cmd = [sys.executable, os.path.join(HERE, "gen_session.py"), "--cards", "1250", "--output-lines", "60",
                   "--chunks", "30", "--seed", str(100 + i), "-o", path]
        else:
            path = os.path.join(root, f"claude-{i:03}.jsonl")
            cmd = [sys.executable, os.path.join(HERE, "gen_claude.py"), "--mb", "10", "--output-lines", "60",
                   "--seed", str(100 + i), "-o", path]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        print(f"[library] corpus {i + 1}/{n}", file=sys.stderr, end="\r")
    print(file=sys.stderr)
    # The word, in one session only: a prompt of the first DSH log.
    with open(os.path.join(root, "dsh-000.jsonl"), "a") as f:
        f.write(grown_line(0))
    open(stamp_file, "w").write(stamp)
    return root


def grown_line(k):
    """A user message of session-bench (a turn's prompt), the word in it."""
    frame = {"type": "server-request", "rpcId": f"grown{k}", "method": "session/event", "payload": {
        "type": "session/event", "sessionId": "session-bench", "event": {
            "seq": 10_000_000 + k, "time": 1796999999000 + k, "type": "user/message",
            "data": {"content": [{"type": "text", "text": f"find {WORD} please, growth {k}"}], "role": "user"}}}}
    return json.dumps(frame) + "\n"


def run(cmd, env):
    t = time.perf_counter()
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    dt = time.perf_counter() - t
    if p.returncode != 0:
        sys.exit(f"[library] {' '.join(cmd)} failed: {p.stderr.decode(errors='replace')}")
    return dt, p.stdout


def verdict(name, deck, ref, goal, unit):
    ratio = deck / ref
    ok = "PASS" if ratio <= goal else "FAIL"
    print(f"{name}: deck {deck:.3f} {unit} vs ref {ref:.3f} {unit} = ratio {ratio:.2f} (goal ≤ {goal}) {ok}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--deck", required=True)
    ap.add_argument("--out", default=os.path.join(HERE, "out"))
    ap.add_argument("--gb", type=float, default=1.0)
    ap.add_argument("--runs", type=int, default=7)
    a = ap.parse_args()
    root = corpus(a.out, a.gb)
    total = sum(os.path.getsize(os.path.join(root, f)) for f in os.listdir(root))
    files = len(os.listdir(root))
    print(f"[library] corpus: {files} sessions, {total / 1e6:.0f} MB", file=sys.stderr)
    home = tempfile.mkdtemp(prefix="deck-library-bench-")
    env = dict(os.environ, HOME=home, XDG_CACHE_HOME=os.path.join(home, "cache"))
    for k in ("DSH_HOME", "CLAUDE_CONFIG_DIR", "CODEX_HOME", "XDG_CONFIG_HOME"):
        env.pop(k, None)
    env["XDG_CONFIG_HOME"] = os.path.join(home, "config")
    deck = a.deck
    # Page cache warm for every run: read the corpus once.
    subprocess.run(["cat"] + [os.path.join(root, f) for f in sorted(os.listdir(root))], stdout=subprocess.DEVNULL)

    # Build, with its peak RSS (/usr/bin/time).
    t = time.perf_counter()
    p = subprocess.run(["/usr/bin/time", "-f", "%M", deck, "sessions", "--json", "--dir", root],
                       env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    build = time.perf_counter() - t
    if p.returncode != 0:
        sys.exit(f"[library] build failed: {p.stderr.decode(errors='replace')}")
    rows = p.stdout.decode().splitlines()
    rss_mb = int(p.stderr.decode().strip().splitlines()[-1]) / 1024
    if len(rows) != files:
        sys.exit(f"[library] the list has {len(rows)} sessions, the corpus {files}")
    mbps = total / 1e6 / build
    print(f"[library] build: {build:.2f} s, {mbps:.0f} MB/s, peak RSS {rss_mb:.0f} MB", file=sys.stderr)
    # As a time against the time 100 MB/s would take.
    verdict(f"library index build of {total / 1e6:.0f} MB ({mbps:.0f} MB/s; vs 100 MB/s)", build, total / 1e6 / 100, 1.0, "s")
    verdict(f"peak RSS while indexing {total / 1e6:.0f} MB (vs 300 MB)", rss_mb, 300, 1.0, "MB")

    # Query, warm, alternating with rg -l.
    q = [deck, "sessions", "search", WORD, "--json", "--dir", root]
    rg = ["rg", "-l", WORD, root]
    _, out = run(q, env)
    hits = [json.loads(l) for l in out.decode().splitlines()]
    if len(hits) != 1 or not hits[0]["path"].endswith("dsh-000.jsonl"):
        sys.exit(f"[library] search found {hits}")
    _, out = run(rg, env)
    if out.decode().split() != [os.path.join(root, "dsh-000.jsonl")]:
        sys.exit(f"[library] rg -l found {out!r}")
    ratios, dts, rts = [], [], []
    for _ in range(a.runs):
        d, _ = run(q, env)
        r, _ = run(rg, env)
        dts.append(d)
        rts.append(r)
        ratios.append(d / r)
    print(f"[library] query: deck {statistics.median(dts) * 1000:.1f} ms, rg -l {statistics.median(rts) * 1000:.1f} ms,"
          f" pair ratios {min(ratios):.3f}–{max(ratios):.3f}", file=sys.stderr)
    print(f"library query, index warm, vs rg -l over the same {total / 1e6:.0f} MB: median of {a.runs} alternating pairs"
          f" {statistics.median(ratios):.3f} (range {min(ratios):.3f}–{max(ratios):.3f}; goal ≤ 0.1)"
          f" {'PASS' if statistics.median(ratios) <= 0.1 else 'FAIL'}")

    # Update after one session grew.
    grown = os.path.join(root, "dsh-000.jsonl")
    ups = []
    for k in range(1, a.runs + 1):
        with open(grown, "a") as f:
            f.write(grown_line(k))
        d, out = run([deck, "sessions", "--json", "--dir", root], env)
        ups.append(d)
    # Back to the corpus as generated (its stamp stays true).
    with open(grown) as f:
        lines = f.readlines()
    with open(grown, "w") as f:
        f.writelines(lines[: len(lines) - a.runs])
    up = statistics.median(ups)
    print(f"[library] update: {', '.join(f'{u * 1000:.0f}' for u in ups)} ms", file=sys.stderr)
    verdict(f"library update after one session grew (median of {a.runs}; vs 0.2 s)", up, 0.2, 1.0, "s")
    shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
