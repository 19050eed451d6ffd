#!/usr/bin/env bash
# The documents run: extracts the training quick-start from
# .github/CONTRIBUTING.md (the ```sh block under "### Quick start: a training
# round") and runs it with tiny sizes against this build, in a scratch
# folder. Any command of the block that fails fails the test (set -e); a
# block that is missing, or that no longer has the lines this test adapts,
# fails it too.
#   tests/docs_quickstart.sh REPO_DIR BUILD_DIR
set -euo pipefail
repo=$(realpath "$1") build=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
doc="$repo/.github/CONTRIBUTING.md"

block=$(awk '/^### Quick start: a training round/ {h = 1} h && /^```sh$/ {b = 1; next} b && /^```$/ {exit} b' "$doc")
[ -n "$block" ] || { echo "docs: no quick-start block in $doc"; exit 1; }
for want in '^DATA=' '^BOOK=' '^SHARED=' 'games=[0-9]+' 'nodes=5000' '--epochs [0-9]+' 'staccato-train stats' \
    'EvalFile' 'datagen out=' 'staccato-train wdl --net net.nnue --out net.nnue' '--scale-to'; do
    grep -Eq -- "$want" <<<"$block" || { echo "docs: the quick-start lost '$want'"; exit 1; }
done

# The shared folder's games, as a stand-in: a few games of this build, xz'ed.
mkdir -p "$work/shared" "$work/src/nnue"
"$build/staccato" datagen out="$work/shared/r6-test.games" games=2 nodes=300 seed=1 >/dev/null 2>&1
xz "$work/shared/r6-test.games"
cp "$repo/src/nnue/default.nnue" "$work/src/nnue/default.nnue"
mkdir -p "$work/build"
ln -s "$build" "$work/build/release"

script=$(sed -E \
    -e "s|^DATA=.*|DATA=$work/data|" \
    -e "s|^BOOK=.*|BOOK=$repo/tests/data/epd/eval.epd|" \
    -e "s|^SHARED=.*|SHARED=$work/shared|" \
    -e 's/games=[0-9]+/games=40/g' -e 's/nodes=5000/nodes=300/g' -e 's/--epochs [0-9]+/--epochs 1/g' \
    -e 's/go nodes [0-9]+/go nodes 2000/g' <<<"$block")
echo "$script"
cd "$work"
out=$(bash -euo pipefail -c "$script" 2>&1) || { echo "$out"; echo "docs: the quick-start failed"; exit 1; }
echo "$out"
grep -q "net written to net.nnue" <<<"$out" || { echo "docs: no net was trained"; exit 1; }
grep -q "with this model written to net.nnue" <<<"$out" || { echo "docs: no WDL model was fitted"; exit 1; }
grep -q "^bestmove [a-h][1-8][a-h][1-8]" <<<"$out" || { echo "docs: the new net played no move"; exit 1; }
grep -q "info string" <<<"$out" && grep "info string" <<<"$out" | grep -qi "refus\|error\|cannot" &&
    { echo "docs: the engine refused the net"; exit 1; }
grep -q "s399.games" "$work/data/MANIFEST" || { echo "docs: datagen kept no MANIFEST line"; exit 1; }
echo "docs: the quick-start ran"
