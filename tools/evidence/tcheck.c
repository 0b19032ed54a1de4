/*
 * tcheck: check a program's output against its expectation
 * (evidence/PROG.expect) and the transcripts recorded on real GPUs
 * (evidence/PROG/GPU.txt). The README's "Evidence" section is the
 * specification; this file implements it.
 *
 * It is one file of C11 (and POSIX's directory listing) on purpose: the
 * GPU bundle and the notebooks carry it alone and compile it with one
 * command where nothing else of the book is. It is also the book's one
 * reader of transcripts and expectations: built with -DTCHECK_NO_MAIN it
 * has no main, and the functions tools/evidence/transcript.h declares
 * serve the book's tools (run-md, chart, snippets).
 *
 *   tcheck check [-n NAME] [-e STDERR] [-g GPU] [-o LABEL]
 *                EXPECT TRANSCRIPT_DIR OUTPUT STATUS
 *   tcheck status [-n NAME] [-e STDERR] STATUS
 *   tcheck diff [-o LABEL] EXPECT OUTPUT
 *   tcheck pending EXPECT OUTPUT
 *   tcheck compare EXPECT TRANSCRIPT OUTPUT
 *   tcheck lint EXPECT TRANSCRIPT
 *   tcheck lint-tree [-c] EVIDENCE PROG...
 *   tcheck transcript HEADER OUTPUT
 *   tcheck gpu EXPECT OUTPUT
 *   tcheck slug NAME
 *   tcheck values EXPECT OUTPUT
 *   tcheck quotes EXPECT TRANSCRIPT
 *   tcheck quotes -o EXPECT OUTPUT
 *   tcheck fingerprint -c COMPILE -v NVCC [-x FILE]... SOURCE
 *   tcheck fresh [-n NAME] [-w WHERE] [-r COMMAND] [-h NVCC] -c COMPILE
 *                [-x FILE]... SOURCE TRANSCRIPT
 *
 * Exit status: 0 pass, 1 fail, 2 bad input or usage, 3 pass with a
 * warning, 4 skipped: the program exited 77, its way of saying that this
 * machine cannot run it (the one place that rule is written).
 *
 * check, status and lint-tree print a verdict line first, in one of the
 * forms "PASS", "PASS (warning: ...)", "FAIL: why", "SKIP: why"; with
 * -n NAME, "PASS NAME", "FAIL NAME: why" and so on, and the details under
 * it indented by four spaces. The exit status says the same, so that no
 * caller needs to read the line. Errors go to standard error as
 * "file:line: message", or "tcheck: message" where there is no file.
 *
 * Memory is bounded by the expectation, not by the output: an output or a
 * transcript is read as a stream, and only its first 2 x (expectation
 * lines) + kSlackLines lines, of at most kMaxLine bytes each and
 * kBaseBytes + 4 x (expectation bytes) in all, are kept; the rest is
 * counted, and reported as lines the expectation does not have.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { kPass = 0, kFail = 1, kBad = 2, kWarn = 3, kSkip = 4 };

/* The exit status by which a program says this machine cannot run it
 * (too little memory, a compute capability it needs): a skip. */
enum { kSkipStatus = 77 };

enum {
    kContext = 3,       /* unchanged lines around a difference, as diff -u */
    kMaxDiffLines = 40, /* diff lines shown before the rest is counted */
    kMaxLocations =
        10,           /* "file:line:" notes shown before the rest is counted */
    kLabelWidth = 28, /* widest label in the compare table */
    kShowBytes = 400, /* bytes of one line a report shows */
    kTailLines = 5,   /* lines of a program's stderr shown under a failure */
    kTailBytes = 4096 /* where on stderr those lines are looked for */
};

/* The largest LCS table built, in cells of 4 bytes: 2048 by 2048 lines,
 * 16 MiB. A longer differing middle is shown as removed and added whole. */
static const size_t kMaxCells = (size_t)1 << 22;

/* What is kept of an output or a transcript (see the top). */
static const size_t kMaxLine = (size_t)1 << 20;
static const size_t kSlackLines = 100000;
static const size_t kBaseBytes = (size_t)64 << 20;

/* The line that ends a transcript's header. */
static const char kSeparator[] = "--- output ---";

/* The transcript header: these keys, one a line, in this order. The
 * last, the fingerprint of the code that was measured, is written by every
 * record; a transcript recorded before the book took fingerprints has
 * none, and is stale (see "fresh" below). */
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
/* Memory                                                               */

static void out_of_memory(void) {
    fputs("tcheck: out of memory\n", stderr);
    exit(kBad);
}

static void *xrealloc(void *p, size_t n) {
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        out_of_memory();
    }
    return q;
}

static void *xmalloc(size_t n) { return xrealloc(NULL, n); }

static void *xarray(size_t count, size_t size) {
    if (size && count > SIZE_MAX / size) {
        out_of_memory();
    }
    return xmalloc(count * size);
}

/* Room for one more of an array of *cap items of size bytes. */
static void *grow(void *p, size_t n, size_t *cap, size_t size) {
    if (n < *cap) {
        return p;
    }
    if (*cap > SIZE_MAX / 2 / size) {
        out_of_memory();
    }
    *cap = *cap ? 2 * *cap : 64;
    return xrealloc(p, *cap * size);
}

/* ------------------------------------------------------------------ */
/* Text: a file read as normalised lines, as many as the limits keep    */

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

/* The line being read. */
struct line_state {
    size_t start; /* where it starts in buf */
    size_t raw;   /* its bytes so far, kept or not */
    size_t at;    /* its offset in the file */
    int keep, cut;
};

static int is_blank(char c) { return c == ' ' || c == '\t'; }

static int str_eq(struct str a, struct str b) {
    return a.n == b.n && (a.n == 0 || memcmp(a.p, b.p, a.n) == 0);
}

static int str_is(struct str a, const char *s) {
    struct str b = {s, strlen(s)};
    return str_eq(a, b);
}

static void begin_line(struct text *t, struct line_state *ls,
                       const struct limits *lim, size_t at) {
    ls->start = t->size;
    ls->raw = 0;
    ls->at = at;
    ls->cut = 0;
    ls->keep = !t->more_lines && t->nlines < lim->lines && t->size < lim->bytes;
}

static void add_bytes(struct text *t, struct line_state *ls, const char *p,
                      size_t n) {
    ls->raw += n;
    if (!ls->keep) {
        return;
    }
    size_t have = t->size - ls->start;
    if (have + n > kMaxLine) {
        n = kMaxLine - have;
        ls->cut = 1;
    }
    while (t->size + n > t->cap) {
        t->buf = grow(t->buf, t->cap, &t->cap, 1);
    }
    memcpy(t->buf + t->size, p, n);
    t->size += n;
}

/* Room for one more line record. */
static void reserve_line(struct text *t) {
    if (t->nlines < t->lcap) {
        return;
    }
    size_t cap = t->lcap;
    t->line = grow(t->line, t->nlines, &cap, sizeof *t->line);
    t->at = xrealloc(t->at, cap * sizeof *t->at);
    t->cut = xrealloc(t->cut, cap);
    t->lcap = cap;
}

/* A line ends at '\n'; a '\r' before it (CRLF) and trailing blanks are
 * dropped. Its bytes stay in buf, each line right after the one before,
 * so that the pointers can be set when all is read (buf moves as it
 * grows). */
static void end_line(struct text *t, struct line_state *ls) {
    if (!ls->keep) {
        t->more_lines++;
        t->more_bytes += ls->raw + 1;
        return;
    }
    size_t end = t->size;
    while (!ls->cut && end > ls->start &&
           (is_blank(t->buf[end - 1]) || t->buf[end - 1] == '\r')) {
        end--;
    }
    t->size = end;
    reserve_line(t);
    t->line[t->nlines].p = NULL;
    t->line[t->nlines].n = end - ls->start;
    t->at[t->nlines] = ls->at;
    t->cut[t->nlines] = (unsigned char)ls->cut;
    t->nlines++;
}

/* Read f as lines, keeping what lim allows. A last line without '\n'
 * counts as a line unless it is empty. Returns 0, or -1 after saying why
 * on stderr. */
static int read_text(FILE *f, struct text *t, struct limits lim) {
    char chunk[1 << 16];
    struct line_state ls;
    size_t pos = 0, got;
    begin_line(t, &ls, &lim, 0);
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
        const char *p = chunk, *end = chunk + got;
        while (p < end) {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            size_t n = (size_t)((nl ? nl : end) - p);
            add_bytes(t, &ls, p, n);
            pos += n;
            p += n;
            if (nl) {
                end_line(t, &ls);
                begin_line(t, &ls, &lim, ++pos);
                p++;
            }
        }
    }
    if (ferror(f)) {
        fprintf(stderr, "%s: cannot read: %s\n", t->path, strerror(errno));
        return -1;
    }
    if (ls.raw > 0) {
        t->unterminated = 1;
        end_line(t, &ls);
    }
    size_t off = 0;
    for (size_t i = 0; i < t->nlines; i++) {
        t->line[i].p = t->buf + off;
        off += t->line[i].n;
    }
    return 0;
}

static const struct limits kNoLimits = {SIZE_MAX, SIZE_MAX};

static int load_text(const char *path, struct text *t, struct limits lim) {
    memset(t, 0, sizeof *t);
    t->path = path;
    t->first = 1;
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: cannot open: %s\n", path, strerror(errno));
        return -1;
    }
    int rc = read_text(f, t, lim);
    fclose(f);
    return rc;
}

static void free_text(struct text *t) {
    free(t->buf);
    free(t->line);
    free(t->at);
    free(t->cut);
    memset(t, 0, sizeof *t);
}

/* What of an output the expectation e needs kept (see the top). */
static struct limits output_limits(const struct text *e) {
    struct limits lim = {kSlackLines, kBaseBytes};
    if (e->nlines < (SIZE_MAX - kSlackLines) / 2) {
        lim.lines += 2 * e->nlines;
    }
    if (e->size < (SIZE_MAX - kBaseBytes) / 4) {
        lim.bytes += 4 * e->size;
    }
    return lim;
}

/* Where the first n bytes of s stop being UTF-8: the offset of the first
 * byte of a sequence that is not (overlong, a surrogate, past U+10FFFF,
 * or cut short), or n. A sequence cut short by the end of s counts as
 * UTF-8 where cut is set (a line cut at kMaxLine). */
static size_t utf8_prefix(const unsigned char *s, size_t n, int cut) {
    static const unsigned long least[] = {0, 0x80, 0x800, 0x10000};
    size_t i = 0;
    while (i < n) {
        size_t more;
        unsigned long cp;
        if (s[i] < 0x80) {
            i++;
            continue;
        } else if ((s[i] & 0xE0) == 0xC0) {
            more = 1, cp = s[i] & 0x1Fu;
        } else if ((s[i] & 0xF0) == 0xE0) {
            more = 2, cp = s[i] & 0x0Fu;
        } else if ((s[i] & 0xF8) == 0xF0) {
            more = 3, cp = s[i] & 0x07u;
        } else {
            return i;
        }
        size_t k = 1;
        for (; k <= more && i + k < n; k++) {
            if ((s[i + k] & 0xC0) != 0x80) {
                return i;
            }
            cp = cp << 6 | (s[i + k] & 0x3Fu);
        }
        if (k <= more) {
            return cut ? n : i;
        }
        if (cp < least[more] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
            return i;
        }
        i += more + 1;
    }
    return n;
}

/* Evidence is UTF-8 text of complete lines: a file that is not, or whose
 * last line has no newline (a file cut short, its last number with it),
 * is said on f (when not NULL) at its first such line, with fix, what
 * mends it. Returns the number of problems. */
static int text_problems(const struct text *t, const char *fix, FILE *f) {
    int problems = 0;
    for (size_t i = 0; i < t->nlines; i++) {
        const unsigned char *p = (const unsigned char *)t->line[i].p;
        size_t at = utf8_prefix(p, t->line[i].n, t->cut[i]);
        if (at < t->line[i].n) {
            if (f) {
                fprintf(f, "%s:%zu: byte 0x%02x at column %zu is not UTF-8; "
                        "evidence is UTF-8 text: %s\n", t->path, t->first + i,
                        p[at], at + 1, fix);
            }
            problems++;
            break;
        }
    }
    if (t->unterminated && !t->more_lines) {
        if (f) {
            fprintf(f, "%s:%zu: the last line has no newline, as in a file cut "
                    "short; %s\n", t->path,
                    t->first + t->nlines - 1, fix);
        }
        problems++;
    }
    return problems;
}

static struct str dir_name(const char *p);

/* text_problems of a transcript, evidence/PROG/GPU.txt, whose fix is to
 * record PROG again. */
static int transcript_problems(const struct text *t, FILE *f) {
    struct str prog = dir_name(t->path);
    char fix[200];
    if (prog.n && prog.n < 60) {
        snprintf(fix, sizeof fix, "record it again (make record PROG=%.*s, "
                 "then make accept PROG=%.*s)", (int)prog.n, prog.p,
                 (int)prog.n, prog.p);
    } else {
        snprintf(fix, sizeof fix, "record it again");
    }
    return text_problems(t, fix, f);
}

/* An expectation: read whole, every line at most kMaxLine bytes, UTF-8
 * text of complete lines. */
static int load_expect(const char *path, struct text *e) {
    if (load_text(path, e, kNoLimits) != 0) {
        return -1;
    }
    if (text_problems(e, "save it as UTF-8, ending with a newline", stderr)) {
        free_text(e);
        return -1;
    }
    for (size_t i = 0; i < e->nlines; i++) {
        if (e->cut[i]) {
            fprintf(stderr, "%s:%zu: a line of more than %zu bytes\n", path,
                    e->first + i, kMaxLine);
            free_text(e);
            return -1;
        }
    }
    return 0;
}

/* An output, as much of it as the expectation e needs. */
static int load_output(const char *path, const struct text *e, struct text *o) {
    return load_text(path, o, output_limits(e));
}
/* ------------------------------------------------------------------ */
/* Patterns: an expectation line compiled into tokens */

enum tok_kind {
    TOK_LIT,    /* these bytes exactly */
    TOK_BLANKS, /* any number of blanks, zero included */
    TOK_MS,     /* measured: a time, an unsigned number */
    TOK_FLOAT,  /* measured: a number */
    TOK_INT,    /* measured: a whole number */
    TOK_GPU,    /* device: the GPU's name */
    TOK_DEVICE  /* device: any text */
};

static const struct {
    const char *text;
    enum tok_kind kind;
} kHoles[] = {
    {"{{ms}}", TOK_MS},   {"{{float}}", TOK_FLOAT},   {"{{int}}", TOK_INT},
    {"{{gpu}}", TOK_GPU}, {"{{device}}", TOK_DEVICE},
};
enum { kNumHoles = sizeof kHoles / sizeof kHoles[0] };

static int is_hole(enum tok_kind k) { return k >= TOK_MS; }
static int is_measured(enum tok_kind k) {
    return k == TOK_MS || k == TOK_FLOAT || k == TOK_INT;
}
static int is_device(enum tok_kind k) {
    return k == TOK_GPU || k == TOK_DEVICE;
}

static const char *hole_name(enum tok_kind k) {
    for (size_t i = 0; i < kNumHoles; i++) {
        if (kHoles[i].kind == k) {
            return kHoles[i].text;
        }
    }
    return "text";
}

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

/* A name a measured or device hole may carry, {{float:NAME}}:
 * [a-z][a-z0-9_]*.
 * Its length at s (of at most n bytes), or 0. */
