/* meta: the chapters' metadata files, the label registry and the chunk
 * tables. See meta.h. */
#define _POSIX_C_SOURCE 200809L
#include "meta.h"

#include "names.h"
#include "noweb.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

/* ----------------------------------------------------------------- */
/* META files                                                          */

static void add_named(struct nw_named **v, size_t *n, size_t *cap,
                      const char *name, long line) {
    *v = nw_grow(*v, cap, *n + 1, sizeof **v);
    (*v)[*n].name = nw_xstrdup(name);
    (*v)[*n].line = line;
    ++*n;
}

static int chapter_record(void *ctx, const struct nw_meta_record *r) {
    struct nw_chapter *ch = ctx;
    const char *name = r->value;
    if (strcmp(r->kind, "title") == 0) {
        if (ch->title == NULL) {
            ch->title = nw_xstrdup(r->value);
        }
    } else if (strcmp(r->kind, "root") == 0) {
        add_named(&ch->roots, &ch->nroots, &ch->roots_cap, name, r->line);
    } else if (strcmp(r->kind, "label") == 0) {
        add_named(&ch->labels, &ch->nlabels, &ch->labels_cap, name, r->line);
    } else if (strcmp(r->kind, "cite") == 0) {
        add_named(&ch->cites, &ch->ncites, &ch->cites_cap, name, r->line);
    } else if (strcmp(r->kind, "day") == 0) {
        add_named(&ch->days, &ch->ndays, &ch->days_cap, name, r->line);
    }
    return 0;
}

int nw_meta_read(const char *path, struct nw_chapter *ch) {
    memset(ch, 0, sizeof *ch);
    ch->name = nw_chapter_of(path);
    if (nw_meta_each(path, chapter_record, ch) != 0) {
        nw_meta_free(ch);
        return -1;
    }
    if (ch->title == NULL) {
        ch->title = nw_xstrdup(ch->name);
    }
    return 0;
}

static void free_named(struct nw_named *v, size_t n) {
    for (size_t i = 0; i < n; ++i) {
        free(v[i].name);
    }
    free(v);
}

void nw_meta_free(struct nw_chapter *ch) {
    free(ch->name);
    free(ch->title);
    free_named(ch->roots, ch->nroots);
    free_named(ch->labels, ch->nlabels);
    free_named(ch->cites, ch->ncites);
    free_named(ch->days, ch->ndays);
    memset(ch, 0, sizeof *ch);
}

int nw_book_read(struct nw_book *book, char *const *paths, size_t n) {
    book->v = nw_xcalloc(n, sizeof *book->v);
    book->n = 0;
    for (; book->n < n; ++book->n) {
        if (nw_meta_read(paths[book->n], &book->v[book->n]) != 0) {
            nw_book_free(book);
            return -1;
        }
    }
    return 0;
}

const struct nw_chapter *nw_book_find(const struct nw_book *book,
                                      const char *name) {
    for (size_t i = 0; i < book->n; ++i) {
        if (strcmp(book->v[i].name, name) == 0) {
            return &book->v[i];
        }
    }
    return NULL;
}

void nw_book_free(struct nw_book *book) {
    for (size_t i = 0; i < book->n; ++i) {
        nw_meta_free(&book->v[i]);
    }
    free(book->v);
    book->v = NULL;
    book->n = 0;
}

/* ----------------------------------------------------------------- */
/* Labels                                                              */

static void labels_add(struct nw_labels *ls, const char *label,
                       const char *chapter, const char *replaced_by,
                       long line) {
    ls->v = nw_grow(ls->v, &ls->cap, ls->n + 1, sizeof *ls->v);
    struct nw_label *l = &ls->v[ls->n++];
    l->label = nw_xstrdup(label);
    l->chapter = nw_xstrdup(chapter);
    l->replaced_by = replaced_by ? nw_xstrdup(replaced_by) : NULL;
    l->line = line;
    l->revs = NULL;
    l->nrevs = l->revs_cap = 0;
}

