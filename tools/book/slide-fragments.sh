#!/bin/bash
# slide-fragments.sh: each label's fragment for a slide, LABEL.html, a
# small page of its code highlighted in the book's light colours
# (styles/snippet.html) to paste into a slide, from the Markdown that
# `snippets table -o` writes beside its LABEL.cu.
#
# usage: slide-fragments.sh NEW MD KEPT_MD KEPT_HTML
#
#   NEW        the folder snippets table wrote: LABEL.md and LABEL.cu; each
#              LABEL.html is written here, and each LABEL.md moved to MD
#   MD         a new folder for the Markdown, kept for the next time
#   KEPT_MD    the Markdown of the last time (may be missing)
#   KEPT_HTML  the fragments of the last time (may be missing)
#
# A fragment whose Markdown is as it was, and whose last fragment is newer
# than the template and the syntax definition, is copied from KEPT_HTML
# rather than passed through pandoc again: a prose edit costs no pandoc
# run a label. Where pandoc fails, so does this, having said why; what it
# half-wrote is in NEW and MD, which the caller writes to temporary names.
#
# Environment: PANDOC, the pandoc to run (default: pandoc); STYLES, the
# folder of snippet.html and cuda.xml (default: styles).
set -uo pipefail
if [ $# -ne 4 ]; then
    echo "usage: slide-fragments.sh NEW MD KEPT_MD KEPT_HTML" >&2
    exit 2
fi
new=$1 md=$2 kept_md=$3 kept_html=$4
pandoc=${PANDOC:-pandoc}
styles=${STYLES:-styles}
mkdir -p "$md" || exit
for f in "$new"/*.md; do
    [ -e "$f" ] || continue
    n=${f##*/}
    n=${n%.md}
    old=$kept_html/$n.html
    if cmp -s "$f" "$kept_md/$n.md" && [ "$old" -nt "$styles/snippet.html" ] &&
       [ "$old" -nt "$styles/cuda.xml" ]; then
        cp -p "$old" "$new/$n.html" || exit
    else
        "$pandoc" --from markdown --to html5 --standalone --template "$styles/snippet.html" \
            --metadata pagetitle="$n" --id-prefix="$n-" --highlight-style pygments \
            --syntax-definition "$styles/cuda.xml" "$f" >"$new/$n.html" || exit
    fi
    mv -f "$f" "$md/" || exit
done
