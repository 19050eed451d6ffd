#!/usr/bin/env python3
"""Matches, gauntlets and SPRT tests for Staccato through a match runner on PATH.

Uses `fastchess` (or `cutechess-cli`), built by you from its public source
outside this repository. Openings come from ../shared/data/books.

    python3 bench/match.py match --engine build/staccato --opponent glaurung --tc 10+0.1 --games 200
    python3 bench/match.py gauntlet --engine build/staccato --opponents stockfish-2000,glaurung,toga2 --games 200
    python3 bench/match.py sprt --engine build/staccato --base /tmp/staccato-base --tc 8+0.08

Time controls use the runner's format: 10+0.1 (seconds + increment),
40/5 (40 moves in 5 s, repeating). Results are read back from the PGN and
printed from Staccato's point of view: W/D/L, score, Elo with a 95% interval,
and every game that ended by time forfeit, illegal move or a crash.
"""
import argparse
import math
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_BOOK = os.path.join(ROOT, "..", "shared", "data", "books", "noob_3moves_4000.epd")


def opponent(name):
    """Short name -> (command, options) for the Debian engines in /usr/games."""
    m = re.fullmatch(r"stockfish-(\d+)", name)
    if m:
        return "/usr/games/stockfish", {"UCI_LimitStrength": "true", "UCI_Elo": m.group(1), "Threads": "1",
                                         "Hash": "16"}
    table = {
        "stockfish": ("/usr/games/stockfish", {"Threads": "1", "Hash": "16"}),
        "glaurung": ("/usr/games/glaurung", {"Threads": "1", "OwnBook": "false", "Hash": "16"}),
        "toga2": ("/usr/games/toga2", {"OwnBook": "false", "Hash": "16"}),
        "ethereal": ("/usr/games/ethereal-chess", {"Threads": "1", "Hash": "16"}),
    }
    if name in table:
        return table[name]
    return name, {}  # a path to any UCI engine


def engine_args(name, cmd, options):
    args = ["-engine", f"cmd={cmd}", f"name={name}"]
    args += [f"option.{k}={v}" for k, v in options.items()]
    return args


def elo_with_error(w, d, l):
    """Elo difference and the half-width of its 95% interval (normal approximation)."""
    n = w + d + l
    if n == 0:
        return 0.0, 0.0
    score = (w + 0.5 * d) / n
    var = (w * (1 - score) ** 2 + d * (0.5 - score) ** 2 + l * score ** 2) / n
    elo = lambda s: -400 * math.log10(1 / s - 1) if 0 < s < 1 else math.copysign(999, s - 0.5)
    margin = 1.96 * math.sqrt(var / n)
    lo, hi = max(score - margin, 1e-6), min(score + margin, 1 - 1e-6)
    return elo(score), (elo(hi) - elo(lo)) / 2


def sprt_llr(w, d, l, elo0, elo1):
    """Generalized SPRT log-likelihood ratio (trinomial, normal approximation)."""
    n = w + d + l
    if n == 0 or w == n or l == n:
        return 0.0
    s = (w + 0.5 * d) / n
    var = (w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * s ** 2) / n
    if var <= 0:
        return 0.0
    s0 = 1 / (1 + 10 ** (-elo0 / 400))
    s1 = 1 / (1 + 10 ** (-elo1 / 400))
    return (s1 - s0) * (2 * s - s0 - s1) / (2 * var / n)


def parse_pgn(path, ours):
    """Per opponent: [wins, draws, losses] for `ours`, plus abnormal endings."""
    results, problems = {}, []
    text = open(path, errors="replace").read() if os.path.exists(path) else ""
    for game in re.split(r"\n(?=\[Event )", text):
        tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', game))
        if "Result" not in tags or tags["Result"] == "*":
            continue
        white, black, res = tags.get("White"), tags.get("Black"), tags["Result"]
        if ours not in (white, black):
            continue
        opp = black if white == ours else white
        wdl = results.setdefault(opp, [0, 0, 0])
        if res == "1/2-1/2":
            wdl[1] += 1
        elif (res == "1-0") == (white == ours):
            wdl[0] += 1
        else:
            wdl[2] += 1
        ending = (tags.get("Termination", "") + " " + " ".join(re.findall(r"\{([^}]*)\}\s*(?:1-0|0-1|1/2-1/2)\s*$", game))).lower()
        if any(k in ending for k in ("time", "illegal", "disconnect", "crash", "stall", "abandon")):
            problems.append(f"{white} vs {black} {res}: {ending.strip()}")
    return results, problems


