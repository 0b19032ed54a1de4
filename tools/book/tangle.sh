#!/bin/bash
# tangle.sh: read the book's changed chapters and tangle their files, as one
# transaction: either every chapter is fine and the whole book agrees, and
# then everything goes in place at once, or nothing in build/ changes.
#
# usage: tangle.sh BUILD REGISTRY CHAPTER... [-- CHANGED...]
#
# CHAPTER... is the book (CHAPTERS, in order); CHANGED... the chapters to
# read again (all of them where none is given). A chapter whose pipeline is
# missing is read too. For each chapter read, NWPIPE (nwpipe.sh: noweb's
# markup and its filters that index identifiers) writes its pipeline once,
# and chapter-meta checks it and describes it (title, roots, labels, with
# lines). Then the book is checked as a whole, on the new
# descriptions and the current ones of the other chapters (a label or a file
# root in two chapters, the published labels, a citation of a label the
# book does not have), and every root of a chapter
# read is tangled from its pipeline by noweb's nt: plainly with snippet
# markers into BUILD/src, and with #line directives into BUILD/lsrc. Only
# then do the files move in place, each only where its text changed, so
# that its timestamp stays (a prose edit compiles nothing), and the chapter's
# title, roots and labels (BUILD/meta/NAME.tsv; NAME.lines adds their lines,
# the citations and the quotes and claims of the prose) change only when
# they do.
#
# What the book no longer has goes: the files of a root a chapter stopped
# tangling, and the meta files of a chapter no longer in the book (each
# later stage removes its own outputs of either: the Makefile's
# stage-roots and stage-chapters). Last,
# BUILD/chapters.list names the book's chapters, and BUILD/book.mk their
# roots, programs (ROOT.cu) and figures (fig-NAME.cpp, drawn as
# html/fig/NAME.svg) for make, each changed only when they change.
#
# Environment: NWPIPE, NT (noweb's), CHAPTER_META, SNIPPET_MARKS and
# SNIPPETS (the book's tools).
set -euo pipefail

b=$1 registry=$2
shift 2
book=() changed=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
    book+=("$1")
    shift
