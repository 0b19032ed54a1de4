#!/bin/bash
# The book's C tools, built with AddressSanitizer and UndefinedBehavior-
# Sanitizer, on the corpus of broken chapters and on every real chapter.
set -uo pipefail
cd "$(dirname "$0")/.." || exit
. tests/lib.sh
B=${B:-build}
# A chapter's pipeline as the build makes it: markup and noweb's index
# filters.
MARKUP=tools/book/nwpipe.sh
# The sanitized tools, linked here from where make builds them (tests/lib.sh).
asan=$(mktemp -d)
gen=
trap 'rm -rf "$asan" ${gen:+"$gen"}' EXIT
export ASAN_OPTIONS=abort_on_error=0:detect_leaks=1
# UBSan stops a tool with a status of its own, 86, which no case expects:
# with the default, 1, a report would pass a case that wants the tool to
# fail.
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=86

# Every tool, and the printer of the HTML reader's tokens, the library
# compiled once (tests/lib.sh).
tools=()
for src in tools/book/*.c; do tools+=("$(basename "$src" .c)"); done
sanitized "$asan" "${tools[@]}" tests/html-tokens.c
for t in "${tools[@]}"; do
    [ -x "$asan/$t" ] && pass "build $t with ASan and UBSan"
done

# Each broken chapter must fail with exactly the one line in NAME.msg, from
# markup or from chapter-meta (through nwpipe.sh, which passes markup's
# failure on as it is). A 10 MB line is made here rather than kept.
gen=$(mktemp -d)
{ printf '# Long\n\n'; head -c 10485760 /dev/zero | tr '\0' x; printf '\n\n<<u.cu>>=\nint main() { return 0; }\n@\n'; } >"$gen/long-line.nw"
echo "$gen/long-line.nw:3: a line of 10485760 bytes; the book takes lines of up to 65536 bytes" >"$gen/long-line.msg"
for nw in tests/bad/*.nw "$gen"/*.nw; do
    name=bad-input/$(basename "$nw" .nw)
    want=$(cat "${nw%.nw}.msg")
    got=$( { "$MARKUP" "$nw" | "$asan/chapter-meta" >/dev/null; } 2>&1)
    rc=$?
    if [ "$rc" -eq 0 ]; then
        fail "$name" "accepted"
    elif [ "$got" != "$want" ]; then
        fail "$name" "said '$got', want '$want'"
    else
        pass "$name"
    fi
done

# Every real chapter through every tool, under the sanitizers. Each
# chapter's pipeline is made once: the build's, build/meta/NAME.nwpipe
# (the very input the build's tools read), where it is there and newer than
# the chapter, else markup's here.
metas=() pipes=()
for nw in chapters/*.nw; do
    ch=$(basename "$nw" .nw)
    if [ -f "$B/meta/$ch.nwpipe" ] && [ "$B/meta/$ch.nwpipe" -nt "$nw" ]; then
        cp "$B/meta/$ch.nwpipe" "$gen/$ch.nwpipe"
    else
        "$MARKUP" "$nw" >"$gen/$ch.nwpipe"
    fi
    "$asan/chapter-meta" <"$gen/$ch.nwpipe" 2>/dev/null | cut -f1,2 >"$gen/$ch.tsv"
    metas+=("$gen/$ch.tsv")
    pipes+=("$gen/$ch.nwpipe")
done
# A chapter's charts, as make gives them to chapter-md (-g): those drawn
# from its programs' transcripts (its .cu roots, as chapter-meta read them).
charts_of() { # META
    local r g
    for r in $(awk -F'\t' '$1 == "root" && $2 ~ /\.cu$/ { sub(/\.cu$/, "", $2); print $2 }' "$1"); do
        for g in "$B/charts/$r"/*.md; do
            [ -f "$g" ] && printf '%s\0' -g "$g"
        done
    done
}
# The chapters the sanitized tools run on whole: their subject is the
# tools' memory safety on realistic input, not each chapter (the build runs
# the same tools on every chapter, and fails on any it refuses), so one
# real chapter, the first of CHAPTERS, stands for the book and the check
# does not grow with it; the broken chapters above and the fixture
# chapters of the cases below give the tools the inputs no chapter has.
sampled=$(for c in ${CHAPTERS:-}; do [ -f "chapters/$c.nw" ] && echo "$c" && break; done)
[ -n "$sampled" ] || { all=(chapters/*.nw); sampled=$(basename "${all[0]}" .nw); }
for ch in $sampled; do
    mapfile -d '' charts < <(charts_of "$gen/$ch.tsv")
    if "$asan/chapter-meta" <"$gen/$ch.nwpipe" >/dev/null 2>"$gen/err" &&
       "$asan/snippet-marks" <"$gen/$ch.nwpipe" >/dev/null 2>>"$gen/err" &&
       "$asan/chapter-md" -V "$B/values" -c "$gen/code.md" -n "$gen/numbers.md" "${charts[@]}" \
           "$gen/refs" "$gen/chunks" chapters/labels.tsv "${metas[@]}" <"$gen/$ch.nwpipe" >/dev/null 2>>"$gen/err"; then
        pass "sanitized tools on $ch"
    else
        fail "sanitized tools on $ch" "$(head -3 "$gen/err" | tr '\n' ' ')"
    fi
done
# chapter-meta reads a description back for tangle.sh and make (its
# roots, its .tsv, a root's line, book.mk), through tools/lib/meta.c,
# and names a line that is no record.
printf 'title\tA title\nroot\ta.cu\t3\nlabel\tx-y\t5\nroot\tfig-b.cpp\t9\ncite\tz\t11\nquote\tq.v\t12\n' >"$gen/t.lines"
printf 'title\tT\nroot\ta.cu\tthree\n' >"$gen/bad.lines"
got_roots=$("$asan/chapter-meta" roots "$gen/t.lines" 2>&1)
got_tsv=$("$asan/chapter-meta" tsv "$gen/t.lines" 2>&1)
got_at=$("$asan/chapter-meta" root-line "$gen/t.lines" fig-b.cpp 2>&1)
got_mk=$("$asan/chapter-meta" book-mk "$gen/t.lines" 2>&1)
got_none=$("$asan/chapter-meta" root-line "$gen/t.lines" c.cu 2>&1); rc_none=$?
got_bad=$("$asan/chapter-meta" roots "$gen/bad.lines" 2>&1); rc_bad=$?
if [ "$got_roots" != $'a.cu\nfig-b.cpp' ] || [ "$got_tsv" != $'title\tA title\nroot\ta.cu\nlabel\tx-y\nroot\tfig-b.cpp' ] ||
   [ "$got_at" != 9 ] || [ "$got_mk" != $'ROOTS.t := a.cu fig-b.cpp\nPROGS.t := a\nFIGS.t := b' ]; then
    fail "sanitized chapter-meta reads a description back" "said '$got_roots' '$got_tsv' '$got_at' '$got_mk'"
elif [ "$rc_none" -ne 1 ] || [ "$got_none" != "$gen/t.lines: no root c.cu with its line" ] ||
     [ "$rc_bad" -ne 1 ] || [ "$got_bad" != "$gen/bad.lines:2: not a record of a chapter's description (KIND<TAB>VALUE, and its line)" ]; then
    fail "sanitized chapter-meta names a root it lacks and a line that is no record" "said '$got_none' ($rc_none), '$got_bad' ($rc_bad)"
else
    pass "sanitized chapter-meta reads a description back (roots, tsv, root-line, book-mk) and names what is wrong in one line"
fi
# A chart placed for a program that draws none: one line at the
# directive's line, under the sanitizers.
printf '# Charts\n\nThe rates:\n\n[[!chart no_such_prog]]\n\n<<m.cu>>=\nint main() { return 0; }\n@\n' >"$gen/chart.nw"
got=$("$MARKUP" "$gen/chart.nw" | "$asan/chapter-md" -V "$B/values" "$gen/refs" "$gen/chunks" chapters/labels.tsv \
        "${metas[@]}" 2>&1 >/dev/null)
if [ "$got" = "$gen/chart.nw:5: [[!chart no_such_prog]] names no program of this chapter with a chart drawn (evidence/PROG.chart and a recorded transcript)" ]; then
    pass "chapter-md names the line of a chart of a program that draws none"
else
    fail "chapter-md names the line of a chart of a program that draws none" "said '$got'"
fi

# The tools that make the index pages, the search index, the charts and the
# notebooks, under the sanitizers, on every real chapter and on the built
# pages.
if [ -f "$B/snippets.tsv" ] && [ -f "$B/html/index.html" ]; then
    : >"$gen/err"
    pages=()
    for page in "$B"/html/*.html; do
        pages+=("$page")
        chunks=$B/md/$(basename "$page" .html).chunks
        [ -f "$chunks" ] && pages+=("$chunks")
    done
    "$asan/index-pages" labels "$B/snippets.tsv" chapters/labels.tsv "$B/src" "${metas[@]}" >/dev/null 2>>"$gen/err" &&
    "$asan/index-pages" chunks "${metas[@]}" -- "${pipes[@]}" >/dev/null 2>>"$gen/err" &&
    "$asan/index-pages" identifiers "${metas[@]}" -- "${pipes[@]}" >/dev/null 2>>"$gen/err" &&
    "$asan/index-pages" xref "${metas[@]}" -- "${pipes[@]}" >/dev/null 2>>"$gen/err" &&
    "$asan/heading-links" <"$B/html/index.html" >/dev/null 2>>"$gen/err" &&
    "$asan/nav" nav - "${metas[@]}" >/dev/null 2>>"$gen/err" &&
    "$asan/nav" index "${metas[@]}" >/dev/null 2>>"$gen/err" &&
    "$asan/snippets" check chapters/labels.tsv "${metas[@]}" 2>>"$gen/err" &&
    mkdir -p "$gen/slides" &&
    "$asan/snippets" table -o "$gen/slides" "$B/src" chapters/labels.tsv "${metas[@]}" >"$gen/snippets.tsv" 2>>"$gen/err" &&
    cmp -s <(sort "$gen/snippets.tsv") <(sort "$B/snippets.tsv") 2>>"$gen/err" &&
    mkdir -p "$gen/reg/labels" && grep -v $'^blelloch-sweeps\t1\t' chapters/labels.tsv >"$gen/reg/labels.tsv" &&
    SNIPPET_LABEL=hillis-steele "$asan/snippets" keep "$gen/reg/labels.tsv" "$B/src" "${metas[@]}" 2>>"$gen/err" &&
    [ -s "$gen/reg/labels/hillis-steele@1.cu.tmp" ] &&
    SNIPPET_LABEL=blelloch-sweeps SOURCE_DATE_EPOCH=$(date -ud "$(awk -F'\t' '$1 == "blelloch-sweeps" && $2 == 1 { print $3 }' chapters/labels.tsv)" +%s) \
      "$asan/snippets" revise "$gen/reg/labels.tsv" "$B/src" "${metas[@]}" >/dev/null 2>>"$gen/err" &&
    grep -qxF "$(grep $'^blelloch-sweeps\t1\t' chapters/labels.tsv)" "$gen/reg/labels.tsv" 2>>"$gen/err" &&
    mv "$gen/reg/labels/hillis-steele@1.cu.tmp" "$gen/reg/labels/hillis-steele@1.cu" &&
    sed -i $'s/^hillis-steele\t1\t.*/&\\\nhillis-steele\t2\t2026-12-03\t0123456789abcdef/' "$gen/reg/labels.tsv" &&
    "$asan/index-pages" revision "$gen/reg/labels.tsv" hillis-steele 1 "${metas[@]}" >"$gen/rev.md" 2>>"$gen/err" &&
    grep -q 'as its revision 1 published it' "$gen/rev.md" 2>>"$gen/err" &&
    printf 'int  a =\n b; // c\n' | "$asan/snippets" fingerprint >/dev/null 2>>"$gen/err" &&
    "$asan/search-index" "${pages[@]}" >"$gen/index.js" 2>>"$gen/err"
    rc=$?
    if [ "$rc" -ne 0 ]; then
        fail "sanitized index-pages, heading-links, nav, snippets, search-index on the book" "$(head -3 "$gen/err" | tr '\n' ' ')"
    elif LC_ALL=C grep -q '[^ -~]\|<' "$gen/index.js"; then
        fail "sanitized index-pages, heading-links, nav, snippets, search-index on the book" "the search index holds a '<' or a byte outside printable ASCII"
    else
        pass "sanitized index-pages, heading-links, nav, snippets, search-index on the book"
    fi
    # make cite is index-pages cite: a label's lines from snippets.tsv, its
    # address local or under BASE_URL, a retired label's replacement, and
    # one line for a label the book does not have (a quote in it is text).
    cite() { "$asan/index-pages" cite "$1" "$2" build "$3" "$4" "${metas[@]}"; }
    IFS=$'\t' read -r _ c_ch c_file c_first c_last c_url c_rev < <(grep $'^hillis-steele\t' "$B/snippets.tsv")
    want() { # URL-LINE
        printf '%s\n' hillis-steele "  chapter  chapters/$c_ch.nw" "  revision $c_rev" "  url      $1" \
            "  file     build/src/$c_file, lines $c_first-$c_last" \
            "  snippet  build/html/snippets/hillis-steele.cu" "  fragment build/html/snippets/hillis-steele.html"
    }
    printf 'old-label\tday32-scan\thillis-steele\n' >>"$gen/reg/labels.tsv"
    { head -1 "$B/snippets.tsv"; printf 'bad label\tday32-scan\n'; } >"$gen/bad-snippets.tsv"
    got_local=$(cite "$B/snippets.tsv" chapters/labels.tsv hillis-steele '' 2>&1)
    got_base=$(cite "$B/snippets.tsv" chapters/labels.tsv hillis-steele https://example.org/book 2>&1)
    got_retired=$(cite "$B/snippets.tsv" "$gen/reg/labels.tsv" old-label '' 2>&1)
    got_none=$(cite "$B/snippets.tsv" chapters/labels.tsv "it's; touch PWNED" '' 2>&1); rc_none=$?
    got_bad=$(cite "$gen/bad-snippets.tsv" chapters/labels.tsv hillis-steele '' 2>&1); rc_bad=$?
    if [ "$got_local" != "$(want "build/html/$c_url (local: BASE_URL= says where build/html is published)")" ]; then
        fail "sanitized index-pages cite prints a label's lines" "said '$got_local'"
    elif [ "$got_base" != "$(want "https://example.org/book/$c_url")" ]; then
        fail "sanitized index-pages cite prints a label's address under BASE_URL" "said '$got_base'"
    elif [ "$got_retired" != "old-label is retired; it is now hillis-steele" ]; then
        fail "sanitized index-pages cite names a retired label's replacement" "said '$got_retired'"
    elif [ "$rc_none" -ne 1 ] || [ "$got_none" != "make cite: no label 'it's; touch PWNED' in the book (see $B/snippets.tsv)" ]; then
        fail "sanitized index-pages cite says a label is not the book's" "said '$got_none' ($rc_none)"
    elif [ "$rc_bad" -eq 0 ] || [ "$got_bad" != "$gen/bad-snippets.tsv:2: not a snippet line of a chapter of the book (label, chapter, file, first, last, url, revision)" ]; then
        fail "sanitized index-pages cite names a broken line of snippets.tsv" "said '$got_bad' ($rc_bad)"
    else
        pass "sanitized index-pages cite: a label, its BASE_URL address, a retired label, a label not the book's, a broken line"
    fi
    labels=(-l chapters/labels.tsv)
    for meta in "${metas[@]}"; do
        labels+=(-m "$meta")
    done
    for ch in $sampled; do
        # Its programs, runs and evidence as the build's model has them;
        # with its claims held to the reader's runs, where it makes some.
        if "$asan/notebook-md" -V "$B/values" -s tools/book/notebook-setup.py "${labels[@]}" \
               -t "$B/tools/tcheck.c" -L "$B/meta/$ch.lines" -c tools/book/claims.c \
               -c tools/lib/lines.c -c tools/lib/quote.c -c tools/lib/util.c -M "$B/md/$ch.model" "$gen/$ch.nwpipe" \
               >"$gen/nb.md" 2>"$gen/err" &&
           { ! grep -q '^claim	' "$B/meta/$ch.lines" || grep -q '\./claims/claims yours ' "$gen/nb.md"; }; then
            pass "sanitized notebook-md on $ch"
        else
            fail "sanitized notebook-md on $ch" "$(head -3 "$gen/err" | tr '\n' ' ')"
        fi
    done
else
    skip "sanitized index-pages, heading-links, nav, snippets, search-index, notebook-md on the book" "the book is not built"
fi

# evidence-names on a small evidence folder: silent on good names; each
# bad one gives its one line (tests/weave.sh shows make stopping on them).
ev=$gen/evnames
mkdir -p "$ev/prog/"
: >"$ev/prog/nvidia-h200.txt"
printf 'prog --quick --n=4,8 a/b.c:+1\n' >"$ev/prog_twice.run"
evnames() { "$asan/evidence-names" "$ev" prog other -- other_ncu 2>&1; }
ev_bad() { # NAME FILE LINE WANT: FILE put in the folder (a folder where it ends in /)
    local got
    case $2 in */) mkdir -p "$ev/$2" ;; *) printf '%s' "$3" >"$ev/$2" ;; esac
    got=$(evnames)
    if [ "$got" = "$ev/${2%/}:1: $4" ]; then
        pass "sanitized evidence-names rejects $1"
    else
        fail "sanitized evidence-names rejects $1" "said '$got'"
    fi
    rm -rf "${ev:?}/$2"
}
if [ -z "$(evnames)" ]; then
    pass "sanitized evidence-names passes good names in silence"
