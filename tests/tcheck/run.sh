#!/bin/sh
# The transcript check's tests: tcheck as the GPU bundle and the notebooks
# carry it, the one file the build makes of its parts ($B/tools/tcheck.c,
# from tools/evidence/tcheck/), built with AddressSanitizer and
# UndefinedBehaviorSanitizer, driven directly and through
# tools/evidence/progcheck.sh and tools/evidence/bundle.mk; and the making
# of that file (tools/evidence/amalgamate.sh).
#
# usage: sh tests/tcheck/run.sh
#
# The perturbation tests take any (expectation, transcript) pair and run
# over the pairs of fixtures/. What they prove does not depend on the
# chapter a pair is of, so the fixtures are chosen to hold between them
# every hole, hole name and shape of line the book's evidence has; a
# fixture NAME_ncu is a profile and one with a NAME.run a run, and their
# transcripts record their program's compile line, as the book's do. Every
# pair under evidence/ gets the evidence lint and a check of its output,
# by the build's own tcheck, built without the sanitizers ($B/tools/tcheck;
# an expectation with no transcript yet is paired with a transcript made by
# filling its holes). One line per case, "PASS name" or "FAIL name: why",
# then "N passed, N failed"; exit status 1 if any case failed. No set -e: a
# tool that misbehaves fails the cases it spoils, and the rest still run.
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
fixtures=$here/fixtures
export LC_ALL=C LANG=C

work=$(mktemp -d "${TMPDIR:-/tmp}/tcheck-tests.XXXXXX")
trap 'rm -rf "$work"' EXIT
san=$work/san
mkdir -p "$san" "$work/tools" "$work/bin"
# The leak check costs each run more than the rest of ASan, and whether a
# run leaks is a matter of the code it takes, which most runs take again:
# those go without it (noleak_asan). They are the runs of the fixture
# pairs, their variants included, but each pair's lint and compare and
# every run of the pair tricky (progcheck's round trip of it included),
# and progcheck's runs on the demo fixture but its lints and the runs in
# keep_leaks there (a record's tcheck diff -o, a check -g that warns of no
# transcript, ...). Every other run has it: between them the leak-checked
# runs reach every line of tcheck.c that the group reaches (gcov says so,
# of a build that notes each run's leak check), and a leak planted on
# any of those lines fails a case.
leak_asan="log_path=$san/asan:detect_leaks=1"
noleak_asan="log_path=$san/asan:detect_leaks=0"
export ASAN_OPTIONS="$leak_asan"
# UBSan, in ASan's runtime, writes its report to standard error whatever
# log_path says, and then exits 1, as a check that fails does: exit status
# 86 says it did (run keeps the report for result).
export UBSAN_OPTIONS="log_path=$san/ubsan:halt_on_error=1:print_stacktrace=1:exitcode=86"

CC=${CC:-cc}
# The flags make builds the tools under the sanitizers with (make check
# gives them; alone, make says them): ASAN_CFLAGS in the Makefile.
SANITIZE=${ASAN_CFLAGS:-$(make -s --no-print-directory -C "$root" asan-cflags)}
# The one file of tcheck, as make builds it (make check does first).
made=${B:-build}/tools/tcheck.c
case $made in /*) ;; *) made=$root/$made ;; esac
if [ ! -f "$made" ]; then
    echo "FAIL build: no $made; make builds it"
    exit 1
fi
# It compiles alone, where no header of the book can be found: in the GPU
# bundle, by its Makefile's rule (tools/evidence/bundle.mk), with the
# sanitizers' flags. That one build is the tcheck of every test below that
# is of memory safety, the bundle's own included (tests the bundle's other
# files, from "The GPU bundle" on, under $bd).
bd=$work/bundle
mkdir -p "$bd/src" "$bd/tools" "$bd/evidence/demo"
cp "$root/tools/evidence/bundle.mk" "$bd/Makefile"
cp "$root/tools/compile.mk" "$bd/compile.mk"
cp "$made" "$root/tools/evidence/gpuinfo.c" "$root/tools/evidence/progcheck.sh" "$bd/tools/"
printf 'PROGRAMS := demo skipper\nCOMMIT := 0123abc\n' >"$bd/programs.mk"
bmake() {
    make -s -C "$bd" NVCC="$work/fake-nvcc" CC="$CC" \
        TCHECK_CFLAGS="$SANITIZE" "$@"
}
if ! bmake tools/tcheck >"$work/o" 2>&1; then
    tail -n 20 "$work/o" | sed 's/^/    /'
    echo "FAIL build: $made does not build alone with $CC and the sanitizers (the bundle's make tools/tcheck)"
    exit 1
fi
cp "$bd/tools/tcheck" "$work/tools/tcheck"
TC=$work/tools/tcheck
# Where memory safety is not the subject, the book's own pairs and the
# memory limits (AddressSanitizer alone reserves more), the build's tcheck,
# of the same parts, built without the sanitizers (make check makes it
# first).
TP=${B:-build}/tools/tcheck
case $TP in /*) ;; *) TP=$root/$TP ;; esac
if [ ! -x "$TP" ]; then
    echo "FAIL build: no $TP; make builds it"
    exit 1
fi
PC="$root/tools/evidence/progcheck.sh"

npass=0
nfail=0

# result NAME STATUS WHY: STATUS 0 passes. A sanitizer report fails the case.
result() {
    if [ -n "$(ls -A "$san")" ]; then
        set -- "$1" 1 "sanitizer report: $(grep -h -m 1 -E 'ERROR|runtime error' "$san"/* | head -n 1)"
        sed 's/^/    /' "$san"/* | head -n 30
        rm -f "$san"/*
    fi
    if [ "$2" -eq 0 ]; then
        echo "PASS $1"
        npass=$((npass + 1))
    else
        echo "FAIL $1: $3"
        nfail=$((nfail + 1))
    fi
}

# The tests prove memory safety only of a tcheck that runs under the
# sanitizers: one the bundle's make built without them (TCHECK_CFLAGS not
# passed on, say) would pass them all. It calls into both runtimes.
sanitized=$(nm "$TC" 2>&1 | awk '/ __asan_init/ { a = "asan" } / __ubsan_handle_/ { u = "ubsan" }
    END { printf "%s", a (a && u ? " " : "") u }')
[ "$sanitized" = "asan ubsan" ] && rc=0 || rc=1
result tcheck/built-with-asan-and-ubsan "$rc" "the symbols of $TC show '$sanitized', not 'asan ubsan'"

# run CMD...: run CMD with stdout to $work/o, stderr to $work/e, its exit
# status in rc; UBSan's report, where it stopped CMD, to $san.
run() {
    rc=0
    "$@" >"$work/o" 2>"$work/e" || rc=$?
    if [ "$rc" -eq 86 ]; then
        cp "$work/e" "$san/ubsan-stderr"
    fi
}

# The output recorded in a transcript: every line after the separator.
body() {
    awk 'f { print; next } $0 == "--- output ---" { f = 1 }' "$1"
}

# Normalised text, as tcheck reads it.
norm() {
    awk '{ sub(/[ \t\r]+$/, ""); print }' "$1"
}

# edit FILE LINE COL LEN NEW: FILE with LEN bytes at LINE:COL made NEW.
edit() {
    awk -v l="$2" -v c="$3" -v n="$4" -v s="$5" \
        'NR == l { $0 = substr($0, 1, c - 1) s substr($0, c + n) } { print }' "$1"
}

# The hole types, from the one list of them (holes.tsv): an awk expression
# of any hole; the values of a tcheck values list whose holes are of a
# KIND (measured, device), each with the OTHER value of its type.
holes=$here/holes.tsv
hole_re="[{][{]($(awk -F '\t' '!/^#/ { printf "%s%s", n++ ? "|" : "", $1 }' "$holes"))(:[a-z][a-z0-9_]*)?[}][}]"
of_kind() { # KIND VALUES
    awk -F '\t' -v k="$1" 'NR == FNR { if (!/^#/ && $2 == k) other[$1] = $4; next }
        $4 in other { print $0 "\t" other[$4] }' "$holes" "$2"
}
# The value the list gives a {{gpu}} hole: the GPU a made transcript names.
synthetic_gpu=$(awk -F '\t' '$1 == "gpu" { print $3 }' "$holes")

# A fake gpuinfo: the lines of $FAKE_GPUINFO, or a failure.
cat >"$work/tools/fake-gpuinfo" <<'EOF'
#!/bin/sh
if [ -n "${FAKE_NO_GPU:-}" ]; then
    echo "no CUDA device (cudaErrorNoDevice: no CUDA-capable device is detected)" >&2
    exit 1
fi
cat "$FAKE_GPUINFO"
EOF
# A stand-in for a book program: prints $MOCK_OUT, exits $MOCK_STATUS.
cat >"$work/mock-prog" <<'EOF'
#!/bin/sh
cat "$MOCK_OUT"
if [ -n "${MOCK_ERR:-}" ]; then
    echo "check: something went wrong" >&2
    echo "$MOCK_ERR" >&2
fi
exit "${MOCK_STATUS:-0}"
EOF
# A stand-in nvcc: a version, and "compiling" copies a shell script.
cat >"$work/fake-nvcc" <<'EOF'
#!/bin/sh
if [ "${1:-}" = --version ]; then
    echo "nvcc: NVIDIA (R) Cuda compiler driver"
    echo "Cuda compilation tools, release 13.0, V13.0.88"
    exit 0
fi
out= src=
while [ $# -gt 0 ]; do
    case $1 in
        -o) out=$2; shift ;;
        *.c) src=gpuinfo ;;
        *.cu) src=$1 ;;
    esac
    shift
done
if [ "$src" = gpuinfo ]; then
    printf '#!/bin/sh\nexec "%s"\n' "$FAKE_GPUINFO_PROG" >"$out"
else
    cp "$src" "$out"
fi
chmod +x "$out"
EOF
chmod +x "$work/tools/fake-gpuinfo" "$work/mock-prog" "$work/fake-nvcc"

# header FILE PROG GPU [COMPILED]: a transcript header for tests; its
# compile line COMPILED's (default PROG), as a run's or a profile's is the
# program's it runs.
header() {
    cat >"$1" <<EOF
program: $2
date: 2026-01-31T12:00:00Z
gpu: $3
compute capability: 7.5
sms: 40
driver: 580.00 (CUDA 13.0)
runtime: 13.0
nvcc: release 13.0, V13.0.88
compile: nvcc -std=c++17 -O3 -arch=sm_75 -o ${4:-$2} ${4:-$2}.cu
commit: 0123abc
EOF
}

# ---------------------------------------------------------------------
# Matching, case by case: m NAME PATTERN LINE WANT (0 match, 1 not)

m() {
    printf '%s\n' "$2" >"$work/m.expect"
    printf '%s\n' "$3" >"$work/m.out"
    run "$TC" check "$work/m.expect" "$work/none" "$work/m.out" 0
    [ "$rc" -eq 3 ] && rc=0 # a device line with no transcript: a warning
    if [ "$rc" -eq "$4" ]; then
        result "match/$1" 0
    else
        result "match/$1" 1 "'$2' against '$3': exit $rc, wanted $4"
    fi
}

m literal 'total 12500000' 'total 12500000' 0
m literal-differs 'total 12500000' 'total 12500001' 1
m line-whole 'total 1' 'total 12' 1
m ms '{{ms}} ms' '0.240 ms' 0
m ms-whole '{{ms}} ms' '12 ms' 0
m ms-exponent '{{ms}}' '1.5e-03' 0
m ms-unsigned '{{ms}} ms' '-0.2 ms' 1
m ms-word '{{ms}} ms' 'fast ms' 1
m float-signed '{{float}}' '-3' 0
m float-exponent '{{float}}' '1e-05' 0
m float-leading-dot '{{float}}' '.5' 0
m float-nan '{{float}}' 'nan' 1
m float-inf '{{float}}' 'inf' 1
m float-trailing-dot '{{float}}.' '5.' 0
m float-longest '{{float}}x' '1.25x' 0
m float-e-literal '{{float}}e' '2.5e' 0
m int '{{int}} items' '42 items' 0
m int-negative '{{int}}' '-7' 0
m int-fraction '{{int}}' '1.5' 1
m int-longest-no-backtrack '{{int}}5' '1235' 1
m blanks-zero 'x   {{int}}   y' 'x42y' 0
m blanks-many 'x {{int}} y' 'x        42      y' 0
m blanks-only-near-holes 'a b {{int}}' 'a  b 1' 1
m column 'hillis-steele      {{ms}}   {{float}}' 'hillis-steele 1.234 213.3' 0
m gpu 'GPU: {{gpu}} (compute capability {{device}}), {{device}} SMs' \
    'GPU: NVIDIA H200 (compute capability 9.0), 132 SMs' 0
m gpu-nonempty 'GPU: {{gpu}}!' 'GPU: !' 1
m device-shortest '{{device}} / {{device}}' 'a / b / c' 0
m device-any-text 'memory: {{device}}' 'memory: 15 GiB (ECC on)' 0
m not-a-hole 'literal {{{{x}}' 'literal {{{{x}}' 0
m unknown-hole-literal 'a {{foo}}' 'a 42' 1
m trailing-blanks 'done' 'done   ' 0
m crlf 'done' "$(printf 'done\r')" 0

# The list of hole types the tests take them from (holes.tsv) is tcheck's:
# the same types, in the order its message for what is no hole gives
# them, and each type's values matched by its hole, named and not.
printf '%s\n' 'x {{nohole}}' >"$work/m.expect"
printf '%s\n' 'x 1' >"$work/m.out"
header "$work/h" m "Fixture GPU"
"$TC" transcript "$work/h" "$work/m.out" >"$work/m.txt"
run "$TC" lint "$work/m.expect" "$work/m.txt"
said=$(sed -n 's/.* the holes are \(.*\), and all .*/\1/p' "$work/o" | grep -o '{{[a-z]*}}' | tr -d '{}' | tr '\n' ' ')
listed=$(awk -F '\t' '!/^#/ { printf "%s ", $1 }' "$holes")
[ -n "$said" ] && [ "$said" = "$listed" ] && rc=0 || rc=1
result hole-types-list-is-tcheck "$rc" "tcheck says the holes are '$said', holes.tsv lists '$listed'"
while IFS="$(printf '\t')" read -r ht hk hv ho; do
    case $ht in '#'*) continue ;; esac
    m "hole-types-list/$ht-value" "a {{$ht}} z" "a $hv z" 0
    [ "$hk" = measured ] && m "hole-types-list/$ht-other" "a {{$ht:x}} z" "a $ho z" 0
