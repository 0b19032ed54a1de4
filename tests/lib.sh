# shellcheck shell=bash
# Shared by the test groups: status lines and a scratch copy of the book.
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; failed=1; }
skip() { echo "SKIP $1: $2"; }
failed=0 # read by the groups that source this file
export failed

# scratch_book DIR: a copy of the book's sources in DIR (no build/), for
# tests that build broken or altered chapters without touching the real one.
# The book's runs (evidence/RUN.run) are left out: they name the book's
# programs, which a test's own chapters need not build.
scratch_book() {
    mkdir -p "$1"
    cp -R Makefile tools styles chapters evidence "$1"/
    rm -f "$1"/evidence/*.run
}
