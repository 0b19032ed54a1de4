# nwsplit.awk: a chapter's noweb pipeline cut into one small pipeline per
# file root, each holding only the code chunks that root reaches (its own
# pieces, the chunks they use, and so on), so that noweb's nt, which reads
# its whole input for every root it tangles, reads each chunk about once
# for the whole chapter: tangling a chapter of R roots costs its size, not
# R times it.
#
# usage: awk -v dir=DIR -f nwsplit.awk ROOTS PIPELINE
#
# ROOTS names the file roots, one a line; each root's pipeline goes to
# DIR/ROOT (a root is a file name the chapter check accepted: letters,
# digits, _, - and one dot). What nt writes from one is what it writes from
# the whole pipeline, byte for byte, #line directives included: the
# pipeline's @file line comes first, and before each chunk kept an
# "@line N" says where in the chapter it stands, which nt takes in place of
# counting the lines it was not given. Documentation and index lines are
# left out: nt reads neither.

FNR == NR { roots[++nroots] = $0; next }

FNR == 1 { line = 1 }
/^@file / && nchunks == 0 { file = $0 }
/^@begin code / {
    ++nchunks
    first[nchunks] = FNR
    at[nchunks] = line
    incode = 1
}
incode && /^@defn / {
    name = substr($0, 7)
    defs[name] = defs[name] " " nchunks
}
incode && /^@use / { uses[nchunks] = uses[nchunks] SUBSEP substr($0, 6) }
{ text[FNR] = $0 }
/^@nl$/ || /^@index nl$/ { ++line }
/^@end code / { last[nchunks] = FNR; incode = 0 }

END {
    for (r = 1; r <= nroots; ++r) {
        delete keep
        delete seen
        n = 0
        queue[++n] = roots[r]
        seen[roots[r]] = 1
        for (q = 1; q <= n; ++q) {
            k = split(defs[queue[q]], cs, " ")
            for (i = 1; i <= k; ++i) {
                c = cs[i]
                keep[c] = 1
                m = split(uses[c], us, SUBSEP)
                for (j = 2; j <= m; ++j) {
                    if (!(us[j] in seen)) {
                        seen[us[j]] = 1
                        queue[++n] = us[j]
                    }
                }
            }
        }
        out = dir "/" roots[r]
        if (file != "") print file > out
        for (c = 1; c <= nchunks; ++c) {
            if (!(c in keep)) continue
            print "@line " at[c] + 1 > out
            for (l = first[c]; l <= last[c]; ++l) print text[l] > out
        }
        close(out)
    }
}
