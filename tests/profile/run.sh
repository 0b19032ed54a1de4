#!/bin/bash
# The profiles (tools/evidence/ncu-run.sh over evidence/PROG.ncu), with no
# GPU and no Nsight Compute: a fake ncu on the PATH writes the raw CSV that
# ncu 2025.3.1 wrote on an NVIDIA H200 for the spec device_scan-h200.ncu
# (device_scan-h200.log; the spec as evidence/device_scan.ncu was then, kept
# here with the log it made, whatever the book's spec becomes) and runs a
# fake program, so that the runner's lines
# can be held to what it printed there (device_scan-h200.out). Then the
# ways a profile cannot run (exit status 77, with the reason last on
# stderr) or fails, a bad spec, make's PROG_ncu scripts, and a profile
# recorded, accepted and checked by progcheck.sh as any program is.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit
. tests/lib.sh
B=${B:-build}
here=tests/profile
run=tools/evidence/ncu-run.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/fake" "$tmp/bin"

# The fake ncu: --version as 2025.3.1 prints it; otherwise its arguments to
# $tmp/argv, $FAKE_LOG (or a log saying nothing was profiled) to the
# --log-file, then the program after it, as ncu runs it. FAKE_NCU=perm
# answers as ncu does where the counters are not the user's to read.
cat >"$tmp/fake/ncu" <<'EOF'
#!/bin/sh
if [ "$1" = --version ]; then
    echo "NVIDIA (R) Nsight Compute Command Line Profiler"
    echo "Copyright (c) 2018-2025 NVIDIA Corporation"
    echo "Version 2025.3.1.0 (build 36398880) (public-release)"
    exit 0
fi
printf '%s\n' "$@" >"$FAKE_DIR/argv"
while [ "$1" != --log-file ]; do shift; done
log=$2
shift 2
if [ "${FAKE_NCU:-}" = perm ]; then
    echo "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance Counters on the target device 0." >"$log"
    exit 1
fi
if [ -n "${FAKE_LOG:-}" ]; then
    cp "$FAKE_LOG" "$log"
else
    echo "==WARNING== No kernels were profiled." >"$log"
fi
"$@"
EOF
# The fake program: the first line as device_scan prints it on the H200,
# and the exit status of FAKE_RC (its reason on stderr).
cat >"$tmp/bin/device_scan" <<'EOF'
#!/bin/sh
echo "GPU: NVIDIA H200 (compute capability 9.0), 132 SMs"
echo "input: 999983 pseudo-random 32-bit items; a scan of n items reads the first n"
rc=${FAKE_RC:-0}
[ "$rc" -eq 0 ] || echo "this card cannot run the scan (fake, status $rc)" >&2
exit "$rc"
EOF
chmod +x "$tmp/fake/ncu" "$tmp/bin/device_scan"
cp "$tmp/bin/device_scan" "$tmp/bin/scan_2"
export FAKE_DIR=$tmp NCU=$tmp/fake/ncu FAKE_LOG=$PWD/$here/device_scan-h200.log

# prof NAME SPEC PROG: run the runner; sets rc, $tmp/out, $tmp/err.
prof() {
    rc=0
    sh "$run" "$2" "$3" >"$tmp/out" 2>"$tmp/err" || rc=$?
}
# want NAME RC TEXT: the run above exited RC with TEXT on its last stderr line.
want() {
    local last
    last=$(tail -n 1 "$tmp/err")
    if [ "$rc" -ne "$2" ]; then
        fail "$1" "exit status $rc, not $2: $last"
    elif [[ $last != *"$3"* ]]; then
        fail "$1" "no '$3' on stderr's last line: $last"
    else
        pass "$1"
    fi
}

prof output "$here/device_scan-h200.ncu" "$tmp/bin/device_scan"
if [ "$rc" -eq 0 ] && diff -u "$here/device_scan-h200.out" "$tmp/out" >"$tmp/diff"; then
    pass "ncu-run: the H200's raw CSV as the profile's lines"
else
    fail "ncu-run: the H200's raw CSV as the profile's lines" "exit status $rc: $(tail -n 1 "$tmp/err")"
    sed 's/^/    /' "$tmp/diff"
fi

# The same under mawk, the awk of the lab's GPU machine, which knows no
# {m,n} in a pattern.
if command -v mawk >/dev/null 2>&1; then
    mkdir -p "$tmp/mawk"
    ln -s "$(command -v mawk)" "$tmp/mawk/awk"
    rc=0
    PATH=$tmp/mawk:$PATH sh "$run" "$here/device_scan-h200.ncu" "$tmp/bin/device_scan" \
        >"$tmp/out.mawk" 2>"$tmp/err" || rc=$?
    if [ "$rc" -eq 0 ] && cmp -s "$here/device_scan-h200.out" "$tmp/out.mawk"; then
        pass "ncu-run: the same lines under mawk"
    else
        fail "ncu-run: the same lines under mawk" "exit status $rc: $(tail -n 1 "$tmp/err")"
    fi
