/*
 * tcheck: check a program's output against its expectation
 * (evidence/PROG.expect) and the transcripts recorded on real GPUs
 * (evidence/PROG/GPU.txt). The README's "Evidence" section is the
 * specification; this file implements it.
 *
 *   tcheck check [-g GPU] [-o LABEL] EXPECT TRANSCRIPT_DIR OUTPUT STATUS
 *   tcheck pending EXPECT OUTPUT
 *   tcheck compare EXPECT TRANSCRIPT OUTPUT
 *   tcheck lint EXPECT TRANSCRIPT
 *   tcheck transcript HEADER OUTPUT
 *   tcheck gpu EXPECT OUTPUT
 *   tcheck slug NAME
 *   tcheck values EXPECT OUTPUT
 *
 * Exit status: 0 pass, 1 fail, 2 bad input or usage, 3 pass with a warning.
 * Reports go to standard output; errors, as "file:line: message", to
 * standard error.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kPass = 0, kFail = 1, kBad = 2, kWarn = 3 };

enum {
    kContext = 3,       /* unchanged lines around a difference, as diff -u */
    kMaxDiffLines = 40, /* diff lines shown before the rest is counted */
    kMaxLocations =
        10,          /* "file:line:" notes shown before the rest is counted */
    kLabelWidth = 28 /* widest label in the compare table */
};

/* The largest LCS table built, in cells of 4 bytes: 2048 by 2048 lines,
 * 16 MiB. A longer differing middle is shown as removed and added whole. */
static const size_t kMaxCells = (size_t)1 << 22;

/* The line that ends a transcript's header. */
static const char kSeparator[] = "--- output ---";

/* The transcript header: these keys, one a line, in this order. */
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
    kNumKeys
};
static const char *const kKeys[kNumKeys] = {
    "program", "date",   "gpu",     "compute capability",
    "sms",     "driver", "runtime", "nvcc",
    "compile", "commit"};

/* ------------------------------------------------------------------ */
/* Memory and files                                                     */

static void *xrealloc(void *p, size_t n) {
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        fputs("tcheck: out of memory\n", stderr);
        exit(kBad);
    }
    return q;
}

static void *xmalloc(size_t n) { return xrealloc(NULL, n); }

static void *xarray(size_t count, size_t size) {
    if (size && count > SIZE_MAX / size) {
        fputs("tcheck: out of memory\n", stderr);
        exit(kBad);
    }
    return xmalloc(count * size);
}

/* Read a whole file. Returns 0, or -1 after saying why on stderr. */
static int read_file(const char *path, char **buf, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: cannot open: %s\n", path, strerror(errno));
        return -1;
    }
    size_t cap = 4096, n = 0, got;
    char *b = xmalloc(cap);
    while ((got = fread(b + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            if (cap > SIZE_MAX / 2) {
                fputs("tcheck: out of memory\n", stderr);
                exit(kBad);
            }
            cap *= 2;
            b = xrealloc(b, cap);
        }
    }
    int err = ferror(f);
    fclose(f);
    if (err) {
        fprintf(stderr, "%s: cannot read\n", path);
        free(b);
        return -1;
    }
    *buf = b;
    *size = n;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Text: a file split into normalised lines                             */

struct str {
    const char *p;
    size_t n;
};

struct text {
    const char *path; /* the name used in messages */
    char *buf;        /* the bytes, owned (NULL for a view into another) */
    size_t size;
    struct str *line; /* normalised lines, pointing into the bytes */
    size_t nlines;
    size_t first; /* the file line number of line[0] */
};

static int is_blank(char c) { return c == ' ' || c == '\t'; }

static int str_eq(struct str a, struct str b) {
    return a.n == b.n && (a.n == 0 || memcmp(a.p, b.p, a.n) == 0);
}

static int str_is(struct str a, const char *s) {
    struct str b = {s, strlen(s)};
    return str_eq(a, b);
}

/* Split bytes into lines. Normalising: a line ends at '\n'; a '\r' before
 * it (CRLF) and trailing blanks are dropped; a last line without '\n'
 * counts as a line unless it is empty. */
static void split_lines(struct text *t, const char *p, size_t n, size_t first) {
    size_t count = 0;
    for (size_t i = 0; i < n; i++) {
        count += p[i] == '\n';
    }
    if (n > 0 && p[n - 1] != '\n') {
        count++;
    }
    t->line = xarray(count, sizeof *t->line);
    t->nlines = 0;
    t->first = first;
    size_t start = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i < n && p[i] != '\n') {
            continue;
        }
        if (i == n && start == n) {
            break;
        }
        size_t end = i;
        while (end > start && (is_blank(p[end - 1]) || p[end - 1] == '\r')) {
            end--;
        }
        t->line[t->nlines].p = p + start;
        t->line[t->nlines].n = end - start;
        t->nlines++;
        start = i + 1;
    }
}

