#!/usr/bin/env python3
"""Matches, gauntlets and SPRT tests for Staccato through a match runner on PATH.

Uses `fastchess` (preferred) or `cutechess-cli`, built from public source
outside this repository. Openings: ../shared/data/books/noob_3moves_4000.epd,
random order, every opening played once with each colour.

    python3 bench/match.py match --engine build/release/staccato --opponent glaurung --tc 40/5 --games 300
    python3 bench/match.py match --engine build/release/staccato --option EvalFile=new.nnue \\
        --opponent build/release/staccato --opponent-option EvalFile=old.nnue --games 400   # two nets
    python3 bench/match.py gauntlet --engine build/release/staccato --opponents stockfish-2000,glaurung,toga2,ethereal \\
        --tc 10+0.1 --games 200 --concurrency 2
    python3 bench/match.py sprt --engine build/release/staccato --base /tmp/staccato-base --tc 8+0.08 --elo0 0 --elo1 5
    python3 bench/match.py sprt --engine build/release/staccato --option EvalFile=new.nnue \\
        --base build/release/staccato --base-option EvalFile=old.nnue --tc 10+0.1 --elo0 0 --elo1 10   # two nets
    python3 bench/match.py report --pgn a.pgn --pgn b.pgn [--sprt]   # PGNs played elsewhere, Staccato as "staccato"

Time controls use the runner's format: 10+0.1 (seconds + increment), 40/5 (40 moves in 5 s, repeating).
Opponents: stockfish-<ELO> (UCI_LimitStrength, 1350-2850), stockfish, glaurung, toga2, ethereal, or a path to
any UCI engine. --engine and --base accept the same short names. Results are read back from the PGN and
printed from Staccato's side: W/D/L, score, Elo with a 95% interval (trinomial, normal approximation), the
pentanomial (game pairs counted by their points), and every game lost on time, by an illegal move or by a
crash/disconnect. SPRT: logistic-Elo GSPRT LLR on game pairs (pentanomial, as the runner stops on) and on
single games. Runner output goes to <pgn>.log.
"""
import argparse
import math
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_BOOK = os.path.join(ROOT, "..", "shared", "data", "books", "noob_3moves_4000.epd")
OURS, BASE = "staccato", "base"
ENGINES = {  # short name -> (binary, UCI options); glaurung defaults to 2 threads, toga2 to a 128 MB hash
    "stockfish": ("/usr/games/stockfish", {"Threads": "1", "Hash": "16"}),
    "glaurung": ("/usr/games/glaurung", {"Threads": "1", "OwnBook": "false"}),
    "toga2": ("/usr/games/toga2", {"OwnBook": "false", "Hash": "16"}),
    "ethereal": ("/usr/games/ethereal-chess", {"Threads": "1", "Hash": "16"}),
}
# PGN Termination tags (fastchess and cutechess) -> problem category
PROBLEMS = {"time forfeit": "time loss", "illegal move": "illegal move", "abandoned": "crash/disconnect",
            "stalled connection": "crash/disconnect"}


def resolve(name, extra=()):
    """Short name or path -> (command, options); `extra` is a list of NAME=VALUE overrides."""
    m = re.fullmatch(r"stockfish-(\d+)", name)
    if m:
        cmd, opts = "/usr/games/stockfish", {"UCI_LimitStrength": "true", "UCI_Elo": m.group(1),
                                             "Threads": "1", "Hash": "16"}
    elif name in ENGINES:
        cmd, opts = ENGINES[name][0], dict(ENGINES[name][1])
    else:  # a path; a Debian engine given by its path still gets its options
        cmd = os.path.abspath(name)
        known = [v for v in ENGINES.values() if v[0] == os.path.realpath(cmd)]
        opts = dict(known[0][1]) if known else {"Threads": "1", "Hash": "16"}
    if not os.access(cmd, os.X_OK):
        sys.exit(f"engine not found or not executable: {cmd}")
    opts.update(kv.split("=", 1) for kv in extra)
    return cmd, opts


