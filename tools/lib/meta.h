/* meta: the files in which the build keeps what it knows about chapters,
 * each written by one tool and read here.
 *
 *   build/meta/NAME.tsv, NAME.lines   chapter-meta: the chapter's title,
 *       file roots and snippet labels, a line each: KIND<TAB>VALUE, and in
 *       .lines a third field, the line of the .nw file it comes from, and
 *       the labels of other chapters that the prose cites (KIND cite),
 *       and the chapters it names as "day N" (KIND day, VALUE N);
 *   chapters/labels.tsv   the label registry: every label the book has
 *       published, what replaced a retired one, and the fingerprint and
 *       date of each revision of a label's code (make revise adds one);
 *   build/md/NAME.chunks   chapter-md: every piece of every code chunk of
 *       the chapter, as its page shows it (anchor, piece, line, name).
 */
#ifndef META_H
#define META_H

#include "lines.h"

#include <stddef.h>
#include <stdio.h>

/* A root or a label of a chapter, and its line in the .nw file (0 where the
 * file read was a .tsv, which has none). */
struct nw_named {
    char *name;
    long line;
};

/* A chapter, as its META file (.tsv or .lines) has it. */
struct nw_chapter {
    char *name;  /* day32-scan: the META file's name */
    char *title; /* the first title line, or the name where there is none */
    struct nw_named *roots, *labels; /* each in the chapter's order */
    struct nw_named *cites; /* .lines only: [[<<label>>]] of other chapters */
    struct nw_named *days;  /* .lines only: "day N" in the prose, name N */
    size_t nroots, nlabels, ncites, ndays;
    size_t roots_cap, labels_cap, cites_cap, days_cap;
};

/* Reads a META file. Returns 0, or -1 having said why on stderr. */
int nw_meta_read(const char *path, struct nw_chapter *ch);
void nw_meta_free(struct nw_chapter *ch);

/* The book's chapters, in the order their META files were given. */
struct nw_book {
    struct nw_chapter *v;
    size_t n;
};

/* Reads n META files. Returns 0, or -1 having said why on stderr (with
 * book empty). */
int nw_book_read(struct nw_book *book, char *const *paths, size_t n);
/* The chapter named name, or NULL. */
const struct nw_chapter *nw_book_find(const struct nw_book *book,
                                      const char *name);
void nw_book_free(struct nw_book *book);

/* A revision of a published label's code, as the registry records it. */
struct nw_revision {
    int n;                 /* 1, 2, ... */
    char date[11];         /* YYYY-MM-DD, when it was published */
    unsigned long long fp; /* code_fingerprint of its code */
    long line;             /* of its line in the registry */
};

/* The book's labels, across chapters. */
struct nw_label {
    char *label;
    char *chapter;     /* day32-scan */
    char *replaced_by; /* registry only: the label that replaces a retired
                          one, or NULL */
    long line;         /* line in the file it was read from */
    struct nw_revision *revs; /* registry only: its revisions, 1 first */
    size_t nrevs, revs_cap;
};

struct nw_labels {
    struct nw_label *v;
    size_t n, cap;
};

/* Adds the labels of build/meta/CHAPTER.tsv (or .lines) files. */
int nw_labels_from_meta(struct nw_labels *ls, const char *path);
/* Reads chapters/labels.tsv: label, chapter, and for a retired label the
 * label that replaces it; after a label's line, a line for each revision
 * of its code, LABEL<TAB>N<TAB>YYYY-MM-DD<TAB>FINGERPRINT (16 hex digits),
 * numbered 1, 2, ... Blank lines and lines starting with # are comments.
 * Returns -1 with a message on stderr for a malformed line. */
int nw_labels_from_registry(struct nw_labels *ls, const char *path);
const struct nw_label *nw_labels_find(const struct nw_labels *ls,
                                      const char *label);
/* Where the registry at path keeps the code of revision n of label, once
 * a later revision replaced it: the folder labels/ beside it,
 * chapters/labels/LABEL@N.cu. Writes at most size bytes into out and
 * returns it. */
const char *nw_kept_code(char *out, size_t size, const char *registry,
                         const char *label, int n);
void nw_labels_free(struct nw_labels *ls);

/* Where [[<<name>>]] in the prose of chapter (its pipeline doc) leads, as
 * its page links it: "#ANCHOR" for a chunk of the chapter, else a label of
 * labels or, failing that, of registry: "#LABEL" where it is the chapter's
 * own, "CHAPTER.html#LABEL" where another's. Writes at most size bytes into
 * out; returns 1, or 0 where the name cites nothing. */
struct nw_doc;
int nw_cite_href(const struct nw_doc *doc, const char *chapter,
                 const struct nw_labels *labels,
                 const struct nw_labels *registry, const char *name,
                 char *out, size_t size);

/* A piece of a code chunk, a line of NAME.chunks:
 * ANCHOR<TAB>PIECE<TAB>LINE<TAB>NAME, the name last since it may hold a tab. */
struct nw_piece {
    char *anchor; /* its div's id on the page */
    int piece;    /* 1 for the first definition, 2, ... */
    long line;    /* of its <<name>>= header in the .nw file */
    char *name;
};

struct nw_piece_list {
    struct nw_piece *v;
    size_t n, cap;
};

/* Writes a line of NAME.chunks. */
void nw_piece_put(FILE *out, const char *anchor, int piece, long line,
                  const char *name);
/* Reads NAME.chunks. Returns 0, or -1 having said why on stderr. */
int nw_piece_list_read(struct nw_piece_list *ps, const char *path);
/* The piece whose anchor is the len bytes at anchor, or NULL. */
const struct nw_piece *nw_piece_list_find(const struct nw_piece_list *ps,
                                          const char *anchor, size_t len);
void nw_piece_list_free(struct nw_piece_list *ps);

#endif
