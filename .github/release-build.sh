#!/usr/bin/env bash
# Builds one release binary, named by version and target, into dist/, then
# smoke-tests it (.github/smoke-test.sh) where this machine can run it:
#   .github/release-build.sh TARGET VERSION
#   TARGET                        built                                       smoke-tested
#   linux-x86-64-popcnt|avx2|bmi2 static, profile-guided (GCC)                here, when the CPU has the level
#   windows-x86-64-popcnt|avx2|bmi2  static .exe, MinGW-w64 cross build       under Wine
#   linux-aarch64                 static, armv8, g++-aarch64-linux-gnu cross  under qemu-aarch64
#   macos-arm64                   Apple Silicon (apple-m1), Apple clang;      here (a macOS arm64 machine)
#                                 macOS links no static binary
# Every target is link-time optimised where its compiler and linker can (STACCATO_LTO).
# e.g. .github/release-build.sh windows-x86-64-bmi2 0.1.0
#   -> dist/staccato-0.1.0-windows-x86-64-bmi2.exe
# Needs cmake and g++ (linux-x86-64), g++-mingw-w64-x86-64-posix and wine
# (windows), g++-aarch64-linux-gnu and qemu-user (linux-aarch64), Xcode's
# command line tools and cmake (macos-arm64).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 2 ] || { echo "usage: $0 TARGET VERSION (TARGET: linux|windows-x86-64-popcnt|avx2|bmi2, linux-aarch64, macos-arm64)" >&2; exit 2; }
target=$1 version=$2
# The CPU levels of CMakeLists.txt (STACCATO_CPU_LEVEL) and the flags
# /proc/cpuinfo shows where each x86-64 one runs.
settings=(-DCMAKE_BUILD_TYPE=Release -DSTACCATO_BUILD_TESTS=OFF -DSTACCATO_LTO=ON)
ext="" run=() needs=""
case $target in
  linux-x86-64-* | windows-x86-64-*)
    case ${target##*-x86-64-} in
      popcnt) cpu=popcnt needs=popcnt ;;          # any x86-64 CPU with POPCNT (2008 on)
      avx2) cpu=x86-64-avx2 needs="avx2" ;;       # AVX2, magic sliders (Haswell, Excavator, any Zen)
      bmi2) cpu=x86-64-bmi2 needs="avx2 bmi2" ;;  # AVX2 + BMI2, PEXT sliders (Haswell, Zen 3 on)
      *) echo "x86-64 level: popcnt, avx2 or bmi2" >&2; exit 2 ;;
    esac
    settings+=(-DSTACCATO_STATIC=ON -DSTACCATO_CPU_LEVEL=$cpu -DSTACCATO_PGO=ON -DCMAKE_EXE_LINKER_FLAGS=-s)
    if [[ $target == windows-* ]]; then
      settings+=(-DCMAKE_SYSTEM_NAME=Windows -DCMAKE_SYSTEM_PROCESSOR=AMD64
                 -DCMAKE_CXX_COMPILER=x86_64-w64-mingw32-g++-posix)
      ext=.exe run=(wine)
    fi
    ;;
  linux-aarch64)
    # The aarch64 preset's settings (CMakePresets.json), stripped.
    settings+=(-DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR=aarch64 -DCMAKE_CXX_COMPILER=aarch64-linux-gnu-g++
               -DSTACCATO_STATIC=ON -DSTACCATO_CPU_LEVEL=armv8 -DCMAKE_EXE_LINKER_FLAGS=-s)
    run=(qemu-aarch64)
    ;;
  macos-arm64)
    # macOS 11 is the first on Apple Silicon: the file runs on every one.
    settings+=(-DCMAKE_OSX_ARCHITECTURES=arm64 -DCMAKE_OSX_DEPLOYMENT_TARGET=11.0 -DSTACCATO_CPU_LEVEL=apple-m1)
    ;;
  *) echo "target: linux-x86-64-popcnt|avx2|bmi2, windows-x86-64-popcnt|avx2|bmi2, linux-aarch64 or macos-arm64" >&2
     exit 2 ;;
esac
name=staccato-$version-$target$ext
build=build/release-$target

cmake -S . -B "$build" "${settings[@]}"
cmake --build "$build" -j2 --target staccato
mkdir -p dist
cp "$build/staccato$ext" "dist/$name"
echo "built dist/$name"

# An x86-64 binary runs only where the CPU has its level's instructions.
missing=""
for flag in $needs; do grep -qw "$flag" /proc/cpuinfo || missing="$missing $flag"; done
if [ -n "$missing" ]; then
  echo "this CPU lacks$missing: dist/$name not smoke-tested"
elif [ ${#run[@]} -gt 0 ] && ! command -v "${run[0]}" >/dev/null; then
  echo "no ${run[0]}: dist/$name not smoke-tested"
else
  .github/smoke-test.sh "${run[@]}" "dist/$name"
fi
