/* quote: values files, and the quotes and claims that name their values.
 * See quote.h. */
#define _POSIX_C_SOURCE 200809L /* glob, getline */
#include "quote.h"

#include <ctype.h>
#include <glob.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Deep enough for any expression a sentence holds, and shallow enough that
 * parsing and evaluating one never runs out of stack. */
enum { kMaxDepth = 64, kMaxNodes = 512 };
/* The decimals %.Nf takes. */
enum { kMaxDecimals = 6 };

static const char kFormats[] =
    "a format is %.Nf or %.Nf% (N 0..6) or %d";

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static int fail(char *err, size_t size, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, size, fmt, ap);
    va_end(ap);
    return -1;
}

/* ----------------------------------------------------------------- */
/* Values files                                                        */

int nw_is_prog_name(const char *s) {
    return *s != '\0' &&
           strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                     "0123456789_") == strlen(s);
}

int nw_is_gpu_slug(const char *s) {
    const char *alnum = "abcdefghijklmnopqrstuvwxyz0123456789";
    size_t run;
    while ((run = strspn(s, alnum)) > 0) {
        s += run;
        if (*s != '-') {
            return *s == '\0';
        }
        ++s;
    }
    return 0;
}

/* Is s a value's name, [a-z][a-z0-9_]*? */
static int is_ident(const char *s) {
    return islower((unsigned char)*s) &&
           strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_") == strlen(s);
}

static void add_gpu(struct nw_values *vs, const char *gpu) {
    size_t at = 0;
    while (at < vs->ngpus && strcmp(vs->gpus[at], gpu) < 0) {
        ++at;
    }
    if (at < vs->ngpus && strcmp(vs->gpus[at], gpu) == 0) {
        return;
    }
    vs->gpus = nw_grow(vs->gpus, &vs->gpus_cap, vs->ngpus + 1,
                       sizeof *vs->gpus);
    memmove(vs->gpus + at + 1, vs->gpus + at,
            (vs->ngpus - at) * sizeof *vs->gpus);
    vs->gpus[at] = nw_xstrdup(gpu);
    ++vs->ngpus;
}

const struct nw_value *nw_values_find(const struct nw_values *vs,
                                      const char *prog, const char *name,
                                      const char *gpu) {
    for (size_t i = 0; i < vs->n; ++i) {
        const struct nw_value *v = &vs->v[i];
        if (strcmp(v->name, name) == 0 && strcmp(v->prog, prog) == 0 &&
            strcmp(v->gpu, gpu) == 0) {
            return v;
        }
    }
    return NULL;
}

/* One line of a values file, split in f[3]: checked, then added. */
static int values_line(struct nw_values *vs, char **f, int nf,
                       const char *path, long line, const char *prog,
                       const char *gpu) {
    if (nf < 3 || !is_ident(f[0]) || f[2][0] == '\0') {
        nw_error(path, line, "want NAME<TAB>VALUE<TAB>SOURCE, NAME being "
                             "[a-z][a-z0-9_]*");
        return -1;
    }
    char *end;
    double v = strtod(f[1], &end);
    if (nw_values_find(vs, prog, f[0], gpu) != NULL) {
        nw_error(path, line, "%s.%s is given twice for %s", prog, f[0], gpu);
        return -1;
    }
    vs->v = nw_grow(vs->v, &vs->cap, vs->n + 1, sizeof *vs->v);
    struct nw_value *x = &vs->v[vs->n++];
    x->prog = nw_xstrdup(prog);
    x->gpu = nw_xstrdup(gpu);
    x->name = nw_xstrdup(f[0]);
    x->source = nw_xstrdup(f[2]);
    x->text = nw_xstrdup(f[1]);
    x->v = v;
    x->finite = f[1][0] != '\0' && *end == '\0' && isfinite(v);
    return 0;
}

int nw_values_read(struct nw_values *vs, const char *path, const char *prog,
                   const char *gpu) {
    FILE *in = fopen(path, "r");
    if (in == NULL) {
        nw_error(path, 0, "cannot read");
        return -1;
    }
    add_gpu(vs, gpu);
    char *line = NULL;
    size_t cap = 0;
    long at = 0;
    int status = 0;
    while (status == 0 && getline(&line, &cap, in) != -1) {
        ++at;
        if (line[strspn(line, " \t\r\n")] == '\0') {
            continue;
        }
        char *f[3];
        int nf = nw_split_tabs(line, f, 3);
        status = values_line(vs, f, nf, path, at, prog, gpu);
    }
    if (status == 0 && ferror(in)) {
        nw_error(path, 0, "cannot read");
        status = -1;
    }
    free(line);
    fclose(in);
    return status;
}

/* PROG and GPU of DIR/PROG/GPU.tsv, into prog and gpu (each of size
 * bytes). */
