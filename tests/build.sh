#!/bin/bash
# The build as an author meets it: mistakes in the book's list and files,
# chapters added and removed, headers, two makes at once, an interrupted
# make, and two clean builds that must agree. Each case runs the real make
# on a small book of its own, tests/fixtures/book: the book's tools and two
# tiny chapters that between them take every stage the real book does (a
# program and a header it includes, snippet labels, a citation between
# chapters, a figure, a transcript with a chart, a run, quoted values and
# claims), so that the graph is the book's and a compile takes seconds.
# Bad input must give its one line, a non-zero exit and build/ as it was,
# and undoing the mistake must give a build/ byte-identical to a clean
# build (build/bin aside: nvcc embeds temporary names in binaries, so they
# differ between any two builds).
set -uo pipefail
cd "$(dirname "$0")/.." || exit
. tests/lib.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
book=$tmp/book
fixture=tests/fixtures/book
fixture_book_from "$book" "$fixture"
# Its first build is a clean one, but for the C tools, which it has from the
# book's build (scratch_book): it is the first of the two clean builds
# compared at the end. (A clean build of the tools is every fresh clone's
# first make; here it would be 10 CPU-s a build for nothing these cases look
# at.)
clean_build() { [ ! -d "$book/build" ] || find "$book/build" -mindepth 1 -maxdepth 1 ! -name tools -exec rm -rf {} +; }
clean_build
# The fixture's chapters, in its order; a CHAPTERS among the arguments
# comes later on make's command line, and so replaces it. The book's C
# tools are compiled without optimisation where they are compiled (the
# book not built): at -O2 they are most of a clean build's time, and how
# fast they run on two small chapters is nothing these cases look at.
all="parity tally"
# Where a case's subject is the graph of labels and pages, not the
# compile, its makes say NVCC= (no nvcc: tangled and woven, compiling
# skipped): $nocc holds that for them.
nocc=()
mk() { make -s -C "$book" CFLAGS=-O0 CHAPTERS="$all" "${nocc[@]}" "$@"; }
# Every file of build/ with its checksum; not the binaries (see above).
snapshot() { (cd "$book/build" && find . -type f ! -path './bin/*' ! -path './asan/*' -exec md5sum {} + | sort); }

# expect_bad NAME WANT MAKE-ARGS...: make fails, says WANT (a line, or the
# message of make's own "Makefile:N: *** WANT.  Stop."), and leaves build/
# as it was.
expect_bad() {
    local name=$1 want=$2
    shift 2
    local before
    before=$(snapshot)
    if mk "$@" >"$tmp/out" 2>"$tmp/err"; then
        fail "$name" "make succeeded"
    elif ! grep -qxF -- "$want" "$tmp/err" &&
         ! grep -qx -- "Makefile:[0-9]*: \*\*\* $(printf '%s' "$want" | sed 's/[][\\.*^$]/\\&/g').  Stop." "$tmp/err"; then
        fail "$name" "stderr is '$(head -3 "$tmp/err" | tr '\n' ' ')', want '$want'"
    elif [ "$(snapshot)" != "$before" ]; then
        fail "$name" "build/ changed: $(diff <(echo "$before") <(snapshot) | head -3 | tr '\n' ' ')"
    else
        pass "$name"
    fi
}

# The first of two clean builds with -j16 (the second closes the file):
# what every case below compares build/ with.
if ! mk -j16 >"$tmp/log" 2>&1; then
    fail "build the fixture book" "$(tail -3 "$tmp/log" | tr '\n' ' ')"
    exit 1
fi
clean=$(snapshot)
# A copy of the book as built, to put it back in a moment where the make
# that would put it back is no case's subject.
cp -a "$book" "$tmp/built"
restore_built() { rm -rf "$book" && cp -a "$tmp/built" "$book"; }

# A chapter listed twice, and a missing label registry: one line at once.
expect_bad "a chapter listed twice in CHAPTERS" \
    "tally is listed twice in CHAPTERS; a chapter has one place in the book" \
    CHAPTERS="$all tally"
mv "$book/chapters/labels.tsv" "$tmp/labels.tsv"
expect_bad "a missing label registry" \
    "chapters/labels.tsv is missing: it lists the labels the book has published; restore it (git checkout chapters/labels.tsv), or start an empty one for a new book" \
    tangle
mv "$tmp/labels.tsv" "$book/chapters/labels.tsv"

