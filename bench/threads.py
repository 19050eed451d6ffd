#!/usr/bin/env python3
"""Lazy SMP scaling: time-to-depth and nodes/second with 1 and N threads.

For each position the engine is started over UCI, `ucinewgame` clears the
hash, and `go depth D` runs with Threads 1 and then Threads N, interleaved
position by position so that machine noise hits both alike. Prints per
position the time to depth and nodes/second for both, and the totals as
ratios (N threads against 1). With --movetime MS every search is `go
movetime MS` instead: the same time for both, so the nodes/second ratio is
the figure and the depths reached say what the threads bought.

    python3 bench/threads.py [--engine build/release/staccato] [--threads 2] [--depth 16]
    python3 bench/threads.py --movetime 3000

Lazy SMP is not deterministic: repeat it and read the spread. On a machine
with fewer free cores than --threads the figures say nothing.
"""
import argparse
import os
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

POSITIONS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 3 9",
    "r2q1rk1/1b2bppp/p1n1pn2/1pp5/3P4/P1NBPN2/1P3PPP/R1BQ1RK1 w - - 0 12",
    "2r2rk1/pp1bqppp/2n1pn2/3p4/2PP4/P1N1PN2/1Q3PPP/R3KB1R w KQ - 1 13",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "6k1/5pp1/7p/8/2R5/6P1/5PKP/1r6 w - - 0 40",
    "r1b2rk1/2q1bppp/p2p1n2/np2p3/3PP3/5N1P/PPBN1PP1/R1BQR1K1 w - - 1 13",
]


class Engine:
    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait_for(self, prefix):
        lines = []
        for line in self.p.stdout:
            line = line.strip()
            lines.append(line)
            if line.startswith(prefix):
                return lines
        raise RuntimeError("engine closed its output")

    def quit(self):
        self.send("quit")
        self.p.wait(timeout=10)


def search(engine, threads, fen, go):
    engine.send(f"setoption name Threads value {threads}")
    engine.send("ucinewgame")
    engine.send(f"position fen {fen}")
    engine.send("isready")
    engine.wait_for("readyok")
    start = time.monotonic()
    engine.send(go)
    lines = engine.wait_for("bestmove")
    elapsed = time.monotonic() - start
    nodes = depth = 0
    for line in lines:
        tokens = line.split()
        if tokens[:1] == ["info"] and "nodes" in tokens:
            nodes = int(tokens[tokens.index("nodes") + 1])
        if tokens[:1] == ["info"] and "depth" in tokens and "pv" in tokens:
            depth = int(tokens[tokens.index("depth") + 1])
    return elapsed, nodes, depth


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default=os.path.join(ROOT, "build", "release", "staccato"))
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--depth", type=int, default=16)
    ap.add_argument("--movetime", type=int, default=0, help="go movetime MS instead of go depth")
    ap.add_argument("--hash", type=int, default=64)
    args = ap.parse_args()
    go = f"go movetime {args.movetime}" if args.movetime else f"go depth {args.depth}"

    engine = Engine(args.engine)
    engine.send(f"setoption name Hash value {args.hash}")
    n = args.threads
    print(f"{go}, hash {args.hash} MB; time (s), depth reached and knps, 1 thread vs {n}")
    print(f"{'#':>2} {'t1':>7} {'tN':>7} {'ttd ratio':>9} {'d1':>3} {'dN':>3} {'knps1':>7} {'knpsN':>7} "
          f"{'nps ratio':>9}")
    total = {1: [0.0, 0], n: [0.0, 0]}
    for i, fen in enumerate(POSITIONS, 1):
        r = {}
        for t in (1, n):
            r[t] = search(engine, t, fen, go)
            total[t][0] += r[t][0]
            total[t][1] += r[t][1]
        (t1, n1, d1), (tn, nn, dn) = r[1], r[n]
        print(f"{i:>2} {t1:7.2f} {tn:7.2f} {t1 / tn:9.2f} {d1:3} {dn:3} {n1 / t1 / 1000:7.0f} "
              f"{nn / tn / 1000:7.0f} {(nn / tn) / (n1 / t1):9.2f}")
    (t1, n1), (tn, nn) = total[1], total[n]
    print(f"total: time {t1:.1f} s vs {tn:.1f} s (speed-up {t1 / tn:.2f}x), "
          f"nodes/second {n1 / t1:.0f} vs {nn / tn:.0f} ({(nn / tn) / (n1 / t1):.2f}x)")
    engine.quit()


if __name__ == "__main__":
    main()
