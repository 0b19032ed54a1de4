#!/bin/bash
# The chapters as notebooks (make notebooks): each is valid nbformat,
# writes the chapter's files and compiles them with the book's compile
# line, and replays without a GPU up to a passing check (check.py says how).
# Prints "PASS name", "FAIL name: why" or "SKIP name: why" lines.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit
. tests/lib.sh
B=${B:-build}
read -r -a chapters <<<"${CHAPTERS:?set CHAPTERS to the chapters of the book}"

# Debian's python3-nbformat, python3-nbclient and python3-ipykernel (the
# notebooks are run in a kernel), whichever python3 comes first on the PATH.
# Where no python3 has them, tools/need installs the packages, as make
# installs noweb and pandoc (through apt-get, as root or through sudo), or
# names the one command to run, and the test fails.
find_python() {
    local p
    for p in /usr/bin/python3 python3; do
        if "$p" -c 'import nbformat, nbclient, ipykernel' >/dev/null 2>&1; then
            echo "$p"
            return
        fi
    done
}
python=$(find_python)
if [ -z "$python" ]; then
    for pkg in nbformat nbclient ipykernel; do
        if ! why=$(tools/need /usr/lib/python3/dist-packages/$pkg/__init__.py python3-$pkg 2>&1); then
            echo "FAIL notebooks: python3-$pkg is needed: ${why#make: }"
            exit 1
        fi
        [ -z "$why" ] || echo "$why"
    done
    python=$(find_python)
    if [ -z "$python" ]; then
        echo "FAIL notebooks: python3-nbformat, -nbclient and -ipykernel are installed, but no python3 on the PATH imports them"
        exit 1
    fi
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The group's check.py runs share what gcc built for the notebooks (see
# GCC_CACHE in check.py): the checker is the book's and the fixture's.
export NOTEBOOK_GCC_CACHE=$tmp/gcc
"$python" tests/notebooks/check.py "$B" "${chapters[@]}" || failed=1
# What follows tests the notebooks' making on fixtures, whatever the book
# holds: make check CHAPTER=x leaves it to the whole check.
[ -z "${CHECK_CHAPTER:-}" ] || exit "$failed"

# A chapter whose program has a run (tests/fixtures/runs.nw and its
# evidence): its notebook runs the run after the program and checks it, as
# check.py replays; taken out, the run's cell is missed. And a chapter whose
# chunks hold what a tangle must get right as noweb's does
# (tests/fixtures/tangle.nw: references in references, indented by tabs and
# blanks, two on a line, a label of two pieces, blank lines at a piece's
# end, an empty chunk, << that is code, a name with $ and {}).
fixture_book "$tmp/book"
cp tests/fixtures/runs.nw tests/fixtures/tangle.nw "$tmp/book/chapters/"
printf 'twice-used\ttangle\ntwice-used\t1\t2026-12-02\t%s\n' \
    "$(printf 'x = 1;\ny = 2;\n' | "$B/tools/snippets" fingerprint)" >"$tmp/book/chapters/labels.tsv"
cp -R tests/fixtures/evidence/. "$tmp/book/evidence/"
here=$PWD
# The fixture's notebooks and pages are made without a compiler
# (NVCC=no-such-nvcc), wherever make check finds nvcc: a notebook writes
# nvcc whatever make's NVCC is, and comes out byte for byte as from a make
# with nvcc. What nvcc adds is the programs, which check.py does not run,
# and the pages' T4 fit section, to which no notebook links.
# check_fixture [--no-run] CHAPTER...: check.py on the fixture book's
# notebooks, into $tmp/check.
check_fixture() {
    local opt=()
    [ "$1" != --no-run ] || { opt=(--no-run); shift; }
    (cd "$tmp/book" && "$python" "$here/tests/notebooks/check.py" "${opt[@]}" build "$@") >"$tmp/check" 2>&1
}
if ! make -s -C "$tmp/book" NVCC=no-such-nvcc CHAPTERS='runs tangle' notebooks html >"$tmp/out" 2>&1; then
    fail "notebooks of the fixture chapters" "$(head -n 2 "$tmp/out" | tr '\n' ' ')"
else
    check_fixture runs tangle
    if grep -q '^FAIL notebook runs' "$tmp/check" || ! grep -q '^PASS notebook runs replayed' "$tmp/check"; then
        fail "notebook of a chapter with a run: runs it and checks it" "$(grep -m 1 -v '^PASS' "$tmp/check")"
    elif ! grep -q '^    \./runs --twice 2>runs_twice.err | tee runs_twice.out$' "$tmp/book/build/md/runs.nb.md"; then
        fail "notebook of a chapter with a run: runs it and checks it" "no cell runs ./runs --twice"
    else
        pass "notebook of a chapter with a run: runs it and checks it"
    fi
    if grep -q '^FAIL notebook tangle' "$tmp/check" ||
       ! grep -q '^PASS notebook tangle tangles the chapter' "$tmp/check"; then
        fail "notebook of a chapter whose chunks try the tangle: its cells tangle as the book does" \
            "$(grep -m 1 -v '^PASS' "$tmp/check")"
    else
        pass "notebook of a chapter whose chunks try the tangle: its cells tangle as the book does"
    fi

    # check.py misses each way a notebook can stray from its chapter, and
    # a run the notebook does not run: strays.py alters the notebooks or
    # the evidence a way at a time, all in one Python, and check.py must
    # FAIL each (strays.py says which cases); and a notebook run after
    # another in check.py's one kernel finds nothing the other left.
    (cd "$tmp/book" && "$python" "$here/tests/notebooks/strays.py") >"$tmp/strays" 2>&1
    rc=$?
    cat "$tmp/strays"
    if [ "$rc" -ne 0 ]; then
        failed=1
        grep -q '^FAIL ' "$tmp/strays" ||
            fail "notebook check misses each stray" "strays.py exited $rc: $(tail -n 1 "$tmp/strays")"
    fi
fi
exit $failed
