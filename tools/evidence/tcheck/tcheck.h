/* tcheck.h: what the parts of tcheck share. Each part, a .c file beside
 * this one, does one job (main.c says what tcheck does, and each part
 * what it does); here are the exit statuses and limits they keep to, the
 * things they read (a text, an expectation's patterns, an alignment, a
 * transcript), and the functions one part offers the others, part by
 * part. The build joins the parts into the one file that the GPU bundle
 * and the notebooks carry (tools/evidence/amalgamate.sh).
 *
 * Every part includes this header first: it asks for POSIX before any
 * system header is read.
 */
#ifndef TCHECK_H
#define TCHECK_H

#define _POSIX_C_SOURCE 200809L
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "transcript.h"
#include "util.h"

enum { kPass = 0, kFail = 1, kBad = 2, kWarn = 3, kSkip = 4 };

/* Bytes of one line a report shows. */
enum { kShowBytes = 400 };

/* What is kept of an output or a transcript (main.c says why). */
static const size_t kMaxLine = (size_t)1 << 20;
static const size_t kSlackLines = 100000;
static const size_t kBaseBytes = (size_t)64 << 20;

/* The line that ends a transcript's header. */
static const char kSeparator[] = "--- output ---";

/* The transcript header: these keys, one a line, in this order. The
 * last, the fingerprint of the code that was measured, is written by every
 * record; a transcript recorded before the book took fingerprints has
 * none, and is stale (see "fresh", fingerprint.c). */
enum {
    kProgram,
    kDate,
    kGpu,
    kCapability,
    kSms,
    kDriver,
    kRuntime,
    kNvcc,
    kCompile,
    kCommit,
    kFingerprint,
    kNumKeys
};
/* The keys every transcript has; the fingerprint may be missing. */
enum { kRequiredKeys = kFingerprint };
static const char *const kKeys[kNumKeys] = {
    "program", "date",   "gpu",     "compute capability",
    "sms",     "driver", "runtime", "nvcc",
    "compile", "commit", "fingerprint"};

/* ------------------------------------------------------------------ */
/* text.c: a file read as normalised lines, as many as the limits keep  */

struct str {
    const char *p;
    size_t n;
};

struct limits {
    size_t lines, bytes;
};

struct text {
    const char *path;   /* the name used in messages */
    char *buf;          /* the kept lines' bytes, owned (NULL in a view) */
    size_t size, cap;   /* bytes in buf, and its room */
    struct str *line;   /* normalised lines, pointing into buf */
    size_t *at;         /* the byte offset in the file where each starts */
    unsigned char *cut; /* 1 where a line was longer than kMaxLine */
    size_t nlines, lcap;
    size_t first;      /* the file line number of line[0] */
    size_t more_lines; /* lines after the kept ones, counted only */
    size_t more_bytes;
    int unterminated; /* the last line has no '\n' */
};

int is_blank(char c);
int is_digit(char c);
int str_eq(struct str a, struct str b);
int str_is(struct str a, const char *s);
int load_text(const char *path, struct text *t, struct limits lim);
void free_text(struct text *t);
struct limits output_limits(const struct text *e);
int text_problems(const struct text *t, const char *fix, FILE *f);
int load_expect(const char *path, struct text *e);
int load_output(const char *path, const struct text *e, struct text *o);
void put_str(FILE *f, struct str s);
void put_line(FILE *f, const char *prefix, struct str s);
void put_raw(FILE *f, struct str s);
char *path_of(const char *dir, const char *name, const char *sfx);
int is_file(const char *path);

/* ------------------------------------------------------------------ */
/* pattern.c: an expectation line compiled into tokens, and matched     */

enum tok_kind {
    TOK_LIT,    /* these bytes exactly */
    TOK_BLANKS, /* any number of blanks, zero included */
    TOK_MS,     /* measured: a time, an unsigned number */
    TOK_FLOAT,  /* measured: a number */
    TOK_INT,    /* measured: a whole number */
    TOK_GPU,    /* device: the GPU's name */
    TOK_DEVICE  /* device: any text */
};

struct tok {
    enum tok_kind kind;
    struct str lit; /* TOK_LIT: the bytes; a measured hole: its name, if
                       it has one ({{float:copy_gbs}}), else empty */
};

struct pat {
    struct tok *tok;
    size_t ntok;
    size_t nholes;
    int measured; /* has a measured hole */
    int device;   /* has a device hole: a device line */
    int gpu;      /* has a {{gpu}} hole */
};

int is_hole(enum tok_kind k);
int is_measured(enum tok_kind k);
int is_device(enum tok_kind k);
const char *hole_name(enum tok_kind k);
int hole_at(const char *s, size_t n);
int not_holes(const struct text *e, FILE *out);
struct pat *compile_text(const struct text *t);
void free_pats(struct pat *pats, size_t n);
int match_line(const struct pat *pt, struct str s, struct str *cap);
int matches(const struct pat *pt, const struct text *t, size_t j,
            struct str *cap);
