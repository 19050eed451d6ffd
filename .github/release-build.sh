#!/usr/bin/env bash
# Builds one release binary: statically linked, for one OS and CPU level,
# profile-guided where it can train here (Linux on a CPU of the level; not
# the Windows cross build), named by version and level, into dist/; then
# smoke-tests it (.github/smoke-test.sh; the Windows .exe under Wine) when
# this machine can run it.
#   .github/release-build.sh linux|windows popcnt|avx2|bmi2 VERSION
# e.g. .github/release-build.sh windows bmi2 0.1.0
#   -> dist/staccato-0.1.0-windows-x86-64-bmi2.exe
# Needs cmake and g++ (linux) or g++-mingw-w64-x86-64-posix (windows); wine
# for the Windows smoke test.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 3 ] || { echo "usage: $0 linux|windows popcnt|avx2|bmi2 VERSION" >&2; exit 2; }
os=$1 level=$2 version=$3
# The CPU levels of CMakeLists.txt (STACCATO_CPU_LEVEL) and the flags
# /proc/cpuinfo shows where each runs.
case $level in
  popcnt) cpu=popcnt needs=popcnt ;;          # any x86-64 CPU with POPCNT (2008 on)
  avx2) cpu=x86-64-avx2 needs="avx2" ;;       # AVX2, magic sliders (Haswell, Excavator, any Zen)
  bmi2) cpu=x86-64-bmi2 needs="avx2 bmi2" ;;  # AVX2 + BMI2, PEXT sliders (Haswell, Zen 3 on)
  *) echo "level: popcnt, avx2 or bmi2" >&2; exit 2 ;;
esac
case $os in
  linux) cross=() ext="" run=() ;;
  windows)
    cross=(-DCMAKE_SYSTEM_NAME=Windows -DCMAKE_SYSTEM_PROCESSOR=AMD64
           -DCMAKE_CXX_COMPILER=x86_64-w64-mingw32-g++-posix)
    ext=.exe run=(wine) ;;
  *) echo "os: linux or windows" >&2; exit 2 ;;
esac
name=staccato-$version-$os-x86-64-$level$ext
build=build/release-$os-$level

cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DSTACCATO_BUILD_TESTS=OFF \
  -DSTACCATO_STATIC=ON -DSTACCATO_CPU_LEVEL=$cpu -DSTACCATO_PGO=ON -DCMAKE_EXE_LINKER_FLAGS=-s "${cross[@]}"
cmake --build "$build" -j2 --target staccato
mkdir -p dist
cp "$build/staccato$ext" "dist/$name"
echo "built dist/$name"

# A binary runs only where the CPU has its level's instructions.
missing=""
for flag in $needs; do grep -qw "$flag" /proc/cpuinfo || missing="$missing $flag"; done
if [ -n "$missing" ]; then
  echo "this CPU lacks$missing: dist/$name not smoke-tested"
elif [ "$os" = windows ] && ! command -v wine >/dev/null; then
  echo "no wine: dist/$name not smoke-tested"
else
  .github/smoke-test.sh "${run[@]}" "dist/$name"
fi
