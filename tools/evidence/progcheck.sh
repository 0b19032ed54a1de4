#!/bin/sh
# progcheck.sh: run the book's programs and hold their output to evidence/.
# The same script serves the repository and the GPU bundle. It does what
# must be shell: running the programs (with a timeout), writing and moving
# files. Every verdict, and every reading of evidence, is tcheck's.
#
# usage: progcheck.sh [--count] check|record|accept|compare|lint|fresh [PROG...]
#        progcheck.sh [--count] verify PROG OUTPUT_FILE
#        progcheck.sh commit
#        progcheck.sh fingerprint PROG
#
#   check    run each program (GPU), check its output; a pass removes the
#            program's stale pending files
#   record   run each program (GPU), write pending evidence beside the
#            evidence: evidence/PROG/GPU.txt.pending, evidence/PROG.expect.pending
#   accept   move each program's pending evidence into place
#   compare  run each program (GPU), report its measured values against
#            the transcript recorded on the same GPU model (never fails on them)
#   verify   check an output saved elsewhere; no GPU needed; exit status 0 assumed
#   lint     check the evidence itself, no GPU needed (tcheck lint-tree);
#            PROG... must name every program of the book, so that evidence
#            for no program is found
#   fresh    hold each transcript to the code it measured, no GPU needed:
#            its fingerprint (which record writes) against the program's
#            as SRC holds it now (tcheck fresh); a stale one fails
#   commit   print the commit a record would name ("-dirty" with changes)
#   fingerprint  print the fingerprint a record of PROG would write, of the
#            code in SRC, with $NVCC_VERSION or this machine's nvcc
#
# Environment:
#   TOOLS     the directory holding the built tcheck and gpuinfo (default: tools)
#   BIN       the directory holding the built programs (default: bin)
#   EVIDENCE  the evidence directory (default: evidence)
#   SRC       the directory holding the programs' tangled sources (default: src)
#   LOCATIONS a file of "prog: chapters/x.nw:LINE" lines, where each
#             program is in the book, for fresh's messages
#   TCHECK, GPUINFO  the two tools, when not in TOOLS
#   NVCC      the nvcc whose version record writes (default: nvcc)
#   COMPILE_LINE_<prog>  the compile line record writes for prog, every
#             character of prog that is not a letter, digit or _ made _;
#             else COMPILE_LINES names a file of "prog: compile line" lines
#   COMMIT    the commit record writes; else git rev-parse --short HEAD run
#             beside EVIDENCE, "-dirty" added while tracked files other than
#             the evidence have changes
#   TIMEOUT   seconds one program may run (default: 600; 0: no limit)
#   YOURS     for compare and verify: a directory to keep the run's values
#             in, YOURS/PROG.tsv (tcheck quotes -o), and the GPU's name,
#             YOURS/gpu, for the claims to be held to them (claims yours)
#
# Output: one status line per program, in exactly one of these forms,
#   PASS prog | PASS prog (warning: ...) | FAIL prog: reason | SKIP prog: reason
# with details under it indented by four spaces; with --count, a closing
# line "N passed, N failed, N skipped". Exit status: 0 when nothing failed,
# 1 when something did, 2 for a usage error.
set -eu

usage() {
    echo "usage: progcheck.sh [--count] check|record|accept|compare|lint|fresh [PROG...]" >&2
    echo "       progcheck.sh commit" >&2
    echo "       progcheck.sh fingerprint PROG" >&2
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
SRC=${SRC:-src}
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
# Status lines: tcheck prints its own; these are for what happens here.

# tally STATUS: count a verdict by tcheck's exit status (0 or 3 passed,
# 4 skipped, anything else failed).
tally() {
    case $1 in
        0 | 3) npass=$((npass + 1)) ;;
        4) nskip=$((nskip + 1)) ;;
        *) nfail=$((nfail + 1)) ;;
    esac
}

pass() {
    echo "PASS $1${2:+ (warning: $2)}"
    tally 0
}

