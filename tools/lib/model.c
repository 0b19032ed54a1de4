/* model: the reader of build/md/NAME.model (model.h). */
#include "model.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

struct reading {
    struct nw_model *m;
    char **fields;
    size_t cap;
};

static const char kKinds[] =
    "chapter, nvcc, program, run, profile, expect or transcript";

/* The entry named name, or NULL. */
static struct nw_model_entry *find(struct nw_model *m, const char *name) {
    for (size_t k = 0; k < m->n; ++k) {
        if (strcmp(m->v[k].name, name) == 0) {
            return &m->v[k];
        }
    }
    return NULL;
}

/* A new program, run or profile named f[1], of program prog. Returns 0,
 * or 1 having said why not. */
static int add_entry(struct nw_model *m, enum nw_model_kind kind, char **f,
                     const char *prog, long lineno) {
    const struct nw_model_entry *twice = find(m, f[1]);
    if (twice != NULL) {
        nw_error(m->path, lineno, "%s is declared twice (line %ld first)",
                 f[1], twice->lineno);
        return 1;
    }
    m->v = nw_grow(m->v, &m->cap, m->n + 1, sizeof *m->v);
    struct nw_model_entry *e = &m->v[m->n++];
    memset(e, 0, sizeof *e);
    e->kind = kind;
    e->name = nw_xstrdup(f[1]);
    e->prog = nw_xstrdup(prog);
    e->lineno = lineno;
    return 0;
}

/* A run's arguments, fields f[from] on, one blank between each. */
static char *joined(char **f, int from, int n) {
    struct nw_buf b = {NULL, 0, 0};
    nw_buf_puts(&b, "");
    for (int k = from; k < n; ++k) {
        nw_buf_puts(&b, k > from ? " " : "");
        nw_buf_puts(&b, f[k]);
    }
    return b.s;
}

/* What a record of kind wants, or NULL for a kind the model has not. */
static const char *form_of(const char *kind, int *min, int *max) {
    static const struct {
        const char *kind, *form;
        int min, max;
    } forms[] = {
        {"chapter", "chapter<TAB>NAME", 2, 2},
        {"nvcc", "nvcc<TAB>CMD", 2, 2},
        {"program", "program<TAB>PROG<TAB>COMPILE-LINE", 3, 3},
        {"run", "run<TAB>RUN<TAB>PROG<TAB>ARG...", 3, -1},
        {"profile", "profile<TAB>PROG_ncu<TAB>PROG", 3, 3},
        {"expect", "expect<TAB>NAME<TAB>PATH", 3, 3},
        {"transcript", "transcript<TAB>NAME<TAB>PATH", 3, 3},
    };
    for (size_t k = 0; k < sizeof forms / sizeof forms[0]; ++k) {
        if (strcmp(kind, forms[k].kind) == 0) {
            *min = forms[k].min;
            *max = forms[k].max;
            return forms[k].form;
        }
    }
    return NULL;
}