# ---------------------------------------------------------------- statistics
def mean_var(counts):
    """counts: {score: number of games (or pairs)} -> (n, mean score, variance of one game's score)."""
    n = sum(counts.values())
    m = sum(s * c for s, c in counts.items()) / n
    return n, m, sum(c * (s - m) ** 2 for s, c in counts.items()) / n


def to_elo(s):
    return -400 * math.log10(1 / s - 1) + 0.0 if 0 < s < 1 else math.copysign(math.inf, s - 0.5)


def elo_interval(w, d, l):
    """Elo, half-width of the 95% interval, and LOS, from W/D/L (trinomial, normal approximation)."""
    n, s, var = mean_var({1.0: w, 0.5: d, 0.0: l})
    margin = 1.96 * math.sqrt(var / n)
    err = (to_elo(s + margin) - to_elo(s - margin)) / 2 if 0 < s - margin and s + margin < 1 else math.inf
    los = 0.5 * (1 + math.erf((w - l) / math.sqrt(2 * (w + l)))) if w + l else 0.5
    return to_elo(s), err, los


def mle(probs, score):
    """Distribution closest to `probs` (outcome score -> probability) whose mean is `score`."""
    f = lambda lam: sum(p * (a - score) / (1 + lam * (a - score)) for a, p in probs.items())
    lo, hi = -1 / (max(probs) - score), -1 / (min(probs) - score)  # f falls from +inf to -inf in between
    for _ in range(100):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if f(mid) > 0 else (lo, mid)
    lam = (lo + hi) / 2
    return {a: p / (1 + lam * (a - score)) for a, p in probs.items()}


def llr(counts, elo0, elo1):
    """Generalized SPRT log-likelihood ratio, logistic Elo (multinomial MLE, as fastchess/fishtest compute it).
    counts: {game score: games} (trinomial) or {pair score: pairs} (pentanomial)."""
    n = sum(counts.values())
    if n < 2:
        return 0.0
    probs = {a: (c or 1e-3) / n for a, c in counts.items()}  # empty outcomes regularized
    s0, s1 = (1 / (1 + 10 ** (-e / 400)) for e in (elo0, elo1))
    p0, p1 = mle(probs, s0), mle(probs, s1)
    return n * sum(p * math.log(p1[a] / p0[a]) for a, p in probs.items())


# ---------------------------------------------------------------- PGN
def read_games(path):
    """Finished games as dicts of PGN tags plus 'ending' (the last move comment)."""
    text = open(path, errors="replace").read() if os.path.exists(path) else ""
    games = []
    for chunk in re.split(r"\n(?=\[Event )", text):
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', chunk, re.M))
        if tags.get("Result", "*") == "*":
            continue
        comments = re.findall(r"\{([^}]*)\}", chunk)
        tags["ending"] = comments[-1].split(",")[-1].strip() if comments else ""
        games.append(tags)
    return games


def tally(games, ours):
    """Per opponent: W/D/L lists, pair scores, and the games that ended abnormally."""
    per_opp, pairs, problems = {}, {}, []
    for g in games:
        white, black, res = g.get("White"), g.get("Black"), g["Result"]
        if ours not in (white, black):
            continue
        opp = black if white == ours else white
        score = 0.5 if res == "1/2-1/2" else float((res == "1-0") == (white == ours))
        wdl = per_opp.setdefault(opp, [0, 0, 0])
        wdl[{1.0: 0, 0.5: 1, 0.0: 2}[score]] += 1
        pairs.setdefault((opp, g.get("Round", "?"), g.get("FEN", "")), []).append(score)
        kind = PROBLEMS.get(g.get("Termination", "").lower())
        if kind:
            loser = {"1-0": black, "0-1": white}.get(res, "?")
            problems.append((kind, loser, f"{white} vs {black} {res} ({g.get('Termination')}: {g['ending']})"))
    return per_opp, pairs, problems


