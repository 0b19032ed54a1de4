/* lines: a chapter's description, record by record. See lines.h. */
#define _POSIX_C_SOURCE 200809L
#include "lines.h"

#include "util.h"

#include <stdlib.h>
#include <string.h>

/* A line KIND<TAB>VALUE[<TAB>LINE] into r; a title's value is all that
 * follows its tab. Returns 0, or -1 where it is no record. */
static int meta_record(char *line, struct nw_meta_record *r) {
    char *kind[2];
    if (nw_split_tabs(line, kind, 2) < 2) {
        return -1;
    }
    r->kind = kind[0];
    r->value = kind[1];
    r->line = 0;
    char *tab = strrchr(kind[1], '\t');
    if (strcmp(kind[0], "title") == 0 || tab == NULL) {
        return 0;
    }
    char *end;
    r->line = strtol(tab + 1, &end, 10);
    if (*end != '\0' || end == tab + 1 || r->line < 1) {
        return -1;
    }
    *tab = '\0';
    return 0;
}

struct meta_reader {
    const char *path;
    int (*fn)(void *, const struct nw_meta_record *);
    void *ctx;
    int status;
};

static int each_record(void *ctx, char *line, long lineno) {
    struct meta_reader *m = ctx;
    struct nw_meta_record r;
    if (meta_record(line, &r) != 0) {
        nw_error(m->path, lineno, "not a record of a chapter's description "
                 "(KIND<TAB>VALUE, and its line)");
        m->status = -1;
        return 1;
    }
    m->status = m->fn(m->ctx, &r);
    return m->status != 0;
}

int nw_meta_each(const char *path,
                 int (*fn)(void *ctx, const struct nw_meta_record *r),
                 void *ctx) {
    struct meta_reader m = {path, fn, ctx, 0};
    if (nw_each_line(path, NULL, each_record, &m) < 0) {
        return -1;
    }
    return m.status;
}
