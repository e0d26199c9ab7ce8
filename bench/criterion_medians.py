#!/usr/bin/env python3
"""Print the median of every criterion benchmark from its last run.

    bench/criterion_medians.py [TARGET_DIR/criterion] [FILTER]

Reads `<group>/<bench>/new/estimates.json` (criterion's own output) and
prints `median  name`, one line each, sorted by name. Standard library only.
"""
import json
import os
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "target",
                                                          "criterion")
flt = sys.argv[2] if len(sys.argv) > 2 else ""


def human(ns):
    for unit, div in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= div:
            return f"{ns / div:.3f} {unit}"
    return f"{ns:.1f} ns"


rows = []
for d, _, files in os.walk(root):
    if os.path.basename(d) == "new" and "estimates.json" in files and "benchmark.json" in files:
        bench = json.load(open(os.path.join(d, "benchmark.json")))
        est = json.load(open(os.path.join(d, "estimates.json")))
        name = bench.get("full_id") or bench.get("title") or d
        if flt in name:
            rows.append((name, est["median"]["point_estimate"]))
for name, med in sorted(rows):
    print(f"{human(med):>12}  {name}")
