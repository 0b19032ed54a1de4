#!/bin/bash
# Fuzz the book's parsers with libFuzzer (clang -fsanitize=fuzzer), each
# for a bounded time, seeded from the real chapters and transcripts, and
# report the crashes found. Not part of make check: run it by hand.
#   tests/fuzz/run.sh [SECONDS-PER-TARGET]
set -uo pipefail
cd "$(dirname "$0")/../.." || exit
secs=${1:-60}
out=build/fuzz
mkdir -p "$out"
MARKUP=tools/book/nwpipe.sh
flags=(-g -O1 -std=c11 "-fsanitize=fuzzer,address,undefined")

# target NAME SOURCES...: build a fuzzer; its seeds are in $out/NAME.seeds.
build() {
    local name=$1
    shift
    clang "${flags[@]}" -o "$out/$name" "$@" 2>"$out/$name.build.log" ||
        { echo "FAIL $name: does not build (see $out/$name.build.log)"; return 1; }
}

run() {
    local name=$1
    mkdir -p "$out/$name.corpus" "$out/$name.crashes"
    "$out/$name" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -close_fd_mask=2 \
        -artifact_prefix="$out/$name.crashes/" "$out/$name.corpus" \
        "$out/$name.seeds" >"$out/$name.log" 2>&1
    local crashes runs
    crashes=$(find "$out/$name.crashes" -type f | wc -l)
    runs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$out/$name.log" | awk '{print $2}')
    [ -n "$runs" ] || runs=$(grep -oE '^#[0-9]+' "$out/$name.log" | tail -n 1 | tr -d '#')
    if [ "$crashes" -eq 0 ]; then
        echo "PASS $name: ${runs:-?} inputs in ${secs} s, no crash"
    else
        echo "FAIL $name: $crashes crashing inputs in $out/$name.crashes (log: $out/$name.log)"
    fi
}

mkdir -p "$out/nwpipe.seeds"
for nw in chapters/*.nw tests/bad/*.nw tests/fixtures/*.nw; do
    "$MARKUP" "$nw" >"$out/nwpipe.seeds/$(basename "$nw").pipe" 2>/dev/null
done
build nwpipe tests/fuzz/fuzz_nwpipe.c tools/lib/noweb.c tools/lib/names.c tools/lib/util.c &&
    run nwpipe

# tcheck's seeds: each expectation with each of its transcripts (and its
# fixture output), joined by a NUL byte as the target reads them.
mkdir -p "$out/tcheck.seeds"
for e in evidence/*.expect tests/tcheck/fixtures/*.expect; do
    p=$(basename "$e" .expect)
    for t in "evidence/$p"/*.txt "${e%.expect}.out"; do
        [ -f "$t" ] || continue
        { cat "$e"; printf '\0'; cat "$t"; } >"$out/tcheck.seeds/$p-$(basename "$t")"
    done
done
parts=()
for src in tools/evidence/tcheck/*.c; do
    [ "$src" = tools/evidence/tcheck/main.c ] || parts+=("$src")
done
build tcheck -Itools/evidence/tcheck -Itools/lib tests/fuzz/fuzz_tcheck.c "${parts[@]}" tools/lib/util.c &&
    run tcheck
