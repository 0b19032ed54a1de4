#!/bin/bash
# The weave on fixture chapters, through the real build: code and
# transcripts escaped, a compile error at its chapter line, broken chapters
# and books named in one line with build/ untouched, a missing tool named,
# the book without nvcc, retired labels, quotes and runs through make,
# figures that fail, the checks of an SVG, and the class contract held to
# the book's pages and the fixtures'.
set -uo pipefail
cd "$(dirname "$0")/.." || exit
. tests/lib.sh
. tests/svg.sh
B=${B:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Its makes weave, and compile nothing with nvcc, but for the case of a
# compile error: their subjects are the pages, the labels, quotes, runs
# and figures, and the build's guards.
nvcc=${NVCC:-}
export NVCC=

# Code and transcripts are text, never markup; a chunk reference inside code
# is a link; and a compile error is reported at the chapter's line.
fixture_book "$tmp/book"
cp tests/fixtures/escape.nw "$tmp/book/chapters/"
if make -s -C "$tmp/book" CHAPTERS=escape tangle html >"$tmp/log" 2>&1; then
    page=$tmp/book/build/html/escape.html
    if grep -q '<script>' "$page"; then
        fail "code is escaped" "a <script> from a chunk reached escape.html"
    elif ! grep -q '&lt;/pre&gt;&lt;script&gt;' "$page"; then
        fail "code is escaped" "the chunk's </pre><script> is not shown as text"
    else
        pass "code is escaped"
    fi
    if grep -q '<a class="chunk-ref" href="#chunk-print-the-greeting">' "$page"; then
        pass "chunk reference in code is a link"
    else
        fail "chunk reference in code is a link" "no link to #chunk-print-the-greeting"
    fi
    if grep -q 'NWREF' "$page"; then
        fail "placeholders replaced" "NWREF left on the page"
    else
        pass "placeholders replaced"
    fi
    # The chunk index and the search index show the same code: as text.
    index=$tmp/book/build/html/chunks.html
    if grep -q '<script>alert' "$index" || ! grep -q '&lt;/pre&gt;&lt;script&gt;' "$index"; then
        fail "code is escaped in the chunk index" "no </pre><script> as text in chunks.html"
    else
        pass "code is escaped in the chunk index"
    fi
    # A cut preview says how much is left and leads to the whole chunk:
    # escape.cu has six lines, the preview four.
    more=$(tr '\n' ' ' <"$index" | grep -o '<a [^>]*class="more"[^>]*>[^<]*</a>')
    if [ "$(wc -l <<<"$more")" -ne 1 ] || ! grep -q 'href="escape.html#file-escape-cu"' <<<"$more" ||
       ! grep -q '>… 2 more lines<' <<<"$more"; then
        fail "a cut preview in the chunk index ends with a link to the rest" "${more:-no link of class more in chunks.html}"
    else
        pass "a cut preview in the chunk index ends with a link to the rest"
    fi
    search=$tmp/book/build/html/search-index.js
    if grep -q '[<>]' "$search" || ! grep -q 'u003c/pre\\u003e\\u003cscript' "$search"; then
        fail "code is escaped in the search index" "a '<' in search-index.js, or the chunk is missing"
    else
        pass "code is escaped in the search index"
    fi
else
    fail "code is escaped" "building the fixture failed: $(head -2 "$tmp/log")"
fi

if [ -n "$nvcc" ]; then
    line=$(grep -n 'THE_ERROR' tests/fixtures/escape.nw | cut -d: -f1)
    sed "s#// THE_ERROR#int x = undefined_name;#" tests/fixtures/escape.nw >"$tmp/book/chapters/escape.nw"
    make -s -C "$tmp/book" CHAPTERS=escape NVCC="$nvcc" programs >"$tmp/log" 2>&1
    if grep -q "^chapters/escape.nw($line): error" "$tmp/log"; then
        pass "compile error reported at chapters/escape.nw($line)"
    else
        fail "compile error reported at the .nw line" "$(grep -m1 error "$tmp/log")"
    fi
else
    skip "compile error reported at the .nw line" "no nvcc"
fi

# Broken chapters through the real build: one line naming file and line,
# a non-zero exit, and build/ exactly as it was. Each chapter of tests/bad/
# gives its own line in tests/tools.sh, from markup or chapter-meta under
# the sanitizers; here, one of each way a broken chapter reaches make: one
# markup refuses, one passed on unindexed (CRLF), one chapter-meta refuses,
# two roots that are shell text, and a figure's root.
rm -f "$tmp/book"/chapters/*.nw
cp tests/fixtures/escape.nw "$tmp/book/chapters/"
make -s -C "$tmp/book" CHAPTERS=escape tangle html >/dev/null 2>&1
snapshot() { (cd "$tmp/book/build" && find . -type f ! -path './asan/*' -exec md5sum {} + | sort) ; }
before=$(snapshot)
for name in header-trailing-text crlf undefined-chunk root-backquote root-semicolon bad-figure-root; do
    nw=tests/bad/$name.nw
    cp tests/fixtures/escape.nw "$tmp/book/chapters/escape.nw"
    sed "s#tests/bad/$name.nw#chapters/escape.nw#" "${nw%.nw}.msg" >"$tmp/want"
    cp "$nw" "$tmp/book/chapters/escape.nw"
    make -s -C "$tmp/book" CHAPTERS=escape tangle html >"$tmp/out" 2>"$tmp/err"
    rc=$?
    cp tests/fixtures/escape.nw "$tmp/book/chapters/escape.nw"
    if [ "$rc" -eq 0 ]; then
        fail "make rejects $name" "make succeeded"
    elif ! grep -qxF -f "$tmp/want" "$tmp/err"; then
        fail "make rejects $name" "stderr lacks '$(cat "$tmp/want")'"
    elif [ "$(snapshot)" != "$before" ]; then
        fail "make rejects $name" "build/ changed"
    else
        pass "make rejects $name, build/ untouched"
    fi
done
# Roots such as <<`id>PWNED`.cu>> are refused before a recipe sees them:
# nothing ran them as a command.
if [ -n "$(find "$tmp/book" -name PWNED)" ]; then
    fail "no chapter's root name runs as a command" "a file PWNED appeared"
else
    pass "no chapter's root name runs as a command"
fi
cp tests/fixtures/escape.nw "$tmp/book/chapters/escape.nw"
make -s -C "$tmp/book" CHAPTERS=escape tangle html >/dev/null 2>&1
if [ "$(snapshot)" = "$before" ]; then
    pass "rebuild after the bad inputs is byte-identical"
else
    fail "rebuild after the bad inputs is byte-identical" "build/ differs"
fi

# The book's list and the chapters on disk must agree, and a label names
# one chunk in the whole book.
expect_error() { # NAME WANT MAKE-ARGS... (KEEP=1: build/ may gain files
    local name=$1 want=$2 # of chapters that are fine)
    shift 2
    if make -s -C "$tmp/book" "$@" >"$tmp/out" 2>"$tmp/err"; then
        fail "$name" "make succeeded"
    elif ! grep -qF -- "$want" "$tmp/err"; then
        fail "$name" "stderr lacks '$want': $(head -2 "$tmp/err" | tr '\n' ' ')"
    elif [ -z "${KEEP:-}" ] && [ "$(snapshot)" != "$before" ]; then
        fail "$name" "build/ changed"
    else
        pass "$name"
    fi
}
cp tests/fixtures/escape.nw "$tmp/book/chapters/escape.nw"
# A missing tool is named, with the command that installs it.
touch "$tmp/book/chapters/escape.nw"
expect_error "make names a missing noweb and how to install it" \
    "make: no-such-notangle not found; install it with: sudo apt-get install noweb" \
    CHAPTERS=escape NEED_NO_INSTALL=1 NOTANGLE=no-such-notangle tangle
KEEP=1 expect_error "make names a missing pandoc and how to install it" \
    "make: no-such-pandoc not found; install it with: sudo apt-get install pandoc" \
    CHAPTERS=escape NEED_NO_INSTALL=1 PANDOC=no-such-pandoc html
if make -s -C "$tmp/book" CHAPTERS=escape NVCC=no-such-nvcc >"$tmp/out" 2>&1 &&
   grep -qx 'make: no-such-nvcc not found: tangled and woven, compiling skipped (install the CUDA Toolkit or set NVCC=)' "$tmp/out"; then
    pass "without nvcc make tangles, weaves and says compiling was skipped"
else
    fail "without nvcc make tangles, weaves and says compiling was skipped" "$(head -2 "$tmp/out" | tr '\n' ' ')"
fi
# A chapter that quotes the T4 fit still weaves without nvcc: those values
# say they were not computed, and why.
fixture_book "$tmp/nonvcc"
cp tests/fixtures/fitquote.nw "$tmp/nonvcc/chapters/"
if make -s -C "$tmp/nonvcc" CHAPTERS=fitquote NVCC=no-such-nvcc html >"$tmp/out" 2>&1 &&
   grep -q 'class="quoted absent" title="not computed: the T4 fit' "$tmp/nonvcc/build/md/fitquote.md" &&
   grep -q 'class="claim absent"' "$tmp/nonvcc/build/md/fitquote.md"; then
    pass "without nvcc a chapter's T4 values are woven as not computed"
else
    fail "without nvcc a chapter's T4 values are woven as not computed" "$(grep -v '^  [A-Z]' "$tmp/out" | head -3 | tr '\n' ' ')"
fi
before=$(snapshot)
# A "day N" in the prose must name a chapter of the book.
{ cat tests/fixtures/escape.nw; printf '\nAs day 7 showed, it works.\n'; } >"$tmp/book/chapters/escape.nw"
expect_error "make rejects a \"day N\" that names no chapter" \
    "chapters/escape.nw:$(($(wc -l <tests/fixtures/escape.nw) + 2)): \"day 7\" names no chapter of the book (its day chapters: none); name one it has, or say what the reader needs without the day" \
    CHAPTERS=escape tangle
cp tests/fixtures/escape.nw "$tmp/book/chapters/escape.nw"
expect_error "make rejects a listed chapter that is missing" \
    "chapters/ghost.nw is listed in CHAPTERS but does not exist" CHAPTERS="escape ghost" tangle
cp tests/fixtures/escape.nw "$tmp/book/chapters/extra.nw"
expect_error "make rejects a chapter that is not listed" \
    "chapters/extra.nw is not in CHAPTERS" CHAPTERS=escape tangle
rm -f "$tmp/book/chapters/extra.nw"
for ch in one two; do
    printf '# Chapter %s\n\n<<%s.cu>>=\nint main() {\n    <<shared-label>>\n}\n@\n<<shared-label>>=\nreturn 0;\n@\n' \
        "$ch" "$ch" >"$tmp/book/chapters/$ch.nw"
done
printf 'shared-label\tone\n' >"$tmp/book/chapters/labels.tsv"
expect_error "make rejects a label defined in two chapters" \
    "chapters/two.nw:8: snippet label shared-label is already defined at chapters/one.nw:8" \
    CHAPTERS="escape one two" tangle html
# A published label that disappears fails the build; retired with a
# replacement, its anchor still resolves, to a note linking there right
# before the replacement's code, and labels.html has an entry for it that
# names the replacement.
rm -f "$tmp/book/chapters/two.nw"
sed -i 's/shared-label/renamed-label/g' "$tmp/book/chapters/one.nw"
expect_error "make rejects a published label that disappeared" \
    "published label shared-label is no longer defined in chapters/one.nw" \
    CHAPTERS="escape one" tangle html
# The replacement is at its revision 2, revision 1's code kept: its page
# has the note of a revised label.
mkdir -p "$tmp/book/chapters/labels"
printf 'return 1;\n' >"$tmp/book/chapters/labels/renamed-label@1.cu"
printf 'shared-label\tone\trenamed-label\nrenamed-label\tone\nrenamed-label\t1\t2026-12-01\t%s\nrenamed-label\t2\t2026-12-02\t%s\n' \
    "$(printf 'return 1;\n' | "$B/tools/snippets" fingerprint)" \
    "$(printf 'return 0;\n' | "$B/tools/snippets" fingerprint)" >"$tmp/book/chapters/labels.tsv"
if make -s -C "$tmp/book" CHAPTERS="escape one" tangle html >"$tmp/out" 2>&1 &&
   tr '\n' ' ' <"$tmp/book/build/html/one.html" |
     grep -q '<p class="retired" id="shared-label">[^<]*<a class="chunk-cite" href="#renamed-label">[^<]*</a>\.</p> *<div id="renamed-label" class="chunk">'; then
    pass "a retired label resolves to a note linking its replacement, right before its code"
else
    fail "a retired label resolves to a note linking its replacement, right before its code" \
        "$(head -2 "$tmp/out" | tr '\n' ' ')$(grep -o '<p class="retired".*' "$tmp/book/build/html/one.html" | head -1)"
fi
if tr '\n' ' ' <"$tmp/book/build/html/labels.html" |
     grep -q '<div id="shared-label" class="entry label-entry">[^>]*>[^<]*<a href="one.html#shared-label" class="entry-name">shared-label</a>.*Retired: its code is now <a href="#renamed-label">renamed-label</a>' &&
   grep -q '<div id="renamed-label" class="entry label-entry">' "$tmp/book/build/html/labels.html"; then
    pass "labels.html has an entry for a retired label, linking its replacement"
else
    fail "labels.html has an entry for a retired label, linking its replacement" \
        "$(grep -A3 'id="shared-label"' "$tmp/book/build/html/labels.html" | head -4 | tr '\n' ' ')"
fi
if grep -q '<p class="revised">This is revision 2 of the label ⟨renamed-label⟩, of 2026-12-02; the code lessons cited before is kept: <a href="renamed-label@1.html">revision 1</a>' \
     "$tmp/book/build/html/one.html" &&
   tr '\n' ' ' <"$tmp/book/build/html/renamed-label@1.html" | grep -q 'as its revision 1 published it, on 2026-12-01' &&
   tr '\n' ' ' <"$tmp/book/build/html/labels.html" | grep -q 'Revision 2, of 2026-12-02; the code lessons cited before: <a href="renamed-label@1.html">revision 1</a>, of 2026-12-01'; then
    pass "a revised label's code has a note linking its earlier revision's page, and its entry lists both"
else
    fail "a revised label's code has a note linking its earlier revision's page, and its entry lists both" \
        "$(grep -o '<p class="revised".*' "$tmp/book/build/html/one.html" | head -1)"
fi

# make cite only reads, and takes no lock: it answers while another make in
# the tree holds it (here one whose nvcc waits until the cite is done, or
# 60 s).
cat >"$tmp/slow-nvcc" <<EOF
#!/bin/sh
: >"$tmp/nvcc.started"
i=0
while [ ! -e "$tmp/cited" ] && [ \$i -lt 600 ]; do sleep 0.1; i=\$((i + 1)); done
: >"$tmp/nvcc.done"
exit 1
EOF
chmod +x "$tmp/slow-nvcc"
rm -f "$tmp/book/build/bin/one"
make -s -C "$tmp/book" CHAPTERS="escape one" NVCC="$tmp/slow-nvcc" build/bin/one >/dev/null 2>&1 &
slow=$!
while [ ! -e "$tmp/nvcc.started" ] && kill -0 "$slow" 2>/dev/null; do sleep 0.1; done
if make -s -C "$tmp/book" CHAPTERS="escape one" cite LABEL=renamed-label >"$tmp/out" 2>&1 &&
   [ ! -e "$tmp/nvcc.done" ] && grep -q '^renamed-label$' "$tmp/out"; then
    pass "make cite answers while another make in the tree holds its lock"
else
    fail "make cite answers while another make in the tree holds its lock" \
        "$( [ -e "$tmp/nvcc.done" ] && echo 'it waited for the other make; ')$(head -2 "$tmp/out" | tr '\n' ' ')"
fi
: >"$tmp/cited"
wait "$slow"

# BASE_URL, where the book is published: every page names its address,
# the notebooks link to the pages there, and make cite prints the label's
# full address; unset again, the pages and notebooks are as they were
# before, byte for byte, and make cite says the address is local.
html_sums() { (cd "$tmp/book/build" && md5sum html/*.html notebooks/*.ipynb | sort); }
make -s -C "$tmp/book" CHAPTERS="escape one" html notebooks >/dev/null 2>&1
unset_sums=$(html_sums)
base=https://example.org/cuda-book
if make -s -C "$tmp/book" CHAPTERS="escape one" BASE_URL="$base/" html notebooks >"$tmp/out" 2>&1 &&
   grep -qF "<link rel=\"canonical\" href=\"$base/one.html\">" "$tmp/book/build/html/one.html" &&
   grep -qF "<link rel=\"canonical\" href=\"$base/index.html\">" "$tmp/book/build/html/index.html" &&
   grep -qF "]($base/one.html#" "$tmp/book/build/notebooks/one.ipynb" &&
   ! grep -qF '](../one.html#' "$tmp/book/build/notebooks/one.ipynb" &&
   make -s -C "$tmp/book" CHAPTERS="escape one" BASE_URL="$base" cite LABEL=renamed-label 2>&1 |
       grep -qxF "  url      $base/one.html#renamed-label"; then
    pass "BASE_URL: every page names its address, the notebooks link there, make cite prints it"
else
    fail "BASE_URL: every page names its address, the notebooks link there, make cite prints it" \
        "$(head -2 "$tmp/out" | tr '\n' ' ')"
fi
make -s -C "$tmp/book" CHAPTERS="escape one" html notebooks >/dev/null 2>&1
if [ "$(html_sums)" = "$unset_sums" ] &&
   make -s -C "$tmp/book" CHAPTERS="escape one" cite LABEL=renamed-label 2>&1 | grep -q '(local: BASE_URL= says'; then
    pass "BASE_URL unset: the pages and notebooks as before, byte for byte, and make cite says local"
else
    fail "BASE_URL unset: the pages and notebooks as before, byte for byte, and make cite says local" \
        "$(diff <(echo "$unset_sums") <(html_sums) | head -3 | tr '\n' ' ')"
fi
if ! make -s -C "$tmp/book" CHAPTERS="escape one" BASE_URL="javascript:alert(1)" html >"$tmp/out" 2>&1 &&
   grep -qF 'BASE_URL=javascript:alert(1): want an http or https address' "$tmp/out"; then
    pass "BASE_URL that is no http or https address is refused in one line"
else
    fail "BASE_URL that is no http or https address is refused in one line" "$(head -2 "$tmp/out" | tr '\n' ' ')"
fi

# What the command line names reaches no shell as text: a label with a
# quote and a command is one the book does not have, and a PROG that is
# not a program of the book stops make before any recipe runs.
if ! make -s -C "$tmp/book" CHAPTERS="escape one" cite LABEL="it's; touch PWNED-cite" >"$tmp/out" 2>&1 &&
   grep -qF "make cite: no label 'it's; touch PWNED-cite' in the book" "$tmp/out" &&
   [ ! -e "$tmp/book/PWNED-cite" ] && [ ! -e PWNED-cite ]; then
    pass "make cite takes a label with a quote as a label, not as shell text"
else
    fail "make cite takes a label with a quote as a label, not as shell text" "$(head -2 "$tmp/out" | tr '\n' ' ')"
fi
if ! make -s -C "$tmp/book" CHAPTERS="escape one" record PROG="one; touch PWNED-prog" >"$tmp/out" 2>&1 &&
   grep -qF "PROG=one; touch PWNED-prog: not a program of the book" "$tmp/out" &&
   [ ! -e "$tmp/book/PWNED-prog" ]; then
    pass "make record refuses a PROG that is not a program of the book, running nothing"
else
    fail "make record refuses a PROG that is not a program of the book, running nothing" "$(head -2 "$tmp/out" | tr '\n' ' ')"
fi

# A chapter that quotes recorded values: its page follows the values files
# through make, and carries the classes of quotes and claims (the contract
# below wants them on a page).
cp tests/fixtures/quotes.nw "$tmp/book/chapters/"
mkdir -p "$tmp/book/build/values"
cp -R tests/fixtures/values/. "$tmp/book/build/values/"
quoted() { # VALUE: is it quoted on the page?
    tr '\n' ' ' <"$tmp/book/build/html/quotes.html" | grep -q "<a class=\"quoted\" [^>]*>$1</a>"
}
if make -s -C "$tmp/book" CHAPTERS="escape one quotes" html >"$tmp/out" 2>&1 && quoted 2.50 &&
   sed -i 's/^copy_ms\t2.5\t/copy_ms\t2.625\t/' "$tmp/book/build/values/quotes/alpha-gpu.tsv" &&
   make -s -C "$tmp/book" CHAPTERS="escape one quotes" html >>"$tmp/out" 2>&1 && quoted 2.62; then
    pass "a quoted value on a page follows its values file through make"
else
    fail "a quoted value on a page follows its values file through make" "$(head -2 "$tmp/out" | tr '\n' ' ')"
fi

# A run, evidence/RUN.run: its script runs its program with its arguments,
# its page shows its transcript after its program's, and its values are
# quotable. A bad one stops the build with one line naming it, build/
# untouched.
cp tests/fixtures/runs.nw "$tmp/book/chapters/"
cp -R tests/fixtures/evidence/. "$tmp/book/evidence/"
book="escape one quotes runs"
page=$tmp/book/build/html/runs.html
if ! make -s -C "$tmp/book" CHAPTERS="$book" html build/bin/runs_twice >"$tmp/out" 2>&1; then
    fail "a run is built into the book" "$(head -2 "$tmp/out" | tr '\n' ' ')"
else
    if tr '\n' ' ' <"$page" | grep -q '<h3 id="[^"]*"><code>./runs --twice</code>.*copies: 2' &&
       [ "$(grep -o 'copies: [12]' "$page" | tr '\n' ' ')" = "copies: 1 copies: 2 " ]; then
        pass "a run's transcript is on its program's page, after the program's, under its command line"
    else
        fail "a run's transcript is on its program's page, after the program's, under its command line" \
            "$(grep -o '<h3[^>]*><code>[^<]*\|copies: [0-9]' "$page" | tr '\n' ' ')"
    fi
    # Each line of a transcript on the page has the id of its line in the
    # file, the source a values file names, for a quote to link to.
    if grep -q '<span id="ev-runs_twice-alpha-gpu-13">copies: 2</span>' "$page" &&
       grep -q '<span id="ev-runs-alpha-gpu-13">copies: 1</span>' "$page"; then
        pass "every line of a transcript on the page has the id of its line in the file"
    else
        fail "every line of a transcript on the page has the id of its line in the file" \
            "$(grep -o '<span id="ev-[^"]*">copies: [0-9]' "$page" | tr '\n' ' ')"
    fi
    if grep -qx "$(printf 'copies\t2\tevidence/runs_twice/alpha-gpu.txt:13')" \
            "$tmp/book/build/values/runs_twice/alpha-gpu.tsv" 2>/dev/null &&
       tr '\n' ' ' <"$page" | grep -q 'run twice <a class="quoted" [^>]*>2</a>'; then
        pass "a run's values are quotable, as RUN.NAME"
    else
        fail "a run's values are quotable, as RUN.NAME" "$(grep -o 'run twice.\{0,80\}' "$page")"
    fi
    printf '#!/bin/sh\necho "runs: $*"\n' >"$tmp/book/build/bin/runs" && chmod +x "$tmp/book/build/bin/runs"
    if [ "$("$tmp/book/build/bin/runs_twice" 2>&1)" = "runs: --twice" ]; then
        pass "a run's script runs its program with its arguments"
    else
        fail "a run's script runs its program with its arguments" "$("$tmp/book/build/bin/runs_twice" 2>&1 | head -n 1)"
    fi
fi
# The GPU bundle carries the run: its file, its name in programs.mk, and
# the bundle's make records it with its program's compile line.
bundle=$tmp/book/build/dist/book-gpu
if COMMIT=0123abc make -s -C "$tmp/book" CHAPTERS="$book" dist >"$tmp/out" 2>&1 &&
   [ -f "$bundle/evidence/runs_twice.run" ] && grep -qx 'RUNS := runs_twice' "$bundle/programs.mk" &&
   make -s -C "$bundle" bin/runs_twice >>"$tmp/out" 2>&1 &&
   grep -qx 'exec "$(dirname "$0")/runs" --twice' "$bundle/bin/runs_twice" &&
   make -n -C "$bundle" NVCC=nvcc record >"$tmp/record" 2>&1 &&
   grep -q "COMPILE_LINE_runs_twice='nvcc -std=c++17 -O3 -arch=sm_75 -o runs runs.cu'.* record .*runs_twice" "$tmp/record"; then
    pass "the GPU bundle carries a run, and its make record records it"
else
    fail "the GPU bundle carries a run, and its make record records it" \
        "$(cat "$tmp/out" "$tmp/record" 2>/dev/null | head -n 3 | tr '\n' ' ')"
fi
before=$(snapshot)
bad_run() { # NAME FILE LINE WANT
    printf '%s\n' "$3" >"$tmp/book/evidence/$2"
    expect_error "make rejects a run $1" "evidence/$2:1: $4" CHAPTERS="$book" html
    rm -f "$tmp/book/evidence/$2"
}
bad_run "with a name not lowercase" Twice-Run.run 'runs --twice' '"Twice-Run" is not a run'"'"'s name'
bad_run "of no program of the book" ghost_twice.run 'ghost --twice' 'ghost is not a program of the book'
bad_run "named as a program is" runs.run 'runs --twice' 'runs is the name of a program of the book'
bad_run "of two lines" runs_two.run "$(printf 'runs --twice\nruns')" 'want one line, PROG ARG...'
bad_run "with a quote in an argument" runs_quote.run "runs --name='x'" 'an argument holds a character'
bad_run "saved with a Windows line end" runs_crlf.run "$(printf 'runs --twice\r')" \
    'the line ends in a carriage return (CRLF, a Windows line end); save it with LF alone'
# A name the evidence gives a file reaches no shell: a transcript or a run
# named as a command stops the build with one line, and runs nothing.
bad_name() { # NAME FILE WANT [TARGET]: html, or TARGET
    cp "$tmp/book/evidence/runs/alpha-gpu.txt" "$tmp/book/evidence/$2"
    expect_error "make${4:+ $4} rejects $1" "evidence/$2:1: $3" CHAPTERS="$book" "${4:-html}"
    rm -f "$tmp/book/evidence/$2"
    if [ -n "$(find "$tmp/book" -name 'PWNED*')" ]; then
        fail "make runs no command that $1 names" "a file PWNED appeared"
        rm -f "$tmp/book"/PWNED*
    else
        pass "make runs no command that $1 names"
    fi
}
bad_name "a transcript named \$(...)" 'runs/$(touch PWNED).txt' \
    'a transcript is named for its GPU, in lowercase letters, digits and - (NVIDIA H200 is nvidia-h200.txt)'
bad_name "a transcript named with a ;" 'runs/a;touch PWNED;b.txt' \
    'a transcript is named for its GPU, in lowercase letters, digits and - (NVIDIA H200 is nvidia-h200.txt)'
bad_name "a transcript named with a blank" 'runs/alpha gpu.txt' \
    'a transcript is named for its GPU, in lowercase letters, digits and - (NVIDIA H200 is nvidia-h200.txt)'
bad_name "a transcript named with a blank" 'runs/alpha gpu.txt' \
    'a transcript is named for its GPU, in lowercase letters, digits and - (NVIDIA H200 is nvidia-h200.txt)' dist
bad_name "a run named \$(...)" '$(touch PWNED).run' \
    '"$(touch PWNED)" is not a run'"'"'s name: lowercase letters, digits and _'
# A transcript that is not UTF-8 text of whole lines (a stray byte, a file
# cut in the middle of its last number) stops the build at its line, and
# puts nothing of it on a page; put back, the build is as it was.
t=$tmp/book/evidence/runs/alpha-gpu.txt
cp "$t" "$tmp/alpha-gpu.txt"
tl=$(wc -l <"$t")
fix="record it again (make record PROG=runs, then make accept PROG=runs)"
sed -i "${tl}s/\$/$(printf '\377')/" "$t"
expect_error "make rejects a transcript that is not UTF-8" \
    "evidence/runs/alpha-gpu.txt:$tl: byte 0xff at column $(($(tail -n 1 "$tmp/alpha-gpu.txt" | wc -c))) is not UTF-8; evidence is UTF-8 text: $fix" \
    CHAPTERS="$book" html
head -c -1 "$tmp/alpha-gpu.txt" >"$t"
expect_error "make rejects a transcript cut short, its last line without a newline" \
    "evidence/runs/alpha-gpu.txt:$tl: the last line has no newline, as in a file cut short; $fix" \
    CHAPTERS="$book" html
cp "$tmp/alpha-gpu.txt" "$t"
make -s -C "$tmp/book" CHAPTERS="$book" html >"$tmp/out" 2>&1
if [ "$(snapshot)" = "$before" ]; then
    pass "a transcript put right again builds the book as it was"
else
    fail "a transcript put right again builds the book as it was" "build/ differs: $(head -n 2 "$tmp/out" | tr '\n' ' ')"
fi
printf '# Clash\n\n<<runs_ncu.cu>>=\nint main() { return 0; }\n@\n' >"$tmp/book/chapters/clash.nw"
: >"$tmp/book/evidence/runs.ncu"
KEEP=1 expect_error "make rejects a program named as a profile, PROG_ncu" \
    "evidence/runs.ncu:1: its profile is named runs_ncu, as a program of the book is" CHAPTERS="$book clash" html
rm -f "$tmp/book/chapters/clash.nw" "$tmp/book/evidence/runs.ncu"
# A run taken away: a quote of its values fails, naming them; without the
# quote its page loses it, and its script and values go.
# quote_fails NAME PATTERN [MORE]: make html fails, saying PATTERN (a grep
# expression); MORE is added to the name where it passes.
quote_fails() {
    if make -s -C "$tmp/book" CHAPTERS="$book" html >"$tmp/out" 2>&1; then
        fail "$1" "make succeeded: $(grep -m 1 -v TANGLE "$tmp/out")"
    elif ! grep -q "$2" "$tmp/out"; then
        fail "$1" "$(grep -m 1 -v TANGLE "$tmp/out")"
    else
        pass "$1${3:+ $3}"
    fi
}
rm -f "$tmp/book/evidence/runs_twice.run"
quote_fails "a quote of a run taken away fails the build" 'chapters/runs.nw:[0-9]*: .*runs_twice.copies'
sed -i 's/ copy, run twice$/ copy./; /runs_twice.copies/d' "$tmp/book/chapters/runs.nw"
if make -s -C "$tmp/book" CHAPTERS="$book" html >"$tmp/out" 2>&1 &&
   ! grep -q '<code>./runs --twice</code>' "$page" && [ ! -e "$tmp/book/build/bin/runs_twice" ] &&
   [ ! -e "$tmp/book/build/values/runs_twice" ]; then
    pass "a run taken away leaves its page, and takes its script and values with it"
else
    fail "a run taken away leaves its page, and takes its script and values with it" \
        "$(grep -m 2 -v TANGLE "$tmp/out" | tr '\n' ' ')$(ls "$tmp/book/build/bin" "$tmp/book/build/values" | tr '\n' ' ')"
fi
# A transcript taken away: a quote of it fails at its line, not quoted from
# the values it left; without the quote its page loses it, and its values
# and charts go; put back, it is quoted again.
runs_nw=$tmp/book/chapters/runs.nw
qline=$(grep -n 'runs\.copies' "$runs_nw" | cut -d: -f1)
cp "$runs_nw" "$tmp/runs.nw"
rm -f "$t"
quote_fails "a quote of a transcript taken away fails the build" "^chapters/runs.nw:$qline: .*runs\.copies" \
    "at chapters/runs.nw:$qline"
sed -i 's/\[\[=alpha-gpu: runs\.copies|%d\]\]/one/' "$runs_nw"
if make -s -C "$tmp/book" CHAPTERS="$book" html >"$tmp/out" 2>&1 &&
   ! grep -q 'copies: 1' "$page" && [ ! -e "$tmp/book/build/values/runs/alpha-gpu.tsv" ]; then
    pass "a transcript taken away leaves its page, and takes its values with it"
else
    fail "a transcript taken away leaves its page, and takes its values with it" \
        "$(grep -m 2 -v TANGLE "$tmp/out" | tr '\n' ' ')$(grep -o 'copies: 1' "$page" | head -n 1)$(ls "$tmp/book/build/values/runs" 2>&1)"
fi
cp "$tmp/alpha-gpu.txt" "$t"
cp "$tmp/runs.nw" "$runs_nw"
if make -s -C "$tmp/book" CHAPTERS="$book" html >"$tmp/out" 2>&1 &&
   grep -q 'copies: 1' "$page" && tr '\n' ' ' <"$page" | grep -q 'made <a class="quoted" [^>]*>1</a>'; then
    pass "a transcript put back is on its page and quoted again"
else
    fail "a transcript put back is on its page and quoted again" "$(grep -m 2 -v TANGLE "$tmp/out" | tr '\n' ' ')"
fi

# The class contract, styles/classes.tsv, against what writes and reads the
# classes: prints one "WHERE<TAB>CLASS<TAB>ELEMENT" line for each class
# used (ELEMENT empty where the use names none), from the PAGEs given,
# the template, book.css's selectors and search.js.
class_uses() { # PAGE...
    local page
    for page in "$@" styles/page.html; do
        # The template with its partial, styles/page-turn.html.
        if [ "$page" = styles/page.html ]; then cat "$page" styles/page-turn.html; else cat "$page"; fi |
            tr '\n' ' ' | grep -oE '<[A-Za-z][A-Za-z0-9]*[^<>]* class="[^"]*"' |
            sed -E 's/^<([A-Za-z0-9]+).* class="([^"]*)"$/\1\t\2/' |
            awk -F'\t' -v w="${page/#"$tmp"\/book\//the scratch book\'s }" '{
                n = split($2, c, " ")
                for (i = 1; i <= n; i++) print w "\t" c[i] "\t" $1
            }'
    done
    # book.css: the selectors, without comments and declarations.
    awk '{ css = css $0 "\n" } END {
        while ((i = index(css, "/*")) > 0) {
            j = index(substr(css, i + 2), "*/")
            css = substr(css, 1, i - 1) (j ? substr(css, i + j + 3) : "")
        }
        gsub(/\{[^{}]*\}/, " ", css)
        while (match(css, /\.[A-Za-z_][A-Za-z0-9_-]*/)) {
            print "styles/book.css\t" substr(css, RSTART + 1, RLENGTH - 1) "\t"
            css = substr(css, RSTART + RLENGTH)
        }
    }' styles/book.css
    grep -oE "className = '[^']*'|classList\.[a-z]+\('[^']*'" styles/search.js |
        sed -E "s/^[^']*'([^']*)'?\$/\1/" | tr ' ' '\n' |
        sed 's/^/styles\/search.js\t/; s/$/\t/'
}

