#!/bin/sh
# progcheck.sh: run the book's programs and hold their output to evidence/.
# The same script serves the repository and the GPU bundle.
#
# usage: progcheck.sh [--count] check|record|accept|compare|lint [PROG...]
#        progcheck.sh [--count] verify PROG OUTPUT_FILE
#
#   check    run each program (GPU), check its output; a pass removes the
#            program's stale pending files
#   record   run each program (GPU), write pending evidence beside the
#            evidence: evidence/PROG/GPU.txt.pending, evidence/PROG.expect.pending
#   accept   move each program's pending evidence into place
#   compare  run each program (GPU), report its measured values against
#            the transcript recorded on the same GPU model (never fails on them)
#   verify   check an output saved elsewhere; no GPU needed; exit status 0 assumed
#   lint     check the evidence itself, no GPU needed; PROG... must name every
#            program of the book, so that evidence for no program is found
#   commit   print the commit a record would name ("-dirty" with changes)
#
# Environment:
#   TOOLS     the directory holding the built tcheck and gpuinfo (default: tools)
#   BIN       the directory holding the built programs (default: bin)
#   EVIDENCE  the evidence directory (default: evidence)
#   TCHECK, GPUINFO  the two tools, when not in TOOLS
#   NVCC      the nvcc whose version record writes (default: nvcc)
#   COMPILE_LINE_<prog>  the compile line record writes for prog, every
#             character of prog that is not a letter, digit or _ made _;
#             else COMPILE_LINES names a file of "prog: compile line" lines
#   COMMIT    the commit record writes; else git rev-parse --short HEAD run
#             beside EVIDENCE, "-dirty" added while tracked files other than
#             the evidence have changes
#   TIMEOUT   seconds one program may run (default: 600; 0: no limit)
#
# Output: one status line per program, in exactly one of these forms,
#   PASS prog | PASS prog (warning: ...) | FAIL prog: reason | SKIP prog: reason
# with details under it indented by four spaces; with --count, a closing
# line "N passed, N failed, N skipped". Exit status: 0 when nothing failed,
# 1 when something did, 2 for a usage error.
set -eu

usage() {
    echo "usage: progcheck.sh [--count] check|record|accept|compare|lint [PROG...]" >&2
    echo "       progcheck.sh commit" >&2
    echo "       progcheck.sh [--count] verify PROG OUTPUT_FILE" >&2
    exit 2
}

count=0
if [ "${1:-}" = --count ]; then
    count=1
    shift
fi
[ $# -ge 1 ] || usage
cmd=$1
shift

TOOLS=${TOOLS:-tools}
BIN=${BIN:-bin}
EVIDENCE=${EVIDENCE:-evidence}
TCHECK=${TCHECK:-$TOOLS/tcheck}
GPUINFO=${GPUINFO:-$TOOLS/gpuinfo}
NVCC=${NVCC:-nvcc}
TIMEOUT=${TIMEOUT:-600}

npass=0
nfail=0
nskip=0
cur_tmp=
work=

cleanup() {
    if [ -n "$cur_tmp" ]; then
        rm -f "$cur_tmp"
    fi
    if [ -n "$work" ]; then
        rm -rf "$work"
    fi
}
trap cleanup EXIT
trap 'cleanup; trap - EXIT; exit 129' HUP
trap 'cleanup; trap - EXIT; exit 130' INT
trap 'cleanup; trap - EXIT; exit 143' TERM

work=$(mktemp -d "${TMPDIR:-/tmp}/progcheck.XXXXXX")

# ---------------------------------------------------------------------
# Status lines

pass() {
    if [ -n "${2:-}" ]; then
        echo "PASS $1 (warning: $2)"
    else
        echo "PASS $1"
    fi
    npass=$((npass + 1))
}

fail() {
    echo "FAIL $1: $2"
    nfail=$((nfail + 1))
}

skip() {
    echo "SKIP $1: $2"
    nskip=$((nskip + 1))
}

# detail FILE: print FILE indented, under the status line above it.
detail() {
    if [ -s "$1" ]; then
        sed 's/^/    /' "$1"
    fi
}

# The last non-empty line of a file, or nothing.
last_line() {
    sed '/^[[:space:]]*$/d' "$1" | tail -n 1
}

# stderr_tail: the program's last lines on stderr, under its status line.
stderr_tail() {
    if [ -s "$work/err" ]; then
        echo "    stderr (last lines):"
        tail -n 5 "$work/err" | sed 's/^/      /'
    fi
}

# ---------------------------------------------------------------------
# Helpers

valid_name() {
    case $1 in
        '' | .* | *[!A-Za-z0-9_.-]*) return 1 ;;
    esac
    return 0
}