fail() {
    echo "FAIL $1: $2"
    tally 1
}

skip() {
    echo "SKIP $1: $2"
    tally 4
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

# tcheck_failed PROG STATUS: report tcheck itself failing (bad input).
tcheck_failed() {
    fail "$1" "$(last_line "$work/terr")"
    detail "$work/terr"
}

make_hint() {
    echo "make one on a GPU with: make record PROG=$1, then make accept PROG=$1"
}

valid_name() {
    case $1 in
        '' | .* | *[!A-Za-z0-9_.-]*) return 1 ;;
    esac
    return 0
}

# has_pending PROG: evidence/PROG/ holds a pending transcript.
has_pending() {
    set -- "$EVIDENCE/$1"/*.txt.pending
    [ -f "$1" ]
}

# ---------------------------------------------------------------------
# This machine

# gpu: print device 0's name, or (status 1) why no program can run here.
# Leaves gpuinfo's lines in $work/gpuinfo, for a transcript's header.
gpu() {
    if [ ! -x "$GPUINFO" ]; then
        if command -v "$NVCC" >/dev/null 2>&1; then
            echo "$GPUINFO is not built"
        else
            echo "no nvcc ($NVCC not found), so no program was built"
        fi
        return 1
    fi
    if ! "$GPUINFO" >"$work/gpuinfo" 2>"$work/gpuinfo.err"; then
        last_line "$work/gpuinfo.err" | grep . || echo "$GPUINFO failed: no CUDA device"
        return 1
    fi
    sed -n 's/^gpu: //p' "$work/gpuinfo" | grep . || {
        echo "$GPUINFO printed no gpu: line"
        return 1
    }
}

# nvcc_version: what a transcript says of nvcc.
nvcc_version() {
    "$NVCC" --version 2>/dev/null >"$work/nvcc" || return 1
    v=$(sed -n 's/^Cuda compilation tools, //p' "$work/nvcc" | head -n 1)
    echo "${v:-unknown}"
}

# run PROG: run the built program, its stdout to $work/out, stderr to
# $work/err; returns its exit status, 124 when it timed out.
run() {
    if [ "$TIMEOUT" -gt 0 ] 2>/dev/null && command -v timeout >/dev/null 2>&1; then
        LANG=C LC_ALL=C timeout "$TIMEOUT" "$BIN/$1" \
            >"$work/out" 2>"$work/err" </dev/null || return $?
    else
        LANG=C LC_ALL=C "$BIN/$1" >"$work/out" 2>"$work/err" </dev/null || return $?
    fi
}

# ran PROG STATUS: 0 where the run can be checked; else report why not
# (not built, timed out) and return 1.
ran() {
    if [ "$2" -eq 124 ] && [ "$TIMEOUT" -gt 0 ] 2>/dev/null; then
        fail "$1" "timed out after $TIMEOUT s"
        if [ -s "$work/err" ]; then
            echo "    stderr (last lines):"
            tail -n 5 "$work/err" | sed 's/^/      /'
        fi
        return 1
    fi
}

# ended PROG STATUS: tcheck's verdict on how the program ended, printed
# where it did not exit 0; returns 0 where it did.
ended() {
    rc=0
    "$TCHECK" status -n "$1" -e "$work/err" "$2" || rc=$?
    [ "$rc" -eq 0 ] || tally "$rc"
    return "$rc"
}

# write_atomic DEST COMMAND...: COMMAND's stdout to a temporary file beside
# DEST, renamed to DEST only once it is whole.
write_atomic() {
    cur_tmp="$(dirname "$1")/.tmp-$$-$(basename "$1")"
    dest=$1
    shift
    if "$@" >"$cur_tmp"; then
        mv -f "$cur_tmp" "$dest"
        cur_tmp=
        return 0
    fi
    rm -f "$cur_tmp"
    cur_tmp=
    return 1
}

# env_name PROG: the name of PROG's COMPILE_LINE_ variable.
env_name() {
    printf 'COMPILE_LINE_%s' "$1" | tr -c 'A-Za-z0-9_' '_'
}

# compile_line PROG: the compile line record writes, or nothing.
compile_line() {
    eval "set -- \"\${$(env_name "$1"):-}\" \"\$1\""
    if [ -z "$1" ] && [ -n "${COMPILE_LINES:-}" ] && [ -f "$COMPILE_LINES" ]; then
        awk -v p="$2: " 'index($0, p) == 1 { print substr($0, length(p) + 1); exit }' \
            "$COMPILE_LINES"
        return 0
    fi
    printf '%s' "$1"
}

# commit_id: the commit a recording names: $COMMIT, else git's.
commit_id() {
    if [ -n "${COMMIT:-}" ]; then
        printf '%s' "$COMMIT"
        return 0
    fi
    dir=$(dirname "$EVIDENCE")
    id=$(git -C "$dir" rev-parse --short HEAD 2>/dev/null) || return 1
    # Changes to tracked files other than the evidence make it "-dirty".
    if [ -n "$(git -C "$dir" status --porcelain --untracked-files=no -- \
        . ":(exclude)$(basename "$EVIDENCE")" 2>/dev/null)" ]; then
        id="$id-dirty"
    fi
    printf '%s' "$id"
}

# fp_inputs PROG: what PROG's fingerprint is made of, beyond its compile
# line: fp_src, the source of the program whose code it runs, and fp_x, a
# file of its own that decides what is measured, or nothing: a run
# (evidence/RUN.run) runs its program with its line's arguments, a profile
# (evidence/PROG.ncu) profiles PROG as its spec says.
fp_inputs() {
    fp_x=
    fp_prog=$1
    if [ -f "$EVIDENCE/$1.run" ]; then
        fp_x=$EVIDENCE/$1.run
        fp_prog=$(awk '{ print $1; exit }' "$fp_x")
    else
        case $1 in
            *_ncu)
                if [ -f "$EVIDENCE/${1%_ncu}.ncu" ]; then
                    fp_x=$EVIDENCE/${1%_ncu}.ncu
                    fp_prog=${1%_ncu}
                fi
                ;;
        esac
    fi
    fp_src=$SRC/$fp_prog.cu
}

# record_command PROG: the command that records PROG again.
record_command() {
    case $1 in
        *_ncu) [ -f "$EVIDENCE/${1%_ncu}.ncu" ] && { echo "make profile PROG=$1"; return 0; } ;;
    esac
    echo "make record PROG=$1"
}

# location PROG: where PROG's program is in the book (LOCATIONS), or nothing.
location() {
    fp_inputs "$1"
    if [ -n "${LOCATIONS:-}" ] && [ -f "$LOCATIONS" ]; then
        awk -v p="$fp_prog: " 'index($0, p) == 1 { print substr($0, length(p) + 1); exit }' \
            "$LOCATIONS"
    fi
}

# ---------------------------------------------------------------------
# Commands, one program at a time; GPU is device 0's name.

# built PROG: the program has an expectation and is built, or is reported.
built() {
    if [ ! -f "$EVIDENCE/$1.expect" ]; then
        fail "$1" "no expectation $EVIDENCE/$1.expect; $(make_hint "$1")"
        return 1
    fi
    if [ ! -x "$BIN/$1" ]; then
        fail "$1" "not built: no $BIN/$1"
        return 1
    fi
}

check_one() {
    exp=$EVIDENCE/$1.expect
    built "$1" || return 0
    set -- "$1" "$EVIDENCE/$1"/*.txt
    if [ ! -f "$2" ]; then
        fail "$1" "no transcript in $EVIDENCE/$1/; $(make_hint "$1")"
        return 0
    fi
    st=0
    run "$1" || st=$?
    ran "$1" "$st" || return 0
    rc=0
    "$TCHECK" check -n "$1" -e "$work/err" -g "$GPU" -o "$1 output" "$exp" \
        "$EVIDENCE/$1" "$work/out" "$st" 2>"$work/terr" || rc=$?
    case $rc in
        0 | 3) ;;
        1 | 4) tally "$rc"; return 0 ;;
        *) tcheck_failed "$1"; return 0 ;;
    esac
    tally "$rc"
    # A pass makes pending files stale: the expectation already holds, and
    # a pending transcript that does not match it is of an earlier output.
    if [ -f "$exp.pending" ]; then
        rm -f "$exp.pending"
        echo "    removed stale $exp.pending"
    fi
    for t in "$EVIDENCE/$1"/*.txt.pending; do
        if [ -f "$t" ] && ! "$TCHECK" lint "$exp" "$t" >/dev/null 2>&1; then
            rm -f "$t"
            echo "    removed stale $t"
        fi
    done
}

# header PROG COMPILE_LINE FINGERPRINT: a transcript's header, to $work/header.
header() {
    {
        echo "program: $1"
        echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
        cat "$work/gpuinfo"
        echo "nvcc: $NVCC_VERSION"
        echo "compile: $2"
        echo "commit: $COMMIT_ID"
        echo "fingerprint: $3"
    } >"$work/header"
}

# record_pending PROG: the pending expectation, where the output needs a
# new one; the status line either way.
record_pending() {
    exp=$EVIDENCE/$1.expect
    src=$exp
    [ -f "$src" ] || src=/dev/null
    rc=0
    "$TCHECK" pending "$src" "$work/out" >"$work/pending" 2>"$work/terr" || rc=$?
    if [ "$rc" -eq 0 ] && [ -f "$exp" ]; then
        rm -f "$exp.pending"
        pass "$1"
        echo "    wrote $2"
    elif [ "$rc" -le 1 ] && write_atomic "$exp.pending" cat "$work/pending"; then
        if [ -f "$exp" ]; then
            pass "$1" "the output does not match $exp; review $exp.pending, then make accept PROG=$1"
        else
            pass "$1" "a new expectation: put holes in $exp.pending where values vary, then make accept PROG=$1"
        fi
        echo "    wrote $2"
        echo "    wrote $exp.pending"
        detail "$work/terr"
        if [ -f "$exp" ]; then
            "$TCHECK" diff -o "$1 output" "$exp" "$work/out" >"$work/report" 2>&1 || true
            detail "$work/report"
        fi
    else
        fail "$1" "cannot write $exp.pending: $(last_line "$work/terr")"
    fi
}

record_one() {
    cl=$(compile_line "$1")
    if [ -z "$cl" ]; then
        fail "$1" "no compile line: set $(env_name "$1")"
        return 0
    fi
    if [ ! -x "$BIN/$1" ]; then
        fail "$1" "not built: no $BIN/$1"
        return 0
    fi
    fp_inputs "$1"
    if ! fp=$("$TCHECK" fingerprint -c "$cl" -v "$NVCC_VERSION" ${fp_x:+-x "$fp_x"} \
        "$fp_src" 2>"$work/terr"); then
        fail "$1" "no fingerprint of its code: $(last_line "$work/terr")"
        return 0
    fi
    st=0
    run "$1" || st=$?
    ran "$1" "$st" || return 0
    if ! ended "$1" "$st"; then
        echo "    nothing recorded"
        return 0
    fi
    src=$EVIDENCE/$1.expect
    [ -f "$src" ] || src=/dev/null
    if out_gpu=$("$TCHECK" gpu "$src" "$work/out" 2>/dev/null) &&
        [ "$out_gpu" != "$GPU" ]; then
        fail "$1" "the output names GPU \"$out_gpu\" but device 0 is \"$GPU\""
        return 0
    fi
    header "$1" "$cl" "$fp"
    mkdir -p "$EVIDENCE/$1"
    # What an interrupted run may have left: never read, removed here.
    rm -f "$EVIDENCE/$1"/.tmp-* "$EVIDENCE"/.tmp-*-"$1".expect.pending
    dest="$EVIDENCE/$1/$SLUG.txt.pending"
    if ! write_atomic "$dest" "$TCHECK" transcript "$work/header" "$work/out" \
        2>"$work/terr"; then
        fail "$1" "cannot write $dest: $(last_line "$work/terr")"
        detail "$work/terr"
        return 0
    fi
    record_pending "$1" "$dest"
}

accept_one() {
    exp=$EVIDENCE/$1.expect
    new=$exp
    [ -f "$exp.pending" ] && new=$exp.pending
    if ! has_pending "$1" && [ "$new" = "$exp" ]; then
        skip "$1" "nothing pending"
        return 0
    fi
    if [ ! -f "$new" ]; then
        fail "$1" "no expectation $exp to accept transcripts against; $(make_hint "$1")"
        return 0
    fi
    # Every pending transcript must fit the expectation it will sit beside.
    for t in "$EVIDENCE/$1"/*.txt.pending; do
        [ -f "$t" ] || continue
        if ! "$TCHECK" lint "$new" "$t" >"$work/report" 2>&1; then
            fail "$1" "$t does not fit $new; nothing accepted"
            detail "$work/report"
            return 0
        fi
    done
    : >"$work/accepted"
    for t in "$EVIDENCE/$1"/*.txt.pending; do
        [ -f "$t" ] || continue
        mv -f "$t" "${t%.pending}"
        echo "accepted ${t%.pending}" >>"$work/accepted"
    done
    if [ "$new" != "$exp" ]; then
        mv -f "$new" "$exp"
        echo "accepted $exp" >>"$work/accepted"
    fi
    # Transcripts of other GPUs that a new expectation leaves behind.
    stale=
    for t in "$EVIDENCE/$1"/*.txt; do
        if [ -f "$t" ] && ! "$TCHECK" lint "$exp" "$t" >/dev/null 2>&1; then
            stale="$stale ${t##*/}"
        fi
    done
    pass "$1" "${stale:+no longer matching $exp:$stale; record them again on their GPUs}"
    detail "$work/accepted"
}