done <"$holes"

# Device holes separated by little: a non-matching line stays cheap.
printf '%s\n' '{{device}} {{device}} {{device}} {{device}} {{device}} x' >"$work/m.expect"
awk 'BEGIN { for (i = 0; i < 400; i++) printf "a "; print "y" }' >"$work/m.out"
if command -v timeout >/dev/null 2>&1; then
    run timeout 20 "$TC" check "$work/m.expect" "$work/none" "$work/m.out" 0
else
    run "$TC" check "$work/m.expect" "$work/none" "$work/m.out" 0
fi
[ "$rc" -eq 1 ] && rc=0 || rc=1
result match/many-device-holes-stay-cheap "$rc" "exit $rc (124: still matching after 20 s)"

# The slug that names a transcript after its GPU.
sl() {
    run "$TC" slug "$1"
    [ "$rc" -eq 0 ] && [ "$(cat "$work/o")" = "$2" ] && rc=0 || rc=1
    result "slug/$2" "$rc" "'$1' gave '$(cat "$work/o")', wanted '$2'"
}
sl "NVIDIA H200" nvidia-h200
sl "Tesla T4" tesla-t4
sl "NVIDIA GeForce RTX 3060" nvidia-geforce-rtx-3060
sl "  NVIDIA  A100-SXM4-40GB (MIG 1g.5gb) " nvidia-a100-sxm4-40gb-mig-1g-5gb
run "$TC" slug "(--)"
[ "$rc" -eq 2 ] && rc=0 || rc=1
result slug/empty-refused "$rc" "exit $rc"

# ---------------------------------------------------------------------
# The perturbation tests, for one (expectation, transcript) pair

# differing N: how a check counts N differing lines.
differing() {
    if [ "$1" -eq 1 ]; then
        echo "1 differing line"
    else
        echo "$1 differing lines"
    fi
}

# batch SPEC: many variants of the pair's output, one per line of SPEC,
# "LINE<TAB>LABEL<TAB>TEXT" (output line LINE made TEXT), checked in one run
# of tcheck check; its exit status in rc, its report in $work/o. Each
# variant is a block of its own: the line "=== variant LABEL ===", then
# expectation line LINE in $pd/batch.expect, TEXT in $pd/batch.out, and
# output line LINE in the transcript $pd/bt/$slug.txt. The pair's {{gpu}}
# line heads all three, so that device lines are held to the transcript as
# in the pair's own check. $pd/batch.want is what tcheck pending prints of
# the batch where no variant matches.
batch() {
    rm -rf "$pd/bt"
    mkdir -p "$pd/bt"
    awk -F '\t' -v d="$pd" -v g="$gl" '
        FILENAME == ARGV[1] { e[FNR] = $0; next }
        FILENAME == ARGV[2] { o[FNR] = $0; next }
        FNR == 1 && g {
            print e[g] >(d "/batch.expect")
            print e[g] >(d "/batch.want")
            print o[g] >(d "/batch.out")
            print o[g] >(d "/batch.orig")
        }
        {
            s = "=== variant " $2 " ==="
            text = substr($0, length($1 "\t" $2 "\t") + 1)
            print s >(d "/batch.expect")
            print e[$1] >(d "/batch.expect")
            print s >(d "/batch.out")
            print text >(d "/batch.out")
            print s >(d "/batch.want")
            print text >(d "/batch.want")
            print s >(d "/batch.orig")
            print o[$1] >(d "/batch.orig")
        }' "$E" "$pd/out" "$1"
    { sed '/^--- output ---$/q' "$D/$slug.txt" && cat "$pd/batch.orig"; } >"$pd/bt/$slug.txt"
    run "$TC" check "$pd/batch.expect" "$pd/bt" "$pd/batch.out" 0
}

# culprits WANT: the labels of the last batch's variants that tcheck
# pending does not print as WANT has them: where WANT is $pd/batch.want,
# the variants that matched a line; where it is $pd/batch.expect, those
# that did not.
culprits() {
    run "$TC" pending "$pd/batch.expect" "$pd/batch.out"
    norm "$1" | awk -v got="$work/o" '
        function variant(x) { return x ~ /^=== variant .* ===$/ }
        { if (s != "") want[s] = $0; s = variant($0) ? $0 : ""; if (s != "") order[++n] = s }
        END {
            s = ""
            while ((getline line <got) > 0) {
                if (s != "") { seen[s] = 1; if (line != want[s]) bad[s] = 1 }
                s = variant(line) ? line : ""
            }
            for (i = 1; i <= n; i++) {
                if ((order[i] in bad) || !(order[i] in seen)) {
                    x = order[i]
                    sub(/^=== variant /, "", x)
                    sub(/ ===$/, "", x)
                    printf "%s%s", k++ ? ", " : "", x
                }
            }
        }'
}

# batches SPEC: SPEC cut into batches of 100 variants, $pd/chunk.*. The
# check of a batch of N variants aligns 2N + 1 lines by a table of their
# square, which is more than a process costs where N is much larger (and,
# past 1023, more than tcheck builds: it shows all as changed instead).
batches() {
    rm -f "$pd"/chunk.*
    split -l 100 "$1" "$pd/chunk."
}

# batch_fails SPEC: every variant of SPEC fails the check, by the count of
# differing lines and by what tcheck pending prints back; else $bad says
# which did not.
batch_fails() {
    bad=
    batches "$1"
    for chunk in "$pd"/chunk.*; do
        batch "$chunk"
        n=$(wc -l <"$chunk")
        verdict=$(head -n 1 "$work/o")
        c=$(culprits "$pd/batch.want")
        if [ "$rc" -ne 1 ] || [ "$verdict" != "FAIL: $(differing "$n")" ] || [ -n "$c" ]; then
            bad="${bad:+$bad, }${c:-(of a batch of $n: exit $rc, $verdict)}"
        fi
    done
}

# batch_passes SPEC: every variant of SPEC passes the check; else $bad says
# which did not.
batch_passes() {
    bad=
    batches "$1"
    for chunk in "$pd"/chunk.*; do
        batch "$chunk"
        if [ "$rc" -ne 0 ]; then
            verdict=$(head -n 1 "$work/o")
            c=$(culprits "$pd/batch.expect")
            bad="${bad:+$bad, }${c:-(of a batch: exit $rc, $verdict)}"
        fi
    done
}

# pair_tests NAME EXPECT TRANSCRIPT: every perturbation test of one pair,
# each a function of its own below, then, for two of the fixtures, the
# same pair through progcheck.sh (pc_tests).
pair_tests() {
    # the leak check for tricky's runs, and the others' lint and compare
    case $(basename "$2") in tricky.expect) ;; *) ASAN_OPTIONS=$noleak_asan ;; esac
    pair_setup "$@"
    pair_lint
    pair_identical
    pair_literal_characters
    pair_literal_line_named
    pair_measured_numbers
    pair_measured_words
    pair_device_values
    pair_other_gpu
    pair_missing_line
    pair_extra_line
    pair_reordered_line
    pair_crlf_and_trailing_blanks
    pair_no_final_newline
    pair_nonzero_exit
    pair_pending_unchanged
    pair_pending_keeps_holes
    pair_compare
    # The same pair through progcheck.sh, with a stand-in program and GPU:
    # the script's steps, the same for any pair (each pair's content is
    # tcheck's, tested above), on the pairs whose names and text try its
    # quoting: one with odd characters (tricky), one a run, named apart
    # from the program whose compile line it records (sweep_2_scatter).
    case $prog in tricky | sweep_2_scatter) pc_tests "$pn" "$prog" "$3"; pc_pairs=$((pc_pairs + 1)) ;; esac
    ASAN_OPTIONS=$leak_asan
}

# pair_setup NAME EXPECT TRANSCRIPT: the pair as evidence in $pd/ev ($E, and
# its transcripts in $D), its output ($pd/out, $nl lines), its literal
# lines ($lits), the line of its {{gpu}} hole ($gl), its values
# ($pd/values) and those of its measured holes ($pd/measured, $nmeasured)
# and device holes ($pd/devices), each with the other value of its type.
pair_setup() {
    pn=$1
    pd=$work/pair
    rm -rf "$pd"
    mkdir -p "$pd/ev"
    prog=$(basename "$2" .expect)
    gpu=$(sed -n 's/^gpu: //p' "$3" | head -n 1)
    slug=$("$TC" slug "$gpu")
    E=$pd/ev/$prog.expect
    D=$pd/ev/$prog
    mkdir -p "$D"
    cp "$2" "$E"
    cp "$3" "$D/$slug.txt"
    body "$3" >"$pd/out"
    nl=$(wc -l <"$pd/out")
    gl=$(awk '/\{\{gpu\}\}/ { print NR; exit }' "$E")
    lits=$(awk -v re="$hole_re" '$0 !~ re { printf "%d ", NR }' "$E")
    "$TC" values "$E" "$pd/out" >"$pd/values"
    of_kind measured "$pd/values" >"$pd/measured"
    nmeasured=$(wc -l <"$pd/measured")
    of_kind device "$pd/values" >"$pd/devices"
}

pair_lint() {
    ASAN_OPTIONS=$leak_asan run "$TC" lint "$E" "$D/$slug.txt"
    result "$pn/lint" "$rc" "tcheck lint: $(head -n 1 "$work/o")$(head -n 1 "$work/e")"
}

pair_identical() {
    run "$TC" check "$E" "$D" "$pd/out" 0
    result "$pn/identical" "$rc" "exit $rc: $(head -n 3 "$work/o" | tr '\n' ' ')"
}

# Every character of every literal line, changed: each variant fails its
# line, checked in batches.
pair_literal_characters() {
    awk -v lits="$lits" '
        BEGIN { n = split(lits, a, " "); for (i = 1; i <= n; i++) lit[a[i]] = 1 }
        (FNR in lit) {
            for (c = 1; c <= length($0); c++) {
                r = substr($0, c, 1) == "#" ? "@" : "#"
                printf "%d\t%d-%d\t%s%s%s\n", FNR, FNR, c, substr($0, 1, c - 1), r, substr($0, c + 1)
            }
        }' "$pd/out" >"$pd/chars"
    bad=
    [ -s "$pd/chars" ] && batch_fails "$pd/chars"
    result "$pn/literal-characters" "$([ -z "$bad" ] && echo 0 || echo 1)" \
        "changed characters that passed, as LINE-COLUMN: $bad"
    [ -s "$pd/chars" ] || echo "    ($pn has no literal characters to change)"
}

