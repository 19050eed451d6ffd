#!/usr/bin/env bash
# An engine of another build (aarch64 under qemu-aarch64, clang with libc++,
# a small stack) against this build's, the reference (ctest entries of label
# portability, tests/CMakeLists.txt):
#   tests/cross_check.sh bench   REFERENCE ENGINE...   the same `bench` node count
#   tests/cross_check.sh perft   REFERENCE ENGINE...   the perft suites exact (tests/data/perft:
#                                                      standard at depth 4 or the first depth after,
#                                                      Chess960 at depth 3)
#   tests/cross_check.sh uci     REFERENCE ENGINE...   one UCI session (go depth, go nodes, eval)
#                                                      answers as the reference does, but for time
#                                                      and nps; then Threads 2 ends in one legal bestmove
#   tests/cross_check.sh threads REFERENCE ENGINE...   Threads 2 alone (run it under `ulimit -s 512`)
# ENGINE... is the command, e.g. `qemu-aarch64 build/test/aarch64/staccato`.
set -euo pipefail
((BASH_VERSINFO[0] >= 4)) || { echo "$0 needs bash 4 or later (this is $BASH_VERSION)" >&2; exit 2; }
[ $# -ge 3 ] || { echo "usage: $0 bench|perft|uci|threads REFERENCE ENGINE..." >&2; exit 2; }
mode=$1 reference=$2
shift 2
data=$(cd "$(dirname "$0")/data" && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }

bench_nodes() { "$@" bench 2>&1 | tr -d '\r' | sed -n 's/^Nodes searched *: *\([0-9]*\)$/\1/p'; }

# Runs one UCI session on "$@": the lines of $script, each `go` answered
# by its bestmove before the next line is sent (a `position` sent during a
# search is refused); prints what the engine said.
session() {
    local dir line searches=0 waited pid writer status
    dir=$(mktemp -d)
    mkfifo "$dir/in"
    : >"$dir/out" # there before the engine opens the fifo, which waits for the writer below
    "$@" <"$dir/in" >"$dir/out" 2>&1 &
    pid=$!
    # A failed check leaves no engine or folder behind.
    trap 'kill "$pid" 2>/dev/null; rm -rf "$dir"' EXIT
    exec {writer}>"$dir/in"
    while IFS= read -r line; do
        printf '%s\n' "$line" >&"$writer"
        [[ $line == go* && $line != "go perft"* ]] || continue
        searches=$((searches + 1))
        for ((waited = 0; $(grep -c '^bestmove' "$dir/out") < searches; ++waited)); do
            ((waited < 6000)) || fail "no bestmove after '$line' in 300 s"
            if ! kill -0 "$pid" 2>/dev/null; then
                status=0
                wait "$pid" || status=$?
                fail "the engine ended (status $status) before its bestmove after '$line':"$'\n'"$(cat "$dir/out")"
            fi
            sleep 0.05
        done
    done <<<"$script"
    printf 'quit\n' >&"$writer"
    exec {writer}>&-
    wait "$pid" || fail "the engine exited with status $?"
    tr -d '\r' <"$dir/out"
    rm -rf "$dir"
    trap - EXIT
}

# Threads 2 from a middlegame: exactly one bestmove, and one of the legal moves.
threads_two() {
    local fen="r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"
    script="uci
setoption name Threads value 2
isready
position fen $fen
go depth 10
position fen $fen
go perft 1"
    local out legal best count
    out=$(session "$@")
    [ "$(grep -c '^bestmove ' <<<"$out")" = 1 ] || fail "Threads 2: not exactly one bestmove"$'\n'"$out"
    best=$(sed -n 's/^bestmove \([a-h1-8qrbn]*\).*/\1/p' <<<"$out")
    legal=$(sed -n 's/^\([a-h][1-8][a-h][1-8][qrbn]\{0,1\}\): [0-9]*$/\1/p' <<<"$out")
    count=$(grep -c . <<<"$legal" || true)
    ((count == 33)) || fail "Threads 2: perft 1 listed $count moves, not 33"
    grep -qx -- "$best" <<<"$legal" || fail "Threads 2: bestmove '$best' is not legal"
    echo "Threads 2: one bestmove, $best, legal"
}

case $mode in
bench)
    want=$(bench_nodes "$reference")
    got=$(bench_nodes "$@")
    echo "bench: reference $want, $* $got"
    [ -n "$want" ] && [ "$got" = "$want" ] || fail "bench differs"
    ;;
perft)
    # One position and depth per query, the expected count from the suite.
    queries="" expected=()
    while IFS= read -r line; do
        fen=${line%% ;*}
        # The first depth of 4 or more the suite gives (some give only D5).
        for depth in 4 5 6; do [[ $line == *";D$depth "* ]] && break; done
        expected+=("$(sed -n "s/.*;D$depth \([0-9]*\).*/\1/p" <<<"$line")")
        queries+="position fen $fen"$'\n'"go perft $depth"$'\n'
    done <"$data/perft/standard.epd"
    while IFS= read -r line; do
        expected+=("$(sed -n 's/.*;D3 \([0-9]*\).*/\1/p' <<<"$line")")
        queries+="position fen ${line%% ;*}"$'\n'"go perft 3"$'\n'
    done <"$data/perft/fischer.epd"
    mapfile -t got < <(printf 'setoption name UCI_Chess960 value true\n%squit\n' "$queries" | "$@" 2>&1 |
        tr -d '\r' | sed -n 's/^Nodes searched: \([0-9]*\)$/\1/p')
    [ "${#got[@]}" = "${#expected[@]}" ] || fail "${#got[@]} perft answers for ${#expected[@]} positions"
    for i in "${!expected[@]}"; do
        [ "${got[$i]}" = "${expected[$i]}" ] || fail "position $((i + 1)): ${got[$i]}, expected ${expected[$i]}"
    done
    echo "perft: ${#expected[@]} positions exact (128 standard at depth 4 or more, 960 Chess960 at depth 3)"
    ;;
uci)
    script="uci
isready
position startpos moves e2e4 c7c5 g1f3
go depth 10
position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1
go nodes 30000
eval
ucinewgame
position fen 8/2k5/8/2P5/3K4/8/8/8 w - - 0 1
go depth 14
position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1
go depth 6"
    # Timing aside, one thread searches the same tree on every build.
    strip() { sed -E '/^(Staccato |id name )/d; s/ (time|nps) [0-9]+//g'; }
    want=$(session "$reference" | strip)
    got=$(session "$@" | strip)
    if [ "$got" != "$want" ]; then
        diff <(echo "$want") <(echo "$got") >&2 || true
        fail "the UCI session differs from the reference's"
    fi
    echo "uci: $(grep -c '^bestmove' <<<"$got") searches, eval and options answered as the reference"
    grep -q '^bestmove d1d8' <<<"$got" || fail "no back-rank mate found"
    threads_two "$@"
    ;;
threads) threads_two "$@" ;;
*) fail "unknown mode $mode" ;;
esac