# One line for each check of the contract, "NAME<TAB>" and, where it
# fails, up to three reasons.
check_contract() { # CONTRACT USES
    awk -F'\t' '
    function bad(check, why) {
        if (++count[check] <= 3) reason[check] = reason[check] (count[check] > 1 ? "; " : "") why
    }
    FNR == NR {
        if ($0 == "" || $0 ~ /^#/) next
        if (NF != 5 || $1 == "" || $2 == "" || $3 == "" || $4 == "" || $5 == "") {
            bad("form", FILENAME ":" FNR ": not five columns"); next
        }
        if ($1 != "-" && ($1 in named)) bad("form", FILENAME ":" FNR ": name " $1 " given twice")
        named[$1] = 1
        n = split($2, cs, " ")
        for (i = 1; i <= n; i++) {
            if (cs[i] in elements) bad("form", FILENAME ":" FNR ": class " cs[i] " twice")
            elements[cs[i]] = ", " $3 ", "
            writers[cs[i]] = $4
            order[++classes] = cs[i]
        }
        next
    }
    {
        kind = $1 ~ /\.html$/ && $1 != "styles/page.html" ? "pages" : $1
        if (!($2 in elements)) {
            if (!((kind, $2) in missing)) bad(kind, $2 " in " $1)
            missing[kind, $2] = 1
        } else if ($3 != "" && index(elements[$2], ", " $3 ", ") == 0 && !(($2, $3) in misplaced)) {
            bad("elements", $2 " on <" $3 "> in " $1)
            misplaced[$2, $3] = 1
        }
        # The classes pandoc writes count as used where book.css styles them.
        if (kind == "pages" || kind == "styles/search.js" ||
            (kind == "styles/book.css" && writers[$2] == "pandoc")) used[$2] = 1
    }
    END {
        for (k = 1; k <= classes; k++) {
            c = order[k]
            if (!(c in used)) bad("used", c)
            n = split(writers[c], ws, ", ")
            for (i = 1; i <= n; i++) {
                if (ws[i] == "pandoc") continue
                found = 0
                while ((getline line < ws[i]) > 0) {
                    if (line ~ "(^|[^A-Za-z0-9_-])" c "([^A-Za-z0-9_-]|$)") found = 1
                }
                close(ws[i])
                if (!found) bad("writers", ws[i] " does not name " c)
            }
        }
        print "class contract: " classes " classes, five columns, each class once\t" reason["form"]
        print "class contract: every class on the pages is in it\t" reason["pages"]
        print "class contract: every class of the template is in it\t" reason["styles/page.html"]
        print "class contract: every class book.css selects is in it\t" reason["styles/book.css"]
        print "class contract: every class search.js makes is in it\t" reason["styles/search.js"]
        print "class contract: each class only on the elements it lists\t" reason["elements"]
        print "class contract: every class in it is on a page or made by search.js (pandoc\047s: or styled)\t" reason["used"]
        print "class contract: each writer it names writes its classes\t" reason["writers"]
    }' "$1" "$2"
}

# The checks themselves, on SVGs each of them must refuse.
good='<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 640 100"><style>@media (prefers-color-scheme: dark) { }</style><text font-size="20">a</text></svg>'
while IFS='|' read -r what from to; do
    printf '%s\n' "${good/"$from"/"$to"}" >"$tmp/bad.svg"
    if [ -n "$(check_svg "$tmp/bad.svg")" ]; then
        pass "figure check refuses $what"
    else
        fail "figure check refuses $what" "it passed"
    fi
done <<'EOF_BAD'
an SVG without a viewBox| viewBox="0 0 640 100"|
a fixed width|viewBox=|width="640" viewBox=
no dark theme|prefers-color-scheme: dark|prefers-color-scheme: light
text too small for a phone|font-size="20"|font-size="12"
malformed XML|</svg>|</svg
EOF_BAD
printf '%s\n' "$good" >"$tmp/good.svg"
if [ -z "$(check_svg "$tmp/good.svg")" ]; then
    pass "figure check takes a good SVG"
else
    fail "figure check takes a good SVG" "$(check_svg "$tmp/good.svg")"
fi

# A figure program that fails, runs too long, or writes anything but a
# drawing (no SVG, XML that is not well-formed, a script, a foreignObject,
# an event attribute) is refused with one line naming the chapter's root
# (tools/figure/draw.sh, which runs it): each way on a stand-in program, a
# script, with nothing to compile. Through make, two of them (one that
# fails, one that writes a script) stop make with that line, and leave
# the last good program and figure as they were, with nothing
# half-written beside them.
svg='<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
printf '#!/bin/sh\necho %q\n' "$svg<rect width=\"1\" height=\"1\"/></svg>" >"$tmp/drawing"
chmod +x "$tmp/drawing"
if tools/figure/draw.sh chapters/x.nw:3 fig-x.cpp 2 "$tmp/drawing" "$tmp/drawn.svg" 2>"$tmp/err" &&
   [ ! -s "$tmp/err" ] && [ "$(cat "$tmp/drawn.svg")" = "$svg<rect width=\"1\" height=\"1\"/></svg>" ]; then
    pass "a figure program that draws is taken, its SVG as it wrote it"
else
    fail "a figure program that draws is taken, its SVG as it wrote it" "$(head -c 300 "$tmp/err")$(head -c 200 "$tmp/drawn.svg")"
fi
while IFS='|' read -r name body want; do
    printf '#!/bin/sh\n%s\n' "$body" >"$tmp/drawing"
    tools/figure/draw.sh chapters/x.nw:3 fig-x.cpp 1 "$tmp/drawing" "$tmp/drawn.svg" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -ne 1 ]; then
        fail "a figure that $name is refused" "exit $rc"
    elif [ "$(cat "$tmp/err")" != "chapters/x.nw:3: figure <<fig-x.cpp>> $want" ]; then
        fail "a figure that $name is refused" "stderr: $(head -c 300 "$tmp/err")"
    else
        pass "a figure that $name is refused in one line"
    fi