# A second chapter that tangles a file another chapter tangles is named
# with both lines, and replaces nothing; so is a citation of a label the
# book does not have. Undoing either heals the tree with no touch.
root=$(awk -F'\t' '$1 == "root" { print $2 " " $3; exit }' "$book/build/meta/tally.lines")
printf '# Same root\n\n<<%s>>=\nint main() { return 0; }\n@\n' "${root% *}" >"$book/chapters/zz.nw"
expect_bad "a file root of two chapters" \
    "chapters/zz.nw:3: file root <<${root% *}>> is already tangled by chapters/tally.nw:${root#* }; a file belongs to one chapter, so name this one otherwise" \
    CHAPTERS="$all zz"
rm -f "$book/chapters/zz.nw"
printf '\nSee [[<<no-such-label>>]].\n' >>"$book/chapters/tally.nw"
n=$(wc -l <"$book/chapters/tally.nw")
expect_bad "a citation of a label the book does not have" \
    "chapters/tally.nw:$n: [[<<no-such-label>>]] cites no chunk of this chapter and no snippet label of the book" \
    tangle html
cp "$fixture/chapters/tally.nw" "$book/chapters/tally.nw"
# Errors that only a step after the tangle can find, the tangle having
# written the chapter's files: a quote of a GPU or a program with no
# values, a division by zero, a claim about a GPU with none, and a figure
# that does not compile. The make is a transaction (tools/txn): build/ is
# put back as it was.
n=$(($(wc -l <"$fixture/chapters/tally.nw") + 2))
for bad in "quote [[=no-such-gpu: tally.each_ms]]: no values are recorded for GPU no-such-gpu" \
           "quote [[=no_prog.each_ms]]: unknown value no_prog.each_ms: no values file of no_prog holds it" \
           "quote [[=tally.each_ms / (tally.each_ms - tally.each_ms)]]: a division by zero on nvidia-h200" \
           "claim [[?nvidia-h300: tally.each_ms < 1]]: no values are recorded for GPU nvidia-h300"; do
    q=${bad#* }
    q=${q%%]]*}]]
    printf '\nIt is %s.\n' "$q" >>"$book/chapters/tally.nw"
    expect_bad "an error found after the tangle leaves build/ as it was: ${bad%%]]*}]]" \
        "chapters/tally.nw:$n: $bad"
    cp "$fixture/chapters/tally.nw" "$book/chapters/tally.nw"
done
# A chart the chapter does not place is an error, not a chart among the
# transcripts: it belongs where the prose argues from it.
sed -i '/^\[\[!chart tally\]\]$/d' "$book/chapters/tally.nw"
expect_bad "a chart its chapter shows nowhere stops the build" \
    "chapters/tally.nw:1: the chart build/charts/tally/nvidia-h200.md is shown nowhere: write [[!chart tally]] on a line of its own where the prose argues from it"
cp "$fixture/chapters/tally.nw" "$book/chapters/tally.nw"
n=$(grep -n '^#include "svg.hpp"$' "$fixture/chapters/parity.nw" | cut -d: -f1)
sed -i 's/^#include "svg.hpp"$/&\n#error the figure does not compile/' "$book/chapters/parity.nw"
expect_bad "an error found after the tangle leaves build/ as it was: a figure that does not compile" \
    "chapters/parity.nw:$((n + 1)):2: error: #error the figure does not compile"
cp "$fixture/chapters/parity.nw" "$book/chapters/parity.nw"
mk >"$tmp/out" 2>&1
if [ "$(snapshot)" = "$clean" ]; then
    pass "undoing a rejected change leaves the book as a clean build has it"
else
    fail "undoing a rejected change leaves the book as a clean build has it" \
        "$(diff <(echo "$clean") <(snapshot) | head -4 | tr '\n' ' ')"
fi

# A chapter added and removed again: the pages follow CHAPTERS, and what
# the chapter made goes with it.
cat >"$book/chapters/zz.nw" <<'EOF'
# An extra chapter

A header of its own, included by its program.

<<zz_util.cuh>>=
constexpr int kAnswer = 42;
@

<<zz.cu>>=
#include "zz_util.cuh"
int main() { return kAnswer == 42 ? 0 : 1; }
@
EOF
# The front page lists it, and the chapter before it turns to it.
if ! mk CHAPTERS="$all zz" >"$tmp/out" 2>&1; then
    fail "a new chapter builds quietly" "$(head -3 "$tmp/out" | tr '\n' ' ')"
