/* xref: a chapter's identifiers, where each is defined and used, from the
 * index lines of its noweb pipeline (noweb.h: each code chunk's defs and
 * uses, which noweb's autodefs.c, a chunk's "@ %def" line and finduses
 * give; tools/book/nwpipe.sh runs them).
 *
 * A definition counts where
 *   - a chunk's @ %def line states it: the author says so; or
 *   - autodefs.c found it, in a chunk that lands at file scope, and it is
 *     no word of C++ or CUDA. A chunk lands at file scope where it is a
 *     file root, or where every use of it is at the left margin of a chunk
 *     that lands there. A chunk used indented is inside a function or a
 *     type, and what autodefs.c finds at its margin (a local's declaration,
 *     a call) defines nothing the book indexes. autodefs.c also takes some
 *     lines for definitions of C++'s own words (static_assert(...) for one
 *     of static_assert, "static constexpr int k" for one of constexpr);
 *     those are dropped.
 * A name is one entry per chapter, however many chunks define it (two
 * programs of a chapter may each have a main); chapters do not share
 * entries. Its uses are the chunks finduses marks it in, other than those
 * that define it, and than those that have it only in // comments.
 */
#ifndef XREF_H
#define XREF_H

#include "noweb.h"

#include <stddef.h>

struct nw_xentry {
    char *name;
    /* What the definition is, read from the words before the name where
     * its first defining chunk first has it: "kernel", "device function",
     * "function", "type", "enumerator", "constant", "variable", "macro";
     * NULL where those words say none. */
    const char *kind;
    size_t *defs; /* indices in doc->chunks of the chunks defining it */
    size_t *uses; /* ... and of those using it, that do not define it */
    size_t ndefs, nuses, defs_cap, uses_cap;
};

struct nw_xref {
    struct nw_xentry *v; /* in the order of first definition */
    size_t n, cap;
};

/* The identifiers of a chapter. */
void nw_xref_build(const struct nw_doc *doc, struct nw_xref *x);
void nw_xref_free(struct nw_xref *x);
/* The entry of name, or NULL. */
const struct nw_xentry *nw_xref_find(const struct nw_xref *x,
                                     const char *name);
/* Does chunk index c define the entry's name? */
int nw_xentry_defines(const struct nw_xentry *e, size_t c);
/* The definition a use in chunk u means: the one chunk defining the name,
 * or of several the one that reaches a file u reaches; -1 where that is not
 * one chunk (a reader goes to the index entry then). */
long nw_xref_target(const struct nw_doc *doc, const struct nw_xentry *e,
                    size_t u);

/* An identifier as noweb's finduses reads one: letters, digits and '_'. */
int nw_is_ident(const char *s);
/* Is name one of C++'s or CUDA's own words (int, constexpr, __global__),
 * which the book never indexes? */
int nw_is_cxx_word(const char *name);

#endif