static size_t name_len(const char *s, size_t n) {
    if (n == 0 || s[0] < 'a' || s[0] > 'z') {
        return 0;
    }
    size_t k = 1;
    while (k < n && ((s[k] >= 'a' && s[k] <= 'z') || (s[k] >= '0' && s[k] <= '9') ||
                     s[k] == '_')) {
        k++;
    }
    return k;
}

/* The hole spelled at s, or -1; its length in *len, and the name a
 * measured hole carries in *name (empty where it has none). */
static int hole_named_at(const char *s, size_t n, size_t *len,
                         struct str *name) {
    name->p = NULL;
    name->n = 0;
    for (size_t i = 0; i < kNumHoles; i++) {
        size_t k = strlen(kHoles[i].text);
        if (k <= n && memcmp(s, kHoles[i].text, k) == 0) {
            *len = k;
            return (int)i;
        }
        /* {{ms:NAME}}: the spelling without its "}}", a colon, a name.
         * Measured holes and {{device}} may carry one. */
        if (kHoles[i].kind == TOK_GPU || k + 1 > n ||
            memcmp(s, kHoles[i].text, k - 2) != 0 || s[k - 2] != ':') {
            continue;
        }
        size_t m = name_len(s + k - 1, n - (k - 1));
        if (m && k - 1 + m + 2 <= n && memcmp(s + k - 1 + m, "}}", 2) == 0) {
            name->p = s + k - 1;
            name->n = m;
            *len = k - 1 + m + 2;
            return (int)i;
        }
    }
    return -1;
}

/* The hole spelled at s, or -1. */
static int hole_at(const char *s, size_t n) {
    size_t len;
    struct str name;
    return hole_named_at(s, n, &len, &name);
}

/* Each "{{" of an expectation that reads as a hole and is none, named at
 * its line: a word and "}}" or ":" after it ({{double:x}}, a misspelled
 * kind; {{float:x, one left open). It would match only itself. Other
 * braces are the output's own ("{{{{not"), and left alone. Returns how
 * many. */
static int not_holes(const struct text *e, FILE *out) {
    int found = 0;
    for (size_t l = 0; l < e->nlines; l++) {
        struct str s = e->line[l];
        for (size_t i = 0; i + 1 < s.n; i++) {
            if (s.p[i] != '{' || s.p[i + 1] != '{' ||
                hole_at(s.p + i, s.n - i) >= 0) {
                continue;
            }
            size_t w = i + 2;
            while (w < s.n && s.p[w] >= 'a' && s.p[w] <= 'z') {
                w++;
            }
            if (w == i + 2 || w >= s.n ||
                !(s.p[w] == ':' || (s.p[w] == '}' && w + 1 < s.n && s.p[w + 1] == '}'))) {
                continue;
            }
            size_t k = i + 2;
            while (k < s.n && s.p[k] != ' ' && s.p[k] != '\t' &&
                   !(s.p[k] == '}' && k + 1 < s.n && s.p[k + 1] == '}')) {
                k++;
            }
            k = k + 1 < s.n && s.p[k] == '}' ? k + 2 : k;
            fprintf(out, "%s:%zu: %.*s is not a hole%s: the holes are {{ms}}, "
                         "{{float}}, {{int}}, {{gpu}} and {{device}}, and all "
                         "but {{gpu}} may carry a name, {{float:NAME}} (NAME "
                         "[a-z][a-z0-9_]*)\n",
                    e->path, e->first + l, (int)(k - i), s.p + i,
                    k >= 2 && s.p[k - 1] == '}' && s.p[k - 2] == '}'
                        ? "" : " (it is not closed by }})");
            found++;
            i = k - 1;
        }
    }
    return found;
}

static void push_tok(struct pat *pt, enum tok_kind k, const char *p, size_t n) {
    if (k == TOK_BLANKS && pt->ntok > 0 &&
        pt->tok[pt->ntok - 1].kind == TOK_BLANKS) {
        return;
    }
    pt->tok[pt->ntok].kind = k;
    pt->tok[pt->ntok].lit.p = p;
    pt->tok[pt->ntok].lit.n = n;
    pt->ntok++;
    if (is_hole(k)) {
        pt->nholes++;
        pt->measured |= is_measured(k);
        pt->device |= is_device(k);
        pt->gpu |= k == TOK_GPU;
    }
}

/* Compile one expectation line. Literal text next to a hole loses its
 * blanks on that side to a TOK_BLANKS token. */
static void compile_line(struct str s, struct pat *pt) {
    memset(pt, 0, sizeof *pt);
    /* At most: per hole, a blanks-literal-blanks run before it, plus one. */
    size_t holes = 0;
    for (size_t i = 0; i < s.n; i++) {
        if (s.p[i] == '{' && hole_at(s.p + i, s.n - i) >= 0) {
            holes++;
        }
    }
    pt->tok = xarray(4 * holes + 4, sizeof *pt->tok);
    size_t i = 0;
    int after_hole = 0;
    while (i <= s.n) {
        size_t j = i, hlen = 0;
        struct str name = {NULL, 0};
        int h = -1;
        while (j < s.n && (h = hole_named_at(s.p + j, s.n - j, &hlen,
                                              &name)) < 0) {
            j++;
        }
        /* literal s.p[i..j), then hole h (or the end of the line) */
        size_t a = i, b = j;
        int blanks_before = 0, blanks_after = 0;
        if (after_hole) {
            while (a < b && is_blank(s.p[a])) {
                a++;
            }
            blanks_before = a > i;
        }
        if (h >= 0) {
            while (b > a && is_blank(s.p[b - 1])) {
                b--;
            }
            blanks_after = b < j;
        }
        if (blanks_before) {
            push_tok(pt, TOK_BLANKS, NULL, 0);
        }
        if (a < b) {
            push_tok(pt, TOK_LIT, s.p + a, b - a);
        }
        if (blanks_after) {
            push_tok(pt, TOK_BLANKS, NULL, 0);
        }
        if (h < 0) {
            break;
        }
        push_tok(pt, kHoles[h].kind, name.p, name.n);
        i = j + hlen;
        after_hole = 1;
    }
}

static void free_pats(struct pat *pats, size_t n) {
    for (size_t i = 0; i < n; i++) {
        free(pats[i].tok);
    }
    free(pats);
}

static struct pat *compile_text(const struct text *t) {
    struct pat *pats = xarray(t->nlines, sizeof *pats);
    for (size_t i = 0; i < t->nlines; i++) {
        compile_line(t->line[i], &pats[i]);
    }
    return pats;
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* The length of the longest number of kind k at s, 0 if none.
 *   int:   [+-]?D+
 *   float: [+-]?(D+(.D+)?|.D+)([eE][+-]?D+)?
 *   ms:    the same as float without the leading sign */
static size_t scan_number(const char *s, size_t n, enum tok_kind k) {
    size_t i = 0;
    if (k != TOK_MS && i < n && (s[i] == '+' || s[i] == '-')) {
        i++;
    }
    size_t digits = 0;
    while (i < n && is_digit(s[i])) {
        i++, digits++;
    }
    if (k == TOK_INT) {
        return digits ? i : 0;
    }
    if (i + 1 < n && s[i] == '.' && is_digit(s[i + 1])) {
        i++;
        while (i < n && is_digit(s[i])) {
            i++, digits++;
        }
    }
    if (!digits) {
        return 0;
    }
    size_t end = i;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        size_t j = i + 1;
        if (j < n && (s[j] == '+' || s[j] == '-')) {
            j++;
        }
        if (j < n && is_digit(s[j])) {
            while (j < n && is_digit(s[j])) {
                j++;
            }
            end = j;
        }
    }
    return end;
}

/* A match in progress. dead, when not NULL, marks the (device hole,
 * position) states already known to fail, so that a line with several
 * device holes costs at most tokens x length x length steps. */
struct match {
    const struct pat *pt;
    struct str s;
    struct str *cap;     /* receives the holes' values, or NULL */
    unsigned char *dead; /* ntok x (s.n + 1), or NULL */
};

/* Match tokens t.. against s from pos to its end; hole t's value is hole
 * number h. Number holes take the longest number, blanks all blanks; a
 * device hole takes the shortest text (one byte at least) that lets the
 * rest match. */
static int match_from(const struct match *m, size_t t, size_t pos, size_t h) {
    const struct pat *pt = m->pt;
    struct str s = m->s;
    for (; t < pt->ntok; t++) {
        const struct tok *k = &pt->tok[t];
        switch (k->kind) {
        case TOK_LIT:
            if (s.n - pos < k->lit.n ||
                memcmp(s.p + pos, k->lit.p, k->lit.n) != 0) {
                return 0;
            }
            pos += k->lit.n;
            break;
        case TOK_BLANKS:
            while (pos < s.n && is_blank(s.p[pos])) {
                pos++;
            }
            break;
        case TOK_MS:
        case TOK_FLOAT:
        case TOK_INT: {
            size_t len = scan_number(s.p + pos, s.n - pos, k->kind);
            if (!len) {
                return 0;
            }
            if (m->cap) {
                m->cap[h].p = s.p + pos;
                m->cap[h].n = len;
            }
            h++;
            pos += len;
            break;
        }
        case TOK_GPU:
        case TOK_DEVICE: {
            unsigned char *dead =
                m->dead ? &m->dead[t * (s.n + 1) + pos] : NULL;
            if (dead && *dead) {
                return 0;
            }
            for (size_t len = 1; pos + len <= s.n; len++) {
                if (match_from(m, t + 1, pos + len, h + 1)) {
                    if (m->cap) {
                        m->cap[h].p = s.p + pos;
                        m->cap[h].n = len;
                    }
                    return 1;
                }
            }
            if (dead) {
                *dead = 1;
            }
            return 0;
        }
        }
    }
    return pos == s.n;
}

static int match_line(const struct pat *pt, struct str s, struct str *cap) {
    size_t device = 0;
    for (size_t t = 0; t < pt->ntok; t++) {
        device += is_device(pt->tok[t].kind);
    }
    struct match m = {pt, s, cap, NULL};
    if (device > 1) {
        size_t w = s.n + 1;
        m.dead = xarray(pt->ntok, w);
        memset(m.dead, 0, pt->ntok * w);
    }
    int ok = match_from(&m, 0, 0, 0);
    free(m.dead);
    return ok;
}

/* The kind of hole number h of a pattern. */
static enum tok_kind hole_kind(const struct pat *pt, size_t h) {
    for (size_t t = 0; t < pt->ntok; t++) {
        if (is_hole(pt->tok[t].kind) && h-- == 0) {
            return pt->tok[t].kind;
        }
    }
    return TOK_LIT;
}

/* Does output line j of t match? A line cut at kMaxLine never does. */
static int matches(const struct pat *pt, const struct text *t, size_t j,
                   struct str *cap) {
    return !t->cut[j] && match_line(pt, t->line[j], cap);
}

/* What a number hole needs, for messages. */
static const char *hole_needs(enum tok_kind k) {
    switch (k) {
    case TOK_MS:
        return "a number of milliseconds";
    case TOK_INT:
        return "a whole number";
    default:
        return "a number";
    }
}

/* Why line s does not match pt, where the reason is a number hole given
 * something else ("nan", "inf", "-1" for {{ms}}): written to buf, and 1
 * returned. 0 where the text around the holes differs, or a device hole
 * comes first (it can take any text, so nothing after it is certain). */
