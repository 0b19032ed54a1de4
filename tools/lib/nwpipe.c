/* nwpipe: read noweb's pipeline format into a chapter model, and the
 * helpers the tools share. See nwpipe.h. */
#define _POSIX_C_SOURCE 200809L
#include "nwpipe.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

void *nw_xrealloc(void *p, size_t size) {
    void *q = realloc(p, size ? size : 1);
    if (q == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return q;
}

char *nw_xstrdup(const char *s) {
    size_t n = strlen(s) + 1;
    char *d = nw_xrealloc(NULL, n);
    memcpy(d, s, n);
    return d;
}

static struct nw_chunk *new_chunk(struct nw_doc *doc, int is_code) {
    if (doc->n == doc->cap) {
        doc->cap = doc->cap ? 2 * doc->cap : 16;
        doc->chunks = nw_xrealloc(doc->chunks, doc->cap * sizeof *doc->chunks);
    }
    struct nw_chunk *c = &doc->chunks[doc->n++];
    memset(c, 0, sizeof *c);
    c->is_code = is_code;
    return c;
}

static void add_item(struct nw_chunk *c, enum nw_item_kind kind,
                     const char *s, long line) {
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 32;
        c->items = nw_xrealloc(c->items, c->cap * sizeof *c->items);
    }
    struct nw_item *it = &c->items[c->n++];
    it->kind = kind;
    it->s = s ? nw_xstrdup(s) : NULL;
    it->line = line;
}

static int fail(char *err, size_t errlen, const char *file, long line,
                const char *fmt, ...) {
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (file != NULL && line > 0) {
        snprintf(err, errlen, "%s:%ld: %s", file, line, msg);
    } else if (file != NULL) {
        snprintf(err, errlen, "%s: %s", file, msg);
    } else {
        snprintf(err, errlen, "%s", msg);
    }
    return -1;
}

/* Does line start with keyword, followed by a blank or the end? Sets *rest
 * to what follows the blank. */
static int keyword(const char *line, const char *kw, const char **rest) {
    size_t n = strlen(kw);
    if (strncmp(line, kw, n) != 0) {
        return 0;
    }
    if (line[n] == '\0') {
        *rest = line + n;
        return 1;
    }
    if (line[n] == ' ') {
        *rest = line + n + 1;
        return 1;
    }
    return 0;
}

int nw_read(FILE *in, struct nw_doc *doc, char *err, size_t errlen) {
    memset(doc, 0, sizeof *doc);
    char *buf = NULL;
    size_t cap = 0;
    ssize_t len;
    long line = 1;
    struct nw_chunk *cur = NULL;
    int status = 0;

    while ((len = getline(&buf, &cap, in)) != -1) {
        if (len > 0 && buf[len - 1] == '\n') {
            buf[--len] = '\0';
        }
        if ((size_t)len != strlen(buf)) {
            status = fail(err, errlen, doc->file, line,
                          "a NUL byte in the text; a chapter is UTF-8 text");
            break;
        }
        const char *rest = NULL;
        if (keyword(buf, "@file", &rest)) {
            free(doc->file);
            doc->file = nw_xstrdup(rest);
            line = 1;
        } else if (keyword(buf, "@begin", &rest)) {
            if (cur != NULL) {
                status = fail(err, errlen, doc->file, line,
                              "malformed pipeline: @begin inside a chunk");
                break;
            }
            cur = new_chunk(doc, strncmp(rest, "code", 4) == 0);
        } else if (keyword(buf, "@end", &rest)) {
            if (cur != NULL && cur->is_code && cur->name == NULL) {
                status = fail(err, errlen, doc->file, line,
                              "malformed pipeline: a code chunk without @defn");
                break;
            }
            cur = NULL;
        } else if (cur == NULL) {
            /* Keywords between chunks (@language, @index, ...) carry
             * nothing the book uses. */
            continue;
        } else if (keyword(buf, "@defn", &rest)) {
            if (cur->name != NULL) {
                status = fail(err, errlen, doc->file, line,
                              "malformed pipeline: two @defn in one chunk");
                break;
            }
            cur->name = nw_xstrdup(rest);
            cur->line = line;
            int pieces = 0;
            for (size_t i = 0; i + 1 < doc->n; ++i) {
                const struct nw_chunk *c = &doc->chunks[i];
                pieces += c->is_code && c->name && strcmp(c->name, rest) == 0;
            }
            cur->piece = pieces + 1;
        } else if (keyword(buf, "@text", &rest)) {
            add_item(cur, NW_TEXT, rest, line);
        } else if (keyword(buf, "@nl", &rest)) {
            add_item(cur, NW_NL, NULL, line);
            ++line;
        } else if (keyword(buf, "@use", &rest)) {
            add_item(cur, NW_USE, rest, line);
        } else if (keyword(buf, "@quote", &rest)) {
            add_item(cur, NW_QUOTE, NULL, line);
        } else if (keyword(buf, "@endquote", &rest)) {
            add_item(cur, NW_ENDQUOTE, NULL, line);
        } else if (keyword(buf, "@line", &rest)) {
            char *end = NULL;
            errno = 0;
            long n = strtol(rest, &end, 10);
            if (errno == 0 && end != rest && n > 0) {
                line = n;
            }
        } else if (keyword(buf, "@fatal", &rest)) {
            /* markup has said what is wrong on stderr already. */
            status = -1;
            err[0] = '\0';
            break;
        }
        /* Other keywords (@index, @xref, @language, ...) are not needed. */
    }
    if (status == 0 && cur != NULL && cur->is_code && cur->name == NULL) {
        status = fail(err, errlen, doc->file, line,
                      "malformed pipeline: a code chunk without @defn");
    }
    if (status == 0 && ferror(in)) {
        status = fail(err, errlen, doc->file, 0, "cannot read the pipeline");
    }
    free(buf);
    doc->lines = line - 1;
    return status;
}

