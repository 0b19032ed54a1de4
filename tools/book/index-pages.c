/* index-pages: the book's three index pages, in Pandoc Markdown.
 *
 * Usage:
 *   index-pages labels SNIPPETS REGISTRY SRCDIR META...   > labels.md
 *   index-pages revision REGISTRY LABEL N META...   > LABEL@N.md
 *   index-pages chunks META... -- PIPE...         > chunks.md
 *   index-pages identifiers META... -- PIPE...    > identifiers.md
 *   index-pages xref META... -- PIPE...           > a table, for tests
 *   index-pages cite SNIPPETS REGISTRY BUILD LABEL BASE META...
 *
 * labels: one entry per snippet label of build/snippets.tsv (label,
 * chapter, file, first, last, url, revision), by name. The entry's id is the label
 * itself, so labels.html#blelloch-sweeps is the address a lesson links to;
 * the entry names the chapter, links the chunk on the chapter's page and the
 * tangled file, gives the lines, and shows the first lines of the code from
 * SRCDIR/FILE, numbered as in that file. A label the registry
 * (chapters/labels.tsv) marks retired has an entry too, with the old label
 * as its id, so that labels.html#OLD still resolves: it says what replaced
 * it, links that label's entry, and links the old address on its chapter's
 * page, which lands at the replacement's code (chapter-md). Each entry
 * names the label's revisions, as the registry records them, with their
 * dates, and links the page of each earlier one's code, and its code for a
 * slide (snippets table -o writes snippets/LABEL.cu).
 *
 * revision: the page of the code of an earlier revision N of a label,
 * LABEL@N.html, as the registry keeps it (chapters/labels/LABEL@N.cu):
 * its date, the label's entry and its code now, and the code, whole.
 *
 * chunks: one entry per chunk name of every chapter: the chapter, its
 * pieces, the chunks that use it, the files it is tangled into, and its
 * first lines. The entries are grouped by chapter, in the book's order,
 * under a heading whose id is the chapter's name, and by name within it;
 * each chapter opens with a row of the initial letters of its chunks, each
 * linking to the first chunk of that letter. The letters are the chapter's
 * and not the book's: a reader looks for a chunk of the chapter being read,
 * and a letter of the whole book could lead to one chapter's chunks only.
 * An entry's id is CHAPTER--ANCHOR.
 *
 * identifiers: one entry per identifier of every chapter (tools/lib/xref.h:
 * what noweb's filters and the chapters' @ %def lines define), grouped by
 * chapter and by name within it as chunks are, with a row of initials: its
 * kind, the chunks that define it (with their files, where the chapter
 * tangles several), the chunks that use it, and the other chapters that
 * define the name, each with an entry of its own. An entry's id is
 * CHAPTER--NAME, where chapter-md's "Defines" links land. xref writes the
 * same as a table, CHAPTER NAME KIND DEFINING-ANCHORS USING-ANCHORS.
 *
 * cite: where a label lives, for make cite: its chapter, revision,
 * address (BASE/URL, or the page under BUILD/html where BASE is empty),
 * lines in its tangled file and its code for a slide; or, for a label the
 * registry retired, what replaced it. A label the book does not have is
 * said on stderr, with exit status 1.
 *
 * Each META is build/meta/CHAPTER.tsv (for the chapter's
 * title); chunks, identifiers and xref take each chapter's noweb pipeline,
 * build/meta/CHAPTER.nwpipe, after --, in the same order, so the structure
 * comes from noweb and never from the .nw text.
 *
 * Everything that comes from a chapter reaches the page escaped: names and
 * titles as Markdown text, code in fenced blocks longer than any fence in
 * it, addresses percent-encoded.
 */
#define _POSIX_C_SOURCE 200809L
#include "escape.h"
#include "meta.h"
#include "names.h"
#include "noweb.h"
#include "util.h"
#include "xref.h"

#include <ctype.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

static const char kTool[] = "index-pages";

/* Lines of code shown in an entry: enough to recognise the code, short
 * enough that the index stays a list. */
enum { kLabelExcerpt = 8, kChunkExcerpt = 4 };

/* ----------------------------------------------------------------- */
/* Escaping                                                            */

/* An identifier pandoc takes in {#...}: letters, digits, - _ . and the
 * rest as '-'. */
static void put_ident(const char *s) {
    for (; *s; ++s) {
        unsigned char c = (unsigned char)*s;
        putchar(isalnum(c) || c == '-' || c == '_' || c == '.' ? c : '-');
    }
}

/* The title of the chapter named name, or NULL where it is none. */
static const char *title_of(const struct nw_book *book, const char *name) {
    const struct nw_chapter *ch = nw_book_find(book, name);
    return ch ? ch->title : NULL;
}

/* Order names as a reader looks them up: case and leading punctuation do
 * not count. */
static int name_cmp(const char *a, const char *b) {
    while (*a && !isalnum((unsigned char)*a)) {
        ++a;
    }
    while (*b && !isalnum((unsigned char)*b)) {
        ++b;
    }
    for (; *a && *b; ++a, ++b) {
        int ca = tolower((unsigned char)*a), cb = tolower((unsigned char)*b);
        if (ca != cb) {
            return ca - cb;
        }
    }
    return (unsigned char)*a - (unsigned char)*b;
}