static int explain_mismatch(const struct pat *pt, struct str s, char *buf,
                            size_t size) {
    size_t pos = 0;
    for (size_t t = 0; t < pt->ntok; t++) {
        const struct tok *k = &pt->tok[t];
        if (k->kind == TOK_LIT) {
            if (s.n - pos < k->lit.n ||
                memcmp(s.p + pos, k->lit.p, k->lit.n) != 0) {
                return 0;
            }
            pos += k->lit.n;
        } else if (k->kind == TOK_BLANKS) {
            while (pos < s.n && is_blank(s.p[pos])) {
                pos++;
            }
        } else if (is_measured(k->kind)) {
            size_t len = scan_number(s.p + pos, s.n - pos, k->kind);
            if (len) {
                pos += len;
                continue;
            }
            size_t w = 0;
            while (pos + w < s.n && !is_blank(s.p[pos + w]) && w < 40) {
                w++;
            }
            int n = snprintf(buf, size, "%s needs %s, got '",
                             hole_name(k->kind), hole_needs(k->kind));
            for (size_t i = 0; i < w && n > 0 && (size_t)n + 6 < size; i++) {
                unsigned char c = (unsigned char)s.p[pos + i];
                n += snprintf(buf + n, size - (size_t)n,
                              c < 0x20 || c >= 0x7f ? "\\x%02x" : "%c", c);
            }
            if (n > 0 && (size_t)n + 2 <= size) {
                snprintf(buf + n, size - (size_t)n, "'");
            }
            return 1;
        } else {
            return 0;
        }
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Alignment: the longest common subsequence of expectation lines and   */
/* output lines, where "common" means the output line matches.          */

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

static void push_edit(struct alignment *al, char op, size_t a, size_t b) {
    al->ed[al->n].op = op;
    al->ed[al->n].a = a;
    al->ed[al->n].b = b;
    al->n++;
}

/* The middle of an alignment, expectation lines head..head+mm and output
 * lines head..head+nn, by a table of LCS lengths: lcs[i][j] is the LCS of
 * expectation lines head+i.. and output lines head+j.. . */
static void lcs_middle(const struct pat *pats, const struct text *out,
                       size_t head, size_t mm, size_t nn,
                       struct alignment *al) {
    size_t w = nn + 1;
    uint32_t *lcs = xarray((mm + 1) * w, sizeof *lcs);
    for (size_t j = 0; j <= nn; j++) {
        lcs[mm * w + j] = 0;
    }
    for (size_t i = mm; i-- > 0;) {
        lcs[i * w + nn] = 0;
        for (size_t j = nn; j-- > 0;) {
            if (matches(&pats[head + i], out, head + j, NULL)) {
                lcs[i * w + j] = lcs[(i + 1) * w + j + 1] + 1;
            } else if (lcs[(i + 1) * w + j] >= lcs[i * w + j + 1]) {
                lcs[i * w + j] = lcs[(i + 1) * w + j];
            } else {
                lcs[i * w + j] = lcs[i * w + j + 1];
            }
        }
    }
    size_t i = 0, j = 0;
    while (i < mm && j < nn) {
        if (lcs[i * w + j] == lcs[(i + 1) * w + j + 1] + 1 &&
            matches(&pats[head + i], out, head + j, NULL)) {
            push_edit(al, '=', head + i, head + j);
            i++, j++;
        } else if (lcs[(i + 1) * w + j] >= lcs[i * w + j + 1]) {
            push_edit(al, '-', head + i, head + j);
            i++;
        } else {
            push_edit(al, '+', head + i, head + j);
            j++;
        }
    }
    for (; i < mm; i++) {
        push_edit(al, '-', head + i, head + j);
    }
    for (; j < nn; j++) {
        push_edit(al, '+', head + i, head + j);
    }
    free(lcs);
}

static void align(const struct pat *pats, size_t m, const struct text *out,
                  struct alignment *al) {
    size_t n = out->nlines;
    al->ed = xarray(m + n + 1, sizeof *al->ed);
    al->n = 0;
    al->extra = out->more_lines;
    al->of_exp = xarray(m + 1, sizeof *al->of_exp);
    for (size_t i = 0; i < m; i++) {
        al->of_exp[i] = SIZE_MAX;
    }
    /* Common head and tail first: they keep the table small. */
    size_t head = 0;
    while (head < m && head < n && matches(&pats[head], out, head, NULL)) {
        push_edit(al, '=', head, head);
        head++;
    }
    size_t tail = 0;
    while (!out->more_lines && tail < m - head && tail < n - head &&
           matches(&pats[m - 1 - tail], out, n - 1 - tail, NULL)) {
        tail++;
    }
    size_t mm = m - head - tail, nn = n - head - tail;
    if (mm > 0 && nn > 0 && (mm + 1) <= kMaxCells / (nn + 1)) {
        lcs_middle(pats, out, head, mm, nn, al);
    } else {
        for (size_t i = 0; i < mm; i++) {
            push_edit(al, '-', head + i, head);
        }
        for (size_t j = 0; j < nn; j++) {
            push_edit(al, '+', head + mm, head + j);
        }
    }
    for (size_t k = 0; k < tail; k++) {
        push_edit(al, '=', m - tail + k, n - tail + k);
    }
    for (size_t k = 0; k < al->n; k++) {
        if (al->ed[k].op == '=') {
            al->of_exp[al->ed[k].a] = al->ed[k].b;
        }
    }
}

static void free_align(struct alignment *al) {
    free(al->ed);
    free(al->of_exp);
}

/* Differing lines: per run of changes, the larger of lines removed and
 * lines added, so one changed line counts once. Output lines past the
 * kept ones are added lines of the last run. */
static size_t count_differences(const struct alignment *al) {
    size_t total = 0, del = 0, ins = 0;
    for (size_t k = 0; k <= al->n; k++) {
        if (k == al->n) {
            ins += al->extra;
        }
        if (k == al->n || al->ed[k].op == '=') {
            total += del > ins ? del : ins;
            del = ins = 0;
        } else if (al->ed[k].op == '-') {
            del++;
        } else {
            ins++;
        }
    }
    return total;
}

/* ------------------------------------------------------------------ */
/* Reports                                                              */

/* Bytes a program printed, as a report shows them: a control character
 * or a NUL as \xNN, at most kShowBytes of them. */
static void put_str(FILE *f, struct str s) {
    size_t n = s.n < kShowBytes ? s.n : kShowBytes;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s.p[i];
        if ((c < 0x20 && c != '\t') || c == 0x7f) {
            fprintf(f, "\\x%02x", c);
        } else {
            fputc(c, f);
        }
    }
    if (n < s.n) {
        fprintf(f, "... (%zu bytes more)", s.n - n);
    }
}

static void put_line(FILE *f, const char *prefix, struct str s) {
    fputs(prefix, f);
    put_str(f, s);
    fputc('\n', f);
}

/* A line as it is: for output that is text meant to be read again. */
static void put_raw(FILE *f, struct str s) {
    if (s.n) {
        fwrite(s.p, 1, s.n, f);
    }
    fputc('\n', f);
}

static void put_range(FILE *f, const char *one, const char *many, size_t first,
                      size_t count) {
    if (count == 1) {
        fprintf(f, "%s %zu", one, first);
    } else {
        fprintf(f, "%s %zu-%zu", many, first, first + count - 1);
    }
}

/* What a diff is of. */
struct diff_of {
    const struct text *e;
    const struct pat *pats;
    const struct text *o;
    const char *olabel;
    const struct alignment *al;
};

/* The note on one run of changes: del expectation lines from a, ins
 * output lines from b; then, for lines paired one to one, why a hole did
 * not take its value. Returns the notes written. */
static size_t note_run(FILE *f, const struct diff_of *d, size_t a, size_t del,
                       size_t b, size_t ins) {
    const struct text *e = d->e, *o = d->o;
    size_t at = a < e->nlines ? a : (e->nlines ? e->nlines - 1 : 0);
    fprintf(f, "%s:%zu: ", e->path, e->first + at);
    if (del > 1) {
        put_range(f, "line", "lines", e->first + a, del);
        fputc(' ', f);
    }
    if (del && ins) {
        fprintf(f, "%s not match %s ", del == 1 ? "does" : "do", d->olabel);
        put_range(f, "line", "lines", o->first + b, ins);
    } else if (del) {
        fprintf(f, "%s from %s", del == 1 ? "missing" : "are missing",
                d->olabel);
    } else {
        fprintf(f, "%s ", d->olabel);
        put_range(f, "line", "lines", o->first + b, ins);
        fprintf(f, " not in the expectation (%s this line)",
                a < e->nlines ? "before" : "after");
    }
    fputc('\n', f);
    size_t notes = 1;
    for (size_t k = 0; k < del && k < ins && b + k < o->nlines; k++) {
        char why[160];
        if (!o->cut[b + k] && explain_mismatch(&d->pats[a + k], o->line[b + k],
                                               why, sizeof why)) {
            fprintf(f, "%s:%zu: %s\n", e->path, e->first + a + k, why);
            notes++;
        }
    }
    return notes;
}

/* One "file:line: ..." note per run of changes (the first kMaxLocations),
 * then a line for the output past the kept lines. Returns the number of
 * runs. */
static size_t print_notes(FILE *f, const struct diff_of *d) {
    const struct alignment *al = d->al;
    size_t runs = 0, notes = 0;
    for (size_t k = 0; k < al->n;) {
        if (al->ed[k].op == '=') {
            k++;
            continue;
        }
        size_t del = 0, ins = 0, a = al->ed[k].a, b = al->ed[k].b;
        for (; k < al->n && al->ed[k].op != '='; k++) {
            del += al->ed[k].op == '-';
            ins += al->ed[k].op == '+';
        }
        if (runs++ < kMaxLocations && notes < 2 * kMaxLocations) {
            notes += note_run(f, d, a, del, b, ins);
        }
    }
    if (runs > kMaxLocations) {
        fprintf(f, "... and %zu more differences\n", runs - kMaxLocations);
    }
    if (al->extra) {
        fprintf(f,
                "%s: %zu more lines (%zu bytes) after line %zu, more than "
                "the expectation can match; not shown\n",
                d->olabel, al->extra, d->o->more_bytes,
                d->o->first + d->o->nlines - 1);
        runs += al->n == 0 || al->ed[al->n - 1].op == '=';
    }
    return runs;
}

/* The end of the hunk that starts at change k: kContext after the last
 * change within 2 * kContext of the one before. */
static size_t hunk_end(const struct alignment *al, size_t k) {
    size_t hi = k;
    for (;;) {
        while (hi < al->n && al->ed[hi].op != '=') {
            hi++;
        }
        size_t same = 0;
        while (hi + same < al->n && al->ed[hi + same].op == '=') {
            same++;
        }
        if (hi + same < al->n && same <= 2 * kContext) {
            hi += same;
            continue;
        }
        return hi + (same < kContext ? same : kContext);
    }
}

/* A unified diff of the expectation (holes shown as holes) against the
 * output, its first kMaxDiffLines lines. */
static void print_hunks(FILE *f, const struct diff_of *d) {
    const struct alignment *al = d->al;
    fprintf(f, "--- %s\n+++ %s\n", d->e->path, d->olabel);
    size_t shown = 0, hidden = 0;
    for (size_t k = 0; k < al->n;) {
        if (al->ed[k].op == '=') {
            k++;
            continue;
        }
        size_t lo = k > kContext ? k - kContext : 0, hi = hunk_end(al, k);
        size_t a0 = al->ed[lo].a, b0 = al->ed[lo].b, na = 0, nb = 0;
        for (size_t x = lo; x < hi; x++) {
            na += al->ed[x].op != '+';
            nb += al->ed[x].op != '-';
        }
        if (shown < kMaxDiffLines) {
            fprintf(f, "@@ -%zu,%zu +%zu,%zu @@\n",
                    d->e->first + a0 - (na == 0), na,
                    d->o->first + b0 - (nb == 0), nb);
        }
        for (size_t x = lo; x < hi; x++, shown++) {
            const struct edit *ed = &al->ed[x];
            if (shown >= kMaxDiffLines) {
                hidden++;
            } else if (ed->op == '+') {
                put_line(f, "+", d->o->line[ed->b]);
            } else {
                put_line(f, ed->op == '=' ? " " : "-", d->e->line[ed->a]);
            }
        }
        k = hi;
    }
    hidden += al->extra;
    if (hidden) {
        fprintf(f, "... %zu more diff lines not shown\n", hidden);
    }
}

/* The notes, then the diff; nothing where all matched. */
static void print_diff(FILE *f, const struct text *e, const struct pat *pats,
                       const struct text *o, const char *olabel,
                       const struct alignment *al) {
    struct diff_of d = {e, pats, o, olabel, al};
    if (print_notes(f, &d)) {
        print_hunks(f, &d);
    }
}
/* ------------------------------------------------------------------ */
/* Transcripts: "key: value" header lines, the separator line, the output */

struct transcript {
    struct text file; /* the file's lines, as many as the limits keep */
    struct str value[kNumKeys];
    struct text body; /* the output: a view into file */
    size_t offset;    /* where the output starts in the file, in bytes */
    int separated;    /* a separator line ends the header */
};

static int all_digits(struct str s) {
    if (!s.n) {
        return 0;
    }
    for (size_t i = 0; i < s.n; i++) {
        if (!is_digit(s.p[i])) {
            return 0;
        }
    }
    return 1;
}

/* "D+.D+" */
static int is_version(struct str s) {
    const char *dot = memchr(s.p, '.', s.n);
    if (!dot) {
        return 0;
    }
    struct str a = {s.p, (size_t)(dot - s.p)};
    struct str b = {dot + 1, s.n - a.n - 1};
    return all_digits(a) && all_digits(b);
}

/* YYYY-MM-DDTHH:MM:SSZ */
static int is_date(struct str s) {
    static const char kShape[] = "dddd-dd-ddTdd:dd:ddZ";
    if (s.n != sizeof kShape - 1) {
        return 0;
    }
    for (size_t i = 0; i < s.n; i++) {
        if (kShape[i] == 'd' ? !is_digit(s.p[i]) : s.p[i] != kShape[i]) {
            return 0;
        }
    }
    return 1;
}

/* A short hex commit, optionally "-dirty". */
static int is_commit(struct str s) {
    size_t n = s.n;
    if (n > 6 && memcmp(s.p + n - 6, "-dirty", 6) == 0) {
        n -= 6;
    }
    if (n < 4 || n > 40) {
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        if (!is_digit(s.p[i]) && !(s.p[i] >= 'a' && s.p[i] <= 'f')) {
            return 0;
        }
    }
    return 1;
}

static int is_name(struct str s) {
    if (!s.n) {
        return 0;
    }
    for (size_t i = 0; i < s.n; i++) {
        char c = s.p[i];
        if (!(is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              c == '_' || c == '-' || c == '.')) {
            return 0;
        }
    }
    return 1;
}

static int is_hex(char c) {
    return is_digit(c) || (c >= 'a' && c <= 'f');
}

/* s holds n lowercase hexadecimal digits at p. */
static int hex_at(struct str s, size_t p, size_t n) {
    if (p > s.n || s.n - p < n) {
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        if (!is_hex(s.p[p + i])) {
            return 0;
        }
    }
    return 1;
}

/* One part of a fingerprint: a file of the program (or "compile", "nvcc")
 * and its hash, as the header shows them. */
struct fp_part {
    struct str name, hash;
};

enum { kFpWhole = 16, kFpPart = 8 };

/* Read a fingerprint value, "HASH (NAME HASH, NAME HASH, ...)": the whole
 * hash (kFpWhole digits) and each part (kFpPart digits), names holding no
 * blank, comma or parenthesis. Calls each(part, arg) for every part where
 * each is not NULL. Returns the number of parts, or -1 where it is not
 * well formed. */
static long read_fingerprint(struct str v, struct str *whole,
                             void (*each)(const struct fp_part *, void *),
                             void *arg) {
    if (!hex_at(v, 0, kFpWhole) || v.n < kFpWhole + 3 ||
        memcmp(v.p + kFpWhole, " (", 2) != 0 || v.p[v.n - 1] != ')') {
        return -1;
    }
    if (whole) {
        whole->p = v.p;
        whole->n = kFpWhole;
    }
    long parts = 0;
    size_t i = kFpWhole + 2, end = v.n - 1;
    while (i < end) {
        size_t j = i;
        while (j < end && v.p[j] != ' ' && v.p[j] != ',' && v.p[j] != '(' &&
               v.p[j] != ')') {
            j++;
        }
        if (j == i || j >= end || v.p[j] != ' ' || !hex_at(v, j + 1, kFpPart)) {
            return -1;
        }
        struct fp_part part = {{v.p + i, j - i}, {v.p + j + 1, kFpPart}};
        if (each) {
            each(&part, arg);
        }
        parts++;
        i = j + 1 + kFpPart;
        if (i == end) {
            break;
        }
        if (end - i < 3 || memcmp(v.p + i, ", ", 2) != 0) {
            return -1;
        }
        i += 2;
    }
    return parts >= 3 ? parts : -1;
}

static int is_fingerprint(struct str v) {
    return read_fingerprint(v, NULL, NULL, NULL) >= 0;
}

/* Why a header value is not well formed, or NULL. */
static const char *bad_value(int key, struct str v) {
    if (!v.n) {
        return "is empty";
    }
    if (is_blank(v.p[0])) {
        return "starts with a blank";
    }
    for (size_t i = 0; i < v.n; i++) {
        if ((unsigned char)v.p[i] < 0x20 || v.p[i] == 0x7f) {
            return "holds a control character";
        }
    }
    switch (key) {
    case kProgram:
        return is_name(v) ? NULL : "is not a program name";
    case kDate:
        return is_date(v) ? NULL
                          : "is not a UTC date like 2026-01-31T12:00:00Z";
    case kCapability:
        return is_version(v) ? NULL : "is not MAJOR.MINOR";
    case kSms:
        return all_digits(v) ? NULL : "is not a whole number";
    case kRuntime:
        return is_version(v) ? NULL : "is not MAJOR.MINOR";
    case kCommit:
        return is_commit(v) ? NULL : "is not a short hexadecimal commit";
    case kFingerprint:
        return is_fingerprint(v)
                   ? NULL
                   : "is not HASH (FILE HASH, ..., compile HASH, nvcc HASH)";
    default:
        return NULL;
    }
}

/* The header line i: its value for key i, or a problem said on f (when
 * not NULL). Returns the number of problems. */
static int read_key(struct transcript *tr, size_t i, FILE *f) {
    const struct text *t = &tr->file;
    size_t klen = strlen(kKeys[i]);
    struct str l = t->line[i];
    if (l.n < klen + 2 || memcmp(l.p, kKeys[i], klen) != 0 ||
        l.p[klen] != ':' || l.p[klen + 1] != ' ') {
        if (f) {
            fprintf(f, "%s:%zu: expected \"%s: ...\" here, header line %zu\n",
                    t->path, i + 1, kKeys[i], i + 1);
        }
        return 1;
    }
    tr->value[i].p = l.p + klen + 2;
    tr->value[i].n = l.n - klen - 2;
    const char *why = bad_value((int)i, tr->value[i]);
    if (why && f) {
        fprintf(f, "%s:%zu: %s %s\n", t->path, i + 1, kKeys[i], why);
    }
    return why != NULL;
}

/* The output: a view of the lines after the separator line sep. */
static void set_body(struct transcript *tr, size_t sep) {
    const struct text *t = &tr->file;
    size_t start = sep < t->nlines ? sep + 1 : t->nlines;
    struct text *body = &tr->body;
    body->path = t->path;
    body->line = t->line + start;
    body->at = t->at + start;
    body->cut = t->cut + start;
    body->nlines = t->nlines - start;
    body->first = start + 1;
    body->more_lines = t->more_lines;
    body->more_bytes = t->more_bytes;
    tr->offset = 0;
    if (start < t->nlines) {
        tr->offset = t->at[start];
    } else if (sep < t->nlines) {
        tr->offset = t->at[sep] + t->line[sep].n + 1; /* no output */
    }
}

/* Read a transcript, as much of its output as lim keeps, saying on f (when
 * not NULL), as "file:line: message", everything wrong with its header.
 * Returns the number of problems, or -1 when the file cannot be read. */
static int load_transcript(const char *path, struct transcript *tr,
                           struct limits lim, FILE *f) {
    memset(tr, 0, sizeof *tr);
    if (lim.lines < SIZE_MAX - kNumKeys - 1) {
        lim.lines += kNumKeys + 1;
    }
    if (load_text(path, &tr->file, lim) != 0) {
        return -1;
    }
    const struct text *t = &tr->file;
    size_t sep = 0;
    while (sep < t->nlines && !str_is(t->line[sep], kSeparator)) {
        sep++;
    }
    tr->separated = sep < t->nlines;
    int problems = !tr->separated;
    if (problems && f) {
        fprintf(f, "%s:%zu: no \"%s\" line ends the header\n", path,
                t->nlines ? t->nlines : 1, kSeparator);
    }
    for (size_t i = 0; i < kNumKeys; i++) {
        if (i < sep) {
            problems += read_key(tr, i, f);
            continue;
        }
        if (i >= kRequiredKeys) {
            break;
        }
        if (f) {
            fprintf(f, "%s:%zu: the header has no \"%s:\" line\n", path,
                    sep + 1, kKeys[i]);
        }
        problems++;
    }
    if (sep != t->nlines && sep > kNumKeys) {
        if (f) {
            fprintf(f, "%s:%zu: unknown header line\n", path,
                    (size_t)kNumKeys + 1);
        }
        problems++;
    }
    set_body(tr, sep);
    return problems + transcript_problems(t, f);
}

static void free_transcript(struct transcript *tr) { free_text(&tr->file); }

/* ------------------------------------------------------------------ */
/* Names                                                                */

/* The slug of a GPU name: lowercase, each run of other characters one
 * '-', none at either end. "NVIDIA H200" -> "nvidia-h200". */
static char *slug_of(struct str name) {
    char *s = xmalloc(name.n + 1);
    size_t n = 0;
    int dash = 0;
    for (size_t i = 0; i < name.n; i++) {
        char c = name.p[i];
        if (c >= 'A' && c <= 'Z') {
            c = (char)(c - 'A' + 'a');
        }
        if (is_digit(c) || (c >= 'a' && c <= 'z')) {
            if (dash && n) {
                s[n++] = '-';
            }
            s[n++] = c;
            dash = 0;
        } else {
            dash = 1;
        }
    }
    s[n] = '\0';
    return s;
}

/* The last path component of p, without suffix sfx when it ends so. */
static struct str base_name(const char *p, const char *sfx) {
    const char *slash = strrchr(p, '/');
    struct str s = {slash ? slash + 1 : p, 0};
    s.n = strlen(s.p);
    size_t k = strlen(sfx);
    if (s.n > k && memcmp(s.p + s.n - k, sfx, k) == 0) {
        s.n -= k;
    }
    return s;
}

/* The name of the directory holding p ("" if none). */
static struct str dir_name(const char *p) {
    const char *end = strrchr(p, '/');
    struct str s = {p, 0};
    if (!end) {
        return s;
    }
    const char *start = end;
    while (start > p && start[-1] != '/') {
        start--;
    }
    s.p = start;
    s.n = (size_t)(end - start);
    return s;
}

/* The {{gpu}} value in an output: what the first expectation line with a
 * {{gpu}} hole captures in the first output line it matches. */
static int gpu_of(const struct text *e, const struct pat *pats,
                  const struct text *o, struct str *gpu) {
    for (size_t i = 0; i < e->nlines; i++) {
        if (!pats[i].gpu) {
            continue;
        }
        struct str *cap = xarray(pats[i].nholes, sizeof *cap);
        for (size_t j = 0; j < o->nlines; j++) {
            if (matches(&pats[i], o, j, cap)) {
                for (size_t h = 0; h < pats[i].nholes; h++) {
                    if (hole_kind(&pats[i], h) == TOK_GPU) {
                        *gpu = cap[h];
                        free(cap);
                        return 1;
                    }
                }
            }
        }
        free(cap);
        return 0;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Device lines                                                         */

/* Compare the device values of every expectation line matched both in
 * the output and in the transcript. Prints each difference to f (if not
 * NULL). Returns the number of differing lines; *stale counts device
 * lines the transcript no longer matches. */
static size_t compare_device(FILE *f, const struct text *e,
                             const struct pat *pats, const struct text *o,
                             const struct alignment *ao,
                             const struct transcript *tr,
                             const struct alignment *at, size_t *stale) {
    size_t differ = 0;
    *stale = 0;
    for (size_t i = 0; i < e->nlines; i++) {
        const struct pat *pt = &pats[i];
        if (!pt->device || ao->of_exp[i] == SIZE_MAX) {
            continue;
        }
        if (at->of_exp[i] == SIZE_MAX) {
            (*stale)++;
            continue;
        }
        struct str now_line = o->line[ao->of_exp[i]];
        struct str rec_line = tr->body.line[at->of_exp[i]];
        struct str *now = xarray(pt->nholes, sizeof *now);
        struct str *rec = xarray(pt->nholes, sizeof *rec);
        match_line(pt, now_line, now);
        match_line(pt, rec_line, rec);
        int same = 1;
        for (size_t h = 0; h < pt->nholes; h++) {
            if (!is_device(hole_kind(pt, h)) || str_eq(now[h], rec[h])) {
                continue;
            }
            if (f && same) {
                fprintf(f,
                        "%s:%zu: device line differs from the recording on "
                        "this GPU: %s was \"",
                        tr->body.path, tr->body.first + at->of_exp[i],
                        hole_name(hole_kind(pt, h)));
                put_str(f, rec[h]);
                fputs("\", now \"", f);
                put_str(f, now[h]);
                fprintf(f, "\" (%s line %zu)\n", o->path,
                        o->first + ao->of_exp[i]);
                put_line(f, "-", rec_line);
                put_line(f, "+", now_line);
            }
            same = 0;
        }
        differ += !same;
        free(now);
        free(rec);
    }
    return differ;
}

/* ------------------------------------------------------------------ */
/* The reader the book's tools use (tools/evidence/transcript.h)        */

struct transcript *transcript_read(const char *path) {
    struct transcript *tr = xmalloc(sizeof *tr);
    struct limits lim = {kSlackLines, kBaseBytes};
    if (load_transcript(path, tr, lim, NULL) < 0) {
        free(tr);
        return NULL;
    }
    if (transcript_problems(&tr->file, stderr)) {
        free_transcript(tr);
        free(tr);
        return NULL;
    }
    if (!tr->separated) {
        fprintf(stderr,
                "%s:%zu: no \"%s\" line ends the header; not a "
                "transcript\n",
                path, tr->file.nlines ? tr->file.nlines : 1, kSeparator);
        free_transcript(tr);
        free(tr);
        return NULL;
    }
    return tr;
}

const char *transcript_value(const struct transcript *tr, const char *key,
                             size_t *len) {
    for (size_t i = 0; i < kNumKeys; i++) {
        if (strcmp(key, kKeys[i]) == 0 && tr->value[i].p) {
            *len = tr->value[i].n;
            return tr->value[i].p;
        }
    }
    *len = 0;
    return NULL;
}

size_t transcript_lines(const struct transcript *tr) { return tr->body.nlines; }

const char *transcript_line(const struct transcript *tr, size_t i, size_t *len,
                            long *lineno) {
    *len = tr->body.line[i].n;
    *lineno = (long)(tr->body.first + i);
    return tr->body.line[i].p;
}

size_t transcript_offset(const struct transcript *tr) { return tr->offset; }

void transcript_free(struct transcript *tr) {
    if (tr) {
        free_transcript(tr);
        free(tr);
    }
}

/* ------------------------------------------------------------------ */
/* Verdicts                                                             */

static int usage(void) {
    fputs("usage: tcheck check [-n NAME] [-e STDERR] [-g GPU] [-o LABEL] "
          "EXPECT TRANSCRIPT_DIR OUTPUT STATUS\n"
          "       tcheck status [-n NAME] [-e STDERR] STATUS\n"
          "       tcheck diff [-o LABEL] EXPECT OUTPUT\n"
          "       tcheck pending EXPECT OUTPUT\n"
          "       tcheck compare EXPECT TRANSCRIPT OUTPUT\n"
          "       tcheck lint EXPECT TRANSCRIPT\n"
          "       tcheck lint-tree [-c] EVIDENCE PROG...\n"
          "       tcheck transcript HEADER OUTPUT\n"
          "       tcheck gpu EXPECT OUTPUT\n"
          "       tcheck slug NAME\n"
          "       tcheck values EXPECT OUTPUT\n"
          "       tcheck quotes [-o] EXPECT TRANSCRIPT|OUTPUT\n"
          "       tcheck fingerprint -c COMPILE -v NVCC [-x FILE]... SOURCE\n"
          "       tcheck fresh [-n NAME] [-w WHERE] [-r COMMAND] [-h NVCC] "
          "-c COMPILE [-x FILE]... SOURCE TRANSCRIPT\n",
          stderr);
    return kBad;
}

/* A growing string, for warnings and lists of problems. */
struct buf {
    char *p;
    size_t n, cap;
};

static void buf_add(struct buf *b, const char *s, size_t n) {
    while (b->n + n + 1 > b->cap) {
        b->p = grow(b->p, b->cap, &b->cap, 1);
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = '\0';
}

static void buf_puts(struct buf *b, const char *s) { buf_add(b, s, strlen(s)); }

/* Add s to a list: "; " between items, or sep. */
static void buf_item(struct buf *b, const char *sep, const char *s) {
    if (b->n) {
        buf_puts(b, sep);
    }
    buf_puts(b, s);
}

/* The options of check, status and diff. */
struct opts {
    const char *name;  /* -n: the program, named in the verdict line */
    const char *err;   /* -e: the file holding the program's stderr */
    const char *gpu;   /* -g: the GPU, where the output does not name it */
    const char *label; /* -o: the output's name in messages */
};

/* Options from argv[*i], those of allowed only. */
static int parse_opts(int argc, char **argv, const char *allowed,
                      struct opts *o, int *i) {
    memset(o, 0, sizeof *o);
    for (*i = 0; *i + 1 < argc && argv[*i][0] == '-'; *i += 2) {
        const char *a = argv[*i], *v = argv[*i + 1];
        if (a[1] == '\0' || a[2] != '\0' || !strchr(allowed, a[1])) {
            return -1;
        }
        switch (a[1]) {
        case 'n':
            o->name = v;
            break;
        case 'e':
            o->err = v;
            break;
        case 'g':
            o->gpu = v;
            break;
        default:
            o->label = v;
            break;
        }
    }
    return 0;
}

static int parse_status(const char *s, int *status) {
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (!*s || *end || errno || v < 0 || v > 255) {
        fprintf(stderr,
                "tcheck: exit status \"%s\" is not a number from 0 to 255\n",
                s);
        return -1;
    }
    *status = (int)v;
    return 0;
}

/* How a program ended, before its output is looked at: kPass when it
 * exited 0, kSkip when it said this machine cannot run it, else kFail. */
static int ran(int status) {
    return status == 0 ? kPass : status == kSkipStatus ? kSkip : kFail;
}

/* A verdict, and where its details go: under the verdict line, indented
 * by four spaces when it names the program. */
struct report {
    const char *name;
    FILE *details;
};

static void report_open(struct report *r, const char *name) {
    r->name = name;
    r->details = name ? tmpfile() : NULL;
    if (!r->details) {
        r->details = stdout;
    }
}

/* The verdict line: word is PASS, FAIL or SKIP; why may be NULL. */
static void report_verdict(const struct report *r, const char *word,
                           const char *why) {
    fputs(word, stdout);
    if (r->name) {
        printf(" %s", r->name);
    }
    if (why && strcmp(word, "PASS") == 0) {
        printf(" (warning: %s)", why);
    } else if (why) {
        printf(": %s", why);
    }
    putchar('\n');
}

/* The details, after the verdict line. */
static void report_close(struct report *r) {
    if (r->details == stdout) {
        return;
    }
    rewind(r->details);
    int c, bol = 1;
    while ((c = getc(r->details)) != EOF) {
        if (bol) {
            fputs("    ", stdout);
        }
        putchar(c);
        bol = c == '\n';
    }
    fclose(r->details);
}

/* The tail of a program's stderr, at most kTailBytes of it, as lines;
 * returns how many (at most max), the last in line[n - 1]. */
static size_t stderr_tail(const char *path, char *buf, struct str *line,
                          size_t max) {
    FILE *f = path ? fopen(path, "rb") : NULL;
    if (!f) {
        return 0;
    }
    size_t n = 0;
    if (fseek(f, 0, SEEK_END) == 0) {
        long size = ftell(f);
        if (size > kTailBytes) {
            fseek(f, size - kTailBytes, SEEK_SET);
        } else {
            rewind(f);
        }
        n = fread(buf, 1, kTailBytes, f);
    }
    fclose(f);
    size_t count = 0, end = n;
    while (end > 0 && count < max) {
        while (end > 0 && (buf[end - 1] == '\n' || buf[end - 1] == '\r' ||
                           is_blank(buf[end - 1]))) {
            end--; /* empty lines and trailing blanks do not count */
        }
        size_t start = end;
        while (start > 0 && buf[start - 1] != '\n') {
            start--;
        }
        if (end > start) {
            memmove(line + 1, line, count * sizeof *line);
            line[0].p = buf + start;
            line[0].n = end - start;
            count++;
        }
        end = start;
    }
    return count;
}

/* "stderr (last lines):" and them, under a failure. */
static void put_stderr_tail(FILE *f, const char *path) {
    char buf[kTailBytes];
    struct str line[kTailLines];
    size_t n = stderr_tail(path, buf, line, kTailLines);
    if (n) {
        fputs("stderr (last lines):\n", f);
    }
    for (size_t i = 0; i < n; i++) {
        put_line(f, "  ", line[i]);
    }
}

/* Why a program that exited kSkipStatus cannot run here: the last line
 * it printed on stderr. */
static void report_skip(const struct opts *o) {
    char buf[kTailBytes], why[kShowBytes + 1];
    struct str line[1];
    struct report r;
    report_open(&r, o->name);
    if (stderr_tail(o->err, buf, line, 1)) {
        size_t n = line[0].n < kShowBytes ? line[0].n : kShowBytes;
        memcpy(why, line[0].p, n);
        why[n] = '\0';
        for (size_t i = 0; i < n; i++) {
            why[i] = (unsigned char)why[i] < 0x20 ? ' ' : why[i];
        }
    } else {
        snprintf(why, sizeof why, "exit status %d, and nothing on stderr",
                 kSkipStatus);
    }
    report_verdict(&r, "SKIP", why);
    report_close(&r);
}

/* "exit status N (signal M)" */
static void status_words(int status, char *buf, size_t size) {
    if (status > 128) {
        snprintf(buf, size, "exit status %d (signal %d)", status, status - 128);
    } else {
        snprintf(buf, size, "exit status %d", status);
    }
}

/* tcheck status [-n NAME] [-e STDERR] STATUS: how a program ended, the
 * rule check follows, for callers with no output to check (record,
 * compare, sanitize, a notebook). Exit 0 and nothing printed when it
 * exited 0; 4 and a SKIP line when it said this machine cannot run it;
 * 1 and a FAIL line with its stderr's last lines otherwise. */
static int cmd_status(int argc, char **argv) {
    struct opts o;
    int i, status;
    if (parse_opts(argc, argv, "ne", &o, &i) != 0 || argc - i != 1) {
        return usage();
    }
    if (parse_status(argv[i], &status) != 0) {
        return kBad;
    }
    int rc = ran(status);
    if (rc == kSkip) {
        report_skip(&o);
    } else if (rc == kFail) {
        char why[64];
        struct report r;
        status_words(status, why, sizeof why);
        report_open(&r, o.name);
        report_verdict(&r, "FAIL", why);
        put_stderr_tail(r.details, o.err);
        report_close(&r);
    }
    return rc;
}

/* ------------------------------------------------------------------ */
/* Subcommands                                                          */

/* "DIR/NAMESUFFIX", allocated. */
static char *path_of(const char *dir, const char *name, const char *sfx) {
    size_t size = strlen(dir) + strlen(name) + strlen(sfx) + 2;
    char *p = xmalloc(size);
    snprintf(p, size, "%s/%s%s", dir, name, sfx);
    return p;
}

/* An expectation and an output, read, with the expectation compiled. */
struct pair {
    struct text e, o;
    struct pat *pats;
};

static int load_pair(const char *expect, const char *output, struct pair *p) {
    if (load_expect(expect, &p->e) != 0) {
        return -1;
    }
    if (load_output(output, &p->e, &p->o) != 0) {
        free_text(&p->o);
        free_text(&p->e);
        return -1;
    }
    p->pats = compile_text(&p->e);
    return 0;
}

static void free_pair(struct pair *p) {
    free_pats(p->pats, p->e.nlines);
    free_text(&p->o);
    free_text(&p->e);
}

/* The device lines of a check: held to the transcript of the GPU that
 * printed the output, where there is one. */
struct device_check {
    struct buf warn;
    struct transcript tr;
    int have_tr;
    struct alignment at;
    size_t differ, stale;
    char *tpath; /* the transcript's name */
};

/* The transcript of gpu in tdir, read and aligned. Returns kPass (with a
 * warning where there is none), or kBad. */
static int load_device(const struct pair *pr, const char *tdir, struct str gpu,
                       struct device_check *dc) {
    char *slug = slug_of(gpu);
    char *tpath = path_of(tdir, slug, ".txt");
    free(slug);
    dc->tpath = tpath;
    int rc = kPass;
    FILE *probe = fopen(tpath, "rb");
    if (!probe) {
        buf_item(&dc->warn, "; ", "no transcript for ");
        buf_add(&dc->warn, gpu.p, gpu.n);
        buf_puts(&dc->warn, " (");
        buf_puts(&dc->warn, tpath);
        buf_puts(&dc->warn, "); device lines unchecked");
        return rc;
    }
    fclose(probe);
    int problems =
        load_transcript(tpath, &dc->tr, output_limits(&pr->e), stderr);
    if (problems != 0) {
        if (problems > 0) {
            free_transcript(&dc->tr);
        }
        return kBad;
    }
    dc->have_tr = 1;
    align(pr->pats, pr->e.nlines, &dc->tr.body, &dc->at);
    return rc;
}

/* Which GPU printed the output (its {{gpu}}, else -g), and its
 * transcript's device values against the output's. */
static int check_device(const struct pair *pr, const struct alignment *ao,
                        const char *tdir, const char *gpu_arg,
                        struct device_check *dc) {
    memset(dc, 0, sizeof *dc);
    int has_device = 0;
    for (size_t k = 0; k < pr->e.nlines; k++) {
        has_device |= pr->pats[k].device;
    }
    if (!has_device) {
        return kPass;
    }
    struct str gpu = {NULL, 0};
    if (!gpu_of(&pr->e, pr->pats, &pr->o, &gpu) && gpu_arg) {
        gpu.p = gpu_arg;
        gpu.n = strlen(gpu_arg);
    }
    if (!gpu.n) {
        buf_item(&dc->warn, "; ",
                 "cannot tell which GPU printed this; device lines unchecked");
        return kPass;
    }
    int rc = load_device(pr, tdir, gpu, dc);
    if (dc->have_tr) {
        dc->differ = compare_device(NULL, &pr->e, pr->pats, &pr->o, ao, &dc->tr,
                                    &dc->at, &dc->stale);
        if (dc->stale) {
            buf_item(&dc->warn, "; ", dc->tr.body.path);
            buf_puts(&dc->warn, " does not match the expectation; some "
                                "device lines unchecked");
        }
    }
    return rc;
}

static void free_device(struct device_check *dc) {
    if (dc->have_tr) {
        free_align(&dc->at);
        free_transcript(&dc->tr);
    }
    free(dc->warn.p);
    free(dc->tpath);
}

/* The verdict of a check, and its details. */
static int report_check(const struct opts *o, const struct pair *pr,
                        const struct alignment *ao,
                        const struct device_check *dc, int status) {
    size_t total = count_differences(ao) + dc->differ;
    struct report r;
    report_open(&r, o->name);
    int rc = kPass;
    if (status != 0 || total) {
        char why[128];
        size_t n = 0;
        if (status != 0) {
            status_words(status, why, sizeof why);
            n = strlen(why);
        }
        if (total) {
            snprintf(why + n, sizeof why - n, "%s%zu differing line%s",
                     status ? ", " : "", total, total == 1 ? "" : "s");
        }
        report_verdict(&r, "FAIL", why);
        rc = kFail;
        if (status != 0 && dc->warn.n) {
            fprintf(r.details, "warning: %s\n", dc->warn.p);
        }
    } else {
        report_verdict(&r, "PASS", dc->warn.n ? dc->warn.p : NULL);
        rc = dc->warn.n ? kWarn : kPass;
    }
    print_diff(r.details, &pr->e, pr->pats, &pr->o, pr->o.path, ao);
    if (dc->have_tr && dc->differ) {
        size_t stale;
        compare_device(r.details, &pr->e, pr->pats, &pr->o, ao, &dc->tr,
                       &dc->at, &stale);
    }
    if (rc == kFail) {
        put_stderr_tail(r.details, o->err);
    }
    report_close(&r);
    return rc;
}

/* tcheck check [-n NAME] [-e STDERR] [-g GPU] [-o LABEL] EXPECT
 * TRANSCRIPT_DIR OUTPUT STATUS: the verdict on a run (see the top). */
static int cmd_check(int argc, char **argv) {
    struct opts o;
    int i, status;
    if (parse_opts(argc, argv, "nego", &o, &i) != 0 || argc - i != 4) {
        return usage();
    }
    if (parse_status(argv[i + 3], &status) != 0) {
        return kBad;
    }
    if (ran(status) == kSkip) {
        report_skip(&o);
        return kSkip;
    }
    struct pair pr;
    if (load_pair(argv[i], argv[i + 2], &pr) != 0) {
        return kBad;
    }
    if (o.label) {
        pr.o.path = o.label;
    }
    struct alignment ao;
    align(pr.pats, pr.e.nlines, &pr.o, &ao);
    struct device_check dc;
    int rc = check_device(&pr, &ao, argv[i + 1], o.gpu, &dc);
    if (rc == kPass) {
        rc = report_check(&o, &pr, &ao, &dc, status);
    }
    free_device(&dc);
    free_align(&ao);
    free_pair(&pr);
    return rc;
}

/* tcheck diff [-o LABEL] EXPECT OUTPUT: where the output differs from the
 * expectation, as check shows it; exit 0 where it does not. */
static int cmd_diff(int argc, char **argv) {
    struct opts o;
    int i;
    if (parse_opts(argc, argv, "o", &o, &i) != 0 || argc - i != 2) {
        return usage();
    }
    struct pair pr;
    if (load_pair(argv[i], argv[i + 1], &pr) != 0) {
        return kBad;
    }
    if (o.label) {
        pr.o.path = o.label;
    }
    struct alignment al;
    align(pr.pats, pr.e.nlines, &pr.o, &al);
    int rc = count_differences(&al) ? kFail : kPass;
    print_diff(stdout, &pr.e, pr.pats, &pr.o, pr.o.path, &al);
    free_align(&al);
    free_pair(&pr);
    return rc;
}

/* tcheck pending EXPECT OUTPUT: the expectation the output would need.
 * Output lines that match keep their expectation line, holes and all;
 * the others are copied as literal text. Exit 0 when that is the
 * expectation unchanged, 1 when it differs, 2 for an output too long to
 * be an expectation. */
static int cmd_pending(int argc, char **argv) {
    if (argc != 2) {
        return usage();
    }
    struct pair pr;
    if (load_pair(argv[0], argv[1], &pr) != 0) {
        return kBad;
    }
    const struct text *o = &pr.o;
    for (size_t j = 0; j < o->nlines && !o->more_lines; j++) {
        if (o->cut[j]) {
            fprintf(stderr,
                    "%s:%zu: a line of more than %zu bytes cannot be "
                    "an expectation\n",
                    o->path, o->first + j, kMaxLine);
            free_pair(&pr);
            return kBad;
        }
    }
    if (o->more_lines) {
        fprintf(stderr,
                "%s:%zu: the output goes on for %zu more lines, more "
                "than an expectation can hold\n",
                o->path, o->first + o->nlines, o->more_lines);
        free_pair(&pr);
        return kBad;
    }
    struct alignment al;
    align(pr.pats, pr.e.nlines, o, &al);
    for (size_t k = 0; k < al.n; k++) {
        const struct edit *d = &al.ed[k];
        if (d->op == '=') {
            put_raw(stdout, pr.e.line[d->a]);
        } else if (d->op == '+') {
            struct str s = o->line[d->b];
            put_raw(stdout, s);
            for (size_t x = 0; x < s.n; x++) {
                if (s.p[x] == '{' && hole_at(s.p + x, s.n - x) >= 0) {
                    fprintf(stderr,
                            "%s:%zu: warning: the output spells a "
                            "hole, which the expectation will read "
                            "as one\n",
                            o->path, o->first + d->b);
                    break;
                }
            }
        }
    }
    int rc = count_differences(&al) ? kFail : kPass;
    free_align(&al);
    free_pair(&pr);
    return rc;
}

/* The label of a line in the compare table: its leading literal text
 * (the first literal text where the line starts with a hole). */
static void line_label(const struct pat *pt, struct str eline, char *buf,
                       size_t size) {
    struct str s = eline;
    for (size_t t = 0; t < pt->ntok; t++) {
        if (pt->tok[t].kind == TOK_LIT) {
            s = pt->tok[t].lit;
            break;
        }
    }
    while (s.n && is_blank(s.p[0])) {
        s.p++, s.n--;
    }
    size_t n = s.n < size - 1 ? s.n : size - 1;
    memcpy(buf, s.p, n);
    buf[n] = '\0';
}

/* One row of the compare table: a measured value as recorded and now. */
static void compare_row(size_t line, const char *tag, struct str rec,
                        struct str now) {
    char a[64], b[64], ratio[32];
    snprintf(a, sizeof a, "%.*s", (int)(rec.n < 63 ? rec.n : 63), rec.p);
    snprintf(b, sizeof b, "%.*s", (int)(now.n < 63 ? now.n : 63), now.p);
    double ra = strtod(a, NULL), rb = strtod(b, NULL);
    if (ra != 0.0) {
        snprintf(ratio, sizeof ratio, "%.2f", rb / ra);
    } else {
        snprintf(ratio, sizeof ratio, "-");
    }
    printf("%6zu  %-*s %12s %12s %8s\n", line, (int)kLabelWidth, tag, a, b,
           ratio);
}

/* The rows of expectation line i, matched at output line j and transcript
 * line k. Returns how many. */
static size_t compare_line(const struct pair *pr, size_t i, size_t j,
                           const struct text *body, size_t k) {
    const struct pat *pt = &pr->pats[i];
    struct str *now = xarray(pt->nholes, sizeof *now);
    struct str *rec = xarray(pt->nholes, sizeof *rec);
    match_line(pt, pr->o.line[j], now);
    match_line(pt, body->line[k], rec);
    char label[kLabelWidth + 8];
    line_label(pt, pr->e.line[i], label, kLabelWidth + 1);
    size_t measured = 0, rows = 0;
    for (size_t h = 0; h < pt->nholes; h++) {
        measured += is_measured(hole_kind(pt, h));
    }
    for (size_t h = 0; h < pt->nholes; h++) {
        if (!is_measured(hole_kind(pt, h))) {
            continue;
        }
        char tag[kLabelWidth + 16];
        if (measured > 1) {
            snprintf(tag, sizeof tag, "%s [%zu]", label, ++rows);
        } else {
            snprintf(tag, sizeof tag, "%s", label);
            rows++;
        }
        compare_row(pr->e.first + i, tag, rec[h], now[h]);
    }
    free(now);
    free(rec);
    return rows;
}

/* tcheck compare EXPECT TRANSCRIPT OUTPUT: each measured value recorded
 * and now, and their ratio. Never fails. */
static int cmd_compare(int argc, char **argv) {
    if (argc != 3) {
        return usage();
    }
    struct pair pr;
    struct transcript tr;
    if (load_pair(argv[0], argv[2], &pr) != 0) {
        return kBad;
    }
    int problems = load_transcript(argv[1], &tr, output_limits(&pr.e), stderr);
    if (problems != 0) {
        if (problems > 0) {
            free_transcript(&tr);
        }
        free_pair(&pr);
        return kBad;
    }
    struct alignment ao, at;
    align(pr.pats, pr.e.nlines, &pr.o, &ao);
    align(pr.pats, pr.e.nlines, &tr.body, &at);
    printf("measured values: %s (recorded ", argv[1]);
    put_str(stdout, tr.value[kDate]);
    fputs(", commit ", stdout);
    put_str(stdout, tr.value[kCommit]);
    fputs(") against this run\n", stdout);
    printf("%6s  %-*s %12s %12s %8s\n", "line", (int)kLabelWidth, "value",
           "recorded", "now", "now/rec");
    size_t skipped = 0, rows = 0;
    for (size_t i = 0; i < pr.e.nlines; i++) {
        if (!pr.pats[i].measured) {
            continue;
        }
        if (ao.of_exp[i] == SIZE_MAX || at.of_exp[i] == SIZE_MAX) {
            skipped++;
            continue;
        }
        rows += compare_line(&pr, i, ao.of_exp[i], &tr.body, at.of_exp[i]);
    }
    if (!rows && !skipped) {
        puts("(no measured values)");
    }
    if (skipped) {
        printf("%zu line%s with measured values not compared: the output or "
               "the transcript does not match the expectation there\n",
               skipped, skipped == 1 ? "" : "s");
    }
    free_align(&ao);
    free_align(&at);
    free_transcript(&tr);
    free_pair(&pr);
    return kPass;
}

/* A transcript's names: its directory the program's, its program the
 * expectation's, its file named for its GPU. Returns the problems. */
static int lint_names(const char *epath, const struct transcript *tr,
                      FILE *out) {
    const char *tpath = tr->file.path;
    int problems = 0;
    struct str prog = base_name(epath, ".expect.pending");
    if (prog.n == strlen(prog.p)) {
        prog = base_name(epath, ".expect");
    }
    struct str dir = dir_name(tpath);
    if (dir.n && !str_eq(dir, prog)) {
        fprintf(out, "%s:1: transcript is in directory ", tpath);
        put_str(out, dir);
        fputs("/ but the expectation is for ", out);
        put_line(out, "", prog);
        problems++;
    }
    if (tr->value[kProgram].n && !str_eq(tr->value[kProgram], prog)) {
        fprintf(out, "%s:1: program is \"", tpath);
        put_str(out, tr->value[kProgram]);
        fputs("\" but the expectation is for ", out);
        put_line(out, "", prog);
        problems++;
    }
    struct str file = base_name(tpath, ".txt.pending");
    if (file.n == strlen(file.p)) {
        file = base_name(tpath, ".txt");
    }
    if (tr->value[kGpu].n) {
        char *slug = slug_of(tr->value[kGpu]);
        if (!str_is(file, slug)) {
            fprintf(out, "%s:%d: the GPU is \"", tpath, kGpu + 1);
            put_str(out, tr->value[kGpu]);
            fprintf(out, "\", so the file is %s.txt\n", slug);
            problems++;
        }
        free(slug);
    }
    return problems;
}

/* A hole name used twice in an expectation, said as e's file:line;
 * returns the number of such names. */
static int duplicate_names(const struct text *e, const struct pat *pats,
                           FILE *out) {
    int problems = 0;
    for (size_t i = 0; i < e->nlines; i++) {
        for (size_t t = 0; t < pats[i].ntok; t++) {
            const struct tok *a = &pats[i].tok[t];
            if (!is_hole(a->kind) || a->lit.n == 0) {
                continue;
            }
            for (size_t j = 0; j <= i; j++) {
                size_t end = j == i ? t : pats[j].ntok;
                for (size_t u = 0; u < end; u++) {
                    const struct tok *b = &pats[j].tok[u];
                    if (is_hole(b->kind) && str_eq(a->lit, b->lit)) {
                        fprintf(out, "%s:%zu: the hole name %.*s is taken "
                                "already, on line %zu; a name quotes one "
                                "value\n", e->path, e->first + i,
                                (int)a->lit.n, a->lit.p, e->first + j);
                        problems++;
                    }
                }
            }
        }
    }
    return problems;
}

/* A transcript's output against the expectation, and the GPU it names
 * against the one its output names. Returns the problems. */
static int lint_body(const struct text *e, const struct pat *pats,
                     const struct transcript *tr, FILE *out) {
    const struct text *body = &tr->body;
    int problems = 0;
    struct alignment al;
    align(pats, e->nlines, body, &al);
    size_t differ = count_differences(&al);
    if (differ) {
        fprintf(out,
                "%s:%zu: the output does not match %s: %zu differing "
                "line%s\n",
                body->path, body->first, e->path, differ,
                differ == 1 ? "" : "s");
        print_diff(out, e, pats, body, body->path, &al);
        problems++;
    }
    free_align(&al);
    struct str gpu;
    if (tr->value[kGpu].n && gpu_of(e, pats, body, &gpu) &&
        !str_eq(gpu, tr->value[kGpu])) {
        fprintf(out, "%s:%d: the header names GPU \"", body->path, kGpu + 1);
        put_str(out, tr->value[kGpu]);
        fputs("\" but the output names \"", out);
        put_str(out, gpu);
        fputs("\"\n", out);
        problems++;
    }
    return problems;
}

/* A transcript well formed, named for its GPU and program, and matching
 * the expectation: problems to out, one "file:line: message" each, each
 * with its details under it. kPass, kFail, or kBad (unreadable). */
static int lint_transcript(const char *epath, const char *tpath, FILE *out) {
    struct text e;
    struct transcript tr;
    if (load_expect(epath, &e) != 0) {
        return kBad;
    }
    int problems = load_transcript(tpath, &tr, output_limits(&e), out);
    if (problems < 0) {
        free_text(&e);
        return kBad;
    }
    struct pat *pats = compile_text(&e);
    problems += not_holes(&e, out);
    problems += lint_names(epath, &tr, out);
    problems += lint_body(&e, pats, &tr, out);
    problems += duplicate_names(&e, pats, out);
    free_pats(pats, e.nlines);
    free_transcript(&tr);
    free_text(&e);
    return problems ? kFail : kPass;
}

/* tcheck lint EXPECT TRANSCRIPT: lint_transcript on standard output;
 * exit 1 if there are problems. */
static int cmd_lint(int argc, char **argv) {
    if (argc != 2) {
        return usage();
    }
    return lint_transcript(argv[0], argv[1], stdout);
}

/* ------------------------------------------------------------------ */
/* The evidence tree                                                    */

static int is_file(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int is_dir(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int starts_with(const char *s, const char *prefix) {
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* s ends in sfx, with something before it. */
static int ends_with(const char *s, const char *sfx) {
    size_t n = strlen(s), k = strlen(sfx);
    return n > k && strcmp(s + n - k, sfx) == 0;
}

static int by_name(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in a directory but . and .., sorted; none where it cannot be
 * listed (it does not exist, say). */
static char **list_dir(const char *path, size_t *n) {
    char **names = NULL;
    size_t cap = 0;
    *n = 0;
    DIR *d = opendir(path);
    if (!d) {
        return NULL;
    }
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0) {
            continue;
        }
        names = grow(names, *n, &cap, sizeof *names);
        names[*n] = xmalloc(strlen(de->d_name) + 1);
        strcpy(names[(*n)++], de->d_name);
    }
    closedir(d);
    if (*n) {
        qsort(names, *n, sizeof *names, by_name);
    }
    return names;
}

static void free_names(char **names, size_t n) {
    for (size_t i = 0; i < n; i++) {
        free(names[i]);
    }
    free(names);
}

/* Verdicts counted, for "N passed, N failed, N skipped". */
struct tally {
    size_t passed, failed, skipped;
};

/* What lint found wrong with one program's evidence. */
struct findings {
    struct buf problems; /* one a line; the first is the verdict's */
    size_t n;
    struct buf details; /* what the problems' reports say under them */
    int pending;        /* evidence recorded, not yet accepted */
};

static void found(struct findings *fd, const char *a, const char *b,
                  const char *c) {
    buf_puts(&fd->problems, a);
    buf_puts(&fd->problems, b);
    buf_puts(&fd->problems, c);
    buf_puts(&fd->problems, "\n");
    fd->n++;
}

/* A transcript's lint report, its first line a problem, the rest details. */
static void lint_into(const char *exp, const char *path, struct findings *fd) {
    FILE *tmp = tmpfile();
    if (!tmp) {
        fputs("tcheck: cannot make a temporary file\n", stderr);
        exit(kBad);
    }
    int rc = lint_transcript(exp, path, tmp);
    rewind(tmp);
    int c, first = 1;
    size_t n = 0;
    while (rc != kPass && (c = getc(tmp)) != EOF) {
        char ch = (char)c;
        buf_add(first ? &fd->problems : &fd->details, &ch, 1);
        n++;
        first &= c != '\n';
    }
    fclose(tmp);
    if (rc == kPass) {
        return;
    }
    if (n == 0) {
        found(fd, path, ": cannot read", "");
        return;
    }
    if (first) {
        buf_puts(&fd->problems, "\n");
    }
    fd->n++;
}

/* One entry of EVIDENCE/PROG/. */
static void lint_entry(const char *exp, const char *dir, const char *name,
                       struct findings *fd) {
    char *path = path_of(dir, name, "");
    if (starts_with(name, ".tmp-")) {
        found(fd, path, ": left by an interrupted record; remove it", "");
    } else if (ends_with(name, ".txt.pending")) {
        fd->pending = 1;
    } else if (ends_with(name, ".txt")) {
        if (is_file(exp)) {
            lint_into(exp, path, fd);
        }
    } else {
        found(fd, path, ": not a transcript (GPU.txt)", "");
    }
    free(path);
}

/* Lines, each indented by four spaces. */
static void put_indented(const char *s) {
    for (const char *p = s; *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        printf("    %.*s\n", (int)n, p);
        p += n + (nl != NULL);
    }
}

/* The verdict on one program's evidence. */
static void report_findings(const char *prog, struct findings *fd,
                            struct tally *t) {
    struct report r = {prog, stdout};
    char warn[200];
    snprintf(warn, sizeof warn,
             "pending evidence not accepted: review it, "
             "then make accept PROG=%s",
             prog);
    if (fd->n == 0) {
        report_verdict(&r, "PASS", fd->pending ? warn : NULL);
        t->passed++;
        return;
    }
    char *p = fd->problems.p, *nl = strchr(p, '\n');
    *nl = '\0';
    struct buf why = {NULL, 0, 0};
    buf_puts(&why, p);
    if (fd->n > 1) {
        char more[64];
        snprintf(more, sizeof more, " (and %zu more)", fd->n - 1);
        buf_puts(&why, more);
    }
    report_verdict(&r, "FAIL", why.p);
    put_indented(nl + 1);
    put_indented(fd->details.n ? fd->details.p : "");
    free(why.p);
    t->failed++;
}

/* One program's evidence: its expectation, its transcripts, and nothing
 * else in its directory. */
static void lint_program(const char *ev, const char *prog, struct tally *t) {
    struct findings fd;
    memset(&fd, 0, sizeof fd);
    char *exp = path_of(ev, prog, ".expect"), *dir = path_of(ev, prog, "");
    char *pending = path_of(ev, prog, ".expect.pending");
    char hint[200];
    snprintf(hint, sizeof hint,
             "; make one on a GPU with: make record "
             "PROG=%s, then make accept PROG=%s",
             prog, prog);
    size_t n, transcripts = 0;
    char **names = list_dir(dir, &n);
    for (size_t i = 0; i < n; i++) {
        char *path = path_of(dir, names[i], "");
        transcripts +=
            names[i][0] != '.' && ends_with(names[i], ".txt") && is_file(path);
        free(path);
    }
    if (!is_file(exp)) {
        found(&fd, "no expectation ", exp, hint);
    }
    if (!transcripts) {
        found(&fd, "no transcript in ", dir, "/");
        fd.problems.n--; /* the hint, on the same line */
        buf_puts(&fd.problems, hint);
        buf_puts(&fd.problems, "\n");
    }
    for (size_t i = 0; i < n; i++) {
        lint_entry(exp, dir, names[i], &fd);
    }
    fd.pending |= is_file(pending);
    report_findings(prog, &fd, t);
    free_names(names, n);
    free(fd.problems.p);
    free(fd.details.p);
    free(pending);
    free(dir);
    free(exp);
}

/* The program a run, EVIDENCE/RUN.run, runs: the first word of its line
 * (make checks the rest), or "" where it has none. */
static char *program_of_run(const char *path) {
    char word[256] = "";
    FILE *f = fopen(path, "r");
    if (f != NULL) {
        if (fscanf(f, " %255[^ \t\n]", word) != 1) {
            word[0] = '\0';
        }
        fclose(f);
    }
    char *prog = malloc(strlen(word) + 1);
    if (!prog) {
        fputs("tcheck: out of memory\n", stderr);
        exit(kBad);
    }
    return strcpy(prog, word);
}

/* The program an entry of EVIDENCE is evidence of: NULL where it is no
 * evidence, after saying so. A run, RUN.run, is evidence of the program it
 * runs, as a profile's spec, PROG.ncu, is of PROG; what it records, RUN/
 * and RUN.expect, is the run's. */
static char *evidence_of(const char *ev, const char *name, struct tally *t) {
    static const char *const kSuffixes[] = {".expect.pending", ".expect",
                                            ".chart", ".ncu"};
    char *path = path_of(ev, name, "");
    struct report r = {name, stdout};
    if (ends_with(name, ".run")) {
        char *prog = program_of_run(path);
        free(path);
        return prog;
    }
    for (size_t i = 0; i < sizeof kSuffixes / sizeof kSuffixes[0]; i++) {
        if (ends_with(name, kSuffixes[i])) {
            size_t n = strlen(name) - strlen(kSuffixes[i]);
            memmove(path, name, n);
            path[n] = '\0';
            return path;
        }
    }
    if (starts_with(name, ".tmp-") || !is_dir(path)) {
        struct buf why = {NULL, 0, 0};
        buf_puts(&why, path);
        buf_puts(&why, starts_with(name, ".tmp-")
                           ? ": left by an interrupted record; remove it"
                           : " is not evidence (PROG.expect, PROG.chart, "
                             "PROG.ncu, RUN.run or PROG/)");
        report_verdict(&r, "FAIL", why.p);
        t->failed++;
        free(why.p);
        free(path);
        return NULL;
    }
    strcpy(path, name);
    return path;
}

/* Evidence that belongs to no program of the book. */
static void lint_orphans(const char *ev, char **progs, int nprogs,
                         struct tally *t) {
    size_t n;
    char **names = list_dir(ev, &n);
    for (size_t i = 0; i < n; i++) {
        if (strcmp(names[i], "README.md") == 0) {
            continue;
        }
        char *prog = evidence_of(ev, names[i], t);
        int known = prog == NULL;
        for (int k = 0; k < nprogs && !known; k++) {
            known = strcmp(progs[k], prog) == 0;
        }
        if (!known) {
            char *path = path_of(ev, names[i], "");
            struct report r = {prog, stdout};
            struct buf why = {NULL, 0, 0};
            buf_puts(&why, path);
            buf_puts(&why, " belongs to no program of the book; remove it, "
                           "or add the program");
            report_verdict(&r, "FAIL", why.p);
            t->failed++;
            free(why.p);
            free(path);
        }
        free(prog);
    }
    free_names(names, n);
}

/* tcheck lint-tree [-c] EVIDENCE PROG...: the evidence itself, no GPU
 * needed: for each PROG a verdict line, then one for each entry of
 * EVIDENCE that belongs to none of them (so PROG... must name every
 * program of the book). With -c, a closing "N passed, N failed, N
 * skipped". Exit 1 if any failed. */
static int cmd_lint_tree(int argc, char **argv) {
    int count = argc > 0 && strcmp(argv[0], "-c") == 0;
    argc -= count;
    argv += count;
    if (argc < 1) {
        return usage();
    }
    struct tally t = {0, 0, 0};
    for (int i = 1; i < argc; i++) {
        lint_program(argv[0], argv[i], &t);
    }
    lint_orphans(argv[0], argv + 1, argc - 1, &t);
    if (count) {
        printf("%zu passed, %zu failed, %zu skipped\n", t.passed, t.failed,
               t.skipped);
    }
    return t.failed ? kFail : kPass;
}

/* ------------------------------------------------------------------ */
/* Writing a transcript                                                 */

/* HEADER's "key: value" lines, in any order, one for every key. Returns
 * the number of problems, each said on stderr. */
static int read_header_file(const struct text *h, struct str *value,
                            size_t *where) {
    int problems = 0;
    for (size_t i = 0; i < h->nlines; i++) {
        struct str l = h->line[i];
        int k = 0;
        size_t klen = 0;
        for (; k < kNumKeys; k++) {
            klen = strlen(kKeys[k]);
            if (l.n >= klen + 1 && memcmp(l.p, kKeys[k], klen) == 0 &&
                l.p[klen] == ':') {
                break;
            }
        }
        if (!l.n) {
            continue;
        }
        if (k == kNumKeys) {
            fprintf(stderr, "%s:%zu: not a header key: ", h->path, i + 1);
            put_line(stderr, "", l);
            problems++;
            continue;
        }
        struct str v = {l.p + klen + 1, l.n - klen - 1};
        while (v.n && is_blank(v.p[0])) {
            v.p++, v.n--;
        }
        if (where[k]) {
            fprintf(stderr, "%s:%zu: %s given twice\n", h->path, i + 1,
                    kKeys[k]);
            problems++;
        }
        value[k] = v;
        where[k] = i + 1;
    }
    return problems;
}

/* Every key given, and well formed. Returns the number of problems. */
static int check_header(const struct text *h, const struct str *value,
                        const size_t *where) {
    int problems = 0;
    for (int k = 0; k < kNumKeys; k++) {
        if (!where[k] && k >= kRequiredKeys) {
            continue;
        }
        if (!where[k]) {
            fprintf(stderr, "%s: no \"%s:\" line\n", h->path, kKeys[k]);
            problems++;
            continue;
        }
        const char *why = bad_value(k, value[k]);
        if (why) {
            fprintf(stderr, "%s:%zu: %s %s\n", h->path, where[k], kKeys[k],
                    why);
            problems++;
        }
    }
    return problems;
}

/* Copy a file to standard output, as it is, however long. */
static int copy_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: cannot open: %s\n", path, strerror(errno));
        return -1;
    }
    char chunk[1 << 16];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
        fwrite(chunk, 1, got, stdout);
    }
    int err = ferror(f);
    fclose(f);
    if (err) {
        fprintf(stderr, "%s: cannot read\n", path);
        return -1;
    }
    return 0;
}

/* tcheck transcript HEADER OUTPUT: write a transcript to standard output.
 * HEADER holds "key: value" lines, in any order, for every key. */
static int cmd_transcript(int argc, char **argv) {
    if (argc != 2) {
        return usage();
    }
    struct text h;
    if (load_expect(argv[0], &h) != 0) {
        return kBad;
    }
    struct str value[kNumKeys];
    size_t where[kNumKeys];
    memset(value, 0, sizeof value);
    memset(where, 0, sizeof where);
    int problems = read_header_file(&h, value, where);
    problems += check_header(&h, value, where);
    FILE *probe = problems ? NULL : fopen(argv[1], "rb");
    if (!probe) {
        if (!problems) {
            fprintf(stderr, "%s: cannot open: %s\n", argv[1], strerror(errno));
        }
        free_text(&h);
        return kBad;
    }
    fclose(probe);
    for (int k = 0; k < kNumKeys; k++) {
        if (!where[k]) {
            continue; /* the fingerprint, which a record always gives */
        }
        printf("%s: ", kKeys[k]);
        put_raw(stdout, value[k]);
    }
    puts(kSeparator);
    free_text(&h);
    if (copy_file(argv[1]) != 0) {
        return kBad;
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fputs("tcheck: cannot write the transcript\n", stderr);
        return kBad;
    }
    return kPass;
}

/* ------------------------------------------------------------------ */
/* Values                                                               */

/* tcheck gpu EXPECT OUTPUT: the {{gpu}} value the output holds. */
static int cmd_gpu(int argc, char **argv) {
    if (argc != 2) {
        return usage();
    }
    struct pair pr;
    if (load_pair(argv[0], argv[1], &pr) != 0) {
        return kBad;
    }
    struct str gpu;
    int rc = kPass;
    if (gpu_of(&pr.e, pr.pats, &pr.o, &gpu)) {
        put_raw(stdout, gpu);
    } else {
        fprintf(stderr, "%s:1: no line matches a {{gpu}} line of %s\n",
                pr.o.path, pr.e.path);
        rc = kFail;
    }
    free_pair(&pr);
    return rc;
}

/* tcheck values EXPECT OUTPUT: every hole's value in the output lines
 * that match, one a line: LINE COLUMN LENGTH KIND VALUE, tab-separated,
 * LINE and COLUMN counted from 1 in bytes. */
static int cmd_values(int argc, char **argv) {
    if (argc != 2) {
        return usage();
    }
    struct pair pr;
    if (load_pair(argv[0], argv[1], &pr) != 0) {
        return kBad;
    }
    struct alignment al;
    align(pr.pats, pr.e.nlines, &pr.o, &al);
    for (size_t k = 0; k < al.n; k++) {
        const struct edit *d = &al.ed[k];
        const struct pat *pt = &pr.pats[d->a];
        if (d->op != '=' || !pt->nholes) {
            continue;
        }
        struct str line = pr.o.line[d->b];
        struct str *cap = xarray(pt->nholes, sizeof *cap);
        match_line(pt, line, cap);
        for (size_t h = 0; h < pt->nholes; h++) {
            const char *name = hole_name(hole_kind(pt, h));
            printf("%zu\t%zu\t%zu\t%.*s\t", pr.o.first + d->b,
                   (size_t)(cap[h].p - line.p) + 1, cap[h].n,
                   (int)strlen(name) - 4, name + 2);
            put_raw(stdout, cap[h]);
        }
        free(cap);
    }
    free_align(&al);
    free_pair(&pr);
    return kPass;
}

/* The token of hole number h of a pattern. */
static const struct tok *hole_tok(const struct pat *pt, size_t h) {
    for (size_t t = 0; t < pt->ntok; t++) {
        if (is_hole(pt->tok[t].kind) && h-- == 0) {
            return &pt->tok[t];
        }
    }
    return NULL;
}

/* The named holes of one transcript line matched by pt: NAME, the value,
 * the transcript's path and line. */
static void put_quotes(const struct pat *pt, struct str line, const char *path,
                       size_t lineno) {
    struct str *cap = xarray(pt->nholes, sizeof *cap);
    match_line(pt, line, cap);
    for (size_t h = 0; h < pt->nholes; h++) {
        const struct tok *t = hole_tok(pt, h);
        if (t->lit.n == 0) {
            continue;
        }
        printf("%.*s\t%.*s\t%s:%zu\n", (int)t->lit.n, t->lit.p,
               (int)cap[h].n, cap[h].p, path, lineno);
    }
    free(cap);
}

/* The named holes of every line of text (from path) that the alignment
 * matched to its expectation line. */
static void put_matched_quotes(const struct pat *pats,
                               const struct alignment *al,
                               const struct text *text, const char *path) {
    for (size_t k = 0; k < al->n; k++) {
        const struct edit *d = &al->ed[k];
        if (d->op == '=' && pats[d->a].nholes) {
            put_quotes(&pats[d->a], text->line[d->b], path, text->first + d->b);
        }
    }
}

/* tcheck quotes -o EXPECT OUTPUT: the same of a program's bare output (a
 * reader's run, no header): the named holes of every line that matches
 * its expectation, FILE:LINE being the output's. Fails (having printed
 * them) where some line does not match. */
static int quotes_of_output(const char *expect, const char *output) {
    struct pair pr;
    if (load_pair(expect, output, &pr) != 0) {
        return kBad;
    }
    if (duplicate_names(&pr.e, pr.pats, stderr)) {
        free_pair(&pr);
        return kBad;
    }
    struct alignment al;
    align(pr.pats, pr.e.nlines, &pr.o, &al);
    int rc = count_differences(&al) ? kFail : kPass;
    put_matched_quotes(pr.pats, &al, &pr.o, output);
    free_align(&al);
    free_pair(&pr);
    return rc;
}

/* tcheck quotes EXPECT TRANSCRIPT: the value of every named hole as the
 * transcript recorded it, a line each: NAME<TAB>VALUE<TAB>FILE:LINE, for
 * the prose to quote. Fails where the transcript does not match. */
static int cmd_quotes(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[0], "-o") == 0) {
        return quotes_of_output(argv[1], argv[2]);
    }
    if (argc != 2) {
        return usage();
    }
    struct text e;
    struct transcript tr;
    if (load_expect(argv[0], &e) != 0) {
        return kBad;
    }
    if (load_transcript(argv[1], &tr, output_limits(&e), stderr) != 0) {
        free_text(&e);
        return kBad;
    }
    struct pat *pats = compile_text(&e);
    struct alignment al;
    align(pats, e.nlines, &tr.body, &al);
    int rc = count_differences(&al) ? kFail : kPass;
    if (rc != kPass) {
        /* Where, as the lint says it: what is not a hole, then the diff. */
        not_holes(&e, stderr);
        fprintf(stderr, "%s:%zu: the output does not match %s\n", argv[1],
                tr.body.first, argv[0]);
        print_diff(stderr, &e, pats, &tr.body, argv[1], &al);
    }
    if (duplicate_names(&e, pats, stderr)) {
        rc = kBad;
    }
    if (rc == kPass) {
        put_matched_quotes(pats, &al, &tr.body, argv[1]);
    }
    free_align(&al);
    free_pats(pats, e.nlines);
    free_transcript(&tr);
    free_text(&e);
    return rc;
}

static int cmd_slug(int argc, char **argv) {
    if (argc != 1) {
        return usage();
    }
    struct str name = {argv[0], strlen(argv[0])};
    char *s = slug_of(name);
    int rc = kPass;
    if (*s) {
        puts(s);
    } else {
        fprintf(stderr, "tcheck: GPU name \"%s\" has no letters or digits\n",
                argv[0]);
        rc = kBad;
    }
    free(s);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Fingerprints: which code a transcript measured                       */
/*
 * A program's fingerprint is a hash of what decides what it does: its
 * source, as tangled, and every file of the book it includes (a quoted
 * #include naming a file beside the one including it, followed to any
 * depth), each with its comments, blank lines and blanks that only lay the
 * code out taken away; for a run or a profile, its line or spec (-x); then
 * the compile line (its compiler by file name alone) and nvcc's version. The header shows the whole
 * hash and a short hash of each part, by name, so that a check can say
 * which part changed:
 *
 *   fingerprint: 0f1e2d3c4b5a6978 (scan_2.cu 1a2b3c4d, compile 5e6f7a8b,
 *                nvcc 9c0d1e2f)                              (one line)
 *
 * The hash is 64-bit FNV-1a: it tells a changed program from the one that
 * was measured, and is no defence against a collision made on purpose.
 */

static const uint64_t kFnvBasis = 14695981039346656037ULL;

static uint64_t fnv(uint64_t h, const void *p, size_t n) {
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h = (h ^ b[i]) * 1099511628211ULL;
    }
    return h;
}

static int is_ident(char c) {
    return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           c == '_';
}

/* The code as the fingerprint takes it (see above). */
struct code_out {
    struct buf *b;
    int space, any; /* a blank is owed before what comes next; the line
                       holds something */
};

static void code_put(struct code_out *o, const char *p, size_t n) {
    if (o->space && o->any) {
        buf_add(o->b, " ", 1);
    }
    o->space = 0;
    o->any = 1;
    buf_add(o->b, p, n);
}

static void code_newline(struct code_out *o) {
    if (o->any) {
        buf_add(o->b, "\n", 1);
    }
    o->any = o->space = 0;
}

/* The end of the literal that opens at s[i] (a quote), past its closing
 * quote: a raw string R"d(...)d" where raw, else up to the closing quote
 * not escaped, or the line's end where there is none. */
static size_t literal_end(const char *s, size_t n, size_t i, int raw) {
    if (raw) {
        size_t d = i + 1;
        while (d < n && s[d] != '(' && d - i <= 17) {
            d++;
        }
        if (d < n && s[d] == '(') {
            size_t dl = d - i - 1;
            for (size_t j = d + 1; j + dl + 1 < n + 1; j++) {
                if (s[j] == ')' && j + 1 + dl < n &&
                    memcmp(s + j + 1, s + i + 1, dl) == 0 &&
                    s[j + 1 + dl] == '"') {
                    return j + dl + 2;
                }
            }
            return n;
        }
    }
    char q = s[i];
    size_t j = i + 1;
    while (j < n && s[j] != q && s[j] != '\n') {
        j += s[j] == '\\' && j + 1 < n ? 2 : 1;
    }
    return j < n && s[j] == q ? j + 1 : j;
}

/* A quote at s[i] opens a raw string: R"..., uR", u8R", UR", LR". */
static int opens_raw(const char *s, size_t i) {
    if (s[i] != '"' || i == 0 || s[i - 1] != 'R') {
        return 0;
    }
    size_t k = i - 1; /* the R */
    if (k >= 2 && s[k - 1] == '8' && s[k - 2] == 'u') {
        k -= 2;
    } else if (k >= 1 && (s[k - 1] == 'u' || s[k - 1] == 'U' || s[k - 1] == 'L')) {
        k -= 1;
    }
    return k == 0 || !is_ident(s[k - 1]);
}

/* A ' at s[i] separates digits (1'000'000) rather than opening a
 * character: the word it ends begins with a digit. */
static int digit_separator(const char *s, size_t i) {
    size_t k = i;
    while (k > 0 && (is_ident(s[k - 1]) || s[k - 1] == '\'')) {
        k--;
    }
    return k < i && is_digit(s[k]);
}

/* C and C++ code without its comments (each one a blank), blank lines,
 * blanks at a line's ends, and with every run of blanks one blank; a
 * string or character literal is kept as it is. */
static void normalise_code(const char *s, size_t n, struct buf *b) {
    struct code_out o = {b, 0, 0};
    size_t i = 0;
    while (i < n) {
        char c = s[i];
        if (c == '/' && i + 1 < n && s[i + 1] == '/') {
            while (i < n && s[i] != '\n') {
                i += s[i] == '\\' && i + 1 < n && s[i + 1] == '\n' ? 2 : 1;
            }
            o.space = 1;
        } else if (c == '/' && i + 1 < n && s[i + 1] == '*') {
            const char *e = NULL;
            for (size_t j = i + 2; j + 1 < n; j++) {
                if (s[j] == '*' && s[j + 1] == '/') {
                    e = s + j;
                    break;
                }
            }
            i = e ? (size_t)(e - s) + 2 : n;
            o.space = 1;
        } else if (c == '\n') {
            code_newline(&o);
            i++;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' ||
                   c == '\v') {
            o.space = 1;
            i++;
        } else if (c == '"' || (c == '\'' && !digit_separator(s, i))) {
            size_t e = literal_end(s, n, i, opens_raw(s, i));
            code_put(&o, s + i, e - i);
            i = e;
        } else {
            code_put(&o, s + i, 1);
            i++;
        }
    }
    code_newline(&o);
}

struct fingerprint {
    char **name;     /* each part's name */
    uint64_t *hash;  /* and its hash */
    size_t n, cap;
};

static void fp_add(struct fingerprint *fp, const char *name, size_t len,
                   uint64_t h) {
    fp->name = grow(fp->name, fp->n, &fp->cap, sizeof *fp->name);
    fp->hash = xrealloc(fp->hash, fp->cap * sizeof *fp->hash);
    fp->name[fp->n] = xmalloc(len + 1);
    memcpy(fp->name[fp->n], name, len);
    fp->name[fp->n][len] = '\0';
    fp->hash[fp->n++] = h;
}

static void fp_free(struct fingerprint *fp) {
    for (size_t i = 0; i < fp->n; i++) {
        free(fp->name[i]);
    }
    free(fp->name);
    free(fp->hash);
}

static int fp_has(const struct fingerprint *fp, const char *name) {
    for (size_t i = 0; i < fp->n; i++) {
        if (strcmp(fp->name[i], name) == 0) {
            return 1;
        }
    }
    return 0;
}

/* A whole file, or NULL after saying why. */
static char *slurp(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: cannot open: %s\n", path, strerror(errno));
        return NULL;
    }
    struct buf b = {NULL, 0, 0};
    buf_add(&b, "", 0);
    char chunk[1 << 16];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
        buf_add(&b, chunk, got);
    }
    int err = ferror(f);
    fclose(f);
    if (err) {
        fprintf(stderr, "%s: cannot read\n", path);
        free(b.p);
        return NULL;
    }
    *n = b.n;
    return b.p;
}

