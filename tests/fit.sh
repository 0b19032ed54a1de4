#!/bin/bash
# The T4 fit (tools/book/t4-fit.c): first on fixtures whose numbers are
# worked out by hand, under ASan and UBSan; then every program of the book,
# one line each, failing where a kernel cannot run one block on a Tesla T4.
#
# tests/fixtures/t4-fit/fits.ptxas and fits.ptx are a made-up program, in
# the form ptxas and nvcc -ptx write, with a kernel for each limit:
#   kernel         threads regs smem   blocks/SM  limited by       occupancy
#   warp_bound       1024   30  32768      1      warps               100%
#   reg_bound         160   80      0      4      registers          62.5%
#     (80 regs: 2560 a warp; a sub-partition, 16384, holds 6 warps, the SM
#      24; 24 / 5 warps = 4 blocks; 65536 / (2560 * 5) would say 5)
#   smem_bound  32x4=128   16  20000      3      shared memory      37.5%
#     (20000 rounds up to 20224; 65536 / 20224 = 3)
#   block_bound  (reqntid)32  8      0     16      blocks               50%
#   round_regs         64   73      0     12      registers            75%
#     (73 regs: 2336 a warp, rounded up to 2560: 6 warps a sub-partition,
#      24 the SM, 12 blocks of 2 warps; unrounded it would be 7, 28, 14)
#   kernel<TileShape<256, 16, true>, CooperativeLookback<0u>>
#                     256   46  16940      3      shared memory        75%
#     (16940 rounds up to 17152: 65536 / 17152 = 3; 46 regs: 1536 a warp,
#      10 warps a sub-partition, 40 the SM, 5 blocks of 8 warps)
#   cub::detail::EmptyKernel<void>: no bound; 4 regs, no smem
#   tile<-3, unsigned long>  96   24   0     10      warps            93.75%
#   plainC (extern "C") 512   32  24576      2      warps and shared memory 100%
#   loadHTMLDoc        64  255      0      4      registers            25%
#     (255 regs: 8160, rounded up to 8192 a warp: 2 a sub-partition, 8 the
#      SM, 4 blocks of 2 warps)
# fits.tsv holds the values these give, fits.md the page's section.
# unfit.* holds kernels that cannot run one block: 1024 threads of 72
# registers (2304 a warp, 32 warps: 73728 registers), 2048 threads, and
# 50000 bytes of shared memory (50176 allocated, over 48 KiB); unfit.msg is
# what check must say.
set -uo pipefail
cd "$(dirname "$0")/.." || exit
. tests/lib.sh
B=${B:-build}
fx=tests/fixtures/t4-fit
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export ASAN_OPTIONS=abort_on_error=0:detect_leaks=1
# UBSan stops a tool with a status of its own, 86, which no case expects:
# with the default, 1, a report would pass a case that wants the tool to
# fail.
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=86
fit=$tmp/t4-fit
sanitized "$tmp" t4-fit || exit 1

# same NAME WANT-FILE COMMAND...: the command succeeds and prints WANT-FILE.
same() {
    local name=$1 want=$2
    shift 2
    if ! "$@" >"$tmp/out" 2>"$tmp/err"; then
        fail "$name" "exit status $?: $(head -2 "$tmp/err" | tr '\n' ' ')"
    elif ! diff -u "$want" "$tmp/out" >"$tmp/diff"; then
        fail "$name" "output differs from $want"
        head -20 "$tmp/diff"
    else
        pass "$name"
    fi
}
same "t4-fit values of the fixture, worked out by hand" "$fx/fits.tsv" \
    "$fit" values fits "$fx/fits.ptxas" "$fx/fits.ptx"
same "t4-fit table of the fixture" "$fx/fits.md" \
    "$fit" table -c fitting fits "$fx/fits.ptxas" "$fx/fits.ptx"
