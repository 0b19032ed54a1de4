#!/bin/bash
# Quotes and claims: values quoted in prose follow the values files, claims
# are held to them, and every mistake is named at its .nw line. The tools
# run under AddressSanitizer and UndefinedBehaviorSanitizer on the fixture
# chapter tests/fixtures/quotes.nw and its values, tests/fixtures/values/.
# (The book's own claims are tests/book.sh's.)
set -uo pipefail
cd "$(dirname "$0")/.." || exit
. tests/lib.sh
B=${B:-build}
MARKUP=${NOWEB_LIB:-/usr/lib/noweb}/markup
export ASAN_OPTIONS=abort_on_error=0:detect_leaks=1
# UBSan stops a tool with a status of its own, 86, which no case expects:
# with the default, 1, a report would pass a case that wants the tool to
# fail.
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=86
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$PWD

sanitized "$tmp" chapter-meta chapter-md notebook-md claims || exit 1

# check NAME CONDITION...: PASS or FAIL with the first lines of $tmp/out.
check() {
    local name=$1
    shift
    if "$@"; then pass "$name"; else fail "$name" "$(head -3 "$tmp/out" | tr '\n' ' ')"; fi
}
has() { grep -qF -- "$1" "$tmp/out"; }

# The fixture as a chapter of a book in $tmp/book (its messages then name
# chapters/quotes.nw), with a copy of the values to change.
mkdir -p "$tmp/book/chapters"
cd "$tmp/book" || exit
cp "$root/tests/fixtures/quotes.nw" chapters/
cp -R "$root/tests/fixtures/values" values
: >labels.tsv
# weave CHAPTER [VALUES]: the chapter's lines, page and notebook, or the
# first tool's complaint, into $tmp/out.
weave() {
    local v=${2:-values}
    "$MARKUP" "chapters/$1.nw" >"$1.pipe" &&
        "$tmp/chapter-meta" <"$1.pipe" >"$1.lines" 2>"$tmp/out" &&
        cut -f1,2 "$1.lines" >"$1.tsv" &&
        "$tmp/chapter-md" -V "$v" refs chunks labels.tsv "$1.tsv" <"$1.pipe" >"$1.md" 2>"$tmp/out" &&
        "$tmp/notebook-md" -V "$v" -s "$root/tools/book/notebook-setup.py" "$1.pipe" >"$1.nb.md" 2>"$tmp/out"
}

weave quotes
cp quotes.lines "$tmp/out"
check "claims: chapter-meta writes each quote and claim, with its line, into .lines" \
    diff - quotes.lines <<'EOF'
title	Quotes and claims
root	quotes.cu	12
quote	=alpha-gpu: quotes.copy_ms|%.2f	5
quote	=alpha-gpu: quotes.scan_ms / quotes.copy_ms|%.1f	6
claim	?quotes.scan_ms > quotes.copy_ms	7
quote	=quotes.blocks|%d	8
quote	=alpha-gpu: -(quotes.copy_ms - quotes.scan_ms)	9
quote	=beta-gpu: quotes.share|%.1f%	9
claim	?beta-gpu: quotes.share >= 0.98	10
EOF
cp quotes.md "$tmp/out"
check "claims: a quoted value is a link to its transcript's line, its title naming its program, GPU and source" \
    has '<a class="quoted" href="#ev-quotes-alpha-gpu-12" title="quotes.copy_ms on alpha-gpu: evidence/quotes/alpha-gpu.txt:12">2.50</a> ms'
check "claims: a derived quantity is computed, names each of its values, and links to its entry" \
    has '<a class="quoted" id="at-value-1" href="#value-1" title="quotes.scan_ms on alpha-gpu: evidence/quotes/alpha-gpu.txt:13; quotes.copy_ms on alpha-gpu: evidence/quotes/alpha-gpu.txt:12">2.1</a> times'
check "claims: its entry gives each value, linked to its line, and leads back" \
    has '- []{#value-1}` quotes.scan_ms / quotes.copy_ms `, quoted as 2.1 on alpha-gpu: ` quotes.scan_ms ` on alpha-gpu is 5.25, from [line 13 of evidence/quotes/alpha-gpu.txt](#ev-quotes-alpha-gpu-13); ` quotes.copy_ms ` on alpha-gpu is 2.5, from [line 12 of evidence/quotes/alpha-gpu.txt](#ev-quotes-alpha-gpu-12). [↩](#at-value-1 "Back to the text")'
