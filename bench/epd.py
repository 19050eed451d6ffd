#!/usr/bin/env python3
"""Runs an EPD test suite through a UCI engine at a fixed time per position.

    python3 bench/epd.py ../shared/data/epd/wac.epd --engine build/release/staccato --movetime 500

A position counts as solved when the engine's `bestmove` is one of the `bm`
moves (and none of the `am` moves). Moves in the EPD are SAN; they are matched
against the engine's UCI move from the board in the FEN, so no chess library
is needed. For STS-style suites (`c9` = UCI moves, `c0` = "move=points, ..."),
the points of the chosen move are summed too. Prints `solved N/M`.
"""
import argparse
import concurrent.futures
import re
import subprocess
import sys


def board_from_fen(fen):
    """Square name -> piece letter (upper case white) for the placement field."""
    board = {}
    for r, row in enumerate(fen.split()[0].split("/")):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                board["abcdefgh"[f] + str(8 - r)] = ch
                f += 1
    return board


def san_matches(san, uci, board):
    """True when the legal UCI move `uci` is the move written `san`."""
    san = re.sub(r"[+#!?]", "", san)
    frm, to, promo = uci[:2], uci[2:4], uci[4:5]
    piece = board.get(frm, " ").upper()
    if san in ("O-O", "0-0", "O-O-O", "0-0-0"):
        long_side = san.count("O") + san.count("0") == 3
        if piece != "K":
            return False
        target = board.get(to, " ").upper()
        if target == "R":  # king takes rook notation
            return (to[0] < frm[0]) == long_side
        return to[0] == ("c" if long_side else "g") and abs(ord(to[0]) - ord(frm[0])) == 2
    m = re.fullmatch(r"([KQRBN])?([a-h])?([1-8])?x?([a-h][1-8])(?:=?([QRBNqrbn]))?", san)
    if not m:
        return False
    want_piece, file_hint, rank_hint, dest, want_promo = m.groups()
    if dest != to or piece != (want_piece or "P"):
        return False
    if file_hint and frm[0] != file_hint:
        return False
    if rank_hint and frm[1] != rank_hint:
        return False
    return (want_promo or "").lower() == promo


def parse_epd(line):
    fields = line.strip().split(" ")
    if len(fields) < 4:
        return None
    fen = " ".join(fields[:4])
    ops = {}
    for op in re.finditer(r'(\w+)\s+("[^"]*"|[^;]*);', " ".join(fields[4:])):
        ops[op.group(1)] = op.group(2).strip().strip('"')
    return fen, ops


class Engine:
    def __init__(self, path, hash_mb, threads):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.wait_for("uciok")
        self.send(f"setoption name Hash value {hash_mb}")
        self.send(f"setoption name Threads value {threads}")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait_for(self, prefix):
        for line in self.p.stdout:
            if line.startswith(prefix):
                return line.strip()
        raise RuntimeError("engine closed its output")

    def best_move(self, fen, movetime):
        self.send("ucinewgame")
        self.send(f"position fen {fen} 0 1")
        self.send("isready")
        self.wait_for("readyok")
        self.send(f"go movetime {movetime}")
        return self.wait_for("bestmove").split()[1]

    def close(self):
        self.send("quit")
        self.p.wait(timeout=5)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("epd")
    ap.add_argument("--engine", default="build/release/staccato")
    ap.add_argument("--movetime", type=int, default=500, help="ms per position")
    ap.add_argument("--hash", type=int, default=16)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--concurrency", type=int, default=1, help="engines run at once")
    ap.add_argument("--limit", type=int, default=0, help="only the first N positions")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()

    items = [e for e in (parse_epd(l) for l in open(args.epd) if l.strip()) if e]
    if args.limit:
        items = items[: args.limit]

    def work(chunk):
        engine = Engine(args.engine, args.hash, args.threads)
        out = []
        for idx, (fen, ops) in chunk:
            out.append((idx, fen, ops, engine.best_move(fen, args.movetime)))
        engine.close()
        return out

    chunks = [[(i, items[i]) for i in range(k, len(items), args.concurrency)] for k in range(args.concurrency)]
    results = []
    with concurrent.futures.ThreadPoolExecutor(args.concurrency) as pool:
        for part in pool.map(work, chunks):
            results.extend(part)
    results.sort()

    solved = points = max_points = 0
    for idx, fen, ops, move in results:
        board = board_from_fen(fen)
        bm = ops.get("bm", "").split()
        am = ops.get("am", "").split()
        ok = (not bm or any(san_matches(s, move, board) for s in bm)) and not any(
            san_matches(s, move, board) for s in am)
        solved += ok
        if "c9" in ops and "c0" in ops:  # STS scoring
            ucis = ops["c9"].split()
            pts = [int(p.split("=")[1]) for p in ops["c0"].split(",")]
            max_points += max(pts)
            if move in ucis:
                points += pts[ucis.index(move)]
        if args.verbose or not ok:
            name = ops.get("id", f"#{idx + 1}")
            print(f"{'ok  ' if ok else 'MISS'} {name}: played {move}, bm {' '.join(bm)} {('am ' + ' '.join(am)) if am else ''}")
    print(f"solved {solved}/{len(results)} at {args.movetime} ms per position ({args.engine})")
    if max_points:
        print(f"STS points {points}/{max_points}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
