/* util: what every tool of the book needs, whatever it reads: memory that
 * cannot fail, growing arrays and strings, whole files, tab-separated lines,
 * the one way a tool says what is wrong, and a chapter's name from a path.
 */
#ifndef UTIL_H
#define UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/* realloc, calloc and strdup that end the program (exit status 2) when
 * memory runs out. */
void *nw_xrealloc(void *p, size_t size);
void *nw_xcalloc(size_t n, size_t size);
char *nw_xstrdup(const char *s);

/* Makes room for at least need elements of size bytes in v, which holds
 * *cap of them, doubling *cap as often as it takes; returns v, moved.
 * Grow an array before adding to it:
 *     xs = nw_grow(xs, &cap, n + 1, sizeof *xs);
 *     xs[n++] = x; */
void *nw_grow(void *v, size_t *cap, size_t need, size_t size);

/* A string that grows. Start it as {NULL, 0, 0}; once anything has been
 * added, even "", s is NUL-terminated and n is its length. free(s) ends it. */
struct nw_buf {
    char *s;
    size_t n, cap;
};
void nw_buf_add(struct nw_buf *b, const char *s, size_t n);
void nw_buf_puts(struct nw_buf *b, const char *s);
/* Writes what b holds to out and frees it. */
void nw_buf_put(FILE *out, struct nw_buf *b);

/* The rest of a stream, with a NUL after its bytes and their number in *len
 * (where len is not NULL). A read error stops it early: see ferror(in). */
char *nw_slurp(FILE *in, size_t *len);
/* The whole of a file, as nw_slurp; NULL where it cannot be opened or read. */
char *nw_slurp_file(const char *path, size_t *len);
/* A text file: as nw_slurp_file, and NULL also where it holds a NUL byte. */
char *nw_slurp_text(const char *path);

/* Calls each(ctx, line, lineno) for every line of the file at path, in
 * order, its newline kept, until one call returns non-zero. Returns what
 * that call returned, or 0; or -1 having said so (nw_error: "cannot read",
 * and what, such as "the label registry", where what is not NULL) where
 * the file cannot be opened or read. */
int nw_each_line(const char *path, const char *what,
                 int (*each)(void *ctx, char *line, long lineno), void *ctx);

/* Splits a tab-separated line in place, dropping its newline, into at most
 * max fields; returns how many. The last field keeps any further tabs. */
int nw_split_tabs(char *line, char **fields, int max);

/* Says what is wrong, on stderr: "WHERE:LINE: message", or with line 0
 * "WHERE: message". WHERE is the file at fault, or the tool's name where no
 * file is; with WHERE NULL the message stands alone. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
void nw_error(const char *where, long line, const char *fmt, ...);
/* The same line, without its newline, into buf. */
void nw_format_error(char *buf, size_t size, const char *where, long line,
                     const char *fmt, va_list ap);

/* Flushes stdout; where that or an earlier write failed, says so as tool
 * (nw_error) and returns 1; else returns 0. */
int nw_flush_stdout(const char *tool);

/* CHAPTER from a path such as build/meta/CHAPTER.tsv or chapters/CHAPTER.nw */
char *nw_chapter_of(const char *path);

#endif