static int load_text(const char *path, struct text *t) {
    memset(t, 0, sizeof *t);
    t->path = path;
    if (read_file(path, &t->buf, &t->size) != 0) {
        return -1;
    }
    split_lines(t, t->buf, t->size, 1);
    return 0;
}

static void free_text(struct text *t) {
    free(t->buf);
    free(t->line);
    t->buf = NULL;
    t->line = NULL;
}

/* ------------------------------------------------------------------ */
/* struct patterns: an expectation line compiled into tokens */

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
    struct str lit; /* TOK_LIT only */
};

struct pat {
    struct tok *tok;
    size_t ntok;
    size_t nholes;
    int measured; /* has a measured hole */
    int device;   /* has a device hole: a device line */
    int gpu;      /* has a {{gpu}} hole */
};

/* The hole spelled at s, or -1. */
static int hole_at(const char *s, size_t n) {
    for (size_t i = 0; i < kNumHoles; i++) {
        size_t len = strlen(kHoles[i].text);
        if (len <= n && memcmp(s, kHoles[i].text, len) == 0) {
            return (int)i;
        }
    }
    return -1;
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
        size_t j = i;
        int h = -1;
        while (j < s.n && (h = hole_at(s.p + j, s.n - j)) < 0) {
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
        push_tok(pt, kHoles[h].kind, NULL, 0);
        i = j + strlen(kHoles[h].text);
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

/* struct match tokens t.. against s from pos to its end; hole t's value is hole
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

/* ------------------------------------------------------------------ */
/* struct alignmentment: the longest common subsequence of expectation lines and
 */
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
};

static void push_edit(struct alignment *al, char op, size_t a, size_t b) {
    al->ed[al->n].op = op;
    al->ed[al->n].a = a;
    al->ed[al->n].b = b;
    al->n++;
}

static void align(const struct pat *pats, size_t m, const struct text *out,
                  struct alignment *al) {
    size_t n = out->nlines;
    al->ed = xarray(m + n + 1, sizeof *al->ed);
    al->n = 0;
    al->of_exp = xarray(m + 1, sizeof *al->of_exp);
    for (size_t i = 0; i < m; i++) {
        al->of_exp[i] = SIZE_MAX;
    }

    /* Common head and tail first: they keep the table small. */
    size_t head = 0;
    while (head < m && head < n &&
           match_line(&pats[head], out->line[head], NULL)) {
        head++;
    }
    size_t tail = 0;
    while (tail < m - head && tail < n - head &&
           match_line(&pats[m - 1 - tail], out->line[n - 1 - tail], NULL)) {
        tail++;
    }
    size_t mm = m - head - tail, nn = n - head - tail;

    for (size_t i = 0; i < head; i++) {
        push_edit(al, '=', i, i);
    }

    int fits = (mm + 1) <= kMaxCells / (nn + 1);
    if (fits && mm > 0 && nn > 0) {
        /* lcs[i][j]: the LCS of expectation lines head+i.. and output
         * lines head+j.. of the middle. */
        size_t w = nn + 1;
        uint32_t *lcs = xarray((mm + 1) * w, sizeof *lcs);
        for (size_t j = 0; j <= nn; j++) {
            lcs[mm * w + j] = 0;
        }
        for (size_t i = mm; i-- > 0;) {
            lcs[i * w + nn] = 0;
            for (size_t j = nn; j-- > 0;) {
                if (match_line(&pats[head + i], out->line[head + j], NULL)) {
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
                match_line(&pats[head + i], out->line[head + j], NULL)) {
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
 * lines added, so one changed line counts once. */
static size_t count_differences(const struct alignment *al) {
    size_t total = 0, del = 0, ins = 0;
    for (size_t k = 0; k <= al->n; k++) {
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

static void put_str(FILE *f, struct str s) {
    if (s.n) {
        fwrite(s.p, 1, s.n, f);
    }
}

static void put_line(FILE *f, const char *prefix, struct str s) {
    fputs(prefix, f);
    put_str(f, s);
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

/* One "file:line: ..." note per run of changes, then a unified diff of the
 * expectation (holes shown as holes) against the output. */
static void print_diff(FILE *f, const struct text *e, const struct text *o,
                       const char *olabel, const struct alignment *al) {
    size_t runs = 0;
    for (size_t k = 0; k < al->n;) {
        if (al->ed[k].op == '=') {
            k++;
            continue;
        }
        size_t del = 0, ins = 0, a = al->ed[k].a, b = al->ed[k].b;
        for (; k < al->n && al->ed[k].op != '='; k++) {
            if (al->ed[k].op == '-') {
                del++;
            } else {
                ins++;
            }
        }
        if (runs++ >= kMaxLocations) {
            continue;
        }
        size_t at = a < e->nlines ? a : (e->nlines ? e->nlines - 1 : 0);
        fprintf(f, "%s:%zu: ", e->path, e->first + at);
        if (del > 1) {
            put_range(f, "line", "lines", e->first + a, del);
            fputc(' ', f);
        }
        if (del && ins) {
            fprintf(f, "%s not match %s ", del == 1 ? "does" : "do", olabel);
            put_range(f, "line", "lines", o->first + b, ins);
        } else if (del) {
            fprintf(f, "%s from %s", del == 1 ? "missing" : "are missing",
                    olabel);
        } else {
            fprintf(f, "%s ", olabel);
            put_range(f, "line", "lines", o->first + b, ins);
            fprintf(f, " not in the expectation (%s this line)",
                    a < e->nlines ? "before" : "after");
        }
        fputc('\n', f);
    }
    if (runs > kMaxLocations) {
        fprintf(f, "... and %zu more differences\n", runs - kMaxLocations);
    }
    if (!runs) {
        return;
    }

    fprintf(f, "--- %s\n+++ %s\n", e->path, olabel);
    size_t shown = 0, hidden = 0;
    for (size_t k = 0; k < al->n;) {
        if (al->ed[k].op == '=') {
            k++;
            continue;
        }
        /* A hunk: from kContext before this change to kContext after the
         * last change that is within 2 * kContext of the one before. */
        size_t lo = k > kContext ? k - kContext : 0, hi = k;
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
            hi += same < kContext ? same : kContext;
            break;
        }
        size_t a0 = al->ed[lo].a, b0 = al->ed[lo].b, na = 0, nb = 0;
        for (size_t x = lo; x < hi; x++) {
            na += al->ed[x].op != '+';
            nb += al->ed[x].op != '-';
        }
        if (shown < kMaxDiffLines) {
            fprintf(f, "@@ -%zu,%zu +%zu,%zu @@\n", e->first + a0 - (na == 0),
                    na, o->first + b0 - (nb == 0), nb);
        }
        for (size_t x = lo; x < hi; x++) {
            const struct edit *d = &al->ed[x];
            if (shown >= kMaxDiffLines) {
                hidden++;
                continue;
            }
            shown++;
            if (d->op == '=') {
                put_line(f, " ", e->line[d->a]);
            } else if (d->op == '-') {
                put_line(f, "-", e->line[d->a]);
            } else {
                put_line(f, "+", o->line[d->b]);
            }
        }
        k = hi;
    }
    if (hidden) {
        fprintf(f, "... %zu more diff lines not shown\n", hidden);
    }
}

/* ------------------------------------------------------------------ */
/* struct transcripts */

struct transcript {
    struct text file; /* all lines of the file, for the header */
    struct str value[kNumKeys];
    struct text body; /* the output: a view into file.buf */
    const char *raw;  /* the output's bytes as recorded */
    size_t nraw;
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
    default:
        return NULL;
    }
}

/* Read a transcript, saying on f, as "file:line: message", everything
 * wrong with its header. Returns the number of problems, or -1 when the
 * file cannot be read. */
static int load_transcript(const char *path, struct transcript *tr, FILE *f) {
    memset(tr, 0, sizeof *tr);
    if (load_text(path, &tr->file) != 0) {
        return -1;
    }
    const struct text *t = &tr->file;
    size_t sep = 0;
    while (sep < t->nlines && !str_is(t->line[sep], kSeparator)) {
        sep++;
    }
    int problems = 0;
    if (sep == t->nlines) {
        fprintf(f, "%s:%zu: no \"%s\" line ends the header\n", path,
                t->nlines ? t->nlines : 1, kSeparator);
        problems++;
    }
    for (size_t i = 0; i < kNumKeys; i++) {
        size_t klen = strlen(kKeys[i]);
        if (i >= sep) {
            fprintf(f, "%s:%zu: the header has no \"%s:\" line\n", path,
                    sep + 1, kKeys[i]);
            problems++;
            continue;
        }
        struct str l = t->line[i];
        if (l.n < klen + 2 || memcmp(l.p, kKeys[i], klen) != 0 ||
            l.p[klen] != ':' || l.p[klen + 1] != ' ') {
            fprintf(f, "%s:%zu: expected \"%s: ...\" here, header line %zu\n",
                    path, i + 1, kKeys[i], i + 1);
            problems++;
            continue;
        }
        tr->value[i].p = l.p + klen + 2;
        tr->value[i].n = l.n - klen - 2;
        const char *why = bad_value((int)i, tr->value[i]);
        if (why) {
            fprintf(f, "%s:%zu: %s %s\n", path, i + 1, kKeys[i], why);
            problems++;
        }
    }
    if (sep != t->nlines && sep > kNumKeys) {
        fprintf(f, "%s:%zu: unknown header line\n", path, (size_t)kNumKeys + 1);
        problems++;
    }
    /* The output: every byte after the separator line. */
    size_t start = t->size;
    if (sep < t->nlines) {
        const char *nl = memchr(t->line[sep].p, '\n',
                                t->size - (size_t)(t->line[sep].p - t->buf));
        start = nl ? (size_t)(nl - t->buf) + 1 : t->size;
    }
    tr->raw = t->buf + start;
    tr->nraw = t->size - start;
    tr->body.path = path;
    split_lines(&tr->body, tr->raw, tr->nraw, sep + 2);
    return problems;
}

static void free_transcript(struct transcript *tr) {
    free(tr->body.line);
    free_text(&tr->file);
}

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
            if (match_line(&pats[i], o->line[j], cap)) {
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
/* Subcommands                                                          */

static int usage(void) {
    fputs("usage: tcheck check [-g GPU] [-o LABEL] EXPECT TRANSCRIPT_DIR "
          "OUTPUT STATUS\n"
          "       tcheck pending EXPECT OUTPUT\n"
          "       tcheck compare EXPECT TRANSCRIPT OUTPUT\n"
          "       tcheck lint EXPECT TRANSCRIPT\n"
          "       tcheck transcript HEADER OUTPUT\n"
          "       tcheck gpu EXPECT OUTPUT\n"
          "       tcheck slug NAME\n"
          "       tcheck values EXPECT OUTPUT\n",
          stderr);
    return kBad;
}

/* A growing string, for the verdict's warnings. */
struct buf {
    char *p;
    size_t n, cap;
};

static void buf_add(struct buf *b, const char *s, size_t n) {
    if (b->n + n + 1 > b->cap) {
        b->cap = (b->n + n + 1) * 2;
        b->p = xrealloc(b->p, b->cap);
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = '\0';
}

static void buf_puts(struct buf *b, const char *s) { buf_add(b, s, strlen(s)); }

static void buf_warn(struct buf *b, const char *s) {
    if (b->n) {
        buf_puts(b, "; ");
    }
    buf_puts(b, s);
}

static int parse_status(const char *s, int *status) {
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (!*s || *end || errno || v < 0 || v > 255) {
        return -1;
    }
    *status = (int)v;
    return 0;
}

/* tcheck check [-g GPU] [-o LABEL] EXPECT TRANSCRIPT_DIR OUTPUT STATUS
 *
 * First line of standard output, the verdict:
 *   PASS | PASS (warning: ...) | FAIL: N differing lines | FAIL: exit status N
 * then the details. */
static int cmd_check(int argc, char **argv) {
    const char *gpu_arg = NULL, *label = NULL;
    int i = 0;
    while (i + 1 < argc && argv[i][0] == '-') {
        if (strcmp(argv[i], "-g") == 0) {
            gpu_arg = argv[i + 1];
        } else if (strcmp(argv[i], "-o") == 0) {
            label = argv[i + 1];
        } else {
            return usage();
        }
        i += 2;
    }
    if (argc - i != 4) {
        return usage();
    }
    const char *epath = argv[i], *tdir = argv[i + 1], *opath = argv[i + 2];
    int status;
    if (parse_status(argv[i + 3], &status) != 0) {
        fprintf(stderr,
                "tcheck: exit status \"%s\" is not a number from 0 to 255\n",
                argv[i + 3]);
        return kBad;
    }
    struct text e, o;
    if (load_text(epath, &e) != 0) {
        return kBad;
    }
    if (load_text(opath, &o) != 0) {
        free_text(&e);
        return kBad;
    }
    if (label) {
        o.path = label;
    }
    struct pat *pats = compile_text(&e);
    struct alignment ao;
    align(pats, e.nlines, &o, &ao);
    size_t differ = count_differences(&ao);

    int has_device = 0;
    for (size_t k = 0; k < e.nlines; k++) {
        has_device |= pats[k].device;
    }

    /* Which GPU: the output's {{gpu}}, else -g. */
    struct str gpu = {NULL, 0};
    if (!gpu_of(&e, pats, &o, &gpu) && gpu_arg) {
        gpu.p = gpu_arg;
        gpu.n = strlen(gpu_arg);
    }
    struct buf warn = {NULL, 0, 0};
    struct transcript tr;
    int have_tr = 0, rc = kPass;
    char *tpath = NULL;
    struct alignment at = {NULL, 0, NULL};
    size_t device_differ = 0, stale = 0;
    if (has_device && !gpu.n) {
        buf_warn(&warn,
                 "cannot tell which GPU printed this; device lines unchecked");
    } else if (has_device) {
        char *slug = slug_of(gpu);
        tpath = xmalloc(strlen(tdir) + strlen(slug) + 6);
        sprintf(tpath, "%s/%s.txt", tdir, slug);
        FILE *probe = fopen(tpath, "rb");
        if (!probe) {
            buf_warn(&warn, "no transcript for ");
            buf_add(&warn, gpu.p, gpu.n);
            buf_puts(&warn, " (");
            buf_puts(&warn, tpath);
            buf_puts(&warn, "); device lines unchecked");
        } else {
            fclose(probe);
            int problems = load_transcript(tpath, &tr, stderr);
            if (problems != 0) {
                if (problems > 0) {
                    free_transcript(&tr);
                }
                rc = kBad;
            } else {
                have_tr = 1;
                align(pats, e.nlines, &tr.body, &at);
                device_differ =
                    compare_device(NULL, &e, pats, &o, &ao, &tr, &at, &stale);
                if (stale) {
                    buf_warn(&warn, tpath);
                    buf_puts(&warn, " does not match the expectation; some "
                                    "device lines unchecked");
                }
            }
        }
        free(slug);
    }
    if (rc == kPass) {
        size_t total = differ + device_differ;
        if (status != 0 || total) {
            fputs("FAIL: ", stdout);
            if (status != 0) {
                printf("exit status %d", status);
                if (status > 128) {
                    printf(" (signal %d)", status - 128);
                }
            }
            if (total) {
                printf("%s%zu differing line%s", status ? ", " : "", total,
                       total == 1 ? "" : "s");
            }
            putchar('\n');
            rc = kFail;
        } else if (warn.n) {
            printf("PASS (warning: %s)\n", warn.p);
            rc = kWarn;
        } else {
            puts("PASS");
        }
        if (rc == kFail && status != 0 && warn.n) {
            printf("warning: %s\n", warn.p);
        }
        print_diff(stdout, &e, &o, o.path, &ao);
        if (have_tr && device_differ) {
            compare_device(stdout, &e, pats, &o, &ao, &tr, &at, &stale);
        }
    }
    if (have_tr) {
        free_align(&at);
        free_transcript(&tr);
    }
    free(tpath);
    free(warn.p);
    free_align(&ao);
    free_pats(pats, e.nlines);
    free_text(&o);
    free_text(&e);
    return rc;
}

/* An expectation and an output, read, with the expectation compiled:
 * where pending, gpu and values start. */
struct pair {
    struct text e, o;
    struct pat *pats;
};

static int load_pair(const char *expect, const char *output, struct pair *p) {
    if (load_text(expect, &p->e) != 0) {
        return -1;
    }
    if (load_text(output, &p->o) != 0) {
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

/* tcheck pending EXPECT OUTPUT: the expectation the output would need.
 * Output lines that match keep their expectation line, holes and all;
 * the others are copied as literal text. Exit 0 when that is the
 * expectation unchanged, 1 when it differs. */
static int cmd_pending(int argc, char **argv) {
    if (argc != 2) {
        return usage();
    }
    struct pair pr;
    if (load_pair(argv[0], argv[1], &pr) != 0) {
        return kBad;
    }
    struct text e = pr.e, o = pr.o;
    struct pat *pats = pr.pats;
    struct alignment al;
    align(pats, e.nlines, &o, &al);
    for (size_t k = 0; k < al.n; k++) {
        const struct edit *d = &al.ed[k];
        if (d->op == '=') {
            put_line(stdout, "", e.line[d->a]);
        } else if (d->op == '+') {
            struct str s = o.line[d->b];
            put_line(stdout, "", s);
            for (size_t x = 0; x < s.n; x++) {
                if (s.p[x] == '{' && hole_at(s.p + x, s.n - x) >= 0) {
                    fprintf(
                        stderr,
                        "%s:%zu: warning: the output spells a hole, which the "
                        "expectation will read as one\n",
                        o.path, o.first + d->b);
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

/* tcheck compare EXPECT TRANSCRIPT OUTPUT: each measured value recorded
 * and now, and their ratio. Never fails. */
static int cmd_compare(int argc, char **argv) {
    if (argc != 3) {
        return usage();
    }
    struct text e, o;
    struct transcript tr;
    if (load_text(argv[0], &e) != 0) {
        return kBad;
    }
    int problems = load_transcript(argv[1], &tr, stderr);
    if (problems != 0) {
        if (problems > 0) {
            free_transcript(&tr);
        }
        free_text(&e);
        return kBad;
    }
    if (load_text(argv[2], &o) != 0) {
        free_transcript(&tr);
        free_text(&e);
        return kBad;
    }
    struct pat *pats = compile_text(&e);
    struct alignment ao, at;
    align(pats, e.nlines, &o, &ao);
    align(pats, e.nlines, &tr.body, &at);
    printf("measured values: %s (recorded ", argv[1]);
    put_str(stdout, tr.value[kDate]);
    fputs(", commit ", stdout);
    put_str(stdout, tr.value[kCommit]);
    fputs(") against this run\n", stdout);
    printf("%6s  %-*s %12s %12s %8s\n", "line", (int)kLabelWidth, "value",
           "recorded", "now", "now/rec");
    size_t skipped = 0, rows = 0;
    for (size_t i = 0; i < e.nlines; i++) {
        const struct pat *pt = &pats[i];
        if (!pt->measured) {
            continue;
        }
        if (ao.of_exp[i] == SIZE_MAX || at.of_exp[i] == SIZE_MAX) {
            skipped++;
            continue;
        }
        struct str *now = xarray(pt->nholes, sizeof *now);
        struct str *rec = xarray(pt->nholes, sizeof *rec);
        match_line(pt, o.line[ao.of_exp[i]], now);
        match_line(pt, tr.body.line[at.of_exp[i]], rec);
        char label[kLabelWidth + 8];
        line_label(pt, e.line[i], label, kLabelWidth + 1);
        size_t measured = 0;
        for (size_t h = 0; h < pt->nholes; h++) {
            measured += is_measured(hole_kind(pt, h));
        }
        size_t k = 0;
        for (size_t h = 0; h < pt->nholes; h++) {
            if (!is_measured(hole_kind(pt, h))) {
                continue;
            }
            k++;
            char tag[kLabelWidth + 16];
            if (measured > 1) {
                snprintf(tag, sizeof tag, "%s [%zu]", label, k);
            } else {
                snprintf(tag, sizeof tag, "%s", label);
            }
            char a[64], b[64];
            snprintf(a, sizeof a, "%.*s", (int)(rec[h].n < 63 ? rec[h].n : 63),
                     rec[h].p);
            snprintf(b, sizeof b, "%.*s", (int)(now[h].n < 63 ? now[h].n : 63),
                     now[h].p);
            double ra = strtod(a, NULL), rb = strtod(b, NULL);
            char ratio[32];
            if (ra != 0.0) {
                snprintf(ratio, sizeof ratio, "%.2f", rb / ra);
            } else {
                snprintf(ratio, sizeof ratio, "-");
            }
            printf("%6zu  %-*s %12s %12s %8s\n", e.first + i, (int)kLabelWidth,
                   tag, a, b, ratio);
            rows++;
        }
        free(now);
        free(rec);
    }
    if (!rows && !skipped) {
        puts("(no measured values)");
    }
    if (skipped) {
        printf(
            "%zu line%s with measured values not compared: the output or the "
            "transcript does not match the expectation there\n",
            skipped, skipped == 1 ? "" : "s");
    }
    free_align(&ao);
    free_align(&at);
    free_pats(pats, e.nlines);
    free_text(&o);
    free_transcript(&tr);
    free_text(&e);
    return kPass;
}

/* tcheck lint EXPECT TRANSCRIPT: a transcript well formed, named for its
 * GPU and program, and matching the expectation. Problems go to standard
 * output, one "file:line: message" each; exit 1 if any. */
static int cmd_lint(int argc, char **argv) {
    if (argc != 2) {
        return usage();
    }
    const char *epath = argv[0], *tpath = argv[1];
    struct text e;
    struct transcript tr;
    if (load_text(epath, &e) != 0) {
        return kBad;
    }
    int problems = load_transcript(tpath, &tr, stdout);
    if (problems < 0) {
        free_text(&e);
        return kBad;
    }
    struct str prog = base_name(epath, ".expect.pending");
    if (prog.n == strlen(prog.p)) {
        prog = base_name(epath, ".expect");
    }
    struct str dir = dir_name(tpath);
    if (dir.n && !str_eq(dir, prog)) {
        printf("%s:1: transcript is in directory ", tpath);
        put_str(stdout, dir);
        fputs("/ but the expectation is for ", stdout);
        put_line(stdout, "", prog);
        problems++;
    }
    if (tr.value[kProgram].n && !str_eq(tr.value[kProgram], prog)) {
        printf("%s:1: program is \"", tpath);
        put_str(stdout, tr.value[kProgram]);
        fputs("\" but the expectation is for ", stdout);
        put_line(stdout, "", prog);
        problems++;
    }
    struct str file = base_name(tpath, ".txt.pending");
    if (file.n == strlen(file.p)) {
        file = base_name(tpath, ".txt");
    }
    if (tr.value[kGpu].n) {
        char *slug = slug_of(tr.value[kGpu]);
        if (!str_is(file, slug)) {
            printf("%s:%d: the GPU is \"", tpath, kGpu + 1);
            put_str(stdout, tr.value[kGpu]);
            printf("\", so the file is %s.txt\n", slug);
            problems++;
        }
        free(slug);
    }
    struct pat *pats = compile_text(&e);
    struct alignment al;
    align(pats, e.nlines, &tr.body, &al);
    size_t differ = count_differences(&al);
    if (differ) {
        printf("%s:%zu: the output does not match %s: %zu differing line%s\n",
               tpath, tr.body.first, epath, differ, differ == 1 ? "" : "s");
        print_diff(stdout, &e, &tr.body, tpath, &al);
        problems++;
    }
    struct str gpu;
    if (tr.value[kGpu].n && gpu_of(&e, pats, &tr.body, &gpu) &&
        !str_eq(gpu, tr.value[kGpu])) {
        printf("%s:%d: the header names GPU \"", tpath, kGpu + 1);
        put_str(stdout, tr.value[kGpu]);
        fputs("\" but the output names \"", stdout);
        put_str(stdout, gpu);
        fputs("\"\n", stdout);
        problems++;
    }
    free_align(&al);
    free_pats(pats, e.nlines);
    free_transcript(&tr);
    free_text(&e);
    return problems ? kFail : kPass;
}

/* tcheck transcript HEADER OUTPUT: write a transcript to standard output.
 * HEADER holds "key: value" lines, in any order, for every key. */
static int cmd_transcript(int argc, char **argv) {
    if (argc != 2) {
        return usage();
    }
    struct text h;
    char *out;
    size_t nout;
    if (load_text(argv[0], &h) != 0) {
        return kBad;
    }
    struct str value[kNumKeys];
    size_t where[kNumKeys];
    memset(value, 0, sizeof value);
    memset(where, 0, sizeof where);
    int problems = 0;
    for (size_t i = 0; i < h.nlines; i++) {
        struct str l = h.line[i];
        if (!l.n) {
            continue;
        }
        int found = 0;
        for (int k = 0; k < kNumKeys; k++) {
            size_t klen = strlen(kKeys[k]);
            if (l.n >= klen + 1 && memcmp(l.p, kKeys[k], klen) == 0 &&
                l.p[klen] == ':') {
                struct str v = {l.p + klen + 1, l.n - klen - 1};
                while (v.n && is_blank(v.p[0])) {
                    v.p++, v.n--;
                }
                if (where[k]) {
                    fprintf(stderr, "%s:%zu: %s given twice\n", h.path, i + 1,
                            kKeys[k]);
                    problems++;
                }
                value[k] = v;
                where[k] = i + 1;
                found = 1;
                break;
            }
        }
        if (!found) {
            fprintf(stderr, "%s:%zu: not a header key: ", h.path, i + 1);
            put_line(stderr, "", l);
            problems++;
        }
    }
    for (int k = 0; k < kNumKeys; k++) {
        if (!where[k]) {
            fprintf(stderr, "%s: no \"%s:\" line\n", h.path, kKeys[k]);
            problems++;
            continue;
        }
        const char *why = bad_value(k, value[k]);
        if (why) {
            fprintf(stderr, "%s:%zu: %s %s\n", h.path, where[k], kKeys[k], why);
            problems++;
        }
    }
    if (problems || read_file(argv[1], &out, &nout) != 0) {
        free_text(&h);
        return kBad;
    }
    for (int k = 0; k < kNumKeys; k++) {
        printf("%s: ", kKeys[k]);
        put_line(stdout, "", value[k]);
    }
    puts(kSeparator);
    if (nout) {
        fwrite(out, 1, nout, stdout);
    }
    free(out);
    free_text(&h);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fputs("tcheck: cannot write the transcript\n", stderr);
        return kBad;
    }
    return kPass;
}

/* tcheck gpu EXPECT OUTPUT: the {{gpu}} value the output holds. */
static int cmd_gpu(int argc, char **argv) {
    if (argc != 2) {
        return usage();
    }
    struct pair pr;
    if (load_pair(argv[0], argv[1], &pr) != 0) {
        return kBad;
    }
    struct text e = pr.e, o = pr.o;
    struct pat *pats = pr.pats;
    struct str gpu;
    int rc = kPass;
    if (gpu_of(&e, pats, &o, &gpu)) {
        put_line(stdout, "", gpu);
    } else {
        fprintf(stderr, "%s:1: no line matches a {{gpu}} line of %s\n", o.path,
                e.path);
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
    struct text e = pr.e, o = pr.o;
    struct pat *pats = pr.pats;
    struct alignment al;
    align(pats, e.nlines, &o, &al);
    for (size_t k = 0; k < al.n; k++) {
        const struct edit *d = &al.ed[k];
        const struct pat *pt = &pats[d->a];
        if (d->op != '=' || !pt->nholes) {
            continue;
        }
        struct str *cap = xarray(pt->nholes, sizeof *cap);
        match_line(pt, o.line[d->b], cap);
        for (size_t h = 0; h < pt->nholes; h++) {
            enum tok_kind kind = hole_kind(pt, h);
            const char *name = hole_name(kind);
            printf("%zu\t%zu\t%zu\t%.*s\t", o.first + d->b,
                   (size_t)(cap[h].p - o.line[d->b].p) + 1, cap[h].n,
                   (int)strlen(name) - 4, name + 2);
            put_line(stdout, "", cap[h]);
        }
        free(cap);
    }
    free_align(&al);
    free_pair(&pr);
    return kPass;
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

int main(int argc, char **argv) {
    static const struct {
        const char *name;
        int (*run)(int, char **);
    } kCommands[] = {
        {"check", cmd_check},
        {"pending", cmd_pending},
        {"compare", cmd_compare},
        {"lint", cmd_lint},
        {"transcript", cmd_transcript},
        {"gpu", cmd_gpu},
        {"slug", cmd_slug},
        {"values", cmd_values},
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
