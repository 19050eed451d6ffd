#!/usr/bin/env python3
"""How quickly the engine starts and ends a search, answers `stop`, and keeps `movetime`.

For each position of bench/threads.py, with Threads 1 and then Threads N:
  - `go infinite`, wait --think ms, send `stop`, and time the gap between
    writing `stop` and reading `bestmove` (the issue asks for <= 10 ms);
  - `go movetime M` and time the gap between writing `go` and reading
    `bestmove` (how far past M the engine answers);
  - `go depth 1`, --repeat times, and time the gap between writing `go` and
    reading `bestmove`: the cost of starting and ending a search (waking or
    creating the threads, preparing the workers, joining them) around a
    search of a fraction of a millisecond.
Prints each measurement and the worst and median per thread count (for
`go depth 1` the median and the mean). With --engine given more than once,
the engines take turns position by position, so that machine noise hits them
alike, and each gets its own summary. The times include the pipe round trip
through Python, so they are upper bounds.

    python3 bench/latency.py [--engine build/release/staccato [--engine other]] [--threads 2]
                             [--think 300] [--movetime 200] [--repeat 20]
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


def measure(engine, threads, fen, think_ms, movetime, repeat):
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
    go_ms = []
    for _ in range(repeat):
        engine.send("isready")
        engine.wait_for("readyok")
        go_ms.append(bestmove_after(engine, "go depth 1"))
    return stop_ms, movetime_ms, go_ms


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", action="append", help="the engine (repeat to compare several; "
                    "default build/release/staccato)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--think", type=int, default=300, help="ms of go infinite before stop")
    ap.add_argument("--movetime", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=20, help="go depth 1 searches per position and thread count")
    args = ap.parse_args()
    paths = args.engine or [os.path.join(ROOT, "build", "release", "staccato")]

    engines = []
    for path in paths:
        engine = Engine(path)
        engine.send("uci")
        engine.wait_for("uciok")
        engines.append(engine)
    counts = (1, args.threads)
    results = [{t: ([], [], []) for t in counts} for _ in engines]
    print(f"stop after {args.think} ms of go infinite; go movetime {args.movetime}; "
          f"go depth 1 {args.repeat} times")
    for e, path in enumerate(paths):
        print(f"engine {e}: {path}")
    print(" #  engine  threads  stop->bestmove (ms)  go movetime->bestmove (ms)  go depth 1->bestmove median (ms)")
    for i, fen in enumerate(POSITIONS, 1):
        for e, engine in enumerate(engines):
            for threads in counts:
                stop_ms, move_ms, go_ms = measure(engine, threads, fen, args.think, args.movetime, args.repeat)
                stops, moves, gos = results[e][threads]
                stops.append(stop_ms)
                moves.append(move_ms)
                gos.extend(go_ms)
                print(f"{i:2}  {e:6}  {threads:7}  {stop_ms:19.2f}  {move_ms:26.1f}  "
                      f"{statistics.median(go_ms):32.3f}")
    for engine in engines:
        engine.quit()
    for e, path in enumerate(paths):
        for threads, (stops, moves, gos) in results[e].items():
            print(f"engine {e} Threads {threads}: stop latency median {statistics.median(stops):.2f} ms, "
                  f"worst {max(stops):.2f} ms; movetime {args.movetime}: median {statistics.median(moves):.1f} ms, "
                  f"worst {max(moves):.1f} ms; go depth 1: median {statistics.median(gos):.3f} ms, "
                  f"mean {statistics.fmean(gos):.3f} ms")


if __name__ == "__main__":
    main()
