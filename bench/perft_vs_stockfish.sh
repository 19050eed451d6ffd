#!/usr/bin/env bash
# Perft speed against Stockfish (Debian's stockfish package, `go perft N`),
# the two engines run side by side, interleaved, in one invocation; best of
# three runs each. Prints nodes/second and our speed as a ratio of Stockfish's.
#
#   bench/perft_vs_stockfish.sh [path/to/staccato] [path/to/stockfish]
set -euo pipefail
ours=${1:-build/release/staccato}
sf=${2:-/usr/games/stockfish}
[ -x "$ours" ] || { echo "no staccato binary at $ours" >&2; exit 2; }
[ -x "$sf" ] || { echo "no stockfish at $sf (apt-get install stockfish)" >&2; exit 2; }

positions=(
  "startpos|6|rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
  "kiwipete|5|r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
  "position3|6|8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
)

now_ns() { date +%s%N; }

run_ours() {  # depth fen -> "nodes ns"
  local t0 t1 n
  t0=$(now_ns)
  n=$("$ours" perft "$1" "$2" | awk '/^Nodes searched/ {print $3}')
  t1=$(now_ns)
  echo "$n $((t1 - t0))"
}

run_sf() {
  local t0 t1 n
  t0=$(now_ns)
  n=$(printf 'position fen %s\ngo perft %s\nquit\n' "$2" "$1" | "$sf" | awk '/^Nodes searched/ {print $3}')
  t1=$(now_ns)
  echo "$n $((t1 - t0))"
}

printf '%-10s %5s %12s %14s %14s %7s\n' position depth nodes "staccato nps" "stockfish nps" ratio
log_sum=0
count=0
for entry in "${positions[@]}"; do
  IFS='|' read -r name depth fen <<<"$entry"
  best_ours=0 best_sf=0 nodes_ours=0 nodes_sf=0
  for _ in 1 2 3; do
    read -r nodes_ours t <<<"$(run_ours "$depth" "$fen")"
    if [ "$best_ours" = 0 ] || [ "$t" -lt "$best_ours" ]; then best_ours=$t; fi
    read -r nodes_sf t <<<"$(run_sf "$depth" "$fen")"
    if [ "$best_sf" = 0 ] || [ "$t" -lt "$best_sf" ]; then best_sf=$t; fi
  done
  if [ "$nodes_ours" != "$nodes_sf" ]; then
    echo "node counts differ on $name: staccato $nodes_ours, stockfish $nodes_sf" >&2
    exit 1
  fi
  read -r nps_ours nps_sf ratio <<<"$(awk -v n="$nodes_ours" -v a="$best_ours" -v b="$best_sf" \
    'BEGIN { printf "%d %d %.2f", n / (a / 1e9), n / (b / 1e9), b / a }')"
  printf '%-10s %5s %12s %14s %14s %7s\n' "$name" "$depth" "$nodes_ours" "$nps_ours" "$nps_sf" "$ratio"
  log_sum=$(awk -v s="$log_sum" -v r="$ratio" 'BEGIN { print s + log(r) }')
  count=$((count + 1))
done
awk -v s="$log_sum" -v c="$count" 'BEGIN { printf "geometric mean ratio (staccato / stockfish speed): %.2f\n", exp(s / c) }'
echo "(wall-clock times include process start-up for both engines; best of 3 runs each)"
