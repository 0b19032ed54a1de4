#!/bin/sh
# amalgamate.sh: C sources joined into one file that compiles alone, as
# SQLite makes sqlite3.c: the GPU bundle and the notebooks carry tcheck so,
# made from its parts (tools/evidence/tcheck/) by the build.
#
# usage: amalgamate.sh [-I DIR]... FILE...
#
# Writes FILE... to standard output, in order, each quoted #include
# ("x.h", not <x.h>) replaced by the file it names, the first time, and
# dropped after: the file is looked for beside the one that includes it,
# then in each DIR. A header found in a DIR is a library's, and its source
# beside it (x.c for x.h), where there is one, is written after FILE...,
# so that what the header declares is defined. A line "/* --- FILE --- */"
# says where each file's lines begin, and where one's resume after a
# header. An include found nowhere is said as "FILE:LINE: cannot find
# "x.h" ...", with exit status 2 (the caller writes to a temporary name:
# nothing half-made is left).
set -eu

dirs=
while [ $# -gt 0 ]; do
    case $1 in
    -I) [ $# -ge 2 ] || { echo "amalgamate.sh: -I needs a directory" >&2; exit 2; }
        dirs="$dirs$2
"
        shift 2 ;;
    -I*) dirs="$dirs${1#-I}
"
        shift ;;
    --) shift; break ;;
    -*) echo "usage: amalgamate.sh [-I DIR]... FILE..." >&2; exit 2 ;;
    *) break ;;
    esac
done
[ $# -gt 0 ] || { echo "usage: amalgamate.sh [-I DIR]... FILE..." >&2; exit 2; }

exec awk -v dirlist="$dirs" '
# The path p without "." and "dir/.." steps.
function norm(p,    n, i, k, part, out, s) {
    n = split(p, part, "/")
    k = 0
    for (i = 1; i <= n; i++) {
        if (part[i] == "." || (part[i] == "" && i > 1)) continue
        if (part[i] == ".." && k > 0 && out[k] != "..") { k--; continue }
        out[++k] = part[i]
    }
    s = ""
    for (i = 1; i <= k; i++) s = s (i > 1 ? "/" : "") out[i]
    return s
}
function dir_of(p) { return p ~ /\// ? substr(p, 1, match(p, /\/[^\/]*$/)) : "" }
function readable(p,    line, r) {
    r = (getline line < p)
    if (r >= 0) close(p)
    return r >= 0
}
function fail(msg) { printf "%s\n", msg > "/dev/stderr"; failed = 1; exit 2 }
# Write the file at path, its quoted includes in place.
function put(path,    line, r, lineno, name, found, cand, i, lib) {
    done[path] = 1
    printf "/* --- %s --- */\n", path
    lineno = 0
    while ((r = (getline line < path)) > 0) {
        lineno++
        if (line !~ /^[ \t]*#[ \t]*include[ \t]*"[^"]+"/) {
            print line
            continue
        }
        name = line
        sub(/^[ \t]*#[ \t]*include[ \t]*"/, "", name)
        sub(/".*/, "", name)
        found = ""
        lib = 0
        cand = norm(dir_of(path) name)
        if (readable(cand)) {
            found = cand
        } else {
            for (i = 1; i <= ndirs && found == ""; i++) {
                cand = norm(dirs[i] "/" name)
                if (readable(cand)) { found = cand; lib = 1 }
            }
        }
        if (found == "")
            fail(sprintf("%s:%d: cannot find \"%s\": it is not beside %s%s", path, lineno, name, path, where))
        if (found in done) continue
        put(found)
        printf "/* --- %s --- */\n", path
        if (lib && found ~ /\.h$/) {
            cand = substr(found, 1, length(found) - 1) "c"
            if (!(cand in queued) && readable(cand)) { queued[cand] = 1; queue[++nqueue] = cand }
        }
    }
    if (r < 0) fail(sprintf("%s: cannot read", path))
    close(path)
}
BEGIN {
    ndirs = split(dirlist, dirs, "\n") - 1
    where = ""
    for (i = 1; i <= ndirs; i++) where = where ", nor in " dirs[i]
    print "/* Made by tools/evidence/amalgamate.sh from the files that the lines"
    print " * \"--- FILE ---\" name, each quoted #include in place once: edit those,"
    print " * not this. */"
    for (i = 1; i < ARGC; i++) {
        p = norm(ARGV[i])
        if (!(p in done)) put(p)
    }
    for (i = 1; i <= nqueue; i++)
        if (!(queue[i] in done)) put(queue[i])
    exit 0
}' "$@"
