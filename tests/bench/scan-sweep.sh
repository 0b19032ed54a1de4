#!/bin/sh
# Benchmark, not a test: times the device-scan chapter's three device-wide
# scans over a grid of tile shapes and prints a table. It asserts nothing
# about speed. A shape that computes a wrong scan prints "wrong", is not
# timed, and makes the run exit 1.
#
# The kernels are the chapter's own: the chunk <<Scan Library>> of
# chapters/device-scan.nw is tangled into DIR/device_scan_lib.cuh, and
# tests/bench/scan-sweep.cu includes it. The shapes the chapter runs
# (<<Variant Shapes>>) were chosen from this table.
#
# usage: tests/bench/scan-sweep.sh [--build-only | --run-only] [DIR]
#   DIR           where the header and the binary go (default: build/bench)
#   --build-only  tangle and compile only (a machine with noweb, no GPU)
#   --run-only    run DIR/scan-sweep as built before (a GPU, no noweb)
# NVCC and NVCCFLAGS override the compiler and the book's compile flags.
# Exit status: the benchmark's own; 77 when the card has too little memory.

set -eu

mode=all
case "${1:-}" in
    --build-only) mode=build; shift ;;
    --run-only) mode=run; shift ;;
    -*) echo "usage: $0 [--build-only | --run-only] [DIR]" >&2; exit 2 ;;
esac

root=$(cd "$(dirname "$0")/../.." && pwd)
dir=${1:-"$root/build/bench"}
nvcc=${NVCC:-nvcc}
# The book's flags, from their one definition in tools/compile.mk.
# shellcheck disable=SC2016 # $(NVCCFLAGS) is make's, not the shell's
flags=${NVCCFLAGS:-$(make -s -f "$root/tools/compile.mk" \
    --eval 'print-flags: ; @echo $(NVCCFLAGS)' print-flags)}

if [ "$mode" != run ]; then
    mkdir -p "$dir"
    notangle -R'Scan Library' "$root/chapters/device-scan.nw" \
        > "$dir/device_scan_lib.cuh.tmp"
    mv "$dir/device_scan_lib.cuh.tmp" "$dir/device_scan_lib.cuh"
    # shellcheck disable=SC2086 # flags is a list of words
    "$nvcc" $flags -I"$dir" -o "$dir/scan-sweep" \
        "$root/tests/bench/scan-sweep.cu"
fi
if [ "$mode" != build ]; then
    exec "$dir/scan-sweep"
fi