check "claims: negation and parentheses, %g by default" has '>2.75</a> ms more'
check "claims: %d rounds; the only GPU with every value is the one quoted" \
    has '<a class="quoted" href="#ev-quotes-alpha-gpu-15" title="quotes.blocks on alpha-gpu: evidence/quotes/alpha-gpu.txt:15">128</a> blocks'
check "claims: %.1f% is a percentage" has '>98.5%</a> of the'
check "claims: a claim is a check mark whose title is the claim, linked to its entry" \
    has '<a class="claim" id="at-claim-2" href="#claim-2" title="checked by make check: quotes.share &gt;= 0.98">✓</a>.'
check "claims: a claim's entry gives both sides and each value on each GPU it holds on" \
    has '- []{#claim-2}` quotes.share >= 0.98 `, which make check holds on beta-gpu \(0\.985 \>\= 0\.98\): ` quotes.share ` on beta-gpu is'
check "claims: the entries close the page under a heading of their own" \
    has '## Where the numbers come from {#sec-numbers}'
rm values/pages.tsv
weave quotes
cp quotes.md "$tmp/out"
check "claims: a value no page shows links to its entry, which names its source" \
    eval 'has "<a class=\"quoted\" id=\"at-value-1\" href=\"#value-1\" title=\"quotes.copy_ms on alpha-gpu: evidence/quotes/alpha-gpu.txt:12\">2.50</a>" &&
          has "is 2.5, from evidence/quotes/alpha\\-gpu\\.txt\\:12. [↩](#at-value-1"'
cp "$root/tests/fixtures/values/pages.tsv" values/
weave quotes
cp quotes.nb.md "$tmp/out"
check "claims: the notebook has each value as plain text and no claim" \
    eval 'has "took
2.50 ms and" && has "copy'"'"'s bandwidth." && ! has span && ! has "[[?"'

# A changed values file changes the quote; a perturbed one breaks a claim.
sed -i 's/^copy_ms\t2.5\t/copy_ms\t2.625\t/' values/quotes/alpha-gpu.tsv
weave quotes
cp quotes.md "$tmp/out"
check "claims: a quoted value follows a changed values file" \
    eval 'has ">2.62</a> ms and" && has ">2.0</a> times"'
cp -R "$root/tests/fixtures/values" good
"$tmp/claims" check good quotes.lines >"$tmp/out" 2>&1
rc=$?
check "claims: claims check passes every claim on every GPU it applies to" \
    eval '[ $rc -eq 0 ] && diff - "$tmp/out" <<EOF
PASS claim chapters/quotes.nw:7 on alpha-gpu: quotes.scan_ms > quotes.copy_ms
PASS claim chapters/quotes.nw:7 on beta-gpu: quotes.scan_ms > quotes.copy_ms
PASS claim chapters/quotes.nw:10 on beta-gpu: quotes.share >= 0.98
EOF'
# A GPU whose values the build cannot compute: its quotes and claims are
# not computed, skipped with the reason, and fail nowhere.
cp -R good absent
echo 'no tool to compute them here' >absent/delta-gpu.absent
printf 'claim\t?delta-gpu: quotes.copy_ms > 0\t3\nquote\t=delta-gpu: quotes.copy_ms\t4\n' >absent.lines
"$tmp/claims" check absent absent.lines >"$tmp/out" 2>&1
rc=$?
check "claims: a claim of a GPU marked absent is skipped with the reason" \
    eval '[ $rc -eq 0 ] && [ "$(cat "$tmp/out")" = "SKIP claim chapters/absent.nw:3: quotes.copy_ms > 0 (no tool to compute them here)" ]'
