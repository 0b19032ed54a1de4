#!/bin/bash
# The built book: labels, anchors and links on every page, escaping, the
# #line mapping of compile errors, and the bad inputs through the real build.
set -uo pipefail
cd "$(dirname "$0")/.." || exit
. tests/lib.sh
B=${B:-build}
# The chapters to check (make check CHAPTER=x: one), and the book's.
read -r -a chapters <<<"${CHAPTERS:?}"
read -r -a book_chapters <<<"${BOOK_CHAPTERS:-$CHAPTERS}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Every published label resolves: to a chunk on its chapter's page, and to
# marked lines in the tangled file; its code for a slide is those lines
# under a line naming it, its revision and its address.
base=$(cat "$B/base-url" 2>/dev/null)
# The text of a label's highlighted fragment: a <style> of its own, nothing
# loaded (no src or link), and the code block's text, tags taken out and
# entities read; fails where the fragment is not so.
fragment_text() { # FILE
    grep -q '<style>' "$1" && ! grep -qiE '<link|<script| src=' "$1" &&
        perl -0777 -ne 'exit 1 unless /<pre[^>]*>(.*?)<\/pre>/s; $_ = $1; s/<[^>]*>//g;
            s/&lt;/</g; s/&gt;/>/g; s/&quot;/"/g; s/&#39;/\x27/g; s/&amp;/&/g; print' "$1"
}
while IFS=$'\t' read -r label chapter file first last url revision; do
    [ "$label" = label ] && continue
    now=$(awk -F'\t' -v l="$label" '$1 == l && NF == 4 { n = $2 } END { print n }' chapters/labels.tsv)
    page=$B/html/${url%%#*}
    if ! grep -q "id=\"$label\"" "$page" 2>/dev/null; then
        fail "label $label" "no id=\"$label\" on $page"
    elif ! sed -n "$((first - 1))p" "$B/src/$file" | grep -q "// snippet: $label\$"; then
        fail "label $label" "$B/src/$file:$((first - 1)) is not its snippet marker"
    elif [ "$last" -lt "$first" ]; then
        fail "label $label" "empty line range $first-$last in $file"
    elif [ "$revision" != "$now" ]; then
        fail "label $label" "at revision '$revision', and the registry's last is '$now'"
    elif ! cmp -s "$B/html/snippets/$label.cu" \
            <(if [ -n "$base" ]; then printf '// %s, revision %s: %s/%s\n' "$label" "$revision" "$base" "$url"
              else printf '// %s, revision %s: %s (unpublished: no BASE_URL)\n' "$label" "$revision" "$url"; fi
              sed -n "${first},${last}p" "$B/src/$file"); then
        fail "label $label" "$B/html/snippets/$label.cu is not its comment line and lines $first-$last of $B/src/$file"
    elif ! frag=$(fragment_text "$B/html/snippets/$label.html") ||
         [ "$frag" != "$(cat "$B/html/snippets/$label.cu")" ]; then
        fail "label $label" "$B/html/snippets/$label.html is not a fragment with its own style and the text of $label.cu"
    else
        pass "label $label ($chapter, $file:$first-$last)"
    fi
done <"$B/snippets.tsv"

# The labels lessons already cite, each where the registry says.
while IFS=$'\t' read -r label chapter _; do
    case $label in ''|'#'*|label) continue ;; esac
    case $chapter in [0-9]*) continue ;; esac # a revision of its code
    if awk -F'\t' -v l="$label" -v c="$chapter" '$1 == l && $2 == c { f = 1 } END { exit !f }' "$B/snippets.tsv"; then
        pass "registered label $label"
    else
        fail "registered label $label" "not defined in chapters/$chapter.nw"
    fi
done <chapters/labels.tsv

# Every internal link on every page lands on an id of that page or of the
# page it names (each page's ids read once).
# broken_links PAGE: the links of PAGE that land nowhere, a line each.
broken_links() {
    perl -e '
        my ($page) = @ARGV;
        (my $dir = $page) =~ s{[^/]*$}{};
        my %ids;
        sub ids_of { my ($f) = @_; return $ids{$f} //= do {
            local $/; open my $h, "<", $f or return undef;
            my $t = <$h>; close $h; +{ map { $_ => 1 } ($t =~ /id="([^"]*)"/g) } } }
        local $/; open my $h, "<", $page or die "$page: $!"; my $html = <$h>; close $h;
        my %seen;
        for my $href (grep { !$seen{$_}++ } $html =~ /href="([^"]*)"/g) {
            if ($href =~ /^(?:https?|mailto):/) { print "external:$href\n"; next; }
            my ($file, $frag) = split /#/, $href, 2;
            my $ids = ids_of($file eq "" ? $page : "$dir$file");
            if (!$ids) { print "$href\n"; next; }
            print "$href\n" if defined $frag && $frag ne "" && !$ids->{$frag};
        }' "$1"
}
for ch in "${chapters[@]}" index labels chunks identifiers; do
    page=$B/html/$ch.html
    bad=$(broken_links "$page")
    if [ -z "$bad" ]; then
        pass "links on $ch.html"
    else
        fail "links on $ch.html" "$(echo "$bad" | head -3 | tr '\n' ' ')"
    fi