# A changed literal line fails the check, which names the line.
pair_literal_line_named() {
    bad=
    for l in $lits; do
        awk -v l="$l" 'NR == l && $0 != "" { $0 = (substr($0, 1, 1) == "#" ? "@" : "#") substr($0, 2) } { print }' \
            "$pd/out" >"$pd/v"
        cmp -s "$pd/v" "$pd/out" && continue
        run "$TC" check "$E" "$D" "$pd/v" 0
        if [ "$rc" -ne 1 ] || ! grep -q "^$E:$l: " "$work/o"; then
            bad="${bad:+$bad, }$l (exit $rc)"
        fi
    done
    result "$pn/literal-line-named" "$([ -z "$bad" ] && echo 0 || echo 1)" \
        "changed lines that passed or were not named: $bad"
}

# pair_measured_variants KIND: the output with each measured value made
# KIND (number: the other value of its type; word: "fast"), a variant a
# line, as the batches take them.
pair_measured_variants() {
    awk -F '\t' -v kind="$1" '
        FILENAME == ARGV[1] { o[FNR] = $0; next }
        {
            new = $6
            if ($5 == new) new = 7
            pre = substr(o[$1], 1, $2 - 1)
            post = substr(o[$1], $2 + $3)
            if (kind == "number")
                printf "%d\t%d:%d %s->%s\t%s%s%s\n", $1, $1, $2, $5, new, pre, new, post
            else
                printf "%d\t%d:%d\t%sfast%s\n", $1, $1, $2, pre, post
        }' "$pd/out" "$pd/measured"
}

# Every measured value made another number passes, in one batch.
pair_measured_numbers() {
    bad=
    if [ "$nmeasured" -gt 0 ]; then
        pair_measured_variants number >"$pd/numbers"
        batch_passes "$pd/numbers"
    fi
    result "$pn/measured-number-passes" "$([ -z "$bad" ] && echo 0 || echo 1)" "$bad"
}

# Every measured value made a word fails, in one batch.
pair_measured_words() {
    bad=
    if [ "$nmeasured" -gt 0 ]; then
        pair_measured_variants word >"$pd/words"
        batch_fails "$pd/words"
    fi
    result "$pn/measured-word-fails" "$([ -z "$bad" ] && echo 0 || echo 1)" "words that passed: $bad"
}

# pair_device_changed WHICH NAME RC WHAT: each value of a device hole, the
# {{gpu}} hole's (WHICH gpu) or the others' (other), changed to the other
# value of its type, one check each: it exits RC and its report matches
# WHAT (for {{gpu}}, WHAT and the new name), or the case NAME fails.
pair_device_changed() {
    bad=
    while IFS="$(printf '\t')" read -r vl vc vn vk vv new; do
        if [ "$1" = gpu ]; then [ "$vk" = gpu ] || continue; else [ "$vk" != gpu ] || continue; fi
        [ "$vv" = "$new" ] && new=7
        edit "$pd/out" "$vl" "$vc" "$vn" "$new" >"$pd/v"
        run "$TC" check "$E" "$D" "$pd/v" 0
        want=$4
        [ "$1" = gpu ] && want=$4$new
        if [ "$rc" -ne "$3" ] || ! grep -q -- "$want" "$work/o"; then
            bad="${bad:+$bad, }$vl:$vc (exit $rc)"
        fi
    done <"$pd/devices"
    result "$pn/$2" "$([ -z "$bad" ] && echo 0 || echo 1)" "$bad"
}

# Every device value changed fails.
pair_device_values() {
    pair_device_changed other device-value-differs-fails 1 'device line differs'
}

# The {{gpu}} value changed names a GPU with no transcript: a warning.
pair_other_gpu() {
    pair_device_changed gpu other-gpu-warns 3 '^PASS (warning: no transcript for '
}

# A missing line fails.
pair_missing_line() {
    bad=
    l=1
    while [ "$l" -le "$nl" ]; do
        awk -v l="$l" 'NR != l' "$pd/out" >"$pd/v"
        run "$TC" check "$E" "$D" "$pd/v" 0
        [ "$rc" -eq 1 ] || bad="${bad:+$bad, }$l (exit $rc)"
        l=$((l + 1))
    done
    result "$pn/missing-line-fails" "$([ -z "$bad" ] && echo 0 || echo 1)" "removed lines that passed: $bad"
}

# An extra line, anywhere, fails.
pair_extra_line() {
    bad=
    l=0
    while [ "$l" -le "$nl" ]; do
        awk -v l="$l" 'l == 0 && NR == 1 { print "an unexpected line" } { print } NR == l { print "an unexpected line" }' \
            "$pd/out" >"$pd/v"
        run "$TC" check "$E" "$D" "$pd/v" 0
        [ "$rc" -eq 1 ] || bad="${bad:+$bad, }$l (exit $rc)"
        l=$((l + 1))
    done
    result "$pn/extra-line-fails" "$([ -z "$bad" ] && echo 0 || echo 1)" "lines added after these that passed: $bad"
}

# A literal line swapped with the next, or moved to the end, fails. (The
# line before the last swapped is the line moved to the end, and the last
# moved is the output: each checked once, or not at all.)
pair_reordered_line() {
    bad=
    for l in $lits; do
        awk -v l="$l" 'NR == l { held = $0; next } { print } NR == l + 1 { print held } END { if (l == NR) print held }' \
            "$pd/out" >"$pd/v1"
        awk -v l="$l" 'NR == l { held = $0; next } { print } END { print held }' "$pd/out" >"$pd/v2"
        for v in "$pd/v1" "$pd/v2"; do
            cmp -s "$v" "$pd/out" && continue
            [ "$v" = "$pd/v2" ] && cmp -s "$pd/v1" "$pd/v2" && continue
            run "$TC" check "$E" "$D" "$v" 0
            [ "$rc" -eq 1 ] || bad="${bad:+$bad, }line $l (exit $rc)"
        done
    done
    result "$pn/reordered-line-fails" "$([ -z "$bad" ] && echo 0 || echo 1)" "moves that passed: $bad"
}

# Normalising: CRLF and trailing blanks, and no final newline, pass.
pair_crlf_and_trailing_blanks() {
    awk '{ printf "%s \t \r\n", $0 }' "$pd/out" >"$pd/v"
    run "$TC" check "$E" "$D" "$pd/v" 0
    result "$pn/crlf-and-trailing-blanks-pass" "$rc" "exit $rc: $(head -n 3 "$work/o" | tr '\n' ' ')"
}
pair_no_final_newline() {
    awk 'NR > 1 { printf "\n" } { printf "%s", $0 }' "$pd/out" >"$pd/v"
    run "$TC" check "$E" "$D" "$pd/v" 0
    result "$pn/no-final-newline-passes" "$rc" "exit $rc"
}

# The exit status: not 0 fails.
pair_nonzero_exit() {
    run "$TC" check "$E" "$D" "$pd/out" 1
    [ "$rc" -eq 1 ] && [ "$(head -n 1 "$work/o")" = "FAIL: exit status 1" ] && rc=0 || rc=1
    result "$pn/nonzero-exit-fails" "$rc" "$(head -n 1 "$work/o")"
}

# pending: unchanged output keeps the expectation as it is.
pair_pending_unchanged() {
    run "$TC" pending "$E" "$pd/out"
    norm "$E" >"$pd/norm"
    [ "$rc" -eq 0 ] && cmp -s "$work/o" "$pd/norm" && rc=0 || rc=1
    result "$pn/pending-unchanged" "$rc" "tcheck pending changed the expectation of an identical output"
}

# with_first_measured OUTPUT NEW: OUTPUT, the pair's output, with its first
# measured value ($work/pair/measured) made NEW; as it is where it has none.
with_first_measured() {
    first_val=$(head -n 1 "$work/pair/measured")
    if [ -z "$first_val" ]; then
        cat "$1"
        return
    fi
    echo "$first_val" | {
        IFS="$(printf '\t')" read -r vl vc vn _ _
        edit "$1" "$vl" "$vc" "$vn" "$2"
    }
}

# pending: a changed output keeps the holes of the lines that still match.
pair_pending_keeps_holes() {
    first_lit=$(echo "$lits" | awk '{ print $1 }')
    [ -n "$first_lit" ] || return 0
    with_first_measured "$pd/out" 31337 >"$pd/v"
    norm "$pd/v" | awk -v l="$first_lit" 'NR == l { $0 = $0 " (changed)" } { print }' >"$pd/v2"
    run "$TC" pending "$E" "$pd/v2"
    cp "$work/o" "$pd/pending"
    prc=$rc
    norm "$E" | awk -v l="$first_lit" 'NR == l { $0 = $0 " (changed)" } { print }' >"$pd/want"
    mkdir -p "$pd/empty"
    run "$TC" check "$pd/pending" "$pd/empty" "$pd/v2" 0
    [ "$rc" -eq 3 ] && rc=0
    [ "$prc" -eq 1 ] && cmp -s "$pd/pending" "$pd/want" && [ "$rc" -eq 0 ] && rc=0 || rc=1
    result "$pn/pending-keeps-holes" "$rc" "pending exit $prc; $(diff "$pd/want" "$pd/pending" | head -n 4 | tr '\n' ' ')"
}

# compare: one row per measured value, all 1.00 against itself.
pair_compare() {
    ASAN_OPTIONS=$leak_asan run "$TC" compare "$E" "$D/$slug.txt" "$pd/out"
    rows=$(awk 'NR > 2 && $1 ~ /^[0-9]+$/' "$work/o" | wc -l)
    odd=$(awk 'NR > 2 && $1 ~ /^[0-9]+$/ && $NF != "1.00" && $NF != "-"' "$work/o" | wc -l)
    [ "$rc" -eq 0 ] && [ "$rows" -eq "$nmeasured" ] && [ "$odd" -eq 0 ] && rc=0 || rc=1
    result "$pn/compare" "$rc" "exit $rc, $rows rows for $nmeasured values, $odd not 1.00"
}

