#!/bin/bash
# The built book in a real browser: every page of build/html opened in
# Debian's chromium, headless, at a desktop width and at 390 px (book.html,
# its chapters' pages under one outline, at the desktop's only). A page
# fails on a console message (an error, a warning, a blocked load), a
# script error, a request that leaves the machine, a broken link or anchor,
# a chunk reference that does not land on its chunk, a quoted number or
# claim whose link leads to neither a transcript's line nor an entry, a
# code block or label without its copy control (a label's holding other
# text than its snippet file), a width greater than
# the window, a box that scrolls sideways without showing it (a shade at
# the edge, a scrollbar), a chart away from the prose that argues from it
# or a section quoting many values with neither a table nor a chart (on a
# chapter's page), text under 4.5:1 contrast in either theme (on
# book.html, in its chapters' headings and its first chapter: the rest is
# each chapter's own page, checked as that page, in the same styles), or a
# numbered list that starts past 1; the chapters, on CUDA code left
# unhighlighted. What every page shares whatever its chapter is checked
# once, on a small book of the toolchain's (below): opening and closing
# the contents at 390 and 900 px must keep the reader's place, the
# previous and next chapter must be above the text as well as below it,
# and the arrow keys go there; quoted numbers, claims and chunk
# references followed, the copy controls and a fold's button clicked;
# search, folds, labels and the colours' switch (check.js --toolchain). To look at,
# not to test: with BROWSER_SHOTS=1, screenshots of each page at both
# widths (its first chart and transcript too, the contents open, the
# chapters in the dark and in print) go to build/screenshots/, and with
# BROWSER_PDF=1 each chapter printed to PDF.
# Two pages are open at once. The pages' classes come from their contract,
# styles/classes.tsv, by name.
#
# The browser is driven through playwright-core (pinned by package-lock.json
# here, installed with npm into build/browser/), which talks to the system's
# chromium and downloads no browser: it can set a 390 px viewport, which
# chromium's own --window-size cannot in headless mode, and it tells a
# console error from a log line.
#
# Prints "PASS name", "FAIL name: why" or "SKIP name: why" lines.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit
B=${B:-build}

# What the test needs and a fresh machine lacks, tools/need installs, as make
# installs noweb and pandoc (through apt-get, as root or through sudo), or
# names the one command to run, and the test fails. A machine with its own
# Node.js keeps it.
need() { # COMMAND PACKAGE
    local why
    if ! why=$(tools/need "$1" "$2" 2>&1); then
        echo "FAIL browser: $1 is needed: ${why#make: }"
        exit 1
    fi
    [ -z "$why" ] || echo "$why"
}
chromium=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [ -z "$chromium" ]; then
    need chromium chromium
    chromium=$(command -v chromium)
fi
command -v node >/dev/null 2>&1 || need node nodejs
command -v npm >/dev/null 2>&1 || need npm npm
major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$major" -lt 20 ]; then
    echo "SKIP browser: node $(node --version) is older than 20, which playwright-core needs"
    exit 0
fi
if [ ! -f "$B/html/index.html" ]; then
    echo "FAIL browser: $B/html/index.html is not there; run make first"
    exit 1
fi

dir=$B/browser
if ! cmp -s tests/browser/package-lock.json "$dir/package-lock.json" ||
   [ ! -f "$dir/node_modules/playwright-core/package.json" ]; then
    rm -rf "$dir" && mkdir -p "$dir"
    cp tests/browser/package.json tests/browser/package-lock.json "$dir/"
    if ! (cd "$dir" && npm ci --ignore-scripts --no-audit --no-fund >npm.log 2>&1); then
        echo "SKIP browser: npm could not install playwright-core: $(tail -1 "$dir/npm.log")"
        rm -f "$dir/package-lock.json"
        exit 0
    fi
fi
rm -rf "$B/screenshots"
# make check CHAPTER=x: the chapter's page and the indexes that list it.
PAGES=
if [ -n "${CHECK_CHAPTER:-}" ]; then
    PAGES="$CHECK_CHAPTER.html index.html labels.html chunks.html identifiers.html"
fi
export PAGES
NODE_PATH=$dir/node_modules node tests/browser/check.js "$B/html" "$B/screenshots" "$chromium" \
    styles/classes.tsv
status=$?
# The toolchain's: what every page shares (the contents button, the
# outline, landing on a label, the colours' switch, the page turns,
# search, folds), once, on a small book of its own, tests/fixtures/book's
# chapters and tests/fixtures/browser's, whose pages are a fraction of
# the book's; and make preview, on another. make check CHAPTER=x leaves
# both to the whole check.
if [ -z "${CHECK_CHAPTER:-}" ]; then
    . tests/lib.sh
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    fixture_book_from "$tmp/book" tests/fixtures/book
    cp tests/fixtures/browser/chapters/*.nw "$tmp/book/chapters/"
    cat tests/fixtures/browser/chapters/labels.tsv >>"$tmp/book/chapters/labels.tsv"
    # Without nvcc: the pages are the subject, not the programs.
    if make -s -C "$tmp/book" CHAPTERS="parity tally scan" NVCC= html >"$tmp/log" 2>&1; then
        NODE_PATH=$dir/node_modules node tests/browser/check.js --toolchain "$tmp/book/build/html" \
            "$B/screenshots/toolchain" "$chromium" styles/classes.tsv || status=1
    else
        echo "FAIL browser: build the toolchain's book: $(grep -m 1 -e error -e Error "$tmp/log" || head -1 "$tmp/log")"
        status=1
    fi
    NODE_PATH=$dir/node_modules CHROMIUM=$chromium tests/browser/preview.sh || status=1
fi
exit "$status"