/* ----------------------------------------------------------------- */
/* labels                                                              */

struct label {
    char *label, *chapter, *file, *url;
    long first, last;
    long revision;     /* the revision its code is of */
    long line;         /* in SNIPPETS */
    char *replaced_by; /* a retired label's replacement; else NULL */
    const struct nw_label *reg; /* its line in the registry, or NULL */
};

static int label_cmp(const void *a, const void *b) {
    const struct label *x = a, *y = b;
    return strcmp(x->label, y->label);
}

static long to_line(const char *s) {
    if (s == NULL || *s == '\0') {
        return -1;
    }
    char *end = NULL;
    long v = strtol(s, &end, 10);
    return (*end == '\0' && v > 0) ? v : -1;
}

/* Lines first..first+count-1 of a file, each ending in a newline. */
static char *file_lines(const char *path, long first, long count) {
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        return NULL;
    }
    struct nw_buf b = {NULL, 0, 0};
    nw_buf_puts(&b, "");
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    long no = 0;
    while ((len = getline(&line, &cap, f)) != -1) {
        ++no;
        if (no < first) {
            continue;
        }
        if (no >= first + count) {
            break;
        }
        nw_buf_add(&b, line, (size_t)len);
        if (len == 0 || line[len - 1] != '\n') {
            nw_buf_puts(&b, "\n");
        }
    }
    free(line);
    fclose(f);
    return b.s;
}

/* The labels of build/snippets.tsv. */
struct labels {
    struct label *v;
    size_t n, cap;
};

/* A line of SNIPPETS, split into its n fields: a label of a chapter of
 * the book, or -1 having said what is wrong with it. */
static int snippet_line(struct labels *ls, char **fld, int n,
                        const struct nw_book *book, const char *path,
                        long lineno) {
    long first = n == 7 ? to_line(fld[3]) : -1;
    long last = n == 7 ? to_line(fld[4]) : -1;
    if (n != 7 || first < 0 || last < first || !nw_is_label(fld[0]) ||
        !nw_is_file_name(fld[2]) || title_of(book, fld[1]) == NULL ||
        to_line(fld[6]) < 0) {
        nw_error(path, lineno,
                 "not a snippet line of a chapter of the book "
                 "(label, chapter, file, first, last, url, revision)");
        return -1;
    }
    ls->v = nw_grow(ls->v, &ls->cap, ls->n + 1, sizeof *ls->v);
    struct label *l = &ls->v[ls->n++];
    l->label = nw_xstrdup(fld[0]);
    l->chapter = nw_xstrdup(fld[1]);
    l->file = nw_xstrdup(fld[2]);
    l->url = nw_xstrdup(fld[5]);
    l->first = first;
    l->last = last;
    l->revision = to_line(fld[6]);
    l->line = lineno;
    l->replaced_by = NULL;
    l->reg = NULL;
    return 0;
}

struct snippets_reader {
    struct labels *ls;
    const struct nw_book *book;
    const char *path;
    int status;
};

static int each_snippet_line(void *ctx, char *line, long lineno) {
    struct snippets_reader *r = ctx;
    if (lineno == 1 && strncmp(line, "label\t", 6) == 0) {
        return 0; /* the header */
    }
    char *fld[8];
    int n = nw_split_tabs(line, fld, 8);
    r->status |= snippet_line(r->ls, fld, n, r->book, r->path, lineno);
    return 0;
}

/* Reads SNIPPETS, every line that is wrong said on stderr; returns 0, or
 * -1 where one was. */
static int read_snippets(struct labels *ls, const char *path,
                         const struct nw_book *book) {
    struct snippets_reader r = {ls, book, path, 0};
    if (nw_each_line(path, NULL, each_snippet_line, &r) != 0) {
        return -1;
    }
    return r.status;
}

/* The revisions of a label's code, for its entry: its last, and a link to
 * the page of each earlier one. Nothing where the registry has none. */
static void put_revisions(const struct nw_label *r) {
    if (r == NULL || r->nrevs == 0) {
        return;
    }
    const struct nw_revision *last = &r->revs[r->nrevs - 1];
    printf("Revision %d, of %s", last->n, last->date);
    for (size_t k = r->nrevs - 1; k-- > 0;) {
        printf("%s[revision %d](%s@%d.html), of %s",
               k + 2 == r->nrevs ? "; the code lessons cited before: " : ", ",
               r->revs[k].n, r->label, r->revs[k].n, r->revs[k].date);
    }
    printf(".\n\n");
}

/* A retired label's entry: what replaced it, and its old address. */
static void put_retired(const struct label *l, const struct nw_book *book) {
    const char *title = title_of(book, l->chapter);
    printf("::: {#%s .entry .label-entry}\n[%s](", l->label, l->label);
    if (title != NULL) {
        nw_put_url(stdout, l->chapter, "");
        printf(".html#%s", l->label);
    } else {
        printf("#%s", l->replaced_by);
    }
    printf("){.entry-name} [#](#%s){.permalink "
           "aria-label=\"Link to this entry\"}\n\n",
           l->label);
    printf("Retired: its code is now [%s](#%s)", l->replaced_by,
           l->replaced_by);
    if (title != NULL) {
        printf(", and its old address in [");
        nw_put_md_text(stdout, title, NW_MD_MARKS);
        printf("](");
        nw_put_url(stdout, l->chapter, "");
        printf(".html#%s) leads to that code", l->label);
    }
    printf(".\n\n");
    put_revisions(l->reg);
    printf(":::\n\n");
}