# pc_tests NAME PROG TRANSCRIPT: check, verify, record, accept, compare,
# lint of one program whose output is the transcript's.
pc_tests() {
    pn=$1
    pp=$2
    pr=$work/pc
    rm -rf "$pr"
    mkdir -p "$pr/bin" "$pr/ev/$pp"
    cp "$work/pair/ev/$pp.expect" "$pr/ev/"
    cp "$work/pair/ev/$pp"/*.txt "$pr/ev/$pp/"
    cp "$work/mock-prog" "$pr/bin/$pp"
    mkdir -p "$pr/src"
    printf 'int main() { return 0; }\n' >"$pr/src/$pp.cu"
    export SRC="$pr/src"
    body "$3" >"$pr/out"
    sed -n '3,7p' "$3" >"$pr/gpuinfo"
    export MOCK_OUT="$pr/out" FAKE_GPUINFO="$pr/gpuinfo"
    export TOOLS="$work/tools" BIN="$pr/bin" EVIDENCE="$pr/ev" GPUINFO="$work/tools/fake-gpuinfo"
    export NVCC="$work/fake-nvcc" COMMIT=0123abc
    # the compile line the transcript records: a run's or a profile's is
    # its program's
    cl=$(sed -n 's/^compile: //p' "$3" | head -n 1)
    export "COMPILE_LINE_$(printf '%s' "$pp" | tr -c 'A-Za-z0-9_' '_')=$cl"

    run sh "$PC" --count check "$pp"
    [ "$rc" -eq 0 ] && [ "$(head -n 1 "$work/o")" = "PASS $pp" ] &&
        [ "$(tail -n 1 "$work/o")" = "1 passed, 0 failed, 0 skipped" ] && rc=0 || rc=1
    result "$pn/progcheck-check-passes" "$rc" "$(head -n 2 "$work/o" | tr '\n' ' ')$(cat "$work/e")"

    run sh "$PC" verify "$pp" "$pr/out"
    [ "$rc" -eq 0 ] && [ "$(head -n 1 "$work/o")" = "PASS $pp" ] && rc=0 || rc=1
    result "$pn/progcheck-verify-passes" "$rc" "$(head -n 2 "$work/o" | tr '\n' ' ')"
    awk 'NR == 1 { $0 = $0 "!" } { print }' "$pr/out" >"$pr/student"
    run sh "$PC" verify "$pp" "$pr/student"
    [ "$rc" -eq 1 ] && head -n 1 "$work/o" | grep -q "^FAIL $pp: 1 differing line$" && rc=0 || rc=1
    result "$pn/progcheck-verify-fails" "$rc" "$(head -n 2 "$work/o" | tr '\n' ' ')"

    MOCK_STATUS=77 MOCK_ERR="needs 16 GiB of device memory, this card has 15" run sh "$PC" check "$pp"
    [ "$rc" -eq 0 ] && [ "$(cat "$work/o")" = "SKIP $pp: needs 16 GiB of device memory, this card has 15" ] && rc=0 || rc=1
    result "$pn/progcheck-exit-77-skips" "$rc" "$(head -n 1 "$work/o")"

    MOCK_STATUS=1 MOCK_ERR="scan: 3 results differ from the CPU reference" run sh "$PC" check "$pp"
    [ "$rc" -eq 1 ] && [ "$(head -n 1 "$work/o")" = "FAIL $pp: exit status 1" ] &&
        grep -q "3 results differ" "$work/o" && rc=0 || rc=1
    result "$pn/progcheck-exit-1-fails" "$rc" "$(head -n 1 "$work/o")"

    FAKE_NO_GPU=1 run sh "$PC" --count check "$pp"
    [ "$rc" -eq 0 ] && head -n 1 "$work/o" | grep -q "^SKIP $pp: no CUDA device" && rc=0 || rc=1
    result "$pn/progcheck-no-gpu-skips" "$rc" "$(head -n 1 "$work/o")"

    GPUINFO="$pr/none" NVCC="$pr/no-nvcc" run sh "$PC" check "$pp"
    [ "$rc" -eq 0 ] && head -n 1 "$work/o" | grep -q "^SKIP $pp: no nvcc" && rc=0 || rc=1
    result "$pn/progcheck-no-nvcc-skips" "$rc" "$(head -n 1 "$work/o")"

    run sh "$PC" compare "$pp"
    [ "$rc" -eq 0 ] && [ "$(head -n 1 "$work/o")" = "PASS $pp" ] && rc=0 || rc=1
    result "$pn/progcheck-compare" "$rc" "$(head -n 2 "$work/o" | tr '\n' ' ')"

    # record: new measured values; nothing under evidence/ changes but the
    # pending transcript; accept puts it in place; all still checks.
    cp -R "$pr/ev" "$pr/ev.before"
    with_first_measured "$pr/out" 4242 >"$pr/new"
    MOCK_OUT="$pr/new" run sh "$PC" record "$pp"
    tslug=$(cd "$pr/ev.before/$pp" && echo *.txt)
    [ "$rc" -eq 0 ] && [ "$(head -n 1 "$work/o")" = "PASS $pp" ] &&
        [ -f "$pr/ev/$pp/$tslug.pending" ] && [ ! -f "$pr/ev/$pp.expect.pending" ] &&
        grep -qxF "compile: $cl" "$pr/ev/$pp/$tslug.pending" &&
        grep -qxF "fingerprint: $("$TC" fingerprint -c "$cl" -v "release 13.0, V13.0.88" "$pr/src/$pp.cu")" \
            "$pr/ev/$pp/$tslug.pending" &&
        diff -r -x '*.pending' "$pr/ev.before" "$pr/ev" >/dev/null && rc=0 || rc=1
    result "$pn/progcheck-record-writes-pending-only" "$rc" "$(head -n 2 "$work/o" | tr '\n' ' ')$(find "$pr/ev" | tr '\n' ' ')"

    run sh "$PC" accept "$pp"
    [ "$rc" -eq 0 ] && [ "$(head -n 1 "$work/o")" = "PASS $pp" ] &&
        [ ! -f "$pr/ev/$pp/$tslug.pending" ] && body "$pr/ev/$pp/$tslug" | cmp -s - "$pr/new" && rc=0 || rc=1
    result "$pn/progcheck-accept-round-trip" "$rc" "$(head -n 2 "$work/o" | tr '\n' ' ')"

    MOCK_OUT="$pr/new" run sh "$PC" check "$pp"
    [ "$rc" -eq 0 ] && rc2=0 || rc2=1
    run sh "$PC" lint "$pp"
    [ "$rc2" -eq 0 ] && [ "$rc" -eq 0 ] && [ "$(cat "$work/o")" = "PASS $pp" ] && rc=0 || rc=1
    result "$pn/progcheck-lint-after-accept" "$rc" "$(head -n 2 "$work/o" | tr '\n' ' ')"

    unset MOCK_OUT FAKE_GPUINFO TOOLS BIN EVIDENCE GPUINFO NVCC COMMIT
}

# holes_filled EXPECT: an output that fills every hole of EXPECT.
holes_filled() {
    sed "$(awk -F '\t' '!/^#/ { printf "s/{{%s\\(:[a-z][a-z0-9_]*\\)\\?}}/%s/g;", $1, $3 }' "$holes")" "$1"
}

# book_pair NAME EXPECT TRANSCRIPT: what a recorded pair gets: the evidence
# lint, and its output checked against the expectation and the transcripts
# beside it. The build's tcheck: the fixtures test memory safety.
book_pair() {
    run "$TP" lint "$2" "$3"
    result "$1/lint" "$rc" "tcheck lint: $(head -n 1 "$work/o")$(head -n 1 "$work/e")"
    body "$3" >"$work/bp.out"
    run "$TP" check "$2" "$(dirname "$3")" "$work/bp.out" 0
    result "$1/check" "$rc" "exit $rc: $(head -n 3 "$work/o" | tr '\n' ' ')"
}

# holes_pair NAME EXPECT: book_pair of EXPECT and a transcript of its holes
# filled.
holes_pair() {
    hp=$(basename "$2" .expect)
    mkdir -p "$work/holes/$hp"
    holes_filled "$2" >"$work/holes.out"
    header "$work/h" "$hp" "$synthetic_gpu"
    "$TP" transcript "$work/h" "$work/holes.out" >"$work/holes/$hp/$("$TP" slug "$synthetic_gpu").txt"
    book_pair "$1" "$2" "$work/holes/$hp/$("$TP" slug "$synthetic_gpu").txt"
}

# The fixtures' pairs: transcripts made from their outputs. Their holes
# filled make a pair too, as for an expectation of the book with no
# transcript yet.
pc_pairs=0
for fx in "$fixtures"/*.expect; do
    fp=$(basename "$fx" .expect)
    gpu=$(awk 'match($0, /^GPU: .* \(compute/) { print substr($0, 6, RLENGTH - 14); exit }' "$fixtures/$fp.out")
    compiled=$fp
    case $fp in
        *_ncu) compiled=${fp%_ncu} ;;
    esac
    if [ -f "$fixtures/$fp.run" ]; then
        compiled=$(awk '{ print $1; exit }' "$fixtures/$fp.run")
    fi
    header "$work/h" "$fp" "${gpu:-Fixture GPU X1}" "$compiled"
    "$TC" transcript "$work/h" "$fixtures/$fp.out" >"$work/$fp.txt"
    pair_tests "fixture/$fp" "$fx" "$work/$fp.txt"
    holes_pair "fixture/$fp/holes-filled" "$fx"
done
[ "$pc_pairs" -eq 2 ] && rc=0 || rc=1
result progcheck/fixture-pairs "$rc" "progcheck.sh went through $pc_pairs of the fixtures tricky and sweep_2_scatter, not 2"

# Every pair under evidence/; an expectation alone is paired with its holes
# filled.
for ex in "$root"/evidence/*.expect; do
    [ -f "$ex" ] || continue
    ep=$(basename "$ex" .expect)
    found=0
    for et in "$root/evidence/$ep"/*.txt; do
        [ -f "$et" ] || continue
        found=1
        book_pair "evidence/$ep/$(basename "$et" .txt)" "$ex" "$et"
    done
    [ "$found" -eq 1 ] || holes_pair "evidence/$ep/holes-filled" "$ex"
done

# ---------------------------------------------------------------------
# progcheck.sh on the demo fixture: what a pair cannot show

# progcheck's runs of tcheck here go without the leak check, but in
# keep_leaks CMD...: CMD with it. Every lint keeps it (the paths of
# lint-tree are each case's own), and the runs that take code that no
# leak-checked case elsewhere takes.
ASAN_OPTIONS=$noleak_asan
keep_leaks() {
    ASAN_OPTIONS=$leak_asan "$@"
}

fx_setup() {
    fr=$work/fx
    rm -rf "$fr"
    mkdir -p "$fr/bin" "$fr/ev/demo"
    cp "$fixtures/demo.expect" "$fr/ev/"
    header "$work/h" demo "Fixture GPU X1"
    "$TC" transcript "$work/h" "$fixtures/demo.out" >"$fr/ev/demo/fixture-gpu-x1.txt"
    cp "$work/mock-prog" "$fr/bin/demo"
    mkdir -p "$fr/src"
    printf 'int main() { return 0; }\n' >"$fr/src/demo.cu"
    export SRC="$fr/src"
    sed -n '3,7p' "$work/h" >"$fr/gpuinfo"
    export MOCK_OUT="$fixtures/demo.out" FAKE_GPUINFO="$fr/gpuinfo"
    export TOOLS="$work/tools" BIN="$fr/bin" EVIDENCE="$fr/ev" GPUINFO="$work/tools/fake-gpuinfo"
    export NVCC="$work/fake-nvcc" COMMIT=0123abc
    export COMPILE_LINE_demo="nvcc -std=c++17 -O3 -arch=sm_75 -o demo demo.cu"
}

fx_setup
mv "$fr/ev/demo.expect" "$fr/demo.expect"
run sh "$PC" check demo
[ "$rc" -eq 1 ] && grep -q "^FAIL demo: no expectation .*make record PROG=demo" "$work/o" && rc=0 || rc=1
result progcheck/missing-expectation-fails "$rc" "$(head -n 1 "$work/o")"
keep_leaks run sh "$PC" lint demo
[ "$rc" -eq 1 ] && grep -q "^FAIL demo: no expectation .*make record PROG=demo" "$work/o" && rc=0 || rc=1
result progcheck/lint-missing-expectation "$rc" "$(head -n 1 "$work/o")"
mv "$fr/demo.expect" "$fr/ev/demo.expect"
rm "$fr/ev/demo/fixture-gpu-x1.txt"
run sh "$PC" check demo
[ "$rc" -eq 1 ] && grep -q "^FAIL demo: no transcript .*make record PROG=demo" "$work/o" && rc=0 || rc=1
result progcheck/missing-transcript-fails "$rc" "$(head -n 1 "$work/o")"
keep_leaks run sh "$PC" lint demo
[ "$rc" -eq 1 ] && grep -q "^FAIL demo: no transcript .*make record PROG=demo" "$work/o" && rc=0 || rc=1
result progcheck/lint-missing-transcript "$rc" "$(head -n 1 "$work/o")"

# lint: orphans, and evidence that is not well formed.
fx_setup
cp "$fixtures/demo.expect" "$fr/ev/gone.expect"
mkdir -p "$fr/ev/old"
echo notes >"$fr/ev/notes.txt"
keep_leaks run sh "$PC" --count lint demo
[ "$rc" -eq 1 ] && grep -q "^PASS demo$" "$work/o" &&
    grep -q "^FAIL gone: .*gone.expect belongs to no program" "$work/o" &&
    grep -q "^FAIL old: .*old belongs to no program" "$work/o" &&
    grep -q "^FAIL notes.txt: .*is not evidence" "$work/o" &&
    [ "$(tail -n 1 "$work/o")" = "1 passed, 3 failed, 0 skipped" ] && rc=0 || rc=1
result progcheck/lint-orphans "$rc" "$(tr '\n' '|' <"$work/o")"
keep_leaks run sh "$PC" lint
[ "$rc" -eq 1 ] && grep -q "^FAIL demo: .*demo.expect belongs to no program" "$work/o" && rc=0 || rc=1
result progcheck/lint-program-gone "$rc" "$(tr '\n' '|' <"$work/o")"

# A run, RUN.run, is evidence of the program it runs: no orphan while that
# program is the book's, even with nothing recorded for the run yet; one
# once it is not.
fx_setup
echo 'demo --twice' >"$fr/ev/demo_twice.run"
keep_leaks run sh "$PC" --count lint demo
[ "$rc" -eq 0 ] && [ "$(tail -n 1 "$work/o")" = "1 passed, 0 failed, 0 skipped" ] && rc=0 || rc=1
result progcheck/lint-run-of-a-program "$rc" "$(tr '\n' '|' <"$work/o")"
echo 'gone --twice' >"$fr/ev/demo_twice.run"
keep_leaks run sh "$PC" lint demo
[ "$rc" -eq 1 ] && grep -q "^FAIL gone: .*demo_twice.run belongs to no program" "$work/o" && rc=0 || rc=1
result progcheck/lint-run-of-no-program "$rc" "$(tr '\n' '|' <"$work/o")"

fx_setup
t=$fr/ev/demo/fixture-gpu-x1.txt
sed 's/^sms: 40$/sms: forty/' "$t" >"$work/t" && cp "$work/t" "$t"
keep_leaks run sh "$PC" lint demo
[ "$rc" -eq 1 ] && grep -q "^FAIL demo: $t:5: sms is not a whole number" "$work/o" && rc=0 || rc=1
result progcheck/lint-bad-header "$rc" "$(head -n 1 "$work/o")"
sed '/^commit: /d' "$t" >"$work/t" && cp "$work/t" "$t"
keep_leaks run "$TC" lint "$fr/ev/demo.expect" "$t"
[ "$rc" -eq 1 ] && grep -q 'no "commit:" line' "$work/o" && rc=0 || rc=1
result tcheck/lint-missing-header-line "$rc" "$(head -n 2 "$work/o" | tr '\n' ' ')"
fx_setup
mv "$fr/ev/demo/fixture-gpu-x1.txt" "$fr/ev/demo/tesla-t4.txt"
keep_leaks run "$TC" lint "$fr/ev/demo.expect" "$fr/ev/demo/tesla-t4.txt"
[ "$rc" -eq 1 ] && grep -q 'so the file is fixture-gpu-x1.txt' "$work/o" && rc=0 || rc=1
result tcheck/lint-file-named-for-gpu "$rc" "$(head -n 1 "$work/o")"
fx_setup
awk '{ print } /^--- output ---$/ { print "an extra line" }' "$fr/ev/demo/fixture-gpu-x1.txt" >"$work/t"
cp "$work/t" "$fr/ev/demo/fixture-gpu-x1.txt"
keep_leaks run "$TC" lint "$fr/ev/demo.expect" "$fr/ev/demo/fixture-gpu-x1.txt"
[ "$rc" -eq 1 ] && grep -q 'fixture-gpu-x1.txt:12: the output does not match' "$work/o" && rc=0 || rc=1
result tcheck/lint-body-mismatch "$rc" "$(head -n 1 "$work/o")"

# The separator inside the output is output: the header ends at the first.
fx_setup
printf '%s\n' "GPU: Fixture GPU X1 (compute capability 7.5), 40 SMs" "--- output ---" "x" >"$work/sep.out"
printf '%s\n' "GPU: {{gpu}} (compute capability {{device}}), {{device}} SMs" "--- output ---" "x" >"$work/sep.expect"
"$TC" transcript "$work/h" "$work/sep.out" >"$work/demo-sep.txt"
mkdir -p "$work/sep/demo"
cp "$work/sep.expect" "$work/sep/demo.expect"
cp "$work/demo-sep.txt" "$work/sep/demo/fixture-gpu-x1.txt"
keep_leaks run "$TC" lint "$work/sep/demo.expect" "$work/sep/demo/fixture-gpu-x1.txt"
result tcheck/separator-in-output "$rc" "$(head -n 2 "$work/o" | tr '\n' ' ')"

# record, then accept, on a changed output: the pending expectation keeps
# its holes, evidence is untouched until accept, and then all checks.
fx_setup
cp -R "$fr/ev" "$fr/ev.before"
sed -e 's/^every result matched the CPU reference$/every result matched the CPU reference, twice/' \
    -e 's/^hillis-steele               1.234 /hillis-steele               9.999 /' \
    "$fixtures/demo.out" >"$fr/new"
MOCK_OUT="$fr/new" keep_leaks run sh "$PC" record demo
ok=1
[ "$rc" -eq 0 ] && grep -q "^PASS demo (warning: the output does not match" "$work/o" &&
    diff -r -x '*.pending' "$fr/ev.before" "$fr/ev" >/dev/null &&
    sed 's/^every result matched the CPU reference$/&, twice/' "$fixtures/demo.expect" |
    cmp -s - "$fr/ev/demo.expect.pending" &&
        [ -f "$fr/ev/demo/fixture-gpu-x1.txt.pending" ] && ok=0
result progcheck/record-changed-output "$ok" "$(head -n 1 "$work/o"); $(find "$fr/ev" | tr '\n' ' ')"
keep_leaks run sh "$PC" lint demo
[ "$rc" -eq 0 ] && grep -q "^PASS demo (warning: pending evidence not accepted" "$work/o" && rc=0 || rc=1
result progcheck/lint-notes-pending "$rc" "$(head -n 1 "$work/o")"
MOCK_OUT="$fr/new" run sh "$PC" check demo
[ "$rc" -eq 1 ] && grep -q "^FAIL demo: 1 differing line$" "$work/o" && rc=0 || rc=1
result progcheck/check-before-accept-fails "$rc" "$(head -n 1 "$work/o")"
run sh "$PC" accept demo
[ "$rc" -eq 0 ] && [ "$(head -n 1 "$work/o")" = "PASS demo" ] &&
    [ -z "$(find "$fr/ev" -name '*.pending')" ] && rc=0 || rc=1
result progcheck/accept "$rc" "$(head -n 3 "$work/o" | tr '\n' ' ')"
MOCK_OUT="$fr/new" run sh "$PC" check demo
rc2=$rc
keep_leaks run sh "$PC" lint demo
[ "$rc2" -eq 0 ] && [ "$rc" -eq 0 ] && rc=0 || rc=1
result progcheck/check-after-accept "$rc" "$(head -n 1 "$work/o")"
run sh "$PC" accept demo
[ "$rc" -eq 0 ] && [ "$(cat "$work/o")" = "SKIP demo: nothing pending" ] && rc=0 || rc=1
result progcheck/accept-nothing-pending "$rc" "$(head -n 1 "$work/o")"

# A transcript of a second GPU; an expectation change then leaves it behind.
fx_setup
sed 's/Fixture GPU X1/Fixture GPU X2/' "$fr/gpuinfo" >"$fr/gpuinfo2"
sed 's/Fixture GPU X1/Fixture GPU X2/' "$fixtures/demo.out" >"$fr/out2"
FAKE_GPUINFO="$fr/gpuinfo2" MOCK_OUT="$fr/out2" keep_leaks run sh "$PC" check demo
[ "$rc" -eq 0 ] && grep -q "^PASS demo (warning: no transcript for Fixture GPU X2" "$work/o" && rc=0 || rc=1
result progcheck/other-gpu-warns "$rc" "$(head -n 1 "$work/o")"
FAKE_GPUINFO="$fr/gpuinfo2" MOCK_OUT="$fr/out2" run sh "$PC" record demo
rc2=$rc
run sh "$PC" accept demo
[ "$rc2" -eq 0 ] && [ "$rc" -eq 0 ] && [ -f "$fr/ev/demo/fixture-gpu-x2.txt" ] && rc=0 || rc=1
result progcheck/record-second-gpu "$rc" "$(head -n 1 "$work/o")"
sed 's/^every result matched the CPU reference$/all matched/' "$fr/out2" >"$fr/out3"
FAKE_GPUINFO="$fr/gpuinfo2" MOCK_OUT="$fr/out3" run sh "$PC" record demo
run sh "$PC" accept demo
[ "$rc" -eq 0 ] && grep -q "^PASS demo (warning: no longer matching .*fixture-gpu-x1.txt; record them again" "$work/o" && rc=0 || rc=1
result progcheck/accept-names-stale-transcripts "$rc" "$(head -n 1 "$work/o")"
keep_leaks run sh "$PC" lint demo
[ "$rc" -eq 1 ] && grep -q "^FAIL demo: .*fixture-gpu-x1.txt:12: the output does not match" "$work/o" && rc=0 || rc=1
result progcheck/lint-stale-transcript "$rc" "$(head -n 1 "$work/o")"

# accept refuses a pending transcript that does not fit the expectation.
fx_setup
awk '{ print } /^--- output ---$/ { print "stray" }' "$fr/ev/demo/fixture-gpu-x1.txt" >"$fr/ev/demo/fixture-gpu-x1.txt.pending"
run sh "$PC" accept demo
[ "$rc" -eq 1 ] && grep -q "^FAIL demo: .*nothing accepted$" "$work/o" &&
    [ -f "$fr/ev/demo/fixture-gpu-x1.txt.pending" ] && rc=0 || rc=1
result progcheck/accept-refuses-misfit "$rc" "$(head -n 1 "$work/o")"

# A new program: record writes a literal expectation to review.
fx_setup
rm -r "$fr/ev/demo" "$fr/ev/demo.expect"
run sh "$PC" record demo
[ "$rc" -eq 0 ] && grep -q "^PASS demo (warning: a new expectation" "$work/o" &&
    cmp -s "$fr/ev/demo.expect.pending" "$fixtures/demo.out" && rc=0 || rc=1
result progcheck/record-new-program "$rc" "$(head -n 1 "$work/o")"
run sh "$PC" accept demo
rc2=$rc
keep_leaks run sh "$PC" lint demo
[ "$rc2" -eq 0 ] && [ "$rc" -eq 0 ] && rc=0 || rc=1
result progcheck/accept-new-program "$rc" "$(head -n 1 "$work/o")"

# A check that passes removes stale pending files, and keeps a pending
# transcript that still fits.
fx_setup
echo "an expectation proposed for an earlier output" >"$fr/ev/demo.expect.pending"
echo "not a transcript" >"$fr/ev/demo/other.txt.pending"
cp "$fr/ev/demo/fixture-gpu-x1.txt" "$fr/ev/demo/fixture-gpu-x1.txt.pending"
keep_leaks run sh "$PC" check demo
[ "$rc" -eq 0 ] && [ ! -f "$fr/ev/demo.expect.pending" ] && [ ! -f "$fr/ev/demo/other.txt.pending" ] &&
    [ -f "$fr/ev/demo/fixture-gpu-x1.txt.pending" ] && rc=0 || rc=1
result progcheck/check-removes-stale-pending "$rc" "$(tr '\n' '|' <"$work/o")"

# record needs a compile line and refuses a failing program.
fx_setup
unset COMPILE_LINE_demo
run sh "$PC" record demo
[ "$rc" -eq 1 ] && grep -q "^FAIL demo: no compile line: set COMPILE_LINE_demo" "$work/o" && rc=0 || rc=1
result progcheck/record-needs-compile-line "$rc" "$(head -n 1 "$work/o")"
echo "demo: nvcc -o demo demo.cu" >"$fr/lines"
COMPILE_LINES="$fr/lines" run sh "$PC" record demo
[ "$rc" -eq 0 ] && grep -q "^compile: nvcc -o demo demo.cu$" "$fr/ev/demo/fixture-gpu-x1.txt.pending" && rc=0 || rc=1
result progcheck/record-compile-lines-file "$rc" "$(head -n 1 "$work/o")"
fx_setup
MOCK_STATUS=1 run sh "$PC" record demo
[ "$rc" -eq 1 ] && grep -q "^FAIL demo: exit status 1$" "$work/o" && grep -q "^    nothing recorded$" "$work/o" &&
    [ -z "$(find "$fr/ev" -name '*.pending')" ] && rc=0 || rc=1
result progcheck/record-refuses-failing-program "$rc" "$(head -n 1 "$work/o")"

# The commit comes from git where there is one, "-dirty" while tracked
# files other than the evidence have changes.
if command -v git >/dev/null 2>&1; then
    fx_setup
    unset COMMIT
    echo "a chapter" >"$fr/chapter.nw"
    g() { git -C "$fr" -c user.name=test -c user.email=test@example.com "$@"; }
    g init -q && g add chapter.nw ev && g commit -q -m fixture
    head=$(g rev-parse --short HEAD)
    run sh "$PC" record demo
    rc2=$rc
    c1=$(sed -n 's/^commit: //p' "$fr/ev/demo/fixture-gpu-x1.txt.pending")
    echo "edited" >>"$fr/ev/demo.expect"
    run sh "$PC" record demo
    c2=$(sed -n 's/^commit: //p' "$fr/ev/demo/fixture-gpu-x1.txt.pending")
    echo "edited" >>"$fr/chapter.nw"
    keep_leaks run sh "$PC" record demo
    c3=$(sed -n 's/^commit: //p' "$fr/ev/demo/fixture-gpu-x1.txt.pending")
    [ "$rc2" -eq 0 ] && [ "$c1" = "$head" ] && [ "$c2" = "$head" ] && [ "$c3" = "$head-dirty" ] && rc=0 || rc=1
    result progcheck/record-commit-from-git "$rc" "HEAD $head; clean $c1, evidence edited $c2, chapter edited $c3"
    export COMMIT=0123abc
fi

# An interrupted record leaves no partial file: a TERM while the program
# runs, a TERM while the transcript is being written, a writer that dies.
fx_setup
cat >"$fr/bin/demo" <<'EOF'
#!/bin/sh
kill -TERM "$(cat "$PC_PIDFILE")"
sleep 1
cat "$MOCK_OUT"
EOF
chmod +x "$fr/bin/demo"
export PC_PIDFILE="$work/pc.pid"
rc=0
sh -c 'echo $$ >"$PC_PIDFILE"; exec sh "$0" record demo' "$PC" >"$work/o" 2>"$work/e" || rc=$?
left=$(find "$fr/ev" -name '*.pending' -o -name '.tmp-*')
[ "$rc" -eq 143 ] && [ -z "$left" ] && rc=0 || rc=1
result progcheck/interrupted-while-running "$rc" "exit $rc, left: $left"

fx_setup
cat >"$work/tools/slow-tcheck" <<EOF
#!/bin/sh
if [ "\$1" = transcript ]; then
    "$TC" "\$@" >"$work/whole"
    head -c 200 "$work/whole"
    kill -TERM "\$(cat "\$PC_PIDFILE")"
    sleep 1
    tail -c +201 "$work/whole"
    exit 0
fi
exec "$TC" "\$@"
EOF
chmod +x "$work/tools/slow-tcheck"
rc=0
TCHECK="$work/tools/slow-tcheck" sh -c 'echo $$ >"$PC_PIDFILE"; exec sh "$0" record demo' "$PC" \
    >"$work/o" 2>"$work/e" || rc=$?
left=$(find "$fr/ev" -name '*.pending' -o -name '.tmp-*')
[ "$rc" -eq 143 ] && [ -z "$left" ] && rc=0 || rc=1
result progcheck/interrupted-while-writing "$rc" "exit $rc, left: $left"

cat >"$work/tools/dying-tcheck" <<EOF
#!/bin/sh
if [ "\$1" = transcript ]; then
    "$TC" "\$@" | head -c 200
    exit 2
fi
exec "$TC" "\$@"
EOF
chmod +x "$work/tools/dying-tcheck"
TCHECK="$work/tools/dying-tcheck" run sh "$PC" record demo
left=$(find "$fr/ev" -name '*.pending' -o -name '.tmp-*')
[ "$rc" -eq 1 ] && grep -q "^FAIL demo: cannot write" "$work/o" && [ -z "$left" ] && rc=0 || rc=1
result progcheck/writer-dies "$rc" "exit $rc, left: $left, $(head -n 1 "$work/o")"

# What a killed record may leave is never read, lint names it, and the
# next record removes it.
fx_setup
head -c 100 "$fr/ev/demo/fixture-gpu-x1.txt" >"$fr/ev/demo/.tmp-12345-fixture-gpu-x1.txt.pending"
keep_leaks run sh "$PC" lint demo
rc2=$rc
grep -q "interrupted record" "$work/o" || rc2=0
run sh "$PC" record demo
[ "$rc2" -eq 1 ] && [ "$rc" -eq 0 ] && [ ! -f "$fr/ev/demo/.tmp-12345-fixture-gpu-x1.txt.pending" ] && rc=0 || rc=1
result progcheck/leftover-temporary "$rc" "lint exit $rc2, record exit $rc"

ASAN_OPTIONS=$leak_asan

# Usage errors.
run sh "$PC" frobnicate demo
[ "$rc" -eq 2 ] && rc=0 || rc=1
result progcheck/usage-unknown-command "$rc" "exit $rc"
run sh "$PC" check 'a b'
[ "$rc" -eq 2 ] && rc=0 || rc=1
result progcheck/usage-bad-name "$rc" "exit $rc"
run "$TC" check "$fixtures/demo.expect" "$fr/ev/demo" "$fixtures/demo.out" x
[ "$rc" -eq 2 ] && rc=0 || rc=1
result tcheck/usage-bad-status "$rc" "exit $rc"
run "$TC" check "$fr/none.expect" "$fr/ev/demo" "$fixtures/demo.out" 0
[ "$rc" -eq 2 ] && grep -q "none.expect: cannot open" "$work/e" && rc=0 || rc=1
result tcheck/missing-file "$rc" "exit $rc: $(cat "$work/e")"

# The diff stays short: 200 changed lines show 40.
awk 'BEGIN { for (i = 0; i < 200; i++) print "line " i }' >"$work/long.expect"
awk 'BEGIN { for (i = 0; i < 200; i++) print "LINE " i }' >"$work/long.out"
run "$TC" check "$work/long.expect" "$work/none" "$work/long.out" 0
n=$(wc -l <"$work/o")
[ "$rc" -eq 1 ] && [ "$n" -lt 60 ] && grep -q "more diff lines not shown" "$work/o" && rc=0 || rc=1
result tcheck/diff-capped "$rc" "exit $rc, $n lines"

# Each kind of difference noted at its line, ten notes at most: a line
# changed, two together, one missing, one added, a hole given no number;
# the differences among matching lines, as the variant batches have them
# (which go without the leak check).
awk 'BEGIN { for (i = 1; i <= 60; i++) printf "row %d value {{int}}\n", i }' >"$work/dl.expect"
awk 'BEGIN { for (i = 1; i <= 60; i++) {
        if (i == 17) continue
        r = (i % 5 == 0 && i != 5) || i == 14 ? "ROW" : "row"
        printf "%s %d value %s\n", r, i, i == 5 ? "many" : i * 7
        if (i == 33) print "an extra line" } }' >"$work/dl.out"
run "$TC" check "$work/dl.expect" "$work/none" "$work/dl.out" 0
[ "$rc" -eq 1 ] && [ "$(head -n 1 "$work/o")" = "FAIL: 15 differing lines" ] &&
    grep -qxF "$work/dl.expect:5: {{int}} needs a whole number, got 'many'" "$work/o" &&
    grep -qxF "$work/dl.expect:14: lines 14-15 do not match $work/dl.out lines 14-15" "$work/o" &&
    grep -qxF "$work/dl.expect:17: missing from $work/dl.out" "$work/o" &&
    grep -qxF "$work/dl.expect:34: $work/dl.out line 33 not in the expectation (before this line)" "$work/o" &&
    [ "$(grep -c "^$work/dl.expect:[0-9]*: " "$work/o")" -eq 11 ] &&
    grep -qx '\.\.\. and 4 more differences' "$work/o" && rc=0 || rc=1
result tcheck/diff-notes-each-difference "$rc" "exit $rc: $(head -n 14 "$work/o" | tr '\n' '|')"

# A number hole that is given no number says which hole and why.
for v in nan inf -1; do
    printf '%s\n' 'scan {{ms}} ms' >"$work/h.expect"
    printf '%s\n' "scan $v ms" >"$work/h.out"
    run "$TC" check "$work/h.expect" "$work/none" "$work/h.out" 0
    [ "$rc" -eq 1 ] && grep -qxF "$work/h.expect:1: {{ms}} needs a number of milliseconds, got '$v'" "$work/o" &&
        rc=0 || rc=1
    result "tcheck/ms-hole-says-why-$v" "$rc" "exit $rc: $(tr '\n' '|' <"$work/o")"
done

# NUL bytes and control characters are shown escaped.
printf 'abc\n' >"$work/c.expect"
printf 'a\000b\001c\033[2J\n' >"$work/c.out"
run "$TC" check "$work/c.expect" "$work/none" "$work/c.out" 0
[ "$rc" -eq 1 ] && grep -qxF '+a\x00b\x01c\x1b[2J' "$work/o" && ! tr -d '\n\t' <"$work/o" | LC_ALL=C grep -q '[[:cntrl:]]' &&
    rc=0 || rc=1
result tcheck/control-characters-escaped "$rc" "exit $rc: $(head -n 6 "$work/o" | tr '\n' '|')"

# The verdict for a caller: -n names the program, details indented, and
# the exit status says it all (4: the program said it cannot run here).
printf 'needs 16 GiB\n' >"$work/s.err"
run "$TC" check -n demo -e "$work/s.err" "$fixtures/demo.expect" "$work/none" "$fixtures/demo.out" 77
[ "$rc" -eq 4 ] && [ "$(cat "$work/o")" = "SKIP demo: needs 16 GiB" ] && rc=0 || rc=1
result tcheck/check-77-skips "$rc" "exit $rc: $(cat "$work/o")"
run "$TC" status -n demo -e "$work/s.err" 77
[ "$rc" -eq 4 ] && [ "$(cat "$work/o")" = "SKIP demo: needs 16 GiB" ] && rc=0 || rc=1
result tcheck/status-77-skips "$rc" "exit $rc: $(cat "$work/o")"
run "$TC" status -n demo -e "$work/s.err" 139
[ "$rc" -eq 1 ] && [ "$(head -n 1 "$work/o")" = "FAIL demo: exit status 139 (signal 11)" ] &&
    grep -qx '      needs 16 GiB' "$work/o" && rc=0 || rc=1
result tcheck/status-signal-fails "$rc" "exit $rc: $(tr '\n' '|' <"$work/o")"
run "$TC" status 0
[ "$rc" -eq 0 ] && [ ! -s "$work/o" ] && rc=0 || rc=1
result tcheck/status-0 "$rc" "exit $rc"
sed 's/^every result matched/no result matched/' "$fixtures/demo.out" >"$work/d.out"
run "$TC" check -n demo "$fixtures/demo.expect" "$work/none" "$work/d.out" 0
[ "$rc" -eq 1 ] && [ "$(head -n 1 "$work/o")" = "FAIL demo: 1 differing line" ] &&
    ! sed 1d "$work/o" | grep -qv '^    ' && rc=0 || rc=1
result tcheck/check-named-indents-details "$rc" "exit $rc: $(head -n 3 "$work/o" | tr '\n' '|')"
run "$TC" diff "$fixtures/demo.expect" "$work/d.out"
[ "$rc" -eq 1 ] && grep -q '^+no result matched' "$work/o" && rc=0 || rc=1
result tcheck/diff "$rc" "exit $rc"

# Memory is bounded by the expectation, not the output: 200 MB of output,
# as lines and as one line of NULs, under a 1 GiB address-space limit. The
# build's tcheck: AddressSanitizer alone reserves more than that.
printf 'ok\n' >"$work/big.expect"
yes ok | head -c 200000000 >"$work/big.out"
rc=0
# shellcheck disable=SC3045 # dash and bash both have ulimit -v
(ulimit -v 1048576 && exec "$TP" check "$work/big.expect" "$work/none" "$work/big.out" 0) \
    >"$work/o" 2>"$work/e" || rc=$?
[ "$rc" -eq 1 ] && [ "$(head -n 1 "$work/o")" = "FAIL: 66666666 differing lines" ] &&
    grep -q 'more lines (.* bytes) after line' "$work/o" && [ "$(wc -l <"$work/o")" -lt 60 ] && rc=0 || rc=1
result tcheck/memory-bounded-many-lines "$rc" "exit $rc: $(head -n 2 "$work/o" | tr '\n' '|')$(head -c 200 "$work/e")"
head -c 200000000 /dev/zero >"$work/big.out"
rc=0
# shellcheck disable=SC3045 # dash and bash both have ulimit -v
(ulimit -v 1048576 && exec "$TP" check "$work/big.expect" "$work/none" "$work/big.out" 0) \
    >"$work/o" 2>"$work/e" || rc=$?
[ "$rc" -eq 1 ] && [ "$(head -n 1 "$work/o")" = "FAIL: 1 differing line" ] &&
    grep -q '^+\\x00\\x00.*bytes more)$' "$work/o" && [ "$(wc -c <"$work/o")" -lt 10000 ] && rc=0 || rc=1
result tcheck/memory-bounded-one-long-line "$rc" "exit $rc: $(head -c 300 "$work/o" | tr '\n' '|')$(head -c 200 "$work/e")"
rm -f "$work/big.out"

unset MOCK_OUT FAKE_GPUINFO TOOLS BIN EVIDENCE GPUINFO NVCC COMMIT PC_PIDFILE SRC

# ---------------------------------------------------------------------
# The GPU bundle, made by hand ($bd, its tcheck built first, above): a
# stand-in nvcc "compiles" shell scripts.

printf '#!/bin/sh\ncat <<"END"\n%s\nEND\n' "$(cat "$fixtures/demo.out")" >"$bd/src/demo.cu"
printf '#!/bin/sh\necho "GPU: Fixture GPU X1"\necho "needs 16 GiB of device memory" >&2\nexit 77\n' >"$bd/src/skipper.cu"
cp "$fixtures/demo.expect" "$bd/evidence/"
"$TC" transcript "$work/h" "$fixtures/demo.out" >"$bd/evidence/demo/fixture-gpu-x1.txt"
printf 'GPU: {{gpu}}\n' >"$bd/evidence/skipper.expect"
mkdir -p "$bd/evidence/skipper"
printf 'GPU: Fixture GPU X1\n' >"$work/sk.out"
header "$work/hs" skipper "Fixture GPU X1"
echo "fingerprint: $("$TC" fingerprint -c "$work/fake-nvcc -std=c++17 -O3 -arch=sm_75 -o skipper skipper.cu" \
    -v "release 13.0, V13.0.88" "$bd/src/skipper.cu")" >>"$work/hs"
"$TC" transcript "$work/hs" "$work/sk.out" >"$bd/evidence/skipper/fixture-gpu-x1.txt"
sed -n '3,7p' "$work/h" >"$bd/gpuinfo.txt"
export FAKE_GPUINFO="$bd/gpuinfo.txt" FAKE_GPUINFO_PROG="$work/tools/fake-gpuinfo"
# make builds the programs and gpuinfo, and tcheck too, were it not built:
# its rule, which built it above, is one of what make makes (-W: as if
# tools/tcheck.c were new; -n: saying it, not doing it).
run bmake
rc2=$rc
bmake -n -W tools/tcheck.c >"$work/n" 2>&1
[ "$rc2" -eq 0 ] && [ -x "$bd/bin/demo" ] && [ -x "$bd/tools/gpuinfo" ] &&
    grep -qF -- "-o tools/tcheck tools/tcheck.c" "$work/n" && rc=0 || rc=1
result bundle/build "$rc" "exit $rc2: $(tail -n 3 "$work/e" | tr '\n' ' '); make -n -W tools/tcheck.c: $(head -n 3 "$work/n" | tr '\n' ' ')"
run bmake check
[ "$rc" -eq 0 ] && [ "$(tail -n 1 "$work/o")" = "1 passed, 0 failed, 1 skipped" ] &&
    grep -q "^SKIP skipper: needs 16 GiB of device memory$" "$work/o" && rc=0 || rc=1
result bundle/check "$rc" "$(tr '\n' '|' <"$work/o")$(tail -n 2 "$work/e")"
run bmake record PROG=demo
[ "$rc" -eq 0 ] && grep -q "^compile: $work/fake-nvcc -std=c++17 -O3 -arch=sm_75 -o demo demo.cu$" \
    "$bd/evidence/demo/fixture-gpu-x1.txt.pending" &&
    grep -q "^commit: 0123abc$" "$bd/evidence/demo/fixture-gpu-x1.txt.pending" &&
    grep -q "^nvcc: release 13.0, V13.0.88$" "$bd/evidence/demo/fixture-gpu-x1.txt.pending" &&
    grep -qxF "fingerprint: $("$TC" fingerprint -c "$work/fake-nvcc -std=c++17 -O3 -arch=sm_75 -o demo demo.cu" \
        -v "release 13.0, V13.0.88" "$bd/src/demo.cu")" "$bd/evidence/demo/fixture-gpu-x1.txt.pending" && rc=0 || rc=1
result bundle/record "$rc" "$(tr '\n' '|' <"$work/o")$(tail -n 2 "$work/e")"
run bmake accept PROG=demo
[ "$rc" -eq 0 ] && grep -q "^PASS demo$" "$work/o" && rc=0 || rc=1
result bundle/accept "$rc" "$(tr '\n' '|' <"$work/o")"
run bmake compare PROG=demo
[ "$rc" -eq 0 ] && grep -q "^PASS demo$" "$work/o" && grep -q "1.00" "$work/o" && rc=0 || rc=1
result bundle/compare "$rc" "$(tr '\n' '|' <"$work/o")"
run bmake verify PROG=demo OUTPUT="$fixtures/demo.out"
[ "$rc" -eq 0 ] && grep -q "^PASS demo$" "$work/o" && rc=0 || rc=1
result bundle/verify "$rc" "$(tr '\n' '|' <"$work/o")"
run bmake lint
[ "$rc" -eq 0 ] && [ "$(tail -n 1 "$work/o")" = "2 passed, 0 failed, 0 skipped" ] &&
    grep -qx "PASS fresh evidence/demo/fixture-gpu-x1.txt" "$work/o" && rc=0 || rc=1
result bundle/lint "$rc" "$(tr '\n' '|' <"$work/o")"
# The code changed after the record: the transcript is stale.
cp "$bd/src/demo.cu" "$work/demo.cu.keep"
echo 'echo one more line' >>"$bd/src/demo.cu"
run bmake lint
[ "$rc" -ne 0 ] && grep -qx "FAIL fresh evidence/demo/fixture-gpu-x1.txt: stale: demo.cu changed" "$work/o" &&
    grep -qF "record it again: make record PROG=demo on a GPU" "$work/o" && rc=0 || rc=1
result bundle/lint-stale "$rc" "$(tr '\n' '|' <"$work/o")"
cp "$work/demo.cu.keep" "$bd/src/demo.cu"
FAKE_NO_GPU=1 run bmake check
[ "$rc" -eq 0 ] && [ "$(tail -n 1 "$work/o")" = "0 passed, 0 failed, 2 skipped" ] && rc=0 || rc=1
result bundle/check-no-gpu "$rc" "$(tr '\n' '|' <"$work/o")"
unset FAKE_GPUINFO FAKE_GPUINFO_PROG

# Named holes: {{float:NAME}} matches as {{float}} does, and tcheck quotes
# gives each name's value with the transcript line it stands on; a name
# used twice in an expectation is refused.
nq=$work/quotes
mkdir -p "$nq/ev/q"
printf 'GPU: {{gpu}}\nrow a {{ms:a_ms}} ms {{float}} x\nrow b {{int:b_count}} and {{float:b_ratio}}\n' >"$nq/ev/q.expect"
{
    printf 'program: q\ndate: 2026-01-01T00:00:00Z\ngpu: Fixture GPU\ncompute capability: 1.0\nsms: 1\n'
    printf 'driver: 1 (CUDA 1.0)\nruntime: 1.0\nnvcc: release 1.0, V1.0.0\ncompile: nvcc -o q q.cu\ncommit: 0123abc\n'
    printf -- '--- output ---\nGPU: Fixture GPU\nrow a 1.25 ms 3 x\nrow b 42 and -0.5\n'
} >"$nq/ev/q/fixture-gpu.txt"
run "$TC" lint "$nq/ev/q.expect" "$nq/ev/q/fixture-gpu.txt"
result named-holes/lint "$rc" "$(head -n 2 "$work/o")"
run "$TC" quotes "$nq/ev/q.expect" "$nq/ev/q/fixture-gpu.txt"
printf 'a_ms\t1.25\t%s:13\nb_count\t42\t%s:14\nb_ratio\t-0.5\t%s:14\n' \
    "$nq/ev/q/fixture-gpu.txt" "$nq/ev/q/fixture-gpu.txt" "$nq/ev/q/fixture-gpu.txt" >"$nq/want"
[ "$rc" -eq 0 ] && cmp -s "$work/o" "$nq/want" && rc=0 || rc=1
result named-holes/quotes "$rc" "$(tr '\n' '|' <"$work/o")"
sed -i 's/{{float:b_ratio}}/{{float:a_ms}}/' "$nq/ev/q.expect"
run "$TC" quotes "$nq/ev/q.expect" "$nq/ev/q/fixture-gpu.txt"
[ "$rc" -eq 2 ] && grep -qxF "$nq/ev/q.expect:3: the hole name a_ms is taken already, on line 2; a name quotes one value" "$work/e" && rc=0 || rc=1
result named-holes/duplicate-name "$rc" "$(head -n 1 "$work/e")"
run "$TC" lint "$nq/ev/q.expect" "$nq/ev/q/fixture-gpu.txt"
[ "$rc" -eq 1 ] && grep -q "the hole name a_ms is taken already" "$work/o" && rc=0 || rc=1
result named-holes/duplicate-name-lint "$rc" "$(head -n 1 "$work/o")"
sed -i 's/{{float:a_ms}}/{{float:b_ratio}}/' "$nq/ev/q.expect"
sed -i 's/row a 1.25 ms/row a 1.5x ms/' "$nq/ev/q/fixture-gpu.txt"
run "$TC" quotes "$nq/ev/q.expect" "$nq/ev/q/fixture-gpu.txt"
[ "$rc" -eq 1 ] && rc=0 || rc=1
result named-holes/quotes-refuses-a-mismatch "$rc" "rc $rc: $(head -n 1 "$work/e")"
# A reader's bare output (no header, make compare's and make verify's):
# quotes -o gives the values of the lines that match, each at its line of
# the output, and fails where a line does not.
printf 'GPU: Reader GPU\nrow a 2.5 ms 4 x\nrow b 7 and 0.25\n' >"$nq/out"
run "$TC" quotes -o "$nq/ev/q.expect" "$nq/out"
printf 'a_ms\t2.5\t%s:2\nb_count\t7\t%s:3\nb_ratio\t0.25\t%s:3\n' "$nq/out" "$nq/out" "$nq/out" >"$nq/want"
[ "$rc" -eq 0 ] && cmp -s "$work/o" "$nq/want" && rc=0 || rc=1
result named-holes/quotes-of-an-output "$rc" "$(tr '\n' '|' <"$work/o")"
sed -i 's/row a 2.5 ms/row a 2.5x ms/' "$nq/out"
run "$TC" quotes -o "$nq/ev/q.expect" "$nq/out"
printf 'b_count\t7\t%s:3\nb_ratio\t0.25\t%s:3\n' "$nq/out" "$nq/out" >"$nq/want"
[ "$rc" -eq 1 ] && cmp -s "$work/o" "$nq/want" && rc=0 || rc=1
result named-holes/quotes-of-an-output-that-differs "$rc" "rc $rc: $(tr '\n' '|' <"$work/o")"
# What looks like a hole and is none ({{double:x}}, a hole left open) is
# named at its line of the expectation, by quotes (whose failure make
# shows) and by the lint, with the holes there are.
sed -i 's/row a 2.5x ms/row a 2.5 ms/' "$nq/out"
for bad in '{{double:a_ms}}' '{{ms:a_ms'; do
    sed "2s/{{ms:a_ms}}/$bad/" "$nq/ev/q.expect" >"$nq/bad.expect"
    run "$TC" quotes "$nq/bad.expect" "$nq/ev/q/fixture-gpu.txt"
    q_rc=$rc q_e=$(head -n 1 "$work/e")
    run "$TC" lint "$nq/bad.expect" "$nq/ev/q/fixture-gpu.txt"
    case $q_e in "$nq/bad.expect:2: $bad is not a hole"*) ok=1 ;; *) ok=0 ;; esac
    [ "$q_rc" -eq 1 ] && [ "$ok" -eq 1 ] && [ "$rc" -eq 1 ] &&
        grep -qF "$nq/bad.expect:2: $bad is not a hole" "$work/o" && rc=0 || rc=1
    result "named-holes/not-a-hole-named-at-its-line ($bad)" "$rc" "quotes rc $q_rc: $q_e"
done

# ---------------------------------------------------------------------
# Fingerprints: what enters one, and the check of a transcript against
# the code it measured (tcheck fingerprint, tcheck fresh).

fp=$work/fp
mkdir -p "$fp/a" "$fp/b"
cat >"$fp/a/prog.cu" <<'EOF'
// A program.
#include <cstdio>
#include "tile.cuh"

/* The kernel:
   one block. */
__global__ void k(int *out) {
    out[0] = kTile;   // the tile
}

int main() {
    std::printf("two  blanks // kept\n");
    return 0;
}
EOF
printf 'constexpr int kTile = 256;\n' >"$fp/a/tile.cuh"
# The same code laid out otherwise, its comments rewritten.
cat >"$fp/b/prog.cu" <<'EOF'
#include <cstdio>
#include   "tile.cuh"
// snippet: the-kernel
__global__   void k(int *out) {
        out[0] = kTile; /* the tile, another comment */
}
// end snippet


int main() {
  std::printf("two  blanks // kept\n");
  return 0;
}
EOF
cp "$fp/a/tile.cuh" "$fp/b/"
FPC="nvcc -std=c++17 -O3 -arch=sm_75 -o prog prog.cu"
FPV="release 13.0, V13.0.88"
fpa=$("$TC" fingerprint -c "$FPC" -v "$FPV" "$fp/a/prog.cu" 2>"$work/e")
fpb=$("$TC" fingerprint -c "$FPC" -v "$FPV" "$fp/b/prog.cu" 2>>"$work/e")
case $fpa in
    [0-9a-f]*' (prog.cu '*', tile.cuh '*', compile '*', nvcc '*')') rc=0 ;;
    *) rc=1 ;;