# has_transcripts PROG: evidence/PROG/ holds at least one transcript.
has_transcripts() {
    for ht_f in "$EVIDENCE/$1"/*.txt; do
        if [ -f "$ht_f" ]; then
            return 0
        fi
    done
    return 1
}

make_hint() {
    echo "make one on a GPU with: make record PROG=$1, then make accept PROG=$1"
}

# gpu_gate: can programs run here? Sets gpu_reason (why not) or gpu_name.
gpu_reason=
gpu_name=
gpu_gate() {
    if [ ! -x "$GPUINFO" ]; then
        if command -v "$NVCC" >/dev/null 2>&1; then
            gpu_reason="$GPUINFO is not built"
        else
            gpu_reason="no nvcc ($NVCC not found), so no program was built"
        fi
        return 0
    fi
    if "$GPUINFO" >"$work/gpuinfo" 2>"$work/gpuinfo.err"; then
        gpu_name=$(sed -n 's/^gpu: //p' "$work/gpuinfo")
        if [ -z "$gpu_name" ]; then
            gpu_reason="$GPUINFO printed no gpu: line"
        fi
    else
        gpu_reason=$(last_line "$work/gpuinfo.err")
        gpu_reason=${gpu_reason:-"$GPUINFO failed: no CUDA device"}
    fi
}

# run_prog PROG: run it with stdout to $work/out, stderr to $work/err;
# sets st to its exit status.
run_prog() {
    st=0
    if [ "$TIMEOUT" -gt 0 ] 2>/dev/null && command -v timeout >/dev/null 2>&1; then
        LANG=C LC_ALL=C timeout "$TIMEOUT" "$BIN/$1" \
            >"$work/out" 2>"$work/err" </dev/null || st=$?
    else
        LANG=C LC_ALL=C "$BIN/$1" >"$work/out" 2>"$work/err" </dev/null || st=$?
    fi
}

# ran_ok PROG: report a run that cannot be checked (exit status 77: skip;
# timeout) and return 1; return 0 otherwise.
ran_ok() {
    if [ "$st" -eq 77 ]; then
        ro_why=$(last_line "$work/err")
        skip "$1" "${ro_why:-exit status 77, and nothing on stderr}"
        return 1
    fi
    if [ "$st" -eq 124 ] && [ "$TIMEOUT" -gt 0 ] 2>/dev/null; then
        fail "$1" "timed out after $TIMEOUT s"
        stderr_tail
        return 1
    fi
    return 0
}

# verdict PROG RC: turn tcheck check's report ($work/report, $work/terr)
# into a status line.
verdict() {
    vd_first=$(sed -n 1p "$work/report")
    case $2:$vd_first in
        0:PASS)
            pass "$1"
            ;;
        3:"PASS (warning: "*)
            vd_rest=${vd_first#PASS (warning: }
            pass "$1" "${vd_rest%)}"
            ;;
        1:"FAIL: "*)
            fail "$1" "${vd_first#FAIL: }"
            ;;
        *)
            vd_why=$(last_line "$work/terr")
            fail "$1" "${vd_why:-tcheck failed with status $2}"
            detail "$work/terr"
            return 0
            ;;
    esac
    sed 1d "$work/report" >"$work/report.rest"
    detail "$work/report.rest"
}

# write_atomic DEST COMMAND...: COMMAND's stdout to a temporary file beside
# DEST, renamed to DEST only once it is whole.
write_atomic() {
    wa_dest=$1
    shift
    cur_tmp="$(dirname "$wa_dest")/.tmp-$$-$(basename "$wa_dest")"
    if "$@" >"$cur_tmp"; then
        mv -f "$cur_tmp" "$wa_dest"
        cur_tmp=
        return 0
    fi
    rm -f "$cur_tmp"
    cur_tmp=
    return 1
}

# compile_line PROG: the compile line record writes, or nothing.
compile_line() {
    cl_var="COMPILE_LINE_$(printf '%s' "$1" | tr -c 'A-Za-z0-9_' '_')"
    eval "cl_val=\${$cl_var:-}"
    if [ -z "$cl_val" ] && [ -n "${COMPILE_LINES:-}" ] && [ -f "$COMPILE_LINES" ]; then
        cl_val=$(awk -v p="$1: " 'index($0, p) == 1 { print substr($0, length(p) + 1); exit }' \
            "$COMPILE_LINES")
    fi
    printf '%s' "$cl_val"
}

# The commit a recording names: $COMMIT, else git's.
commit_id() {
    if [ -n "${COMMIT:-}" ]; then
        printf '%s' "$COMMIT"
        return 0
    fi
    ci_dir=$(dirname "$EVIDENCE")
    if ci_id=$(git -C "$ci_dir" rev-parse --short HEAD 2>/dev/null); then
        # Changes to tracked files other than the evidence make it "-dirty".
        if [ -n "$(git -C "$ci_dir" status --porcelain --untracked-files=no -- \
            . ":(exclude)$(basename "$EVIDENCE")" 2>/dev/null)" ]; then
            ci_id="$ci_id-dirty"
        fi
        printf '%s' "$ci_id"
        return 0
    fi
    return 1
}

# ---------------------------------------------------------------------
# Commands, one program at a time

# have_expectation PROG: sets exp; reports PROG failed when it has none.
have_expectation() {
    exp="$EVIDENCE/$1.expect"
    [ -f "$exp" ] && return 0
    fail "$1" "no expectation $exp; $(make_hint "$1")"
    return 1
}

# run_built PROG: runs the built program (run_prog); reports PROG failed
# when it is not built or did not run.
run_built() {
    if [ ! -x "$BIN/$1" ]; then
        fail "$1" "not built: no $BIN/$1"
        return 1
    fi
    run_prog "$1"
    ran_ok "$1"
}

check_one() {
    have_expectation "$1" || return 0
    if ! has_transcripts "$1"; then
        fail "$1" "no transcript in $EVIDENCE/$1/; $(make_hint "$1")"
        return 0
    fi
    run_built "$1" || return 0
    rc=0
    "$TCHECK" check -g "$gpu_name" -o "$1 output" "$exp" "$EVIDENCE/$1" \
        "$work/out" "$st" >"$work/report" 2>"$work/terr" || rc=$?
    verdict "$1" "$rc"
    if [ "$rc" -eq 1 ] || [ "$rc" -eq 2 ]; then
        stderr_tail
        return 0
    fi
    # A pass makes pending files stale: the expectation already holds, and
    # a pending transcript that does not match it is of an earlier output.
    if [ -f "$exp.pending" ]; then
        rm -f "$exp.pending"
        echo "    removed stale $exp.pending"
    fi
    for co_t in "$EVIDENCE/$1"/*.txt.pending; do
        if [ -f "$co_t" ] && ! "$TCHECK" lint "$exp" "$co_t" >/dev/null 2>&1; then
            rm -f "$co_t"
            echo "    removed stale $co_t"
        fi
    done
}

record_one() {
    cl=$(compile_line "$1")
    if [ -z "$cl" ]; then
        fail "$1" "no compile line: set COMPILE_LINE_$(printf '%s' "$1" | tr -c 'A-Za-z0-9_' '_')"
        return 0
    fi
    run_built "$1" || return 0
    if [ "$st" -ne 0 ]; then
        fail "$1" "exit status $st; nothing recorded"
        stderr_tail
        return 0
    fi
    exp="$EVIDENCE/$1.expect"
    src=$exp
    [ -f "$src" ] || src=/dev/null
    if out_gpu=$("$TCHECK" gpu "$src" "$work/out" 2>/dev/null) &&
        [ "$out_gpu" != "$gpu_name" ]; then
        fail "$1" "the output names GPU \"$out_gpu\" but device 0 is \"$gpu_name\""
        return 0
    fi
    {
        echo "program: $1"
        echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
        cat "$work/gpuinfo"
        echo "nvcc: $nvcc_version"
        echo "compile: $cl"
        echo "commit: $commit"
    } >"$work/header"
    dir="$EVIDENCE/$1"
    mkdir -p "$dir"
    # What an interrupted run may have left: never read, removed here.
    rm -f "$dir"/.tmp-* "$EVIDENCE"/.tmp-*-"$1".expect.pending
    tr_dest="$dir/$slug.txt.pending"
    if ! write_atomic "$tr_dest" "$TCHECK" transcript "$work/header" "$work/out" \
        2>"$work/terr"; then
        fail "$1" "cannot write $tr_dest: $(last_line "$work/terr")"
        detail "$work/terr"
        return 0
    fi
    rc=0
    "$TCHECK" pending "$src" "$work/out" >"$work/pending" 2>"$work/terr" || rc=$?
    if [ "$rc" -eq 0 ] && [ -f "$exp" ]; then
        rm -f "$exp.pending"
        pass "$1"
        echo "    wrote $tr_dest"
    elif [ "$rc" -le 1 ] && write_atomic "$exp.pending" cat "$work/pending"; then
        if [ -f "$exp" ]; then
            pass "$1" "the output does not match $exp; review $exp.pending, then make accept PROG=$1"
        else
            pass "$1" "a new expectation: put holes in $exp.pending where values vary, then make accept PROG=$1"
        fi
        echo "    wrote $tr_dest"
        echo "    wrote $exp.pending"
        detail "$work/terr"
        if [ -f "$exp" ]; then
            "$TCHECK" check -o "$1 output" "$exp" "$dir" "$work/out" 0 \
                >"$work/report" 2>/dev/null || true
            sed 1d "$work/report" >"$work/report.rest"
            detail "$work/report.rest"
        fi
    else
        fail "$1" "cannot write $exp.pending: $(last_line "$work/terr")"
    fi
}

accept_one() {
    exp="$EVIDENCE/$1.expect"
    ac_new=$exp
    [ -f "$exp.pending" ] && ac_new=$exp.pending
    ac_any=0
    for ac_t in "$EVIDENCE/$1"/*.txt.pending; do
        [ -f "$ac_t" ] && ac_any=1
    done
    if [ "$ac_any" -eq 0 ] && [ "$ac_new" = "$exp" ]; then
        skip "$1" "nothing pending"
        return 0
    fi
    if [ ! -f "$ac_new" ]; then
        fail "$1" "no expectation $exp to accept transcripts against; $(make_hint "$1")"
        return 0
    fi
    # Every pending transcript must fit the expectation it will sit beside.
    for ac_t in "$EVIDENCE/$1"/*.txt.pending; do
        [ -f "$ac_t" ] || continue
        rc=0
        "$TCHECK" lint "$ac_new" "$ac_t" >"$work/report" 2>"$work/terr" || rc=$?
        if [ "$rc" -ne 0 ]; then
            ac_why=$(sed -n 1p "$work/report")
            fail "$1" "${ac_why:-$(last_line "$work/terr")}; nothing accepted"
            sed 1d "$work/report" >"$work/report.rest"
            detail "$work/report.rest"
            detail "$work/terr"
            return 0
        fi
    done
    : >"$work/accepted"
    for ac_t in "$EVIDENCE/$1"/*.txt.pending; do
        [ -f "$ac_t" ] || continue
        mv -f "$ac_t" "${ac_t%.pending}"
        echo "accepted ${ac_t%.pending}" >>"$work/accepted"
    done
    if [ "$ac_new" != "$exp" ]; then
        mv -f "$ac_new" "$exp"
        echo "accepted $exp" >>"$work/accepted"
    fi
    # Transcripts of other GPUs that a new expectation leaves behind.
    ac_stale=
    for ac_t in "$EVIDENCE/$1"/*.txt; do
        if [ -f "$ac_t" ] && ! "$TCHECK" lint "$exp" "$ac_t" >/dev/null 2>&1; then
            ac_stale="$ac_stale ${ac_t##*/}"
        fi
    done
    if [ -n "$ac_stale" ]; then
        pass "$1" "no longer matching $exp:$ac_stale; record them again on their GPUs"
    else
        pass "$1"
    fi
    detail "$work/accepted"
}

