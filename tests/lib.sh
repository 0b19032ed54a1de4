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
# program of the tools' library, TOOL given as its path, tests/TOOL.c),
# built with AddressSanitizer and UndefinedBehaviorSanitizer as DIR/TOOL.
# The Makefile builds them ($B/asan, make asan; make check does before the
# tests, so that here make finds them up to date and runs nothing), the
# library compiled once for them all. Prints "FAIL build TOOL ..." for one
# that does not build, and returns 1 then.
sanitized() {
    local dir=$1 t name targets=()
    shift
    for t in "$@"; do
        case $t in *.c) targets+=("${B:-build}/asan/${t%.c}") ;; *) targets+=("${B:-build}/asan/$t") ;; esac
    done
    mkdir -p "$dir"
    if ! env -u MAKEFLAGS -u MAKELEVEL make -s B="${B:-build}" "${targets[@]}" >"$dir/asan.log" 2>&1; then
        fail "build the tools with ASan and UBSan" "$(grep -m 1 -e error -e Error "$dir/asan.log" || head -1 "$dir/asan.log")"
        return 1
    fi
    for t in "${targets[@]}"; do
        name=$(basename "$t")
        [ "$t" -ef "$dir/$name" ] || ln -sf "$PWD/$t" "$dir/$name"
    done
}

# fixture_book_from DIR FOLDER: fixture_book DIR, then FOLDER's chapters,
# labels, front matter (FOLDER/chapters) and evidence (FOLDER/evidence) in
# place of the book's, so that DIR is a whole small book of its own.
fixture_book_from() {
    fixture_book "$1"
    rm -rf "$1/evidence"
    cp -R "$2/." "$1/"
}