/* Enter the file at path, named name, and the book's files it includes,
 * each once, in the order they are first included. Returns -1 where a
 * file cannot be read. */
static int fp_file(struct fingerprint *fp, const char *path, const char *name,
                   size_t depth) {
    if (fp_has(fp, name)) {
        return 0;
    }
    size_t n;
    char *src = slurp(path, &n);
    if (!src) {
        return -1;
    }
    struct buf code = {NULL, 0, 0};
    buf_add(&code, "", 0);
    normalise_code(src, n, &code);
    free(src);
    fp_add(fp, name, strlen(name), fnv(kFnvBasis, code.p, code.n));
    int rc = 0;
    /* Its quoted includes, as normalise_code wrote them: # include "x". */
    for (const char *l = code.p; rc == 0 && l && *l; ) {
        const char *nl = strchr(l, '\n');
        const char *p = l;
        if (*p == '#') {
            p += p[1] == ' ' ? 2 : 1;
            if (strncmp(p, "include", 7) == 0) {
                p += 7;
                p += *p == ' ';
                const char *q = *p == '"' ? strchr(p + 1, '"') : NULL;
                if (q && (!nl || q < nl) && q > p + 1) {
                    size_t dl = strlen(path);
                    while (dl && path[dl - 1] != '/') {
                        dl--;
                    }
                    size_t il = (size_t)(q - p - 1);
                    char *inc = xmalloc(dl + il + 1), *iname = xmalloc(il + 1);
                    memcpy(inc, path, dl);
                    memcpy(inc + dl, p + 1, il);
                    inc[dl + il] = '\0';
                    memcpy(iname, p + 1, il);
                    iname[il] = '\0';
                    /* A file that is not beside it is not the book's. */
                    if (is_file(inc) && depth < 64) {
                        rc = fp_file(fp, inc, iname, depth + 1);
                    }
                    free(inc);
                    free(iname);
                }
            }
        }
        l = nl ? nl + 1 : NULL;
    }
    free(code.p);
    return rc;
}