done <<EOF_DRAW
fails|exit 3|failed (exit 3)
writes no SVG|echo 'a picture'|wrote no SVG to stdout (it must begin <svg)
never ends|while :; do :; done|ran past 1 s and was stopped; a figure draws in a moment (FIG_SECONDS= gives it longer)
writes malformed XML|echo '$svg<g></svg>'|wrote an SVG that is not well-formed XML: its line 1: Opening and ending tag mismatch: g line 1 and svg
writes a script|echo '$svg<script>alert(1)</script></svg>'|wrote an SVG holding <script>; a figure is a drawing: no script, foreignObject or on... attribute
writes a foreignObject|echo '$svg<foreignObject><p>x</p></foreignObject></svg>'|wrote an SVG holding <foreignObject>; a figure is a drawing: no script, foreignObject or on... attribute
writes an event attribute|echo '$svg<rect onload="alert(1)"/></svg>'|wrote an SVG holding onload; a figure is a drawing: no script, foreignObject or on... attribute
EOF_DRAW
fixture=tests/fixtures/figure.nw
fb=$tmp/figbook
fixture_book "$fb"
line=$(grep -n '^<<fig-square.cpp>>=' "$fixture" | cut -d: -f1)
cp "$fixture" "$fb/chapters/figure.nw"
if make -s -C "$fb" CHAPTERS=figure html >"$tmp/out" 2>&1 &&
   [ -s "$fb/build/fig/fig-square" ] && [ -s "$fb/build/html/fig/square.svg" ]; then
    pass "a figure's program is kept beside its figure"
