/* noweb: read noweb's pipeline format into a chapter model.
 *
 * noweb's markup turns a .nw file into a line-oriented stream of keywords
 * (@begin code, @defn, @use, @text, @nl, @quote, ...), documented in the
 * Hacker's guide (/usr/share/doc/noweb/guide.html). Every tool of the book
 * that needs a chapter's structure reads it from that stream, never from the
 * .nw text itself, so noweb stays the only parser of noweb syntax.
 */
#ifndef NOWEB_H
#define NOWEB_H

#include <stddef.h>
#include <stdio.h>

enum nw_item_kind {
    NW_TEXT,     /* s holds the text, without newline */
    NW_NL,       /* end of a source line */
    NW_USE,      /* s holds the chunk name */
    NW_QUOTE,    /* start of [[quoted code]] in documentation */
    NW_ENDQUOTE  /* end of quoted code */
};

struct nw_item {
    enum nw_item_kind kind;
    char *s;
    long line; /* source line the item came from */
};

/* An identifier a code chunk defines or uses, as noweb's index lines say:
 * @index defn NAME (from the autodefs filter, or from the chunk's
 * "@ %def NAME..." line), @index localdefn NAME (autodefs: a static
 * definition), @index use NAME (the finduses filter, at each appearance of
 * a defined name in code). */
enum {
    NW_ID_LOCAL = 1, /* localdefn */
    NW_ID_STATED = 2 /* stated on the chunk's @ %def line */
};
struct nw_ident {
    char *name;
    long line;   /* of the definition, or of the @ %def line */
    size_t item; /* items[item] is the use's text, or what follows the
                    definition */
    int flags;
};

struct nw_chunk {
    int is_code;
    char *name;  /* code chunks: the chunk name */
    long line;   /* code chunks: line of the <<name>>= header */
    int piece;   /* code chunks: 1 for the first definition, 2, ... */
    struct nw_item *items;
    size_t n, cap;
    struct nw_ident *defs, *uses; /* code chunks: the index lines */
    size_t ndefs, nuses, defs_cap, uses_cap;
};

struct nw_index; /* each chunk name's first piece and users (noweb.c) */

struct nw_doc {
    char *file;  /* the .nw path, from @file */
    struct nw_chunk *chunks;
    size_t n, cap;
    long lines;  /* number of source lines read */
    struct nw_index *index; /* built by nw_read, which every doc comes
                               from: the lookups below are by name, not by
                               a walk of every chunk */
};

/* Reads a whole pipeline. Returns 0, or -1 with a one-line message (no
 * trailing newline, already prefixed with file:line where one is known) in
 * err; err is empty where markup has said what is wrong already (@fatal).
 * Either way doc is to be freed with nw_free. */
int nw_read(FILE *in, struct nw_doc *doc, char *err, size_t errlen);
/* Reads a whole pipeline as nw_read does, but says what is wrong on stderr
 * itself (where markup has not already) and frees what it read. Returns 0,
 * or -1 with doc empty. */
int nw_load(FILE *in, struct nw_doc *doc);
void nw_free(struct nw_doc *doc);

/* Index of the first code chunk named name at or after from, or -1. */
long nw_find_defn(const struct nw_doc *doc, const char *name, size_t from);
/* Number of pieces (definitions) of a chunk name. */
int nw_pieces(const struct nw_doc *doc, const char *name);
/* Non-zero if some code chunk uses name. */
int nw_is_used(const struct nw_doc *doc, const char *name);
/* Non-zero if code chunk c uses name. */
int nw_chunk_uses(const struct nw_chunk *c, const char *name);
/* Marks in seen[] (doc->n bytes, zeroed) with 1 every file root that the
 * chunk named name reaches by being used, directly or through other chunks
 * (2 marks a chunk passed through). */
void nw_roots_of(const struct nw_doc *doc, const char *name, char *seen);
/* The file roots chunk c is tangled into: the index of each one's first
 * piece, *n of them, in the order of the chapter (worked out once a chunk,
 * and kept). */
const size_t *nw_chunk_roots(const struct nw_doc *doc, size_t c, size_t *n);

/* Quoted code in documentation, [[...]], opens at an NW_QUOTE, items[j] of
 * c: the index of the NW_ENDQUOTE that closes it (or c->n). */
size_t nw_quote_end(const struct nw_chunk *c, size_t j);
/* A citation, [[<<name>>]], is quoted code that holds nothing but one chunk
 * reference: the index of that NW_USE, or 0 where the quote is not one. */
size_t nw_quote_cite(const struct nw_chunk *c, size_t j, size_t end);

#endif