# keep_values PROG OUTPUT GPU: with YOURS, the values OUTPUT printed, and
# the GPU's name, for the claims.
keep_values() {
    [ -n "${YOURS:-}" ] || return 0
    mkdir -p "$YOURS" &&
        { "$TCHECK" quotes -o "$EVIDENCE/$1.expect" "$2" >"$YOURS/$1.tsv" 2>/dev/null || :; } &&
        printf '%s\n' "$3" >"$YOURS/gpu"
}

compare_one() {
    exp=$EVIDENCE/$1.expect
    built "$1" || return 0
    st=0
    run "$1" || st=$?
    ran "$1" "$st" || return 0
    ended "$1" "$st" || return 0
    gpu=$("$TCHECK" gpu "$exp" "$work/out" 2>/dev/null) || gpu=$GPU
    keep_values "$1" "$work/out" "$gpu"
    slug=$("$TCHECK" slug "$gpu" 2>/dev/null) || slug=unnamed
    t="$EVIDENCE/$1/$slug.txt"
    if [ ! -f "$t" ]; then
        skip "$1" "no transcript for $gpu ($t) to compare with"
        return 0
    fi
    if ! "$TCHECK" compare "$exp" "$t" "$work/out" >"$work/report" 2>"$work/terr"; then
        tcheck_failed "$1"
        return 0
    fi
    pass "$1"
    detail "$work/report"
}