elif [ ! -f "$book/build/html/zz.html" ]; then
    fail "a new chapter builds quietly" "no build/html/zz.html"
elif ! sed -n '/<main id="text">/,/<\/main>/p' "$book/build/html/index.html" | grep -q 'href="zz.html"'; then
    fail "a new chapter builds quietly" "the front page does not list zz.html"
elif ! grep -q 'rel="next" href="zz.html"' "$book/build/html/tally.html"; then
    fail "a new chapter builds quietly" "tally.html does not turn to zz.html"
elif grep -q 'No such file' "$tmp/out"; then
    fail "a new chapter builds quietly" "$(grep -m1 'No such file' "$tmp/out")"
else
    pass "a new chapter builds quietly"
fi
# (make check says NVCC= where the book has no nvcc; alone, nvcc is looked for.)
if [ -n "$(command -v "${NVCC-nvcc}")" ]; then
    # A prose edit compiles nothing.
    compiled() { [ -n "$(find "$book/build/bin" -newer "$tmp/mark" -print -quit)" ]; }
    touch "$tmp/mark"
    sleep 1
    sed -i 's/A header of its own/A header, its own/' "$book/chapters/zz.nw"
    mk CHAPTERS="$all zz" >"$tmp/out" 2>&1
    if compiled; then
        fail "a prose edit compiles nothing" "$(find "$book/build/bin" -newer "$tmp/mark" | head -1) was compiled"
    else
        pass "a prose edit compiles nothing"
    fi
    # ... and weaves no other chapter's page again.
    rewoven=$(find "$book/build/html" -maxdepth 1 \( -name parity.html -o -name tally.html \) -newer "$tmp/mark")
    if [ -z "$rewoven" ]; then
        pass "a prose edit weaves no other chapter's page again"
    else
        fail "a prose edit weaves no other chapter's page again" "$(echo $rewoven | sed "s|$book/||g") rewritten"
    fi
    # ... and passes no label's slide fragment through pandoc again.
    fragments=$(find "$book/build/html/snippets" -name '*.html' | wc -l)
    redone=$(find "$book/build/html/snippets" -name '*.html' -newer "$tmp/mark")
    if [ "$fragments" -gt 0 ] && [ -z "$redone" ]; then
        pass "a prose edit makes no label's slide fragment again ($fragments kept)"
    else
        fail "a prose edit makes no label's slide fragment again" "$fragments fragments; made again: $(echo $redone | sed "s|$book/||g")"
    fi
    # ... and the make after it runs no recipe but the compile lines' (it
    # runs always, and rewrites nothing where they are as they were), as
    # make --trace names each target whose recipe it runs.
    mk CHAPTERS="$all zz" --trace >"$tmp/out" 2>&1
    again=$(grep 'update target' "$tmp/out" | grep -v -e "target 'all' due to: txn" -e "target 'build/compile-lines' due to: FORCE")
    if [ -z "$again" ] && grep -q "target 'build/compile-lines'" "$tmp/out"; then
        pass "the make after a prose edit runs no recipe but the compile lines'"
    else
        fail "the make after a prose edit runs no recipe but the compile lines'" \
            "$(echo "${again:-make --trace named no target at all}" | head -n 2 | tr '\n' ' ')"
    fi
    # A header edit compiles its program again. Last, and its make is of
    # the programs alone: the chapter goes next, and with it what the rest
    # of a make would weave from the new header (its page, the T4 fit's
    # PTX, the pages that quote the fit), 6 CPU-s of the group's.
    touch "$tmp/mark"
    sleep 1
    sed -i 's/kAnswer = 42/kAnswer = 40 + 2/' "$book/chapters/zz.nw"
    mk CHAPTERS="$all zz" programs >"$tmp/out" 2>&1
    if [ "$book/build/bin/zz" -nt "$tmp/mark" ]; then
        pass "a header edit compiles its program again"
    else
        fail "a header edit compiles its program again" "build/bin/zz was not compiled"
    fi
    # The edit leaves the T4 fit's values as they were (a constant's
    # spelling): their file keeps its time, and another chapter's page,
    # which quotes from every values file, is not made again, though the
    # fit is.
    mk CHAPTERS="$all zz" build/html/tally.html >"$tmp/out" 2>&1
    if [ ! "$book/build/fit/zz.ptxas" -nt "$tmp/mark" ]; then
        fail "a code edit that leaves the T4 fit as it was makes no other chapter's page again" \
            "the fit was not made again: $(head -2 "$tmp/out" | tr '\n' ' ')"
    elif [ "$book/build/html/tally.html" -nt "$tmp/mark" ]; then
        fail "a code edit that leaves the T4 fit as it was makes no other chapter's page again" "tally.html was"
    else
        pass "a code edit that leaves the T4 fit as it was makes no other chapter's page again"
    fi