esac
result fingerprint/shape "$rc" "$fpa $(head -n 1 "$work/e")"
[ -n "$fpa" ] && [ "$fpa" = "$fpb" ] && rc=0 || rc=1
result fingerprint/comments-blank-lines-and-layout-do-not-enter "$rc" "$fpa / $fpb"
# fpdiff NAME EDIT: the fingerprint of b after the sed EDIT of b/prog.cu
# differs from a's.
fpdiff() {
    cp "$fp/b/prog.cu" "$fp/keep"
    sed -i "$2" "$fp/b/prog.cu"
    f=$("$TC" fingerprint -c "$FPC" -v "$FPV" "$fp/b/prog.cu")
    cp "$fp/keep" "$fp/b/prog.cu"
    [ -n "$f" ] && [ "$f" != "$fpa" ] && rc=0 || rc=1
    result "fingerprint/$1" "$rc" "unchanged: $f"
}
fpdiff code-changes-it 's/out\[0\] = kTile;/out[0] = kTile + 1;/'
fpdiff blanks-in-a-string-are-code 's/two  blanks/two blanks/'
fpdiff a-comment-marker-in-a-string-is-code 's|// kept|// kept!|'
fpdiff a-line-joined-changes-it '/^int main() {$/{N;s/\n */ /}'
f=$("$TC" fingerprint -c "/usr/local/cuda/bin/$FPC" -v "$FPV" "$fp/a/prog.cu")
[ "$f" = "$fpa" ] && rc=0 || rc=1
result fingerprint/where-nvcc-is-installed-does-not-enter "$rc" "$f"
f=$("$TC" fingerprint -c "nvcc -std=c++17 -O2 -arch=sm_75 -o prog prog.cu" -v "$FPV" "$fp/a/prog.cu")
[ "$f" != "$fpa" ] && rc=0 || rc=1
result fingerprint/compile-line-enters "$rc" "$f"
f=$("$TC" fingerprint -c "$FPC" -v "release 12.9, V12.9.41" "$fp/a/prog.cu")
[ "$f" != "$fpa" ] && rc=0 || rc=1
result fingerprint/nvcc-version-enters "$rc" "$f"
printf 'constexpr int kTile = 128;\n' >"$fp/b/tile.cuh"
f=$("$TC" fingerprint -c "$FPC" -v "$FPV" "$fp/b/prog.cu")
cp "$fp/a/tile.cuh" "$fp/b/tile.cuh"
[ "$f" != "$fpa" ] && rc=0 || rc=1
result fingerprint/an-included-file-of-the-book-enters "$rc" "$f"
printf 'scan_2 --quick\n' >"$fp/r.run"
f=$("$TC" fingerprint -c "$FPC" -v "$FPV" -x "$fp/r.run" "$fp/a/prog.cu")
case $f in *'(prog.cu '*', tile.cuh '*', r.run '*', compile '*) rc=0 ;; *) rc=1 ;; esac
result fingerprint/a-runs-line-enters "$rc" "$f"
run "$TC" fingerprint -c "$FPC" -v "$FPV" "$fp/none.cu"
[ "$rc" -eq 2 ] && grep -q "none.cu: cannot open" "$work/e" && rc=0 || rc=1
result fingerprint/missing-source "$rc" "rc $rc $(head -n 1 "$work/e")"