static int values_path(const char *path, char *prog, char *gpu,
                       size_t size) {
    const char *base = strrchr(path, '/');
    const char *dir = base;
    while (dir != NULL && dir > path && dir[-1] != '/') {
        --dir;
    }
    if (base == NULL || dir == NULL || (size_t)(base - dir) >= size ||
        strlen(base + 1) - 4 >= size) {
        return -1;
    }
    memcpy(prog, dir, (size_t)(base - dir));
    prog[base - dir] = '\0';
    size_t len = strlen(base + 1) - 4;
    /* GPU.fit.tsv: the values of the compiled code for GPU (the T4 fit),
     * merged with those its transcript records, GPU.tsv. */
    if (len > 4 && strncmp(base + 1 + len - 4, ".fit", 4) == 0) {
        len -= 4;
    }
    snprintf(gpu, size, "%.*s", (int)len, base + 1);
    return nw_is_prog_name(prog) && nw_is_gpu_slug(gpu) ? 0 : -1;
}

/* Is path a fit's values file, PROG/GPU.fit.tsv? */
static int is_fit_file(const char *path) {
    size_t n = strlen(path);
    return n > 8 && strcmp(path + n - 8, ".fit.tsv") == 0;
}

/* DIR/GPU.absent, its GPU and first line into vs->absent. */
static int read_absent(struct nw_values *vs, const char *path) {
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    char *gpu = nw_xstrdup(base);
    gpu[strlen(gpu) - strlen(".absent")] = '\0';
    FILE *f = fopen(path, "r");
    char *why = NULL;
    size_t cap = 0;
    ssize_t len = f ? getline(&why, &cap, f) : -1;
    if (f) {
        fclose(f);
    }
    if (!nw_is_gpu_slug(gpu) || len <= 1) {
        nw_error(path, 0, "GPU.absent names a GPU slug and holds one line "
                          "saying why its values are not computed");
        free(gpu);
        free(why);
        return -1;
    }
    why[strcspn(why, "\n")] = '\0';
    vs->absent = nw_xrealloc(vs->absent, (vs->nabsent + 1) * sizeof *vs->absent);
    vs->absent_why = nw_xrealloc(vs->absent_why,
                                 (vs->nabsent + 1) * sizeof *vs->absent_why);
    vs->absent[vs->nabsent] = gpu;
    vs->absent_why[vs->nabsent++] = why;
    return 0;
}

/* The files DIR/PATTERN into g: 1 where there are some, 0 where there
 * are none, -1 where DIR cannot be read (said). */
static int glob_in(const char *dir, const char *pattern, glob_t *g) {
    struct nw_buf p = {NULL, 0, 0};
    nw_buf_puts(&p, dir);
    nw_buf_puts(&p, pattern);
    int rc = glob(p.s, 0, NULL, g);
    free(p.s);
    if (rc == GLOB_NOMATCH) {
        return 0;
    }
    if (rc != 0) {
        nw_error(dir, 0, "cannot read the values files");
        globfree(g);
        return -1;
    }
    return 1;
}

/* Is (prog, gpu) one of the nskip pairs of skip? */
static int skipped(char *const *skip, size_t nskip, const char *prog,
                   const char *gpu) {
    for (size_t i = 0; i < nskip; ++i) {
        if (strcmp(skip[2 * i], prog) == 0 &&
            strcmp(skip[2 * i + 1], gpu) == 0) {
            return 1;
        }
    }
    return 0;
}

static int read_absent_dir(struct nw_values *vs, const char *dir) {
    glob_t g;
    int found = glob_in(dir, "/*.absent", &g);
    if (found <= 0) {
        return found;
    }
    int status = 0;
    for (size_t i = 0; status == 0 && i < g.gl_pathc; ++i) {
        status = read_absent(vs, g.gl_pathv[i]);
    }
    globfree(&g);
    return status;
}

/* DIR/pages.tsv, where it is there: PROG<TAB>CHAPTER a line. */
static int read_pages(struct nw_values *vs, const char *dir) {
    size_t size = strlen(dir) + sizeof "/pages.tsv";
    char *path = nw_xrealloc(NULL, size);
    snprintf(path, size, "%s/pages.tsv", dir);
    FILE *in = fopen(path, "r");
    if (in == NULL) {
        free(path);
        return 0; /* no program is shown on any page */
    }
    char *line = NULL;
    size_t cap = 0;
    long no = 0;
    int status = 0;
    while (status == 0 && getline(&line, &cap, in) != -1) {
        ++no;
        if (line[strspn(line, " \t\r\n")] == '\0') {
            continue;
        }
        char *f[3];
        if (nw_split_tabs(line, f, 3) != 2 || !nw_is_prog_name(f[0]) ||
            f[1][0] == '\0') {
            nw_error(path, no, "not PROG<TAB>CHAPTER");
            status = -1;
            break;
        }
        vs->pages = nw_xrealloc(vs->pages, (vs->npages + 1) * 2 * sizeof *vs->pages);
        vs->pages[2 * vs->npages] = nw_xstrdup(f[0]);
        vs->pages[2 * vs->npages + 1] = nw_xstrdup(f[1]);
        ++vs->npages;
    }
    free(line);
    fclose(in);
    free(path);
    return status;
}