else
    skip "a prose edit compiles nothing" "no nvcc"
    skip "a header edit compiles its program again" "no nvcc"
    skip "a code edit that leaves the T4 fit as it was makes no other chapter's page again" "no nvcc"
fi
rm -f "$book/chapters/zz.nw"
mk >"$tmp/out" 2>&1
# (The snapshot leaves build/bin out: the removed chapter's program goes
# too, which the programs stage removes.)
if [ "$(snapshot)" = "$clean" ] && [ ! -e "$book/build/bin/zz" ]; then
    pass "a removed chapter leaves the book as a clean build has it"
elif [ -e "$book/build/bin/zz" ]; then
    fail "a removed chapter leaves the book as a clean build has it" "build/bin/zz is left: $(head -5 "$tmp/out" | tr "\n" " ")"
else
    fail "a removed chapter leaves the book as a clean build has it" \
        "$(diff <(echo "$clean") <(snapshot) | head -4 | tr '\n' ' ')"
fi

# A chapter renamed with its registry lines builds: its roots move with
# it, rather than going as those of a chapter the book lost, and so do its
# published labels. Renamed back, the book is as a clean build has it.
rename_chapter() { # FROM TO
    mv "$book/chapters/$1.nw" "$book/chapters/$2.nw"
    sed -i "s/\t$1\$/\t$2/" "$book/chapters/labels.tsv"
}
rename_chapter parity parity-renamed
if make -s -C "$book" CFLAGS=-O0 CHAPTERS="parity-renamed tally" >"$tmp/out" 2>&1 &&
   [ -f "$book/build/html/parity-renamed.html" ] && [ ! -e "$book/build/html/parity.html" ] &&
   [ -f "$book/build/src/parity.cuh" ] && grep -q 'parity-renamed.html#parity-test' "$book/build/html/labels.html"; then
    pass "a chapter renamed with its registry lines builds, its files and labels with it"
else
    fail "a chapter renamed with its registry lines builds, its files and labels with it" \
        "$(head -3 "$tmp/out" | tr '\n' ' ')$(ls "$book/build/src" | tr '\n' ' ')"
fi
rename_chapter parity-renamed parity
mk >"$tmp/out" 2>&1
if [ "$(snapshot)" = "$clean" ]; then
    pass "a chapter renamed back leaves the book as a clean build has it"
else
    fail "a chapter renamed back leaves the book as a clean build has it" \
        "$(head -2 "$tmp/out" | tr '\n' ' ') $(diff <(echo "$clean") <(snapshot) | head -4 | tr '\n' ' ')"
fi

# A chapter saved again while the tangle reads it (NWPIPE here saves it
# right after reading it): make stops, saying so, with build/ as it was,
# and the next make tangles the new text.
printf '#!/bin/sh\n"%s/tools/book/nwpipe.sh" "$@" || exit\ncase $1 in *tally.nw) printf "\\nSaved while it was tangled.\\n" >>"$1" ;; esac\n' \
    "$PWD" >"$tmp/nwpipe-then-save"
chmod +x "$tmp/nwpipe-then-save"
printf '\nAn edit.\n' >>"$book/chapters/tally.nw"
before=$(snapshot)
name="a chapter saved while it is tangled stops make, and the next make reads it"
if mk NWPIPE="$tmp/nwpipe-then-save" >"$tmp/out" 2>"$tmp/err"; then
    fail "$name" "make succeeded"
elif ! grep -qxF "chapters/tally.nw:1: changed while it was being tangled; nothing was put in place: run make again" "$tmp/err"; then
    fail "$name" "$(head -2 "$tmp/err" | tr '\n' ' ')"
elif [ "$(snapshot)" != "$before" ]; then
    fail "$name" "build/ changed"
elif ! mk >"$tmp/out" 2>&1 || ! grep -q 'Saved while it was tangled' "$book/build/meta/tally.nwpipe"; then
    fail "$name" "the next make left the edit out"
