#!/bin/bash
# The built book in a real browser: every page of build/html opened in
# Debian's chromium, headless, at a desktop width and at 390 px. A page
# fails on a console message (an error, a warning, a blocked load), a
# script error, a request that leaves the machine, a broken link or anchor,
# a chunk reference that does not land on its chunk, or a width greater
# than the window. Screenshots of each page at both widths (and of the
# chapters in the dark and in print) go to build/screenshots/. The pages'
# classes come from their contract, styles/classes.tsv, by name.
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

chromium=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [ -z "$chromium" ]; then
    echo "SKIP browser: chromium is not installed (apt-get install chromium)"
    exit 0
fi
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    echo "SKIP browser: node and npm are not installed (apt-get install nodejs npm)"
    exit 0
fi
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
NODE_PATH=$dir/node_modules node tests/browser/check.js "$B/html" "$B/screenshots" "$chromium" \
    styles/classes.tsv
