#!/bin/sh
# ncu-run.sh SPEC PROGRAM: run PROGRAM under Nsight Compute as the profile
# spec SPEC (evidence/PROG.ncu) says, and print the counters it names, one
# line per kernel launch and metric, in an output that an expectation can
# hold (evidence/PROG_ncu.expect). build/bin/PROG_ncu runs this; to the
# evidence machinery (progcheck.sh) a profile is one more program.
#
# The spec, one setting a line; blank lines and lines starting with # are
# ignored:
#
#   run          ARG...   the program's arguments (words split at blanks;
#                         letters, digits and - _ . , = : / +): its
#                         --quick run keeps ncu's replays short
#   kernel       NAME     a kernel to profile, by its function name; repeat
#                         the line for several
#   kernel       regex:RE or one regular expression (ncu's --kernel-name),
#                         alone
#   match        BASE     what kernel matches against: function (the name
#                         alone, the default), demangled (with template
#                         arguments) or mangled (ncu's --kernel-name-base)
#   launch-skip  N        skip the first N matching launches, then
#   launch-count N        profile at most N of them (ncu's options)
#   metric       NAME     a metric to record for every profiled launch;
#                         repeat the line for several
#
# Output (every line but the measured values the same on every run of the
# same build on the same GPU):
#
#   GPU: NVIDIA H200 (compute capability 9.0), 132 SMs    the program's first line
#   profiler: Nsight Compute 2025.3.1.0, --clock-control none
#   run: scan_2 --quick
#   (blank)
#   kernel  grid  block  metric  value  unit              a header, then per
#   scanTileBlelloch  25  1024  l1tex__...op_ld.sum  0    launch and metric
#   (blank)
#   6 launches profiled, 6 metrics each
#
# Launches in the order the program made them; grid and block as X or XxYxZ;
# each value as ncu prints it in base units (no thousands separators), its
# unit after it (none for a ratio). Columns are as wide as the kernel names,
# grids, blocks and metrics need, and values right-aligned in a fixed width,
# so that a row of literal counters lines up the same on every run.
#
# Exit status: 0; 1 when the program failed, a metric is unknown or no
# launch matched (the reason on stderr, with ncu's errors); 2 for a bad
# spec (SPEC:LINE: message); 77, with the reason as the last line on
# stderr, when ncu is missing, cannot read the GPU's performance counters
# or cannot profile on this machine, or the program itself exits 77.
#
# Environment: NCU, the ncu to run (default: ncu on the PATH, else
# /usr/local/cuda/bin/ncu, else the last /opt/nvidia/nsight-compute/*/ncu in
# name order);
# NCU_LOG, a file to keep ncu's own log in (its CSV and messages).
set -u