# A fit's values, GPU.fit.tsv, join the transcript's of the same GPU; a
# name in both is an error.
printf 'fit_regs\t32\tbuild/fit/quotes.ptxas\n' >absent/quotes/beta-gpu.fit.tsv
printf 'claim\t?beta-gpu: quotes.fit_regs > quotes.copy_ms\t5\n' >fit.lines
"$tmp/claims" check absent fit.lines >"$tmp/out" 2>&1
check "claims: a fit's values join the transcript's values of its GPU" \
    eval '[ "$(cat "$tmp/out")" = "PASS claim chapters/fit.nw:5 on beta-gpu: quotes.fit_regs > quotes.copy_ms" ]'
printf 'copy_ms\t1\tbuild/fit/quotes.ptxas\n' >absent/quotes/beta-gpu.fit.tsv
"$tmp/claims" check absent fit.lines >"$tmp/out" 2>&1
check "claims: a name in a fit's values and a transcript's is an error" has "quotes.copy_ms is given twice for beta-gpu"
rm absent/quotes/beta-gpu.fit.tsv
# A name pinned to a GPU, NAME@GPU, compares two cards in one claim.
printf 'claim\t?quotes.copy_ms@beta-gpu > quotes.copy_ms@alpha-gpu\t3\nclaim\t?alpha-gpu: quotes.scan_ms > quotes.copy_ms@beta-gpu\t4\nquote\t=quotes.copy_ms@gamma-gpu\t5\n' >pin.lines
"$tmp/claims" check absent pin.lines >"$tmp/out" 2>&1
check "claims: a name pinned to a GPU is that GPU's value, and one of a GPU with no values fails" \
    eval 'diff - "$tmp/out" <<EOF
PASS claim chapters/pin.nw:3 on beta-gpu: quotes.copy_ms@beta-gpu > quotes.copy_ms@alpha-gpu
PASS claim chapters/pin.nw:4 on alpha-gpu: quotes.scan_ms > quotes.copy_ms@beta-gpu
FAIL quote chapters/pin.nw:5: [[=quotes.copy_ms@gamma-gpu]] (no values are recorded for GPU gamma-gpu)
EOF'
rm absent/delta-gpu.absent
"$tmp/claims" check absent absent.lines >"$tmp/out" 2>&1
rc=$?
check "claims: without its .absent file the same claim fails" \
    eval '[ $rc -eq 1 ] && has "FAIL claim chapters/absent.nw:3"'
sed 's/^share\t0.985\t/share\t0.97\t/' good/quotes/beta-gpu.tsv >pending.tsv
cp -R good bad
cp pending.tsv bad/quotes/beta-gpu.tsv
"$tmp/claims" check bad quotes.lines >"$tmp/out" 2>&1
rc=$?
check "claims: a claim contradicted by a perturbed values file fails at its .nw line" \
    eval '[ $rc -eq 1 ] && has "FAIL claim chapters/quotes.nw:10 on beta-gpu: quotes.share >= 0.98 (0.97 >= 0.98 is false)" &&
          has "PASS claim chapters/quotes.nw:7 on beta-gpu"'
"$tmp/claims" check --replace quotes beta-gpu pending.tsv good quotes.lines >"$tmp/out" 2>&1
rc=$?
"$tmp/claims" check --replace quotes beta-gpu good/quotes/beta-gpu.tsv bad quotes.lines >"$tmp/out2" 2>&1
rc2=$?
check "claims: --replace holds pending values to the claims in place of the recorded ones" \
    eval '[ $rc -eq 1 ] && has "FAIL claim chapters/quotes.nw:10 on beta-gpu" && [ $rc2 -eq 0 ]'
# Several --replace together: each file in place of its own, so that
# pending values are held to the claims at once.
printf 'copy_ms\t3\tx:1\nscan_ms\t2\tx:2\nshare\t0.99\tx:3\nblocks\t1\tx:4\n' >alpha.tsv
"$tmp/claims" check --replace quotes beta-gpu pending.tsv --replace quotes alpha-gpu alpha.tsv good quotes.lines >"$tmp/out" 2>&1
rc=$?
check "claims: several --replace stand in together, each for its own file" \
    eval '[ $rc -eq 1 ] && has "FAIL claim chapters/quotes.nw:10 on beta-gpu" &&
          has "FAIL claim chapters/quotes.nw:7 on alpha-gpu: quotes.scan_ms > quotes.copy_ms (2 > 3 is false)" && has "PASS claim chapters/quotes.nw:7 on beta-gpu"'