compare_one() {
    have_expectation "$1" || return 0
    run_built "$1" || return 0
    if [ "$st" -ne 0 ]; then
        fail "$1" "exit status $st"
        stderr_tail
        return 0
    fi
    cm_gpu=$("$TCHECK" gpu "$exp" "$work/out" 2>/dev/null) || cm_gpu=$gpu_name
    cm_slug=$("$TCHECK" slug "$cm_gpu" 2>/dev/null) || cm_slug=unnamed
    cm_t="$EVIDENCE/$1/$cm_slug.txt"
    if [ ! -f "$cm_t" ]; then
        skip "$1" "no transcript for $cm_gpu ($cm_t) to compare with"
        return 0
    fi
    rc=0
    "$TCHECK" compare "$exp" "$cm_t" "$work/out" >"$work/report" 2>"$work/terr" || rc=$?
    if [ "$rc" -ne 0 ]; then
        fail "$1" "$(last_line "$work/terr")"
        return 0
    fi
    pass "$1"
    detail "$work/report"
}

verify_one() {
    have_expectation "$1" || return 0
    if [ ! -f "$2" ]; then
        fail "$1" "no output file $2"
        return 0
    fi
    rc=0
    "$TCHECK" check -o "$2" "$exp" "$EVIDENCE/$1" "$2" 0 \
        >"$work/report" 2>"$work/terr" || rc=$?
    verdict "$1" "$rc"
}

