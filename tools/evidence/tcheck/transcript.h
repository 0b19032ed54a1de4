/* transcript.h: the book's one reader of transcripts, for its tools.
 *
 * A transcript (evidence/PROG/GPU.txt) is "key: value" header lines, the
 * line "--- output ---", then the output verbatim; tcheck writes, reads
 * and checks them, and its parts define these functions (transcript.c,
 * fingerprint.c). A tool that includes this header is linked with tcheck's
 * parts but main.c, the archive build/tools/libtcheck.a (the Makefile does
 * that for run-md, chart and snippets).
 */
#ifndef TRANSCRIPT_H
#define TRANSCRIPT_H

#include <stddef.h>
#include <stdint.h>

struct transcript;

/* Read a transcript. NULL, after saying why on stderr as "file:line:
 * message", where it cannot be read or has no separator line. Problems of
 * its header (tcheck lint reports them) leave those values absent. */
struct transcript *transcript_read(const char *path);

/* The value of a header key ("gpu", "date", ...) and its length, not
 * NUL-terminated; NULL where the header has none. */
const char *transcript_value(const struct transcript *t, const char *key,
                             size_t *len);

/* The output's lines, normalised as tcheck compares them (no line end,
 * no trailing blanks), each with its line number in the file. */
size_t transcript_lines(const struct transcript *t);
const char *transcript_line(const struct transcript *t, size_t i, size_t *len,
                            long *lineno);

/* Where the output starts in the file, in bytes: the output as recorded
 * is the file from there on. */
size_t transcript_offset(const struct transcript *t);

void transcript_free(struct transcript *t);

/* The fingerprint of C or C++ code, a snippet label's: 64-bit FNV-1a of
 * the code normalised as tcheck normalises a program's (no comments, no
 * blank lines, every run of blanks one blank, literals as they are), and
 * then without its layout: a line break or a blank counts only between
 * two characters of a word, or of an operator, that it keeps apart, and
 * on a preprocessor line. So an edit of whitespace or comments, a line
 * split or joined, leaves it as it was. */
uint64_t code_fingerprint(const char *s, size_t n);

#endif
