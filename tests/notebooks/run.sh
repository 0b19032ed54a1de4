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
python=
for p in /usr/bin/python3 python3; do
    if "$p" -c 'import nbformat' >/dev/null 2>&1; then
        python=$p
        break
    fi
done
if [ -z "$python" ]; then
    echo "SKIP notebooks: python3-nbformat is not installed (apt-get install python3-nbformat)"
    exit 0
fi
"$python" tests/notebooks/check.py "$B" "${chapters[@]}"
