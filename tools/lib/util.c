/* util: memory, growing arrays and strings, files, tab-separated lines and
 * error messages. See util.h. */
#define _POSIX_C_SOURCE 200809L /* getline */
#include "util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The first capacity nw_grow gives an array. */
enum { kFirstCap = 16 };

static void out_of_memory(void) {
    nw_error(NULL, 0, "out of memory");
    exit(2);
}

void *nw_xrealloc(void *p, size_t size) {
    void *q = realloc(p, size ? size : 1);
    if (q == NULL) {
        out_of_memory();
    }
    return q;
}

void *nw_xcalloc(size_t n, size_t size) {
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (p == NULL) {
        out_of_memory();
    }
    return p;
}

char *nw_xstrdup(const char *s) {
    size_t n = strlen(s) + 1;
    char *d = nw_xrealloc(NULL, n);
    memcpy(d, s, n);
    return d;
}

void *nw_grow(void *v, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) {
        return v;
    }
    size_t n = *cap ? *cap : kFirstCap;
    while (n < need) {
        if (n > SIZE_MAX / 2) {
            out_of_memory();
        }
        n *= 2;
    }
    if (n > SIZE_MAX / size) {
        out_of_memory();
    }
    *cap = n;
    return nw_xrealloc(v, n * size);
}

void nw_buf_add(struct nw_buf *b, const char *s, size_t n) {
    b->s = nw_grow(b->s, &b->cap, b->n + n + 1, 1);
    if (n > 0) {
        memcpy(b->s + b->n, s, n);
    }
    b->n += n;
    b->s[b->n] = '\0';
}

void nw_buf_puts(struct nw_buf *b, const char *s) {
    nw_buf_add(b, s, strlen(s));
}

void nw_buf_put(FILE *out, struct nw_buf *b) {
    if (b->n > 0) {
        fwrite(b->s, 1, b->n, out);
    }
    free(b->s);
    b->s = NULL;
    b->n = b->cap = 0;
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

/* How an error line begins: "WHERE:LINE: ", "WHERE: " or nothing. */
static void where_prefix(char *buf, size_t size, const char *where,
                         long line) {
    if (where != NULL && line > 0) {
        snprintf(buf, size, "%s:%ld: ", where, line);
    } else if (where != NULL) {
        snprintf(buf, size, "%s: ", where);
    } else {
        buf[0] = '\0';
    }
}

void nw_format_error(char *buf, size_t size, const char *where, long line,
                     const char *fmt, va_list ap) {
    where_prefix(buf, size, where, line);
    size_t n = strlen(buf);
    vsnprintf(buf + n, size - n, fmt, ap);
}

void nw_error(const char *where, long line, const char *fmt, ...) {
    char prefix[4400];
    where_prefix(prefix, sizeof prefix, where, line);
    fputs(prefix, stderr);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

int nw_flush_stdout(const char *tool) {
    if (fflush(stdout) != 0 || ferror(stdout)) {
        nw_error(tool, 0, "cannot write");
        return 1;
    }
    return 0;
}

int nw_each_line(const char *path, const char *what,
                 int (*each)(void *ctx, char *line, long lineno), void *ctx) {
    FILE *f = fopen(path, "r");
    int status = 0, bad = f == NULL;
    if (f != NULL) {
        char *line = NULL;
        size_t cap = 0;
        long lineno = 0;
        while (status == 0 && getline(&line, &cap, f) != -1) {
            status = each(ctx, line, ++lineno);
        }
        free(line);
        bad = ferror(f);
        fclose(f);
    }
    if (bad) {
        nw_error(path, 0, "cannot read%s%s", what ? " " : "", what ? what : "");
        return -1;
    }
    return status;
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