const char *nw_values_page(const struct nw_values *vs, const char *prog) {
    for (size_t k = 0; k < vs->npages; ++k) {
        if (strcmp(vs->pages[2 * k], prog) == 0) {
            return vs->pages[2 * k + 1];
        }
    }
    return NULL;
}

int nw_values_read_dir(struct nw_values *vs, const char *dir,
                       char *const *skip, size_t nskip) {
    if (read_absent_dir(vs, dir) != 0 || read_pages(vs, dir) != 0) {
        return -1;
    }
    glob_t g;
    int found = glob_in(dir, "/*/*.tsv", &g);
    if (found <= 0) {
        return found;
    }
    int status = 0;
    for (size_t i = 0; status == 0 && i < g.gl_pathc; ++i) {
        char prog[256], gpu[256];
        const char *path = g.gl_pathv[i];
        if (values_path(path, prog, gpu, sizeof prog) != 0) {
            nw_error(path, 0, "a values file is PROG/GPU.tsv, PROG "
                              "[A-Za-z0-9_]+ and GPU a slug such as "
                              "nvidia-h200");
            status = -1;
        } else if (is_fit_file(path) || !skipped(skip, nskip, prog, gpu)) {
            status = nw_values_read(vs, path, prog, gpu);
        }
    }
    globfree(&g);
    return status;
}

void nw_values_free(struct nw_values *vs) {
    for (size_t i = 0; i < vs->n; ++i) {
        free(vs->v[i].prog);
        free(vs->v[i].gpu);
        free(vs->v[i].name);
        free(vs->v[i].source);
        free(vs->v[i].text);
    }
    for (size_t i = 0; i < vs->ngpus; ++i) {
        free(vs->gpus[i]);
    }
    for (size_t i = 0; i < vs->nabsent; ++i) {
        free(vs->absent[i]);
        free(vs->absent_why[i]);
    }
    free(vs->v);
    free(vs->gpus);
    free(vs->absent);
    free(vs->absent_why);
    for (size_t i = 0; i < 2 * vs->npages; ++i) {
        free(vs->pages[i]);
    }
    free(vs->pages);
    memset(vs, 0, sizeof *vs);
}

/* ----------------------------------------------------------------- */
/* Parsing                                                             */

int nw_is_quote(const char *text) {
    return text[0] == '=' || text[0] == '?';
}

char *nw_quote_text(const struct nw_chunk *c, size_t from, size_t end) {
    struct nw_buf b = {NULL, 0, 0};
    nw_buf_puts(&b, "");
    for (size_t k = from + 1; k < end && k < c->n; ++k) {
        const struct nw_item *it = &c->items[k];
        if (it->kind == NW_TEXT) {
            nw_buf_puts(&b, it->s);
        } else if (it->kind == NW_USE) {
            nw_buf_puts(&b, "<<");
            nw_buf_puts(&b, it->s);
            nw_buf_puts(&b, ">>");
        } else if (it->kind == NW_NL) {
            nw_buf_puts(&b, " ");
        }
    }
    for (char *p = b.s; *p; ++p) {
        *p = *p == '\t' ? ' ' : *p;
    }
    return b.s;
}

const char *nw_cmp_name(enum nw_cmp cmp) {
    static const char *const names[] = {"<", "<=", ">", ">=", "==", "!="};
    return names[cmp];
}

/* The parser's state: the text, where it is, and the quote it builds. */
struct parser {
    const char *s, *at;
    int depth;
    struct nw_quote *q;
    char *err;
    size_t size;
};

static const char *skip_blanks(const char *s) {
    return s + strspn(s, " ");
}

/* What stands at p, for a message. */
static int fail_at(struct parser *p, const char *want) {
    const char *at = skip_blanks(p->at);
    if (*at == '\0') {
        return fail(p->err, p->size, "%s at the end of '%s'", want, p->s);
    }
    return fail(p->err, p->size, "%s at '%s'", want, at);
}

static int add_node(struct parser *p, char op, int a, int b) {
    struct nw_quote *q = p->q;
    if (q->nnodes >= kMaxNodes) {
        return fail(p->err, p->size, "an expression of more than %d terms",
                    kMaxNodes);
    }
    q->nodes = nw_grow(q->nodes, &q->cap, q->nnodes + 1, sizeof *q->nodes);
    struct nw_enode *n = &q->nodes[q->nnodes];
    memset(n, 0, sizeof *n);
    n->op = op;
    n->a = a;
    n->b = b;
    return (int)q->nnodes++;
}

/* The length of a NUMBER at s, or 0. */
static size_t number_length(const char *s) {
    size_t n = strspn(s, "0123456789");
    if (n > 0 && s[n] == '.' && isdigit((unsigned char)s[n + 1])) {
        n += 1 + strspn(s + n + 1, "0123456789");
    }
    if (n > 0 && (s[n] == 'e' || s[n] == 'E')) {
        size_t m = n + 1 + (s[n + 1] == '+' || s[n + 1] == '-');
        size_t d = strspn(s + m, "0123456789");
        n = d > 0 ? m + d : n;
    }
    return n;
}