"$tmp/claims" check --replace quotes gamma-gpu pending.tsv good quotes.lines >"$tmp/out" 2>&1
check "claims: --replace of a GPU not yet recorded adds it" \
    eval 'has "PASS claim chapters/quotes.nw:7 on gamma-gpu"'

# A reader's own run (claims yours, for make compare and make verify): the
# claims of any GPU held to it, each that fails with its values, a claim
# about another GPU alone shown there and beside the run, and never a
# failing exit status.
mkdir -p yours
printf 'copy_ms\t3\tout:1\nscan_ms\t2\tout:2\nshare\t0.97\tout:3\n' >yours/quotes.tsv
"$tmp/claims" yours "Gamma GPU" gamma-gpu yours good quotes.lines >"$tmp/out" 2>&1
rc=$?
check "claims: a reader's run is held to the claims, each that fails said with its values, never failing" \
    eval '[ $rc -eq 0 ] && diff - "$tmp/out" <<EOF
chapters/quotes.nw on your Gamma GPU: 0 of 1 claim hold in your run; this one does not:
    chapters/quotes.nw:7: quotes.scan_ms > quotes.copy_ms (2 > 3 is false)
  1 claim is about other GPUs alone; each there, and in your run:
    chapters/quotes.nw:10: quotes.share >= 0.98 (on beta-gpu 0.985 >= 0.98 is true; in your run 0.97 >= 0.98 is false)
EOF'
"$tmp/claims" yours "Beta GPU" beta-gpu yours good quotes.lines >"$tmp/out" 2>&1
check "claims: on the GPU a claim is about, the reader's run is held to it as to any" \
    has 'chapters/quotes.nw on your Beta GPU: 0 of 2 claims hold in your run; these 2 do not:'
rm yours/quotes.tsv
"$tmp/claims" yours "Gamma GPU" gamma-gpu yours good quotes.lines >"$tmp/out" 2>&1
check "claims: a run that measured no value a claim names says so in one line" \
    eval '[ "$(cat "$tmp/out")" = "No claim of the book names only values your run measured." ]'
printf 'copy_ms\t3\tout:1\nscan_ms\t2\tout:2\n' >yours/quotes.tsv
printf 'claim\t?quotes.copy_ms@beta-gpu > quotes.copy_ms@alpha-gpu\t3\n' >pinned.lines
"$tmp/claims" yours "Gamma GPU" gamma-gpu yours good pinned.lines >"$tmp/out" 2>&1
check "claims: a claim of pinned names alone is not held to the reader's run" \
    eval '[ "$(cat "$tmp/out")" = "No claim of the book names only values your run measured." ]'

# Mistakes, each at its .nw line: an unknown name, GPUs, a bad value.
# quote_error NAME TEXT WANT: a chapter quoting TEXT on line 3 fails to weave
# with WANT.
quote_error() {
    printf '# Broken\n\nSee %s here.\n\n<<quotes.cu>>=\n@\n' "$2" >chapters/broken.nw
    if weave broken; then
        fail "claims: $1" "woven"
    elif [ "$(cat "$tmp/out")" != "$3" ]; then
        fail "claims: $1" "said '$(head -3 "$tmp/out" | tr '\n' ' ')', want '$3'"
    else
        pass "claims: $1"
    fi
}
quote_error "an unknown name fails at the .nw line" '[[=quotes.nope]]' \
    'chapters/broken.nw:3: quote [[=quotes.nope]]: unknown value quotes.nope: no values file of quotes holds it'
quote_error "a quote of values on two GPUs must name one" '[[=quotes.copy_ms|%.1f]]' \
    'chapters/broken.nw:3: quote [[=quotes.copy_ms|%.1f]]: its values are recorded on 2 GPUs; name one, as in [[=alpha-gpu: quotes.copy_ms]]'
quote_error "a quote of a GPU with no values fails" '[[=gamma-gpu: quotes.copy_ms]]' \
    'chapters/broken.nw:3: quote [[=gamma-gpu: quotes.copy_ms]]: no values are recorded for GPU gamma-gpu'