# fresh: a transcript with a's fingerprint, held to a's code and b's.
printf 'GPU: Fixture GPU\n' >"$fp/out"
header "$fp/h" prog "Fixture GPU"
echo "fingerprint: $fpa" >>"$fp/h"
"$TC" transcript "$fp/h" "$fp/out" >"$fp/t.txt"
mkdir -p "$fp/ev/prog"
cp "$fp/out" "$fp/ev/prog.expect"
cp "$fp/t.txt" "$fp/ev/prog/fixture-gpu.txt"
run "$TC" lint "$fp/ev/prog.expect" "$fp/ev/prog/fixture-gpu.txt"
[ "$rc" -eq 0 ] && rc=0 || rc=1
result fresh/a-fingerprint-line-lints "$rc" "$(head -n 3 "$work/o" | tr '\n' ' ')"
run "$TC" fresh -n prog -w chapters/x.nw:42 -c "$FPC" "$fp/b/prog.cu" "$fp/t.txt"
[ "$rc" -eq 0 ] && [ "$(cat "$work/o")" = "PASS prog" ] && rc=0 || rc=1
result fresh/same-code-passes "$rc" "$(tr '\n' ' ' <"$work/o")"
sed -i 's/kTile;/kTile * 2;/' "$fp/b/prog.cu"
run "$TC" fresh -n prog -w chapters/x.nw:42 -c "$FPC" "$fp/b/prog.cu" "$fp/t.txt"
[ "$rc" -eq 1 ] && grep -qx "FAIL prog: stale: prog.cu changed" "$work/o" &&
    grep -qF "    chapters/x.nw:42: $fp/t.txt measured other code than today's: prog.cu changed since commit 0123abc; record it again: make record PROG=prog on a GPU, then make accept PROG=prog" "$work/o" &&
    rc=0 || rc=1
