/* nwcatalog: the book's two index pages, in Pandoc Markdown.
 *
 * Usage:
 *   nwcatalog labels SNIPPETS SRCDIR META...   > labels.md
 *   nwcatalog chunks META...                   > chunks.md
 *
 * labels: one entry per snippet label of build/snippets.tsv (label,
 * chapter, file, first, last, url), by name. The entry's id is the label
 * itself, so labels.html#blelloch-sweeps is the address a lesson links to;
 * the entry names the chapter, links the chunk on the chapter's page and the
 * tangled file, gives the lines, and shows the first lines of the code from
 * SRCDIR/FILE, numbered as in that file.
 *
 * chunks: one entry per chunk name of every chapter, by name: the chapter,
 * its pieces, the chunks that use it, the files it is tangled into, and its
 * first lines. Each META is build/meta/CHAPTER.tsv (for the chapter's
 * title); the chapter's noweb pipeline is read from CHAPTER.nwpipe beside
 * it, so the structure comes from noweb and never from the .nw text.
 *
 * Everything that comes from a chapter reaches the page escaped: names and
 * titles as Markdown text, code in fenced blocks longer than any fence in
 * it, addresses percent-encoded.
 */
#define _POSIX_C_SOURCE 200809L
#include "nwpipe.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

/* Lines of code shown in an entry: enough to recognise the code, short
 * enough that the index stays a list. */
enum { kLabelExcerpt = 8, kChunkExcerpt = 4 };

#define ANCHOR_MAX 300

struct chapter {
    char *name;  /* day32-scan */
    char *title; /* Day 32: The work-efficient scan */
};

/* ----------------------------------------------------------------- */
/* Escaping                                                            */

/* An address part: unreserved characters as they are, the rest as %XX. */
static void put_url(const char *s) {
    for (; *s; ++s) {
        unsigned char c = (unsigned char)*s;
        if (isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
            putchar(c);
        } else {
            printf("%%%02X", c);
        }
    }
}

/* An identifier pandoc takes in {#...}: letters, digits, - _ . and the
 * rest as '-'. */
static void put_ident(const char *s) {
    for (; *s; ++s) {
        unsigned char c = (unsigned char)*s;
        putchar(isalnum(c) || c == '-' || c == '_' || c == '.' ? c : '-');
    }
}

/* The title line of a META file. */
static int read_title(const char *meta, struct chapter *ch) {
    FILE *f = fopen(meta, "r");
    if (f == NULL) {
        fprintf(stderr, "%s: cannot read\n", meta);
        return -1;
    }
    ch->name = nw_chapter_of(meta);
    ch->title = NULL;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, f)) != -1) {
        if (len > 0 && line[len - 1] == '\n') {
            line[len - 1] = '\0';
        }
        if (strncmp(line, "title\t", 6) == 0 && ch->title == NULL) {
            ch->title = nw_xstrdup(line + 6);
        }
    }
    free(line);
    fclose(f);
    if (ch->title == NULL) {
        ch->title = nw_xstrdup(ch->name);
    }
    return 0;
}

static const char *title_of(const struct chapter *chs, size_t n,
                            const char *name) {
    for (size_t i = 0; i < n; ++i) {
        if (strcmp(chs[i].name, name) == 0) {
            return chs[i].title;
        }
    }
    return NULL;
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
    long line; /* in SNIPPETS */
};

static int label_cmp(const void *a, const void *b) {
    const struct label *x = a, *y = b;
    return strcmp(x->label, y->label);
}