else
    fail "a figure's program is kept beside its figure" "$(head -n 2 "$tmp/out" | tr '\n' ' ')$(ls -A "$fb/build/fig" | tr '\n' ' ')"
fi
figsum() { (cd "$fb/build" && ls -A fig html/fig && md5sum fig/fig-square html/fig/square.svg) 2>&1; }
drawn=$(figsum)
csvg='<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 10 10\">'
while IFS='|' read -r name body want; do
    sed "s#// THE_END#${body//\\/\\\\}#" "$fixture" >"$fb/chapters/figure.nw"
    timeout 60 make -s -C "$fb" CHAPTERS=figure html >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -eq 0 ]; then
        fail "a figure that $name stops make" "make succeeded"
    elif ! grep -qxF "chapters/figure.nw:$line: figure <<fig-square.cpp>> $want" "$tmp/err"; then
        fail "a figure that $name stops make" "exit $rc, stderr: $(head -c 300 "$tmp/err")"
    elif [ "$(figsum)" != "$drawn" ]; then
        fail "a figure that $name stops make" "build/fig or build/html/fig changed: $(figsum | tr '\n' ' ')"
    else
        pass "a figure that $name stops make with chapters/figure.nw:$line"
    fi
done <<EOF_FIG
fails|return 1;|failed (exit 1)
writes a script|std::puts("$csvg<script>alert(1)</script></svg>"); return 0;|wrote an SVG holding <script>; a figure is a drawing: no script, foreignObject or on... attribute
EOF_FIG
# As it is, the fixture draws its figure; out of the book, the figure goes.
cp "$fixture" "$fb/chapters/figure.nw"
if make -s -C "$fb" CHAPTERS=figure html >"$tmp/out" 2>&1 &&
   [ -e "$fb/build/html/fig/square.svg" ] && [ -z "$(check_svg "$fb/build/html/fig/square.svg")" ]; then
    pass "the fixture's figure is drawn"