result fresh/changed-code-fails-at-the-chapter-line "$rc" "$(tr '\n' '|' <"$work/o")"
cp "$fp/keep" "$fp/b/prog.cu"
printf 'constexpr int kTile = 64;\n' >"$fp/b/tile.cuh"
run "$TC" fresh -n prog -c "$FPC" "$fp/b/prog.cu" "$fp/t.txt"
[ "$rc" -eq 1 ] && grep -qx "FAIL prog: stale: tile.cuh changed" "$work/o" && rc=0 || rc=1
result fresh/names-the-changed-file "$rc" "$(tr '\n' '|' <"$work/o")"
rm "$fp/b/tile.cuh"
run "$TC" fresh -n prog -c "$FPC" "$fp/b/prog.cu" "$fp/t.txt"
[ "$rc" -eq 1 ] && grep -qx "FAIL prog: stale: it no longer includes tile.cuh" "$work/o" && rc=0 || rc=1
result fresh/names-a-file-no-longer-included "$rc" "$(tr '\n' '|' <"$work/o")"
cp "$fp/a/tile.cuh" "$fp/b/tile.cuh"
run "$TC" fresh -n prog -r "make profile PROG=prog_ncu" -c "nvcc -std=c++17 -O0 -arch=sm_75 -o prog prog.cu" "$fp/b/prog.cu" "$fp/t.txt"
[ "$rc" -eq 1 ] && grep -qx "FAIL prog: stale: the compile line changed" "$work/o" &&
    grep -qF "record it again: make profile PROG=prog_ncu on a GPU" "$work/o" && rc=0 || rc=1
