#!/usr/bin/env python3
"""How quickly the engine answers `stop`, and how exactly it keeps `movetime`.

For each position of bench/threads.py, with Threads 1 and then Threads N:
  - `go infinite`, wait --think ms, send `stop`, and time the gap between
    writing `stop` and reading `bestmove` (the issue asks for <= 10 ms);
  - `go movetime M` and time the gap between writing `go` and reading
    `bestmove` (how far past M the engine answers).
Prints each measurement and the worst and median per thread count. The
times include the pipe round trip through Python, so they are upper bounds.

    python3 bench/latency.py [--engine build/release/staccato] [--threads 2] [--think 300] [--movetime 200]
"""
import argparse
import os
import statistics
import time

from threads import POSITIONS, ROOT, Engine


def bestmove_after(engine, line):
    start = time.perf_counter()
    engine.send(line)
    engine.wait_for("bestmove")
    return (time.perf_counter() - start) * 1000.0


def measure(engine, threads, fen, think_ms, movetime):
    engine.send(f"setoption name Threads value {threads}")
    engine.send("ucinewgame")
    engine.send(f"position fen {fen}")
    engine.send("isready")
    engine.wait_for("readyok")
    engine.send("go infinite")
    time.sleep(think_ms / 1000.0)
    stop_ms = bestmove_after(engine, "stop")
    engine.send("isready")
    engine.wait_for("readyok")
    movetime_ms = bestmove_after(engine, f"go movetime {movetime}")
    return stop_ms, movetime_ms


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default=os.path.join(ROOT, "build", "release", "staccato"))
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--think", type=int, default=300, help="ms of go infinite before stop")
    ap.add_argument("--movetime", type=int, default=200)
    args = ap.parse_args()

    engine = Engine(args.engine)
    engine.send("uci")
    engine.wait_for("uciok")
    results = {1: ([], []), args.threads: ([], [])}
    print(f"stop after {args.think} ms of go infinite; go movetime {args.movetime}")
    print(" #  threads  stop->bestmove (ms)  go movetime->bestmove (ms)")
    for i, fen in enumerate(POSITIONS, 1):
        for threads in (1, args.threads):
            stop_ms, move_ms = measure(engine, threads, fen, args.think, args.movetime)
            results[threads][0].append(stop_ms)
            results[threads][1].append(move_ms)
            print(f"{i:2}  {threads:7}  {stop_ms:19.2f}  {move_ms:26.1f}")
    engine.quit()
    for threads, (stops, moves) in results.items():
        print(f"Threads {threads}: stop latency median {statistics.median(stops):.2f} ms, "
              f"worst {max(stops):.2f} ms; movetime {args.movetime}: median {statistics.median(moves):.1f} ms, "
              f"worst {max(moves):.1f} ms")


if __name__ == "__main__":
    main()
