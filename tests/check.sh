#!/bin/bash
# make check's two steps (tests/check.mk runs them):
#
#   tests/check.sh group SCRIPT LOG   run one test group, its lines to
#                                     stdout and to LOG
#   tests/check.sh count LOG...       count the groups' lines and close
#                                     with "N passed, N failed, N skipped"
#
# Each group prints one line per test, "PASS name", "FAIL name: why" or
# "SKIP name: why", and may print detail (a diff) on other lines; a group's
# own closing count is left out, since this script counts. A group that
# exits non-zero without naming a failing test fails as a whole.
set -uo pipefail
cd "$(dirname "$0")/.." || exit
export B=${B:-build}
export LANG=C LC_ALL=C

case ${1:-} in
group)
    script=$2 log=$3
    if [ ! -x "$script" ]; then
        echo "FAIL $script: missing or not executable" | tee "$log"
        exit 0
    fi
    # The groups run makes of their own, in copies of the book: none of
    # them is part of this make (its jobs, its flags, its level).
    start=$SECONDS
    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES "$script" 2>&1 |
        grep --line-buffered -vE '^[0-9]+ passed, [0-9]+ failed' | tee "$log"
    rc=${PIPESTATUS[0]}
    if [ "$rc" -ne 0 ] && ! grep -q '^FAIL ' "$log"; then
        echo "FAIL $script: exited $rc without naming a test" | tee -a "$log"
    fi
    # Where the time goes, for whoever makes the check faster; not a test:
    # wall seconds, and the CPU seconds of what the group ran and waited
    # for (bash's times: its children's user and system time), which
    # hardly move when the other group shares the machine.
    # (times in this shell: in a pipe's subshell it would count nothing.)
    times >"$log.times"
    cpu=$(awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, p, /[ms]/); t += p[1] * 60 + p[2] } printf "%.0f", t }' "$log.times")
    rm -f "$log.times"
    echo "  ($script: $((SECONDS - start)) s, $cpu CPU-s)"
    ;;
count)
    shift
    # A group whose log is missing did not run (its make was stopped).
    lines=$(for log; do
        if [ -f "$log" ]; then cat -- "$log"; else echo "FAIL $log: the group did not run"; fi
    done)
    grep '^FAIL .*: the group did not run$' <<<"$lines"
    pass=$(grep -c '^PASS ' <<<"$lines")
    fail=$(grep -c '^FAIL ' <<<"$lines")
    skip=$(grep -c '^SKIP ' <<<"$lines")
    echo "$pass passed, $fail failed, $skip skipped"
    [ "$fail" -eq 0 ]
    ;;
*)
    echo "usage: tests/check.sh group SCRIPT LOG | count LOG..." >&2
    exit 2
    ;;
esac