# lint_one PROG: its expectation and transcripts.
lint_one() {
    exp="$EVIDENCE/$1.expect"
    : >"$work/problems"
    : >"$work/details"
    ln_warn=
    if [ ! -f "$exp" ]; then
        echo "no expectation $exp; $(make_hint "$1")" >>"$work/problems"
    fi
    if ! has_transcripts "$1"; then
        echo "no transcript in $EVIDENCE/$1/; $(make_hint "$1")" >>"$work/problems"
    fi
    if [ -d "$EVIDENCE/$1" ]; then
        for ln_f in "$EVIDENCE/$1"/* "$EVIDENCE/$1"/.[!.]*; do
            [ -e "$ln_f" ] || continue
            case ${ln_f##*/} in
                .tmp-*)
                    echo "$ln_f: left by an interrupted record; remove it" >>"$work/problems"
                    ;;
                *.txt.pending)
                    ln_warn="pending evidence not accepted: review it, then make accept PROG=$1"
                    ;;
                *.txt)
                    [ -f "$exp" ] || continue
                    rc=0
                    "$TCHECK" lint "$exp" "$ln_f" >"$work/report" 2>"$work/terr" || rc=$?
                    if [ "$rc" -ne 0 ]; then
                        if [ -s "$work/report" ]; then
                            sed -n 1p "$work/report" >>"$work/problems"
                            sed 1d "$work/report" >>"$work/details"
                        else
                            last_line "$work/terr" >>"$work/problems"
                        fi
                    fi
                    ;;
                *)
                    echo "$ln_f: not a transcript (GPU.txt)" >>"$work/problems"
                    ;;
            esac
        done
    fi
    if [ -f "$exp.pending" ]; then
        ln_warn="pending evidence not accepted: review it, then make accept PROG=$1"
    fi
    ln_n=$(wc -l <"$work/problems")
    if [ "$ln_n" -eq 0 ]; then
        pass "$1" "$ln_warn"
        return 0
    fi
    ln_first=$(sed -n 1p "$work/problems")
    if [ "$ln_n" -gt 1 ]; then
        fail "$1" "$ln_first (and $((ln_n - 1)) more)"
        sed 1d "$work/problems" | sed 's/^/    /'
    else
        fail "$1" "$ln_first"
    fi
    detail "$work/details"
}

