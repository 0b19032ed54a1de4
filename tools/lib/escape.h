/* escape: text from a chapter into the formats the book writes, so that it
 * reaches the reader as text and never as markup: Pandoc Markdown (text,
 * inline code, fenced code blocks), HTML, and double-quoted strings.
 *
 * Each Markdown writer appends to a buffer (nw_buf_...) or writes to a
 * stream (nw_put_...), the same bytes.
 */
#ifndef ESCAPE_H
#define ESCAPE_H

#include "util.h"

#include <stddef.h>
#include <stdio.h>

/* The characters a backslash escapes in Markdown text (nw_put_md_text).
 * NW_MD_MARKS is every ASCII character that can make markup in the book's
 * Markdown; pandoc reads a backslash before any ASCII punctuation as the
 * character itself, so a backslash too many is harmless, but an escaped '
 * or " is printed straight where pandoc would otherwise make it a curly
 * quote. NW_MD_TITLE_MARKS leaves those to pandoc, as in a chapter's title,
 * which the page shows with curly quotes. */
#define NW_MD_TITLE_MARKS "\\`*_{}[]()#+-.!<>|$&"
#define NW_MD_MARKS NW_MD_TITLE_MARKS "@^~\"'=:"

/* Text: s with a backslash before each character of marks. */
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
/* For a writer of code blocks item by item: the length of the fence that
 * nw_put_code_block gives text whose longest run of '~' is longest. */
size_t nw_fence_length(size_t longest);
/* n times ch: a fence, or a run of backticks. */
void nw_put_run(FILE *out, char ch, size_t n);

/* The length of the longest run of ch in s. */
size_t nw_longest_run(const char *s, char ch);

/* HTML text or an attribute value: & < > " as entities. */
void nw_buf_html(struct nw_buf *b, const char *s);
void nw_put_html(FILE *out, const char *s);

/* s in an address: letters, digits, - _ . ~ and the characters of keep
 * (such as "/" for a path) as they are, every other byte as %XX. */
void nw_put_url(FILE *out, const char *s, const char *keep);

/* s as a double-quoted string, with a backslash before each '"' and '\\':
 * as YAML and gnuplot read one. s is one line. */
void nw_put_dquoted(FILE *out, const char *s);

#endif