else
    pass "$name"
fi
# The chapter as it was, and build/ as a clean build has it: a copy, not
# a make that weaves the chapter again (4 CPU-s).
restore_built

# A stamp lost to an interrupt is made again.
rm -f "$book/build/stamp/snippets" "$book/build/stamp/tangled"
mk >"$tmp/out" 2>&1
if [ -f "$book/build/stamp/snippets" ] && [ -f "$book/build/stamp/tangled" ] &&
   [ "$(snapshot)" = "$clean" ]; then
    pass "a missing stamp is made again"
else
    fail "a missing stamp is made again" "$(ls "$book/build/stamp" | tr '\n' ' ')"
fi

# Two makes at once in one tree: both succeed, and the tree is whole.
for i in 1 2 3; do
    touch "$book/chapters/tally.nw"
    mk -j4 >"$tmp/a" 2>&1 &
    a=$!
    mk -j4 >"$tmp/b" 2>&1
    rb=$?
    wait "$a"
    ra=$?
    if [ "$ra" -ne 0 ] || [ "$rb" -ne 0 ]; then
        fail "two makes at once (try $i)" "$(cat "$tmp/a" "$tmp/b" | grep -v '^  ' | head -3 | tr '\n' ' ')"
        break
    elif [ "$(snapshot)" != "$clean" ]; then
        fail "two makes at once (try $i)" "$(diff <(echo "$clean") <(snapshot) | head -4 | tr '\n' ' ')"
        break
    elif [ "$i" -eq 3 ]; then
        pass "two makes at once succeed and agree (3 tries)"
    fi
done

# A published label keeps its code. An edit of its layout and comments is
# no change; a change of its code stops the build at the label's line; make
# revise publishes revision 2, keeping revision 1's code, which has a page;
# kept code that is not its revision's stops the build; and the label,
# retired after its revision, keeps its revisions' entry and page.
# Compiling is what these cases leave out: a label's code changing
# compiles its programs again, four times a CUDA program and a figure,
# and what they look at is the registry, the kept code and the pages.
nocc=(NVCC=)
for f in parity.nw tally.nw labels.tsv; do cp "$book/chapters/$f" "$tmp/$f"; done
line=$(grep -n '^<<parity-test>>=$' "$book/chapters/parity.nw" | cut -d: -f1)
sed -i 's|^__host__ __device__ constexpr bool isEven(int x) { return (x & 1) == 0; }$|// Even: the lowest bit clear.\n__host__ __device__ constexpr bool isEven(int x) {\n    return (x \& 1) == 0;   /* a mask */\n}|' \
    "$book/chapters/parity.nw"
name="an edit of a label's layout and comments is no revision"
if ! grep -q '/\* a mask \*/' "$book/chapters/parity.nw"; then
    fail "$name" "the fixture's parity-test chunk is not as this test expects"
elif mk >"$tmp/out" 2>&1 && mk cite LABEL=parity-test 2>&1 | grep -qx '  revision 1'; then
    pass "$name"
else
    fail "$name" "$(grep -v '^  ' "$tmp/out" | head -2 | tr '\n' ' ')"
fi
old=$(awk -F'\t' '$1 == "parity-test" { print $3 " " $4 " " $5 }' "$book/build/snippets.tsv")
read -r file first last <<<"$old"
sed -n "${first},${last}p" "$book/build/src/$file" >"$tmp/rev1"
sed -i 's|    return (x & 1) == 0;   /\* a mask \*/|    return !(x \& 1);|' "$book/chapters/parity.nw"
expect_bad "a change of a published label's code stops the build at its line" \
    "chapters/parity.nw:$line: the code of published label <<parity-test>> changed since revision 1, which lessons cite: make revise LABEL=parity-test publishes revision 2 and keeps revision 1's, or retire the label"
# Where build/ holds no last good build (a fresh clone whose first make
# stopped on the change), make revise says how to make one, and changes
# nothing.
name="make revise with no last good build says how to make one"
mv "$book/build/meta" "$tmp/meta"
if mk revise LABEL=parity-test >"$tmp/out" 2>&1; then
    fail "$name" "it succeeded"
elif ! grep -qx 'build/meta/[a-z]*\.lines: missing: make revise keeps the code of the label.s last revision from the last good build, and there is none; build the book as it was before the change (git stash; make; git stash pop), then make revise again' "$tmp/out"; then
    fail "$name" "$(grep -v '^  ' "$tmp/out" | head -2 | tr '\n' ' ')"