def pentanomial(pairs, opp):
    """Finished pairs (one opening, both colours) against opp, counted by their points: 0, 0.5, 1, 1.5, 2."""
    counts = [0] * 5
    for key, scores in pairs.items():
        if key[0] == opp and len(scores) == 2:
            counts[round(2 * sum(scores))] += 1
    return counts


# ---------------------------------------------------------------- runner
def find_runner(preferred=None):
    for name in ([preferred] if preferred else ["fastchess", "cutechess-cli"]):
        if shutil.which(name):
            return name, shutil.which(name)
    sys.exit("neither fastchess nor cutechess-cli on PATH (build one from public source, outside this repository)")


def book_format(path):
    """ "pgn" when the book's first line that says anything is a PGN tag or
    move text, else "epd": read from what the file holds, not its name."""
    try:
        with open(path, errors="replace") as f:
            for line in f:
                line = line.strip()
                if line:
                    return "pgn" if line.startswith("[") or re.match(r"1\.", line) else "epd"
    except OSError as e:
        sys.exit(f"book {path}: {e.strerror}")
    sys.exit(f"book {path}: empty")


def runner_command(runner, path, args, engines, rounds, sprt):
    cmd = [path]
    for name, (c, opts) in engines:
        cmd += ["-engine", f"cmd={c}", f"name={name}"] + [f"option.{k}={v}" for k, v in opts.items()]
    fmt = book_format(args.book)
    # A node count replaces the clock: each move searches that many nodes
    # (the same games whatever else the machine is doing).
    clock = ["tc=inf", f"nodes={args.nodes}"] if getattr(args, "nodes", 0) else [f"tc={args.tc}"]
    cmd += ["-each", *clock, f"timemargin={args.timemargin}", "proto=uci",
            "-rounds", str(rounds), "-games", "2", "-repeat", "-concurrency", str(args.concurrency),
            "-recover", "-srand", str(args.seed),
            "-openings", f"file={args.book}", f"format={fmt}", "order=random"]
    cmd += ["-pgnout", f"file={args.pgn}"] if runner == "fastchess" else ["-pgnout", args.pgn]
    if args.adjudicate:
        # Decided games end early (both runners take the same options): a
        # score of 10 pawns or more for 4 moves in a row from both sides.
        # Draws are never adjudicated, so long endgames are still played.
        cmd += ["-resign", "movecount=4", "score=1000", "twosided=true"]
    if sprt:
        cmd += ["-sprt", f"elo0={args.elo0}", f"elo1={args.elo1}", f"alpha={args.alpha}", f"beta={args.beta}"]
        cmd += ["model=logistic"] if runner == "fastchess" else []  # same Elo scale as the LLR printed here
    return cmd


def run_runner(args, engines, rounds, sprt=False):
    """Runs one match; the runner's output goes to <pgn>.log, a progress line to stdout. Returns runner text."""
    runner, path = find_runner(args.runner)
    cmd = runner_command(runner, path, args, engines, rounds, sprt)
    print("$ " + shlex.join(cmd), flush=True)
    out, score, done = [], [0, 0, 0], 0
    # cwd is a scratch directory: fastchess writes config.json there, engines may write logs.
    with tempfile.TemporaryDirectory(prefix="staccato-match-") as cwd, open(args.log, "a") as log:
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                errors="replace")
        try:
            for line in proc.stdout:
                log.write(line)
                out.append(line)
                if args.verbose:
                    print(line, end="", flush=True)
                m = re.match(r"Finished game \d+ \((.+) vs (.+)\): (1-0|0-1|1/2-1/2)", line)
                if m and not args.verbose:
                    done += 1
                    white, res = m.group(1), m.group(3)
                    score[1 if res == "1/2-1/2" else 0 if (res == "1-0") == (white == OURS) else 2] += 1
                    if done % args.progress == 0:
                        llr_txt = re.findall(r"(?:LLR:|llr)\s*(-?[\d.]+)", "".join(out[-40:]))
                        print(f"  {time.strftime('%H:%M:%S')} {engines[1][0]}: {done} games, W/D/L "
                              f"{score[0]}/{score[1]}/{score[2]}" + (f", runner LLR {llr_txt[-1]}"
                                                                      if llr_txt else ""), flush=True)
            proc.wait()
        except KeyboardInterrupt:
            proc.terminate()
            proc.wait()
            args.interrupted = True
            print("interrupted; reporting the games finished so far")
        if proc.returncode:  # fastchess exits 1 on Ctrl-C too: a gauntlet stops here
            args.interrupted = True
            print(f"warning: {runner} exited with status {proc.returncode}; see {args.log}")
    return "".join(out)