else
    fail "sanitized evidence-names passes good names in silence" "$(evnames | head -1)"
fi
ev_bad "a folder named with a blank" 'a b/' '' "a folder of evidence is named for its program: letters, digits, _ and -"
ev_bad "a transcript named \$(...)" 'prog/$(x).txt' '' \
    "a transcript is named for its GPU, in lowercase letters, digits and - (NVIDIA H200 is nvidia-h200.txt)"
ev_bad "a run not in lowercase" 'Twice.run' $'prog --twice\n' "\"Twice\" is not a run's name: lowercase letters, digits and _"
ev_bad "a run named as a program" 'other.run' $'prog --twice\n' "other is the name of a program of the book; give the run a name of its own"
ev_bad "a run of two lines" 'two.run' $'prog\nprog\n' "want one line, PROG ARG...: a program of the book and its arguments"
ev_bad "an empty run" 'empty.run' '' "want one line, PROG ARG...: a program of the book and its arguments"
ev_bad "a run saved with CRLF" 'crlf.run' $'prog --twice\r\n' \
    "the line ends in a carriage return (CRLF, a Windows line end); save it with LF alone"
ev_bad "a run of no program" 'ghost.run' $'ghost --twice\n' "ghost is not a program of the book (prog other)"
ev_bad "a run with a quote" 'quote.run' $'prog --name=\'x\'\n' \
    "an argument holds a character other than letters, digits and - _ . , = : / +"
