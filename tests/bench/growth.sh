#!/bin/bash
# A benchmark: how make and make check grow with the book. For each size N
# (default 5 10 20) a copy of the book with N chapters is built from
# nothing (make -j2) and checked (make -j2 check), and the seconds of each
# are printed: make check against the clean make (their ratio), and the
# cost of each chapter added past the first size as a share of make check
# at that size, in wall seconds and in CPU seconds (the second hardly moves
# when other work shares the machine). Reports; asserts nothing. With the book's own size alone
# (tests/bench/growth.sh 5) it is the ratio of make check on a built tree
# to a clean make -j2 of the book, side by side in one run.
#
# usage: tests/bench/growth.sh [N...]
#
# The chapters past the book's own are copies of them, in the book's
# order, each with its files, programs, runs, profiles, figures and labels
# renamed (scan_2.cu becomes scan_2_c2.cu, blelloch-sweeps
# blelloch-sweeps-c2) and its evidence copied under the new names, built
# as its original is (ARCH.PROG and LIBS.PROG in tools/compile.mk), and its
# transcripts given the fingerprint of the copy's code, which is the
# original's renamed; a copy cites the original's chapters as the original
# does. To weave without
# compiling, run it with a PATH that has no nvcc (NVCC=other-name would
# name another compiler in every compile line, and every transcript's
# fingerprint would then read as stale).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit
. tests/lib.sh
[ $# -gt 0 ] || set -- 5 10 20
read -r -a book <<<"$(sed -n 's/^CHAPTERS := //p' Makefile)"
[ -d "${B:-build}/meta" ] || { echo "growth.sh: build the book first (make): the copies are named from build/meta" >&2; exit 1; }

tmp=$(mktemp -d)

# copy_chapter SRC K DIR: chapter SRC as its K-th copy, SRC-cK, in the book
# at DIR, with its evidence and its registry lines.
copy_chapter() {
    local src=$1 k=$2 dir=$3 s=_c$2 name=$1-c$2
    local lines=${B:-build}/meta/$src.lines sed=$tmp/rename.pl root base p r f
    : >"$sed"
    for root in $(awk -F'\t' '$1 == "root" { print $2 }' "$lines"); do
        base=${root%.*}
        case $root in
            fig-*.cpp) f=${base#fig-}
                       printf 's#fig-%s\\.cpp#fig-%s-c%s.cpp#g\ns#fig/%s\\.svg#fig/%s-c%s.svg#g\n' \
                           "$f" "$f" "$k" "$f" "$f" "$k" >>"$sed" ;;
            *.cu) p=$base
                  # A name, not a part of a word or of a path
                  # (<cub/device/device_scan.cuh> is not the program).
                  printf 's/(?<![\\w\/])%s(?!\\w)/%s%s/g\ns/(?<![\\w\/])%s_ncu(?!\\w)/%s%s_ncu/g\n' \
                      "$p" "$p" "$s" "$p" "$p" "$s" >>"$sed"
                  # Built as its original is: for its GPU, with its
                  # libraries (ARCH.PROG, LIBS.PROG).
                  sed -n "s/^\(ARCH\|LIBS\)\.$p = /\1.$p$s = /p" tools/compile.mk >>"$dir/tools/compile.mk"
                  for r in evidence/*.run; do
                      [ "$(awk '{ print $1; exit }' "$r")" = "$p" ] || continue
                      r=$(basename "$r" .run)
                      printf 's/(?<![\\w\/])%s(?!\\w)/%s%s/g\n' "$r" "$r" "$s" >>"$sed"
                  done ;;
            *) printf 's/(?<![\\w\/])%s\\.%s(?!\\w)/%s%s.%s/g\n' "$base" "${root##*.}" "$base" "$s" "${root##*.}" >>"$sed" ;;
        esac
    done
    for r in $(awk -F'\t' '$1 == "label" { print $2 }' "$lines"); do
        printf 's/<<%s>>/<<%s-c%s>>/g\n' "$r" "$r" "$k" >>"$sed"
        printf '%s-c%s\t%s\n' "$r" "$k" "$name" >>"$dir/chapters/labels.tsv"
        # Its code is its original's: so is the fingerprint of revision 1.
        awk -F'\t' -v OFS='\t' -v l="$r" -v c="$r-c$k" '$1 == l && NF == 4 { d = $3; f = $4 }
            END { print c, 1, d, f }' chapters/labels.tsv >>"$dir/chapters/labels.tsv"
    done
    sed -i 's/$/;/' "$sed" # one perl statement a line
    perl -p "$sed" "chapters/$src.nw" >"$dir/chapters/$name.nw"
    # The evidence of its programs, profiles and runs, under their new names.
    for f in evidence/*; do
        local new
        new=evidence/$(basename "$f" | perl -p "$sed")
        [ "$new" = "$f" ] && continue
        if [ -d "$f" ]; then
            mkdir -p "$dir/$new"
            for t in "$f"/*.txt; do perl -p "$sed" "$t" >"$dir/$new/$(basename "$t")"; done
        else
            perl -p "$sed" "$f" >"$dir/$new"
        fi
    done
}

# The CPU seconds of a command and everything it starts, chromium's
# processes too (they leave the process tree, so time(1) misses them): a
# cpuacct control group of its own, where one can be made (root, cgroup v1's
# cpuacct mounted). On a machine busy with other work the wall seconds
# stretch and the CPU seconds hardly move, so the growth is also worked out
# from them. Without such a group the CPU columns say "-".
cpuacct=/sys/fs/cgroup/cpuacct
cg=
if [ -w "$cpuacct" ] && [ -f "$cpuacct/cpuacct.usage" ] && mkdir "$cpuacct/growth-$$" 2>/dev/null; then
    cg=$cpuacct/growth-$$
fi
# Stopped part-way, it stops what it started too: a group's test whose
# make was killed would run on, in a book taken away, beside the next work.
cleanup() {
    if [ -n "$cg" ]; then
        local p i
        for i in 1 2 3; do
            for p in $(cat "$cg/cgroup.procs" 2>/dev/null); do kill "$p" 2>/dev/null; done
            [ -s "$cg/cgroup.procs" ] || break
            sleep 1
        done
        rmdir "$cg" 2>/dev/null || :
    fi
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# seconds CMD...: runs CMD, its output to $tmp/log, and prints its wall
# seconds, then its CPU seconds ("-" without a control group) in $tmp/cpu.
# A make that fails ends the benchmark; a check that fails is timed all the
# same, its closing line shown.
seconds() {
    local start=$EPOCHREALTIME used=0
    [ -z "$cg" ] || used=$(cat "$cg/cpuacct.usage")
    if ! ( [ -z "$cg" ] || echo "$BASHPID" >"$cg/cgroup.procs"; exec "$@" ) >"$tmp/log" 2>&1 &&
       [ "${*: -1}" != check ]; then
        echo "growth.sh: $* failed: $(tail -3 "$tmp/log" | tr '\n' ' ')" >&2
        exit 1
    fi
    awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f\n", b - a }'
    if [ -n "$cg" ]; then
        awk -v a="$used" -v b="$(cat "$cg/cpuacct.usage")" 'BEGIN { printf "%.0f\n", (b - a) / 1e9 }' >"$tmp/cpu"
    else
        echo - >"$tmp/cpu"
    fi
}

# growth A F N M: what each chapter added past the first size cost, as a
# share of the first size's cost F: check A at N chapters, M at the first.
growth() {
    awk -v c="$1" -v f="$2" -v n="$3" -v m="$4" 'BEGIN {
        if (c == "-" || f == "-" || n == m) print "-"; else printf "%.1f%%", 100 * (c - f) / (n - m) / f }'
}
printf '%-9s %8s %12s %8s %12s %11s %7s   %s\n' chapters make "per chapter" check "per chapter" "check/make" growth \
    "CPU seconds: make, check, growth  [closing line]"
echo "(growth: what each chapter added past the first size costs make check, as a share of make check at the first size)"
first_n= first_check= first_cpu=
declare -A groups
for n in "$@"; do
    dir=$tmp/book$n
    rm -rf "$dir" && mkdir -p "$dir"
    cp -R Makefile tools styles chapters evidence tests "$dir"/
    # The browser test's playwright-core, as installed here, saves an npm ci.
    [ -d "${B:-build}/browser" ] && mkdir -p "$dir/build" && cp -R "${B:-build}/browser" "$dir/build/"
    chapters=()
    for ((i = 0; i < n; ++i)); do
        src=${book[i % ${#book[@]}]}
        k=$((i / ${#book[@]} + 1))
        if [ "$k" -eq 1 ]; then chapters+=("$src"); else copy_chapter "$src" "$k" "$dir"; chapters+=("$src-c$k"); fi
    done
    sed -i "s/^CHAPTERS := .*/CHAPTERS := ${chapters[*]}/" "$dir/Makefile"
    # The clean make, in two steps timed together: the tangle, and the
    # rest. Between them, untimed, each copy's transcripts are given the
    # fingerprint of the copy's code (the original's renamed), so that they
    # read as fresh, as their originals do.
    m1=$(seconds make -C "$dir" -j2 tangle) || exit 1
    u1=$(cat "$tmp/cpu")
    for e in "$dir"/evidence/*_c[0-9]*/; do
        [ -d "$e" ] || continue
        p=$(basename "$e")
        fp=$(make -s -C "$dir" fingerprint PROG="$p" | tail -n 1)
        [[ $fp =~ ^[0-9a-f]{16}\ \( ]] || { echo "growth.sh: no fingerprint of $p: $fp" >&2; exit 1; }
        for t in "$e"*.txt; do
            sed -i "s/^fingerprint: .*/fingerprint: $fp/" "$t"
        done
    done
    m=$(seconds make -C "$dir" -j2) || exit 1
    m=$((m1 + m))
    u=$(cat "$tmp/cpu")
    [ "$u" = - ] || u=$((u1 + u))
    c=$(seconds make -C "$dir" -j2 check) || exit 1
    v=$(cat "$tmp/cpu")
    closing=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$tmp/log" | tail -n 1)
    grep '^FAIL' "$tmp/log" | head -5 >&2
    [ -n "$first_n" ] || first_n=$n first_check=$c first_cpu=$v
    # Where make check's time went, group by group (check.sh's lines).
    # Each group as NAME WALL/CPU.
    groups[$n]=$(sed -n 's/^  (tests\/\([a-z]*\)[./].*: \([0-9]*\) s, \([0-9]*\) CPU-s)$/\1 \2\/\3/p' "$tmp/log" | tr '\n' ' ')
    printf '%-9s %8s %12s %8s %12s %11s %7s   %s, %s, %s  [%s]\n' "$n" "$m s" "$(awk -v a="$m" -v n="$n" 'BEGIN { printf "%.1f s", a / n }')" \
        "$c s" "$(awk -v a="$c" -v n="$n" 'BEGIN { printf "%.1f s", a / n }')" \
        "$(awk -v c="$c" -v m="$m" 'BEGIN { printf "%.2f", c / m }')" "$(growth "$c" "$first_check" "$n" "$first_n")" \
        "$u" "$v" "$(growth "$v" "$first_cpu" "$n" "$first_n")" "$closing"
    rm -rf "$dir"
done
# group_seconds GROUP N: the group's seconds in the check of N chapters,
# WALL/CPU.
group_seconds() {
    awk -v g="$1" '{ for (i = 1; i < NF; i += 2) if ($i == g) print $(i + 1) }' <<<"${groups[$2]}"
}
# Each group's seconds at each size, and its growth per added chapter as a
# share of the whole make check at the first size, in CPU seconds (under
# -j2 a group's wall seconds depend on which group shares the machine).
echo
echo "make check's groups (wall/CPU seconds at each size; growth per added chapter in CPU seconds, of check's at the first size)"
for g in $(tr ' ' '\n' <<<"${groups[$1]}" | awk 'NR % 2'); do
    line=$(printf '%-10s' "$g")
    for n in "$@"; do
        line+=$(printf ' %9s' "$(group_seconds "$g" "$n")")
    done
    if [ $# -gt 1 ] && [ "$first_cpu" != - ]; then
        a=$(group_seconds "$g" "$1")
        z=$(group_seconds "$g" "${*: -1}")
        line+=$(awk -v a="${a#*/}" -v z="${z#*/}" -v f="$first_cpu" -v m="$1" -v n="${*: -1}" \
            'BEGIN { printf "   %+.1f%%", 100 * (z - a) / (n - m) / f }')
    fi
    echo "$line"
done
