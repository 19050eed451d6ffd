#!/usr/bin/env python3
"""Does Staccato convert tablebase wins and hold tablebase draws? (issue 29)

Two steps:

    # 1. endgame positions out of self-play records (staccato datagen's 32-byte
    #    records), classified by an independent prober (Debian's fathom):
    python3 bench/syzygy_conversion.py positions --data selfplay.bin --tb ../shared/data/syzygy \\
        --won 50 --drawn 50 --out /tmp/tbtest
    # 2. play each once against Stockfish 15.1 (no tables), Staccato with and without tables:
    python3 bench/syzygy_conversion.py play --engine build/release/staccato --tb ../shared/data/syzygy \\
        --dir /tmp/tbtest --tc 5+0.05

Won positions are wins for the side to move's winner within the fifty-move rule
(fathom's "Win"/"Loss", not cursed), drawn ones are "Draw"; each is turned so
that Staccato's side is White (the winner in won.epd, the side with less
material in drawn.epd) and played once with fastchess -noswap (Staccato White).
A won position must end 1-0, a drawn one must not end 0-1.
"""
import argparse
import os
import random
import re
import shutil
import struct
import subprocess
import sys

PIECES = "PNBRQK??pnbrqk"
VALUE = {"P": 1, "N": 3, "B": 3, "R": 5, "Q": 9, "K": 0}


def records(path):
    with open(path, "rb") as f:
        while True:
            chunk = f.read(32 * 65536)
            if not chunk:
                return
            for off in range(0, len(chunk) - 31, 32):
                yield chunk[off:off + 32]


