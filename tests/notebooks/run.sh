#!/bin/bash
# The chapters as notebooks (make notebooks): each is valid nbformat,
# writes the chapter's files and compiles them with the book's compile
# line, and replays without a GPU up to a passing check (check.py says how).
# Prints "PASS name", "FAIL name: why" or "SKIP name: why" lines.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit
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
"$python" tests/notebooks/check.py "$B" "${chapters[@]}"
