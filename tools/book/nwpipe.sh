#!/bin/bash
# nwpipe.sh: a chapter as noweb's pipeline, with its identifiers indexed.
#
# usage: nwpipe.sh CHAPTER.nw > CHAPTER.nwpipe
#
# noweb's markup reads the chapter; then noweb's own filters index its
# identifiers: autodefs.c adds "@index defn NAME" (or localdefn, for a
# static one) where a line of code at its left margin defines a C name, and
# finduses adds "@index use NAME" before every appearance of a defined name
# in code (not in [[quoted code]] of the prose: -noquote). A chunk's
# "@ %def NAME..." line, markup's, defines what autodefs.c cannot see
# (README.md, "The web book"). The filters change no text, so what nt
# tangles from the stream is what it tangles from markup's.
#
# Where markup fails (it has said why, on stderr), its stream goes out as it
# is, ending in @fatal, and so does its status: the filters would drop it,
# and the reader after (chapter-meta) says how to write what it refused.
#
# Environment: NOWEB_LIB, noweb's library (default /usr/lib/noweb).
set -uo pipefail
lib=${NOWEB_LIB:-/usr/lib/noweb}
if [ $# -ne 1 ]; then
    echo "usage: nwpipe.sh CHAPTER.nw > CHAPTER.nwpipe" >&2
    exit 2
fi
marked=$(mktemp)
trap 'rm -f "$marked"' EXIT
"$lib/markup" "$1" >"$marked"
status=$?
if [ "$status" -ne 0 ]; then
    cat "$marked"
    exit "$status"
fi
# autodefs.c drops a carriage return, which chapter-meta rejects (the
# chapter has CRLF line endings): such a stream goes on unindexed, for it to
# say so.
if grep -q $'\r' "$marked"; then
    cat "$marked"
    exit 0
fi
"$lib/autodefs.c" <"$marked" | "$lib/finduses" -noquote
