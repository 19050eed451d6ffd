#!/usr/bin/env python3
"""A small local SPSA tuner for Staccato's search constants, through fastchess.

The same method as OpenBench's SPSA workloads, on one machine: every
iteration perturbs all tuned values at once by +c or -c (a random sign each),
plays game pairs between the two perturbed engines (theta+ against theta-),
and moves each value by r * c * (wins - losses) * sign. c and r shrink over
the run so that they end at each entry's c_end and at r_end, the figures
`staccato spsa` prints (name, int, default, min, max, c_end, r_end).
That r_end suits OpenBench's tens of thousands of games: near the end a
won game moves a value by r_end * c_end (0.016 for RfpMargin), so a local run
of a thousand games moves nothing by even one c_end. A short run wants a
larger --r-end and reads as a direction, not a fit.
Schedules as Spall's: c_k = c / (k+1)^0.101, a_k = a / (A+k+1)^0.602,
r_k = a_k / c_k^2, A = a tenth of the iterations.

It needs the tuning build (`make TUNE=1` or CMake -DSTACCATO_TUNE=ON), whose
constants are UCI options; the values are passed as option.<name>=<value>.

    python3 bench/spsa.py --engine build/tune/staccato --params LmrBase,LmrDivisor \\
        --start LmrDivisor=300 --iterations 100 --pairs 2 --tc 2+0.02

Two cores play about 18 games a minute at 2+0.02: a real tune of a dozen
values wants tens of thousands of games (OpenBench); a short run here shows
the machinery and where the values drift. Every iteration is a line of
output (and of --csv): its games and the values after it.

A run longer than a sitting continues where it stopped: the same command
with --resume reads the --csv file's last line (its iteration and values,
written exactly), replays the seed's random signs up to it and appends the
rest, so the values move as one command's would have. The header and the
last line are enough to carry a run to another machine (the W/D/L total
then counts only the lines present).

    python3 bench/spsa.py --engine build/tune/staccato --iterations 500 --seed 7 --csv run.csv
    python3 bench/spsa.py --engine build/tune/staccato --iterations 500 --seed 7 --csv run.csv --resume
"""
import argparse
import csv
import os
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import match  # noqa: E402  (the runner and PGN helpers)

ALPHA, GAMMA = 0.602, 0.101


def read_table(engine):
    """`engine spsa` -> {name: (default, min, max, c_end)} and r_end."""
    out = subprocess.run([engine, "spsa"], capture_output=True, text=True, check=True).stdout
    table, r_end = {}, None
    for line in out.splitlines():
        parts = [p.strip() for p in line.split(",")]
        if len(parts) != 7 or parts[1] != "int":
            sys.exit(f"unexpected spsa line from {engine}: {line!r}")
        name, default, lo, hi, c_end = parts[0], *map(int, parts[2:6])
        table[name] = (default, lo, hi, c_end)
        r_end = float(parts[6])
    if not table:
        sys.exit(f"{engine} printed no spsa lines")
    return table, r_end


def check_tuning_build(engine, names):
    """The UCI options of a tuning build include every tuned name."""
    out = subprocess.run([engine, "uci", "quit"], capture_output=True, text=True).stdout
    missing = [n for n in names if f"option name {n} type spin" not in out]
    if missing:
        sys.exit(f"{engine} has no UCI option {missing[0]}: build it with make TUNE=1 or -DSTACCATO_TUNE=ON")


def play(args, plus, minus, seed, workdir):
    """Game pairs of theta+ against theta-; returns (wins, draws, losses) of theta+."""
    pgn = os.path.join(workdir, "iteration.pgn")
    if os.path.exists(pgn):
        os.remove(pgn)
    runner, path = match.find_runner("fastchess")
    engines = [(name, (args.engine, dict(args.fixed, **{k: str(round(v)) for k, v in values.items()})))
               for name, values in (("plus", plus), ("minus", minus))]
    ns = argparse.Namespace(tc=args.tc, nodes=args.nodes, timemargin=0, concurrency=args.concurrency, seed=seed,
                            book=args.book, pgn=pgn, adjudicate=True)
    cmd = match.runner_command(runner, path, ns, engines, args.pairs, sprt=False)
    subprocess.run(cmd, cwd=workdir, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, check=False)
    per_opp, _, problems = match.tally(match.read_games(pgn), "plus")
    for kind, loser, text in problems:
        print(f"  warning: {kind} by {loser}: {text}", flush=True)
    return tuple(per_opp.get("minus", [0, 0, 0]))


def csv_header(names):
    return ["iteration", "wins", "draws", "losses"] + names


def draw(rng, names):
    """One iteration's random signs (one per value) and its games' seed: the only draws a run makes."""
    return {name: rng.choice((-1, 1)) for name in names}, rng.randrange(1 << 31)