done

# The identifier index against the chunks. Read from the tangled sources,
# independently of noweb's filters: every kernel a chapter's programs
# define (__global__ ... NAME(), and every constexpr constant at the left
# margin, is in identifiers.html under its chapter, a kernel as a kernel,
# defined in a chunk whose code on the chapter's page has it; a name that
# two chapters' sources define has an entry in each.
metas=() pipes=()
for ch in "${book_chapters[@]}"; do metas+=("$B/meta/$ch.tsv") pipes+=("$B/meta/$ch.nwpipe"); done
"$B/tools/index-pages" xref "${metas[@]}" -- "${pipes[@]}" >"$tmp/identifiers.check.tsv" 2>&1 ||
    fail "identifier index" "index-pages xref failed: $(head -1 "$tmp/identifiers.check.tsv")"
# check_defined CHAPTER PAGE SOURCE...: prints "N BAD": the kernels and
# constants the sources define, and what is wrong with their entries (the
# index's rows, identifiers.html, the code of each defining chunk on the
# page, read once); appends "CHAPTER NAME" to identifiers.defined.
check_defined() {
    perl -e '
        my ($ch, $page, $rows, $index, $defined, @src) = @ARGV;
        local $/;
        open my $f, "<", $page or die "$page: $!"; my $html = <$f>; close $f;
        my %code;
        while ($html =~ /<div id="([^"]*)"\s+class="chunk">(.*?)<div class="chunk-foot">/sg) {
            my ($id, $t) = ($1, $2); $t =~ s/<[^>]*>//g; $code{$id} = $t;
        }
        open $f, "<", $index or die "$index: $!"; my $ix = <$f>; close $f;
        my %entry = map { $_ => 1 } ($ix =~ /<div id="([^"]*)"/g);
        open $f, "<", $rows or die "$rows: $!"; my %row;
        for (split /\n/, <$f>) { my @c = split /\t/; $row{"$c[0]\t$c[1]"} = [@c] if @c >= 4; }
        close $f;
        open my $out, ">>", $defined or die "$defined: $!";
        my ($n, $bad) = (0, "");
        for my $s (@src) {
            open $f, "<", $s or die "$s: $!"; my $text = <$f>; close $f;
            my @found;
            push @found, map { ["kernel", $_] } ($text =~ /__global__\s+(?:void\s+)?(?:__launch_bounds__\s*\([^()]*\)\s*)?(\w+)\s*\(/g);
            push @found, map { ["constant", $_] } ($text =~ /^(?:static\s+)?constexpr\s+[\w:<>, ]+?\s+(\w+)\s*(?:=|\[)/mg);
            for (@found) {
                my ($kind, $name) = @$_;
                print $out "$ch $name\n";
                ++$n;
                my $r = $row{"$ch\t$name"};
                if (!$r) { $bad .= " $name(not in the index)"; next; }
                $bad .= " $name(kind $r->[2])" if $kind eq "kernel" && $r->[2] ne "kernel";
                $bad .= " $name(no entry on identifiers.html)" unless $entry{"$ch--$name"};
                my $has = grep { defined $code{$_} && $code{$_} =~ /\b\Q$name\E\b/ } split / /, $r->[3];
                $bad .= " $name(its chunks lack it)" unless $has;
            }
        }
        print "$n$bad\n";
    ' "$@"
}
: >"$tmp/identifiers.defined"
for ch in "${chapters[@]}"; do
    roots=$(awk -F'\t' '$1 == "root" { print $2 }' "$B/meta/$ch.tsv")
    srcs=()
    for r in $roots; do srcs+=("$B/src/$r"); done
    read -r n bad < <(check_defined "$ch" "$B/html/$ch.html" "$tmp/identifiers.check.tsv" \
        "$B/html/identifiers.html" "$tmp/identifiers.defined" "${srcs[@]}")
    if [ "$n" -eq 0 ]; then
        fail "identifier index of $ch" "no kernel or constant found in its sources ($roots)"
    elif [ -n "$bad" ]; then
        fail "identifier index of $ch" "$(echo "$bad" | cut -c1-300)"
    else
        pass "identifier index of $ch: its $n kernels and constants, each defined in a chunk that has it"
    fi
done
shared=$(sort -u "$tmp/identifiers.defined" | awk '{ n[$2]++ } END { for (k in n) if (n[k] > 1) print k }' | sort)
bad=
for name in $shared; do
    want=$(sort -u "$tmp/identifiers.defined" | awk -v n="$name" '$2 == n' | wc -l)
    got=$(grep -c "<div id=\"[a-z0-9-]*--$name\"" "$B/html/identifiers.html")
    [ "$got" -eq "$want" ] || bad="$bad $name($got entries, $want chapters)"
done
if [ "${#chapters[@]}" -lt 2 ]; then
    skip "a name two chapters define has an entry in each" "one chapter checked"
elif [ -z "$shared" ]; then
    fail "a name two chapters define has an entry in each" "no such name in the sources"
elif [ -n "$bad" ]; then
    fail "a name two chapters define has an entry in each" "$bad"
else
    pass "a name two chapters define has an entry in each ($(echo $shared | wc -w) names)"
fi
rm -f "$tmp/identifiers.check.tsv" "$tmp/identifiers.defined"
# Each use linked in code (and each "Uses" link) lands on a chunk that
# defines the name, never the chunk it is in.
for ch in "${chapters[@]}"; do
    bad=$(CH=$ch perl -0777 -ne '
        my %defines;
        while (/<div id="([^"]+)"\s+class="chunk">(.*?)<div class="chunk-foot">(.*?)<\/div>\n/sg) {
            my ($a, $code, $foot) = ($1, $2, $3);
            $defines{$a}{$1} = 1 while $foot =~ /identifiers\.html#\Q$ENV{CH}\E--(\w+)"/g;
            my $both = "$code$foot";
            push @links, [$a, $1, $2] while $both =~ /<a class="ident-(?:use|ref)" href="#([^"]+)">(?:<code>)?(\w+)/g;
        }
        for (@links) {
            my ($from, $to, $name) = @$_;
            if ($from eq $to) { print "$name in $from links to itself\n" }
            elsif (!$defines{$to}{$name}) { print "$name in $from: #$to does not define it\n" }
        }' "$B/html/$ch.html" | sort -u)
    uses=$(grep -o 'class="ident-use"' "$B/html/$ch.html" | wc -l)
    if [ "$uses" -eq 0 ]; then
        fail "identifier links on $ch.html" "no use is linked in the code"
    elif [ -n "$bad" ]; then
        fail "identifier links on $ch.html" "$(echo "$bad" | head -3 | tr '\n' ' ')"
    else
        pass "identifier links on $ch.html: $uses uses in code, each to its definition"
    fi