result fresh/compile-line-and-the-command-given "$rc" "$(tr '\n' '|' <"$work/o")"
run "$TC" fresh -n prog -h "release 13.1, V13.1.1" -c "$FPC" "$fp/b/prog.cu" "$fp/t.txt"
[ "$rc" -eq 3 ] && grep -qx "PASS prog (warning: recorded with nvcc release 13.0, V13.0.88, this machine's is release 13.1, V13.1.1)" "$work/o" && rc=0 || rc=1
result fresh/another-nvcc-here-warns "$rc" "$(tr '\n' '|' <"$work/o")"
sed 's/^nvcc: .*/nvcc: release 12.0, V12.0.1/' "$fp/t.txt" >"$fp/t2.txt"
run "$TC" fresh -n prog -c "$FPC" "$fp/b/prog.cu" "$fp/t2.txt"
[ "$rc" -eq 1 ] && grep -qx "FAIL prog: stale: the nvcc: line changed" "$work/o" && rc=0 || rc=1
result fresh/nvcc-line-held-to-the-fingerprint "$rc" "$(tr '\n' '|' <"$work/o")"
sed '/^fingerprint: /d' "$fp/t.txt" >"$fp/t3.txt"
run "$TC" fresh -n prog -w chapters/x.nw:42 -c "$FPC" "$fp/b/prog.cu" "$fp/t3.txt"
[ "$rc" -eq 1 ] && grep -qx "FAIL prog: stale: no fingerprint says which code it measured" "$work/o" &&
    grep -qF "chapters/x.nw:42: $fp/t3.txt was recorded before" "$work/o" && rc=0 || rc=1
result fresh/no-fingerprint-is-stale "$rc" "$(tr '\n' '|' <"$work/o")"
sed 's/^fingerprint: .*/fingerprint: 0123 (prog.cu 1)/' "$fp/t.txt" >"$fp/ev/prog/fixture-gpu.txt"
run "$TC" lint "$fp/ev/prog.expect" "$fp/ev/prog/fixture-gpu.txt"
[ "$rc" -eq 1 ] && grep -q "fixture-gpu.txt:11: fingerprint is not HASH" "$work/o" && rc=0 || rc=1
result fresh/a-malformed-fingerprint-fails-lint "$rc" "$(tr '\n' '|' <"$work/o")"
printf 'extra: 1\n' | sed "11r /dev/stdin" "$fp/t.txt" >"$fp/ev/prog/fixture-gpu.txt"
run "$TC" lint "$fp/ev/prog.expect" "$fp/ev/prog/fixture-gpu.txt"
[ "$rc" -eq 1 ] && grep -q "unknown header line" "$work/o" && rc=0 || rc=1
result fresh/a-line-after-the-fingerprint-fails-lint "$rc" "$(tr '\n' '|' <"$work/o")"

# ---------------------------------------------------------------------
# amalgamate.sh, which makes that one file, on a small fixture: each quoted
# #include in place once, found beside its file or in a -I folder, whose
# header brings its source after the files; a missing one said in a line.

AM="$root/tools/evidence/amalgamate.sh"
am=$work/am
mkdir -p "$am/src" "$am/lib"
printf '#ifndef TWICE_H\n#define TWICE_H\nstatic int twice(int x) { return 2 * x; }\n#endif\n' >"$am/src/twice.h"
printf '#include "twice.h"\n#include "lib.h"\nint half(int x);\n' >"$am/src/part.h"
printf '#include "part.h"\n#include <stdio.h>\nint main(void) { printf("%%d\\n", twice(half(21))); return 0; }\n' >"$am/src/main.c"
printf '#include "part.h"\n#include "twice.h"\nint half(int x) { return lib_one() * x / twice(1); }\n' >"$am/src/half.c"
printf 'int lib_one(void);\n' >"$am/lib/lib.h"
printf '#include "lib.h"\nint lib_one(void) { return 1; }\n' >"$am/lib/lib.c"
rc=0
(cd "$am" && sh "$AM" -I lib src/main.c src/half.c >all.c 2>err && mkdir alone && mv all.c alone/ &&
    cd alone && $CC -std=c11 -Wall -Wextra -Werror -pedantic -o all all.c && [ "$(./all)" = 20 ]) || rc=1
[ "$rc" -eq 0 ] && [ "$(grep -c 'define TWICE_H' "$am/alone/all.c")" -eq 1 ] &&
    [ "$(grep -c '^int lib_one(void) {' "$am/alone/all.c")" -eq 1 ] &&
    [ "$(grep -n '^/\* --- ' "$am/alone/all.c" | tail -n 1 | cut -d' ' -f3)" = lib/lib.c ] || rc=1
result amalgamate/each-include-once-and-the-library-source "$rc" "$(head -c 300 "$am/err")"
printf '/* a part */\n#include <stdio.h>\n#include "gone.h"\n' >"$am/src/bad.c"
run sh "$AM" -I "$am/lib" "$am/src/main.c" "$am/src/bad.c"
got=$rc
[ "$rc" -eq 2 ] && [ "$(wc -l <"$work/e")" -eq 1 ] &&
    grep -qx "$am/src/bad.c:3: cannot find \"gone.h\": it is not beside $am/src/bad.c, nor in $am/lib" "$work/e" &&
    rc=0 || rc=1
result amalgamate/a-missing-include-in-one-line "$rc" "exit $got: $(head -c 300 "$work/e")"

if command -v shellcheck >/dev/null 2>&1; then
    run shellcheck -s sh "$PC" "$AM" "$0"
    result shellcheck "$rc" "$(head -n 5 "$work/o" | tr '\n' ' ')"
fi

echo "$npass passed, $nfail failed"
[ "$nfail" -eq 0 ]