int nw_labels_from_meta(struct nw_labels *ls, const char *path) {
    struct nw_chapter ch;
    if (nw_meta_read(path, &ch) != 0) {
        return -1;
    }
    for (size_t i = 0; i < ch.nlabels; ++i) {
        labels_add(ls, ch.labels[i].name, ch.name, NULL, ch.labels[i].line);
    }
    nw_meta_free(&ch);
    return 0;
}

/* Is s n characters of which each is one of set? */
static int all_of(const char *s, size_t n, const char *set) {
    return strlen(s) == n && strspn(s, set) == n;
}

/* A revision line, LABEL<TAB>N<TAB>DATE<TAB>FINGERPRINT, of a label
 * registered above it; or -1 having said what is wrong with it. */
static int revision_line(struct nw_labels *ls, char **fld, const char *path,
                         long lineno) {
    const char *digits = "0123456789";
    struct nw_label *l = (struct nw_label *)nw_labels_find(ls, fld[0]);
    size_t nlen = strlen(fld[1]);
    if (!nw_is_label(fld[0]) || nlen == 0 || nlen > 6 ||
        strspn(fld[1], digits) != nlen ||
        !(all_of(fld[2], 10, "0123456789-") && fld[2][4] == '-' &&
          fld[2][7] == '-' && strspn(fld[2], digits) == 4) ||
        !all_of(fld[3], 16, "0123456789abcdef")) {
        nw_error(path, lineno,
                 "want LABEL<TAB>N<TAB>YYYY-MM-DD<TAB>FINGERPRINT (16 hex "
                 "digits) for a revision of a label's code");
        return -1;
    }
    int n = atoi(fld[1]);
    if (l == NULL) {
        nw_error(path, lineno,
                 "revision %d of label %s comes before the label's line", n,
                 fld[0]);
        return -1;
    }
    if (n != (int)l->nrevs + 1) {
        nw_error(path, lineno, "revision %d of label %s follows revision %d; "
                 "revisions are numbered 1, 2, ... in order",
                 n, fld[0], (int)l->nrevs);
        return -1;
    }
    l->revs = nw_grow(l->revs, &l->revs_cap, l->nrevs + 1, sizeof *l->revs);
    struct nw_revision *r = &l->revs[l->nrevs++];
    r->n = n;
    memcpy(r->date, fld[2], sizeof r->date);
    r->fp = strtoull(fld[3], NULL, 16);
    r->line = lineno;
    return 0;
}

/* A line of the registry, split into its n fields, or -1 having said what
 * is wrong with it. */
static int registry_line(struct nw_labels *ls, char **fld, int n,
                         const char *path, long lineno) {
    if (n == 4) {
        return revision_line(ls, fld, path, lineno);
    }
    if (n < 2 || n > 3 || !nw_is_label(fld[0]) || fld[1][0] == '\0' ||
        (n == 3 && !nw_is_label(fld[2]))) {
        nw_error(path, lineno,
                 "want LABEL<TAB>CHAPTER, "
                 "LABEL<TAB>CHAPTER<TAB>REPLACEMENT for a retired label, or "
                 "LABEL<TAB>N<TAB>YYYY-MM-DD<TAB>FINGERPRINT for a revision");
        return -1;
    }
    if (nw_labels_find(ls, fld[0]) != NULL) {
        nw_error(path, lineno, "label %s is registered twice", fld[0]);
        return -1;
    }
    labels_add(ls, fld[0], fld[1], n == 3 ? fld[2] : NULL, lineno);
    return 0;
}

struct registry_reader {
    struct nw_labels *ls;
    const char *path;
};

static int each_registry_line(void *ctx, char *line, long lineno) {
    struct registry_reader *r = ctx;
    if (line[0] == '#' || line[0] == '\n' || line[0] == '\0') {
        return 0;
    }
    char *fld[5];
    int n = nw_split_tabs(line, fld, 5);
    return registry_line(r->ls, fld, n, r->path, lineno);
}