else
    fail "the fixture's figure is drawn" "$(head -3 "$tmp/out")"
fi
rm -f "$fb/chapters/figure.nw"
cp tests/fixtures/escape.nw "$fb/chapters/"
# (Without nvcc: the figure's going is the subject, not escape.cu's compile.)
make -s -C "$fb" CHAPTERS=escape NVCC= html >"$tmp/out" 2>&1
if [ -e "$fb/build/html/fig/square.svg" ] || [ -e "$fb/build/fig/fig-square" ]; then
    fail "a chapter's figure goes with the chapter" "build/html/fig/square.svg or build/fig/fig-square is still there"
else
    pass "a chapter's figure goes with the chapter"
fi

# The book's pages, the fixture book's with a retired label and quotes, and
# a chapter built without nvcc (its values not computed).
contract=styles/classes.tsv
class_uses "$B"/html/*.html "$tmp"/book/build/html/*.html "$tmp"/nonvcc/build/html/*.html >"$tmp/uses"
while IFS=$'\t' read -r name why; do
    if [ -z "$why" ]; then pass "$name"; else fail "$name" "$why"; fi
done < <(check_contract "$contract" "$tmp/uses")
# A label's fragment for a slide (styles/snippet.html) has the book's light
# highlighting colours, each as book.css gives it.
light_tokens() { # FILE: each --tk- colour's first value (light-dark's light one), sorted
    grep -oE -- '--tk-[a-z]+: (light-dark\()?#[0-9a-f]+' "$1" | sed 's/light-dark(//' |
        awk '!seen[$1]++' | sort
}
if [ -n "$(light_tokens styles/snippet.html)" ] &&
   [ "$(light_tokens styles/snippet.html)" = "$(light_tokens styles/book.css)" ]; then
    pass "the slide fragment's colours are the book's light highlighting"
else
    fail "the slide fragment's colours are the book's light highlighting" \
        "$(diff <(light_tokens styles/snippet.html) <(light_tokens styles/book.css) | grep '^[<>]' | head -3 | tr '\n' ' ')"
fi

# The browser test takes its classes from the contract and writes none.
written=$(grep -v '^ *//' tests/browser/check.js |
    grep -oE "[\"'\`][a-z0-9]*\.[A-Za-z_][A-Za-z0-9_-]*" |
    sed 's/.*\.//' | sort -u | grep -xF -f <(awk -F'\t' '!/^#/ && NF == 5 { print $2 }' "$contract" | tr ' ' '\n'))
if [ -z "$written" ]; then
    pass "class contract: the browser test writes no class of it"
else
    fail "class contract: the browser test writes no class of it" "$(echo "$written" | head -3 | tr '\n' ' ')"
fi
exit $failed