enum tok_kind hole_kind(const struct pat *pt, size_t h);
const struct tok *hole_tok(const struct pat *pt, size_t h);
int explain_mismatch(const struct pat *pt, struct str s, char *buf,
                     size_t size);
int gpu_of(const struct text *e, const struct pat *pats,
           const struct text *o, struct str *gpu);

/* ------------------------------------------------------------------ */
/* diff.c: expectation lines aligned with output lines, and the diff    */

struct edit {
    char op;  /* '=' matched, '-' expectation line only, '+' output line only */
    size_t a; /* expectation line index ('=' and '-') */
    size_t b; /* output line index ('=' and '+') */
};

struct alignment {
    struct edit *ed;
    size_t n;
    size_t *of_exp; /* output line matched to expectation line i, or SIZE_MAX */
    size_t extra;   /* output lines past the kept ones: all '+', at the end */
};

void align(const struct pat *pats, size_t m, const struct text *out,
           struct alignment *al);
void free_align(struct alignment *al);
size_t count_differences(const struct alignment *al);
void print_diff(FILE *f, const struct text *e, const struct pat *pats,
                const struct text *o, const char *olabel,
                const struct alignment *al);

/* ------------------------------------------------------------------ */
/* transcript.c: "key: value" header lines, the separator, the output   */

struct transcript {
    struct text file; /* the file's lines, as many as the limits keep */
    struct str value[kNumKeys];
    struct text body; /* the output: a view into file */
    size_t offset;    /* where the output starts in the file, in bytes */
    int separated;    /* a separator line ends the header */
};

/* One part of a fingerprint: a file of the program (or "compile", "nvcc")
 * and its hash, as the header shows them. */
struct fp_part {
    struct str name, hash;
};

enum { kFpWhole = 16, kFpPart = 8 };

long read_fingerprint(struct str v, struct str *whole,
                      void (*each)(const struct fp_part *, void *),
                      void *arg);
const char *bad_value(int key, struct str v);
int load_transcript(const char *path, struct transcript *tr,
                    struct limits lim, FILE *f);
void free_transcript(struct transcript *tr);
char *slug_of(struct str name);
struct str base_name(const char *p, const char *sfx);
struct str dir_name(const char *p);

/* ------------------------------------------------------------------ */
/* report.c: verdicts, and the options of the commands that give them   */

/* The options of check, status and diff. */
struct opts {
    const char *name;  /* -n: the program, named in the verdict line */
    const char *err;   /* -e: the file holding the program's stderr */
    const char *gpu;   /* -g: the GPU, where the output does not name it */
    const char *label; /* -o: the output's name in messages */
};

/* A verdict, and where its details go: under the verdict line, indented
 * by four spaces when it names the program. */
struct report {
    const char *name;
    FILE *details;
};

int usage(void);
void buf_item(struct nw_buf *b, const char *sep, const char *s);
int parse_opts(int argc, char **argv, const char *allowed, struct opts *o,
               int *i);
int parse_status(const char *s, int *status);
int ran(int status);
void report_open(struct report *r, const char *name);
void report_verdict(const struct report *r, const char *word,
                    const char *why);
void report_close(struct report *r);
void put_stderr_tail(FILE *f, const char *path);
void report_skip(const struct opts *o);
void status_words(int status, char *buf, size_t size);

/* ------------------------------------------------------------------ */
/* check.c: an output held to its expectation                           */

/* An expectation and an output, read, with the expectation compiled. */
struct pair {
    struct text e, o;
    struct pat *pats;
};

int load_pair(const char *expect, const char *output, struct pair *p);
void free_pair(struct pair *p);

/* ------------------------------------------------------------------ */
/* lint.c: a transcript held to its expectation and its names           */

int duplicate_names(const struct text *e, const struct pat *pats, FILE *out);
int lint_transcript(const char *epath, const char *tpath, FILE *out);

/* ------------------------------------------------------------------ */
/* The commands, each in the part that does its job; main.c runs them.  */

int cmd_check(int argc, char **argv);       /* check.c */
int cmd_diff(int argc, char **argv);        /* check.c */
int cmd_pending(int argc, char **argv);     /* check.c */
int cmd_status(int argc, char **argv);      /* report.c */
int cmd_compare(int argc, char **argv);     /* compare.c */
int cmd_lint(int argc, char **argv);        /* lint.c */
int cmd_lint_tree(int argc, char **argv);   /* lint-tree.c */
int cmd_transcript(int argc, char **argv);  /* record.c */
int cmd_gpu(int argc, char **argv);         /* values.c */
int cmd_values(int argc, char **argv);      /* values.c */
int cmd_quotes(int argc, char **argv);      /* values.c */
int cmd_slug(int argc, char **argv);        /* values.c */
int cmd_fingerprint(int argc, char **argv); /* fingerprint.c */
int cmd_fresh(int argc, char **argv);       /* fingerprint.c */

#endif