# fresh_one PROG: each transcript of PROG held to the code it measured.
fresh_one() {
    cl=$(compile_line "$1")
    if [ -z "$cl" ]; then
        fail "$1" "no compile line: set $(env_name "$1")"
        return 0
    fi
    fp_inputs "$1"
    where=$(location "$1")
    again=$(record_command "$1")
    for t in "$EVIDENCE/$1"/*.txt; do
        [ -f "$t" ] || continue
        rc=0
        "$TCHECK" fresh -n "fresh $t" ${where:+-w "$where"} -r "$again" \
            ${NVCC_HERE:+-h "$NVCC_HERE"} -c "$cl" ${fp_x:+-x "$fp_x"} \
            "$fp_src" "$t" 2>"$work/terr" || rc=$?
        case $rc in
            0 | 1 | 3) tally "$rc" ;;
            *) tcheck_failed "fresh $t" ;;
        esac
    done
}

verify_one() {
    exp=$EVIDENCE/$1.expect
    if [ ! -f "$exp" ]; then
        fail "$1" "no expectation $exp; $(make_hint "$1")"
        return 0
    fi
    if [ ! -f "$2" ]; then
        fail "$1" "no output file $2"
        return 0
    fi
    keep_values "$1" "$2" "$("$TCHECK" gpu "$exp" "$2" 2>/dev/null || echo "a GPU that printed no name")"
    rc=0
    "$TCHECK" check -n "$1" -o "$2" "$exp" "$EVIDENCE/$1" "$2" 0 \
        2>"$work/terr" || rc=$?
    case $rc in
        0 | 1 | 3 | 4) tally "$rc" ;;
        *) tcheck_failed "$1" ;;
    esac
}

# ---------------------------------------------------------------------
# Main

case $cmd in
    check | record | accept | compare | lint | fresh) ;;
    verify) [ $# -eq 2 ] || usage ;;
    fingerprint)
        if [ $# -ne 1 ] || ! valid_name "$1"; then usage; fi
        cl=$(compile_line "$1")
        [ -n "$cl" ] || { echo "progcheck.sh: no compile line for $1: set $(env_name "$1")" >&2; exit 2; }
        if [ -z "${NVCC_VERSION:-}" ] && ! NVCC_VERSION=$(nvcc_version); then
            echo "progcheck.sh: no nvcc ($NVCC not found): set NVCC_VERSION to the version a transcript names" >&2
            exit 2
        fi
        fp_inputs "$1"
        exec "$TCHECK" fingerprint -c "$cl" -v "$NVCC_VERSION" ${fp_x:+-x "$fp_x"} "$fp_src"
        ;;
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

# Why no program can run here, or nothing: for check, record, compare.
why_not=
case $cmd in
    check | record | compare)
        GPU=$(gpu) || why_not=$GPU
        ;;
esac
if [ "$cmd" = record ] && [ -z "$why_not" ]; then
    if ! NVCC_VERSION=$(nvcc_version); then
        why_not="no nvcc ($NVCC not found): a transcript names its version"
    elif ! COMMIT_ID=$(commit_id); then
        echo "progcheck.sh: no commit to name: set COMMIT, or record in a git checkout" >&2
        exit 2
    elif ! SLUG=$("$TCHECK" slug "$GPU" 2>/dev/null); then
        why_not="the GPU name \"$GPU\" has no letters or digits to name a transcript"
    fi
fi

case $cmd in
    check | record | compare)
        for p in "$@"; do
            if [ -n "$why_not" ]; then
                skip "$p" "$why_not"
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
    fresh)
        # This machine's nvcc, where there is one: a transcript recorded
        # with another is fresh, with a warning.
        NVCC_HERE=$(nvcc_version) || NVCC_HERE=
        for p in "$@"; do
            fresh_one "$p"
        done
        ;;
    verify)
        verify_one "$1" "$verify_output"
        ;;
    lint)
        if [ "$count" -eq 1 ]; then
            set -- -c "$EVIDENCE" "$@"
        else
            set -- "$EVIDENCE" "$@"
        fi
        rc=0
        "$TCHECK" lint-tree "$@" || rc=$?
        exit "$rc"
        ;;
esac

if [ "$count" -eq 1 ]; then
    echo "$npass passed, $nfail failed, $nskip skipped"
fi
[ "$nfail" -eq 0 ]