def decode(rec):
    """A record (nnue/packed.h) as a FEN, or None when castling rights remain."""
    occ = struct.unpack_from("<Q", rec, 0)[0]
    side, ep, castling, rule50 = rec[27], rec[28], rec[29], rec[30]
    if castling:
        return None
    board = [""] * 64
    i = 0
    b = occ
    while b:
        sq = (b & -b).bit_length() - 1
        code = (rec[8 + i // 2] >> (4 * (i % 2))) & 15
        board[sq] = PIECES[code]
        b &= b - 1
        i += 1
    rows = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for file in range(8):
            p = board[rank * 8 + file]
            if p:
                row += (str(empty) if empty else "") + p
                empty = 0
            else:
                empty += 1
        rows.append(row + (str(empty) if empty else ""))
    ep_text = "-" if ep >= 64 else "abcdefgh"[ep % 8] + str(ep // 8 + 1)
    return f"{'/'.join(rows)} {'wb'[side]} - {ep_text} {rule50} 1"


def material(fen):
    """(White's pieces, Black's pieces), each as a table name half: "KRP"."""
    board = fen.split()[0]
    order = "KQRBNP"
    white = "".join(sorted((c for c in board if c.isupper()), key=order.index))
    black = "".join(sorted((c.upper() for c in board if c.islower()), key=order.index))
    return white, black


def table_name(fen):
    """The table's name: the side with more material first (KRPvKR)."""
    w, b = material(fen)
    worth = lambda side: (sum(VALUE[c] for c in side), len(side))
    return f"{w}v{b}" if worth(w) >= worth(b) else f"{b}v{w}"


def flip(fen):
    """The same position with the colours exchanged (board mirrored top to bottom)."""
    board, side, castling, ep, *clocks = fen.split()
    rows = [r.swapcase() for r in reversed(board.split("/"))]
    if ep != "-":
        ep = ep[0] + ("6" if ep[1] == "3" else "3")
    return " ".join(["/".join(rows), "b" if side == "w" else "w", castling, ep] + clocks)


def probe(fathom, tb, fen):
    out = subprocess.run([fathom, f"--path={tb}", fen], capture_output=True, text=True).stdout
    wdl = re.search(r'\[WDL "([^"]+)"\]', out)
    dtz = re.search(r'\[DTZ "(-?\d+)"\]', out)
    return (wdl.group(1) if wdl else None), (int(dtz.group(1)) if dtz else None)


def cmd_positions(a):
    os.makedirs(a.out, exist_ok=True)
    have = {os.path.splitext(n)[0] for n in os.listdir(a.tb) if n.endswith(".rtbw")}
    seen, candidates = set(), []
    for path in a.data:
        for rec in records(path):
            n = bin(struct.unpack_from("<Q", rec, 0)[0]).count("1")
            if n < 3 or n > 5:
                continue
            fen = decode(rec)
            if not fen:
                continue
            w, b = material(fen)
            if f"{w}v{b}" not in have and f"{b}v{w}" not in have:
                continue
            key = " ".join(fen.split()[:4])
            if key not in seen:
                seen.add(key)
                candidates.append(fen)
    rng = random.Random(a.seed)
    rng.shuffle(candidates)
    print(f"{len(candidates)} distinct 3-5 piece positions with tables")
    won, drawn = [], []
    per_material = {}
    for fen in candidates:
        if len(won) >= a.won and len(drawn) >= a.drawn:
            break
        mat = table_name(fen)
        if per_material.get(mat, 0) >= a.per_material:  # variety: not fifty KQvK
            continue
        wdl, dtz = probe(a.fathom, a.tb, fen)
        if wdl in ("Win", "Loss") and dtz is not None and abs(dtz) >= a.min_dtz and len(won) < a.won:
            white_wins = (wdl == "Win") == (fen.split()[1] == "w")
            won.append((fen if white_wins else flip(fen), wdl, dtz))
        elif wdl == "Draw" and len(drawn) < a.drawn:
            w, b = material(fen)
            weaker_black = sum(VALUE[c] for c in b) < sum(VALUE[c] for c in w)
            drawn.append((flip(fen) if weaker_black else fen, wdl, dtz))
        else:
            continue
        per_material[mat] = per_material.get(mat, 0) + 1
    for name, rows in (("won.epd", won), ("drawn.epd", drawn)):
        with open(os.path.join(a.out, name), "w") as f:
            for fen, wdl, dtz in rows:
                f.write(f'{" ".join(fen.split()[:4])} c0 "{table_name(fen)}: {wdl} for the side to move, '
                        f'dtz {dtz}";\n')
        print(f"{name}: {len(rows)} positions")


def play(a, epd, label, with_tables):
    count = sum(1 for _ in open(epd))
    pgn = os.path.join(a.dir, f"{label}.pgn")
    if os.path.exists(pgn):
        os.remove(pgn)
    ours = ["-engine", f"cmd={a.engine}", "name=staccato", "option.Threads=1", "option.Hash=16"]
    if with_tables:
        ours.append(f"option.SyzygyPath={a.tb}")
    cmd = [a.runner] + ours + [
        "-engine", f"cmd={a.opponent}", "name=stockfish", "option.Threads=1", "option.Hash=16",
        "-each", f"tc={a.tc}", "proto=uci", "-rounds", str(count), "-games", "1", "-noswap",
        "-concurrency", str(a.concurrency), "-openings", f"file={epd}", "format=epd", "order=sequential",
        "-pgnout", f"file={pgn}"]
    with open(pgn + ".log", "w") as log:
        subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT, cwd=a.dir)
    results = re.findall(r'\[Result "([^"]+)"\]', open(pgn).read()) if os.path.exists(pgn) else []
    return results


def cmd_play(a):
    for with_tables in (True, False):
        tag = "with tables" if with_tables else "without tables"
        won = play(a, os.path.join(a.dir, "won.epd"), "won-tb" if with_tables else "won-notb", with_tables)
        drawn = play(a, os.path.join(a.dir, "drawn.epd"), "drawn-tb" if with_tables else "drawn-notb", with_tables)
        print(f"{tag}: won positions {won.count('1-0')}/{len(won)} won "
              f"({won.count('1/2-1/2')} drawn, {won.count('0-1')} lost); "
              f"drawn positions {drawn.count('0-1')}/{len(drawn)} lost "
              f"({drawn.count('1/2-1/2')} drawn, {drawn.count('1-0')} won)")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("positions")
    s.add_argument("--data", action="append", required=True)
    s.add_argument("--tb", required=True)
    s.add_argument("--fathom", default="/usr/games/fathom")
    s.add_argument("--won", type=int, default=50)
    s.add_argument("--drawn", type=int, default=50)
    s.add_argument("--per-material", type=int, default=6, help="at most this many positions of one table")
    s.add_argument("--min-dtz", type=int, default=3, help="won positions at least this far from a zeroing move")
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--out", required=True)
    s = sub.add_parser("play")
    s.add_argument("--engine", required=True)
    s.add_argument("--opponent", default="/usr/games/stockfish")
    s.add_argument("--tb", required=True)
    s.add_argument("--dir", required=True)
    s.add_argument("--tc", default="5+0.05")
    s.add_argument("--concurrency", type=int, default=2)
    s.add_argument("--runner", default=shutil.which("fastchess") or "fastchess")
    a = p.parse_args()
    if a.cmd == "positions":
        a.tb = os.path.abspath(a.tb)
        cmd_positions(a)
    else:
        a.engine, a.tb, a.dir = os.path.abspath(a.engine), os.path.abspath(a.tb), os.path.abspath(a.dir)
        cmd_play(a)


if __name__ == "__main__":
    sys.exit(main())