/* A label's entry: its name, where it is, and its first lines. */
static int put_label(const struct label *l, const char *snippets,
                     const char *srcdir, const struct nw_book *book) {
    if (l->replaced_by != NULL) {
        put_retired(l, book);
        return 0;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", srcdir, l->file);
    long lines = l->last - l->first + 1;
    long shown = lines > kLabelExcerpt ? kLabelExcerpt : lines;
    char *code = file_lines(path, l->first, shown);
    if (code == NULL) {
        nw_error(snippets, l->line, "cannot read %s for label %s", path,
                 l->label);
        return 1;
    }
    printf("::: {#%s .entry .label-entry}\n", l->label);
    printf("[%s](", l->label);
    nw_put_url(stdout, l->chapter, "");
    printf(".html#%s){.entry-name} [#](#%s){.permalink "
           "aria-label=\"Link to this entry\"}\n\n",
           l->label, l->label);
    printf("In [");
    nw_put_md_text(stdout, title_of(book, l->chapter), NW_MD_MARKS);
    printf("](");
    nw_put_url(stdout, l->chapter, "");
    printf(".html), [");
    nw_put_md_code(stdout, l->file);
    printf("](src/");
    nw_put_url(stdout, l->file, "");
    printf("){download=\"\"} lines %ld\xe2\x80\x93%ld; its code for a slide, "
           "[as a file]"
           "(snippets/%s.cu){.snippet download=\"\"} or [highlighted]"
           "(snippets/%s.html){.snippet}\n\n", l->first, l->last, l->label,
           l->label);
    put_revisions(l->reg);
    char attrs[64];
    snprintf(attrs, sizeof attrs,
             ".cpp .excerpt .numberLines startFrom=\"%ld\"", l->first);
    nw_put_code_block(stdout, attrs, code);
    putchar('\n');
    if (lines > shown) {
        printf("[\xe2\x80\xa6 %ld more line%s](", lines - shown,
               lines - shown == 1 ? "" : "s");
        nw_put_url(stdout, l->chapter, "");
        printf(".html#%s){.more}\n\n", l->label);
    }
    printf(":::\n\n");
    free(code);
    return 0;
}

/* Adds the registry's retired labels to ls, and gives each label its
 * line of the registry, reg. */
static void read_retired(struct labels *ls, const struct nw_labels *reg) {
    for (size_t i = 0; i < ls->n; ++i) {
        ls->v[i].reg = nw_labels_find(reg, ls->v[i].label);
    }
    for (size_t i = 0; i < reg->n; ++i) {
        if (reg->v[i].replaced_by == NULL) {
            continue;
        }
        ls->v = nw_grow(ls->v, &ls->cap, ls->n + 1, sizeof *ls->v);
        struct label *l = &ls->v[ls->n++];
        memset(l, 0, sizeof *l);
        l->label = nw_xstrdup(reg->v[i].label);
        l->chapter = nw_xstrdup(reg->v[i].chapter);
        l->replaced_by = nw_xstrdup(reg->v[i].replaced_by);
        l->line = reg->v[i].line;
        l->reg = &reg->v[i];
    }
}

static void free_labels(struct labels *ls) {
    for (size_t i = 0; i < ls->n; ++i) {
        free(ls->v[i].label);
        free(ls->v[i].chapter);
        free(ls->v[i].file);
        free(ls->v[i].url);
        free(ls->v[i].replaced_by);
    }
    free(ls->v);
}

static int cmd_labels(const char *snippets, const char *registry,
                      const char *srcdir, const struct nw_book *book) {
    struct labels ls = {NULL, 0, 0};
    struct nw_labels reg = {NULL, 0, 0};
    int status = read_snippets(&ls, snippets, book) != 0;
    status |= nw_labels_from_registry(&reg, registry) != 0;
    read_retired(&ls, &reg);
    if (ls.n > 1) {
        qsort(ls.v, ls.n, sizeof *ls.v, label_cmp);
    }
    printf("---\ntitle: Snippet labels\n...\n\n");
    printf("Every snippet label of the book, by name. A label is a public "
           "name for a piece of code: lessons link to its entry here, and "
           "the entry leads to the code in its chapter and to its lines in "
           "the file it is tangled into. The [chunk index](chunks.html) "
           "lists every chunk, labelled or not.\n\n");
    if (ls.n == 0) {
        printf("The book has no snippet labels yet.\n");
    }
    for (size_t i = 0; i < ls.n && status == 0; ++i) {
        status = put_label(&ls.v[i], snippets, srcdir, book);
    }
    free_labels(&ls);
    nw_labels_free(&reg);
    return status;
}

/* Where label lives, as make cite prints it. */
static int cmd_cite(const char *snippets, const char *registry,
                    const char *build, const char *label, const char *base,
                    const struct nw_book *book) {
    struct labels ls = {NULL, 0, 0};
    struct nw_labels reg = {NULL, 0, 0};
    int status = read_snippets(&ls, snippets, book) != 0;
    status |= nw_labels_from_registry(&reg, registry) != 0;
    const struct label *l = NULL;
    for (size_t i = 0; i < ls.n && l == NULL; ++i) {
        if (strcmp(ls.v[i].label, label) == 0) {
            l = &ls.v[i];
        }
    }
    const struct nw_label *r = l == NULL ? nw_labels_find(&reg, label) : NULL;
    if (status != 0) {
        /* said */
    } else if (l != NULL) {
        printf("%s\n  chapter  chapters/%s.nw\n  revision %ld\n", l->label,
               l->chapter, l->revision);
        if (*base != '\0') {
            printf("  url      %s/%s\n", base, l->url);
        } else {
            printf("  url      %s/html/%s (local: BASE_URL= says where "
                   "build/html is published)\n", build, l->url);
        }
        printf("  file     %s/src/%s, lines %ld-%ld\n", build, l->file,
               l->first, l->last);
        printf("  snippet  %s/html/snippets/%s.cu\n", build, l->label);
        printf("  fragment %s/html/snippets/%s.html\n", build, l->label);
    } else if (r != NULL && r->replaced_by != NULL) {
        printf("%s is retired; it is now %s\n", r->label, r->replaced_by);
    } else {
        fprintf(stderr, "make cite: no label '%s' in the book (see %s)\n",
                label, snippets);
        status = 1;
    }
    free_labels(&ls);
    nw_labels_free(&reg);
    return status;
}

/* The page of revision n of label: its date, where the label is now, and
 * its code as kept. */
static int cmd_revision(const char *registry, const char *label,
                        const char *n_text, const struct nw_book *book) {
    struct nw_labels reg = {NULL, 0, 0};
    if (nw_labels_from_registry(&reg, registry) != 0) {
        return 1;
    }
    const struct nw_label *r = nw_labels_find(&reg, label);
    long n = to_line(n_text);
    int status = 1;
    if (r == NULL || n < 1 || (size_t)n >= r->nrevs) {
        char kept[4096];
        fprintf(stderr, "%s: %s keeps code of revision %s of %s, which the "
                "registry %s has no later revision of; restore the "
                "registry's lines, or remove the file\n", kTool,
                nw_kept_code(kept, sizeof kept, registry, label,
                             n > 0 && n < 1000000 ? (int)n : 0),
                n_text, label, registry);
    } else {
        char kept[4096];
        nw_kept_code(kept, sizeof kept, registry, label, (int)n);
        char *code = nw_slurp_text(kept);
        const struct nw_revision *v = &r->revs[n - 1];
        const char *title = title_of(book, r->chapter);
        if (code == NULL) {
            nw_error(kept, 0, "cannot read the code of revision %ld of %s", n,
                     label);
        } else {
            printf("---\ntitle: \"%s, revision %ld\"\n...\n\n", label, n);
            printf("The code of the snippet label [%s](labels.html#%s) as "
                   "its revision %ld published it, on %s, for the lessons "
                   "that cite it. ", label, label, n, v->date);
            if (r->replaced_by != NULL) {
                printf("The label is retired: its code is now "
                       "[%s](labels.html#%s).\n\n", r->replaced_by,
                       r->replaced_by);
            } else {
                printf("Its code now, revision %d of %s, is in [",
                       r->revs[r->nrevs - 1].n, r->revs[r->nrevs - 1].date);
                nw_put_md_text(stdout, title ? title : r->chapter,
                               NW_MD_MARKS);
                printf("](");
                nw_put_url(stdout, r->chapter, "");
                printf(".html#%s).\n\n", label);
            }
            nw_put_code_block(stdout, ".cpp .numberLines", code);
            free(code);
            status = 0;
        }
    }
    nw_labels_free(&reg);
    return status;
}

/* ----------------------------------------------------------------- */
/* chunks                                                              */

/* "By chapter:" and a link to each chapter's heading, for N entries of
 * SIZE bytes from ENTRIES, grouped by chapter, each holding its chapter's
 * pointer at OFFSET (the chunk and the identifier index both open so). */
static void put_chapter_links(const void *entries, size_t n, size_t size,
                              size_t offset) {
    const struct nw_chapter *last = NULL;
    printf("By chapter:");
    for (size_t i = 0; i < n; ++i) {
        const struct nw_chapter *ch;
        memcpy(&ch, (const char *)entries + i * size + offset, sizeof ch);
        if (i == 0 || ch != last) {
            printf("%s [", i ? "," : "");
            nw_put_md_text(stdout, ch->title, NW_MD_MARKS);
            printf("](#");
            put_ident(ch->name);
            printf(")");
        }
        last = ch;
    }
    printf(".\n\n");
}

struct entry {
    const struct nw_chapter *ch;
    const struct nw_doc *doc;
    const char *name;
    size_t first; /* index of its first piece in doc */
};

/* By chapter, in the book's order, then by name. */
static int entry_cmp(const void *a, const void *b) {
    const struct entry *x = a, *y = b;
    if (x->ch != y->ch) {
        return x->ch < y->ch ? -1 : 1;
    }
    int c = name_cmp(x->name, y->name);
    if (c == 0) {
        c = strcmp(x->name, y->name);
    }
    if (c == 0) {
        c = strcmp(x->ch->name, y->ch->name);
    }
    return c;
}

static void put_chunk_link(const struct nw_chapter *ch, const char *name,
                           int piece, const char *text) {
    char anchor[NW_ANCHOR_MAX];
    nw_anchor(name, piece, anchor, sizeof anchor);
    printf("[");
    if (text != NULL) {
        fputs(text, stdout);
    } else {
        fputs("\xe2\x9f\xa8", stdout);
        nw_put_md_text(stdout, name, NW_MD_MARKS);
        fputs("\xe2\x9f\xa9", stdout);
    }
    printf("](");
    nw_put_url(stdout, ch->name, "");
    printf(".html#");
    nw_put_url(stdout, anchor, "");
    printf(")");
}

/* The first lines of a chunk's first piece, references as ⟨name⟩. */
static char *chunk_excerpt(const struct nw_chunk *c, int lines, int *more) {
    struct nw_buf b = {NULL, 0, 0};
    nw_buf_puts(&b, "");
    int shown = 0, total = 0, at_start = 1;
    for (size_t j = 0; j < c->n; ++j) {
        const struct nw_item *it = &c->items[j];
        if (it->kind == NW_NL) {
            if (j == 0) {
                continue; /* the header line's newline */
            }
            if (total < lines) {
                nw_buf_puts(&b, "\n");
                ++shown;
            }
            ++total;
            at_start = 1;
            continue;
        }
        if (total >= lines) {
            at_start = 0;
            continue;
        }
        if (it->kind == NW_TEXT) {
            nw_buf_puts(&b, it->s);
        } else if (it->kind == NW_USE) {
            nw_buf_puts(&b, "\xe2\x9f\xa8");
            nw_buf_puts(&b, it->s);
            nw_buf_puts(&b, "\xe2\x9f\xa9");
        }
        at_start = 0;
    }
    if (!at_start) {
        if (total < lines) {
            nw_buf_puts(&b, "\n");
            ++shown;
        }
        ++total;
    }
    *more = total - shown;
    return b.s;
}

/* The chunks that use the entry's chunk: " Used in A, B." */
static void put_users(const struct entry *e) {
    const struct nw_doc *doc = e->doc;
    int users = 0;
    for (size_t i = 0; i < doc->n; ++i) {
        const struct nw_chunk *u = &doc->chunks[i];
        if (u->name != NULL && nw_chunk_uses(u, e->name)) {
            fputs(users++ ? ", " : " Used in ", stdout);
            put_chunk_link(e->ch, u->name, u->piece, NULL);
        }
    }
    fputs(users ? "." : "", stdout);
}

/* The files the entry's chunk is tangled into, or the file it is. */
static void put_files(const struct entry *e) {
    const struct nw_doc *doc = e->doc;
    if (nw_is_file_name(e->name) && !nw_is_used(doc, e->name)) {
        printf(" The file [");
        nw_put_md_code(stdout, e->name);
        printf("](src/");
        nw_put_url(stdout, e->name, "");
        printf("){download=\"\"}.\n\n");
        return;
    }
    char *seen = nw_xcalloc(doc->n, 1);
    nw_roots_of(doc, e->name, seen);
    int files = 0;
    for (size_t i = 0; i < doc->n; ++i) {
        if (seen[i] == 1) {
            fputs(files++ ? ", [" : " Tangled into [", stdout);
            nw_put_md_code(stdout, doc->chunks[i].name);
            printf("](src/");
            nw_put_url(stdout, doc->chunks[i].name, "");
            printf("){download=\"\"}");
        }
    }
    fputs(files > 0 ? ".\n\n" : "\n\n", stdout);
    free(seen);
}

/* An entry's id: CHAPTER--ANCHOR. */
static void put_entry_id(const struct entry *e) {
    char anchor[NW_ANCHOR_MAX];
    nw_anchor(e->name, 1, anchor, sizeof anchor);
    put_ident(e->ch->name);
    printf("--");
    put_ident(anchor);
}

/* The letter a name is looked up by (as name_cmp orders it), or 0. */
static int initial(const char *name) {
    while (*name && !isalnum((unsigned char)*name)) {
        ++name;
    }
    return toupper((unsigned char)*name);
}

/* A chapter's heading and the row of its chunks' initials, es[0..n) being
 * its entries. */
static void put_chapter_head(const struct entry *es, size_t n) {
    const struct nw_chapter *ch = es[0].ch;
    printf("## ");
    nw_put_md_text(stdout, ch->title, NW_MD_MARKS);
    printf(" {#");
    put_ident(ch->name);
    printf("}\n\n::: {.letters}\n");
    int last = 0;
    for (size_t i = 0; i < n; ++i) {
        int c = initial(es[i].name);
        if (c != last && c != 0) {
            printf("%s[%c](#", last ? " " : "", c);
            put_entry_id(&es[i]);
            printf(")");
            last = c;
        }
    }
    printf("\n:::\n\n");
}

static void put_entry(const struct entry *e) {
    printf("::: {#");
    put_entry_id(e);
    printf(" .entry .chunk-entry}\n");
    put_chunk_link(e->ch, e->name, 1, NULL);
    printf("{.entry-name}");
    if (nw_is_label(e->name)) {
        printf(" [label](labels.html#%s){.badge}", e->name);
    }
    printf("\n\nIn [");
    nw_put_md_text(stdout, e->ch->title, NW_MD_MARKS);
    printf("](");
    nw_put_url(stdout, e->ch->name, "");
    printf(".html)");
    int pieces = nw_pieces(e->doc, e->name);
    if (pieces > 1) {
        printf(", in %d pieces:", pieces);
        for (int k = 1; k <= pieces; ++k) {
            char num[32];
            snprintf(num, sizeof num, "%d", k);
            printf(" ");
            put_chunk_link(e->ch, e->name, k, num);
        }
    }
    printf(".");
    put_users(e);
    put_files(e);
    int more = 0;
    char *code = chunk_excerpt(&e->doc->chunks[e->first], kChunkExcerpt, &more);
    if (code[0] != '\0') {
        nw_put_code_block(stdout, ".cpp .excerpt", code);
        putchar('\n');
    }
    if (more > 0) {
        char text[64];
        snprintf(text, sizeof text, "\xe2\x80\xa6 %d more line%s", more,
                 more == 1 ? "" : "s");
        put_chunk_link(e->ch, e->name, 1, text);
        printf("{.more}\n\n");
    }
    free(code);
    printf(":::\n\n");
}

static int cmd_chunks(const struct nw_book *book, const struct nw_doc *docs) {
    struct entry *es = NULL;
    size_t n = 0, cap = 0;
    for (size_t k = 0; k < book->n; ++k) {
        const struct nw_doc *doc = &docs[k];
        for (size_t i = 0; i < doc->n; ++i) {
            const struct nw_chunk *c = &doc->chunks[i];
            if (!c->is_code || c->name == NULL || c->piece != 1) {
                continue;
            }
            es = nw_grow(es, &cap, n + 1, sizeof *es);
            es[n].ch = &book->v[k];
            es[n].doc = doc;
            es[n].name = c->name;
            es[n].first = i;
            ++n;
        }
    }
    if (n > 1) {
        qsort(es, n, sizeof *es, entry_cmp);
    }
    printf("---\ntitle: Chunks\n...\n\n");
    printf("Every named chunk of the book's code, by chapter and by name "
           "within it, with its pieces, the chunks that use it and the files "
           "it is tangled into. A name in \xe2\x9f\xa8"
           "angle brackets\xe2\x9f\xa9 leads to the code on its chapter's "
           "page. Snippet labels, the names lessons cite, have [an index of "
           "their own](labels.html)."
           "\n\n");
    if (n == 0) {
        printf("The book has no chunks yet.\n");
    } else {
        put_chapter_links(es, n, sizeof *es, offsetof(struct entry, ch));
    }
    for (size_t i = 0; i < n; ++i) {
        if (i == 0 || es[i].ch != es[i - 1].ch) {
            size_t end = i + 1;
            while (end < n && es[end].ch == es[i].ch) {
                ++end;
            }
            put_chapter_head(&es[i], end - i);
        }
        put_entry(&es[i]);
    }
    free(es);
    return 0;
}

/* ----------------------------------------------------------------- */
/* identifiers                                                         */

struct ident {
    const struct nw_chapter *ch;
    const struct nw_doc *doc;
    const struct nw_xentry *e;
};

/* By chapter, in the book's order, then by name. */
static int ident_cmp(const void *a, const void *b) {
    const struct ident *x = a, *y = b;
    if (x->ch != y->ch) {
        return x->ch < y->ch ? -1 : 1;
    }
    int c = name_cmp(x->e->name, y->e->name);
    return c != 0 ? c : strcmp(x->e->name, y->e->name);
}

/* Every chapter's identifiers, sorted; *n of them. */
static struct ident *all_idents(const struct nw_book *book,
                                const struct nw_xref *xs, size_t *n) {
    struct ident *v = NULL;
    size_t cap = 0;
    *n = 0;
    for (size_t k = 0; k < book->n; ++k) {
        for (size_t i = 0; i < xs[k].n; ++i) {
            v = nw_grow(v, &cap, *n + 1, sizeof *v);
            v[*n].ch = &book->v[k];
            v[*n].doc = NULL;
            v[*n].e = &xs[k].v[i];
            ++*n;
        }
    }
    if (*n > 1) {
        qsort(v, *n, sizeof *v, ident_cmp);
    }
    return v;
}

/* An identifier's id on identifiers.html: CHAPTER--NAME. */
static void put_ident_id(const struct ident *d) {
    char *href = nw_ident_href(d->ch->name, d->e->name);
    fputs(strchr(href, '#') + 1, stdout);
    free(href);
}

/* The chunk at index c of doc, as a link to its piece's anchor. */
static void put_piece_link(const struct nw_chapter *ch,
                           const struct nw_doc *doc, size_t c) {
    put_chunk_link(ch, doc->chunks[c].name, doc->chunks[c].piece, NULL);
}

/* The files the chunk at index c is tangled into, as " (in a.cu, b.cu)",
 * where the chapter tangles more than one file. */
static void put_piece_files(const struct nw_doc *doc, size_t c) {
    int roots = 0;
    for (size_t i = 0; i < doc->n; ++i) {
        const struct nw_chunk *r = &doc->chunks[i];
        roots += r->is_code && r->piece == 1 && nw_is_file_name(r->name) &&
                 !nw_is_used(doc, r->name);
    }
    size_t n;
    const size_t *files = nw_chunk_roots(doc, c, &n);
    for (size_t k = 0; k < n && roots > 1; ++k) {
        fputs(k ? ", " : " (in ", stdout);
        nw_put_md_code(stdout, doc->chunks[files[k]].name);
    }
    fputs(n > 0 && roots > 1 ? ")" : "", stdout);
}

/* The other chapters that define d's name. */
static void put_elsewhere(const struct ident *d, const struct ident *all,
                          size_t n) {
    int others = 0;
    for (size_t i = 0; i < n; ++i) {
        if (all[i].ch == d->ch || strcmp(all[i].e->name, d->e->name) != 0) {
            continue;
        }
        fputs(others++ ? ", [" : " The name is defined also in [", stdout);
        nw_put_md_text(stdout, all[i].ch->title, NW_MD_MARKS);
        printf("](#");
        put_ident_id(&all[i]);
        printf(")");
    }
    fputs(others ? ", an entry of its own each.\n\n" : "\n\n", stdout);
}

static void put_ident_entry(const struct ident *d, const struct ident *all,
                            size_t n) {
    const struct nw_xentry *e = d->e;
    printf("::: {#");
    put_ident_id(d);
    printf(" .entry .ident-entry}\n[");
    nw_put_md_code(stdout, e->name);
    printf("](");
    nw_put_url(stdout, d->ch->name, "");
    char anchor[NW_ANCHOR_MAX];
    const struct nw_chunk *first = &d->doc->chunks[e->defs[0]];
    nw_anchor(first->name, first->piece, anchor, sizeof anchor);
    printf(".html#");
    nw_put_url(stdout, anchor, "");
    printf("){.entry-name}");
    if (e->kind != NULL) {
        printf(" [%s]{.ident-kind}", e->kind);
    }
    printf("\n\nDefined in");
    for (size_t k = 0; k < e->ndefs; ++k) {
        fputs(k ? ", " : " ", stdout);
        put_piece_link(d->ch, d->doc, e->defs[k]);
        put_piece_files(d->doc, e->defs[k]);
    }
    printf(".");
    if (e->nuses == 0) {
        printf(" Used in no other chunk.");
    }
    for (size_t k = 0; k < e->nuses; ++k) {
        fputs(k ? ", " : " Used in ", stdout);
        put_piece_link(d->ch, d->doc, e->uses[k]);
    }
    printf("%s", e->nuses ? "." : "");
    put_elsewhere(d, all, n);
    printf(":::\n\n");
}

static void put_ident_head(const struct ident *ds, size_t n) {
    const struct nw_chapter *ch = ds[0].ch;
    printf("## ");
    nw_put_md_text(stdout, ch->title, NW_MD_MARKS);
    printf(" {#");
    put_ident(ch->name);
    printf("}\n\n::: {.letters}\n");
    int last = 0;
    for (size_t i = 0; i < n; ++i) {
        int c = initial(ds[i].e->name);
        if (c != last && c != 0) {
            printf("%s[%c](#", last ? " " : "", c);
            put_ident_id(&ds[i]);
            printf(")");
            last = c;
        }
    }
    printf("\n:::\n\n");
}

/* identifiers.md: every chapter's identifiers, by chapter and by name. */
static int cmd_identifiers(const struct nw_book *book,
                           const struct nw_doc *docs,
                           const struct nw_xref *xs) {
    size_t n;
    struct ident *ds = all_idents(book, xs, &n);
    for (size_t i = 0; i < n; ++i) {
        ds[i].doc = &docs[ds[i].ch - book->v];
    }
    printf("---\ntitle: Identifiers\n...\n\n");
    printf("Every identifier the book's code defines, by chapter and by name "
           "within it: its kernels, functions, types, constants and macros, "
           "what kind each is, the chunks that define it and the chunks that "
           "use it. A name defined in two chapters has an entry in each, "
           "since each chapter's programs are its own. Under every chunk on "
           "a chapter's page the same is said the other way: what the chunk "
           "defines and uses, and in the code a use links to its "
           "definition. [Chunks](chunks.html) and [snippet "
           "labels](labels.html) have indexes of their own.\n\n");
    if (n == 0) {
        printf("The book defines no identifiers yet.\n");
    } else {
        put_chapter_links(ds, n, sizeof *ds, offsetof(struct ident, ch));
    }
    for (size_t i = 0; i < n; ++i) {
        if (i == 0 || ds[i].ch != ds[i - 1].ch) {
            size_t end = i + 1;
            while (end < n && ds[end].ch == ds[i].ch) {
                ++end;
            }
            put_ident_head(&ds[i], end - i);
        }
        put_ident_entry(&ds[i], ds, n);
    }
    free(ds);
    return 0;
}

/* The anchors of the chunks at indices v[0..n), blank-separated. */
static void put_anchors(const struct nw_doc *doc, const size_t *v, size_t n) {
    for (size_t k = 0; k < n; ++k) {
        char anchor[NW_ANCHOR_MAX];
        nw_anchor(doc->chunks[v[k]].name, doc->chunks[v[k]].piece, anchor,
                  sizeof anchor);
        printf("%s%s", k ? " " : "", anchor);
    }
}

/* The index as a table, for tests and for reading:
 * CHAPTER NAME KIND DEFINING-ANCHORS USING-ANCHORS, tab-separated. */
static int cmd_xref(const struct nw_book *book, const struct nw_doc *docs,
                    const struct nw_xref *xs) {
    for (size_t k = 0; k < book->n; ++k) {
        for (size_t i = 0; i < xs[k].n; ++i) {
            const struct nw_xentry *e = &xs[k].v[i];
            printf("%s\t%s\t%s\t", book->v[k].name, e->name,
                   e->kind ? e->kind : "-");
            put_anchors(&docs[k], e->defs, e->ndefs);
            putchar('\t');
            put_anchors(&docs[k], e->uses, e->nuses);
            putchar('\n');
        }
    }
    return 0;
}

/* The pipeline of each chapter, pipes[i] the i-th chapter's, into docs[].
 * Returns 0, or 1 having said why; what was read is in docs either way. */
static int read_pipes(char *const *pipes, const struct nw_book *book,
                      struct nw_doc *docs) {
    for (size_t i = 0; i < book->n; ++i) {
        FILE *f = fopen(pipes[i], "r");
        if (f == NULL) {
            nw_error(pipes[i], 0, "cannot read (the noweb pipeline of %s)",
                     book->v[i].name);
            return 1;
        }
        int status = nw_load(f, &docs[i]) != 0;
        fclose(f);
        if (status != 0) {
            return 1;
        }
    }
    return 0;
}

/* ----------------------------------------------------------------- */

int main(int argc, char **argv) {
    int labels = argc >= 2 && strcmp(argv[1], "labels") == 0;
    int revision = argc >= 2 && strcmp(argv[1], "revision") == 0;
    int chunks = argc >= 2 && (strcmp(argv[1], "chunks") == 0 ||
                                strcmp(argv[1], "identifiers") == 0 ||
                                strcmp(argv[1], "xref") == 0);
    int cite = argc >= 2 && strcmp(argv[1], "cite") == 0;
    int skip = cite ? 7 : labels || revision ? 5 : 2;
    /* chunks, identifiers and xref: META... -- PIPE..., as many of each */
    int nmeta = argc - skip, dashes = argc;
    for (int i = skip; chunks && i < argc; ++i) {
        if (strcmp(argv[i], "--") == 0) {
            dashes = i;
            nmeta = i - skip;
            break;
        }
    }
    if ((!labels && !revision && !chunks && !cite) || argc <= skip ||
        (chunks && (nmeta == 0 || argc - dashes - 1 != nmeta))) {
        fprintf(stderr,
                "usage: %s labels SNIPPETS REGISTRY SRCDIR META... > labels.md\n"
                "       %s revision REGISTRY LABEL N META... > LABEL@N.md\n"
                "       %s chunks META... -- PIPE... > chunks.md\n"
                "       %s identifiers META... -- PIPE... > identifiers.md\n"
                "       %s xref META... -- PIPE... > identifiers.tsv\n"
                "       %s cite SNIPPETS REGISTRY BUILD LABEL BASE META...\n",
                argv[0], argv[0], argv[0], argv[0], argv[0], argv[0]);
        return 2;
    }
    struct nw_book book;
    if (nw_book_read(&book, argv + skip, (size_t)nmeta) != 0) {
        return 1;
    }
    int status;
    if (labels) {
        status = cmd_labels(argv[2], argv[3], argv[4], &book);
    } else if (revision) {
        status = cmd_revision(argv[2], argv[3], argv[4], &book);
    } else if (cite) {
        status = cmd_cite(argv[2], argv[3], argv[4], argv[5], argv[6], &book);
    } else {
        struct nw_doc *docs = nw_xcalloc(book.n, sizeof *docs);
        status = read_pipes(argv + dashes + 1, &book, docs);
        struct nw_xref *xs = nw_xcalloc(book.n, sizeof *xs);
        for (size_t i = 0; i < book.n && status == 0; ++i) {
            nw_xref_build(&docs[i], &xs[i]);
        }
        if (status == 0 && argv[1][0] == 'c') {
            status = cmd_chunks(&book, docs);
        } else if (status == 0 && argv[1][0] == 'i') {
            status = cmd_identifiers(&book, docs, xs);
        } else if (status == 0) {
            status = cmd_xref(&book, docs, xs);
        }
        for (size_t i = 0; i < book.n; ++i) {
            nw_xref_free(&xs[i]);
            nw_free(&docs[i]);
        }
        free(xs);
        free(docs);
    }
    nw_book_free(&book);
    return status | nw_flush_stdout(kTool);
}