static const char kWords[] =
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_";

/* A NAME or a NUMBER at p->at (past blanks). */
static int parse_atom(struct parser *p) {
    const char *s = skip_blanks(p->at);
    size_t run = strspn(s, kWords);
    if (run > 0 && s[run] == '.' && isalpha((unsigned char)s[run + 1])) {
        const char *id = s + run + 1;
        size_t len = strspn(id, "abcdefghijklmnopqrstuvwxyz0123456789_");
        if (!islower((unsigned char)id[0]) ||
            (id[len] != '\0' && strchr(kWords, id[len]) != NULL)) {
            p->at = s;
            return fail_at(p, "a name is PROG.IDENT, IDENT [a-z][a-z0-9_]*,");
        }
        int n = add_node(p, 'v', 0, 0);
        if (n >= 0) {
            struct nw_enode *e = &p->q->nodes[n];
            e->prog = nw_xrealloc(NULL, run + 1);
            snprintf(e->prog, run + 1, "%s", s);
            e->name = nw_xrealloc(NULL, len + 1);
            snprintf(e->name, len + 1, "%s", id);
            p->at = id + len;
            if (*p->at == '@') {
                size_t g = strspn(p->at + 1, "abcdefghijklmnopqrstuvwxyz"
                                             "0123456789-");
                e->gpu = nw_xrealloc(NULL, g + 1);
                snprintf(e->gpu, g + 1, "%s", p->at + 1);
                if (!nw_is_gpu_slug(e->gpu)) {
                    return fail_at(p, "a pinned name is PROG.IDENT@GPU, GPU "
                                      "a slug such as nvidia-h200,");
                }
                const char *minus = strrchr(e->gpu, '-');
                if (p->at[1 + g] == '.' && minus != NULL) {
                    /* x@tesla-t4-spmv.y: the slug took "-spmv". */
                    const char *rest = p->at + 1 + g;
                    size_t r = 1 + strspn(rest + 1, "abcdefghijklmnopqrstuvwxyz"
                                                    "0123456789_");
                    return fail(p->err, p->size,
                                "a minus right after a pinned name needs a "
                                "blank before it: write %s.%s@%.*s - %s%.*s "
                                "(a GPU's slug holds hyphens, and takes the "
                                "minus and the name after it)",
                                e->prog, e->name, (int)(minus - e->gpu),
                                e->gpu, minus + 1, (int)r, rest);
                }
                p->at += 1 + g;
            }
        }
        return n;
    }
    size_t len = number_length(s);
    if (len == 0 || (s[len] != '\0' && strchr(kWords, s[len]) != NULL) ||
        s[len] == '.') {
        p->at = s;
        return fail_at(p, "want a name PROG.IDENT, a number or '('");
    }
    int n = add_node(p, 'n', 0, 0);
    if (n >= 0) {
        p->q->nodes[n].num = strtod(s, NULL);
        p->at = s + len;
    }
    return n;
}

static int parse_expr(struct parser *p);

static int parse_factor(struct parser *p) {
    const char *s = skip_blanks(p->at);
    if (++p->depth > kMaxDepth) {
        return fail(p->err, p->size, "an expression nested more than %d "
                                     "deep", kMaxDepth);
    }
    int n;
    if (*s == '(') {
        p->at = s + 1;
        n = parse_expr(p);
        s = skip_blanks(p->at);
        if (n >= 0 && *s != ')') {
            n = fail_at(p, "want ')'");
        } else if (n >= 0) {
            p->at = s + 1;
        }
    } else if (*s == '-') {
        p->at = s + 1;
        n = parse_factor(p);
        n = n >= 0 ? add_node(p, '~', n, 0) : n;
    } else {
        n = parse_atom(p);
    }
    --p->depth;
    return n;
}

/* term or expr: operands from next, joined by the operators in ops. */
static int parse_chain(struct parser *p, const char *ops,
                       int (*next)(struct parser *)) {
    int left = next(p);
    while (left >= 0) {
        const char *s = skip_blanks(p->at);
        if (*s == '\0' || strchr(ops, *s) == NULL) {
            break;
        }
        p->at = s + 1;
        int right = next(p);
        left = right >= 0 ? add_node(p, *s, left, right) : right;
    }
    return left;
}

static int parse_term(struct parser *p) {
    return parse_chain(p, "*/", parse_factor);
}

static int parse_expr(struct parser *p) {
    return parse_chain(p, "+-", parse_term);
}

/* The comparison at p->at, or -1. */
static int parse_cmp(struct parser *p) {
    const char *s = skip_blanks(p->at);
    for (int c = NW_NE; c >= NW_LT; --c) {
        const char *name = nw_cmp_name((enum nw_cmp)c);
        if (strncmp(s, name, strlen(name)) == 0 &&
            (strlen(name) == 2 || s[1] != '=')) {
            p->at = s + strlen(name);
            return c;
        }
    }
    return fail_at(p, "want one of < <= > >= == !=");
}