else
    skip "ncu-run: the same lines under mawk" "no mawk here"
fi

# ncu gets the spec's selection and counters, and leaves the clocks alone.
args=$(tr '\n' ' ' <"$tmp/argv")
miss=
for a in "--clock-control none" "--csv" "--page raw" "--print-units base" \
         "--kernel-name lookbackScanKernel" "--launch-skip 62" "--launch-count 2" \
         "--metrics dram__bytes_read.sum,dram__bytes_write.sum,smsp__" \
         "$tmp/bin/device_scan --quick "; do
    [[ $args == *"$a"* ]] || miss="$miss '$a'"
done
if [ -z "$miss" ]; then
    pass "ncu-run: ncu gets the spec's kernels, launches, metrics and arguments"
else
    fail "ncu-run: ncu gets the spec's kernels, launches, metrics and arguments" "missing$miss in: $args"
fi
prof kernels evidence/scan_2.ncu "$tmp/bin/scan_2"
if grep -qxF 'regex:^(scanTileHillisSteele|scanTileBlelloch|scanTileBlellochPadded)$' "$tmp/argv"; then
    pass "ncu-run: several kernel lines make one anchored expression"
else
    fail "ncu-run: several kernel lines make one anchored expression" "$(grep -A1 -e --kernel-name "$tmp/argv" | tr '\n' ' ')"
fi

# Where a profile cannot run: 77, the reason last on stderr.
NCU=$tmp/no-such-ncu prof noncu "$here/device_scan-h200.ncu" "$tmp/bin/device_scan"
want "ncu-run: no ncu is exit status 77" 77 "ncu (Nsight Compute) not found"
FAKE_NCU=perm prof perm "$here/device_scan-h200.ncu" "$tmp/bin/device_scan"
want "ncu-run: counters not readable is exit status 77" 77 "ERR_NVGPUCTRPERM"
FAKE_RC=77 prof skip "$here/device_scan-h200.ncu" "$tmp/bin/device_scan"
want "ncu-run: a program that exits 77 passes it on" 77 "this card cannot run the scan"
# ... and where it fails: the program, a filter that matches nothing.
FAKE_RC=1 prof fails "$here/device_scan-h200.ncu" "$tmp/bin/device_scan"
want "ncu-run: a program that fails fails the profile" 1 "this card cannot run the scan"
FAKE_LOG= prof none "$here/device_scan-h200.ncu" "$tmp/bin/device_scan"
want "ncu-run: no launch profiled fails, naming the filter" 1 "no launch of lookbackScanKernel was profiled"
prof unbuilt "$here/device_scan-h200.ncu" "$tmp/bin/missing"
want "ncu-run: a program not built fails" 1 "is not built"

# A bad spec: its file and line.
printf '# a spec\nkernel  k\nmetrc   dram__bytes_read.sum\n' >"$tmp/bad.ncu"
prof badkey "$tmp/bad.ncu" "$tmp/bin/device_scan"
want "ncu-run: an unknown setting is named at its line" 2 "$tmp/bad.ncu:3: unknown setting \"metrc\""
printf 'run     --quick *\nkernel  k\nmetric  m.sum\n' >"$tmp/bad.ncu"
prof badarg "$tmp/bad.ncu" "$tmp/bin/device_scan"
want "ncu-run: a run argument that is a pattern is refused at its line" 2 \
    "$tmp/bad.ncu:1: an argument holds a character other than letters, digits and - _ . , = : / +"
printf 'run     --quick\r\nkernel  k\nmetric  m.sum\n' >"$tmp/bad.ncu"
prof crlf "$tmp/bad.ncu" "$tmp/bin/device_scan"
want "ncu-run: a spec saved with Windows line ends is refused, saying so" 2 \
    "$tmp/bad.ncu:1: the line ends in a carriage return (CRLF, a Windows line end); save the file with LF alone"
printf 'kernel  regex:a|b\nkernel  c\nmetric  m.sum\n' >"$tmp/bad.ncu"
prof badregex "$tmp/bad.ncu" "$tmp/bin/device_scan"
want "ncu-run: a regex kernel stands alone" 2 "$tmp/bad.ncu:2: a regex: kernel stands alone"
printf 'kernel  k\n' >"$tmp/bad.ncu"
prof nometric "$tmp/bad.ncu" "$tmp/bin/device_scan"
want "ncu-run: a spec with no metric is refused" 2 "no metric line"

