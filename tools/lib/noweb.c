/* noweb: the pipeline reader. See noweb.h. */
#define _POSIX_C_SOURCE 200809L
#include "noweb.h"

#include "names.h"
#include "util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

/* Where nw_read is in the pipeline. */
struct reader {
    struct nw_doc *doc;
    struct nw_chunk *cur; /* the chunk being read, or NULL between chunks */
    long line;            /* the source line */
    char *err;
    size_t errlen;
};

static struct nw_chunk *new_chunk(struct nw_doc *doc, int is_code) {
    doc->chunks = nw_grow(doc->chunks, &doc->cap, doc->n + 1,
                          sizeof *doc->chunks);
    struct nw_chunk *c = &doc->chunks[doc->n++];
    memset(c, 0, sizeof *c);
    c->is_code = is_code;
    return c;
}

static void add_item(struct nw_chunk *c, enum nw_item_kind kind,
                     const char *s, long line) {
    c->items = nw_grow(c->items, &c->cap, c->n + 1, sizeof *c->items);
    struct nw_item *it = &c->items[c->n++];
    it->kind = kind;
    it->s = s ? nw_xstrdup(s) : NULL;
    it->line = line;
}

/* Writes the message, at the reader's file and line, into its err. */
static int fail(struct reader *r, long line, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    nw_format_error(r->err, r->errlen, r->doc->file, line, fmt, ap);
    va_end(ap);
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

/* @defn NAME: the chunk's name, its line, and which piece of it this is. */
static int read_defn(struct reader *r, const char *name) {
    struct nw_chunk *cur = r->cur;
    if (cur->name != NULL) {
        return fail(r, r->line, "malformed pipeline: two @defn in one chunk");
    }
    cur->name = nw_xstrdup(name);
    cur->line = r->line;
    cur->piece = nw_pieces(r->doc, name);
    return 0;
}

static void add_ident(struct nw_ident **v, size_t *n, size_t *cap,
                      const char *name, long line, size_t item, int flags) {
    *v = nw_grow(*v, cap, *n + 1, sizeof **v);
    struct nw_ident *id = &(*v)[(*n)++];
    id->name = nw_xstrdup(name);
    id->line = line;
    id->item = item;
    id->flags = flags;
}

/* @index ...: a definition or a use of an identifier, or the end of the
 * chunk's @ %def line, which states the definitions just before it. */
static void read_index(struct reader *r, const char *rest) {
    struct nw_chunk *c = r->cur;
    const char *name = NULL;
    if (keyword(rest, "defn", &name) || keyword(rest, "localdefn", &name)) {
        if (*name != '\0') {
            add_ident(&c->defs, &c->ndefs, &c->defs_cap, name, r->line, c->n,
                      rest[0] == 'l' ? NW_ID_LOCAL : 0);
        }
    } else if (keyword(rest, "use", &name)) {
        if (*name != '\0') {
            add_ident(&c->uses, &c->nuses, &c->uses_cap, name, r->line, c->n,
                      0);
        }
    } else if (keyword(rest, "nl", &name)) {
        /* The @ %def line: what it defined came since the last item. */
        for (size_t k = c->ndefs; k > 0 && c->defs[k - 1].item == c->n; --k) {
            c->defs[k - 1].flags |= NW_ID_STATED;
        }
        ++r->line;
    }
}

/* A keyword inside a chunk: an item of its text, or a change of line. */
static void read_item(struct reader *r, const char *buf) {
    const char *rest = NULL;
    if (keyword(buf, "@text", &rest)) {
        add_item(r->cur, NW_TEXT, rest, r->line);
    } else if (keyword(buf, "@nl", &rest)) {
        add_item(r->cur, NW_NL, NULL, r->line);
        ++r->line;
    } else if (keyword(buf, "@use", &rest)) {
        add_item(r->cur, NW_USE, rest, r->line);
    } else if (keyword(buf, "@quote", &rest)) {
        add_item(r->cur, NW_QUOTE, NULL, r->line);
    } else if (keyword(buf, "@endquote", &rest)) {
        add_item(r->cur, NW_ENDQUOTE, NULL, r->line);
    } else if (keyword(buf, "@index", &rest)) {
        read_index(r, rest);
    } else if (keyword(buf, "@line", &rest)) {
        char *end = NULL;
        errno = 0;
        long n = strtol(rest, &end, 10);
        if (errno == 0 && end != rest && n > 0) {
            r->line = n;
        }
    }
    /* Other keywords (@xref, @language, ...) are not needed. */
}

/* One line of the pipeline. Returns 0, or -1 with err written. */
static int read_line(struct reader *r, const char *buf) {
    const char *rest = NULL;
    if (keyword(buf, "@file", &rest)) {
        free(r->doc->file);
        r->doc->file = nw_xstrdup(rest);
        r->line = 1;
    } else if (keyword(buf, "@begin", &rest)) {
        if (r->cur != NULL) {
            return fail(r, r->line,
                        "malformed pipeline: @begin inside a chunk");
        }
        r->cur = new_chunk(r->doc, strncmp(rest, "code", 4) == 0);
    } else if (keyword(buf, "@end", &rest)) {
        if (r->cur != NULL && r->cur->is_code && r->cur->name == NULL) {
            return fail(r, r->line,
                        "malformed pipeline: a code chunk without @defn");
        }
        r->cur = NULL;
    } else if (keyword(buf, "@fatal", &rest)) {
        /* markup has said what is wrong on stderr already; it writes this
         * between chunks, at the end of what it could read. */
        r->err[0] = '\0';
        return -1;
    } else if (r->cur == NULL) {
        /* Keywords between chunks (@language, @index, ...) carry nothing
         * the book uses. */
    } else if (keyword(buf, "@defn", &rest)) {
        return read_defn(r, rest);
    } else {
        read_item(r, buf);
    }
    return 0;
}

/* ----------------------------------------------------------------- */
/* The index: every chunk name, in a hash table, with the index of its
 * first piece and the code chunks that use it; and each chunk's file
 * roots, once they have been asked for. */

struct nw_name {
    const char *name; /* the chunk's own (or a user's item's) string */
    long first;       /* its first piece, or -1 where it has none */
    size_t *users, nusers, cap;
};

struct nw_index {
    struct nw_name *slot;
    size_t nslots;
    size_t **roots; /* per chunk: its roots, once asked for */
    size_t *nroots;
    unsigned char *known;
};

static size_t name_hash(const char *s) {
    size_t h = 1469598103934665603u;
    for (; *s; ++s) {
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    }
    return h;
}

/* The slot of name, new (first -1, no users) where add says so, or NULL. */
static struct nw_name *name_slot(struct nw_index *x, const char *name, int add) {
    for (size_t i = name_hash(name) & (x->nslots - 1);; i = (i + 1) & (x->nslots - 1)) {
        struct nw_name *e = &x->slot[i];
        if (e->name == NULL) {
            if (!add) {
                return NULL;
            }
            e->name = name;
            e->first = -1;
            return e;
        }
        if (strcmp(e->name, name) == 0) {
            return e;
        }
    }
}

static void build_index(struct nw_doc *doc) {
    struct nw_index *x = nw_xcalloc(1, sizeof *x);
    size_t names = 1;
    for (size_t i = 0; i < doc->n; ++i) {
        names += 1 + doc->chunks[i].n;
    }
    for (x->nslots = 16; x->nslots < 2 * names; x->nslots *= 2) {
    }
    x->slot = nw_xcalloc(x->nslots, sizeof *x->slot);
    for (size_t i = 0; i < doc->n; ++i) {
        const struct nw_chunk *c = &doc->chunks[i];
        if (!c->is_code || c->name == NULL) {
            continue;
        }
        struct nw_name *e = name_slot(x, c->name, 1);
        if (e->first < 0) {
            e->first = (long)i;
        }
        for (size_t j = 0; j < c->n; ++j) {
            if (c->items[j].kind != NW_USE) {
                continue;
            }
            struct nw_name *u = name_slot(x, c->items[j].s, 1);
            if (u->nusers > 0 && u->users[u->nusers - 1] == i) {
                continue;
            }
            if (u->nusers == u->cap) {
                u->cap = u->cap ? 2 * u->cap : 4;
                u->users = nw_xrealloc(u->users, u->cap * sizeof *u->users);
            }
            u->users[u->nusers++] = i;
        }
    }
    x->roots = nw_xcalloc(doc->n + 1, sizeof *x->roots);
    x->nroots = nw_xcalloc(doc->n + 1, sizeof *x->nroots);
    x->known = nw_xcalloc(doc->n + 1, 1);
    doc->index = x;
}

static void free_index(struct nw_doc *doc) {
    struct nw_index *x = doc->index;
    if (x == NULL) {
        return;
    }
    for (size_t i = 0; i < x->nslots; ++i) {
        free(x->slot[i].users);
    }
    for (size_t i = 0; i < doc->n; ++i) {
        free(x->roots[i]);
    }
    free(x->slot);
    free(x->roots);
    free(x->nroots);
    free(x->known);
    free(x);
    doc->index = NULL;
}

int nw_read(FILE *in, struct nw_doc *doc, char *err, size_t errlen) {
    memset(doc, 0, sizeof *doc);
    struct reader r = {doc, NULL, 1, err, errlen};
    char *buf = NULL;
    size_t cap = 0;
    ssize_t len;
    int status = 0;
    while (status == 0 && (len = getline(&buf, &cap, in)) != -1) {
        if (len > 0 && buf[len - 1] == '\n') {
            buf[--len] = '\0';
        }
        if ((size_t)len != strlen(buf)) {
            status = fail(&r, r.line,
                          "a NUL byte in the text; a chapter is UTF-8 text");
        } else {
            status = read_line(&r, buf);
        }
    }
    if (status == 0 && r.cur != NULL && r.cur->is_code && r.cur->name == NULL) {
        status = fail(&r, r.line,
                      "malformed pipeline: a code chunk without @defn");
    }
    if (status == 0 && ferror(in)) {
        status = fail(&r, 0, "cannot read the pipeline");
    }
    free(buf);
    doc->lines = r.line - 1;
    if (status == 0) {
        build_index(doc);
    }
    return status;
}

int nw_load(FILE *in, struct nw_doc *doc) {
    char err[1024];
    if (nw_read(in, doc, err, sizeof err) != 0) {
        if (err[0] != '\0') {
            nw_error(NULL, 0, "%s", err);
        }
        nw_free(doc);
        return -1;
    }
    return 0;
}

void nw_free(struct nw_doc *doc) {
    free_index(doc);
    for (size_t i = 0; i < doc->n; ++i) {
        struct nw_chunk *c = &doc->chunks[i];
        for (size_t j = 0; j < c->n; ++j) {
            free(c->items[j].s);
        }
        free(c->items);
        free(c->name);
        for (size_t j = 0; j < c->ndefs; ++j) {
            free(c->defs[j].name);
        }
        for (size_t j = 0; j < c->nuses; ++j) {
            free(c->uses[j].name);
        }
        free(c->defs);
        free(c->uses);
    }
    free(doc->chunks);
    free(doc->file);
    memset(doc, 0, sizeof *doc);
}

long nw_find_defn(const struct nw_doc *doc, const char *name, size_t from) {
    if (from == 0) {
        const struct nw_name *e = name_slot(doc->index, name, 0);
        return e != NULL ? e->first : -1;
    }
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

int nw_chunk_uses(const struct nw_chunk *c, const char *name) {
    if (!c->is_code) {
        return 0;
    }
    for (size_t j = 0; j < c->n; ++j) {
        if (c->items[j].kind == NW_USE && strcmp(c->items[j].s, name) == 0) {
            return 1;
        }
    }
    return 0;
}

int nw_is_used(const struct nw_doc *doc, const char *name) {
    const struct nw_name *e = name_slot(doc->index, name, 0);
    return e != NULL && e->nusers > 0;
}

static void roots_of(const struct nw_doc *doc, const char *name, char *seen,
                     int depth) {
    if (depth > 64) {
        return; /* a cycle; chapter-meta reports it */
    }
    const struct nw_name *e = name_slot(doc->index, name, 0);
    for (size_t k = 0; e != NULL && k < e->nusers; ++k) {
        const struct nw_chunk *u = &doc->chunks[e->users[k]];
        long first = nw_find_defn(doc, u->name, 0);
        if (first < 0 || seen[first]) {
            continue;
        }
        if (nw_is_file_name(u->name) && !nw_is_used(doc, u->name)) {
            seen[first] = 1;
        } else {
            seen[first] = 2; /* visited */
            roots_of(doc, u->name, seen, depth + 1);
        }
    }
}

void nw_roots_of(const struct nw_doc *doc, const char *name, char *seen) {
    roots_of(doc, name, seen, 0);
}

const size_t *nw_chunk_roots(const struct nw_doc *doc, size_t c, size_t *n) {
    struct nw_index *x = doc->index;
    if (!x->known[c]) {
        char *seen = nw_xcalloc(doc->n + 1, 1);
        const char *name = doc->chunks[c].name;
        if (nw_is_file_name(name) && !nw_is_used(doc, name)) {
            seen[nw_find_defn(doc, name, 0)] = 1;
        } else {
            nw_roots_of(doc, name, seen);
        }
        for (size_t i = 0; i < doc->n; ++i) {
            if (seen[i] == 1) {
                x->roots[c] = nw_xrealloc(x->roots[c], (x->nroots[c] + 1) * sizeof **x->roots);
                x->roots[c][x->nroots[c]++] = i;
            }
        }
        free(seen);
        x->known[c] = 1;
    }
    *n = x->nroots[c];
    return x->roots[c];
}

size_t nw_quote_end(const struct nw_chunk *c, size_t j) {
    size_t end = j + 1;
    while (end < c->n && c->items[end].kind != NW_ENDQUOTE) {
        ++end;
    }
    return end;
}

size_t nw_quote_cite(const struct nw_chunk *c, size_t j, size_t end) {
    size_t use = 0;
    for (size_t k = j + 1; k < end; ++k) {
        const struct nw_item *q = &c->items[k];
        if (q->kind == NW_USE && use == 0) {
            use = k;
        } else if (q->kind != NW_TEXT || q->s[strspn(q->s, " ")] != '\0') {
            return 0;
        }
    }
    return use;
}
