#!/usr/bin/env bash
# The documents run: .github/CONTRIBUTING.md's bench/datagen.sh commands
# (start, pause, resume, status, stop) against this build, with a tiny node
# count, in a scratch data folder. Checks that start leaves one run niced to
# 19 (and its scheduler autogroup too, where this kernel lets a process nice
# its own), that pause stops it and resume lets it go on, that stop ends it
# at a game boundary, and that the MANIFEST then lists its file with whole
# games that the trainer reads.
#   tests/datagen_script.sh REPO_DIR BUILD_DIR
set -euo pipefail
repo=$(realpath "$1") build=$(realpath "$2")
export STACCATO_DATA=$(mktemp -d)
trap 'bash "$repo/bench/datagen.sh" stop >/dev/null 2>&1 || true; rm -rf "$STACCATO_DATA"' EXIT
fail() { echo "datagen.sh: $*"; exit 1; }
dg() { bash "$repo/bench/datagen.sh" "$@"; }

grep -q 'bench/datagen.sh start' "$repo/.github/CONTRIBUTING.md" || fail "CONTRIBUTING no longer shows start"
started=$(dg start "$build/staccato" 1 nodes=300 games=100000)
grep -q "started seed 300" <<<"$started" || fail "start did not start seed 300: $started"
head -1 "$STACCATO_DATA/s300.log" | grep -q "^# .* datagen out=$STACCATO_DATA/s300.games .*seed=300 nodes=300 games=100000$" ||
    fail "s300.log does not begin with the run's command: $(head -1 "$STACCATO_DATA/s300.log")"
pid=
for _ in $(seq 50); do # the run execs the engine once its autogroup is niced
    pid=$(pgrep -f -- "datagen out=$STACCATO_DATA/s300.games" || true)
    [ -n "$pid" ] && [ "$(readlink "/proc/$pid/exe")" = "$(realpath "$build/staccato")" ] && break
    sleep 0.1
done
[ -n "$pid" ] || fail "no run found"
[ "$(ps -o ni= -p "$pid" | tr -d ' ')" = 19 ] || fail "the run is not niced to 19"
if [ -w /proc/self/autogroup ] && (echo 0 >/proc/self/autogroup) 2>/dev/null; then
    grep -q "nice 19" "/proc/$pid/autogroup" || fail "the run's autogroup: $(cat "/proc/$pid/autogroup")"
fi
status=$(dg status)
grep -q "^ *$pid " <<<"$status" || fail "status does not list the run: $status"

# A run niced to 19 gets a sliver of a core while un-niced work (a timed
# match) fills both: wait up to 60 s for its first whole game.
for _ in $(seq 600); do [ -s "$STACCATO_DATA/s300.games" ] && break; sleep 0.1; done
[ -s "$STACCATO_DATA/s300.games" ] || fail "no whole game in s300.games after 60 s"
dg pause
# A stopped process shows T once it has been scheduled to take SIGSTOP: a
# run niced to 19 on busy cores can wait for that, so look for up to 5 s.
for _ in $(seq 50); do [[ $(ps -o stat= -p "$pid") == T* ]] && break; sleep 0.1; done
[[ $(ps -o stat= -p "$pid") == T* ]] || fail "pause did not stop the run: $(ps -o stat= -p "$pid")"
dg resume
[[ $(ps -o stat= -p "$pid") != T* ]] || fail "resume did not continue the run"
sleep 1
dg stop
! kill -0 "$pid" 2>/dev/null || fail "stop left the run"

games=$(awk -F'\t' '$1 == "s300.games" && $4 == "300" { print $5 }' "$STACCATO_DATA/MANIFEST")
[ -n "$games" ] && [ "$games" -gt 0 ] || fail "the MANIFEST lacks s300.games: $(cat "$STACCATO_DATA/MANIFEST")"
stats=$("$build/staccato-train" stats "$STACCATO_DATA/s300.games")
grep -q "games, $games games," <<<"$stats" || fail "the trainer does not read the MANIFEST's $games games: $stats"
echo "datagen.sh: start, pause, resume, status and stop work; $games games in s300.games"