# Every spec in evidence/ reads, and names a program the book builds.
for s in evidence/*.ncu; do
    p=$(basename "$s" .ncu)
    if ! awk '!/^[ \t]*(#|$)/' "$s" | grep -q '^metric'; then
        fail "evidence/$p.ncu" "no metric line"
    elif [[ " ${PROGRAMS:-} ${PROFILES:-} " != *" $p "* ]] && [ -n "${PROGRAMS:-}" ]; then
        fail "evidence/$p.ncu" "$p is not a program of the book"
    else
        NCU=$tmp/no-such-ncu prof spec "$s" "$tmp/bin/device_scan"
        want "evidence/$p.ncu reads (exit 77 with no ncu, not 2)" 77 "not found"
    fi
done

# make's scripts, $B/bin/PROG_ncu: each finds the runner and its spec.
for p in ${PROFILES:-}; do
    if [ ! -x "$B/bin/$p" ]; then
        skip "$B/bin/$p" "not built (make builds it with the programs, where there is nvcc)"
        continue
    fi
    rc=0
    NCU=$tmp/no-such-ncu "$B/bin/$p" >"$tmp/out" 2>"$tmp/err" || rc=$?
    want "$B/bin/$p runs ncu-run.sh over evidence/${p%_ncu}.ncu" 77 "not found as $tmp/no-such-ncu"
done

# A profile's named holes are quotable, PROG_ncu.NAME: the build keeps the
# values of each of its transcripts, as of a program's.
for p in ${PROFILES:-}; do
    for t in evidence/"$p"/*.txt; do
        [ -f "$t" ] || continue
        v=$B/values/${t#evidence/}
        v=${v%.txt}.tsv
        if [ -f "$v" ]; then
            pass "$t: its values are quotable ($v)"
        else
            fail "$t: its values are quotable" "no $v; make builds it"
        fi
    done
done

# A profile is a program to progcheck.sh: recorded (a new expectation),
# accepted, linted and checked, with the fake ncu and the H200's log.
if [ -x "$B/tools/tcheck" ]; then
    ev=$tmp/ev
    mkdir -p "$ev" "$tmp/pbin"
    cp -R evidence/device_scan.expect evidence/device_scan "$ev/"
    cp "$here/device_scan-h200.ncu" "$ev/device_scan.ncu"
    cp "$tmp/bin/device_scan" "$tmp/pbin/"
    printf '#!/bin/sh\nd=$(dirname "$0")\nexec sh "%s" "%s" "$d/device_scan"\n' \
        "$PWD/$run" "$ev/device_scan.ncu" >"$tmp/pbin/device_scan_ncu"
    printf '#!/bin/sh\nsed -n "3,7p" "%s"\n' "$PWD/evidence/device_scan/nvidia-h200.txt" >"$tmp/gpuinfo"
    printf '#!/bin/sh\necho "Cuda compilation tools, release 13.0, V13.0.88"\n' >"$tmp/nvcc"
    chmod +x "$tmp/pbin/device_scan_ncu" "$tmp/gpuinfo" "$tmp/nvcc"
    pc() {
        TOOLS=$B/tools GPUINFO=$tmp/gpuinfo BIN=$tmp/pbin EVIDENCE=$ev NVCC=$tmp/nvcc SRC=$B/src \
            COMMIT=0123abc COMPILE_LINE_device_scan_ncu='nvcc -std=c++17 -O3 -arch=sm_75 -o device_scan device_scan.cu' \
            sh tools/evidence/progcheck.sh "$@" >"$tmp/pc" 2>&1
    }
    ok=1
    pc record device_scan_ncu && grep -q '^PASS device_scan_ncu (warning: a new expectation' "$tmp/pc" || ok=0
    [ $ok -eq 1 ] && pc accept device_scan_ncu || ok=0
    [ $ok -eq 1 ] && pc lint device_scan device_scan_ncu && pc check device_scan_ncu &&
        grep -qx 'PASS device_scan_ncu' "$tmp/pc" || ok=0
    [ $ok -eq 1 ] && cmp -s <(sed '1,/^--- output ---$/d' "$ev/device_scan_ncu/nvidia-h200.txt") \
        "$here/device_scan-h200.out" || ok=0
    if [ $ok -eq 1 ]; then
        pass "progcheck: a profile is recorded, accepted, linted and checked as a program"
    else
        fail "progcheck: a profile is recorded, accepted, linted and checked as a program" \
            "$(grep -m 1 -E '^(FAIL|SKIP)' "$tmp/pc" || tail -n 1 "$tmp/pc")"
        sed 's/^/    /' "$tmp/pc"
    fi
else
    skip "progcheck: a profile is recorded, accepted, linted and checked as a program" "$B/tools/tcheck is not built"
fi
exit $failed