/* The whole body: EXPR, or EXPR OP EXPR; nothing left over. */
static int parse_body(struct parser *p) {
    struct nw_quote *q = p->q;
    if ((q->lhs = parse_expr(p)) < 0) {
        return -1;
    }
    if (q->kind == NW_Q_CLAIM) {
        int c = parse_cmp(p);
        if (c < 0 || (q->rhs = parse_expr(p)) < 0) {
            return -1;
        }
        q->cmp = (enum nw_cmp)c;
    }
    if (*skip_blanks(p->at) != '\0') {
        return fail_at(p, q->kind == NW_Q_CLAIM
                              ? "want + - * / or the end of the claim"
                              : "want + - * / or the end of the quote");
    }
    return 0;
}

/* text trimmed of blanks, copied. */
static char *trimmed(const char *s, size_t len) {
    while (len > 0 && s[0] == ' ') {
        ++s, --len;
    }
    while (len > 0 && s[len - 1] == ' ') {
        --len;
    }
    char *t = nw_xrealloc(NULL, len + 1);
    memcpy(t, s, len);
    t[len] = '\0';
    return t;
}

/* The GPUs before the colon, len bytes at s, separated by commas. */
static int parse_gpus(struct nw_quote *q, const char *s, size_t len,
                      char *err, size_t size) {
    const char *end = s + len;
    while (s <= end) {
        const char *comma = memchr(s, ',', (size_t)(end - s));
        const char *stop = comma ? comma : end;
        char *gpu = trimmed(s, (size_t)(stop - s));
        if (!nw_is_gpu_slug(gpu)) {
            fail(err, size, "'%s' is not a GPU; a GPU is a slug such as "
                            "nvidia-h200, and GPUs are separated by commas",
                 gpu);
            free(gpu);
            return -1;
        }
        q->gpus = nw_xrealloc(q->gpus, (q->ngpus + 1) * sizeof *q->gpus);
        q->gpus[q->ngpus++] = gpu;
        s = stop + 1;
    }
    if (q->kind == NW_Q_VALUE && q->ngpus > 1) {
        return fail(err, size, "a quote is of one GPU");
    }
    return 0;
}

/* The format after '|'. */
static int parse_format(struct nw_quote *q, const char *s, char *err,
                        size_t size) {
    char *f = trimmed(s, strlen(s));
    size_t n = strlen(f);
    int ok = 0;
    if (strcmp(f, "%d") == 0) {
        q->rounded = ok = 1;
    } else if (n >= 4 && strncmp(f, "%.", 2) == 0 &&
               isdigit((unsigned char)f[2]) && f[2] - '0' <= kMaxDecimals &&
               f[3] == 'f' &&
               (n == 4 || (n == 5 && f[4] == '%'))) {
        q->decimals = f[2] - '0';
        q->percent = n == 5;
        ok = 1;
    }
    if (!ok) {
        fail(err, size, "unknown format '%s'; %s", f, kFormats);
    }
    free(f);
    return ok ? 0 : -1;
}

/* Does the quote name a value? */
static int names_a_value(const struct nw_quote *q) {
    for (size_t i = 0; i < q->nnodes; ++i) {
        if (q->nodes[i].op == 'v') {
            return 1;
        }
    }
    return 0;
}

/* Everything but the expressions: kind, GPUs, format, body. */
static int parse_frame(const char *text, struct nw_quote *q, char *err,
                       size_t size) {
    const char *what = text[0] == '?' ? "claim" : "quote";
    q->kind = text[0] == '?' ? NW_Q_CLAIM : NW_Q_VALUE;
    const char *s = text + 1;
    const char *colon = strchr(s, ':');
    if (colon != NULL) {
        if (parse_gpus(q, s, (size_t)(colon - s), err, size) != 0) {
            return -1;
        }
        s = colon + 1;
    }
    const char *bar = strchr(s, '|');
    if (bar != NULL && q->kind == NW_Q_CLAIM) {
        return fail(err, size, "a claim has no format");
    }
    if (bar != NULL && parse_format(q, bar + 1, err, size) != 0) {
        return -1;
    }
    q->body = trimmed(s, bar ? (size_t)(bar - s) : strlen(s));
    if (q->body[0] == '\0') {
        return fail(err, size, "an empty %s", what);
    }
    return 0;
}

int nw_quote_parse(const char *text, struct nw_quote *q, char *err,
                   size_t size) {
    memset(q, 0, sizeof *q);
    q->decimals = -1;
    q->lhs = q->rhs = -1;
    char why[512];
    const char *what = text[0] == '?' ? "claim" : "quote";
    int status = nw_is_quote(text) ? parse_frame(text, q, why, sizeof why)
                                   : fail(why, sizeof why, "no = or ?");
    if (status == 0) {
        struct parser p = {q->body, q->body, 0, q, why, sizeof why};
        status = parse_body(&p);
    }
    if (status == 0 && !names_a_value(q)) {
        status = fail(why, sizeof why, "it names no recorded value; a "
                                       "number in prose is quoted, never "
                                       "typed");
    }
    if (status != 0) {
        fail(err, size, "malformed %s [[%s]]: %s", what, text, why);
    }
    return status;
}