int nw_labels_from_registry(struct nw_labels *ls, const char *path) {
    struct registry_reader r = {ls, path};
    return nw_each_line(path, "the label registry", each_registry_line, &r)
               ? -1
               : 0;
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

const char *nw_kept_code(char *out, size_t size, const char *registry,
                         const char *label, int n) {
    const char *slash = strrchr(registry, '/');
    int dir = slash ? (int)(slash - registry) + 1 : 0;
    snprintf(out, size, "%.*slabels/%s@%d.cu", dir, registry, label, n);
    return out;
}

void nw_labels_free(struct nw_labels *ls) {
    for (size_t i = 0; i < ls->n; ++i) {
        free(ls->v[i].label);
        free(ls->v[i].chapter);
        free(ls->v[i].replaced_by);
        free(ls->v[i].revs);
    }
    free(ls->v);
    memset(ls, 0, sizeof *ls);
}

/* ----------------------------------------------------------------- */
/* Chunk tables                                                        */

void nw_piece_put(FILE *out, const char *anchor, int piece, long line,
                  const char *name) {
    fprintf(out, "%s\t%d\t%ld\t%s\n", anchor, piece, line, name);
}

struct piece_reader {
    struct nw_piece_list *ps;
    const char *path;
};

static int each_piece_line(void *ctx, char *line, long lineno) {
    struct piece_reader *r = ctx;
    char *fld[4];
    if (nw_split_tabs(line, fld, 4) != 4 || fld[0][0] == '\0' ||
        atoi(fld[1]) < 1) {
        nw_error(r->path, lineno, "want ANCHOR<TAB>PIECE<TAB>LINE<TAB>NAME");
        return -1;
    }
    struct nw_piece_list *ps = r->ps;
    ps->v = nw_grow(ps->v, &ps->cap, ps->n + 1, sizeof *ps->v);
    struct nw_piece *p = &ps->v[ps->n++];
    p->anchor = nw_xstrdup(fld[0]);
    p->piece = atoi(fld[1]);
    p->line = atol(fld[2]);
    p->name = nw_xstrdup(fld[3]);
    return 0;
}

int nw_piece_list_read(struct nw_piece_list *ps, const char *path) {
    struct piece_reader r = {ps, path};
    return nw_each_line(path, NULL, each_piece_line, &r) ? -1 : 0;
}

const struct nw_piece *nw_piece_list_find(const struct nw_piece_list *ps,
                                          const char *anchor, size_t len) {
    for (size_t i = 0; i < ps->n; ++i) {
        if (strlen(ps->v[i].anchor) == len &&
            memcmp(ps->v[i].anchor, anchor, len) == 0) {
            return &ps->v[i];
        }
    }
    return NULL;
}

void nw_piece_list_free(struct nw_piece_list *ps) {
    for (size_t i = 0; i < ps->n; ++i) {
        free(ps->v[i].anchor);
        free(ps->v[i].name);
    }
    free(ps->v);
    memset(ps, 0, sizeof *ps);
}

int nw_cite_href(const struct nw_doc *doc, const char *chapter,
                 const struct nw_labels *labels,
                 const struct nw_labels *registry, const char *name,
                 char *out, size_t size) {
    char anchor[NW_ANCHOR_MAX];
    if (nw_find_defn(doc, name, 0) >= 0) {
        nw_anchor(name, 1, anchor, sizeof anchor);
        snprintf(out, size, "#%s", anchor);
        return 1;
    }
    const struct nw_label *l = nw_labels_find(labels, name);
    if (l == NULL) {
        l = nw_labels_find(registry, name);
    }
    if (l == NULL) {
        return 0;
    }
    if (strcmp(l->chapter, chapter) == 0) {
        snprintf(out, size, "#%s", name);
    } else {
        snprintf(out, size, "%s.html#%s", l->chapter, name);
    }
    return 1;
}