void nw_free(struct nw_doc *doc) {
    for (size_t i = 0; i < doc->n; ++i) {
        struct nw_chunk *c = &doc->chunks[i];
        for (size_t j = 0; j < c->n; ++j) {
            free(c->items[j].s);
        }
        free(c->items);
        free(c->name);
    }
    free(doc->chunks);
    free(doc->file);
    memset(doc, 0, sizeof *doc);
}

int nw_is_label(const char *name) {
    if (name[0] == '\0' || name[0] == '-') {
        return 0;
    }
    for (const char *p = name; *p; ++p) {
        int ok = (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
                 (*p == '-' && p[1] != '-' && p[1] != '\0');
        if (!ok) {
            return 0;
        }
    }
    return 1;
}

int nw_is_file_name(const char *name) {
    return strchr(name, '.') != NULL && strpbrk(name, " \t") == NULL;
}

int nw_is_phrase(const char *name) {
    return strchr(name, ' ') != NULL && !isspace((unsigned char)name[0]);
}

int nw_is_known_file_type(const char *name) {
    static const char *const types[] = {".cu", ".cuh", ".h"};
    const char *dot = strrchr(name, '.');
    if (dot == NULL || dot == name) {
        return 0;
    }
    for (size_t i = 0; i < sizeof types / sizeof types[0]; ++i) {
        if (strcmp(dot, types[i]) == 0) {
            return 1;
        }
    }
    return 0;
}

long nw_find_defn(const struct nw_doc *doc, const char *name, size_t from) {
    for (size_t i = from; i < doc->n; ++i) {
        const struct nw_chunk *c = &doc->chunks[i];
        if (c->is_code && c->name && strcmp(c->name, name) == 0) {
            return (long)i;
        }
    }
    return -1;
}

int nw_pieces(const struct nw_doc *doc, const char *name) {
    int n = 0;
    for (size_t i = 0; i < doc->n; ++i) {
        const struct nw_chunk *c = &doc->chunks[i];
        n += c->is_code && c->name && strcmp(c->name, name) == 0;
    }
    return n;
}

int nw_is_used(const struct nw_doc *doc, const char *name) {
    for (size_t i = 0; i < doc->n; ++i) {
        const struct nw_chunk *c = &doc->chunks[i];
        if (!c->is_code) {
            continue;
        }
        for (size_t j = 0; j < c->n; ++j) {
            if (c->items[j].kind == NW_USE && strcmp(c->items[j].s, name) == 0) {
                return 1;
            }
        }
    }
    return 0;
}

void nw_anchor(const char *name, int piece, char *out, size_t size) {
    char base[256];
    size_t n = 0;
    if (nw_is_label(name)) {
        snprintf(base, sizeof base, "%s", name);
    } else {
        const char *prefix = nw_is_file_name(name) ? "file-" : "chunk-";
        n = strlen(prefix);
        memcpy(base, prefix, n);
        int dash = 0;
        for (const char *p = name; *p && n + 2 < sizeof base; ++p) {
            unsigned char ch = (unsigned char)*p;
            if (isalnum(ch) || ch == '_') {
                if (dash && base[n - 1] != '-') {
                    base[n++] = '-';
                }
                base[n++] = (char)tolower(ch);
                dash = 0;
            } else {
                dash = 1;
            }
        }
        base[n] = '\0';
    }
    if (piece > 1) {
        snprintf(out, size, "%s-%d", base, piece);
    } else {
        snprintf(out, size, "%s", base);
    }
}

char *nw_chapter_of(const char *path) {
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    char *name = nw_xstrdup(base);
    char *dot = strrchr(name, '.');
    if (dot != NULL) {
        *dot = '\0';
    }
    return name;
}

static void labels_add(struct nw_labels *ls, const char *label,
                       const char *chapter, const char *replaced_by,
                       long line) {
    if (ls->n == ls->cap) {
        ls->cap = ls->cap ? 2 * ls->cap : 32;
        ls->v = nw_xrealloc(ls->v, ls->cap * sizeof *ls->v);
    }
    struct nw_label *l = &ls->v[ls->n++];
    l->label = nw_xstrdup(label);
    l->chapter = nw_xstrdup(chapter);
    l->replaced_by = replaced_by ? nw_xstrdup(replaced_by) : NULL;
    l->line = line;
}

int nw_split_tabs(char *line, char **fields, int max) {
    int n = 0;
    size_t len = strlen(line);
    if (len > 0 && line[len - 1] == '\n') {
        line[len - 1] = '\0';
    }
    fields[n++] = line;
    for (char *p = line; *p && n < max; ++p) {
        if (*p == '\t') {
            *p = '\0';
            fields[n++] = p + 1;
        }
    }
    return n;
}

int nw_labels_from_meta(struct nw_labels *ls, const char *path) {
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        fprintf(stderr, "%s: cannot read\n", path);
        return -1;
    }
    char *chapter = nw_chapter_of(path);
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, f) != -1) {
        char *fld[3];
        int n = nw_split_tabs(line, fld, 3);
        if (n >= 2 && strcmp(fld[0], "label") == 0) {
            labels_add(ls, fld[1], chapter, NULL, n == 3 ? atol(fld[2]) : 0);
        }
    }
    free(line);
    free(chapter);
    fclose(f);
    return 0;
}

