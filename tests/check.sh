#!/bin/bash
# make check: run every test group and count. Each group prints one line
# per test, "PASS name", "FAIL name: why" or "SKIP name: why", and may print
# detail (a diff) on other lines; this script passes those through and
# closes with "N passed, N failed, N skipped".
set -uo pipefail
cd "$(dirname "$0")/.." || exit
export B=${B:-build}
export LANG=C LC_ALL=C

groups=(tests/tools.sh tests/tcheck/run.sh tests/book.sh tests/claims.sh tests/build.sh tests/fit.sh
        tests/programs.sh tests/profile/run.sh tests/notebooks/run.sh tests/browser/run.sh)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
for g in "${groups[@]}"; do
    if [ ! -x "$g" ]; then
        echo "FAIL $g: missing or not executable"
        echo "FAIL $g: missing" >>"$log"
        continue
    fi
    # A group's own closing count is left out; this script counts.
    "$g" 2>&1 | grep --line-buffered -vE '^[0-9]+ passed, [0-9]+ failed' |
        tee -a "$log" || status=1
done
pass=$(grep -c '^PASS ' "$log")
fail=$(grep -c '^FAIL ' "$log")
skip=$(grep -c '^SKIP ' "$log")
# A group that failed without saying which test is a failure too.
if [ "$status" -ne 0 ] && [ "$fail" -eq 0 ]; then
    echo "FAIL check: a test group exited non-zero without naming a test"
    fail=1
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