void nw_quote_free(struct nw_quote *q) {
    for (size_t i = 0; i < q->nnodes; ++i) {
        free(q->nodes[i].prog);
        free(q->nodes[i].name);
        free(q->nodes[i].gpu);
    }
    for (size_t i = 0; i < q->ngpus; ++i) {
        free(q->gpus[i]);
    }
    free(q->nodes);
    free(q->gpus);
    free(q->body);
    memset(q, 0, sizeof *q);
}

/* ----------------------------------------------------------------- */
/* GPUs                                                                */

/* The GPU whose value name e is, where the expression is of gpu. */
static const char *pinned(const struct nw_enode *e, const char *gpu) {
    return e->gpu != NULL ? e->gpu : gpu;
}

/* The GPU of the first pinned name, where every name is pinned; else
 * NULL. */
static const char *all_pinned(const struct nw_quote *q) {
    const char *first = NULL;
    for (size_t i = 0; i < q->nnodes; ++i) {
        const struct nw_enode *e = &q->nodes[i];
        if (e->op == 'v' && e->gpu == NULL) {
            return NULL;
        }
        first = first == NULL && e->op == 'v' ? e->gpu : first;
    }
    return first;
}

/* Is every name of q recorded on gpu? */
static int resolves(const struct nw_quote *q, const struct nw_values *vs,
                    const char *gpu) {
    for (size_t i = 0; i < q->nnodes; ++i) {
        const struct nw_enode *e = &q->nodes[i];
        if (e->op == 'v' &&
            !nw_values_find(vs, e->prog, e->name, pinned(e, gpu))) {
            return 0;
        }
    }
    return 1;
}

static int is_known_gpu(const struct nw_values *vs, const char *gpu) {
    for (size_t i = 0; i < vs->ngpus; ++i) {
        if (strcmp(vs->gpus[i], gpu) == 0) {
            return 1;
        }
    }
    return 0;
}

/* On how many of the n GPUs gpus is e recorded? */
static size_t recorded_on(const struct nw_values *vs,
                          const struct nw_enode *e, char *const *gpus,
                          size_t n) {
    size_t k = 0;
    for (size_t i = 0; i < n; ++i) {
        k += nw_values_find(vs, e->prog, e->name, pinned(e, gpus[i])) != NULL;
    }
    return k;
}

/* Why no GPU of the n gpus has every name of q: the first name recorded
 * on none of them. */
static int unresolved(const struct nw_quote *q, const struct nw_values *vs,
                      char *const *gpus, size_t n, char *err, size_t size) {
    for (size_t i = 0; i < q->nnodes; ++i) {
        const struct nw_enode *e = &q->nodes[i];
        if (e->op != 'v' || recorded_on(vs, e, gpus, n) > 0) {
            continue;
        }
        if (e->gpu != NULL) {
            return fail(err, size, "%s.%s is not recorded on %s", e->prog,
                        e->name, e->gpu);
        }
        if (recorded_on(vs, e, vs->gpus, vs->ngpus) > 0) {
            return fail(err, size, "%s.%s is not recorded on %s%s", e->prog,
                        e->name, n == 1 ? "" : "any of ",
                        n == 1 ? gpus[0] : "the GPUs named");
        }
        return fail(err, size, "unknown value %s.%s: no values file of %s "
                               "holds it",
                    e->prog, e->name, e->prog);
    }
    return fail(err, size, "no GPU has every value it names");
}

/* Why gpu's values are not computed, where it is absent and has none;
 * else NULL. */
static const char *absent_why(const struct nw_values *vs, const char *gpu) {
    for (size_t k = 0; k < vs->nabsent; ++k) {
        if (strcmp(vs->absent[k], gpu) == 0) {
            return is_known_gpu(vs, gpu) ? NULL : vs->absent_why[k];
        }
    }
    return NULL;
}

const char *nw_quote_absent(const struct nw_quote *q,
                            const struct nw_values *vs) {
    for (size_t i = 0; i < q->nnodes; ++i) {
        const char *w = q->nodes[i].op == 'v' && q->nodes[i].gpu
                            ? absent_why(vs, q->nodes[i].gpu)
                            : NULL;
        if (w != NULL) {
            return w;
        }
    }
    const char *why = NULL;
    for (size_t i = 0; i < q->ngpus; ++i) {
        if ((why = absent_why(vs, q->gpus[i])) == NULL) {
            return NULL;
        }
    }
    return why;
}