/* What a blank between two characters of code may part: 1 a word, 2 an
 * operator, 0 neither. */
static int token_class(char c) {
    return is_ident(c) ? 1 : c != '\0' && strchr("+-*/%&|^!~<>=.:?#", c) ? 2 : 0;
}

/* Normalised code (normalise_code) without its layout: a line break or a
 * blank stays only between two characters of a word, or of an operator,
 * that would otherwise run together; a preprocessor line keeps its blanks
 * and its line break, which mean something there. */
static void drop_layout(const char *s, size_t n, struct buf *b) {
    char prev = '\0'; /* the last character put, or none after a break */
    int space = 0;
    size_t i = 0;
    while (i < n) {
        const char *nl = memchr(s + i, '\n', n - i);
        size_t end = nl ? (size_t)(nl - s) : n;
        if (s[i] == '#') {
            if (b->n > 0 && prev != '\0') {
                buf_add(b, "\n", 1);
            }
            buf_add(b, s + i, end - i);
            buf_add(b, "\n", 1);
            prev = '\0';
            space = 0;
            i = end + 1;
            continue;
        }
        while (i < end) {
            char c = s[i];
            size_t e = i + 1;
            if (c == ' ') {
                space = 1;
                i++;
                continue;
            }
            if (c == '"' || (c == '\'' && !digit_separator(s, i))) {
                e = literal_end(s, end, i, opens_raw(s, i));
            }
            if (space && token_class(prev) != 0 &&
                token_class(prev) == token_class(c)) {
                buf_add(b, " ", 1);
            }
            buf_add(b, s + i, e - i);
            prev = s[e - 1];
            space = 0;
            i = e;
        }
        space = 1; /* the line break, a blank like any other */
        i = end + 1;
    }
}