usage() {
    echo "usage: ncu-run.sh SPEC PROGRAM" >&2
    exit 2
}
[ $# -eq 2 ] || usage
spec=$1
prog=$2
export LANG=C LC_ALL=C

work=$(mktemp -d "${TMPDIR:-/tmp}/ncu-run.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
trap 'rm -rf "$work"; trap - EXIT; exit 129' HUP
trap 'rm -rf "$work"; trap - EXIT; exit 130' INT
trap 'rm -rf "$work"; trap - EXIT; exit 143' TERM

die() { # STATUS MESSAGE...
    st=$1
    shift
    echo "$*" >&2
    exit "$st"
}

# ---------------------------------------------------------------------
# The spec, read into shell assignments (each value single-quoted).

[ -f "$spec" ] || die 2 "ncu-run.sh: no profile spec $spec"
awk -v spec="$spec" '
function bad(msg) { printf "%s:%d: %s\n", spec, NR, msg > "/dev/stderr"; err = 1; exit 2 }
function q(s) { gsub(/\047/, "\047\\\047\047", s); return "\047" s "\047" }
/\r$/ { bad("the line ends in a carriage return (CRLF, a Windows line end); save the file with LF alone") }
/^[ \t]*(#|$)/ { next }
{
    key = $1
    val = $0
    sub(/^[ \t]*[^ \t]+[ \t]*/, "", val)
    sub(/[ \t]+$/, "", val)
}
key == "run" {
    if (nrun++) bad("a second run line; give every argument on one")
    # The arguments are split at blanks and given to the program as they
    # are, as those of a run (evidence/RUN.run): no pattern, quote or $.
    if (val ~ /[^-A-Za-z0-9_.,=:\/+ \t]/) bad("an argument holds a character other than letters, digits and - _ . , = : / +")
    args = val; next
}
key == "kernel" {
    if (val == "") bad("kernel needs a name, or regex:RE")
    if (val ~ /^regex:/) {
        if (nk) bad("a regex: kernel stands alone; write the others into its expression")
        regex = 1
        kernels = val
    } else {
        if (regex) bad("a regex: kernel stands alone; write the others into its expression")
        if (val !~ /^[A-Za-z_][A-Za-z0-9_]*$/) bad("\"" val "\" is not a function name; use regex:RE for a pattern")
        if (index(" " names " ", " " val " ")) bad("kernel " val " is named twice")
        names = names (nk ? " " : "") val
    }
    nk++
    next
}
key == "match" {
    if (val !~ /^(function|demangled|mangled)$/) bad("match takes function, demangled or mangled, not \"" val "\"")
    base = val
    next
}
key == "launch-skip" || key == "launch-count" {
    if (val !~ /^[0-9]+$/) bad(key " takes a whole number, not \"" val "\"")
    if (key == "launch-skip") skip = val; else count = val
    next
}
key == "metric" {
    if (val !~ /^[A-Za-z0-9_.]+$/) bad("\"" val "\" is not a metric name")
    if (index(" " metrics " ", " " val " ")) bad("metric " val " is named twice")
    metrics = metrics (nm++ ? " " : "") val
    next
}
{ bad("unknown setting \"" key "\" (run, kernel, match, launch-skip, launch-count or metric)") }
END {
    if (err) exit 2
    if (!nk) { NR = 0; bad("no kernel line: name the kernels to profile") }
    if (!nm) { NR = 0; bad("no metric line: name the counters to record") }
    if (!regex) {
        n = split(names, k, " ")
        kernels = n == 1 ? k[1] : "regex:^(" names ")$"
        gsub(/ /, "|", kernels)
    }
    print "args=" q(args)
    print "kernels=" q(kernels)
    print "base=" q(base == "" ? "function" : base)
    print "skip=" q(skip)
    print "count=" q(count)
    print "metrics=" q(metrics)
}' "$spec" >"$work/spec.sh" || exit 2
. "$work/spec.sh"

# ---------------------------------------------------------------------
# The profiler and the program.

find_ncu() {
    if [ -n "${NCU:-}" ]; then
        command -v "$NCU" 2>/dev/null
        return
    fi
    command -v ncu 2>/dev/null && return
    if [ -x /usr/local/cuda/bin/ncu ]; then
        echo /usr/local/cuda/bin/ncu
        return
    fi
    # A separate Nsight Compute install, the last version in name order.
    for fn_d in /opt/nvidia/nsight-compute/*/ncu; do
        [ -x "$fn_d" ] && fn_last=$fn_d
    done
    [ -n "${fn_last:-}" ] && echo "$fn_last"
}
ncu=$(find_ncu) ||
    die 77 "ncu (Nsight Compute) not found${NCU:+ as $NCU}: install it with the CUDA Toolkit, put it on the PATH or set NCU"
[ -x "$prog" ] || die 1 "ncu-run.sh: $prog is not built"

version=$("$ncu" --version 2>/dev/null | sed -n 's/^Version \([^ ]*\).*/\1/p' | head -n 1)
[ -n "$version" ] || die 77 "$ncu --version names no version: not a working Nsight Compute"

set -- --clock-control none --csv --page raw --print-units base \
    --print-kernel-base function --kernel-name-base "$base" --kernel-name "$kernels"
[ -n "$skip" ] && set -- "$@" --launch-skip "$skip"
[ -n "$count" ] && set -- "$@" --launch-count "$count"
set -- "$@" --metrics "$(echo "$metrics" | tr ' ' ',')" --log-file "$work/ncu.log" "$prog"
# shellcheck disable=SC2086 # the spec's arguments are words
set -f # the arguments are words, never patterns
set -- "$@" $args
set +f
rc=0
"$ncu" "$@" >"$work/out" 2>"$work/err" </dev/null || rc=$?
[ -f "$work/ncu.log" ] || : >"$work/ncu.log"
if [ -n "${NCU_LOG:-}" ]; then
    cp "$work/ncu.log" "$NCU_LOG"
fi

# Why ncu could not profile here, from its log: counters it may not read
# (ERR_NVGPUCTRPERM), a profiler that does not load, a GPU it does not
# support. Each is a machine that cannot run the profile: 77.
grep -h '^==ERROR==' "$work/ncu.log" "$work/err" >"$work/errors" 2>/dev/null
cannot=$(grep -m 1 -E 'ERR_NVGPUCTRPERM|permission|Failed to initialize|not supported|LibraryNotLoaded|No supported' \
    "$work/errors")
[ -n "$cannot" ] && die 77 "ncu cannot profile here: ${cannot#==ERROR== }"

# The program's own status: ncu returns it, and says so in its log.
app=$(sed -n 's/^==ERROR== The application returned an error code (\([0-9]*\)).*/\1/p' \
    "$work/ncu.log" "$work/err" | head -n 1)
if [ "${app:-$rc}" = 77 ]; then
    grep -v '^==' "$work/err" >&2
    exit 77
fi
if [ "$rc" -ne 0 ] || [ -n "$app" ]; then
    echo "ncu-run.sh: ncu exited with status $rc${app:+ (the program with $app)}" >&2
    grep -v '^==PROF==' "$work/err" | tail -n 5 >&2
    cat "$work/errors" >&2
    exit 1
fi
gpu=$(sed -n 1p "$work/out")
case $gpu in
    "GPU: "*) ;;
    *) die 1 "ncu-run.sh: $prog's first line names no GPU (\"GPU: ...\"): $gpu" ;;
esac

# ---------------------------------------------------------------------
# The report: ncu's raw page as CSV, every field quoted; a header row,
# a row of units, then one row per profiled launch.

grep '^"' "$work/ncu.log" >"$work/csv"
{
    echo "$gpu"
    echo "profiler: Nsight Compute $version, --clock-control none"
    echo "run: ${prog##*/}${args:+ $args}"
    echo
} >"$work/report"
awk -v metrics="$metrics" -v kernels="$kernels" '
function fields(line, f,    n) {
    sub(/^"/, "", line)
    sub(/"[ \t\r]*$/, "", line)
    return split(line, f, /","/)
}
function dims(s) {
    gsub(/[() ]/, "", s)
    sub(/,1,1$/, "", s)
    sub(/,1$/, "", s)
    gsub(/,/, "x", s)
    return s
}
function num(v) {
    # (no {m,n} in the pattern: mawk has none)
    if (v ~ /^-?[0-9][0-9,]*(\.[0-9]+)?$/) gsub(/,/, "", v)
    return v
}
function fail(msg) { print "ncu-run.sh: " msg > "/dev/stderr"; bad = 1; exit 1 }
NR == 1 {
    nh = fields($0, h)
    for (i = 1; i <= nh; i++) col[h[i]] = i
    if (!("Kernel Name" in col) || !("Grid Size" in col) || !("Block Size" in col))
        fail("ncu printed no Kernel Name, Grid Size and Block Size columns")
    nm = split(metrics, m, " ")
    for (j = 1; j <= nm; j++)
        if (!(m[j] in col)) fail("ncu printed no column for metric " m[j])
    next
}
NR == 2 { fields($0, unit); next }
{
    fields($0, f)
    n++
    name[n] = f[col["Kernel Name"]]
    grid[n] = dims(f[col["Grid Size"]])
    block[n] = dims(f[col["Block Size"]])
    for (j = 1; j <= nm; j++) {
        v = num(f[col[m[j]]])
        if (v !~ /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/)
            fail("launch " n " (" name[n] "): metric " m[j] " is \"" v "\", not a number")
        val[n, j] = v
    }
    if (length(name[n]) > wk) wk = length(name[n])
    if (length(grid[n]) > wg) wg = length(grid[n])
    if (length(block[n]) > wb) wb = length(block[n])
}
END {
    if (bad) exit 1
    if (n == 0) { print "ncu-run.sh: no launch of " kernels " was profiled" > "/dev/stderr"; exit 1 }
    for (j = 1; j <= nm; j++) if (length(m[j]) > wm) wm = length(m[j])
    if (wk < 6) wk = 6
    if (wg < 4) wg = 4
    if (wb < 5) wb = 5
    fmt = "%-" wk "s  %" wg "s  %" wb "s  %-" wm "s  %14s%s\n"
    printf fmt, "kernel", "grid", "block", "metric", "value", "  unit"
    for (i = 1; i <= n; i++)
        for (j = 1; j <= nm; j++) {
            u = unit[col[m[j]]]
            printf fmt, name[i], grid[i], block[i], m[j], val[i, j], u == "" ? "" : "  " u
        }
    printf "\n%d launch%s profiled, %d metric%s each\n", n, n == 1 ? "" : "es", nm, nm == 1 ? "" : "s"
}' "$work/csv" >>"$work/report" || exit 1
cat "$work/report"