/* The GPUs a quote or claim names that have no values at all. */
static int check_named(const struct nw_quote *q, const struct nw_values *vs,
                       char *err, size_t size) {
    for (size_t i = 0; i < q->ngpus; ++i) {
        if (!is_known_gpu(vs, q->gpus[i])) {
            return fail(err, size, "no values are recorded for GPU %s",
                        q->gpus[i]);
        }
    }
    for (size_t i = 0; i < q->nnodes; ++i) {
        const char *gpu = q->nodes[i].op == 'v' ? q->nodes[i].gpu : NULL;
        if (gpu == NULL || is_known_gpu(vs, gpu)) {
            continue;
        }
        /* x@tesla-t4-2: a known GPU and a minus the slug took. */
        for (const char *m = strchr(gpu, '-'); m != NULL; m = strchr(m + 1, '-')) {
            char *known = nw_xrealloc(NULL, (size_t)(m - gpu) + 1);
            snprintf(known, (size_t)(m - gpu) + 1, "%s", gpu);
            int is = is_known_gpu(vs, known);
            free(known);
            if (is) {
                return fail(err, size, "no values are recorded for GPU %s; "
                            "if -%s is a minus, it needs a blank before it: "
                            "@%.*s - %s", gpu, m + 1, (int)(m - gpu), gpu,
                            m + 1);
            }
        }
        return fail(err, size, "no values are recorded for GPU %s", gpu);
    }
    return 0;
}

int nw_quote_gpu(const struct nw_quote *q, const struct nw_values *vs,
                 const char **gpu, char *err, size_t size) {
    if (check_named(q, vs, err, size) != 0) {
        return -1;
    }
    if (q->ngpus == 0 && all_pinned(q) != NULL) {
        *gpu = all_pinned(q);
        return resolves(q, vs, *gpu) ? 0
                                     : unresolved(q, vs, q->gpus, 0, err,
                                                  size);
    }
    if (q->ngpus == 1) {
        *gpu = q->gpus[0];
        return resolves(q, vs, *gpu) ? 0
                                     : unresolved(q, vs, q->gpus, 1, err,
                                                  size);
    }
    size_t found = 0;
    for (size_t i = 0; i < vs->ngpus; ++i) {
        if (resolves(q, vs, vs->gpus[i])) {
            *gpu = found++ ? *gpu : vs->gpus[i];
        }
    }
    if (found == 0) {
        return unresolved(q, vs, vs->gpus, vs->ngpus, err, size);
    }
    if (found > 1) {
        return fail(err, size, "its values are recorded on %zu GPUs; name "
                               "one, as in [[=%s: %s]]",
                    found, *gpu, q->body);
    }
    return 0;
}

int nw_claim_gpus(const struct nw_quote *q, const struct nw_values *vs,
                  const char **out, size_t *n, char *err, size_t size) {
    if (check_named(q, vs, err, size) != 0) {
        return -1;
    }
    char *first = (char *)all_pinned(q);
    char *const *gpus = q->ngpus ? q->gpus : first ? &first : vs->gpus;
    size_t ngpus = q->ngpus ? q->ngpus : first ? 1 : vs->ngpus;
    *n = 0;
    for (size_t i = 0; i < ngpus; ++i) {
        if (resolves(q, vs, gpus[i])) {
            out[(*n)++] = gpus[i];
        }
    }
    return *n > 0 ? 0 : unresolved(q, vs, gpus, ngpus, err, size);
}

/* ----------------------------------------------------------------- */
/* Values of expressions                                               */

static int eval(const struct nw_quote *q, int at, const struct nw_values *vs,
                const char *gpu, double *out, char *err, size_t size) {
    const struct nw_enode *e = &q->nodes[at];
    double a = 0, b = 0;
    if (e->op == 'n') {
        *out = e->num;
        return 0;
    }
    if (e->op == 'v') {
        const struct nw_value *v =
            nw_values_find(vs, e->prog, e->name, pinned(e, gpu));
        if (v == NULL) {
            return fail(err, size, "%s.%s is not recorded on %s", e->prog,
                        e->name, pinned(e, gpu));
        }
        if (!v->finite) {
            return fail(err, size, "%s: %s.%s is '%s', not a finite number",
                        v->source, e->prog, e->name, v->text);
        }
        *out = v->v;
        return 0;
    }
    if (eval(q, e->a, vs, gpu, &a, err, size) != 0 ||
        (e->op != '~' && eval(q, e->b, vs, gpu, &b, err, size) != 0)) {
        return -1;
    }
    switch (e->op) {
        case '~': *out = -a; break;
        case '+': *out = a + b; break;
        case '-': *out = a - b; break;
        case '*': *out = a * b; break;
        default:
            if (b == 0) {
                return fail(err, size, "a division by zero on %s", gpu);
            }
            *out = a / b;
            break;
    }
    return 0;
}

int nw_quote_eval(const struct nw_quote *q, int root,
                  const struct nw_values *vs, const char *gpu, double *out,
                  char *err, size_t size) {
    if (eval(q, root, vs, gpu, out, err, size) != 0) {
        return -1;
    }
    if (!isfinite(*out)) {
        return fail(err, size, "its value on %s is not a finite number", gpu);
    }
    return 0;
}

/* x rounded half away from zero, with no libm. */
static double rounded(double x) {
    if (x >= 4503599627370496.0 || x <= -4503599627370496.0) { /* 2^52 */
        return x;
    }
    return (double)(long long)(x + (x >= 0 ? 0.5 : -0.5));
}

