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

# Debian's python3-nbformat, whichever python3 comes first on the PATH.
# Where no python3 has it, tools/need installs the package, as make installs
# noweb and pandoc (through apt-get, as root or through sudo), or names the
# one command to run, and the test fails.
find_python() {
    local p
    for p in /usr/bin/python3 python3; do
        if "$p" -c 'import nbformat' >/dev/null 2>&1; then
            echo "$p"
            return
        fi
    done
}
python=$(find_python)
if [ -z "$python" ]; then
    if ! why=$(tools/need /usr/lib/python3/dist-packages/nbformat/__init__.py python3-nbformat 2>&1); then
        echo "FAIL notebooks: python3-nbformat is needed: ${why#make: }"
        exit 1
    fi
    [ -z "$why" ] || echo "$why"
    python=$(find_python)
    if [ -z "$python" ]; then
        echo "FAIL notebooks: python3-nbformat is installed, but no python3 on the PATH imports nbformat"
        exit 1
    fi
fi
"$python" tests/notebooks/check.py "$B" "${chapters[@]}" || failed=1

# A chapter whose program has a run (tests/fixtures/runs.nw and its
# evidence): its notebook runs the run after the program and checks it, as
# check.py replays; taken out, the run's cell is missed.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fixture_book "$tmp/book"
cp tests/fixtures/runs.nw "$tmp/book/chapters/"
cp -R tests/fixtures/evidence/. "$tmp/book/evidence/"
here=$PWD
if ! make -s -C "$tmp/book" CHAPTERS=runs notebooks >"$tmp/out" 2>&1; then
    fail "notebook of a chapter with a run" "$(head -n 2 "$tmp/out" | tr '\n' ' ')"
else
    (cd "$tmp/book" && "$python" "$here/tests/notebooks/check.py" build runs) >"$tmp/check" 2>&1
    if grep -q '^FAIL' "$tmp/check" || ! grep -q '^PASS notebook runs replayed' "$tmp/check"; then
        fail "notebook of a chapter with a run: runs it and checks it" "$(grep -m 1 -v '^PASS' "$tmp/check")"
    elif ! grep -q '^\./runs --twice | tee runs_twice.out' "$tmp/book/build/md/runs.nb.md"; then
        fail "notebook of a chapter with a run: runs it and checks it" "no cell runs ./runs --twice"
    else
        pass "notebook of a chapter with a run: runs it and checks it"
    fi
    # check.py itself misses a run's cell that is not there.
    echo 'runs --thrice' >"$tmp/book/evidence/runs_thrice.run"
    (cd "$tmp/book" && "$python" "$here/tests/notebooks/check.py" build runs) >"$tmp/check" 2>&1
    if grep -q '^FAIL .*no cell runs runs_thrice as evidence/runs_thrice.run says: ./runs --thrice' "$tmp/check"; then
        pass "notebook check misses a run the notebook does not run"
    else
        fail "notebook check misses a run the notebook does not run" "check.py passed"
    fi
fi
exit $failed
