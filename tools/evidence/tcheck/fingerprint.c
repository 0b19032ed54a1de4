/* fingerprint.c: which code a transcript measured: tcheck fingerprint
 * and fresh, and a snippet label's fingerprint (transcript.h).
 *
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
#include "tcheck.h"
#include "transcript.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
    struct nw_buf *b;
    int space, any; /* a blank is owed before what comes next; the line
                       holds something */
};

static void code_put(struct code_out *o, const char *p, size_t n) {
    if (o->space && o->any) {
        nw_buf_add(o->b, " ", 1);
    }
    o->space = 0;
    o->any = 1;
    nw_buf_add(o->b, p, n);
}

static void code_newline(struct code_out *o) {
    if (o->any) {
        nw_buf_add(o->b, "\n", 1);
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
static void normalise_code(const char *s, size_t n, struct nw_buf *b) {
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
    fp->name = nw_grow(fp->name, &fp->cap, fp->n + 1, sizeof *fp->name);
    fp->hash = nw_xrealloc(fp->hash, fp->cap * sizeof *fp->hash);
    fp->name[fp->n] = nw_xrealloc(NULL, len + 1);
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
    char *s = nw_slurp(f, n);
    int err = ferror(f);
    fclose(f);
    if (err) {
        fprintf(stderr, "%s: cannot read\n", path);
        free(s);
        return NULL;
    }
    return s;
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
    struct nw_buf code = {NULL, 0, 0};
    nw_buf_add(&code, "", 0);
    normalise_code(src, n, &code);
    free(src);
    fp_add(fp, name, strlen(name), fnv(kFnvBasis, code.s, code.n));
    int rc = 0;
    /* Its quoted includes, as normalise_code wrote them: # include "x". */
    for (const char *l = code.s; rc == 0 && l && *l; ) {
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
                    char *inc = nw_xrealloc(NULL, dl + il + 1), *iname = nw_xrealloc(NULL, il + 1);
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
    free(code.s);
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
static void drop_layout(const char *s, size_t n, struct nw_buf *b) {
    char prev = '\0'; /* the last character put, or none after a break */
    int space = 0;
    size_t i = 0;
    while (i < n) {
        const char *nl = memchr(s + i, '\n', n - i);
        size_t end = nl ? (size_t)(nl - s) : n;
        if (s[i] == '#') {
            if (b->n > 0 && prev != '\0') {
                nw_buf_add(b, "\n", 1);
            }
            nw_buf_add(b, s + i, end - i);
            nw_buf_add(b, "\n", 1);
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
                nw_buf_add(b, " ", 1);
            }
            nw_buf_add(b, s + i, e - i);
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
    struct nw_buf norm = {NULL, 0, 0}, b = {NULL, 0, 0};
    nw_buf_add(&norm, "", 0);
    nw_buf_add(&b, "", 0);
    normalise_code(s, n, &norm);
    drop_layout(norm.s, norm.n, &b);
    uint64_t h = fnv(kFnvBasis, b.s, b.n);
    free(norm.s);
    free(b.s);
    return h;
}

/* A line of text as a part: blanks at its ends dropped, runs of them one. */
static void fp_line(struct fingerprint *fp, const char *name, const char *s) {
    struct nw_buf b = {NULL, 0, 0};
    nw_buf_add(&b, "", 0);
    normalise_code(s, strlen(s), &b);
    fp_add(fp, name, strlen(name), fnv(kFnvBasis, b.s, b.n));
    free(b.s);
}

/* The fingerprint's header value, "HASH (NAME HASH, ...)". */
static char *fp_value(const struct fingerprint *fp) {
    uint64_t h = kFnvBasis;
    struct nw_buf parts = {NULL, 0, 0};
    nw_buf_add(&parts, "", 0);
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
        nw_buf_puts(&parts, one);
    }
    struct nw_buf v = {NULL, 0, 0};
    char whole[32];
    snprintf(whole, sizeof whole, "%016llx (", (unsigned long long)h);
    nw_buf_puts(&v, whole);
    nw_buf_puts(&v, parts.s);
    nw_buf_puts(&v, ")");
    free(parts.s);
    return v.s;
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
    o->extra = nw_xcalloc((size_t)argc + 1, sizeof *o->extra);
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
        struct nw_buf b = {NULL, 0, 0};
        nw_buf_add(&b, "", 0);
        normalise_code(s, n, &b);
        const char *eb = strrchr(o->extra[i], '/');
        fp_add(fp, eb ? eb + 1 : o->extra[i], strlen(eb ? eb + 1 : o->extra[i]),
               fnv(kFnvBasis, b.s, b.n));
        free(b.s);
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
int cmd_fingerprint(int argc, char **argv) {
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
    struct nw_buf what;
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
                struct nw_buf w = {NULL, 0, 0};
                nw_buf_puts(&w, strcmp(nm, "compile") == 0 ? "the compile line"
                             : strcmp(nm, "nvcc") == 0 ? "the nvcc: line"
                                                        : nm);
                nw_buf_puts(&w, " changed");
                buf_item(&d->what, ", ", w.s);
                free(w.s);
            }
            return;
        }
    }
    struct nw_buf w = {NULL, 0, 0};
    nw_buf_puts(&w, "it no longer includes ");
    nw_buf_add(&w, part->name.p, part->name.n);
    buf_item(&d->what, ", ", w.s);
    free(w.s);
}

/* tcheck fresh [-n NAME] [-w WHERE] [-r COMMAND] [-h NVCC_HERE] -c COMPILE
 *              [-x FILE]... SOURCE TRANSCRIPT
 * Whether the transcript measured today's program: its fingerprint against
 * the one of SOURCE as it is now, compiled by COMPILE with the nvcc the
 * transcript names. A verdict line; a stale one FAILs, naming what
 * changed, at WHERE (the program's chapter line), with the command that
 * records it again (COMMAND, default make record PROG=NAME). Where -h
 * names this machine's nvcc and it is not the transcript's, a warning. */
int cmd_fresh(int argc, char **argv) {
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
    struct nw_buf again = {NULL, 0, 0};
    if (o.record) {
        nw_buf_puts(&again, o.record);
    } else {
        nw_buf_puts(&again, "make record PROG=");
        nw_buf_puts(&again, prog);
    }
    nw_buf_puts(&again, " on a GPU, then make accept PROG=");
    nw_buf_puts(&again, prog);
    struct nw_buf nvcc = {NULL, 0, 0};
    nw_buf_add(&nvcc, "", 0);
    if (tr.value[kNvcc].p) {
        nw_buf_add(&nvcc, tr.value[kNvcc].p, tr.value[kNvcc].n);
    }
    struct fingerprint now;
    char *v = fingerprint_of(argv[i], &o, nvcc.s, &now);
    int rc = kPass;
    struct nw_buf why = {NULL, 0, 0};
    struct str rec = tr.value[kFingerprint];
    const char *at = o.where ? o.where : tpath;
    if (!v) {
        rc = kBad;
    } else if (!rec.p) {
        nw_buf_puts(&why, "stale: no fingerprint says which code it measured");
        fprintf(r.details, "%s: %s was recorded before transcripts named "
                           "the code they measure (at commit ", at, tpath);
        fwrite(tr.value[kCommit].p, 1, tr.value[kCommit].n, r.details);
        fprintf(r.details,
                "), and is not known to be of today's program; record it "
                "again: %s\n",
                again.s);
        rc = kFail;
    } else if (strlen(v) != rec.n || memcmp(v, rec.p, rec.n) != 0) {
        struct fp_diff d = {&now, {NULL, 0, 0}, nw_xcalloc(now.n + 1, sizeof(int))};
        if (read_fingerprint(rec, NULL, fp_compare_part, &d) < 0) {
            buf_item(&d.what, ", ", "its fingerprint line is not well formed");
        }
        for (size_t k = 0; k < now.n; k++) {
            if (!d.seen[k]) {
                struct nw_buf w = {NULL, 0, 0};
                nw_buf_puts(&w, "it now includes ");
                nw_buf_puts(&w, now.name[k]);
                buf_item(&d.what, ", ", w.s);
                free(w.s);
            }
        }
        if (!d.what.n) {
            nw_buf_puts(&d.what, "its files are included in another order");
        }
        nw_buf_puts(&why, "stale: ");
        nw_buf_puts(&why, d.what.s);
        fprintf(r.details,
                "%s: %s measured other code than today's: %s since commit ",
                at, tpath, d.what.s);
        fwrite(tr.value[kCommit].p, 1, tr.value[kCommit].n, r.details);
        fprintf(r.details, "; record it again: %s\n", again.s);
        free(d.what.s);
        free(d.seen);
        rc = kFail;
    } else if (o.here && strcmp(o.here, nvcc.s) != 0) {
        nw_buf_puts(&why, "recorded with nvcc ");
        nw_buf_puts(&why, nvcc.s);
        nw_buf_puts(&why, ", this machine's is ");
        nw_buf_puts(&why, o.here);
        rc = kWarn;
    }
    if (rc != kBad) {
        report_verdict(&r, rc == kFail ? "FAIL" : "PASS", why.s);
    }
    report_close(&r);
    free(why.s);
    free(v);
    fp_free(&now);
    free(nvcc.s);
    free(again.s);
    free(o.extra);
    free_transcript(&tr);
    return rc;
}