void nw_quote_format(const struct nw_quote *q, double v, char *out,
                     size_t size) {
    double x = q->percent ? v * 100 : v;
    if (q->rounded) {
        snprintf(out, size, "%.0f", rounded(x));
    } else if (q->decimals >= 0) {
        snprintf(out, size, "%.*f", q->decimals, x);
    } else {
        snprintf(out, size, "%g", x);
    }
    /* A value that rounds to zero is 0, not -0. */
    if (out[0] == '-' && strspn(out + 1, "0.") == strlen(out + 1)) {
        memmove(out, out + 1, strlen(out));
    }
    if (q->percent && strlen(out) + 1 < size) {
        strcat(out, "%");
    }
}

size_t nw_quote_sources(const struct nw_quote *q, const struct nw_values *vs,
                        const char *gpu, const struct nw_value **out,
                        size_t max) {
    size_t n = 0;
    for (size_t i = 0; i < q->nnodes && n < max; ++i) {
        const struct nw_enode *e = &q->nodes[i];
        const struct nw_value *v =
            e->op == 'v' ? nw_values_find(vs, e->prog, e->name, pinned(e, gpu))
                         : NULL;
        for (size_t k = 0; k < n && v != NULL; ++k) {
            v = out[k] == v ? NULL : v;
        }
        if (v != NULL) {
            out[n++] = v;
        }
    }
    return n;
}

void nw_quote_provenance(const struct nw_quote *q, const struct nw_values *vs,
                         const char *gpu, struct nw_buf *b) {
    const struct nw_value **v = nw_xcalloc(q->nnodes + 1, sizeof *v);
    size_t n = nw_quote_sources(q, vs, gpu, v, q->nnodes);
    for (size_t i = 0; i < n; ++i) {
        nw_buf_puts(b, b->n > 0 ? "; " : "");
        nw_buf_puts(b, v[i]->prog);
        nw_buf_puts(b, ".");
        nw_buf_puts(b, v[i]->name);
        nw_buf_puts(b, " on ");
        nw_buf_puts(b, v[i]->gpu);
        nw_buf_puts(b, ": ");
        nw_buf_puts(b, v[i]->source);
    }
    free(v);
}

int nw_quote_value(const struct nw_quote *q, const struct nw_values *vs,
                   const char **gpu, char *out, size_t outsize,
                   struct nw_buf *prov, char *err, size_t size) {
    double v;
    if (nw_quote_gpu(q, vs, gpu, err, size) != 0 ||
        nw_quote_eval(q, q->lhs, vs, *gpu, &v, err, size) != 0) {
        return -1;
    }
    nw_quote_format(q, v, out, outsize);
    if (prov != NULL) {
        nw_quote_provenance(q, vs, *gpu, prov);
    }
    return 0;
}

/* "%.*g" of v, in fixed notation where %g would write an exponent for a
 * whole number of digits it could show (100, not 1e+02). */
static void digits(double v, int p, char *out, size_t size) {
    snprintf(out, size, "%.*g", p, v);
    if (strchr(out, 'e') != NULL && fabs(v) >= 1 && fabs(v) < 1e15) {
        snprintf(out, size, "%.0f", v);
    }
}

/* v in the fewest digits that read back as v. */
static void shortest(double v, char *out, size_t size) {
    for (int p = 1; p <= 17; ++p) {
        digits(v, p, out, size);
        if (strtod(out, NULL) == v) {
            return;
        }
    }
}

int nw_claim_sides(const struct nw_quote *q, const struct nw_values *vs,
                   const char *gpu, char *out, size_t size) {
    double l, r;
    char err[1024], a[32], b[32];
    if (nw_quote_eval(q, q->lhs, vs, gpu, &l, err, sizeof err) != 0 ||
        nw_quote_eval(q, q->rhs, vs, gpu, &r, err, sizeof err) != 0) {
        return -1;
    }
    digits(l, 6, a, sizeof a);
    digits(r, 6, b, sizeof b);
    snprintf(out, size, "%s %s %s", a, nw_cmp_name(q->cmp), b);
    return 0;
}

int nw_claim_holds(const struct nw_quote *q, const struct nw_values *vs,
                   const char *gpu, int *holds, char *why, size_t whysize,
                   char *err, size_t size) {
    double l, r;
    if (nw_quote_eval(q, q->lhs, vs, gpu, &l, err, size) != 0 ||
        nw_quote_eval(q, q->rhs, vs, gpu, &r, err, size) != 0) {
        return -1;
    }
    switch (q->cmp) {
        case NW_LT: *holds = l < r; break;
        case NW_LE: *holds = l <= r; break;
        case NW_GT: *holds = l > r; break;
        case NW_GE: *holds = l >= r; break;
        case NW_EQ: *holds = l == r; break;
        default: *holds = l != r; break;
    }
    if (why != NULL) {
        char a[32], b[32];
        shortest(l, a, sizeof a);
        shortest(r, b, sizeof b);
        snprintf(why, whysize, "%s %s %s is %s", a, nw_cmp_name(q->cmp), b,
                 *holds ? "true" : "false");
    }
    return 0;
}
