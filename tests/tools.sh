#!/bin/bash
# The book's C tools, built with AddressSanitizer and UndefinedBehavior-
# Sanitizer, on the corpus of broken chapters and on every real chapter.
set -uo pipefail
cd "$(dirname "$0")/.."
. tests/lib.sh
B=${B:-build}
MARKUP=${NOWEB_LIB:-/usr/lib/noweb}/markup
asan=$B/asan
mkdir -p "$asan"
export ASAN_OPTIONS=abort_on_error=0:detect_leaks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
san="-std=c11 -Wall -Wextra -Werror -pedantic -g -O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all"

for t in nwlint nwmark nwweave nwlinks nwindex evmd; do
    if ${CC:-cc} $san -o "$asan/$t" "tools/$t.c" tools/nwpipe.c 2>"$asan/$t.log"; then
        pass "build $t with ASan and UBSan"
    else
        fail "build $t with ASan and UBSan" "$(head -1 "$asan/$t.log")"
    fi
done

# Each broken chapter must fail with exactly the one line in NAME.msg.
for nw in tests/bad/*.nw; do
    name=bad-input/$(basename "$nw" .nw)
    want=$(cat "${nw%.nw}.msg")
    got=$("$MARKUP" "$nw" | "$asan/nwlint" 2>&1 >/dev/null)
    rc=$?
    if [ "$rc" -ne 1 ]; then
        fail "$name" "nwlint exited $rc, want 1"
    elif [ "$got" != "$want" ]; then
        fail "$name" "said '$got', want '$want'"
    else
        pass "$name"
    fi
done

# Every real chapter through every tool, under the sanitizers.
for nw in chapters/*.nw; do
    ch=$(basename "$nw" .nw)
    tmp=$(mktemp -d)
    if "$MARKUP" "$nw" | "$asan/nwlint" >"$tmp/meta" 2>"$tmp/err" &&
       "$MARKUP" "$nw" | "$asan/nwmark" >/dev/null 2>>"$tmp/err" &&
       "$MARKUP" "$nw" | "$asan/nwweave" "$tmp/refs" >"$tmp/md" 2>>"$tmp/err"; then
        pass "sanitized tools on $ch"
    else
        fail "sanitized tools on $ch" "$(head -3 "$tmp/err" | tr '\n' ' ')"
    fi
    rm -rf "$tmp"
done
exit $failed