int nw_labels_from_registry(struct nw_labels *ls, const char *path) {
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        fprintf(stderr, "%s: cannot read the label registry\n", path);
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    long lineno = 0;
    int status = 0;
    while (getline(&line, &cap, f) != -1) {
        ++lineno;
        if (line[0] == '#' || line[0] == '\n' || line[0] == '\0') {
            continue;
        }
        char *fld[4];
        int n = nw_split_tabs(line, fld, 4);
        if (n < 2 || n > 3 || !nw_is_label(fld[0]) || fld[1][0] == '\0' ||
            (n == 3 && !nw_is_label(fld[2]))) {
            fprintf(stderr,
                    "%s:%ld: want LABEL<TAB>CHAPTER, or "
                    "LABEL<TAB>CHAPTER<TAB>REPLACEMENT for a retired label\n",
                    path, lineno);
            status = -1;
            break;
        }
        if (nw_labels_find(ls, fld[0]) != NULL) {
            fprintf(stderr, "%s:%ld: label %s is registered twice\n", path,
                    lineno, fld[0]);
            status = -1;
            break;
        }
        labels_add(ls, fld[0], fld[1], n == 3 ? fld[2] : NULL, lineno);
    }
    free(line);
    fclose(f);
    return status;
}

const struct nw_label *nw_labels_find(const struct nw_labels *ls,
                                      const char *label) {
    for (size_t i = 0; i < ls->n; ++i) {
        if (strcmp(ls->v[i].label, label) == 0) {
            return &ls->v[i];
        }
    }
    return NULL;
}

void nw_labels_free(struct nw_labels *ls) {
    for (size_t i = 0; i < ls->n; ++i) {
        free(ls->v[i].label);
        free(ls->v[i].chapter);
        free(ls->v[i].replaced_by);
    }
    free(ls->v);
    memset(ls, 0, sizeof *ls);
}

