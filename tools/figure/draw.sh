#!/bin/bash
# draw.sh: run a chapter's figure program and hold what it wrote to being
# a drawing: an SVG (it begins <svg), well-formed XML (xmllint reads it),
# with no script, foreignObject or on... event attribute, which a page
# showing it would run or embed.
#
# usage: draw.sh WHERE ROOT SECONDS PROGRAM OUT
#
#   WHERE    the chapter's line of the root, chapters/NAME.nw:LINE
#   ROOT     the figure's root, fig-NAME.cpp
#   SECONDS  how long the program may run
#   PROGRAM  the compiled figure program
#   OUT      where its SVG goes (a temporary name: the caller renames it)
#
# A program that fails, runs longer or writes anything but a drawing gives
# one line, "WHERE: figure <<ROOT>> what it did", and exit status 1.
set -uo pipefail
if [ $# -ne 5 ]; then
    echo "usage: draw.sh WHERE ROOT SECONDS PROGRAM OUT" >&2
    exit 2
fi
where=$1 root=$2 seconds=$3 prog=$4 out=$5
refuse() { echo "$where: figure <<$root>> $1" >&2; exit 1; }
timeout -k 1 "$seconds" "$prog" >"$out"
rc=$?
if [ "$rc" -eq 124 ]; then
    refuse "ran past $seconds s and was stopped; a figure draws in a moment (FIG_SECONDS= gives it longer)"
elif [ "$rc" -ne 0 ]; then
    refuse "failed (exit $rc)"
fi
[ "$(head -c 4 "$out")" = '<svg' ] || refuse "wrote no SVG to stdout (it must begin <svg)"
if ! log=$(xmllint --noout "$out" 2>&1); then
    refuse "wrote an SVG that is not well-formed XML: $(head -n 1 <<<"$log" |
        sed 's/^[^:]*:\([0-9]*\): parser error : /its line \1: /')"
fi
active='//*[local-name()="script" or local-name()="foreignObject"] | //@*[starts-with(local-name(),"on")]'
held=$(xmllint --xpath "$active" "$out" 2>/dev/null | head -n 1 |
    sed 's/^ *//; s/^<\([A-Za-z:]*\).*/<\1>/; s/=.*//')
[ -z "$held" ] ||
    refuse "wrote an SVG holding $held; a figure is a drawing: no script, foreignObject or on... attribute"
exit 0