printf 'ncu\n' >"$ev/other.ncu"
if [ "$("$asan/evidence-names" "$ev" prog other_ncu -- other_ncu 2>&1)" = \
     "$ev/other.ncu:1: its profile is named other_ncu, as a program of the book is; rename the program" ]; then
    pass "sanitized evidence-names rejects a program named as a profile"
else
    fail "sanitized evidence-names rejects a program named as a profile" \
        "said '$("$asan/evidence-names" "$ev" prog other_ncu -- other_ncu 2>&1)'"
fi

# chunk-links links an identifier in its chunk's code only: whole, as
# code (not in a comment, a string or another chunk), inside the
# highlighting span it is in, next to an entity, in a chunk whose tag
# pandoc broke before its id; and replaces placeholders.
printf 'ident\tchunk-a\tkTile\t#chunk-b\nident\tchunk-a\tscan\t#chunk-c\nNWREF0001\t<a class="chunk-ref" href="#x">x</a>\n' >"$gen/ident.refs"
cat >"$gen/ident.html" <<'EOF'
<div
id="chunk-a"
class="chunk">
<pre><code class="sourceCode cuda"><span id="cb1-1"><a href="#cb1-1"></a>kTile&lt;kTile2 <span class="va">scan</span>(kTile_x); <span class="co">// kTile</span> <span class="st">"scan"</span> NWREF0001</span></code></pre>
<div class="chunk-foot"></div></div>
<div id="chunk-b" class="chunk"><pre><code>kTile scan</code></pre></div>
EOF
want='<a class="ident-use" href="#chunk-b">kTile</a>&lt;kTile2 <span class="va"><a class="ident-use" href="#chunk-c">scan</a></span>(kTile_x); <span class="co">// kTile</span> <span class="st">"scan"</span> <a class="chunk-ref" href="#x">x</a></span>'
if "$asan/chunk-links" "$gen/ident.refs" <"$gen/ident.html" >"$gen/ident.out" 2>"$gen/err" &&
   grep -qF "$want" "$gen/ident.out" &&
   grep -qx '<div id="chunk-b" class="chunk"><pre><code>kTile scan</code></pre></div>' "$gen/ident.out"; then
    pass "sanitized chunk-links links an identifier's uses in its chunk's code only"