int nw_load(FILE *in, struct nw_doc *doc) {
    char err[1024];
    if (nw_read(in, doc, err, sizeof err) != 0) {
        if (err[0] != '\0') {
            fprintf(stderr, "%s\n", err);
        }
        nw_free(doc);
        return -1;
    }
    return 0;
}

void nw_buf_add(struct nw_buf *b, const char *s, size_t n) {
    if (b->n + n + 1 > b->cap) {
        b->cap = (b->n + n + 1) * 2;
        b->s = nw_xrealloc(b->s, b->cap);
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = '\0';
}

void nw_buf_puts(struct nw_buf *b, const char *s) { nw_buf_add(b, s, strlen(s)); }

/* Writes what b holds to out and frees it. */
static void put_buf(FILE *out, struct nw_buf *b) {
    if (b->n > 0) {
        fwrite(b->s, 1, b->n, out);
    }
    free(b->s);
}

char *nw_slurp(FILE *in, size_t *len) {
    struct nw_buf b = {NULL, 0, 0};
    nw_buf_add(&b, "", 0);
    char chunk[8192];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, in)) > 0) {
        nw_buf_add(&b, chunk, got);
    }
    if (len != NULL) {
        *len = b.n;
    }
    return b.s;
}

char *nw_slurp_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return NULL;
    }
    char *s = nw_slurp(f, len);
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(s);
        return NULL;
    }
    return s;
}

char *nw_slurp_text(const char *path) {
    size_t n;
    char *s = nw_slurp_file(path, &n);
    if (s != NULL && strlen(s) != n) {
        free(s);
        return NULL;
    }
    return s;
}

size_t nw_longest_run(const char *s, char ch) {
    size_t best = 0, run = 0;
    for (; *s; ++s) {
        run = (*s == ch) ? run + 1 : 0;
        best = run > best ? run : best;
    }
    return best;
}

void nw_put_dquoted(FILE *out, const char *s) {
    fputc('"', out);
    for (; *s; ++s) {
        if (*s == '"' || *s == '\\') {
            fputc('\\', out);
        }
        fputc(*s, out);
    }
    fputc('"', out);
}

void nw_buf_md_text(struct nw_buf *b, const char *s, const char *marks) {
    for (; *s; ++s) {
        if (strchr(marks, *s) != NULL) {
            nw_buf_add(b, "\\", 1);
        }
        nw_buf_add(b, s, 1);
    }
}

void nw_put_md_text(FILE *out, const char *s, const char *marks) {
    struct nw_buf b = {NULL, 0, 0};
    nw_buf_md_text(&b, s, marks);
    put_buf(out, &b);
}

static void buf_run(struct nw_buf *b, char ch, size_t n) {
    for (size_t i = 0; i < n; ++i) {
        nw_buf_add(b, &ch, 1);
    }
}

void nw_buf_md_code(struct nw_buf *b, const char *s) {
    size_t ticks = nw_longest_run(s, '`') + 1;
    buf_run(b, '`', ticks);
    nw_buf_puts(b, " ");
    nw_buf_puts(b, s);
    nw_buf_puts(b, " ");
    buf_run(b, '`', ticks);
}

void nw_put_md_code(FILE *out, const char *s) {
    struct nw_buf b = {NULL, 0, 0};
    nw_buf_md_code(&b, s);
    put_buf(out, &b);
}

void nw_buf_code_block(struct nw_buf *b, const char *attrs, const char *text) {
    size_t fence = nw_longest_run(text, '~') + 1;
    fence = fence < 4 ? 4 : fence;
    buf_run(b, '~', fence);
    nw_buf_puts(b, " {");
    nw_buf_puts(b, attrs);
    nw_buf_puts(b, "}\n");
    nw_buf_puts(b, text);
    if (*text && text[strlen(text) - 1] != '\n') {
        nw_buf_puts(b, "\n");
    }
    buf_run(b, '~', fence);
    nw_buf_puts(b, "\n");
}

void nw_put_code_block(FILE *out, const char *attrs, const char *text) {
    struct nw_buf b = {NULL, 0, 0};
    nw_buf_code_block(&b, attrs, text);
    put_buf(out, &b);
}