done
if grep -q 'Defines \|Uses ' "$B/html/search-index.js"; then
    fail "the search index leaves out the chunks' index lines" "a \"Defines\" or \"Uses\" in search-index.js"
else
    pass "the search index leaves out the chunks' index lines"
fi

# The whole book's page, book.html: every chapter of CHAPTERS once, in
# order, under its heading, with every id of its page's text, prefixed with
# its name; no id twice; every link within the page lands on an id of it,
# and every other names a file of the book; and search leaves it out.
book=$B/html/book.html
tags() { tr '\n' ' ' <"$1" | grep -oE '<[A-Za-z][^<>]*>'; }
attr_values() { # NAME: the values of attribute NAME in the tags on stdin
    grep -oE " $1=\"[^\"]*\"" | sed "s/^ $1=\"//; s/\"\$//"
}
if [ ! -f "$book" ]; then
    fail "book.html holds every chapter in order" "no $book"
else
    tags "$book" >"$tmp/book.tags"
    got=$(grep -oE '<h1 class="book-chapter" id="[^"]*"' "$tmp/book.tags" | sed 's/.* id="//; s/"$//' | tr '\n' ' ')
    if [ "$got" = "${book_chapters[*]} " ]; then
        pass "book.html holds the ${#book_chapters[@]} chapters of CHAPTERS, in order"
    else
        fail "book.html holds the ${#book_chapters[@]} chapters of CHAPTERS, in order" "its chapters' headings are: $got"
    fi
    attr_values id <"$tmp/book.tags" | sort >"$tmp/book.ids"
    dup=$(uniq -d "$tmp/book.ids")
    if [ -z "$dup" ]; then
        pass "book.html has no id twice ($(wc -l <"$tmp/book.ids") ids)"
    else
        fail "book.html has no id twice" "$(echo "$dup" | head -3 | tr '\n' ' ')"
    fi
    short=
    for ch in "${chapters[@]}"; do
        sed -n '/<main id="text">/,/<\/main>/p' "$B/html/$ch.html" | sed 's/<main id="text">//' >"$tmp/book.page"
        want=$(tags "$tmp/book.page" | attr_values id | wc -l)
        have=$(grep -c "^$ch--" "$tmp/book.ids")
        [ "$want" -eq "$have" ] || short="$short $ch ($have of $want ids)"
    done
    if [ -z "$short" ]; then
        pass "book.html holds every id of each chapter's text, prefixed with the chapter's name"
    else
        fail "book.html holds every id of each chapter's text, prefixed with the chapter's name" "$short"
    fi
    attr_values href <"$tmp/book.tags" | sort -u >"$tmp/book.hrefs"
    bad=$(awk 'FNR == NR { id["#" $0] = 1; next } /^#/ && !($0 in id)' "$tmp/book.ids" "$tmp/book.hrefs"
        grep -v '^#' "$tmp/book.hrefs" | while read -r href; do
            case $href in
                *:*) echo "$href" ;;
                *) [ -f "$B/html/${href%%#*}" ] || echo "$href" ;;
            esac
        done)
    if [ -z "$bad" ]; then
        pass "links on book.html land on its ids, or on files of the book"
    else
        fail "links on book.html land on its ids, or on files of the book" "$(echo "$bad" | head -3 | tr '\n' ' ')"
    fi
    if grep -q '<meta name="robots" content="noindex">' "$book" && ! grep -q '"u": "book\.html' "$B/html/search-index.js"; then
        pass "search leaves book.html out"
    else
        fail "search leaves book.html out" "book.html says no noindex, or search-index.js holds it"
    fi