elif ! cmp -s "$book/chapters/labels.tsv" "$tmp/labels.tsv" || [ -e "$book/chapters/labels/parity-test@1.cu" ]; then
    fail "$name" "the registry or its kept code changed"
else
    pass "$name"
fi
mv "$tmp/meta" "$book/build/meta"
name="make revise publishes revision 2 and keeps revision 1's code, with a page"
kept=$book/chapters/labels/parity-test@1.cu
if ! mk revise LABEL=parity-test >"$tmp/out" 2>&1; then
    fail "$name" "$(head -2 "$tmp/out" | tr '\n' ' ')"
elif ! cmp -s "$kept" "$tmp/rev1"; then
    fail "$name" "the kept code is not revision 1's: $(diff "$tmp/rev1" "$kept" 2>&1 | head -3 | tr '\n' ' ')"
elif ! grep -qP '^parity-test\t2\t\d{4}-\d\d-\d\d\t[0-9a-f]{16}$' "$book/chapters/labels.tsv"; then
    fail "$name" "the registry has no revision 2: $(grep parity-test "$book/chapters/labels.tsv" | tr '\n' ' ')"
elif ! mk >"$tmp/out" 2>&1; then
    fail "$name" "the build after it fails: $(grep -v '^  ' "$tmp/out" | head -2 | tr '\n' ' ')"
elif ! mk cite LABEL=parity-test 2>&1 | grep -qx '  revision 2'; then
    fail "$name" "make cite does not say revision 2"
elif ! grep -q '/\* a mask \*/' "$book/build/html/parity-test@1.html" ||
     grep -q '<span class="op">!(</span>' "$book/build/html/parity-test@1.html"; then
    fail "$name" "build/html/parity-test@1.html does not show revision 1's code"
elif ! grep -q 'href="parity-test@1.html"' "$book/build/html/labels.html" ||
     ! grep -q '<p class="revised">This is revision 2 of the label .*href="parity-test@1.html"' "$book/build/html/parity.html"; then
    fail "$name" "labels.html or the chapter's page does not link revision 1"
else
    pass "$name"
fi
name="a label's snippet for slides is its tangled lines under a line naming it, its revision and address"
read -r file first last <<<"$(awk -F'\t' '$1 == "parity-test" { print $3 " " $4 " " $5 }' "$book/build/snippets.tsv")"
snippet=$book/build/html/snippets/parity-test.cu
# Its makes are of the tangle, which makes the snippets: a make of all
# would weave every page twice more for BASE_URL (8 CPU-s), and the pages
# with BASE_URL are weave.sh's.
if ! mk BASE_URL=https://example.org/book tangle >"$tmp/out" 2>&1; then
    fail "$name" "$(grep -v '^  ' "$tmp/out" | head -2 | tr '\n' ' ')"
elif ! cmp -s "$snippet" <(echo '// parity-test, revision 2: https://example.org/book/parity.html#parity-test'
                          sed -n "${first},${last}p" "$book/build/src/$file"); then
    fail "$name" "with BASE_URL: $(head -3 "$snippet" | tr '\n' ' ')"
elif ! mk tangle >"$tmp/out" 2>&1 ||
     [ "$(head -1 "$snippet")" != '// parity-test, revision 2: parity.html#parity-test (unpublished: no BASE_URL)' ]; then
    fail "$name" "without BASE_URL: $(head -1 "$snippet")"
elif ! mk cite LABEL=parity-test 2>&1 | grep -qx '  snippet  build/html/snippets/parity-test.cu'; then
    fail "$name" "make cite does not name it"
else
    pass "$name"
fi
name="make revise of code that did not change says so"
if mk revise LABEL=parity-test >"$tmp/out" 2>&1 ||
   ! grep -qx 'snippets: the code of parity-test is that of its revision 2: nothing to revise' "$tmp/out"; then
    fail "$name" "$(head -2 "$tmp/out" | tr '\n' ' ')"
else
    pass "$name"
fi
cp "$kept" "$tmp/kept"
sed -i 's/== 0/!= 1/' "$kept"
expect_bad "kept code that is not its revision's stops the build" \
    "chapters/labels.tsv:$(grep -n "^parity-test	1	" "$book/chapters/labels.tsv" | cut -d: -f1): chapters/labels/parity-test@1.cu is not the code of revision 1 of label parity-test, whose fingerprint this line records; restore it (git checkout chapters/labels/parity-test@1.cu)"
