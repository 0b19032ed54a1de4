# shellcheck shell=bash
# Shared by the test groups: status lines and a scratch copy of the book.
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; failed=1; }
skip() { echo "SKIP $1: $2"; }
failed=0 # read by the groups that source this file
export failed

# scratch_book DIR: a copy of the book's sources in DIR, for tests that
# build broken or altered chapters without touching the real one. Its
# build/ starts with the book's own tools where they are built ($B/tools,
# with the sources' times kept, so that make takes them as up to date):
# each copy would otherwise compile the same 20 tools again.
scratch_book() {
    mkdir -p "$1"
    cp -Rp Makefile tools styles chapters evidence "$1"/
    if [ -d "${B:-build}/tools" ]; then
        mkdir -p "$1/build"
        cp -Rp "${B:-build}/tools" "$1/build/"
    fi
}
# fixture_book DIR: the same with no chapters, labels or evidence, for a
# test's own chapters and evidence: what its makes cost is the fixture's,
# whatever the size of the book.
fixture_book() {
    scratch_book "$1"
    rm -f "$1"/chapters/*.nw
    rm -rf "$1/chapters/labels" "$1/evidence"
    mkdir "$1/evidence"
    : >"$1/chapters/labels.tsv"
}

# sanitized DIR TOOL...: each book tool, tools/book/TOOL.c (or a test's
# program, TOOL given as its path, PATH/TOOL.c), built with
# AddressSanitizer and UndefinedBehaviorSanitizer as DIR/TOOL, against the
# library compiled once into DIR/lib (and tcheck's parts but its main, the
# reader of transcripts, into DIR/tcheck, for a tool that reads
# transcripts). Prints "FAIL build TOOL ..." for one that does not build,
# and returns 1 then.
SANITIZE=(-std=c11 -Wall -Wextra -Werror -pedantic -g -O1 "-fsanitize=address,undefined"
          -fno-omit-frame-pointer -fno-sanitize-recover=all)
sanitized() {
    local dir=$1 src t bad=0
    shift
    mkdir -p "$dir/lib"
    for src in tools/lib/*.c; do
        t=$dir/lib/$(basename "$src" .c).o
        [ -f "$t" ] && continue
        "${CC:-cc}" "${SANITIZE[@]}" -Itools/lib -c -o "$t" "$src" 2>"$t.log" ||
            { fail "build tools/lib with ASan and UBSan" "$(head -1 "$t.log")"; rm -f "$t"; return 1; }
    done
    mkdir -p "$dir/tcheck"
    for src in tools/evidence/tcheck/*.c; do
        t=$dir/tcheck/$(basename "$src" .c).o
        [ "$src" = tools/evidence/tcheck/main.c ] || [ -f "$t" ] && continue
        "${CC:-cc}" "${SANITIZE[@]}" -Itools/lib -c -o "$t" "$src" 2>"$t.log" ||
            { fail "build tcheck's reader with ASan and UBSan" "$(head -1 "$t.log")"; rm -f "$t"; return 1; }
    done
    for t in "$@"; do
        local reader=() c=tools/book/$t.c
        case $t in *.c) c=$t t=$(basename "$t" .c) ;; esac
        grep -q '^#include "transcript.h"' "$c" &&
            reader=(-Itools/evidence/tcheck "$dir"/tcheck/*.o)
        if ! "${CC:-cc}" "${SANITIZE[@]}" -Itools/lib -o "$dir/$t" "$c" \
                "${reader[@]}" "$dir"/lib/*.o 2>"$dir/$t.log"; then
            fail "build $t with ASan and UBSan" "$(head -1 "$dir/$t.log")"
            bad=1
        fi
    done
    return "$bad"
}

# fixture_book_from DIR FOLDER: fixture_book DIR, then FOLDER's chapters,
# labels, front matter (FOLDER/chapters) and evidence (FOLDER/evidence) in
# place of the book's, so that DIR is a whole small book of its own.
fixture_book_from() {
    fixture_book "$1"
    rm -rf "$1/evidence"
    cp -R "$2/." "$1/"
}