static char *field(char **p) {
    char *s = *p;
    if (s == NULL) {
        return NULL;
    }
    char *tab = strchr(s, '\t');
    if (tab != NULL) {
        *tab = '\0';
        *p = tab + 1;
    } else {
        *p = NULL;
    }
    return s;
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

static int cmd_labels(const char *snippets, const char *srcdir,
                      const struct chapter *chs, size_t nch) {
    FILE *f = fopen(snippets, "r");
    if (f == NULL) {
        fprintf(stderr, "%s: cannot read\n", snippets);
        return 1;
    }
    struct label *ls = NULL;
    size_t n = 0, cap = 0;
    char *line = NULL;
    size_t linecap = 0;
    ssize_t len;
    long lineno = 0;
    int status = 0;
    while ((len = getline(&line, &linecap, f)) != -1) {
        ++lineno;
        if (len > 0 && line[len - 1] == '\n') {
            line[len - 1] = '\0';
        }
        if (lineno == 1 && strncmp(line, "label\t", 6) == 0) {
            continue; /* the header */
        }
        char *p = line;
        char *label = field(&p), *chapter = field(&p), *file = field(&p);
        long first = to_line(field(&p)), last = to_line(field(&p));
        char *url = field(&p);
        if (url == NULL || first < 0 || last < first || !nw_is_label(label) ||
            !nw_is_file_name(file) || title_of(chs, nch, chapter) == NULL) {
            fprintf(stderr,
                    "%s:%ld: not a snippet line of a chapter of the book "
                    "(label, chapter, file, first, last, url)\n",
                    snippets, lineno);
            status = 1;
            continue;
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 32;
            ls = nw_xrealloc(ls, cap * sizeof *ls);
        }
        ls[n].label = nw_xstrdup(label);
        ls[n].chapter = nw_xstrdup(chapter);
        ls[n].file = nw_xstrdup(file);
        ls[n].url = nw_xstrdup(url);
        ls[n].first = first;
        ls[n].last = last;
        ls[n].line = lineno;
        ++n;
    }
    free(line);
    fclose(f);
    if (n > 1) {
        qsort(ls, n, sizeof *ls, label_cmp);
    }

    printf("---\ntitle: Snippet labels\n...\n\n");
    printf("Every snippet label of the book, by name. A label is a public "
           "name for a piece of code: lessons link to its entry here, and "
           "the entry leads to the code in its chapter and to its lines in "
           "the file it is tangled into. The [chunk index](chunks.html) "
           "lists every chunk, labelled or not.\n\n");
    if (n == 0) {
        printf("The book has no snippet labels yet.\n");
    }
    for (size_t i = 0; i < n && status == 0; ++i) {
        const struct label *l = &ls[i];
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", srcdir, l->file);
        long shown = l->last - l->first + 1;
        shown = shown > kLabelExcerpt ? kLabelExcerpt : shown;
        char *code = file_lines(path, l->first, shown);
        if (code == NULL) {
            fprintf(stderr, "%s:%ld: cannot read %s for label %s\n",
                    snippets, l->line, path, l->label);
            status = 1;
            break;
        }
        printf("::: {#%s .entry .label-entry}\n", l->label);
        printf("[%s](", l->label);
        put_url(l->chapter);
        printf(".html#%s){.entry-name} [#](#%s){.permalink "
               "aria-label=\"Link to this entry\"}\n\n",
               l->label, l->label);
        printf("In [");
        nw_put_md_text(stdout, title_of(chs, nch, l->chapter), NW_MD_MARKS);
        printf("](");
        put_url(l->chapter);
        printf(".html), [");
        nw_put_md_code(stdout, l->file);
        printf("](src/");
        put_url(l->file);
        printf(") lines %ld\xe2\x80\x93%ld\n\n", l->first, l->last);
        char attrs[64];
        snprintf(attrs, sizeof attrs,
                 ".cpp .excerpt .numberLines startFrom=\"%ld\"", l->first);
        nw_put_code_block(stdout, attrs, code);
        putchar('\n');
        if (l->last - l->first + 1 > shown) {
            printf("[\xe2\x80\xa6 %ld more line%s](", l->last - l->first + 1 - shown,
                   l->last - l->first + 1 - shown == 1 ? "" : "s");
            put_url(l->chapter);
            printf(".html#%s){.more}\n\n", l->label);
        }
        printf(":::\n\n");
        free(code);
    }
    for (size_t i = 0; i < n; ++i) {
        free(ls[i].label);
        free(ls[i].chapter);
        free(ls[i].file);
        free(ls[i].url);
    }
    free(ls);
    return status;
}

/* ----------------------------------------------------------------- */
/* chunks                                                              */

struct entry {
    const struct chapter *ch;
    const struct nw_doc *doc;
    const char *name;
    size_t first; /* index of its first piece in doc */
};

static int entry_cmp(const void *a, const void *b) {
    const struct entry *x = a, *y = b;
    int c = name_cmp(x->name, y->name);
    if (c == 0) {
        c = strcmp(x->name, y->name);
    }
    if (c == 0) {
        c = strcmp(x->ch->name, y->ch->name);
    }
    return c;
}

static void put_chunk_link(const struct chapter *ch, const char *name,
                           int piece, const char *text) {
    char anchor[ANCHOR_MAX];
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
    put_url(ch->name);
    printf(".html#");
    put_url(anchor);
    printf(")");
}

/* Marks in seen[] every file root that the chunk at index i reaches by
 * being used, directly or through other chunks. */
static void roots_of(const struct nw_doc *doc, const char *name, char *seen,
                     int depth) {
    if (depth > 64) {
        return; /* a cycle; nwlint reports it */
    }
    for (size_t i = 0; i < doc->n; ++i) {
        const struct nw_chunk *u = &doc->chunks[i];
        if (!u->is_code || u->name == NULL) {
            continue;
        }
        for (size_t j = 0; j < u->n; ++j) {
            if (u->items[j].kind == NW_USE && strcmp(u->items[j].s, name) == 0) {
                long first = nw_find_defn(doc, u->name, 0);
                if (first < 0 || seen[first]) {
                    break;
                }
                if (nw_is_file_name(u->name) && !nw_is_used(doc, u->name)) {
                    seen[first] = 1;
                } else {
                    seen[first] = 2; /* visited */
                    roots_of(doc, u->name, seen, depth + 1);
                }
                break;
            }
        }
    }
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

static void put_entry(const struct entry *e) {
    const struct nw_doc *doc = e->doc;
    const struct nw_chunk *c = &doc->chunks[e->first];
    char anchor[ANCHOR_MAX];
    nw_anchor(e->name, 1, anchor, sizeof anchor);
    printf("::: {#");
    put_ident(e->ch->name);
    printf("--");
    put_ident(anchor);
    printf(" .entry .chunk-entry}\n");
    put_chunk_link(e->ch, e->name, 1, NULL);
    printf("{.entry-name}");
    if (nw_is_label(e->name)) {
        printf(" [label](labels.html#%s){.badge}", e->name);
    }
    printf("\n\nIn [");
    nw_put_md_text(stdout, e->ch->title, NW_MD_MARKS);
    printf("](");
    put_url(e->ch->name);
    printf(".html)");
    int pieces = nw_pieces(doc, e->name);
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
    int users = 0;
    for (size_t i = 0; i < doc->n; ++i) {
        const struct nw_chunk *u = &doc->chunks[i];
        if (!u->is_code || u->name == NULL) {
            continue;
        }
        for (size_t j = 0; j < u->n; ++j) {
            if (u->items[j].kind == NW_USE &&
                strcmp(u->items[j].s, e->name) == 0) {
                fputs(users++ ? ", " : " Used in ", stdout);
                put_chunk_link(e->ch, u->name, u->piece, NULL);
                break;
            }
        }
    }
    fputs(users ? "." : "", stdout);
    char *seen = calloc(doc->n ? doc->n : 1, 1);
    if (seen == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    int files = 0;
    if (nw_is_file_name(e->name) && !nw_is_used(doc, e->name)) {
        printf(" The file [");
        nw_put_md_code(stdout, e->name);
        printf("](src/");
        put_url(e->name);
        printf(").");
        files = -1;
    } else {
        roots_of(doc, e->name, seen, 0);
    }
    for (size_t i = 0; i < doc->n && files >= 0; ++i) {
        if (seen[i] == 1) {
            fputs(files++ ? ", [" : " Tangled into [", stdout);
            nw_put_md_code(stdout, doc->chunks[i].name);
            printf("](src/");
            put_url(doc->chunks[i].name);
            printf(")");
        }
    }
    fputs(files > 0 ? ".\n\n" : "\n\n", stdout);
    free(seen);

    int more = 0;
    char *code = chunk_excerpt(c, kChunkExcerpt, &more);
    if (code[0] != '\0') {
        nw_put_code_block(stdout, ".cpp .excerpt", code);
        putchar('\n');
    }
    free(code);
    printf(":::\n\n");
}

static int cmd_chunks(const struct chapter *chs, struct nw_doc *docs,
                      size_t nch) {
    struct entry *es = NULL;
    size_t n = 0, cap = 0;
    for (size_t k = 0; k < nch; ++k) {
        const struct nw_doc *doc = &docs[k];
        for (size_t i = 0; i < doc->n; ++i) {
            const struct nw_chunk *c = &doc->chunks[i];
            if (!c->is_code || c->name == NULL || c->piece != 1) {
                continue;
            }
            if (n == cap) {
                cap = cap ? 2 * cap : 64;
                es = nw_xrealloc(es, cap * sizeof *es);
            }
            es[n].ch = &chs[k];
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
    printf("Every named chunk of the book's code, by name, with the chapter "
           "that defines it, its pieces, the chunks that use it and the files "
           "it is tangled into. A name in \xe2\x9f\xa8" "angle brackets\xe2\x9f\xa9"
           " leads to the code on its chapter's page. Snippet labels, the "
           "names lessons cite, have [an index of their own](labels.html)."
           "\n\n");
    if (n == 0) {
        printf("The book has no chunks yet.\n");
    }
    for (size_t i = 0; i < n; ++i) {
        put_entry(&es[i]);
    }
    free(es);
    return 0;
}

/* ----------------------------------------------------------------- */

int main(int argc, char **argv) {
    int labels = argc >= 2 && strcmp(argv[1], "labels") == 0;
    int chunks = argc >= 2 && strcmp(argv[1], "chunks") == 0;
    int skip = labels ? 4 : 2;
    if ((!labels && !chunks) || argc <= skip) {
        fprintf(stderr,
                "usage: %s labels SNIPPETS SRCDIR META... > labels.md\n"
                "       %s chunks META... > chunks.md\n",
                argv[0], argv[0]);
        return 2;
    }
    size_t nch = (size_t)(argc - skip);
    struct chapter *chs = nw_xrealloc(NULL, nch * sizeof *chs);
    struct nw_doc *docs = nw_xrealloc(NULL, nch * sizeof *docs);
    memset(docs, 0, nch * sizeof *docs);
    size_t have = 0, read = 0;
    int status = 0;
    for (; have < nch; ++have) {
        if (read_title(argv[skip + (int)have], &chs[have]) != 0) {
            status = 1;
            break;
        }
    }
    for (; chunks && status == 0 && read < nch; ++read) {
        const char *meta = argv[skip + (int)read];
        size_t len = strlen(meta);
        char *pipe = nw_xrealloc(NULL, len + 16);
        memcpy(pipe, meta, len + 1);
        char *dot = strrchr(pipe, '.');
        char *slash = strrchr(pipe, '/');
        if (dot == NULL || (slash != NULL && dot < slash)) {
            dot = pipe + len;
        }
        strcpy(dot, ".nwpipe");
        FILE *f = fopen(pipe, "r");
        if (f == NULL) {
            fprintf(stderr, "%s: cannot read (the noweb pipeline of %s)\n",
                    pipe, chs[read].name);
            free(pipe);
            status = 1;
            break;
        }
        if (nw_load(f, &docs[read]) != 0) {
            status = 1;
        }
        fclose(f);
        free(pipe);
        if (status) {
            ++read;
            break;
        }
    }
    if (status == 0) {
        status = labels ? cmd_labels(argv[2], argv[3], chs, nch)
                        : cmd_chunks(chs, docs, nch);
    }
    for (size_t i = 0; i < read; ++i) {
        nw_free(&docs[i]);
    }
    for (size_t i = 0; i < have; ++i) {
        free(chs[i].name);
        free(chs[i].title);
    }
    free(docs);
    free(chs);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "%s: cannot write\n", argv[0]);
        status = 1;
    }
    return status;
}
