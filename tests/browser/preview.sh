#!/bin/bash
# make preview in a real browser, on a book of its own: a scratch copy of
# the tools (fixture_book) with one tall chapter written here. preview.js
# starts the preview, opens the chapter in chromium, scrolls, edits the
# prose (and breaks and mends it) and sees the page follow in place; it
# asks for files outside the book and from another address, and stops
# the preview with SIGINT. run.sh runs this after the book's own pages,
# with playwright-core installed; alone, after run.sh has installed it:
#
#   CHROMIUM=/usr/bin/chromium NODE_PATH=build/browser/node_modules tests/browser/preview.sh
#
# Prints "PASS name", "FAIL name: why" or "SKIP name: why" lines.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit
. tests/lib.sh
B=${B:-build}
if ! node -e "require('playwright-core')" 2>/dev/null; then
    echo "SKIP preview: playwright-core is not installed (tests/browser/run.sh installs it)"
    exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
book=$tmp/book
fixture_book "$book"

# Tall enough to scroll; preview.js edits the marker's sentence.
{
    echo '# Previewing'
    echo
    for i in $(seq 1 30); do
        echo "Paragraph $i of the preview's chapter, long enough to wrap over a line or two at a"
        echo "desktop width, so that the page is taller than the window and scrolls."
        echo
        [ "$i" = 15 ] && { echo 'The marker reads before.'; echo; }
    done
    echo '<<preview.h>>='
    echo '<<Say hello>>'
    echo '@ The root.'
    echo
    echo '<<Say hello>>='
    echo 'int hello = 1;'
    echo '@ The end.'
} >"$book/chapters/preview.nw"

node tests/browser/preview.js "$book" "${CHROMIUM:-chromium}"
