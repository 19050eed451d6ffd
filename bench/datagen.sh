#!/usr/bin/env bash
# Keeps datagen running on the cores that nothing else needs, into one data
# folder that lasts as long as the machine: $STACCATO_DATA, default
# ~/staccato-work/data. Each run is one niced process (its scheduler
# autogroup niced too) with one thread and a fresh seed (300 and up; 200-299
# are the shared data's) writing its own file s<seed>.games; datagen keeps
# the folder's MANIFEST (commit, net, seed, games, positions, bytes of every
# file), so `games=<its count> seed=<its seed>` with the same build rebuilds
# a file; the first line of s<seed>.log is the run's command (its nodes).
#
#   bench/datagen.sh start ENGINE [RUNS] [DATAGEN ARGS...]  RUNS processes (default: one a core)
#   bench/datagen.sh pause    SIGSTOP: for timed matches and speed measurements
#   bench/datagen.sh resume   SIGCONT
#   bench/datagen.sh stop     SIGTERM: each run ends at a game boundary
#   bench/datagen.sh status   the runs and the MANIFEST
#
# DATAGEN ARGS replace the defaults (games=1000000 nodes=5000
# book=../shared/data/books/noob_3moves_4000.epd when it exists), e.g.
# nodes=300 for a quick check.
set -euo pipefail
DATA=${STACCATO_DATA:-$HOME/staccato-work/data}
cd "$(dirname "$0")/.."

runs() { pgrep -f -- "datagen out=$DATA/s[0-9]+\.games" || true; }

next_seed() { # one above every seed in the folder (file names ending s<seed>.games, MANIFEST), at least 300
    local max=299 f n seeds=()
    for f in "$DATA"/*.games; do
        [ -e "$f" ] || continue
        n=${f%.games}
        seeds+=("${n##*s}")
    done
    [ -f "$DATA/MANIFEST" ] &&
        seeds+=($(awk -F'\t' '!/^#/ { gsub(",", " ", $4); print $4 }' "$DATA/MANIFEST"))
    for n in "${seeds[@]}"; do
        [[ $n =~ ^[0-9]+$ ]] && [ "$n" -gt "$max" ] && max=$n
    done
    echo $((max + 1))
}

case "${1:-}" in
start)
    engine=${2:?usage: bench/datagen.sh start ENGINE [RUNS] [DATAGEN ARGS...]}
    count=${3:-$(nproc)}
    shift $(($# < 3 ? $# : 3))
    engine=$(realpath "$engine")
    mkdir -p "$DATA"
    defaults=(games=1000000 nodes=5000)
    [ -f ../shared/data/books/noob_3moves_4000.epd ] &&
        defaults+=(book=$(realpath ../shared/data/books/noob_3moves_4000.epd))
    for ((i = 0; i < count; ++i)); do
        seed=$(next_seed)
        out="$DATA/s$seed.games"
        : >"$out" # claims the seed before the next one is chosen
        run=("$engine" datagen "out=$out" "${defaults[@]}" threads=1 "seed=$seed" "$@")
        # The log's first line is the run's command: the MANIFEST says which
        # net made a file, this says with how many nodes a move.
        echo "# $(date -u +%FT%TZ) ${run[*]}" >>"$DATA/s$seed.log"
        # setsid gives the run its own scheduler autogroup, and Linux weighs
        # autogroups against each other before nice: unless the autogroup is
        # niced too, a niced run still takes a whole core from a trainer.
        # (Unprivileged writes there are allowed every 0.1 s: hence the retries.)
        setsid nohup bash -c 'for t in 1 2 3 4 5; do echo 19 2>/dev/null >/proc/self/autogroup && break; sleep 0.2; done
            exec nice -n 19 "$@"' datagen "${run[@]}" >>"$DATA/s$seed.log" 2>&1 </dev/null &
        echo "started seed $seed: $out (log $DATA/s$seed.log)"
    done
    ;;
pause) for p in $(runs); do kill -STOP "$p"; done ;;
resume) for p in $(runs); do kill -CONT "$p"; done ;;
stop)
    pids=$(runs)
    for p in $pids; do kill -CONT "$p"; kill -TERM "$p"; done
    for p in $pids; do while kill -0 "$p" 2>/dev/null; do sleep 0.1; done; done
    ;;
status)
    runs | xargs -r ps -o pid=,stat=,etime=,args= -p
    cat "$DATA/MANIFEST" 2>/dev/null || echo "no MANIFEST in $DATA"
    ;;
*)
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
    exit 2
    ;;
esac