# lint_orphans PROG...: evidence that belongs to no program.
lint_orphans() {
    [ -d "$EVIDENCE" ] || return 0
    for lo_f in "$EVIDENCE"/* "$EVIDENCE"/.[!.]*; do
        [ -e "$lo_f" ] || continue
        lo_name=${lo_f##*/}
        case $lo_name in
            README.md) continue ;;
            .tmp-*)
                fail "$lo_name" "$lo_f: left by an interrupted record; remove it"
                continue
                ;;
            *.expect.pending) lo_prog=${lo_name%.expect.pending} ;;
            *.expect) lo_prog=${lo_name%.expect} ;;
            *.chart) lo_prog=${lo_name%.chart} ;; # what the page draws (evchart)
            *.ncu) lo_prog=${lo_name%.ncu} ;; # what make profile counts (ncu-run.sh)
            *)
                if [ ! -d "$lo_f" ]; then
                    fail "$lo_name" "$lo_f is not evidence (PROG.expect, PROG.chart or PROG/)"
                    continue
                fi
                lo_prog=$lo_name
                ;;
        esac
        case " $* " in
            *" $lo_prog "*) ;;
            *) fail "$lo_prog" "$lo_f belongs to no program of the book; remove it, or add the program" ;;
        esac
    done
}

# ---------------------------------------------------------------------
# Main