/* transcript.h: a label's code as the book fingerprints it. */
uint64_t code_fingerprint(const char *s, size_t n) {
    struct buf norm = {NULL, 0, 0}, b = {NULL, 0, 0};
    buf_add(&norm, "", 0);
    buf_add(&b, "", 0);
    normalise_code(s, n, &norm);
    drop_layout(norm.p, norm.n, &b);
    uint64_t h = fnv(kFnvBasis, b.p, b.n);
    free(norm.p);
    free(b.p);
    return h;
}

/* A line of text as a part: blanks at its ends dropped, runs of them one. */
static void fp_line(struct fingerprint *fp, const char *name, const char *s) {
    struct buf b = {NULL, 0, 0};
    buf_add(&b, "", 0);
    normalise_code(s, strlen(s), &b);
    fp_add(fp, name, strlen(name), fnv(kFnvBasis, b.p, b.n));
    free(b.p);
}

/* The fingerprint's header value, "HASH (NAME HASH, ...)". */
static char *fp_value(const struct fingerprint *fp) {
    uint64_t h = kFnvBasis;
    struct buf parts = {NULL, 0, 0};
    buf_add(&parts, "", 0);
    for (size_t i = 0; i < fp->n; i++) {
        unsigned char le[8];
        for (int k = 0; k < 8; k++) {
            le[k] = (unsigned char)(fp->hash[i] >> (8 * k));
        }
        h = fnv(h, fp->name[i], strlen(fp->name[i]) + 1);
        h = fnv(h, le, sizeof le);
        char one[32];
        snprintf(one, sizeof one, " %08lx",
                 (unsigned long)(fp->hash[i] >> 32));
        buf_item(&parts, ", ", fp->name[i]);
        buf_puts(&parts, one);
    }
    struct buf v = {NULL, 0, 0};
    char whole[32];
    snprintf(whole, sizeof whole, "%016llx (", (unsigned long long)h);
    buf_puts(&v, whole);
    buf_puts(&v, parts.p);
    buf_puts(&v, ")");
    free(parts.p);
    return v.p;
}

