#!/usr/bin/env python3
"""Search speed of two builds, side by side: `staccato bench` nodes/second.

Runs `<binary> bench DEPTH` for the reference build and the build under test
alternately, ROUNDS times each, so that machine noise hits both alike, and
prints every run, the median nodes/second of each, and their ratio. The two
builds should search the same tree (same `Nodes searched`); the script says
so when they do not, since the ratio then mixes speed with tree size.

    python3 bench/nps.py --base /tmp/staccato-old --engine build/release/staccato [--depth 9] [--rounds 5]

On a busy machine the figures say little: run it on an idle one.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def bench(binary, depth):
    """(nodes, nodes/second) from one `bench` run."""
    out = subprocess.run([binary, "bench", str(depth)], capture_output=True, text=True, check=True).stdout
    nodes = re.search(r"Nodes searched\s*:\s*(\d+)", out)
    nps = re.search(r"Nodes/second\s*:\s*(\d+)", out)
    if not nodes or not nps:
        sys.exit(f"{binary}: no bench summary in its output")
    return int(nodes.group(1)), int(nps.group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", required=True, help="reference build")
    ap.add_argument("--engine", default=os.path.join(ROOT, "build", "release", "staccato"), help="build under test")
    ap.add_argument("--depth", type=int, default=9)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()

    runs = {"base": [], "engine": []}
    nodes = {}
    ratios = []  # engine / base, per round
    for r in range(1, args.rounds + 1):
        for name in ("base", "engine"):
            n, nps = bench(getattr(args, name), args.depth)
            nodes[name] = n
            runs[name].append(nps)
        ratios.append(runs["engine"][-1] / runs["base"][-1])
        print(f"round {r}: base {runs['base'][-1]:>9,} nps   engine {runs['engine'][-1]:>9,} nps   "
              f"ratio {ratios[-1]:.3f}", flush=True)

    base, engine = statistics.median(runs["base"]), statistics.median(runs["engine"])
    print(f"\nbench {args.depth}, {args.rounds} rounds, medians: base {base:,.0f} nps, engine {engine:,.0f} nps")
    print(f"engine / base: {engine / base:.3f}  (per-round ratios {min(ratios):.3f} to {max(ratios):.3f})")
    if nodes["base"] != nodes["engine"]:
        print(f"note: the trees differ ({nodes['base']:,} vs {nodes['engine']:,} nodes); "
              f"time to depth ratio {nodes['engine'] / engine / (nodes['base'] / base):.3f}")
    else:
        print(f"same tree: {nodes['base']:,} nodes")


if __name__ == "__main__":
    main()