else
    fail "sanitized chunk-links links an identifier's uses in its chunk's code only" \
        "$(grep -h -m1 'cb1-1\|' "$gen/err" "$gen/ident.out" | head -2 | tr '\n' ' ')"
fi

# notebook-md and run-md on a chapter whose program has a run, the fixture
# tests/fixtures/runs.nw and its evidence, as a model gives them
# (tools/lib/model.h).
fx=tests/fixtures/evidence
mkdir -p "$gen/runs-values/runs" "$gen/runs-values/runs_twice"
"$MARKUP" tests/fixtures/runs.nw >"$gen/runs.nwpipe"
printf 'copies\t1\tx\n' >"$gen/runs-values/runs/alpha-gpu.tsv"
printf 'copies\t2\tx\n' >"$gen/runs-values/runs_twice/alpha-gpu.tsv"
# model FILE RECORD...: a model, each record a line, its fields written
# here apart by | and there by tabs.
model() {
    local f=$1
    shift
    printf '%s\n' "$@" | tr '|' '\t' >"$f"
}
model "$gen/runs.model" 'chapter|runs' 'nvcc|/opt/cuda/bin/nvcc' \
    'program|runs|/opt/cuda/bin/nvcc -o runs runs.cu' "expect|runs|$fx/runs.expect" \
    "transcript|runs|$fx/runs/alpha-gpu.txt" 'run|runs_twice|runs|--twice' \
    "expect|runs_twice|$fx/runs_twice.expect" "transcript|runs_twice|$fx/runs_twice/alpha-gpu.txt"
if "$asan/notebook-md" -V "$gen/runs-values" -s tools/book/notebook-setup.py -t "$B/tools/tcheck.c" \
       -M "$gen/runs.model" "$gen/runs.nwpipe" >"$gen/runs.nb.md" 2>"$gen/err" &&
   grep -qx '    nvcc -o runs runs.cu' "$gen/runs.nb.md" &&
   grep -qx '    ./runs --twice 2>runs_twice.err | tee runs_twice.out' "$gen/runs.nb.md" &&
   grep -qx '    echo "No GPU here, so runs_twice did not run (in Colab: Runtime, Change runtime type, T4 GPU)." | tee runs_twice.err' "$gen/runs.nb.md" &&
   grep -qx './tcheck check -n runs_twice -e runs_twice.err evidence/runs_twice.expect evidence/runs_twice runs_twice.out "$(cat runs_twice.status)" ||' "$gen/runs.nb.md"; then
    pass "sanitized notebook-md on a chapter with a run: a cell compiles it with nvcc, one runs it, one checks it"
else
    fail "sanitized notebook-md on a chapter with a run: a cell compiles it with nvcc, one runs it, one checks it" "$(head -3 "$gen/err" | tr '\n' ' ')"
fi
model "$gen/shell.model" 'chapter|runs' 'program|runs|nvcc' "run|runs_x|runs|--name='x'"
got=$("$asan/notebook-md" -s tools/book/notebook-setup.py -M "$gen/shell.model" "$gen/runs.nwpipe" 2>&1 >/dev/null)
if [ $? -ne 0 ] && [ "$got" = "$gen/shell.model:3: the arguments of the run runs_x are not plain words a notebook can give the shell as they are" ]; then
    pass "sanitized notebook-md refuses a run's arguments the shell would read, at the model's line"
else
    fail "sanitized notebook-md refuses a run's arguments the shell would read, at the model's line" "said '$got'"
fi
# notebook-md refuses, in one line at the chunk's line, a chunk name that
# %%chunk would read otherwise, a reference a cell cannot tell from the
# code before it, and a citation of nothing.
printf '# Bad\n\n<<Add it += 2>>=\nx;\n@\n' >"$gen/nb-name.nw"
# (noweb's markup never writes a < right before a reference: a pipeline
# another tool wrote may.)
printf '# Bad\n\n<<f.cu>>=\nint a = X<<b c>>;\n@\n<<b c>>=\n2\n@\n' >"$gen/nb-use.nw"
printf '# Bad\n\nSee [[<<no such chunk>>]].\n\n<<f.cu>>=\nx;\n@\n' >"$gen/nb-cite.nw"
for t in "nb-name:3: the chunk name <<Add it += 2>> cannot follow %%chunk" \
         "nb-use:4: the reference <<b c>> cannot be told from the code" \
         "nb-cite:3: [[<<no such chunk>>]] cites no chunk of this chapter"; do
    n=${t%%:*}
    "$MARKUP" "$gen/$n.nw" | sed 's/^\(@text .*\)X$/\1</' >"$gen/$n.nwpipe"
    if "$asan/notebook-md" -s tools/book/notebook-setup.py "$gen/$n.nwpipe" >/dev/null 2>"$gen/err"; then
        fail "sanitized notebook-md says in one line: ${t#*: }" "it passed"
    elif [ "$(wc -l <"$gen/err")" -ne 1 ] || ! grep -qF "$gen/$n.nw:${t#*:}" "$gen/err"; then
        fail "sanitized notebook-md says in one line: ${t#*: }" "$(head -3 "$gen/err" | tr '\n' ' ')"
    else
        pass "sanitized notebook-md says in one line: ${t#*: }"
    fi
done
if "$asan/run-md" -M "$gen/runs.model" >"$gen/runs.run.md" 2>"$gen/err" &&
   [ "$(grep -c '^#### ` ./runs --twice `$\|^<span id="ev-runs\(_twice\)\?-alpha-gpu-13">copies: [12]</span>$' "$gen/runs.run.md")" -eq 3 ] &&
   [ "$(grep -o '>copies: [12]<' "$gen/runs.run.md" | tr '\n' ' ')" = ">copies: 1< >copies: 2< " ]; then
    pass "sanitized run-md shows a run's transcript after its program's, under its command line"