/* One record, its fields f[0..n). Returns 0, or 1 having said why not. */
static int record(struct nw_model *m, char **f, int n, long lineno) {
    int min, max;
    const char *form = form_of(f[0], &min, &max);
    if (form == NULL) {
        nw_error(m->path, lineno, "no record of the kind \"%s\"; a record is "
                 "of %s", f[0], kKinds);
        return 1;
    }
    if (n < min || (max > 0 && n > max)) {
        nw_error(m->path, lineno, "want %s", form);
        return 1;
    }
    for (int k = 1; k < n; ++k) {
        if (f[k][0] == '\0') {
            nw_error(m->path, lineno, "field %d is empty; want %s", k + 1,
                     form);
            return 1;
        }
    }
    if ((m->chapter == NULL) != (strcmp(f[0], "chapter") == 0)) {
        nw_error(m->path, lineno, "the chapter record comes first, once");
        return 1;
    }
    if (strcmp(f[0], "chapter") == 0) {
        m->chapter = nw_xstrdup(f[1]);
        return 0;
    }
    if (strcmp(f[0], "nvcc") == 0) {
        if (m->nvcc != NULL) {
            nw_error(m->path, lineno, "a second nvcc record");
            return 1;
        }
        m->nvcc = nw_xstrdup(f[1]);
        return 0;
    }
    if (strcmp(f[0], "program") == 0) {
        if (add_entry(m, NW_MODEL_PROGRAM, f, f[1], lineno) != 0) {
            return 1;
        }
        m->v[m->n - 1].line = nw_xstrdup(f[2]);
        return 0;
    }
    if (strcmp(f[0], "run") == 0 || strcmp(f[0], "profile") == 0) {
        const struct nw_model_entry *p = find(m, f[2]);
        if (p == NULL || p->kind != NW_MODEL_PROGRAM) {
            nw_error(m->path, lineno, "%s is of %s, which no program record "
                     "above declares", f[1], f[2]);
            return 1;
        }
        int run = strcmp(f[0], "run") == 0;
        size_t len = strlen(f[2]);
        if (!run && (strncmp(f[1], f[2], len) != 0 ||
                     strcmp(f[1] + len, "_ncu") != 0)) {
            nw_error(m->path, lineno, "the profile of %s is %s_ncu, not %s",
                     f[2], f[2], f[1]);
            return 1;
        }
        if (add_entry(m, run ? NW_MODEL_RUN : NW_MODEL_PROFILE, f, f[2],
                      lineno) != 0) {
            return 1;
        }
        if (run) {
            m->v[m->n - 1].args = joined(f, 3, n);
        }
        return 0;
    }
    /* expect or transcript */
    struct nw_model_entry *e = find(m, f[1]);
    if (e == NULL) {
        nw_error(m->path, lineno, "%s: no program, run or profile above "
                 "declares it", f[1]);
        return 1;
    }
    if (strcmp(f[0], "expect") == 0) {
        if (e->expect != NULL) {
            nw_error(m->path, lineno, "a second expectation of %s", f[1]);
            return 1;
        }
        e->expect = nw_xstrdup(f[2]);
        return 0;
    }
    e->transcripts = nw_grow(e->transcripts, &e->cap, e->ntranscripts + 1,
                             sizeof *e->transcripts);
    e->transcripts[e->ntranscripts++] = nw_xstrdup(f[2]);
    return 0;
}

static int each_record(void *ctx, char *line, long lineno) {
    struct reading *r = ctx;
    size_t len = strlen(line);
    if (len > 0 && line[len - 1] == '\n') {
        line[--len] = '\0';
    }
    if (len > 0 && line[len - 1] == '\r') {
        nw_error(r->m->path, lineno, "the line ends in a carriage return");
        return 1;
    }
    size_t nf = 1;
    for (const char *p = line; *p; ++p) {
        nf += *p == '\t';
    }
    r->fields = nw_grow(r->fields, &r->cap, nf, sizeof *r->fields);
    int n = nw_split_tabs(line, r->fields, (int)nf);
    return record(r->m, r->fields, n, lineno);
}

int nw_model_read(const char *path, struct nw_model *m) {
    memset(m, 0, sizeof *m);
    m->path = nw_xstrdup(path);
    struct reading r = {m, NULL, 0};
    int status = nw_each_line(path, "the chapter's model", each_record, &r);
    free(r.fields);
    if (status == 0 && m->chapter == NULL) {
        nw_error(path, 0, "no chapter record: the model is empty");
        status = 1;
    }
    if (status != 0) {
        nw_model_free(m);
        return -1;
    }
    return 0;
}

void nw_model_free(struct nw_model *m) {
    for (size_t k = 0; k < m->n; ++k) {
        struct nw_model_entry *e = &m->v[k];
        free(e->name);
        free(e->prog);
        free(e->line);
        free(e->args);
        free(e->expect);
        for (size_t t = 0; t < e->ntranscripts; ++t) {
            free(e->transcripts[t]);
        }
        free(e->transcripts);
    }
    free(m->v);
    free(m->path);
    free(m->chapter);
    free(m->nvcc);
    memset(m, 0, sizeof *m);
}