quote_error "a quote of a GPU lacking one of its values fails" '[[=beta-gpu: quotes.blocks]]' \
    'chapters/broken.nw:3: quote [[=beta-gpu: quotes.blocks]]: quotes.blocks is not recorded on beta-gpu'
quote_error "a claim whose values no GPU has fails" '[[?quotes.blocks > quotes.missing]]' \
    'chapters/broken.nw:3: claim [[?quotes.blocks > quotes.missing]]: unknown value quotes.missing: no values file of quotes holds it'
quote_error "a malformed quote fails at the .nw line" '[[=quotes.copy_ms +]]' \
    "chapters/broken.nw:3: malformed quote [[=quotes.copy_ms +]]: want a name PROG.IDENT, a number or '(' at the end of 'quotes.copy_ms +'"
quote_error "a minus right after a pinned name, before a name, is said to need a blank" \
    '[[=quotes.copy_ms@alpha-gpu-quotes.scan_ms]]' \
    'chapters/broken.nw:3: malformed quote [[=quotes.copy_ms@alpha-gpu-quotes.scan_ms]]: a minus right after a pinned name needs a blank before it: write quotes.copy_ms@alpha-gpu - quotes.scan_ms (a GPU'"'"'s slug holds hyphens, and takes the minus and the name after it)'
quote_error "a minus right after a pinned name, before a number, is said to need a blank" \
    '[[=quotes.copy_ms@alpha-gpu-2]]' \
    'chapters/broken.nw:3: quote [[=quotes.copy_ms@alpha-gpu-2]]: no values are recorded for GPU alpha-gpu-2; if -2 is a minus, it needs a blank before it: @alpha-gpu - 2'
printf 'arch\tsm_90\tevidence/quotes/alpha-gpu.txt:2\n' >>values/quotes/alpha-gpu.tsv
quote_error "a value that is text is an error where it is quoted, naming its source" '[[=alpha-gpu: quotes.arch]]' \
    "chapters/broken.nw:3: quote [[=alpha-gpu: quotes.arch]]: evidence/quotes/alpha-gpu.txt:2: quotes.arch is 'sm_90', not a finite number"
quote_error "a division by zero is an error" '[[=alpha-gpu: quotes.copy_ms / (quotes.scan_ms - 5.25)]]' \
    'chapters/broken.nw:3: quote [[=alpha-gpu: quotes.copy_ms / (quotes.scan_ms - 5.25)]]: a division by zero on alpha-gpu'

printf 'quote\t=quotes.nope\t3\nclaim\t?beta-gpu: quotes.blocks > 1\t4\nclaim\t?quotes.copy_ms / (quotes.copy_ms - quotes.copy_ms) > 1\t5\nclaim\t?quotes.copy_ms <> 1\t6\n' >broken.lines
"$tmp/claims" check good broken.lines >"$tmp/out" 2>&1
rc=$?
check "claims: claims check fails an unknown name, a missing value, a division by zero and a malformed claim, each at its line" \
    eval '[ $rc -eq 1 ] && diff - "$tmp/out" <<EOF
FAIL quote chapters/broken.nw:3: [[=quotes.nope]] (unknown value quotes.nope: no values file of quotes holds it)
FAIL claim chapters/broken.nw:4: quotes.blocks > 1 (quotes.blocks is not recorded on beta-gpu)
FAIL claim chapters/broken.nw:5 on alpha-gpu: quotes.copy_ms / (quotes.copy_ms - quotes.copy_ms) > 1 (a division by zero on alpha-gpu)
FAIL claim chapters/broken.nw:5 on beta-gpu: quotes.copy_ms / (quotes.copy_ms - quotes.copy_ms) > 1 (a division by zero on beta-gpu)
FAIL claim chapters/broken.nw:6: malformed claim [[?quotes.copy_ms <> 1]]: want a name PROG.IDENT, a number or '"'"'('"'"' at '"'"'> 1'"'"'
EOF'
sed -i 's/^copy_ms\t2.5\t/copy_ms\tnan\t/' bad/quotes/alpha-gpu.tsv
"$tmp/claims" check bad quotes.lines >"$tmp/out" 2>&1
rc=$?
check "claims: a value that is not a finite number is an error naming its source" \
    eval '[ $rc -eq 1 ] && has "FAIL claim chapters/quotes.nw:7 on alpha-gpu: quotes.scan_ms > quotes.copy_ms (evidence/quotes/alpha-gpu.txt:12: quotes.copy_ms is '"'"'nan'"'"', not a finite number)"'
