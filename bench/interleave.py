#!/usr/bin/env python3
"""Time two commands in alternation: A, B, A, B, … (after one warm-up run
of each), so that both see the same machine at each moment: on a shared
machine a slow stretch then slows both runs of a pair, not all runs of one
command (as when one command's runs all come before the other's).

    interleave.py --runs N --scale-a X --scale-b Y CMD_A CMD_B

Prints JSON: each command's wall times (s), and the ratio of each pair's
times scaled (A/X over B/Y, e.g. seconds per MB), with its median and
range. Standard library only.
"""
import argparse
import json
import statistics
import subprocess
import sys
import time


def run(cmd):
    t = time.perf_counter()
    subprocess.run(cmd, shell=True, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--scale-a", type=float, default=1.0)
    ap.add_argument("--scale-b", type=float, default=1.0)
    ap.add_argument("a")
    ap.add_argument("b")
    o = ap.parse_args()
    run(o.a)
    run(o.b)
    ta, tb = [], []
    for i in range(o.runs):
        # Alternate which goes first, so neither always follows the other.
        first, second = (o.a, o.b) if i % 2 == 0 else (o.b, o.a)
        x, y = run(first), run(second)
        a, b = (x, y) if i % 2 == 0 else (y, x)
        ta.append(a)
        tb.append(b)
        print(f"[interleave] run {i + 1}/{o.runs}: {a:.3f} s, {b:.3f} s", file=sys.stderr)
    ratios = sorted((a / o.scale_a) / (b / o.scale_b) for a, b in zip(ta, tb))
    json.dump({
        "a": ta, "b": tb,
        "a_median": statistics.median(ta), "b_median": statistics.median(tb),
        "ratio_median": statistics.median(ratios), "ratio_min": ratios[0], "ratio_max": ratios[-1],
    }, sys.stdout)
    print()


if __name__ == "__main__":
    main()
