#!/usr/bin/env bash
# Smoke test of a built engine: `perft 5` from the start position is exact,
# and a short UCI session (uci, isready, position startpos, go depth 5)
# reaches depth 5 and a bestmove; `help` exits 0.
#   .github/smoke-test.sh build/release/staccato
#   .github/smoke-test.sh wine build/windows/staccato.exe    (Windows build under Wine)
# The engine command is every argument; Windows output lines end in CR LF.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 [RUNNER ...] ENGINE" >&2; exit 2; }
fail() { echo "FAIL: $*" >&2; exit 1; }

"$@" help | tr -d '\r' | grep -q '^usage: staccato' || fail "help"

perft=$("$@" perft 5 | tr -d '\r')
echo "$perft" | tail -3
echo "$perft" | grep -qx 'Nodes searched: 4865609' || fail "perft 5 is not 4865609"

coproc ENGINE { "$@"; }
printf 'uci\nisready\nposition startpos\ngo depth 5\n' >&"${ENGINE[1]}"
session=""
while IFS= read -r -t 120 line <&"${ENGINE[0]}"; do
  line=${line%$'\r'}
  session+="$line"$'\n'
  [[ $line == bestmove* ]] && break
done
printf 'quit\n' >&"${ENGINE[1]}"
wait "$ENGINE_PID" || fail "the engine exited with status $?"
echo "$session" | grep -v '^option '
grep -q '^id name Staccato ' <<<"$session" || fail "no id name"
grep -q '^uciok$' <<<"$session" || fail "no uciok"
grep -q '^readyok$' <<<"$session" || fail "no readyok"
grep -q '^info depth 5 ' <<<"$session" || fail "no info depth 5"
grep -Eq '^bestmove [a-h][1-8][a-h][1-8]' <<<"$session" || fail "no bestmove"
echo "smoke test passed: $*"
