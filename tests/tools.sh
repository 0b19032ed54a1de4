#!/bin/bash
# The book's C tools, built with AddressSanitizer and UndefinedBehavior-
# Sanitizer, on the corpus of broken chapters and on every real chapter.
set -uo pipefail
cd "$(dirname "$0")/.." || exit
. tests/lib.sh
B=${B:-build}
MARKUP=${NOWEB_LIB:-/usr/lib/noweb}/markup
asan=$B/asan
mkdir -p "$asan"
export ASAN_OPTIONS=abort_on_error=0:detect_leaks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
san=(-std=c11 -Wall -Wextra -Werror -pedantic -g -O1 "-fsanitize=address,undefined"
     -fno-omit-frame-pointer -fno-sanitize-recover=all)

for t in nwlint nwmark nwweave nwlinks nwindex evmd; do
    if "${CC:-cc}" "${san[@]}" -o "$asan/$t" "tools/$t.c" tools/nwpipe.c 2>"$asan/$t.log"; then
        pass "build $t with ASan and UBSan"
    else
        fail "build $t with ASan and UBSan" "$(head -1 "$asan/$t.log")"
    fi
done

# Each broken chapter must fail with exactly the one line in NAME.msg, from
# markup or from nwlint. A 10 MB line is made here rather than kept.
gen=$(mktemp -d)
trap 'rm -rf "$gen"' EXIT
{ printf '# Long\n\n'; head -c 10485760 /dev/zero | tr '\0' x; printf '\n\n<<u.cu>>=\nint main() { return 0; }\n@\n'; } >"$gen/long-line.nw"
echo "$gen/long-line.nw:3: a line of 10485760 bytes; the book takes lines of up to 65536 bytes" >"$gen/long-line.msg"
for nw in tests/bad/*.nw "$gen"/*.nw; do
    name=bad-input/$(basename "$nw" .nw)
    want=$(cat "${nw%.nw}.msg")
    got=$( { "$MARKUP" "$nw" | "$asan/nwlint" >/dev/null; } 2>&1)
    rc=$?
    if [ "$rc" -eq 0 ]; then
        fail "$name" "accepted"
    elif [ "$got" != "$want" ]; then
        fail "$name" "said '$got', want '$want'"
    else
        pass "$name"
    fi
done

# Every real chapter through every tool, under the sanitizers.
metas=()
for nw in chapters/*.nw; do
    ch=$(basename "$nw" .nw)
    "$MARKUP" "$nw" | "$asan/nwlint" 2>/dev/null | cut -f1,2 >"$gen/$ch.tsv"
    metas+=("$gen/$ch.tsv")
done
for nw in chapters/*.nw; do
    ch=$(basename "$nw" .nw)
    if "$MARKUP" "$nw" | "$asan/nwlint" >/dev/null 2>"$gen/err" &&
       "$MARKUP" "$nw" | "$asan/nwmark" >/dev/null 2>>"$gen/err" &&
       "$MARKUP" "$nw" | "$asan/nwweave" "$gen/refs" chapters/labels.tsv \
           "${metas[@]}" >/dev/null 2>>"$gen/err"; then
        pass "sanitized tools on $ch"
    else
        fail "sanitized tools on $ch" "$(head -3 "$gen/err" | tr '\n' ' ')"
    fi
done
exit $failed
