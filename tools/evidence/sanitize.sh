#!/bin/sh
# sanitize.sh BIN_DIR PROG...: run every program under compute-sanitizer's
# memcheck, racecheck, synccheck and initcheck, on the reduced sizes of
# --quick, and report one line per program and tool:
#   PASS prog memcheck | FAIL prog racecheck: N errors (log) | SKIP prog: why
# Logs go to $SANITIZE_LOGS (default BIN_DIR/../sanitize). The exit status
# is non-zero when any run failed. $TCHECK (default BIN_DIR/../tools/tcheck)
# says which exit status is a skip.
set -u
bin=$1
shift
logs=${SANITIZE_LOGS:-$bin/../sanitize}
mkdir -p "$logs"
export LANG=C LC_ALL=C
cs=${COMPUTE_SANITIZER:-compute-sanitizer}
tcheck=${TCHECK:-$bin/../tools/tcheck}
if ! command -v "$cs" >/dev/null 2>&1; then
    for p in "$@"; do echo "SKIP $p: $cs not found (it ships with the CUDA Toolkit)"; done
    exit 0
fi
status=0
for p in "$@"; do
    if [ ! -x "$bin/$p" ]; then
        echo "FAIL $p: $bin/$p is not built"
        status=1
        continue
    fi
    for tool in memcheck racecheck synccheck initcheck; do
        log=$logs/$p.$tool.log
        extra=
        [ "$tool" = memcheck ] && extra="--leak-check full"
        # shellcheck disable=SC2086 # $extra is a list of words
        "$cs" --tool "$tool" $extra --error-exitcode 86 "$bin/$p" --quick >"$log" 2>&1
        rc=$?
        summary=$(grep -m1 -E '(ERROR|RACECHECK) SUMMARY' "$log" | sed 's/^========= //')
        "$tcheck" status "$rc" >/dev/null 2>&1
        case $rc:$? in
            0:*) echo "PASS $p $tool (${summary:-no summary})" ;;
            *:4) echo "SKIP $p $tool: $(grep -v '^=========' "$log" | tail -n 1)"
                break ;;
            86:*) echo "FAIL $p $tool: $summary (see $log)"; status=1 ;;
            *) echo "FAIL $p $tool: exit status $rc (see $log)"; status=1 ;;
        esac
    done
done
exit $status
