#!/usr/bin/env bash
# ctest entry openbench-make-build (tests/CMakeLists.txt): builds a clean copy
# of the source tree the way OpenBench's client does (Client/utils.py: in the
# engine config's build path, `make -j EXE=<name> CXX=<compiler>
# [EVALFILE=<absolute path>]`), finds the binary under that name, and checks
# that its bench, read with the client's rules (Client/bench.py), is the
# CMake binary's; then again with EVALFILE= a copy of the default net under
# a name with no extension, as the client passes it.
#   usage: openbench_make.sh SOURCE_DIR CMAKE_STACCATO CXX
# Exit 77 (skipped) when make is not installed.
set -euo pipefail
src=$1 cmake_bin=$2 cxx=$3
command -v make >/dev/null || { echo "make not found: skipped"; exit 77; }

fail() { echo "FAIL: $*" >&2; exit 1; }

# The bench node count and nps as Client/bench.py reads them: the output's
# lines from the last, non-alphanumerics (space aside) turned into spaces,
# the first `<digits> nodes` and `<digits> nps` found (any case) kept.
client_bench() {
    local out line nodes="" nps=""
    out=$("$@" 2>&1) || fail "$* exited with an error"
    shopt -s nocasematch
    while IFS= read -r line; do
        line=${line//[^a-zA-Z0-9 ]/ }
        [[ -z $nps && $line =~ ([0-9]+)[[:space:]]+nps ]] && nps=${BASH_REMATCH[1]}
        [[ -z $nodes && $line =~ ([0-9]+)[[:space:]]+nodes ]] && nodes=${BASH_REMATCH[1]}
    done < <(printf '%s\n' "$out" | tac)
    shopt -u nocasematch
    [[ -n $nodes && -n $nps ]] || fail "no '<N> nodes' / '<N> nps' in the output of $*"
    echo "$nodes $nps"
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A copy of what a GitHub zip holds: the files git tracks (and new ones not
# ignored), as they are in the working tree; no .git, no build directories.
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
    (cd "$src" && git ls-files -z --cached --others --exclude-standard |
        while IFS= read -r -d '' f; do [[ -e $f ]] && printf '%s\0' "$f"; done |
        tar --null -T - -cf -) | tar -xf - -C "$tmp"
else
    (cd "$src" && tar --exclude='./build*' --exclude='./src/.obj' -cf - .) | tar -xf - -C "$tmp"
fi
[[ -f $tmp/src/makefile ]] || fail "no src/makefile in the copy"

want=$(client_bench "$cmake_bin" bench)
want=${want% *}
echo "CMake build: bench $want"

cd "$tmp/src"
start=$SECONDS
nice -n 10 make -j2 EXE=staccato-ob CXX="$cxx" >make.log 2>&1 || { cat make.log; fail "make failed"; }
echo "make build: $((SECONDS - start)) s"
grep -E '^PGO: ' make.log || fail "make printed no PGO line"
[[ -x ./staccato-ob ]] || fail "make built no ./staccato-ob"
got=$(client_bench ./staccato-ob bench)
echo "make build: bench ${got% *}, ${got#* } nps"
[[ ${got% *} == "$want" ]] || fail "the make build's bench ${got% *} is not CMake's $want"
id=$(./staccato-ob uci quit)
grep -qx 'id name Staccato [0-9][0-9.]*-make' <<<"$id" || fail "id name of the make build: $id"

# EVALFILE: an absolute path, no extension (OpenBench names nets by sha256 prefix).
cp nnue/default.nnue "$tmp/a1b2c3d4"
# The builds after the first skip the profile-guided stage (PGO=0), to save
# a second compile and a training run each.
nice -n 10 make -j2 EXE=staccato-ob-net CXX="$cxx" EVALFILE="$tmp/a1b2c3d4" PGO=0 >make.log 2>&1 ||
    { cat make.log; fail "make EVALFILE= failed"; }
[[ -x ./staccato-ob-net ]] || fail "make built no ./staccato-ob-net"
grep -q -- "-DSTACCATO_EVALFILE=.*$tmp/a1b2c3d4" make.log || fail "EVALFILE did not reach the compiler"
got=$(client_bench ./staccato-ob-net bench)
[[ ${got% *} == "$want" ]] || fail "the EVALFILE build's bench ${got% *} is not $want"
echo "EVALFILE build: bench ${got% *}"

# The SPSA build (make TUNE=1): the same bench at the defaults; `spsa` lines
# `name, int, default, min, max, c_end, r_end`, each a UCI spin option of
# that build with that default and range, and the release build's table the
# same; a changed option changes the search.
nice -n 10 make -j2 EXE=staccato-ob-tune CXX="$cxx" TUNE=1 PGO=0 >make.log 2>&1 || { cat make.log; fail "make TUNE=1 failed"; }
got=$(client_bench ./staccato-ob-tune bench)
[[ ${got% *} == "$want" ]] || fail "the TUNE=1 build's bench ${got% *} is not $want"
spsa=$(./staccato-ob-tune spsa)
[[ $spsa == "$(./staccato-ob spsa)" ]] || fail "spsa differs between the release and the tuning build"
uci=$(./staccato-ob-tune uci quit)
n=0
while IFS= read -r line; do
    [[ $line =~ ^([A-Za-z][A-Za-z0-9]*),\ int,\ (-?[0-9]+),\ (-?[0-9]+),\ (-?[0-9]+),\ ([0-9]+),\ (0\.[0-9]+)$ ]] ||
        fail "malformed spsa line: $line"
    name=${BASH_REMATCH[1]} def=${BASH_REMATCH[2]} min=${BASH_REMATCH[3]} max=${BASH_REMATCH[4]} c=${BASH_REMATCH[5]}
    ((min <= def && def <= max && c > 0)) || fail "spsa range: $line"
    grep -qxF "option name $name type spin default $def min $min max $max" <<<"$uci" ||
        fail "no UCI option for: $line"
    [[ $name == LmrDivisor ]] && lmr_default=$def
    n=$((n + 1))
done <<<"$spsa"
((n > 0)) || fail "no spsa lines"
plain=$(client_bench ./staccato-ob-tune "bench 7")
tuned=$(client_bench ./staccato-ob-tune "setoption name FutilityBase value 20" "bench 7")
[[ ${plain% *} != "${tuned% *}" ]] || fail "setoption FutilityBase did not change the search"
# The reduction table is derived from LmrBase and LmrDivisor: changing one
# must rebuild it, and setting the default back must give the plain search.
lmr=$(client_bench ./staccato-ob-tune "setoption name LmrDivisor value 400" "bench 7")
[[ ${plain% *} != "${lmr% *}" ]] || fail "setoption LmrDivisor did not change the search"
[[ -n ${lmr_default-} && $lmr_default != 400 ]] || fail "no usable LmrDivisor default in: $spsa"
back=$(client_bench ./staccato-ob-tune "setoption name LmrDivisor value 400" "setoption name LmrDivisor value $lmr_default" "bench 7")
[[ ${plain% *} == "${back% *}" ]] || fail "LmrDivisor back at $lmr_default gives bench ${back% *}, not ${plain% *}"
echo "TUNE=1 build: $n tunables, bench ${plain% *} at depth 7, ${tuned% *} with FutilityBase 20, ${lmr% *} with LmrDivisor 400"
echo "OK"
