#!/bin/bash
# pending-claims.sh: hold the book's claims to the pending transcripts of
# some programs, as if they were accepted, before make accept moves
# anything: a claim that a pending transcript would break is named, and
# the exit status says not to accept.
#
# usage: pending-claims.sh -t TCHECK -c CLAIMS -v VALUES [-e EVIDENCE] PROG... -- LINES...
#
# Each pending transcript of a PROG, EVIDENCE/PROG/GPU.txt.pending
# (EVIDENCE is evidence/ by default), gives its values (tcheck quotes, of
# EVIDENCE/PROG.expect.pending where there is one, else of
# EVIDENCE/PROG.expect), which stand in for those of VALUES/PROG/GPU.tsv
# (claims check --replace) while the claims of the chapters' LINES files
# (build/meta/NAME.lines) are checked. With nothing pending there is
# nothing to check. Exit status 0: every claim holds; 1: a claim breaks
# (its FAIL lines on stdout, then one line on stderr saying nothing was
# accepted), or a pending transcript is misnamed or does not fit its
# expectation (tcheck's lines, or one "FILE:1: ..." line, on stderr);
# 2: a wrong call.
set -uo pipefail

usage() {
    echo "usage: pending-claims.sh -t TCHECK -c CLAIMS -v VALUES [-e EVIDENCE] PROG... -- LINES..." >&2
    exit 2
}

tcheck='' claims='' values='' evidence=evidence
while getopts t:c:v:e: opt; do
    case $opt in
        t) tcheck=$OPTARG ;;
        c) claims=$OPTARG ;;
        v) values=$OPTARG ;;
        e) evidence=$OPTARG ;;
        *) usage ;;
    esac
done
shift $((OPTIND - 1))
if [ -z "$tcheck" ] || [ -z "$claims" ] || [ -z "$values" ]; then
    usage
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/pending-claims.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
replace=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
    p=$1
    shift
    for t in "$evidence/$p"/*.txt.pending; do
        [ -e "$t" ] || continue
        e=$evidence/$p.expect
        [ -e "$e.pending" ] && e=$e.pending
        g=${t##*/}
        g=${g%.txt.pending}
        case $g in
            *[!a-z0-9-]* | '')
                echo "$t:1: a transcript is named for its GPU, in lowercase letters, digits and -" >&2
                exit 1 ;;
        esac
        v=$work/$p-$g.tsv
        "$tcheck" quotes "$e" "$t" >"$v" || exit 1
        replace+=(--replace "$p" "$g" "$v")
    done
done
[ $# -gt 0 ] || usage
shift
[ ${#replace[@]} -gt 0 ] || exit 0
if ! "$claims" check "${replace[@]}" "$values" "$@" >"$work/claims.out"; then
    grep '^FAIL' "$work/claims.out"
    echo "make accept: the pending transcripts would break the claims above; nothing was accepted" >&2
    exit 1
fi
