/* nwpipe: read noweb's pipeline format into a chapter model, and the small
 * helpers the book's tools share (at the end).
 *
 * noweb's markup turns a .nw file into a line-oriented stream of keywords
 * (@begin code, @defn, @use, @text, @nl, @quote, ...), documented in the
 * Hacker's guide (/usr/share/doc/noweb/guide.html). Every tool of the book
 * that needs a chapter's structure reads it from that stream, never from the
 * .nw text itself, so noweb stays the only parser of noweb syntax.
 */
#ifndef NWPIPE_H
#define NWPIPE_H

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

struct nw_chunk {
    int is_code;
    char *name;  /* code chunks: the chunk name */
    long line;   /* code chunks: line of the <<name>>= header */
    int piece;   /* code chunks: 1 for the first definition, 2, ... */
    struct nw_item *items;
    size_t n, cap;
};

struct nw_doc {
    char *file;  /* the .nw path, from @file */
    struct nw_chunk *chunks;
    size_t n, cap;
    long lines;  /* number of source lines read */
};

/* Reads a whole pipeline. Returns 0, or -1 with a one-line message (no
 * trailing newline, already prefixed with file:line where one is known) in
 * err. */
int nw_read(FILE *in, struct nw_doc *doc, char *err, size_t errlen);
void nw_free(struct nw_doc *doc);

/* Name classes. A label is lowercase kebab-case: letters, digits, hyphens.
 * A file root is named like a file (has a dot and no blank). Everything else
 * must be a phrase, with at least one blank. */
int nw_is_label(const char *name);
int nw_is_file_name(const char *name);
int nw_is_phrase(const char *name);
/* The type of a file root we know how to build: .cu, .cuh or .h. */
int nw_is_known_file_type(const char *name);

/* Index of the first code chunk named name at or after from, or -1. */
long nw_find_defn(const struct nw_doc *doc, const char *name, size_t from);
/* Number of pieces (definitions) of a chunk name. */
int nw_pieces(const struct nw_doc *doc, const char *name);
/* Non-zero if some code chunk uses name. */
int nw_is_used(const struct nw_doc *doc, const char *name);

/* The anchor of piece k of a chunk: the label itself (label-2, ...), or
 * "chunk-" / "file-" and a slug of the name. Writes at most size bytes. */
void nw_anchor(const char *name, int piece, char *out, size_t size);

/* The book's labels, across chapters. */
struct nw_label {
    char *label;
    char *chapter;     /* day32-scan */
    char *replaced_by; /* registry only: the label that replaces a retired
                          one, or NULL */
    long line;         /* line in the file it was read from */
};

struct nw_labels {
    struct nw_label *v;
    size_t n, cap;
};

/* Adds the labels of build/meta/CHAPTER.tsv (or .lines) files. */
int nw_labels_from_meta(struct nw_labels *ls, const char *path);
/* Reads chapters/labels.tsv: label, chapter, and for a retired label the
 * label that replaces it. Blank lines and lines starting with # are
 * comments. Returns -1 with a message on stderr for a malformed line. */
int nw_labels_from_registry(struct nw_labels *ls, const char *path);
const struct nw_label *nw_labels_find(const struct nw_labels *ls,
                                      const char *label);
void nw_labels_free(struct nw_labels *ls);
/* CHAPTER from a path such as build/meta/CHAPTER.tsv or chapters/CHAPTER.nw */
char *nw_chapter_of(const char *path);

/* Splits a tab-separated line in place, dropping its newline, into at most
 * max fields; returns how many. */
int nw_split_tabs(char *line, char **fields, int max);

/* Helpers shared by the tools. */
void *nw_xrealloc(void *p, size_t size);
char *nw_xstrdup(const char *s);

/* Reads a whole pipeline as nw_read does, but says what is wrong on stderr
 * itself (where markup has not already) and frees what it read. Returns 0,
 * or -1 with doc empty. */
int nw_load(FILE *in, struct nw_doc *doc);

/* A string that grows. Start it as {NULL, 0, 0}; once anything has been
 * added, even "", s is NUL-terminated and n is its length. free(s) ends it. */
struct nw_buf {
    char *s;
    size_t n, cap;
};
void nw_buf_add(struct nw_buf *b, const char *s, size_t n);
void nw_buf_puts(struct nw_buf *b, const char *s);

/* The rest of a stream, with a NUL after its bytes and their number in *len
 * (where len is not NULL). A read error stops it early: see ferror(in). */
char *nw_slurp(FILE *in, size_t *len);
/* The whole of a file, as nw_slurp; NULL where it cannot be opened or read. */
char *nw_slurp_file(const char *path, size_t *len);
/* A text file: as nw_slurp_file, and NULL also where it holds a NUL byte. */
char *nw_slurp_text(const char *path);

/* The length of the longest run of ch in s. */
size_t nw_longest_run(const char *s, char ch);

/* s as a double-quoted string, with a backslash before each '"' and '\\':
 * as YAML and gnuplot read one. s is one line. */
void nw_put_dquoted(FILE *out, const char *s);

/* Pandoc Markdown. Each writer appends to a buffer (nw_buf_...) or writes to
 * a stream (nw_put_...), the same bytes.
 *
 * Text: s with a backslash before each character of marks. NW_MD_MARKS is
 * every ASCII character that can make markup in the book's Markdown; pandoc
 * reads a backslash before any ASCII punctuation as the character itself,
 * so a backslash too many is harmless, but an escaped ' or " is printed
 * straight where pandoc would otherwise make it a curly quote. */
#define NW_MD_MARKS "\\`*_{}[]()#+-.!<>|$&@^~\"'=:"
void nw_buf_md_text(struct nw_buf *b, const char *s, const char *marks);
void nw_put_md_text(FILE *out, const char *s, const char *marks);
/* Inline code: s between runs of backticks longer than any inside it, with
 * a blank inside each, so that a backtick at either end of s stays code. */
void nw_buf_md_code(struct nw_buf *b, const char *s);
void nw_put_md_code(FILE *out, const char *s);
/* A fenced code block: a fence of '~' longer than any run of '~' in text,
 * and at least 4 long, then " {ATTRS}", text ending in a newline (added
 * where it has none), the closing fence and a newline. */
void nw_buf_code_block(struct nw_buf *b, const char *attrs, const char *text);
void nw_put_code_block(FILE *out, const char *attrs, const char *text);

#endif