def report(args, ours, runner_text, sprt=False, games=None):
    per_opp, pairs, problems = tally(read_games(args.pgn) if games is None else games, ours)
    total = 0
    for opp, (w, d, l) in per_opp.items():
        n = w + d + l
        total += n
        elo, err, los = elo_interval(w, d, l)
        print(f"{ours} vs {opp}: {n} games, W/D/L {w}/{d}/{l}, score {100 * (w + d / 2) / n:.1f}%, "
              f"Elo {elo:+.1f} +/- {err:.1f} (95%), LOS {100 * los:.1f}%")
        penta = pentanomial(pairs, opp)
        print(f"  pentanomial [{', '.join(map(str, penta))}] over {sum(penta)} pairs (0, 0.5, 1, 1.5, 2 points)")
    if sprt and per_opp:
        w, d, l = per_opp.get(BASE, [0, 0, 0])
        penta = {k / 4: n for k, n in enumerate(pentanomial(pairs, BASE))}
        lower, upper = math.log(args.beta / (1 - args.alpha)), math.log((1 - args.beta) / args.alpha)
        tri = llr({1.0: w, 0.5: d, 0.0: l}, args.elo0, args.elo1)
        pen = llr(penta, args.elo0, args.elo1) if sum(penta.values()) else tri
        runner_llr = re.findall(r"(?:LLR:|llr)\s*(-?[\d.]+)", runner_text)
        # The games come in pairs (one opening, both colours): the pentanomial LLR decides, as in the runner.
        verdict = "H1 accepted (pass)" if pen >= upper else "H0 accepted (fail)" if pen <= lower else "inconclusive"
        print(f"SPRT [{args.elo0}, {args.elo1}] logistic Elo, alpha={args.alpha} beta={args.beta}: "
              f"LLR {pen:.2f} (bounds {lower:.2f}, {upper:.2f}) -> {verdict}")
        print(f"  {sum(penta.values())} game pairs; trinomial LLR {tri:.2f}"
              + (f"; runner's own LLR {runner_llr[-1]}" if runner_llr else ""))
    kinds = ["time loss", "illegal move", "crash/disconnect"]
    counts = {k: [sum(1 for p in problems if p[0] == k and (p[1] == ours) == mine) for mine in (True, False)]
              for k in kinds}
    print(f"games {total}; " + ", ".join(f"{k}: {a + b} ({ours} {a})" for k, (a, b) in counts.items()))
    for p in problems[:10]:
        print("  " + p[2])
    # Cross-check with the runner's own counters (fastchess prints them per player at the end of a run).
    tracked = re.findall(r"Player: (.+)\n\s+Timeouts: (\d+)\n\s+Crashed: (\d+)", runner_text)
    if tracked:
        t_ours = [sum(int(t[i]) for t in tracked if t[0] == ours) for i in (1, 2)]
        t_all = [sum(int(t[i]) for t in tracked) for i in (1, 2)]
        print(f"runner counted: timeouts {t_all[0]} ({ours} {t_ours[0]}), crashes {t_all[1]} ({ours} {t_ours[1]})")
    warnings = re.findall(r"^Warning;.*$", runner_text, re.M)
    if warnings:
        mine = [w for w in warnings if re.search(rf"\b{re.escape(ours)}\b", w)]
        print(f"runner warnings: {len(warnings)} ({ours} {len(mine)}), e.g. {(mine or warnings)[0]}")
    print(f"PGN: {args.pgn}\nlog: {args.log}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=["match", "gauntlet", "sprt", "report"])
    ap.add_argument("--engine", default=os.path.join(ROOT, "build", "release", "staccato"), help="engine under test")
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="UCI option for --engine")
    ap.add_argument("--opponent", default="glaurung", help="match: one opponent")
    ap.add_argument("--opponent-option", "--base-option", dest="opponent_option", action="append", default=[],
                    metavar="NAME=VALUE", help="UCI option for the other side: --opponent (match) or --base "
                    "(sprt); another net of the same build: EvalFile=NET")
    ap.add_argument("--opponents", default="stockfish-2000,glaurung,toga2,ethereal", help="gauntlet: a,b,c")
    ap.add_argument("--base", help="sprt: the reference build")
    ap.add_argument("--tc", default="10+0.1")
    ap.add_argument("--nodes", type=int, default=0, help="a fixed node count per move instead of --tc")
    ap.add_argument("--games", type=int, help="games per opponent, even (default 200); sprt: maximum (20000)")
    ap.add_argument("--timemargin", type=int, default=0, help="ms an engine may overrun its clock (runner's rule)")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--runner", choices=["fastchess", "cutechess-cli"], help="default: fastchess if on PATH")
    ap.add_argument("--adjudicate", action="store_true",
                    help="resign adjudication: both engines see >= 10 pawns for 4 moves (saves time)")
    ap.add_argument("--elo0", type=float, default=0)
    ap.add_argument("--elo1", type=float, default=5)
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--beta", type=float, default=0.05)
    ap.add_argument("--book", default=DEFAULT_BOOK, help="EPD (one FEN a line) or PGN openings")
    ap.add_argument("--seed", type=int, default=random.randrange(1 << 31), help="opening order")
    ap.add_argument("--pgn", action="append", help="default /tmp/match-<timestamp>.pgn; report: one or more")
    ap.add_argument("--sprt", action="store_true", help="report: the games are an SPRT against \"base\"")
    ap.add_argument("--progress", type=int, default=20, help="print a progress line every N games")
    ap.add_argument("--verbose", action="store_true", help="show the runner's full output")
    args = ap.parse_args()
    args.interrupted = False
    if args.opponent_option and args.mode not in ("match", "sprt"):
        sys.exit("--opponent-option (--base-option) is for match and sprt: one other side")
    if args.mode == "report":  # games played elsewhere (another machine, an earlier run)
        if not args.pgn:
            sys.exit("report needs --pgn")
        games = [g for path in args.pgn for g in read_games(path)]
        args.pgn, args.log = ", ".join(args.pgn), "-"
        report(args, OURS, "", sprt=args.sprt, games=games)
        return
    args.pgn = args.pgn[-1] if args.pgn else None

    args.book = os.path.abspath(args.book)
    if not os.path.exists(args.book):
        sys.exit(f"opening book not found: {args.book}")
    args.pgn = os.path.abspath(args.pgn or time.strftime("/tmp/match-%Y%m%d-%H%M%S.pgn"))
    args.log = os.path.splitext(args.pgn)[0] + ".log"
    if os.path.exists(args.pgn):
        print(f"note: appending to {args.pgn}; the games already in it count in the report")
    me = (OURS, resolve(args.engine, args.option))
    clock = f"{args.nodes} nodes a move" if args.nodes else f"tc {args.tc}"
    print(f"seed {args.seed}, book {args.book}, {clock}, PGN {args.pgn}")
    if args.mode == "sprt":
        if not args.base:
            sys.exit("sprt needs --base (the reference build)")
        text = run_runner(args, [me, (BASE, resolve(args.base, args.opponent_option))], (args.games or 20000) // 2,
                          sprt=True)
        report(args, OURS, text, sprt=True)
        return
    names = [args.opponent] if args.mode == "match" else args.opponents.split(",")
    text = ""
    for name in names:  # same seed, so every opponent gets the same openings
        if args.interrupted:
            break
        text += run_runner(args, [me, (name, resolve(name, args.opponent_option))], max(1, (args.games or 200) // 2))
    report(args, OURS, text)


if __name__ == "__main__":
    main()
