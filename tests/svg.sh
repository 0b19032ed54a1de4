# shellcheck shell=bash
# The checks of an SVG a page shows (a figure, a chart), shared by the
# groups that test the book's figures and the checks themselves.
# xmllint reads them; tools/need installs it where it is missing, as make
# installs noweb, or says the command to run, and every figure fails.
xmllint_why=$(tools/need xmllint libxml2-utils 2>&1) || true
svg_text_px() { # SVG WIDTH: the smallest text of SVG shown WIDTH px wide, in px (0: none)
    awk -v w="$2" '
        { doc = doc $0 " " }
        END {
            if (!match(doc, /<svg[^>]*>/)) { print 0; exit }
            root = substr(doc, RSTART, RLENGTH)
            if (!match(root, /viewBox="[-0-9. ]*"/)) { print 0; exit }
            split(substr(root, RSTART + 9, RLENGTH - 10), vb, " ")
            min = 1e9; rest = doc
            while (match(rest, /font-size="[0-9.]+"/)) {
                size = substr(rest, RSTART + 11, RLENGTH - 12) + 0
                if (size < min) min = size
                rest = substr(rest, RSTART + RLENGTH)
            }
            if (vb[3] <= 0 || min == 1e9) { print 0; exit }
            printf "%.1f\n", min * w / vb[3]
        }' "$1"
}
check_svg() { # SVG: prints what is wrong with it, nothing where all is well
    local svg=$1
    if [ ! -s "$svg" ]; then echo "missing or empty"; return; fi
    if ! command -v xmllint >/dev/null 2>&1; then echo "xmllint is needed: ${xmllint_why#make: }"; return; fi
    xmllint --noout "$svg" 2>/dev/null || { echo "not well-formed XML"; return; }
    awk '
        { doc = doc $0 " " }
        END {
            if (!match(doc, /<svg[^>]*>/)) { print "no <svg> element"; exit }
            root = substr(doc, RSTART, RLENGTH)
            if (!match(root, /viewBox="[-0-9. ]*"/)) { print "no viewBox"; exit }
            split(substr(root, RSTART + 9, RLENGTH - 10), vb, " ")
            if (vb[3] <= 0) { print "a viewBox of no width"; exit }
            if (root ~ / (width|height)="/) { print "a fixed width or height on <svg>"; exit }
            if (index(doc, "@media (prefers-color-scheme: dark)") == 0) { print "no dark-theme style"; exit }
        }' "$svg" | grep . && return
    local px
    px=$(svg_text_px "$svg" 320)
    if awk -v p="$px" 'BEGIN { exit !(p > 0 && p < 10) }'; then
        echo "text of $px px at 320 px wide, under 10"
    fi
}