case $cmd in
    check | record | accept | compare | lint) ;;
    verify) [ $# -eq 2 ] || usage ;;
    commit)
        # The commit a record here would name (make dist puts it in the
        # bundle, which has no git).
        commit_id || { echo "progcheck.sh: not in a git checkout" >&2; exit 2; }
        echo
        exit 0
        ;;
    *) usage ;;
esac
verify_output=
if [ "$cmd" = verify ]; then
    verify_output=$2
    set -- "$1"
fi
for p in "$@"; do
    valid_name "$p" || {
        echo "progcheck.sh: \"$p\" is not a program name" >&2
        exit 2
    }
done

case $cmd in
    check | record | compare)
        gpu_gate
        if [ -z "$gpu_reason" ] && [ "$cmd" = record ]; then
            if ! nvcc_version=$("$NVCC" --version 2>/dev/null); then
                gpu_reason="no nvcc ($NVCC not found): a transcript names its version"
            else
                nvcc_version=$(printf '%s\n' "$nvcc_version" |
                    sed -n 's/^Cuda compilation tools, //p' | head -n 1)
                nvcc_version=${nvcc_version:-unknown}
            fi
            if [ -z "$gpu_reason" ]; then
                if ! commit=$(commit_id); then
                    echo "progcheck.sh: no commit to name: set COMMIT, or record in a git checkout" >&2
                    exit 2
                fi
                slug=$("$TCHECK" slug "$gpu_name" 2>/dev/null) ||
                    gpu_reason="the GPU name \"$gpu_name\" has no letters or digits to name a transcript"
            fi
        fi
        for p in "$@"; do
            if [ -n "$gpu_reason" ]; then
                skip "$p" "$gpu_reason"
            else
                "${cmd}_one" "$p"
            fi
        done
        ;;
    accept)
        for p in "$@"; do
            accept_one "$p"
        done
        ;;
    verify)
        verify_one "$1" "$verify_output"
        ;;
    lint)
        for p in "$@"; do
            lint_one "$p"
        done
        lint_orphans "$@"
        ;;
esac

if [ "$count" -eq 1 ]; then
    echo "$npass passed, $nfail failed, $nskip skipped"
fi
[ "$nfail" -eq 0 ]
