#!/bin/bash
# A benchmark: how the tangle and chapter-md grow with one chapter's size.
# For each factor N (default 1 5 20), a chapter of N copies of day 32 (each
# copy's file roots, labels and chunk names given a suffix of its own, so
# that the chapter has N times the roots and chunks) is tangled, alone in a
# book of its own, by tools/book/tangle.sh, and woven by chapter-md, and
# the seconds of each are printed with their ratio to the single chapter's.
# Linear is a ratio of about N.
# Reports; asserts nothing.
#
# usage: tests/bench/chapter-size.sh [N...]
set -uo pipefail
cd "$(dirname "$0")/../.." || exit
[ $# -gt 0 ] || set -- 1 5 20
B=${B:-build}
[ -x "$B/tools/chapter-md" ] || { echo "chapter-size.sh: build the book first (make)" >&2; exit 1; }
B=$(cd "$B" && pwd) root=$PWD
NT=${NOWEB_LIB:-/usr/lib/noweb}/nt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src=$root/chapters/day32-scan.nw

# copies N: the chapter of N copies, each chunk name with the copy's
# suffix: a file root's before its extension (scan_2.cu, scan_2_c2.cu;
# fig-scan-banks-c2.cpp), a label's after a hyphen (blelloch-sweeps-c2), a
# phrase's after a blank.
copies() {
    local k
    for ((k = 1; k <= $1; ++k)); do
        if [ "$k" -eq 1 ]; then sed '1!b' "$src"; else sed '1s/^# .*$/## Copy '"$k"'/' "$src"; fi |
            perl -pe 's{<<([^<>\n]+?)>>}{
                my $n = $1;
                $n =~ /^(fig-[a-z0-9-]+)\.cpp$/ ? "<<$1-c'"$k"'.cpp>>" :
                $n =~ /^([\w-]+)\.(\w+)$/ ? "<<${1}_c'"$k"'.$2>>" :
                $n =~ /^[a-z0-9]+(-[a-z0-9]+)*$/ ? "<<$n-c'"$k"'>>" : "<<$n c'"$k"'>>"
            }ge'
        echo
    done
}
# seconds CMD...: its wall-clock seconds, its output discarded.
seconds() {
    local start=$EPOCHREALTIME
    "$@" >/dev/null 2>"$tmp/err" || { echo "chapter-size.sh: $* failed: $(head -2 "$tmp/err")" >&2; exit 1; }
    awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }'
}
tangle() { # the book of one chapter, day32-scan, tangled by tools/book/tangle.sh
    rm -rf b && mkdir b && NWPIPE=$root/tools/book/nwpipe.sh NT=$NT CHAPTER_META=$B/tools/chapter-meta \
        SNIPPET_MARKS=$B/tools/snippet-marks SNIPPETS=$B/tools/snippets \
        "$root/tools/book/tangle.sh" b labels.tsv day32-scan
}
weave() {
    "$B/tools/chapter-md" -V "$B/values" "$tmp/refs" "$tmp/chunks" labels.tsv \
        "$tmp/meta.tsv" $(ls "$B"/meta/*.tsv | grep -v '/day32-scan\.tsv$') <"$tmp/pipe"
}

printf '%-6s %7s %9s %8s %11s %8s\n' copies lines tangle ratio chapter-md ratio
t1= w1=
mkdir -p "$tmp/chapters"
cd "$tmp" || exit
for n in "$@"; do
    copies "$n" >chapters/day32-scan.nw
    # Its labels, published, for the tangle's check of the registry.
    "$root/tools/book/nwpipe.sh" chapters/day32-scan.nw >pipe &&
        "$B/tools/chapter-meta" <pipe >lines && cut -f1,2 lines >meta.tsv &&
        awk -F'\t' -v OFS='\t' '$1 == "label" { print $2, "day32-scan" }' lines >labels.tsv
    t=$(seconds tangle) || exit 1
    w=$(seconds weave) || exit 1
    [ -n "$t1" ] || { t1=$t w1=$w; }
    printf '%-6s %7s %9s %8s %11s %8s\n' "$n" "$(wc -l <chapters/day32-scan.nw)" "$t s" \
        "$(awk -v a="$t" -v b="$t1" 'BEGIN { printf "%.1f", a / b }')" "$w s" \
        "$(awk -v a="$w" -v b="$w1" 'BEGIN { printf "%.1f", a / b }')"
done