def run_runner(args, engines, rounds, sprt=None):
    runner = shutil.which("fastchess")
    if not runner:
        sys.exit("fastchess not found on PATH (build it from its public source, outside this repository)")
    pgn = args.pgn or f"/tmp/match-{int(time.time())}.pgn"
    cmd = [runner]
    for name, c, opts in engines:
        cmd += engine_args(name, c, opts)
    cmd += ["-each", f"tc={args.tc}", "proto=uci", "-rounds", str(rounds), "-games", "2", "-repeat",
            "-concurrency", str(args.concurrency), "-openings", f"file={args.book}", "format=epd", "order=random",
            "-pgnout", f"file={pgn}", "-recover"]
    if sprt:
        cmd += ["-sprt", f"elo0={sprt[0]}", f"elo1={sprt[1]}", "alpha=0.05", "beta=0.05"]
    print(" ".join(cmd), flush=True)
    # The runner writes its config.json into the working directory: keep it out of the repository.
    workdir = os.path.join("/tmp", "staccato-match")
    os.makedirs(workdir, exist_ok=True)
    subprocess.run(cmd, cwd=workdir, stdout=subprocess.DEVNULL if not args.verbose else None)
    return pgn


def report(pgn, ours, sprt=None):
    results, problems = parse_pgn(pgn, ours)
    total = [0, 0, 0]
    for opp, (w, d, l) in sorted(results.items()):
        n = w + d + l
        elo, err = elo_with_error(w, d, l)
        print(f"{ours} vs {opp}: {n} games, W/D/L {w}/{d}/{l}, score {100 * (w + d / 2) / n:.1f}%, "
              f"Elo {elo:+.1f} +/- {err:.1f} (95%)")
        total = [a + b for a, b in zip(total, (w, d, l))]
        if sprt:
            llr = sprt_llr(w, d, l, *sprt)
            bound = math.log((1 - 0.05) / 0.05)
            verdict = "H1 accepted" if llr >= bound else "H0 accepted" if llr <= -bound else "inconclusive"
            print(f"SPRT elo0={sprt[0]} elo1={sprt[1]}: LLR {llr:.2f} (bounds +/-{bound:.2f}) -> {verdict}")
    print(f"games {sum(total)}; time forfeits / illegal moves / crashes: {len(problems)}")
    for p in problems:
        print("  " + p)
    print(f"PGN: {pgn}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=["match", "gauntlet", "sprt"])
    ap.add_argument("--engine", default=os.path.join(ROOT, "build", "staccato"))
    ap.add_argument("--opponent", default="glaurung")
    ap.add_argument("--opponents", default="stockfish-2000,glaurung,toga2,ethereal")
    ap.add_argument("--base", help="previous build, for sprt")
    ap.add_argument("--tc", default="10+0.1")
    ap.add_argument("--games", type=int, default=200, help="games per opponent (even)")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--elo0", type=float, default=0)
    ap.add_argument("--elo1", type=float, default=5)
    ap.add_argument("--book", default=DEFAULT_BOOK)
    ap.add_argument("--pgn")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()

    ours = "staccato"
    args.engine = os.path.abspath(args.engine)
    args.book = os.path.abspath(args.book)
    args.pgn = os.path.abspath(args.pgn) if args.pgn else None
    if args.base:
        args.base = os.path.abspath(args.base)
    me = (ours, args.engine, {"Hash": "16", "Threads": "1"})
    if args.mode == "sprt":
        if not args.base:
            sys.exit("sprt needs --base (the previous build)")
        pgn = run_runner(args, [me, ("base", args.base, {"Hash": "16", "Threads": "1"})], 20000,
                         (args.elo0, args.elo1))
        report(pgn, ours, (args.elo0, args.elo1))
        return
    names = [args.opponent] if args.mode == "match" else args.opponents.split(",")
    args.pgn = args.pgn or f"/tmp/match-{int(time.time())}.pgn"
    for name in names:
        c, opts = opponent(name)
        run_runner(args, [me, (name, c, opts)], max(1, args.games // 2))
    report(args.pgn, ours)


if __name__ == "__main__":
    main()