printf 'copy_ms 2.5\n' >bad/quotes/alpha-gpu.tsv
"$tmp/claims" check bad quotes.lines >"$tmp/out" 2>&1
check "claims: a malformed values line is named at its line" \
    eval '[ "$(cat "$tmp/out")" = "bad/quotes/alpha-gpu.tsv:1: want NAME<TAB>VALUE<TAB>SOURCE, NAME being [a-z][a-z0-9_]*" ]'

# make accept's gate, tools/evidence/pending-claims.sh: each pending
# transcript's values stand in for the recorded ones while the claims are
# checked; a claim one would break is named, and the gate says no.
tc=${B%/}/tools/tcheck
case $tc in /*) ;; *) tc=$root/$tc ;; esac
mkdir -p evidence/quotes
printf 'copy {{ms:copy_ms}} ms\nscan {{ms:scan_ms}} ms\nshare {{float:share}}\n' >evidence/quotes.expect
# pending FILE OUTPUT: a transcript of quotes on beta-gpu with this output.
pending() {
    printf '%s\n' 'program: quotes' 'date: 2026-01-31T12:00:00Z' 'gpu: Beta GPU' \
        'compute capability: 9.0' 'sms: 132' 'driver: 580.00 (CUDA 13.0)' 'runtime: 13.0' \
        'nvcc: release 13.0, V13.0.88' 'compile: nvcc -o quotes quotes.cu' 'commit: 0123abc' >header
    printf '%s' "$2" >output
    "$tc" transcript header output >"$1"
}
gate() {
    "$root/tools/evidence/pending-claims.sh" -t "$tc" -c "$tmp/claims" -v good quotes -- quotes.lines \
        >"$tmp/out" 2>&1
    rc=$?
}
gate
check "claims: make accept's gate passes where nothing is pending" eval '[ $rc -eq 0 ] && [ ! -s "$tmp/out" ]'
pending evidence/quotes/beta-gpu.txt.pending $'copy 4 ms\nscan 4.5 ms\nshare 0.99\n'
gate
check "claims: make accept's gate passes pending values that keep every claim" \
    eval '[ $rc -eq 0 ] && [ ! -s "$tmp/out" ]'
pending evidence/quotes/beta-gpu.txt.pending $'copy 4 ms\nscan 3.5 ms\nshare 0.99\n'
gate
check "claims: make accept's gate names the claim pending values break, and says nothing is accepted" \
    eval '[ $rc -eq 1 ] && diff - "$tmp/out" <<EOF
FAIL claim chapters/quotes.nw:7 on beta-gpu: quotes.scan_ms > quotes.copy_ms (3.5 > 4 is false)
make accept: the pending transcripts would break the claims above; nothing was accepted
EOF'
printf 'copy time {{ms:copy_ms}} ms\nscan {{ms:scan_ms}} ms\nshare {{float:share}}\n' >evidence/quotes.expect.pending
pending evidence/quotes/beta-gpu.txt.pending $'copy time 4 ms\nscan 4.5 ms\nshare 0.99\n'
gate
check "claims: make accept's gate reads pending values by the pending expectation" \
    eval '[ $rc -eq 0 ] && [ ! -s "$tmp/out" ]'
rm evidence/quotes.expect.pending
gate
check "claims: make accept's gate stops at a pending transcript that does not fit its expectation" \
    eval '[ $rc -eq 1 ] && has "evidence/quotes/beta-gpu.txt.pending:" && ! has "FAIL claim"'
mv evidence/quotes/beta-gpu.txt.pending evidence/quotes/Beta_GPU.txt.pending
gate
check "claims: make accept's gate names a pending transcript not named for its GPU" \
    eval '[ $rc -eq 1 ] && [ "$(cat "$tmp/out")" = "evidence/quotes/Beta_GPU.txt.pending:1: a transcript is named for its GPU, in lowercase letters, digits and -" ]'
cd "$root" || exit

exit $failed