cp -p "$tmp/kept" "$kept"
sed -i 's/parity-test/parity-check/g' "$book/chapters/parity.nw" "$book/chapters/tally.nw"
sed -i 's/^parity-test\tparity$/parity-test\tparity\tparity-check\nparity-check\tparity/' "$book/chapters/labels.tsv"
expect_bad "a new label has its code recorded before the build goes on" \
    "chapters/parity.nw:$line: published label <<parity-check>> has no revision in the registry; make revise LABEL=parity-check records its code as revision 1"
name="a label retired after a revision keeps its revisions' entry and page"
if ! mk revise LABEL=parity-check >"$tmp/out" 2>&1 || ! mk >>"$tmp/out" 2>&1; then
    fail "$name" "$(grep -v '^  ' "$tmp/out" | head -2 | tr '\n' ' ')"
elif ! tr '\n' ' ' <"$book/build/html/labels.html" |
       grep -q '<div id="parity-test" class="entry label-entry">.*Retired: its code is now.*Revision 2, of [-0-9]*; the code lessons cited before: <a href="parity-test@1.html">revision 1</a>' ||
     ! tr '\n' ' ' <"$book/build/html/parity-test@1.html" | grep -q 'The label is retired' ||
     ! mk cite LABEL=parity-test 2>&1 | grep -qx 'parity-test is retired; it is now parity-check'; then
    fail "$name" "$(grep -A4 'id="parity-test"' "$book/build/html/labels.html" | tr '\n' ' ' | head -c 400)"
else
    pass "$name"
fi
# Two labels changed at once: each is revised in turn, from the last good
# tangle that make revise leaves as it was.
read -r file first last <<<"$(awk -F'\t' '$1 == "block-count" { print $3 " " $4 " " $5 }' "$book/build/snippets.tsv")"
sed -n "${first},${last}p" "$book/build/src/$file" >"$tmp/count1"
sed -i 's/^constexpr int kThreads = 256;$/constexpr int kThreads = 128;/' "$book/chapters/tally.nw"
sed -i 's|    return !(x & 1);|    return (x \& 1) != 1;|' "$book/chapters/parity.nw"
name="two labels changed at once are revised in turn"
if mk >"$tmp/out" 2>&1; then
    fail "$name" "the build took the changes"
elif ! mk revise LABEL=parity-check >"$tmp/out" 2>&1 || mk >>"$tmp/out" 2>&1; then
    fail "$name" "the first revise, or the build after it that should stop at block-count: $(grep -v '^  ' "$tmp/out" | head -2 | tr '\n' ' ')"
elif ! grep -q 'published label <<block-count>> changed' "$tmp/out"; then
    fail "$name" "the build after the first revise: $(grep -v '^  ' "$tmp/out" | head -1)"
elif ! mk revise LABEL=block-count >"$tmp/out" 2>&1 || ! mk >>"$tmp/out" 2>&1; then
    fail "$name" "$(grep -v '^  ' "$tmp/out" | head -2 | tr '\n' ' ')"
elif ! cmp -s "$tmp/count1" "$book/chapters/labels/block-count@1.cu" ||
     ! mk cite LABEL=block-count | grep -qx '  revision 2' || ! mk cite LABEL=parity-check | grep -qx '  revision 2'; then
    fail "$name" "block-count's kept code or the revisions: $(grep -P '\t2\t' "$book/chapters/labels.tsv" | cut -f1 | tr '\n' ' ')"
else
    pass "$name"
fi
for f in parity.nw tally.nw labels.tsv; do cp "$tmp/$f" "$book/chapters/$f"; done
rm -rf "$book/chapters/labels"
nocc=()

# Two clean builds with -j16 are byte-identical outside build/bin: the
# sources are as they were for the first, at the top of the file.
clean_build
mk -j16 >/dev/null 2>&1
if [ -n "$clean" ] && [ "$(snapshot)" = "$clean" ]; then
    pass "two clean make -j16 are byte-identical outside build/bin"
else
    fail "two clean make -j16 are byte-identical outside build/bin" \
        "$(diff <(echo "$clean") <(snapshot) | head -4 | tr '\n' ' ')"
fi
exit "$failed"