fi

# Code a chapter carries as a copy of another's (chapters/copies.tsv): every
# line of the copy, as tangled, is a line of the original's file as it is
# now, indentation aside. Once a chapter a line, for the chapters checked.
NT=${NOWEB_LIB:-/usr/lib/noweb}/nt
while IFS=$'\t' read -r ch chunk file; do
    case $ch in '' | '#'*) continue ;; esac
    [[ " ${chapters[*]} " == *" $ch "* ]] || continue
    name="the copy in $ch of code from $file is the same code"
    where=chapters/$ch.nw:$(grep -nxF -- "<<$chunk>>=" "chapters/$ch.nw" | head -n 1 | cut -d: -f1)
    if [[ ! $file =~ ^[A-Za-z0-9_-]+\.[a-z]+$ ]] || [ ! -f "$B/src/$file" ]; then
        fail "$name" "chapters/copies.tsv names $file, which the book does not tangle"
        continue
    fi
    "$NT" -R"$chunk" <"$B/meta/$ch.nwpipe" >"$tmp/copy" 2>"$tmp/copy.err" || :
    if [ ! -s "$tmp/copy" ]; then
        fail "$name" "$where: no chunk <<$chunk>> to compare: $(head -n 1 "$tmp/copy.err")"
        continue
    fi
    stray=$(awk 'NR == FNR { sub(/^[ \t]+/, ""); have[$0] = 1; next }
                 { line = $0; sub(/^[ \t]+/, "", line) }
                 line != "" && !(line in have) { print FNR ": " line; exit }' "$B/src/$file" "$tmp/copy")
    if [ -n "$stray" ]; then
        fail "$name" "$where: line ${stray%%: *} of <<$chunk>> is in no line of $file: ${stray#*: }; copy it again from there"
    else
        pass "$name ($(grep -c . "$tmp/copy") lines of <<$chunk>>)"
    fi
done <chapters/copies.tsv

# The chapters' claims, on the values recorded for the book.
lines=()
for ch in "${chapters[@]}"; do lines+=("$B/meta/$ch.lines"); done
"$B/tools/claims" check "$B/values" "${lines[@]}" >"$tmp/claims" 2>&1
rc=$?
cat "$tmp/claims"
if [ "$rc" -eq 0 ]; then
    pass "claims: every claim of ${chapters[*]} holds on $B/values ($(grep -c '^PASS' "$tmp/claims") checks, $(grep -c '^SKIP' "$tmp/claims") skipped)"
else
    fail "claims: every claim of ${chapters[*]} holds on $B/values" "$(grep -c '^FAIL' "$tmp/claims") failing"
fi

. tests/svg.sh
# Figures (html/fig/NAME.svg, drawn by a chapter's root fig-NAME.cpp): every
# figure a chapter draws is on its page, with alt text, and every figure a
# page shows is well-formed SVG that scales to the column (a viewBox, no
# width), has a dark theme, and keeps its text legible on a phone: at least
# 10 px where the column is 320 px wide (tests/svg.sh).
for ch in "${chapters[@]}"; do
    page=$B/html/$ch.html
    figs=$(awk -v c="$ch" '$1 == "FIGS." c { for (i = 3; i <= NF; i++) print $i }' "$B/book.mk")
    for f in $figs; do
        if grep -q "<img src=\"fig/$f.svg\"" "$page"; then
            pass "figure $f is on $ch.html"
        else
            fail "figure $f is on $ch.html" "no <img src=\"fig/$f.svg\"> on the page"
        fi
    done
    # Each image of a figure on the page: its alt text, then its SVG.
    tr '\n' ' ' <"$page" | grep -oE '<img src="fig/[^"]*"[^>]*>' | while read -r img; do
        f=$(echo "$img" | sed -E 's/^<img src="fig\/([^"]*)\.svg".*/\1/')
        if ! echo "$img" | grep -qE 'alt="[^"]*[A-Za-z][^"]*"'; then
            fail "figure $f on $ch.html has alt text" "the <img> has no alt text"
        else
            pass "figure $f on $ch.html has alt text"
        fi
        why=$(check_svg "$B/html/fig/$f.svg")
        if [ -n "$why" ]; then
            fail "figure $f.svg" "$why"
        else
            pass "figure $f.svg: well-formed, a viewBox, both themes, legible at phone width"
        fi
    done
done
# Charts (html/charts/PROG/GPU.svg, drawn by chart.c from a transcript): a
# page shows each in a <picture> whose source on a phone's screen is the
# chart drawn narrow, and that one keeps its text at 10 px or more where it
# is 360 px wide (the wide chart would not: its text is a third smaller).
for ch in "${chapters[@]}"; do
    page=$B/html/$ch.html
    tr '\n' ' ' <"$page" | sed 's|</picture>|&\n|g' |
        grep -o '<picture>.*</picture>' | while read -r pic; do
        narrow=$(echo "$pic" | sed -nE 's/.*<source media="screen and \(max-width: 45\.99rem\)" srcset="([^"]*)".*/\1/p')
        wide=$(echo "$pic" | sed -nE 's/.*<img src="([^"]*)" class="chart".*/\1/p')
        name="chart ${wide:-?} on $ch.html"
        if [ -z "$wide" ] || [ -z "$narrow" ]; then
            fail "$name has a narrow drawing for a phone" "the picture has no chart image or no phone source: $pic"
            continue
        fi
        if [ ! -s "$B/html/$wide" ] || [ ! -s "$B/html/$narrow" ]; then
            fail "$name has a narrow drawing for a phone" "$wide or $narrow is missing"
            continue
        fi
        small=$(svg_text_px "$B/html/$narrow" 360)
        big=$(svg_text_px "$B/html/$wide" 360)
        if awk -v s="$small" -v b="$big" 'BEGIN { exit !(s >= 10 && b < 10) }'; then
            pass "$name has a narrow drawing for a phone (its smallest text $small px at 360 px, the wide one's $big)"
        else
            fail "$name has a narrow drawing for a phone" "smallest text at 360 px: narrow $small px, wide $big px"
        fi
    done
done
read -r -a programs <<<"${PROGRAMS:-}"
drawn=$(for p in "${programs[@]}"; do
    find "$B/html/charts/$p" -name '*.svg' ! -name '*.narrow.svg' 2>/dev/null
done | wc -l)
shown=$(for ch in "${chapters[@]}"; do cat "$B/html/$ch.html"; done 2>/dev/null | grep -o '<picture>' | wc -l)
if [ "$drawn" -gt 0 ] && [ "$drawn" = "$shown" ]; then
    pass "every chart drawn is on a page in a picture ($drawn)"
elif [ "$drawn" -eq 0 ] && [ "$shown" -eq 0 ]; then
    # make check CHAPTER=x of a chapter without charts (hopper-scan)
    skip "every chart drawn is on a page in a picture" "${chapters[*]} draws no chart"
else
    fail "every chart drawn is on a page in a picture" "$drawn charts drawn, $shown pictures on the pages"
fi

exit $failed
