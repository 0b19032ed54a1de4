#!/bin/bash
# The programs and their evidence: every transcript well-formed and matching
# its expectation, no orphans, each of the code it measured (its
# fingerprint; no GPU needed); then, where there is a GPU,
# every program run and held to its evidence. Then the GPU bundle, unpacked
# and checked as a student's notebook would.
set -uo pipefail
cd "$(dirname "$0")/.." || exit
. tests/lib.sh
B=${B:-build}
# The programs to check (make check CHAPTER=x: the chapter's), and the
# book's: the lint finds evidence that no program of the book owns.
read -r -a programs <<<"${PROGRAMS:-}"
read -r -a book_programs <<<"${BOOK_PROGRAMS:-${PROGRAMS:-}}"
export TOOLS=$B/tools BIN=$B/bin EVIDENCE=evidence

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

sh tools/evidence/progcheck.sh lint "${book_programs[@]}" || failed=1
# Each transcript held to the code it measured, a stale one failing at its
# program's line in the chapter (README, "Fingerprints").
for c in ${BOOK_CHAPTERS:-${CHAPTERS:-}}; do
    awk -F '\t' -v c="$c" '$1 == "root" && $2 ~ /\.cu$/ {
        sub(/\.cu$/, "", $2); print $2 ": chapters/" c ".nw:" $3 }' "$B/meta/$c.lines"
done >"$tmp/locations"
SRC=$B/src COMPILE_LINES=$B/compile-lines LOCATIONS=$tmp/locations \
    sh tools/evidence/progcheck.sh fresh "${programs[@]}" || failed=1
sh tools/evidence/progcheck.sh check "${programs[@]}" || failed=1
# What follows is the whole book's: the evidence checker's refusals and the
# GPU bundle.
[ -z "${CHECK_CHAPTER:-}" ] || exit "$failed"
programs=("${book_programs[@]}")

# Broken evidence fails the lint, naming the file: a transcript whose last
# line was cut short, one with a header line gone, an empty one, and an
# expectation gone.
fresh() { rm -rf "$tmp/ev" && cp -R evidence "$tmp/ev"; }
corrupt() { # NAME WANT: lint $tmp/ev, which the caller has just broken
    if EVIDENCE=$tmp/ev sh tools/evidence/progcheck.sh lint "${programs[@]}" >"$tmp/out" 2>&1; then
        fail "lint rejects $1" "lint passed"
    elif ! grep -qF -- "$2" "$tmp/out"; then
        fail "lint rejects $1" "no '$2' in: $(head -n 3 "$tmp/out" | tr '\n' ' ')"
    else
        pass "lint rejects $1"
    fi
}
t=$(find evidence/scan_2 -name '*.txt' 2>/dev/null | sort | head -n 1)
if [ -n "$t" ]; then
    t=${t#evidence/}
    fresh && head -c -40 "evidence/$t" >"$tmp/ev/$t"
    corrupt "a transcript with a truncated last line" "$t"
    fresh && grep -v '^nvcc:' "evidence/$t" >"$tmp/ev/$t"
    corrupt "a transcript missing a header line" 'expected "compile: ..." here'
    fresh && : >"$tmp/ev/$t"
    corrupt "an empty transcript" 'no "--- output ---" line ends the header'
    fresh && rm "$tmp/ev/scan_2.expect"
    corrupt "a missing expectation" "make record PROG=scan_2"
else
    skip "lint rejects broken evidence" "no transcript of scan_2 recorded"
fi

# The bundle: built by make dist, used where there is no noweb or pandoc.
# Under make check, the make running this holds the tree's lock
# (tools/build-lock) until it ends: this make, inside it, takes none, or it
# would wait for it for ever.
if ! make -s dist BOOK_LOCK= >"$tmp/log" 2>&1; then
    fail "make dist" "$(tail -n 2 "$tmp/log" | tr '\n' ' ')"
    exit 1
fi
tar -C "$tmp" -xzf "$B/dist/book-gpu.tar.gz"
bundle=$tmp/book-gpu
missing=
for p in "${programs[@]}"; do
    # A profile's program is its spec, run by ncu-run.sh; a run's, its line.
    if [[ " ${PROFILES:-} " == *" $p "* ]]; then
        [ -f "$bundle/evidence/${p%_ncu}.ncu" ] || missing="$missing evidence/${p%_ncu}.ncu"
    elif [[ " ${RUNS:-} " == *" $p "* ]]; then
        [ -f "$bundle/evidence/$p.run" ] || missing="$missing evidence/$p.run"
    else
        [ -f "$bundle/src/$p.cu" ] || missing="$missing src/$p.cu"
    fi
    [ -f "$bundle/evidence/$p.expect" ] || missing="$missing evidence/$p.expect"
done
for f in Makefile compile.mk programs.mk tools/tcheck.c tools/progcheck.sh tools/ncu-run.sh; do
    [ -f "$bundle/$f" ] || missing="$missing $f"
done
# Its checker is tcheck's one file as the build makes it of the parts.
[ ! -f "$bundle/tools/tcheck.c" ] || cmp -s "$B/tools/tcheck.c" "$bundle/tools/tcheck.c" ||
    missing="$missing tools/tcheck.c as $B/tools/tcheck.c is"
if [ -n "$missing" ]; then
    fail "bundle holds the programs, evidence and checker" "missing:$missing"
else
    pass "bundle holds the programs, evidence and checker"
fi
# In the bundle, with no GPU here: make lint checks the evidence, and make
# check builds and reports (a GPU-less machine skips every program).
if make -s -C "$bundle" lint >"$tmp/lint" 2>&1; then
    pass "bundle: make lint"
else
    fail "bundle: make lint" "$(grep -m1 FAIL "$tmp/lint")"
fi
# The bundle compiles each program with the book's compile line: its
# compile.mk is the book's, and make -n shows a compile of each program
# from its plain source (the copy of the one compiled into build/bin). Its
# check then runs the programs build/bin holds, rather than compiling them
# all again.
if [ -n "${NVCC:-}" ]; then
    make -s -n -C "$bundle" NVCC=nvcc all >"$tmp/n" 2>&1
    wrong=
    cmp -s tools/compile.mk "$bundle/compile.mk" || wrong=" compile.mk differs from tools/compile.mk"
    for p in "${programs[@]}"; do
        [ -f "$bundle/src/$p.cu" ] || continue
        grep -q "^nvcc .* -o bin/$p src/$p.cu" "$tmp/n" || wrong="$wrong $p"
    done
    if [ -z "$wrong" ]; then
        pass "bundle: make compiles each program with the book's compile line"
    else
        fail "bundle: make compiles each program with the book's compile line" "not for:$wrong"
    fi
    mkdir -p "$bundle/bin"
    for p in "${programs[@]}"; do
        [ -f "$bundle/src/$p.cu" ] && cp "$B/bin/$p" "$bundle/bin/"
    done
    cp "$B/tools/gpuinfo" "$bundle/tools/"
fi
if make -s -C "$bundle" -j2 check >"$tmp/check" 2>&1 &&
   tail -n 1 "$tmp/check" | grep -qE '^[0-9]+ passed, 0 failed, [0-9]+ skipped$'; then
    pass "bundle: make check ($(tail -n 1 "$tmp/check"))"
else
    fail "bundle: make check" "$(tail -n 3 "$tmp/check" | tr '\n' ' ')"
fi
exit $failed