# A table of more kernels than a screenful (a sweep's instances) folds
# behind "Show all"; one of twelve does not.
many() { # N: a program of N kernels, k10, k11, ..., as PTXAS and PTX
    : >"$tmp/many.ptxas"
    : >"$tmp/many.ptx"
    for ((i = 10; i < 10 + $1; ++i)); do
        printf "ptxas info    : Compiling entry function '_Z3k%dv' for 'sm_75'\nptxas info    : Used 8 registers, 384 bytes cmem[0]\n" "$i" >>"$tmp/many.ptxas"
        printf '.visible .entry _Z3k%dv(\n)\n.maxntid 32, 1, 1\n{\n}\n' "$i" >>"$tmp/many.ptx"
    done
}
many 13
"$fit" table many "$tmp/many.ptxas" "$tmp/many.ptx" >"$tmp/out13" 2>"$tmp/err"
many 12
"$fit" table many "$tmp/many.ptxas" "$tmp/many.ptx" >"$tmp/out12" 2>>"$tmp/err"
if grep -q '^<summary>Show all 13 kernels</summary>$' "$tmp/out13" && [ "$(grep -c '^| <code' "$tmp/out13")" -eq 13 ] &&
   grep -q '^</details>$' "$tmp/out13" && ! grep -q 'details' "$tmp/out12" && [ "$(grep -c '^| <code' "$tmp/out12")" -eq 12 ]; then
    pass "t4-fit folds a table of more than 12 kernels behind Show all"
else
    fail "t4-fit folds a table of more than 12 kernels behind Show all" "$(head -2 "$tmp/err") $(grep -c '^| ' "$tmp/out13") rows"
fi
same "t4-fit check passes the kernels that fit" /dev/null \
    "$fit" check fits "$fx/fits.ptxas" "$fx/fits.ptx"

# rejects NAME WANT COMMAND...: the command fails with exit status 1 and
# says WANT (a file's text) on stderr.
rejects() {
    local name=$1 want=$2
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    if [ "$rc" -ne 1 ]; then
        fail "$name" "exit status $rc, want 1: $(head -2 "$tmp/err" | tr '\n' ' ')"
    elif [ "$(cat "$tmp/err")" != "$want" ]; then
        fail "$name" "said '$(head -3 "$tmp/err" | tr '\n' ' ')', want '$want'"
    else
        pass "$name"
    fi
}
rejects "t4-fit check names each kernel that cannot run one block, and why" \
    "$(cat "$fx/unfit.msg")" "$fit" check unfit "$fx/unfit.ptxas" "$fx/unfit.ptx"
sed 's/_Z9warpBoundPf(/_Z5otherv(/' "$fx/fits.ptx" >"$tmp/other.ptx"
rejects "t4-fit rejects PTX and a report that disagree, naming both sides" \
    "$tmp/other.ptx:99: kernel _Z5otherv is not in ptxas's report $fx/fits.ptxas
$fx/fits.ptxas:2: kernel _Z9warpBoundPf is not in the PTX $tmp/other.ptx" \
    "$fit" values fits "$fx/fits.ptxas" "$tmp/other.ptx"
sed 's/_Z9roundRegsPf/_Z9warpBoundPf/' "$fx/fits.ptxas" >"$tmp/twice.ptxas"
rejects "t4-fit rejects a kernel reported twice" \
    "$tmp/twice.ptxas:22: kernel _Z9warpBoundPf is reported twice" \
    "$fit" values fits "$tmp/twice.ptxas" "$fx/fits.ptx"
for f in ptxas ptx; do
    sed 's/_Z9smemBoundPf/_Z9roundRegsPKf/' "$fx/fits.$f" >"$tmp/alike.$f"
done
rejects "t4-fit rejects two kernels of one ID" \
    "$tmp/alike.ptxas:22: kernels roundRegs(float const*) and roundRegs(float*) both have the ID round_regs; rename one" \
    "$fit" values fits "$tmp/alike.ptxas" "$tmp/alike.ptx"

# Every program of the book that runs on a T4 (FITS): its fit, as make
# wrote it from the sm_75 code; one built for a later GPU (NOFIT) has none.
read -r -a nofit <<<"${NOFIT:-}"
for p in "${nofit[@]}"; do
    skip "$p fits a Tesla T4" "built for a later GPU (tools/compile.mk); it exits 77 on a T4"
done
read -r -a programs <<<"${FITS:-}"
for p in "${programs[@]}"; do
    name="$p fits a Tesla T4: every kernel runs at least one block"
    if [ -z "${NVCC:-}" ]; then
        skip "$name" "nvcc not found: no sm_75 code to read"
    elif [ ! -f "$B/fit/$p.ptxas" ] || [ ! -f "$B/fit/$p.ptx" ]; then
        fail "$name" "$B/fit/$p.ptxas or .ptx is missing (make fit)"
    elif "$fit" check "$p" "$B/fit/$p.ptxas" "$B/fit/$p.ptx" 2>"$tmp/err"; then
        pass "$name"
    else
        fail "$name" "$(tr '\n' ' ' <"$tmp/err")"
    fi
done
exit "$failed"
