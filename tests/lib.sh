# shellcheck shell=bash
# Shared by the test groups: status lines and a scratch copy of the book.
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; failed=1; }
skip() { echo "SKIP $1: $2"; }
failed=0 # read by the groups that source this file
export failed

# scratch_book DIR: a copy of the book's sources in DIR (no build/), for
# tests that build broken or altered chapters without touching the real one.
scratch_book() {
    mkdir -p "$1"
    cp -R Makefile tools styles chapters evidence "$1"/
}
# fixture_book DIR: the same with no chapters, labels or runs (the book's
# runs, evidence/RUN.run, name the book's programs, which a test's own
# chapters do not build), for a test's own chapters.
fixture_book() {
    scratch_book "$1"
    rm -f "$1"/chapters/*.nw "$1"/evidence/*.run
    : >"$1/chapters/labels.tsv"
}
# fixture_book_from DIR FOLDER: fixture_book DIR, then FOLDER's chapters,
# labels, front matter (FOLDER/chapters) and evidence (FOLDER/evidence) in
# place of the book's, so that DIR is a whole small book of its own.
fixture_book_from() {
    fixture_book "$1"
    rm -rf "$1/evidence"
    cp -R "$2/." "$1/"
}