else
    fail "sanitized run-md shows a run's transcript after its program's, under its command line" \
        "$(head -3 "$gen/err" "$gen/runs.run.md" | tr '\n' ' ')"
fi
# A model's reader (tools/lib/model.c), through run-md, on a bad record:
# one line at the record's line, and nothing shown.
for t in '4: no record of the kind "programme"; a record is of chapter, nvcc, program, run, profile, expect or transcript|programme|runs|nvcc' \
         '4: want program<TAB>PROG<TAB>COMPILE-LINE|program|runs' \
         '4: runs_y is of ghost, which no program record above declares|run|runs_y|ghost|--twice' \
         '4: runs is declared twice (line 3 first)|run|runs|runs' \
         '4: the profile of runs is runs_ncu, not runs_prof|profile|runs_prof|runs' \
         '4: field 3 is empty; want transcript<TAB>NAME<TAB>PATH|transcript|runs|' \
         '4: nope: no program, run or profile above declares it|expect|nope|x.expect'; do
    model "$gen/bad.model" 'chapter|runs' 'nvcc|nvcc' 'program|runs|nvcc -o runs runs.cu' "${t#*|}"
    got=$("$asan/run-md" -M "$gen/bad.model" 2>&1 >"$gen/bad.md")
    if [ $? -ne 0 ] && [ "$got" = "$gen/bad.model:${t%%|*}" ] && [ ! -s "$gen/bad.md" ]; then
        pass "sanitized run-md refuses a bad model in one line: ${t%%|*}"
    else
        fail "sanitized run-md refuses a bad model in one line: ${t%%|*}" "said '$got'"
    fi
done