/* The options of fingerprint and fresh. */
struct fp_opts {
    const char *name, *where, *record, *compile, *nvcc, *here;
    const char **extra;
    size_t nextra;
};

static int parse_fp_opts(int argc, char **argv, const char *allowed,
                         struct fp_opts *o, int *i) {
    memset(o, 0, sizeof *o);
    o->extra = xarray((size_t)argc + 1, sizeof *o->extra);
    for (*i = 0; *i + 1 < argc && argv[*i][0] == '-'; *i += 2) {
        const char *a = argv[*i], *v = argv[*i + 1];
        if (a[1] == '\0' || a[2] != '\0' || !strchr(allowed, a[1])) {
            return -1;
        }
        switch (a[1]) {
        case 'n': o->name = v; break;
        case 'w': o->where = v; break;
        case 'r': o->record = v; break;
        case 'c': o->compile = v; break;
        case 'v': o->nvcc = v; break;
        case 'h': o->here = v; break;
        default: o->extra[o->nextra++] = v; break;
        }
    }
    return o->compile ? 0 : -1;
}

/* The fingerprint of the program whose source is path, compiled by
 * compile with nvcc, and the extra files; NULL where a file cannot be read. */
static char *fingerprint_of(const char *path, const struct fp_opts *o,
                            const char *nvcc, struct fingerprint *fp) {
    memset(fp, 0, sizeof *fp);
    const char *base = strrchr(path, '/');
    if (fp_file(fp, path, base ? base + 1 : path, 0) != 0) {
        return NULL;
    }
    for (size_t i = 0; i < o->nextra; i++) {
        size_t n;
        char *s = slurp(o->extra[i], &n);
        if (!s) {
            return NULL;
        }
        struct buf b = {NULL, 0, 0};
        buf_add(&b, "", 0);
        normalise_code(s, n, &b);
        const char *eb = strrchr(o->extra[i], '/');
        fp_add(fp, eb ? eb + 1 : o->extra[i], strlen(eb ? eb + 1 : o->extra[i]),
               fnv(kFnvBasis, b.p, b.n));
        free(b.p);
        free(s);
    }
    /* The compiler by its file name: where nvcc is installed is not code. */
    const char *cl = o->compile;
    while (is_blank(*cl)) {
        cl++;
    }
    const char *word = cl, *slash = NULL;
    for (; *cl && !is_blank(*cl); cl++) {
        if (*cl == '/') {
            slash = cl;
        }
    }
    fp_line(fp, "compile", slash ? slash + 1 : word);
    fp_line(fp, "nvcc", nvcc);
    return fp_value(fp);
}