def resume(args, names, theta, total):
    """--resume: the --csv file's last line -> theta and total (updated); returns its iteration."""
    if not args.csv or not os.path.exists(args.csv):
        sys.exit("--resume needs the --csv file of the run to continue")
    with open(args.csv, newline="") as fh:
        rows = list(csv.reader(fh))
    if not rows or rows[0] != csv_header(names):
        sys.exit(f"{args.csv}: its columns are not this run's values ({', '.join(names)})")
    done = 0
    for line, row in enumerate(rows[1:], start=2):
        try:
            k, w, d, l = (int(x) for x in row[:4])
            values = [float(x) for x in row[4:]]
        except ValueError:
            sys.exit(f"{args.csv}: line {line} is not an iteration: {','.join(row)}")
        if k <= done or len(values) != len(names):
            sys.exit(f"{args.csv}: line {line} is not an iteration after {done} with {len(names)} values")
        done = k
        for i, x in enumerate((w, d, l)):
            total[i] += x
        theta.update(zip(names, values))
    if done >= args.iterations:
        sys.exit(f"{args.csv}: all {args.iterations} iterations are done")
    return done


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", required=True, help="a tuning build of staccato")
    ap.add_argument("--params", help="names to tune, a,b,c (default: every entry of `spsa`)")
    ap.add_argument("--start", action="append", default=[], metavar="NAME=VALUE",
                    help="a starting value other than the default")
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                    help="a UCI option for both sides (default Threads=1 Hash=16)")
    ap.add_argument("--iterations", type=int, default=100)
    ap.add_argument("--pairs", type=int, default=2, help="game pairs an iteration")
    ap.add_argument("--tc", default="2+0.02")
    ap.add_argument("--nodes", type=int, default=0,
                    help="a fixed node count per move instead of --tc (results independent of the machine's load)")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--book", default=match.DEFAULT_BOOK)
    ap.add_argument("--seed", type=int, default=random.randrange(1 << 31))
    ap.add_argument("--csv", help="write each iteration's games and values here")
    ap.add_argument("--resume", action="store_true",
                    help="continue the run in --csv (the same --iterations, --seed, --params and --pairs)")
    ap.add_argument("--r-end", type=float,
                    help="final learning rate (default: the table's, sized for OpenBench's tens of thousands of games)")
    args = ap.parse_args()
    args.engine = os.path.abspath(args.engine)  # the games run in a temporary folder

    table, r_end = read_table(args.engine)
    if args.r_end is not None:
        if args.r_end <= 0:
            sys.exit("--r-end must be positive")
        r_end = args.r_end
    names = args.params.split(",") if args.params else list(table)
    unknown = [n for n in names if n not in table]
    if unknown:
        sys.exit(f"not a tunable: {unknown[0]} (known: {', '.join(table)})")
    check_tuning_build(args.engine, names)
    args.fixed = {"Threads": "1", "Hash": "16"}
    for kv in args.option:
        k, _, v = kv.partition("=")
        args.fixed[k] = v

    theta = {n: float(table[n][0]) for n in names}
    for kv in args.start:
        k, _, v = kv.partition("=")
        if k not in theta:
            sys.exit(f"--start {kv}: {k} is not tuned in this run")
        theta[k] = float(v)

    n = args.iterations
    big_a = 0.1 * n
    c0 = {k: table[k][3] * n ** GAMMA for k in names}           # c_k ends at c_end
    a0 = {k: r_end * table[k][3] ** 2 * (big_a + n) ** ALPHA for k in names}  # r_k ends at r_end
    rng = random.Random(args.seed)
    total, done = [0, 0, 0], 0
    if args.resume:
        done = resume(args, names, theta, total)
        for _ in range(done):  # what the finished iterations drew
            draw(rng, names)
    writer = None
    if args.csv:
        fh = open(args.csv, "a" if args.resume else "w", newline="")
        writer = csv.writer(fh)
        if not args.resume:
            writer.writerow(csv_header(names))
    print(f"SPSA over {', '.join(names)}: {n} iterations of {args.pairs} pairs at "
          f"{f'{args.nodes} nodes' if args.nodes else args.tc}, "
          f"r_end {r_end}, seed {args.seed}")
    print(("resumed after iteration %d: " % done if done else "start: ") +
          ", ".join(f"{k}={theta[k]:.1f}" for k in names), flush=True)
    with tempfile.TemporaryDirectory(prefix="staccato-spsa-") as workdir:
        for k in range(done, n):
            plus, minus, step = {}, {}, {}
            signs, game_seed = draw(rng, names)
            for name in names:
                _, lo, hi, _ = table[name]
                c_k = c0[name] / (k + 1) ** GAMMA
                r_k = a0[name] / (big_a + k + 1) ** ALPHA / c_k ** 2
                sign = signs[name]
                plus[name] = min(hi, max(lo, theta[name] + c_k * sign))
                minus[name] = min(hi, max(lo, theta[name] - c_k * sign))
                step[name] = r_k * c_k * sign
            w, d, l = play(args, plus, minus, game_seed, workdir)
            if w + d + l == 0:
                sys.exit(f"iteration {k + 1}: no game finished (run the runner by hand: bench/match.py)")
            for i, x in enumerate((w, d, l)):
                total[i] += x
            for name in names:
                _, lo, hi, _ = table[name]
                theta[name] = min(hi, max(lo, theta[name] + step[name] * (w - l)))
            print(f"{k + 1:4d}  +{w} ={d} -{l}  " + " ".join(f"{x}={theta[x]:.1f}" for x in names), flush=True)
            if writer:
                writer.writerow([k + 1, w, d, l] + [repr(theta[x]) for x in names])  # exact: --resume reads them
                fh.flush()
    if writer:
        fh.close()
    print(f"games: {sum(total)} (theta+ W/D/L {total[0]}/{total[1]}/{total[2]})")
    print("result: " + " ".join(f"option.{k}={round(theta[k])}" for k in names))


if __name__ == "__main__":
    main()