done
if [ $# -gt 0 ]; then
    shift
    changed=("$@")
else
    changed=("${book[@]}")
fi

work=$(mktemp -d "$b/.tangle.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM HUP
mkdir -p "$work/src" "$work/lsrc"

in_list() { # WORD LIST...
    local w=$1
    shift
    local x
    for x in "$@"; do
        [ "$x" = "$w" ] && return 0
    done
    return 1
}
roots_of() { # DESCRIPTION...: the file roots they list, one a line
    "$CHAPTER_META" roots "$@"
}
# Every name below is quoted, though chapter-meta has already refused a
# root of other characters than letters, digits, _, - and one dot: a
# chapter's names never reach a shell as words or patterns.
root_list=()
set_roots() { # DESCRIPTION: root_list=(the file roots it lists)
    mapfile -t root_list < <(roots_of "$1")
}
# install_if NEW FILE: NEW moved over FILE only where their texts differ,
# so that FILE's timestamp follows its text (noweb's cpif, whose names are
# unquoted, and which copies in place rather than renames).
install_if() {
    cmp -s "$1" "$2" || mv -f "$1" "$2"
}

# 1. Read every changed chapter, and every chapter not read before, each
# with its checksum as it was read (see 4).
read=()
declare -A sum_of
for c in "${book[@]}"; do
    if in_list "$c" "${changed[@]}" || [ ! -e "$b/meta/$c.nwpipe" ] ||
       [ ! -e "$b/meta/$c.lines" ]; then
        sum_of[$c]=$(cksum <"chapters/$c.nw")
        # Where markup fails (it says why), chapter-meta reads what it
        # wrote all the same, to say how to write what markup refused.
        "$NWPIPE" "chapters/$c.nw" >"$work/$c.nwpipe" ||
            { "$CHAPTER_META" <"$work/$c.nwpipe" >/dev/null; exit 1; }
        "$CHAPTER_META" <"$work/$c.nwpipe" >"$work/$c.lines"
        read+=("$c")
    fi
done

# 2. The book as a whole, as it will be.
lines=()
for c in "${book[@]}"; do
    if in_list "$c" "${read[@]}"; then
        lines+=("$work/$c.lines")
    else
        lines+=("$b/meta/$c.lines")
    fi
done
"$SNIPPETS" check "$registry" "${lines[@]}"

# 3. Tangle every root of the chapters read: nt reads the whole of what it
# is given for each root, so each root is given only the chunks it reaches
# (snippet-marks -s, which also writes each with the snippets' markers),
# and a chapter of many roots costs its size once.
# Each chapter's roots are read once, into $work/NAME.roots (step 5 reads
# them there too).
for c in "${read[@]}"; do
    roots_of "$work/$c.lines" >"$work/$c.roots"
    mapfile -t root_list <"$work/$c.roots"
    [ "${#root_list[@]}" -gt 0 ] || continue
    mkdir -p "$work/split/$c" "$work/split/$c.marked"
    "$SNIPPET_MARKS" -s "$work/split/$c" "$work/$c.roots" <"$work/$c.nwpipe"
    for r in "${root_list[@]}"; do
        "$NT" -R"$r" <"$work/split/$c.marked/$r" >"$work/src/$r"
        "$NT" -t -L -R"$r" <"$work/split/$c/$r" >"$work/lsrc/$r"
    done
done

# 4. A chapter saved again while it was read would have its new text in no
# output, and make would think it done: stop instead, with nothing put in
# place. (An edit after this point is newer than the tangle's stamp, which
# make dates from before the tangle began, so the next make reads it.)
for c in "${read[@]}"; do
    if [ "$(cksum <"chapters/$c.nw")" != "${sum_of[$c]}" ]; then
        echo "chapters/$c.nw:1: changed while it was being tangled; nothing was put in place: run make again" >&2
        exit 1
    fi
done

# 5. Everything is fine: put it in place, and drop what the book lost: the
# tangled files of a root no chapter of the book tangles now. One that
# moved (a chapter renamed, a root given to another chapter) stays with its
# new chapter.
mkdir -p "$b/meta" "$b/src" "$b/lsrc"
all_roots=$(roots_of "${lines[@]}")
drop_root() { # ROOT: a file the book no longer tangles (each later stage
    # removes what it made of it: the Makefile's stage-roots)
    local r=$1
    grep -qxF -- "$r" <<<"$all_roots" && return 0
    rm -f "$b/src/$r" "$b/lsrc/$r"
}
for c in "${read[@]}"; do
    if [ -e "$b/meta/$c.lines" ]; then
        set_roots "$b/meta/$c.lines"
        for r in "${root_list[@]}"; do
            grep -qxF -- "$r" "$work/$c.roots" || drop_root "$r"
        done
    fi
    mapfile -t root_list <"$work/$c.roots"
    for r in "${root_list[@]}"; do
        install_if "$work/src/$r" "$b/src/$r"
        install_if "$work/lsrc/$r" "$b/lsrc/$r"
    done
    "$CHAPTER_META" tsv "$work/$c.lines" >"$work/$c.tsv"
    cmp -s "$work/$c.tsv" "$b/meta/$c.tsv" || mv -f "$work/$c.tsv" "$b/meta/$c.tsv"
    mv -f "$work/$c.lines" "$b/meta/$c.lines"
    mv -f "$work/$c.nwpipe" "$b/meta/$c.nwpipe"
done
for m in "$b"/meta/*.lines; do
    [ -e "$m" ] || continue
    c=${m##*/}
    c=${c%.lines}
    in_list "$c" "${book[@]}" && continue
    set_roots "$m"
    for r in "${root_list[@]}"; do
        drop_root "$r"
    done
    rm -f "$b/meta/$c".*
done
# The book as built, for the pages that list its chapters.
echo "${book[*]}" >"$work/chapters.list"
cmp -s "$work/chapters.list" "$b/chapters.list" ||
    mv -f "$work/chapters.list" "$b/chapters.list"
# What make reads of the book: each chapter's roots, programs and figures,
# in the book's order.
lines=()
for c in "${book[@]}"; do lines+=("$b/meta/$c.lines"); done
"$CHAPTER_META" book-mk "${lines[@]}" >"$work/book.mk"
cmp -s "$work/book.mk" "$b/book.mk" || mv -f "$work/book.mk" "$b/book.mk"
