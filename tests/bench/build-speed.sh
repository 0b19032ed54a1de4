#!/bin/bash
# How long the build takes, and what it redoes. A benchmark, not a test: it
# prints what it measured and asserts nothing.
#
# On a scratch copy of the book it times a clean `make -j2`, a no-op `make`,
# a prose-only edit of one chapter and a one-line code edit, and for each
# prints the wall time, the number of nvcc runs, the number of commands make
# ran (counted through its SHELL) and the pages rewritten.
set -euo pipefail
cd "$(dirname "$0")/../.."
. tests/lib.sh
chapter=${1:-day32-scan}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
scratch_book "$tmp/book"
rm -rf "$tmp/book/build" # a clean build: the tools too
real_nvcc=$(command -v nvcc || true)
# Count nvcc runs through a wrapper; without nvcc the build skips compiling.
cat >"$tmp/nvcc" <<WRAP
#!/bin/sh
echo x >>"$tmp/nvcc.count"
exec "$real_nvcc" "\$@"
WRAP
chmod +x "$tmp/nvcc"
# Count every recipe command make runs through a SHELL that logs and execs.
cat >"$tmp/sh" <<WRAP
#!/bin/bash
echo x >>"$tmp/sh.count"
exec /bin/bash "\$@"
WRAP
chmod +x "$tmp/sh"
nw=$tmp/book/chapters/$chapter.nw

step() {
    local what=$1
    : >"$tmp/nvcc.count"
    : >"$tmp/sh.count"
    touch "$tmp/mark"
    sleep 1
    local t0 t1
    t0=$(date +%s.%N)
    make -C "$tmp/book" -s -j2 NVCC="$tmp/nvcc" SHELL="$tmp/sh" >/dev/null
    t1=$(date +%s.%N)
    local pages
    pages=$(find "$tmp/book/build/html" -name '*.html' -newer "$tmp/mark" -printf '%f ' 2>/dev/null)
    printf '%-20s %7.2f s  %2d nvcc  %3d commands  pages: %s\n' \
        "$what" "$(echo "$t1 - $t0" | bc)" "$(wc -l <"$tmp/nvcc.count")" \
        "$(wc -l <"$tmp/sh.count")" "${pages:-none}"
}

[ -n "$real_nvcc" ] || echo "(no nvcc here: compiling is skipped, so nvcc counts are 0)"
step "clean make -j2"
step "no-op make"
# A prose edit: one more sentence in the first documentation chunk.
sed -i '0,/^$/s//\nOne more sentence of prose.\n/' "$nw"
step "prose-only edit"
# A code edit: one more line at the top of the first code chunk.
awk 'BEGIN { done = 0 } { print } /^<<.*>>=$/ && !done { print "// one more line"; done = 1 }' \
    "$nw" >"$nw.new" && mv "$nw.new" "$nw"
step "one-line code edit"