/* tcheck fingerprint -c COMPILE -v NVCC [-x FILE]... SOURCE */
static int cmd_fingerprint(int argc, char **argv) {
    struct fp_opts o;
    int i;
    if (parse_fp_opts(argc, argv, "cvx", &o, &i) != 0 || !o.nvcc ||
        argc - i != 1) {
        free(o.extra);
        return usage();
    }
    struct fingerprint fp;
    char *v = fingerprint_of(argv[i], &o, o.nvcc, &fp);
    fp_free(&fp);
    free(o.extra);
    if (!v) {
        return kBad;
    }
    puts(v);
    free(v);
    return kPass;
}

/* What differs between a recorded fingerprint and today's, in words. */
struct fp_diff {
    const struct fingerprint *now;
    struct buf what;
    int *seen;
};

static void fp_compare_part(const struct fp_part *part, void *arg) {
    struct fp_diff *d = arg;
    char hash[16];
    for (size_t i = 0; i < d->now->n; i++) {
        const char *nm = d->now->name[i];
        if (strlen(nm) == part->name.n && memcmp(nm, part->name.p, part->name.n) == 0) {
            d->seen[i] = 1;
            snprintf(hash, sizeof hash, "%08lx", (unsigned long)(d->now->hash[i] >> 32));
            if (memcmp(hash, part->hash.p, kFpPart) != 0) {
                struct buf w = {NULL, 0, 0};
                buf_puts(&w, strcmp(nm, "compile") == 0 ? "the compile line"
                             : strcmp(nm, "nvcc") == 0 ? "the nvcc: line"
                                                        : nm);
                buf_puts(&w, " changed");
                buf_item(&d->what, ", ", w.p);
                free(w.p);
            }
            return;
        }
    }
    struct buf w = {NULL, 0, 0};
    buf_puts(&w, "it no longer includes ");
    buf_add(&w, part->name.p, part->name.n);
    buf_item(&d->what, ", ", w.p);
    free(w.p);
}

/* tcheck fresh [-n NAME] [-w WHERE] [-r COMMAND] [-h NVCC_HERE] -c COMPILE
 *              [-x FILE]... SOURCE TRANSCRIPT
 * Whether the transcript measured today's program: its fingerprint against
 * the one of SOURCE as it is now, compiled by COMPILE with the nvcc the
 * transcript names. A verdict line; a stale one FAILs, naming what
 * changed, at WHERE (the program's chapter line), with the command that
 * records it again (COMMAND, default make record PROG=NAME). Where -h
 * names this machine's nvcc and it is not the transcript's, a warning. */
static int cmd_fresh(int argc, char **argv) {
    struct fp_opts o;
    int i;
    if (parse_fp_opts(argc, argv, "nwrchx", &o, &i) != 0 || argc - i != 2) {
        free(o.extra);
        return usage();
    }
    const char *tpath = argv[i + 1];
    struct transcript tr;
    struct limits lim = {kSlackLines, kBaseBytes};
    if (load_transcript(tpath, &tr, lim, NULL) < 0) {
        free(o.extra);
        return kBad;
    }
    struct report r;
    report_open(&r, o.name);
    char prog[256] = "";
    if (tr.value[kProgram].p && tr.value[kProgram].n < sizeof prog) {
        memcpy(prog, tr.value[kProgram].p, tr.value[kProgram].n);
        prog[tr.value[kProgram].n] = '\0';
    }
    struct buf again = {NULL, 0, 0};
    if (o.record) {
        buf_puts(&again, o.record);
    } else {
        buf_puts(&again, "make record PROG=");
        buf_puts(&again, prog);
    }
    buf_puts(&again, " on a GPU, then make accept PROG=");
    buf_puts(&again, prog);
    struct buf nvcc = {NULL, 0, 0};
    buf_add(&nvcc, "", 0);
    if (tr.value[kNvcc].p) {
        buf_add(&nvcc, tr.value[kNvcc].p, tr.value[kNvcc].n);
    }
    struct fingerprint now;
    char *v = fingerprint_of(argv[i], &o, nvcc.p, &now);
    int rc = kPass;
    struct buf why = {NULL, 0, 0};
    struct str rec = tr.value[kFingerprint];
    const char *at = o.where ? o.where : tpath;
    if (!v) {
        rc = kBad;
    } else if (!rec.p) {
        buf_puts(&why, "stale: no fingerprint says which code it measured");
        fprintf(r.details, "%s: %s was recorded before transcripts named "
                           "the code they measure (at commit ", at, tpath);
        fwrite(tr.value[kCommit].p, 1, tr.value[kCommit].n, r.details);
        fprintf(r.details,
                "), and is not known to be of today's program; record it "
                "again: %s\n",
                again.p);
        rc = kFail;
    } else if (strlen(v) != rec.n || memcmp(v, rec.p, rec.n) != 0) {
        struct fp_diff d = {&now, {NULL, 0, 0}, xarray(now.n + 1, sizeof(int))};
        memset(d.seen, 0, (now.n + 1) * sizeof(int));
        if (read_fingerprint(rec, NULL, fp_compare_part, &d) < 0) {
            buf_item(&d.what, ", ", "its fingerprint line is not well formed");
        }
        for (size_t k = 0; k < now.n; k++) {
            if (!d.seen[k]) {
                struct buf w = {NULL, 0, 0};
                buf_puts(&w, "it now includes ");
                buf_puts(&w, now.name[k]);
                buf_item(&d.what, ", ", w.p);
                free(w.p);
            }
        }
        if (!d.what.n) {
            buf_puts(&d.what, "its files are included in another order");
        }
        buf_puts(&why, "stale: ");
        buf_puts(&why, d.what.p);
        fprintf(r.details,
                "%s: %s measured other code than today's: %s since commit ",
                at, tpath, d.what.p);
        fwrite(tr.value[kCommit].p, 1, tr.value[kCommit].n, r.details);
        fprintf(r.details, "; record it again: %s\n", again.p);
        free(d.what.p);
        free(d.seen);
        rc = kFail;
    } else if (o.here && strcmp(o.here, nvcc.p) != 0) {
        buf_puts(&why, "recorded with nvcc ");
        buf_puts(&why, nvcc.p);
        buf_puts(&why, ", this machine's is ");
        buf_puts(&why, o.here);
        rc = kWarn;
    }
    if (rc != kBad) {
        report_verdict(&r, rc == kFail ? "FAIL" : "PASS", why.p);
    }
    report_close(&r);
    free(why.p);
    free(v);
    fp_free(&now);
    free(nvcc.p);
    free(again.p);
    free(o.extra);
    free_transcript(&tr);
    return rc;
}

/* The commands; with -DTCHECK_NO_MAIN (a library) there is no main, and
 * this is how a tool runs one. */
int tcheck_main(int argc, char **argv) {
    static const struct {
        const char *name;
        int (*run)(int, char **);
    } kCommands[] = {
        {"check", cmd_check},
        {"quotes", cmd_quotes},
        {"status", cmd_status},
        {"diff", cmd_diff},
        {"pending", cmd_pending},
        {"compare", cmd_compare},
        {"lint", cmd_lint},
        {"lint-tree", cmd_lint_tree},
        {"transcript", cmd_transcript},
        {"gpu", cmd_gpu},
        {"slug", cmd_slug},
        {"values", cmd_values},
        {"fingerprint", cmd_fingerprint},
        {"fresh", cmd_fresh},
    };
    if (argc < 2) {
        return usage();
    }
    for (size_t i = 0; i < sizeof kCommands / sizeof kCommands[0]; i++) {
        if (strcmp(argv[1], kCommands[i].name) == 0) {
            return kCommands[i].run(argc - 2, argv + 2);
        }
    }
    fprintf(stderr, "tcheck: unknown command \"%s\"\n", argv[1]);
    return usage();
}

#ifndef TCHECK_NO_MAIN
int main(int argc, char **argv) { return tcheck_main(argc, argv); }
#endif
