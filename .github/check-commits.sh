#!/usr/bin/env bash
# Commit messages as .github/CONTRIBUTING.md asks: a subject of at most 72
# characters, a blank line, the body, and `Bench: N` as the last line. Checks
# every commit after c7f9ffe (the commits before the rule are left as they
# are) up to REV (default HEAD); prints each offence and fails on any.
#   .github/check-commits.sh [REV]
set -euo pipefail
first=c7f9ffe
rev=${1:-HEAD}
git cat-file -e "$first^{commit}" 2>/dev/null || { echo "check-commits: $first is not in this clone (fetch the history)"; exit 1; }
bad=0
for c in $(git rev-list "$first..$rev"); do
    subject=$(git log -1 --format=%s "$c")
    second=$(git log -1 --format=%B "$c" | sed -n 2p)
    last=$(git log -1 --format=%B "$c" | sed '/^[[:space:]]*$/d' | tail -n 1)
    if [ ${#subject} -gt 72 ]; then echo "${c:0:7}: subject of ${#subject} characters (at most 72): $subject"; bad=1; fi
    if [ -n "$second" ]; then echo "${c:0:7}: no blank line after the subject"; bad=1; fi
    if ! [[ $last =~ ^Bench:\ [0-9]+$ ]]; then echo "${c:0:7}: the last line is not 'Bench: N': $last"; bad=1; fi
done
[ $bad = 0 ] && echo "check-commits: $(git rev-list --count "$first..$rev") commits after $first follow the rule"
exit $bad