# chart, on every chart spec, against a transcript made from the
# program's expectation (every hole filled with its type's value from
# tests/tcheck/holes.tsv, the list of hole types) and the values file of
# its named holes, and on specs that are wrong.
holes=tests/tcheck/holes.tsv
fill=$(awk -F '\t' '!/^#/ { printf "s/{{%s\\(:[a-z0-9_]*\\)\\?}}/%s/g;", $1, $3 }' "$holes")
for spec in evidence/*.chart; do
    [ -e "$spec" ] || continue
    p=$(basename "$spec" .chart)
    { printf 'program: %s\ngpu: A "quoted" <GPU> & co\ndate: today\n--- output ---\n' "$p"
      sed "$fill" "evidence/$p.expect"; } >"$gen/$p.txt"
    mkdir -p "$gen/values/$p"
    v=$gen/values/$p/test-gpu.tsv
    awk -F '\t' 'NR == FNR { if (!/^#/) value[$1] = $3; next }
        { s = $0
          while (match(s, /[{][{][a-z]+:[a-z][a-z0-9_]*[}][}]/)) {
              split(substr(s, RSTART + 2, RLENGTH - 4), h, ":")
              printf "%s\t%s\t%s:%d\n", h[2], value[h[1]], FILENAME, FNR
              s = substr(s, RSTART + RLENGTH)
          } }' "$holes" "evidence/$p.expect" >"$v"
    if "$asan/chart" gnuplot "$spec" "$gen/$p.txt" "$v" >"$gen/$p.gp" 2>"$gen/err" &&
       "$asan/chart" narrow "$spec" "$gen/$p.txt" "$v" >"$gen/$p.narrow.gp" 2>>"$gen/err" &&
       "$asan/chart" figure "$spec" "$gen/$p.txt" "$v" "charts/$p/x.svg" "charts/$p/x.narrow.svg" \
           >/dev/null 2>>"$gen/err"; then
        pass "sanitized chart on $spec"
    else
        fail "sanitized chart on $spec" "$(head -3 "$gen/err" | tr '\n' ' ')"
    fi
done
# A bar names a named hole: a name the values lack, a value that is text
# and a bar of the form before names are each one line at the spec's line,
# with the fix.
printf 'gpu: G\n--- output ---\nsome row 1 2\n' >"$gen/bad.txt"
mkdir -p "$gen/values/bad"
printf 'some_row\t2\tevidence/bad/g.txt:1\nother_row\t5\tevidence/bad/g.txt:2\nsome_name\tG X1\tevidence/bad/g.txt:3\n' \
    >"$gen/values/bad/g.tsv"
bad_chart() { # NAME BAR WANT
    printf 'title  T\n%s\n' "$2" >"$gen/bad.chart"
    got=$("$asan/chart" gnuplot "$gen/bad.chart" "$gen/bad.txt" "$gen/values/bad/g.tsv" 2>&1 >/dev/null)
    if [ "$got" = "$gen/bad.chart:2: $3" ]; then
        pass "$1"
    else
        fail "$1" "said '$got'"
    fi
}
bad_chart "chart names the spec line of a hole name the values lack, and the nearest" "bar some_rov a row" \
    "no value named some_rov in $gen/values/bad/g.tsv: name a hole of evidence/bad.expect by its name, NAME of {{float:NAME}}; did you mean some_row?"
bad_chart "chart names the spec line of a hole whose value is text" "ref some_name a row" \
    "some_name is G X1 (evidence/bad/g.txt:3): a bar is a number from zero; name a measured hole, {{ms}}, {{float}} or {{int}}"
bad_chart "chart says what a bar of the form before names wants" "bar 2 some row" \
    "bar wants the name of a hole of the program's expectation and the text the chart gives its bar, e.g. \"bar copy_gbs copy, no scan\" for {{float:copy_gbs}}"
printf 'title  A "title" with \\ and <svg>\nbar some_row some row\n' >"$gen/ok.chart"
"$asan/chart" gnuplot "$gen/ok.chart" "$gen/bad.txt" "$gen/values/bad/g.tsv" >"$gen/ok.gp" 2>"$gen/err"
if grep -q '^set label 1 "A \\"title\\" with \\\\ and <svg>" at ' "$gen/ok.gp" &&
   grep -qx '0 2 0 2' "$gen/ok.gp"; then
    pass "chart quotes text for gnuplot and draws only the recorded value"
else
    fail "chart quotes text for gnuplot and draws only the recorded value" "$(grep -m1 'label 1' "$gen/ok.gp")"
fi
# The narrow chart: a title longer than a line is broken at blanks into
# labels of their own, every row's name is a label over its bar, and no
# text is set smaller than 12 points.
printf 'title  %s\nbar some_row a row of its own name\n' \
    "A title long enough to need two lines on a phone" >"$gen/long.chart"
"$asan/chart" narrow "$gen/long.chart" "$gen/bad.txt" "$gen/values/bad/g.tsv" >"$gen/long.gp" 2>"$gen/err"
if grep -q '^set terminal svg size 380,' "$gen/long.gp" &&
   grep -q '^set label 1 "A title long enough to need two lines on" at screen' "$gen/long.gp" &&
   grep -q '^set label 2 "a phone" at screen' "$gen/long.gp" &&
   grep -q '^set label [0-9]* "a row of its own name" at graph 0, first -0.22 left' "$gen/long.gp" &&
   grep -q '^unset ytics' "$gen/long.gp" &&
   ! grep -Eq 'sans,([0-9]|1[01])"' "$gen/long.gp"; then
    pass "chart narrow wraps the title and sets each row's name over its bar"
else
    fail "chart narrow wraps the title and sets each row's name over its bar" \
        "$(head -2 "$gen/err" | tr '\n' ' ') $(grep -m2 '^set label' "$gen/long.gp" | tr '\n' ' ')"
fi
# The figure: a picture whose narrow source is for a phone's screen, the
# caption escaped for HTML as the image's text and under it.
"$asan/chart" figure "$gen/ok.chart" "$gen/bad.txt" "$gen/values/bad/g.tsv" "charts/p/G.svg" "charts/p/G.narrow.svg" \
    >"$gen/fig.md" 2>"$gen/err"
if grep -qx '```{=html}' "$gen/fig.md" &&
   grep -q '<source media="screen and (max-width: 45.99rem)" srcset="charts/p/G.narrow.svg">' "$gen/fig.md" &&
   grep -q '<img src="charts/p/G.svg" class="chart" alt="A &quot;title&quot; with \\ and &lt;svg&gt;\. Drawn' "$gen/fig.md" &&
   [ "$(grep -c 'A &quot;title&quot; with \\ and &lt;svg&gt;\. Drawn' "$gen/fig.md")" = 2 ]; then
    pass "chart figure is a picture with the narrow chart for a phone, its caption escaped"
else
    fail "chart figure is a picture with the narrow chart for a phone, its caption escaped" \
        "$(head -2 "$gen/err" | tr '\n' ' ') $(head -5 "$gen/fig.md" | tr '\n' ' ')"
fi
# A group's rows are drawn under its heading, a row of the chart with no
# bar of its own.
printf 'title  T\ngroup  some rows\nref    some_row first\nbar    other_row second\n' >"$gen/own.chart"
"$asan/chart" gnuplot "$gen/own.chart" "$gen/bad.txt" "$gen/values/bad/g.tsv" >"$gen/own.gp" 2>"$gen/err"
if grep -q '"" 0, "first" 1, "second" 2' "$gen/own.gp" && grep -qx '1 2 1 2' "$gen/own.gp" &&
   grep -qx '2 5 0 5' "$gen/own.gp" && grep -q '^set label 3 "some rows" at screen 0.02, first 0 ' "$gen/own.gp"; then
    pass "chart draws a group's rows under its heading"
else
    fail "chart draws a group's rows under its heading" "$(head -2 "$gen/err" | tr '\n' ' ')"
fi
# chunk-links puts the blocks of every -c file in their places (chapter-md
# -c and -n: the code, and the list of where the numbers come from), and
# says in one line which file has a marker the page lacks, or a marker
# that another file has too.
printf '<p>a</p>\n<!--NWCODE0001-->\n<p>b</p>\n<!--NWNUMBERS0001-->\n' >"$gen/two.html"
printf '<!--NWCODE0001-->\n\n<pre>code</pre>\n' >"$gen/two.code"
printf '<!--NWNUMBERS0001-->\n\n<ul>\n<li>n</li>\n</ul>\n' >"$gen/two.numbers"
printf '<!--NWNUMBERS0001-->\n\n<ul>\n<li>n</li>\n</ul>\n<!--NWCODE0002-->\n<pre>more</pre>\n' >"$gen/two.more"
: >"$gen/two.refs"
got_two=$("$asan/chunk-links" -c "$gen/two.code" -c "$gen/two.numbers" "$gen/two.refs" <"$gen/two.html" 2>&1)
got_left=$("$asan/chunk-links" -c "$gen/two.code" -c "$gen/two.more" "$gen/two.refs" <"$gen/two.html" 2>&1 >/dev/null); rc_left=$?
head -2 "$gen/two.more" >"$gen/two.again"
got_again=$("$asan/chunk-links" -c "$gen/two.numbers" -c "$gen/two.again" "$gen/two.refs" <"$gen/two.html" 2>&1 >/dev/null); rc_again=$?
if [ "$got_two" != $'<p>a</p>\n<pre>code</pre>\n<p>b</p>\n<ul>\n<li>n</li>\n</ul>' ]; then
    fail "sanitized chunk-links places the blocks of two -c files" "wrote '$got_two'"
elif [ "$rc_left" -ne 1 ] || [ "$got_left" != "chunk-links: <!--NWCODE0002--> of $gen/two.more has no place on the page" ] ||
     [ "$rc_again" -ne 1 ] || [ "$got_again" != "$gen/two.again: <!--NWNUMBERS0001--> marks two blocks, here and in $gen/two.numbers" ]; then
    fail "sanitized chunk-links names the -c file of a block left over or marked twice" "said '$got_left' ($rc_left), '$got_again' ($rc_again)"
else
    pass "sanitized chunk-links places the blocks of two -c files, and names the file of a block left over or marked twice"
fi

# chunk-links finds an id used twice on the page wherever pandoc broke
# the line in its tag.
printf '<h2\nid="x">X</h2>\n<div id="x" class="chunk"></div>\n' >"$gen/twice.html"
: >"$gen/twice.refs"
if "$asan/chunk-links" "$gen/twice.refs" <"$gen/twice.html" >/dev/null 2>"$gen/err"; then
    fail "sanitized chunk-links finds an id used twice, after a line break too" "it passed"
elif [ "$(wc -l <"$gen/err")" -ne 1 ] || ! grep -q '^chunk-links: the id "x" is used twice on the page' "$gen/err"; then
    fail "sanitized chunk-links finds an id used twice, after a line break too" "said '$(head -3 "$gen/err" | tr '\n' ' ')'"
else
    pass "sanitized chunk-links finds an id used twice, after a line break too"
fi
# book-page, the whole book on one page: on a book of two small pages, each
# chapter under a heading of its own, its ids prefixed with its name and
# its links followed (to the page itself, to the other chapter, to a
# chapter's page), links out of the book left as they are, its headings a
# level down and its page's own header and navigation left out.
bp=$gen/book-pages
mkdir -p "$bp"
printf 'title\tChapter A\n' >"$gen/ch-a.tsv"
printf 'title\tChapter B\n' >"$gen/ch-b.tsv"
page() { # NAME BODY
    printf '<html><head><style>\ncode span.kw { color: #007020; }\n</style></head><body>\n<main id="text">\n<nav class="x">prev</nav>\n<header>\n<h1 class="title">T</h1>\n</header>\n%s\n<nav class="x">next</nav>\n</main></body></html>\n' "$2" >"$bp/$1.html"
}
page ch-a '<h1 id="s">S</h1><p><a href="#s">self</a> <a href="ch-b.html#t">t</a> <a href="ch-b.html">b</a> <a href="labels.html#l">l</a> <a href="src/a.cu">src</a></p>'
page ch-b '<h2 id="t" class="u">T</h2><img src="fig/f.svg" alt="f"><br />'
"$asan/book-page" "$bp" "$gen/ch-a.tsv" "$gen/ch-b.tsv" >"$gen/book.md" 2>"$gen/err"
rc=$?
want=(
    '^## Chapter A \{#ch-a \.book-chapter\}$'
    '<h2 id="ch-a--s">S</h2>'
    '<a href="#ch-a--s">self</a> <a href="#ch-b--t">t</a> <a href="#ch-b">b</a> <a href="labels.html#l">l</a> <a href="src/a.cu">src</a>'
    '^## Chapter B \{#ch-b \.book-chapter\}$'
    '<h3 id="ch-b--t" class="u">T</h3><img src="fig/f.svg" alt="f"><br />'
    '^  code span\.kw \{ color: #007020; \}$'
)
missing=
for w in "${want[@]}"; do
    grep -qE "$w" "$gen/book.md" || missing="$missing '$w'"
done
if [ "$rc" -ne 0 ]; then
    fail "sanitized book-page: chapters in order, ids prefixed, links followed" "$(head -2 "$gen/err" | tr '\n' ' ')"
elif [ -n "$missing" ]; then
    fail "sanitized book-page: chapters in order, ids prefixed, links followed" "no$missing"
elif grep -qE 'prev|next|class="title"' "$gen/book.md" ||
     [ "$(grep -n '^## Chapter' "$gen/book.md" | cut -d: -f2- | tr '\n' '|')" != '## Chapter A {#ch-a .book-chapter}|## Chapter B {#ch-b .book-chapter}|' ]; then
    fail "sanitized book-page: chapters in order, ids prefixed, links followed" "a page's header or navigation is in it, or the chapters are out of order"
else
    pass "sanitized book-page: chapters in order, ids prefixed, links followed"
fi
# A page without its main content is refused: one line naming it, a
# non-zero exit, and nothing written.
sed -i 's/<main id="text">/<div>/' "$bp/ch-b.html"
"$asan/book-page" "$bp" "$gen/ch-a.tsv" "$gen/ch-b.tsv" >"$gen/book.md" 2>"$gen/err"
rc=$?
if [ "$rc" -ne 0 ] && [ ! -s "$gen/book.md" ] && [ "$(wc -l <"$gen/err")" -eq 1 ] &&
   grep -q "^$bp/ch-b.html: no <main" "$gen/err"; then
    pass "book-page refuses a page without its main content, in one line"
else
    fail "book-page refuses a page without its main content, in one line" "exit $rc, said '$(head -3 "$gen/err" | tr '\n' ' ')'"
fi

# heading-links gives a heading that has a permalink none more, so that the
# whole book's page keeps one on each of its chapters' headings.
printf '<h1 id="a">A</h1>\n<h2 id="b">B<a class="permalink" href="#b" aria-label="Link to this section">#</a></h2>\n' >"$gen/h.html"
"$asan/heading-links" <"$gen/h.html" >"$gen/h1.html" 2>"$gen/err" &&
    "$asan/heading-links" <"$gen/h1.html" >"$gen/h2.html" 2>>"$gen/err"
if [ "$(grep -c 'class="permalink"' "$gen/h1.html")" = 2 ] && cmp -s "$gen/h1.html" "$gen/h2.html"; then
    pass "heading-links gives a linked heading no second permalink"
else
    fail "heading-links gives a linked heading no second permalink" "$(head -2 "$gen/err" | tr '\n' ' ') $(tr '\n' ' ' <"$gen/h2.html")"
fi

# search-index leaves out a page whose head says noindex (the whole book's
# page, which would double every result), and indexes it without that.
printf '<html><head>\n%s\n</head><body><main id="text"><h1 id="x">X</h1><p>words</p></main></body></html>\n' \
    '<meta name="robots" content="noindex">' >"$gen/whole.html"
sed '/noindex/d' "$gen/whole.html" >"$gen/searched.html"
"$asan/search-index" "$gen/whole.html" >"$gen/whole.js" 2>"$gen/err" &&
    "$asan/search-index" "$gen/searched.html" >"$gen/searched.js" 2>>"$gen/err"
if grep -q '"u": "whole.html' "$gen/whole.js" || ! grep -q '"u": "searched.html#x"' "$gen/searched.js"; then
    fail "search-index leaves out a page marked noindex, and only that" "$(head -2 "$gen/err" | tr '\n' ' ')"
else
    pass "search-index leaves out a page marked noindex, and only that"
fi
# The HTML reader (tools/lib/html.h), on a page that holds each kind of
# token (tests/fixtures/html/page.html): the tokens it reads, which cover
# the page byte for byte; and on each malformed page, one line saying where.
if "$asan/html-tokens" tests/fixtures/html/page.html >"$gen/tokens" 2>"$gen/err" &&
   cmp -s "$gen/tokens" tests/fixtures/html/page.tokens; then
    pass "sanitized html reader: a page's tokens, names, attributes, classes and references"
else
    fail "sanitized html reader: a page's tokens, names, attributes, classes and references" \
        "$(head -2 "$gen/err" | tr '\n' ' ') $(diff "$gen/tokens" tests/fixtures/html/page.tokens | head -3 | tr '\n' ' ')"
fi
for t in "<p>\n<a href=\"x\"|2: a <a> tag is never closed with '>'" \
         "<p>\n<a title=\"x>\ny</a>|2: a quoted value in a <a> tag is never closed with its \"" \
         "x\n\n<!-- y -- >|3: a comment is never closed with '-->'" \
         "<p>\n<script>\nx</p>|2: a <script> is never closed with </script>" \
         "<p>\n</p|2: an end tag is never closed with '>'" \
         "<!DOCTYPE html|1: a <! or <? declaration is never closed with '>'"; do
    printf '%b' "${t%%|*}" >"$gen/bad.html"
    want="$gen/bad.html:${t#*|}"
    if "$asan/html-tokens" "$gen/bad.html" >/dev/null 2>"$gen/err"; then
        fail "sanitized html reader says in one line:${t#*|}" "it passed"
    elif [ "$(cat "$gen/err")" != "$want" ]; then
        fail "sanitized html reader says in one line:${t#*|}" "said '$(head -3 "$gen/err" | tr '\n' ' ')'"
    else
        pass "sanitized html reader says in one line:${t#*|}"
    fi
done

# search-index reads maths as its TeX, and the TeX as text, as a result's
# excerpt shows it: a command as what it prints, no braces.
printf '<html><head></head><body><main id="text"><h1 id="m">M</h1><p>Bank %s, %s.</p></main></body></html>\n' \
    '<math><semantics><mrow><mi>w</mi><mo>mod</mo><mn>32</mn></mrow><annotation encoding="application/x-tex">w \bmod 32</annotation></semantics></math>' \
    '<math><semantics><mi>x</mi><annotation encoding="application/x-tex">x_{n-1} + 2^{28} \cdot k\varepsilon_{i} = O(\text{nnz})</annotation></semantics></math>' \
    >"$gen/maths.html"
"$asan/search-index" "$gen/maths.html" >"$gen/maths.js" 2>"$gen/err"
if grep -qF '"b": "Bank w mod 32 , x_(n-1) + 2^28 \u00b7 k\u03b5_i = O(nnz) ."' "$gen/maths.js"; then
    pass "search-index reads the TeX of maths as text: w mod 32, not w \\bmod 32"
else
    fail "search-index reads the TeX of maths as text: w mod 32, not w \\bmod 32" \
        "$(head -2 "$gen/err" | tr '\n' ' ') $(grep -o '"b": [^}]*' "$gen/maths.js" | tr '\n' ' ')"
fi
# snippet-marks -s gives noweb's nt, for each root, only the chunks the
# root reaches: what nt writes from it must be what it writes from the
# whole pipeline, byte for byte, #line directives included, and from the
# marked split what it writes from the whole marked pipeline, on the
# chapters that try the tangle hardest (tests/fixtures/tangle.nw:
# references in references, indents, two on a line; the fixture book: a
# header, a figure, a label in pieces).
NT=${NOWEB_LIB:-/usr/lib/noweb}/nt
differ=
for nw in tests/fixtures/tangle.nw tests/fixtures/book/chapters/*.nw; do
    ch=$(basename "$nw" .nw)
    "$MARKUP" "$nw" >"$gen/$ch.pipe"
    "$asan/chapter-meta" <"$gen/$ch.pipe" | awk -F'\t' '$1 == "root" { print $2 }' >"$gen/$ch.roots"
    "$asan/snippet-marks" <"$gen/$ch.pipe" >"$gen/$ch.marked.pipe"
    mkdir -p "$gen/split-$ch" "$gen/split-$ch.marked"
    "$asan/snippet-marks" -s "$gen/split-$ch" "$gen/$ch.roots" <"$gen/$ch.pipe" 2>>"$gen/split.err" || differ+=" $ch (it failed)"
    while read -r r; do
        cmp -s <("$NT" -t -L -R"$r" <"$gen/$ch.pipe") <("$NT" -t -L -R"$r" <"$gen/split-$ch/$r") &&
            cmp -s <("$NT" -R"$r" <"$gen/$ch.pipe") <("$NT" -R"$r" <"$gen/split-$ch/$r") &&
            cmp -s <("$NT" -R"$r" <"$gen/$ch.marked.pipe") <("$NT" -R"$r" <"$gen/split-$ch.marked/$r") ||
            differ+=" $ch:$r"
    done <"$gen/$ch.roots"
done
if [ -n "$differ" ]; then
    fail "sanitized snippet-marks -s: each root's own pipeline tangles as the whole one does" "differs for$differ $(head -2 "$gen/split.err" | tr '\n' ' ')"
else
    pass "sanitized snippet-marks -s: each root's own pipeline tangles as the whole one does ($(cat "$gen"/*.roots | wc -l) roots, plain, with #line, and marked)"
fi
# tools/book/slide-fragments.sh: a label whose Markdown and styles are as
# they were keeps its fragment, one that changed goes through pandoc (a
# stand-in that says it ran), the Markdown moves beside; pandoc failing
# fails it.
sf=$gen/fragments
mkdir -p "$sf/new" "$sf/kept-md" "$sf/kept-html" "$sf/styles"
: >"$sf/styles/snippet.html"
: >"$sf/styles/cuda.xml"
printf 'same\n' | tee "$sf/new/same.md" >"$sf/kept-md/same.md"
printf 'kept fragment\n' >"$sf/kept-html/same.html"
printf 'changed\n' >"$sf/new/changed.md"
printf 'was\n' >"$sf/kept-md/changed.md"
printf 'old fragment\n' >"$sf/kept-html/changed.html"
touch -d '1 hour ago' "$sf/styles/snippet.html" "$sf/styles/cuda.xml"
printf '#!/bin/sh\nfor a; do :; done\necho "pandoc on $(cat "$a")"\n' >"$sf/pandoc"
chmod +x "$sf/pandoc"
if PANDOC=$sf/pandoc STYLES=$sf/styles tools/book/slide-fragments.sh "$sf/new" "$sf/md" "$sf/kept-md" "$sf/kept-html" &&
   [ "$(cat "$sf/new/same.html")" = "kept fragment" ] && [ "$(cat "$sf/new/changed.html")" = "pandoc on changed" ] &&
   [ -f "$sf/md/same.md" ] && [ -f "$sf/md/changed.md" ] && [ -z "$(ls "$sf/new"/*.md 2>/dev/null)" ]; then
    pass "slide fragments: the unchanged kept, the changed through pandoc"
else
    fail "slide fragments: the unchanged kept, the changed through pandoc" \
        "same: $(cat "$sf/new/same.html" 2>&1), changed: $(cat "$sf/new/changed.html" 2>&1)"
fi
# A style newer than the kept fragment: through pandoc again.
rm -rf "$sf/md" "$sf/new" && mkdir -p "$sf/new" && printf 'same\n' >"$sf/new/same.md"
touch "$sf/styles/cuda.xml"
if PANDOC=$sf/pandoc STYLES=$sf/styles tools/book/slide-fragments.sh "$sf/new" "$sf/md" "$sf/kept-md" "$sf/kept-html" &&
   [ "$(cat "$sf/new/same.html")" = "pandoc on same" ]; then
    pass "slide fragments: a changed style makes every fragment again"
else
    fail "slide fragments: a changed style makes every fragment again" "$(cat "$sf/new/same.html" 2>&1)"
fi
rm -rf "$sf/md" "$sf/new" && mkdir -p "$sf/new" && printf 'x\n' >"$sf/new/x.md"
if PANDOC=false STYLES=$sf/styles tools/book/slide-fragments.sh "$sf/new" "$sf/md" "$sf/kept-md" "$sf/kept-html" 2>/dev/null; then
    fail "slide fragments: pandoc failing fails them" "exit 0"
else
    pass "slide fragments: pandoc failing fails them"
fi
exit $failed
