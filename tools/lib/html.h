/* html: the one reader of the book's HTML pages, for every tool that reads
 * a page pandoc wrote or changes one (chunk-links, heading-links,
 * book-page, search-index).
 *
 * A page is read as tokens, each a span of the input: text, a start tag, an
 * end tag, a comment, or another markup declaration (<!DOCTYPE ...>,
 * <?...?>). One token follows another with nothing between, so that the
 * tokens cover every byte of the input: a tool that changes a page copies
 * the spans it leaves alone and writes its own in place of the others.
 *
 * A '<' starts a tag only before a letter ("</" and a letter: an end tag);
 * any other '<' is text, as a browser reads it. A tag ends at the first
 * '>' outside a quoted value. The content of <script> and <style> is one
 * text token, up to its end tag, whatever it holds. An unclosed tag, quoted
 * value, comment or script is one line on stderr, "FILE:LINE: what"
 * (nw_error), and the end of the tokens.
 */
#ifndef HTML_H
#define HTML_H

#include "util.h"

#include <stddef.h>

enum nw_html_kind {
    NW_HTML_TEXT,
    NW_HTML_START,   /* <name attr="value" ...> */
    NW_HTML_END,     /* </name> */
    NW_HTML_COMMENT, /* <!-- ... --> */
    NW_HTML_OTHER    /* <!...> or <?...> */
};

struct nw_html_token {
    enum nw_html_kind kind;
    const char *s; /* the token's bytes, len of them, in the input */
    size_t len;
    const char *name; /* a tag's name, name_len bytes, as written */
    size_t name_len;
    long line; /* the line its first byte is on */
};

/* A reader: nw_html_init, then nw_html_next until it returns 0 or -1. */
struct nw_html {
    const char *p, *end;
    const char *path; /* the file read, as errors name it */
    long line;
    const char *raw;  /* after <script> or <style>: its name */
    size_t raw_len;
};

/* Reads the n bytes at s, from a file path whose line `line` s begins on. */
void nw_html_init(struct nw_html *h, const char *s, size_t n,
                  const char *path, long line);
/* The next token into t: 1, or 0 at the end of the input, or -1 having
 * said what is wrong (above). */
int nw_html_next(struct nw_html *h, struct nw_html_token *t);

/* An attribute of a start tag: its name, and its value (without quotes;
 * NULL where it has none, as <input checked>), both spans of the tag. */
struct nw_html_attr {
    const char *name;
    size_t name_len;
    const char *value;
    size_t value_len;
};
/* The attribute after *pos (start at NULL) in tag t, into a: 1, or 0 where
 * there is no further one. */
int nw_html_attr_next(const struct nw_html_token *t, const char **pos,
                      struct nw_html_attr *a);

/* Is t a tag (start or end) of this name, case ignored? name is
 * lowercase. */
int nw_html_is(const struct nw_html_token *t, const char *name);
/* The level of a heading tag, <h1> to <h6> or their end tags; else 0. */
int nw_html_heading(const struct nw_html_token *t);
/* The value of start tag t's attribute name (lowercase), as written, its
 * length in *len (an empty one where it has none); NULL where t has no
 * such attribute. */
const char *nw_html_attr(const struct nw_html_token *t, const char *name,
                         size_t *len);
/* Does start tag t have the attribute name (lowercase) with the value
 * value, as written? */
int nw_html_attr_is(const struct nw_html_token *t, const char *name,
                    const char *value);
/* Does start tag t's class attribute hold the class cls? */
int nw_html_has_class(const struct nw_html_token *t, const char *cls);

/* A character reference at s, n bytes: its length, '&' to ';' (&name;,
 * &#DIGITS; or &#xHEX;), or 0 where s holds none. */
size_t nw_html_ref_len(const char *s, size_t n);
/* The code point of the reference at s, len bytes as nw_html_ref_len
 * found, into *cp: 1, or 0 for a name the book's pages never hold. */
int nw_html_ref_code(const char *s, size_t len, unsigned long *cp);
/* Appends the UTF-8 of code point cp; U+FFFD for one that is not a
 * character (0, a surrogate, beyond U+10FFFF). */
void nw_buf_utf8(struct nw_buf *b, unsigned long cp);

#endif
