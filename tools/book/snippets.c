/* snippets: the book's snippet labels, which lessons cite by name.
 *
 * Usage:
 *   snippets check REGISTRY META...     the book as a whole, before the
 *                                       tangle puts anything in place: each
 *                                       file root and label in one chapter
 *                                       only; each published label still
 *                                       defined where it was published, or
 *                                       retired with a replacement; each
 *                                       label defined is published; each
 *                                       citation of another chapter's
 *                                       label, [[<<label>>]], resolves;
 *                                       each "day N" of the prose names
 *                                       a chapter dayN-...
 *   snippets table [-o DIR] [-c DIR] SRCDIR REGISTRY META...
 *                                       build/snippets.tsv: label, chapter,
 *                                       tangled file, first and last line,
 *                                       URL, revision; each label's code
 *                                       held to the fingerprint of its
 *                                       last revision, and each earlier
 *                                       revision's kept code to its own.
 *                                       With -o, each label's code for a
 *                                       slide too, DIR/LABEL.cu: a comment
 *                                       line naming the label, its
 *                                       revision and its address (under
 *                                       SNIPPET_BASE of the environment,
 *                                       the book's BASE_URL, where set),
 *                                       then its lines as tangled, and
 *                                       DIR/LABEL.md, that text as a code
 *                                       block for pandoc's fragment. With
 *                                       -c, DIR/CHAPTER.snippets.html: the
 *                                       same text for the copy controls of
 *                                       the chapter's page
 *   snippets keep REGISTRY SRCDIR META...
 *   snippets revise REGISTRY SRCDIR META...
 *                                       make revise, around a tangle of
 *                                       the new code: keep writes the code
 *                                       of the label's last revision N,
 *                                       from the last good tangle, to
 *                                       KEPT/LABEL@N.cu.tmp; revise adds
 *                                       revision N+1, the new code's
 *                                       fingerprint dated today, to the
 *                                       registry and puts the kept code in
 *                                       place. The label is the variable
 *                                       SNIPPET_LABEL of the environment.
 *   snippets fingerprint                the fingerprint of the code on
 *                                       standard input
 *
 * Each META is build/meta/CHAPTER.lines as chapter-meta wrote it, given in
 * book order; REGISTRY is chapters/labels.tsv, and KEPT the folder labels/
 * beside it (chapters/labels/), where the code of each earlier revision of
 * a label is kept. A label is a public name and must resolve to one place,
 * and to the code its revision was published with: a fingerprint of the
 * code (code_fingerprint, transcript.h) that an edit of whitespace or
 * comments leaves as it was.
 */
#define _POSIX_C_SOURCE 200809L
#include "escape.h"
#include "meta.h"
#include "transcript.h"
#include "util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>

static const char kTool[] = "snippets";

/* chapters/CHAPTER.nw, where a label's messages point. */
static const char *chapter_file(char *buf, size_t size, const char *chapter) {
    snprintf(buf, size, "chapters/%s.nw", chapter);
    return buf;
}

/* ----------------------------------------------------------------- */
/* registry                                                            */

/* A label defined twice; returns 1 where one is. */
static int check_unique(const struct nw_labels *defined) {
    for (size_t i = 0; i < defined->n; ++i) {
        const struct nw_label *d = &defined->v[i];
        const struct nw_label *first = nw_labels_find(defined, d->label);
        if (first != d) {
            char at[4096], was[4096];
            nw_error(chapter_file(at, sizeof at, d->chapter), d->line,
                     "snippet label %s is already defined at %s:%ld; a label "
                     "names one chunk in the whole book",
                     d->label, chapter_file(was, sizeof was, first->chapter),
                     first->line);
            return 1;
        }
    }
    return 0;
}

/* A published label, r, against the labels defined; 1 where it is wrong. */
static int check_published(const struct nw_label *r,
                           const struct nw_labels *defined, const char *path) {
    const struct nw_label *d = nw_labels_find(defined, r->label);
    char at[4096];
    if (r->replaced_by != NULL && d != NULL) {
        nw_error(path, r->line,
                 "label %s is marked retired but %s:%ld still defines it",
                 r->label, chapter_file(at, sizeof at, d->chapter), d->line);
    } else if (r->replaced_by != NULL &&
               nw_labels_find(defined, r->replaced_by) == NULL) {
        nw_error(path, r->line,
                 "label %s is retired in favour of %s, which no chapter "
                 "defines",
                 r->label, r->replaced_by);
    } else if (r->replaced_by == NULL && d == NULL) {
        nw_error(path, r->line,
                 "published label %s is no longer defined in %s; lessons "
                 "cite it, so restore it, or retire it by adding its "
                 "replacement as a third column",
                 r->label, chapter_file(at, sizeof at, r->chapter));
    } else if (r->replaced_by == NULL && strcmp(d->chapter, r->chapter) != 0) {
        char was[4096];
        nw_error(chapter_file(at, sizeof at, d->chapter), d->line,
                 "published label %s moved from %s, which breaks the links "
                 "lessons hold; keep it there, or retire it (%s:%ld) for a "
                 "new label",
                 r->label, chapter_file(was, sizeof was, r->chapter), path,
                 r->line);
    } else {
        return 0;
    }
    return 1;
}

/* A label defined but not published; 1 where one is. */
static int check_registered(const struct nw_labels *defined,
                            const struct nw_labels *reg, const char *path) {
    for (size_t i = 0; i < defined->n; ++i) {
        const struct nw_label *d = &defined->v[i];
        if (nw_labels_find(reg, d->label) == NULL) {
            char at[4096];
            nw_error(chapter_file(at, sizeof at, d->chapter), d->line,
                     "snippet label %s is not published; add the line "
                     "'%s<TAB>%s' to %s",
                     d->label, d->label, d->chapter, path);
            return 1;
        }
    }
    return 0;
}

/* A file root tangled by two chapters; returns 1 where one is. Each
 * tangles into one file of build/src, so the second would replace the
 * first's. */
static int check_roots(const struct nw_book *book) {
    for (size_t i = 0; i < book->n; ++i) {
        const struct nw_chapter *ch = &book->v[i];
        for (size_t r = 0; r < ch->nroots; ++r) {
            for (size_t j = 0; j < i; ++j) {
                const struct nw_chapter *was = &book->v[j];
                for (size_t s = 0; s < was->nroots; ++s) {
                    if (strcmp(was->roots[s].name, ch->roots[r].name) != 0) {
                        continue;
                    }
                    char at[4096], there[4096];
                    nw_error(chapter_file(at, sizeof at, ch->name),
                             ch->roots[r].line,
                             "file root <<%s>> is already tangled by %s:%ld; "
                             "a file belongs to one chapter, so name this "
                             "one otherwise",
                             ch->roots[r].name,
                             chapter_file(there, sizeof there, was->name),
                             was->roots[s].line);
                    return 1;
                }
            }
        }
    }
    return 0;
}

/* A citation, [[<<label>>]], of a label that no chapter defines and the
 * registry does not keep; returns 1 where one is. */
static int check_cites(const struct nw_book *book,
                       const struct nw_labels *defined,
                       const struct nw_labels *reg) {
    for (size_t i = 0; i < book->n; ++i) {
        const struct nw_chapter *ch = &book->v[i];
        for (size_t k = 0; k < ch->ncites; ++k) {
            const char *name = ch->cites[k].name;
            if (nw_labels_find(defined, name) == NULL &&
                nw_labels_find(reg, name) == NULL) {
                char at[4096];
                nw_error(chapter_file(at, sizeof at, ch->name),
                         ch->cites[k].line,
                         "[[<<%s>>]] cites no chunk of this chapter and no "
                         "snippet label of the book",
                         name);
                return 1;
            }
        }
    }
    return 0;
}

/* Is there a chapter dayN or dayN-...? */
static int has_day(const struct nw_book *book, const char *n) {
    size_t len = strlen(n);
    for (size_t i = 0; i < book->n; ++i) {
        const char *name = book->v[i].name;
        if (strncmp(name, "day", 3) == 0 && strncmp(name + 3, n, len) == 0 &&
            (name[3 + len] == '\0' || name[3 + len] == '-')) {
            return 1;
        }
    }
    return 0;
}

/* A "day N" of the prose that names no chapter of the book; returns 1
 * where one does. The message lists the day chapters there are. */
static int check_days(const struct nw_book *book) {
    for (size_t i = 0; i < book->n; ++i) {
        const struct nw_chapter *ch = &book->v[i];
        for (size_t k = 0; k < ch->ndays; ++k) {
            if (has_day(book, ch->days[k].name)) {
                continue;
            }
            struct nw_buf days = {NULL, 0, 0};
            nw_buf_puts(&days, "");
            for (size_t c = 0; c < book->n; ++c) {
                if (strncmp(book->v[c].name, "day", 3) == 0 &&
                    isdigit((unsigned char)book->v[c].name[3])) {
                    nw_buf_puts(&days, days.n ? ", " : "");
                    nw_buf_puts(&days, book->v[c].name);
                }
            }
            char at[4096];
            nw_error(chapter_file(at, sizeof at, ch->name), ch->days[k].line,
                     "\"day %s\" names no chapter of the book (its day "
                     "chapters: %s); name one it has, or say what the reader "
                     "needs without the day",
                     ch->days[k].name, days.n ? days.s : "none");
            free(days.s);
            return 1;
        }
    }
    return 0;
}

/* The book as a whole, before anything of it is put in place. Says what
 * is wrong first: a file root or a label in two chapters, a published
 * label gone or moved, a label defined and not published, a citation of
 * a label the book does not have. */
static int cmd_check(const char *path, char *const *metas, int n) {
    struct nw_labels reg = {NULL, 0, 0}, defined = {NULL, 0, 0};
    struct nw_book book = {NULL, 0};
    int status = nw_labels_from_registry(&reg, path) != 0 ||
                 nw_book_read(&book, metas, (size_t)n) != 0;
    for (int i = 0; i < n && status == 0; ++i) {
        status = nw_labels_from_meta(&defined, metas[i]) != 0;
    }
    if (status == 0) {
        status = check_roots(&book);
    }
    if (status == 0) {
        status = check_unique(&defined);
    }
    for (size_t i = 0; i < reg.n && status == 0; ++i) {
        status = check_published(&reg.v[i], &defined, path);
    }
    if (status == 0) {
        status = check_registered(&defined, &reg, path);
    }
    if (status == 0) {
        status = check_cites(&book, &defined, &reg);
    }
    if (status == 0) {
        status = check_days(&book);
    }
    nw_book_free(&book);
    nw_labels_free(&reg);
    nw_labels_free(&defined);
    return status;
}

/* ----------------------------------------------------------------- */
/* table                                                               */

/* Finds "// snippet: label" in a tangled file and the matching
 * "// end snippet"; reports the code lines between them. */
static int find_snippet(const char *path, const char *label, long *first,
                        long *last) {
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    long lineno = 0, depth = 0;
    *first = *last = 0;
    size_t llen = strlen(label);
    while (getline(&line, &cap, f) != -1) {
        ++lineno;
        const char *s = line + strspn(line, " \t");
        if (strncmp(s, "// snippet: ", 12) == 0) {
            if (*first == 0 && strncmp(s + 12, label, llen) == 0 &&
                (s[12 + llen] == '\n' || s[12 + llen] == '\0')) {
                *first = lineno + 1;
                depth = 1;
            } else if (depth > 0) {
                ++depth;
            }
        } else if (strncmp(s, "// end snippet", 14) == 0 && depth > 0) {
            if (--depth == 0) {
                *last = lineno - 1;
                break;
            }
        }
    }
    free(line);
    fclose(f);
    return *last > 0 ? 0 : -1;
}

/* Where a label of ch is tangled: its file root and lines. Returns 0, or
 * 1 having said that it is in none. */
static int locate(const char *srcdir, const struct nw_chapter *ch,
                  const struct nw_named *l, const char **root, long *first,
                  long *last) {
    for (size_t s = 0; s < ch->nroots; ++s) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", srcdir, ch->roots[s].name);
        if (find_snippet(path, l->name, first, last) == 0) {
            *root = ch->roots[s].name;
            return 0;
        }
    }
    char at[4096];
    nw_error(chapter_file(at, sizeof at, ch->name), l->line,
             "snippet label <<%s>> is in no tangled file; is the chunk used?",
             l->name);
    return 1;
}

/* Lines first to last of path, each with its newline, into code. Returns
 * 0, or 1 having said why not. */
static int read_lines(const char *path, long first, long last,
                      struct nw_buf *code) {
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        nw_error(path, 0, "cannot read it");
        return 1;
    }
    char *line = NULL;
    size_t cap = 0;
    long lineno = 0;
    ssize_t n;
    nw_buf_puts(code, "");
    while (lineno < last && (n = getline(&line, &cap, f)) != -1) {
        if (++lineno >= first) {
            nw_buf_add(code, line, (size_t)n);
        }
    }
    free(line);
    fclose(f);
    return 0;
}

/* A label of the book: where it is defined and tangled, and its code as
 * tangled. */
struct located {
    const struct nw_chapter *ch;
    const struct nw_named *l;
    const char *root;
    long first, last;
    struct nw_buf code;
};

/* Label l of chapter ch, tangled in srcdir, into at. Returns 0, or 1
 * having said why not. */
static int locate_code(const char *srcdir, const struct nw_chapter *ch,
                       const struct nw_named *l, struct located *at) {
    memset(at, 0, sizeof *at);
    at->ch = ch;
    at->l = l;
    char path[4096];
    if (locate(srcdir, ch, l, &at->root, &at->first, &at->last)) {
        return 1;
    }
    snprintf(path, sizeof path, "%s/%s", srcdir, at->root);
    return read_lines(path, at->first, at->last, &at->code);
}

/* The label named name in book, tangled in srcdir. Returns 0, or 1 having
 * said why not. */
static int locate_label(const char *srcdir, const struct nw_book *book,
                        const char *name, struct located *at) {
    for (size_t i = 0; i < book->n; ++i) {
        for (size_t r = 0; r < book->v[i].nlabels; ++r) {
            if (strcmp(book->v[i].labels[r].name, name) == 0) {
                return locate_code(srcdir, &book->v[i],
                                   &book->v[i].labels[r], at);
            }
        }
    }
    memset(at, 0, sizeof *at);
    fprintf(stderr, "%s: no chapter of the book defines the label %s\n",
            kTool, name);
    return 1;
}

static uint64_t fingerprint_of(const struct nw_buf *code) {
    return code_fingerprint(code->s, code->n);
}

/* The code of published label r: that of its last revision? Returns 0, or
 * 1 having said, at the label's line in its chapter, what to do. */
static int check_code(const struct located *at, const struct nw_label *r) {
    char where[4096];
    chapter_file(where, sizeof where, at->ch->name);
    if (r->nrevs == 0) {
        nw_error(where, at->l->line,
                 "published label <<%s>> has no revision in the registry; "
                 "make revise LABEL=%s records its code as revision 1",
                 r->label, r->label);
        return 1;
    }
    const struct nw_revision *last = &r->revs[r->nrevs - 1];
    if (fingerprint_of(&at->code) != last->fp) {
        nw_error(where, at->l->line,
                 "the code of published label <<%s>> changed since revision "
                 "%d, which lessons cite: make revise LABEL=%s publishes "
                 "revision %d and keeps revision %d's, or retire the label",
                 r->label, last->n, r->label, last->n + 1, last->n);
        return 1;
    }
    return 0;
}

/* The kept code of each revision of r but its last: there, and its
 * revision's? Returns 0, or 1 having said which is not. */
static int check_kept(const char *registry, const struct nw_label *r) {
    for (size_t k = 0; k + 1 < r->nrevs; ++k) {
        char kept[4096];
        nw_kept_code(kept, sizeof kept, registry, r->label, r->revs[k].n);
        size_t len;
        char *code = nw_slurp_file(kept, &len);
        if (code == NULL) {
            nw_error(registry, r->revs[k + 1].line,
                     "%s, the code of revision %d of label %s, is missing; "
                     "restore it (git checkout %s)",
                     kept, r->revs[k].n, r->label, kept);
            return 1;
        }
        uint64_t fp = code_fingerprint(code, len);
        free(code);
        if (fp != r->revs[k].fp) {
            nw_error(registry, r->revs[k].line,
                     "%s is not the code of revision %d of label %s, whose "
                     "fingerprint this line records; restore it (git "
                     "checkout %s)",
                     kept, r->revs[k].n, r->label, kept);
            return 1;
        }
    }
    return 0;
}

/* Writes path from text, through path.tmp, or says why not (1). */
static int put_file(const char *path, const char *text, size_t len) {
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *out = fopen(tmp, "w");
    int bad = out == NULL;
    if (out != NULL) {
        bad = fwrite(text, 1, len, out) != len;
        bad = fclose(out) != 0 || bad;
    }
    if (bad || rename(tmp, path) != 0) {
        remove(tmp);
        nw_error(path, 0, "cannot write it");
        return 1;
    }
    return 0;
}

/* Where the book is published, SNIPPET_BASE of the environment; NULL
 * where it is unset or empty. */
static const char *snippet_base(void) {
    const char *base = getenv("SNIPPET_BASE");
    return base != NULL && *base != '\0' ? base : NULL;
}

/* A label's code for a slide: the comment line naming the label, its
 * revision and its address (under SNIPPET_BASE, where set), then its lines
 * as tangled. The file, LABEL.cu, the copy control and the fragment's
 * source all hold these bytes. */
static void slide_text(struct nw_buf *b, const struct located *at, int rev) {
    const char *base = snippet_base();
    char line[8192];
    snprintf(line, sizeof line, "// %s, revision %d: %s%s%s.html#%s%s\n",
             at->l->name, rev, base ? base : "", base ? "/" : "",
             at->ch->name, at->l->name,
             base ? "" : " (unpublished: no BASE_URL)");
    nw_buf_puts(b, line);
    nw_buf_add(b, at->code.s, at->code.n);
}

/* DIR/LABEL.cu, the label's code for a slide, and DIR/LABEL.md, the
 * Markdown that pandoc makes its highlighted fragment of (DIR/LABEL.html,
 * styles/snippet.html): the same text as one code block, under a line that
 * links the label's address. Returns 0, or 1 having said why not. */
static int put_slide(const char *dir, const struct located *at,
                     const struct nw_buf *text) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.cu", dir, at->l->name);
    if (put_file(path, text->s, text->n) != 0) {
        return 1;
    }
    const char *base = snippet_base();
    char href[8192];
    snprintf(href, sizeof href, "%s/%s.html#%s", base ? base : "..",
             at->ch->name, at->l->name);
    struct nw_buf md = {NULL, 0, 0};
    nw_buf_puts(&md, "```{=html}\n<p class=\"cuda-snippet-source\"><a href=\"");
    nw_buf_html(&md, href);
    nw_buf_puts(&md, "\">\xe2\x9f\xa8");
    nw_buf_puts(&md, at->l->name);
    nw_buf_puts(&md, "\xe2\x9f\xa9</a></p>\n```\n\n");
    nw_buf_code_block(&md, ".cpp", text->s);
    snprintf(path, sizeof path, "%s/%s.md", dir, at->l->name);
    int status = put_file(path, md.s, md.n);
    free(md.s);
    return status;
}

/* The text of a chapter's labels for its page's copy controls,
 * DIR/CHAPTER.snippets.html: a <template> of each label's slide text (its
 * id "snippet:" and the label, which no chunk anchor can be), written only
 * where it changed, so that a page is woven again only when the code its
 * labels copy did. Returns 0, or 1 having said why not. */
static int put_copies(const char *dir, const char *chapter,
                      const struct nw_buf *html) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.snippets.html", dir, chapter);
    size_t len = 0;
    char *was = nw_slurp_file(path, &len);
    int same = was != NULL && len == html->n &&
               memcmp(was, html->s ? html->s : "", len) == 0;
    free(was);
    return same ? 0 : put_file(path, html->s ? html->s : "", html->n);
}

static int cmd_table(const char *slides, const char *copies,
                     const char *srcdir, const char *registry,
                     const struct nw_book *book) {
    struct nw_labels reg = {NULL, 0, 0};
    if (nw_labels_from_registry(&reg, registry) != 0) {
        return 1;
    }
    int status = 0;
    printf("label\tchapter\tfile\tfirst\tlast\turl\trevision\n");
    for (size_t i = 0; i < book->n && status == 0; ++i) {
        const struct nw_chapter *ch = &book->v[i];
        struct nw_buf html = {NULL, 0, 0};
        for (size_t r = 0; r < ch->nlabels && status == 0; ++r) {
            struct located at;
            const struct nw_label *l = nw_labels_find(&reg, ch->labels[r].name);
            status = locate_code(srcdir, ch, &ch->labels[r], &at);
            if (status == 0 && l == NULL) {
                char where[4096];
                nw_error(chapter_file(where, sizeof where, ch->name),
                         ch->labels[r].line,
                         "snippet label %s is not published in %s",
                         ch->labels[r].name, registry);
                status = 1;
            }
            status = status || check_code(&at, l);
            if (status == 0) {
                printf("%s\t%s\t%s\t%ld\t%ld\t%s.html#%s\t%d\n", at.l->name,
                       ch->name, at.root, at.first, at.last, ch->name,
                       at.l->name, l->revs[l->nrevs - 1].n);
                struct nw_buf text = {NULL, 0, 0};
                slide_text(&text, &at, l->revs[l->nrevs - 1].n);
                status = slides && put_slide(slides, &at, &text);
                nw_buf_puts(&html, "<template class=\"snippet-text\" id=\"snippet:");
                nw_buf_puts(&html, at.l->name);
                nw_buf_puts(&html, "\">");
                nw_buf_html(&html, text.s);
                nw_buf_puts(&html, "</template>\n");
                free(text.s);
            }
            free(at.code.s);
        }
        status = status || (copies && put_copies(copies, ch->name, &html));
        free(html.s);
    }
    for (size_t i = 0; i < reg.n && status == 0; ++i) {
        status = check_kept(registry, &reg.v[i]);
    }
    nw_labels_free(&reg);
    return status;
}

/* ----------------------------------------------------------------- */
/* revise                                                              */

/* Today, YYYY-MM-DD in UTC, or the day of SOURCE_DATE_EPOCH where set. */
static void today(char date[11]) {
    const char *epoch = getenv("SOURCE_DATE_EPOCH");
    time_t t = epoch && *epoch ? (time_t)strtoll(epoch, NULL, 10) : time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(date, 11, "%Y-%m-%d", &tm);
}

/* The registry with line added after the last of label's lines, into
 * path.tmp. Returns 0, or 1 having said why not. */
static int registry_with(const char *path, const char *label,
                         const char *line) {
    size_t len;
    char *text = nw_slurp_file(path, &len);
    if (text == NULL) {
        nw_error(path, 0, "cannot read the label registry");
        return 1;
    }
    size_t after = 0, llen = strlen(label);
    for (size_t i = 0; i < len;) {
        const char *nl = memchr(text + i, '\n', len - i);
        size_t end = nl ? (size_t)(nl - text) + 1 : len;
        if (end - i > llen && strncmp(text + i, label, llen) == 0 &&
            text[i + llen] == '\t') {
            after = end;
        }
        i = end;
    }
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *out = fopen(tmp, "w");
    if (out == NULL) {
        free(text);
        nw_error(tmp, 0, "cannot write it");
        return 1;
    }
    fwrite(text, 1, after, out);
    if (after > 0 && text[after - 1] != '\n') {
        fputc('\n', out);
    }
    fputs(line, out);
    fwrite(text + after, 1, len - after, out);
    free(text);
    if (fclose(out) != 0) {
        nw_error(tmp, 0, "cannot write it");
        remove(tmp);
        return 1;
    }
    return 0;
}

/* SNIPPET_LABEL, a published label not retired, in reg; NULL having said
 * why not. */
static const struct nw_label *revised(const struct nw_labels *reg,
                                      const char *registry) {
    const char *name = getenv("SNIPPET_LABEL");
    if (name == NULL || *name == '\0') {
        fprintf(stderr, "%s: name the label: make revise LABEL=name\n", kTool);
        return NULL;
    }
    const struct nw_label *r = nw_labels_find(reg, name);
    if (r == NULL || r->replaced_by != NULL) {
        fprintf(stderr, "%s: %s %s in %s; a label is revised while a "
                "chapter defines it\n", kTool, name,
                r ? "is retired" : "is no published label", registry);
        return NULL;
    }
    return r;
}

/* keep (new = 0) and revise (new = 1). */
static int cmd_revise(int new, const char *registry, const char *srcdir,
                      const struct nw_book *book) {
    struct nw_labels reg = {NULL, 0, 0};
    if (nw_labels_from_registry(&reg, registry) != 0) {
        return 1;
    }
    const struct nw_label *r = revised(&reg, registry);
    const struct nw_revision *last =
        r && r->nrevs ? &r->revs[r->nrevs - 1] : NULL;
    struct located at;
    /* A label with no revision yet has no code to keep. */
    int status = r == NULL || ((new || last) &&
                               locate_label(srcdir, book, r->label, &at));
    if (status != 0 || (!new && last == NULL)) {
        nw_labels_free(&reg);
        return status;
    }
    char kept[4096], tmp[4096 + 8];
    nw_kept_code(kept, sizeof kept, registry, r->label, last ? last->n : 0);
    snprintf(tmp, sizeof tmp, "%s.tmp", kept);
    uint64_t fp = fingerprint_of(&at.code);
    if (!new && last != NULL && fp != last->fp) {
        fprintf(stderr, "%s: %s/%s does not hold the code of revision %d of "
                "%s, so it cannot be kept: make revise takes it from the "
                "last good build, the one the change stopped\n",
                kTool, srcdir, at.root, last->n, r->label);
        status = 1;
    } else if (!new && last != NULL) {
        FILE *out = fopen(tmp, "w");
        if (out == NULL || fwrite(at.code.s, 1, at.code.n, out) != at.code.n) {
            status = 1;
        }
        if ((out != NULL && fclose(out) != 0) || status) {
            nw_error(tmp, 0, "cannot write it");
            remove(tmp);
            status = 1;
        }
    } else if (new && last != NULL && fp == last->fp) {
        fprintf(stderr, "%s: the code of %s is that of its revision %d: "
                "nothing to revise\n", kTool, r->label, last->n);
        remove(tmp);
        status = 1;
    } else if (new) {
        char date[11], line[256], path[4096 + 8];
        today(date);
        snprintf(line, sizeof line, "%s\t%d\t%s\t%016llx\n", r->label,
                 last ? last->n + 1 : 1, date, (unsigned long long)fp);
        snprintf(path, sizeof path, "%s.tmp", registry);
        status = registry_with(registry, r->label, line);
        if (status == 0 && last != NULL && rename(tmp, kept) != 0) {
            nw_error(kept, 0, "cannot put the kept code in place");
            remove(path);
            status = 1;
        }
        if (status == 0 && rename(path, registry) != 0) {
            nw_error(registry, 0, "cannot write it");
            status = 1;
        }
        if (status == 0) {
            printf("%s: revision %d, of %s, published", r->label,
                   last ? last->n + 1 : 1, date);
            if (last != NULL) {
                printf("; the code of revision %d is kept in %s", last->n,
                       kept);
            }
            printf("\n");
        }
    }
    free(at.code.s);
    nw_labels_free(&reg);
    return status;
}

static int cmd_fingerprint(void) {
    size_t len;
    char *code = nw_slurp(stdin, &len);
    if (code == NULL) {
        fprintf(stderr, "%s: cannot read standard input\n", kTool);
        return 1;
    }
    printf("%016llx\n", (unsigned long long)code_fingerprint(code, len));
    free(code);
    return 0;
}

int main(int argc, char **argv) {
    const char *cmd = argc > 1 ? argv[1] : "";
    int check = strcmp(cmd, "check") == 0, table = strcmp(cmd, "table") == 0;
    const char *slides = NULL, *copies = NULL;
    while (table && argc > 3 &&
           (strcmp(argv[2], "-o") == 0 || strcmp(argv[2], "-c") == 0)) {
        *(argv[2][1] == 'o' ? &slides : &copies) = argv[3];
        argv += 2;
        argc -= 2;
    }
    int keep = strcmp(cmd, "keep") == 0, revise = strcmp(cmd, "revise") == 0;
    if (strcmp(cmd, "fingerprint") == 0 && argc == 2) {
        return cmd_fingerprint() | nw_flush_stdout(kTool);
    }
    if (!(check || table || keep || revise) || argc < 4 ||
        ((table || keep || revise) && argc < 5)) {
        fprintf(stderr,
                "usage: %s check REGISTRY META... | table [-o DIR] [-c DIR] SRCDIR "
                "REGISTRY META... | keep REGISTRY SRCDIR META... | revise REGISTRY "
                "SRCDIR META... | fingerprint\n",
                argv[0]);
        return 2;
    }
    if (check) {
        return cmd_check(argv[2], argv + 3, argc - 3);
    }
    /* keep takes the code of the last revision from the last good build:
     * with none in build/ (a fresh clone whose first make stopped on the
     * change), say how to make one rather than that a file is missing. */
    for (int i = 4; keep && i < argc; ++i) {
        FILE *f = fopen(argv[i], "r");
        if (f == NULL) {
            nw_error(argv[i], 0, "missing: make revise keeps the code of the "
                     "label's last revision from the last good build, and "
                     "there is none; build the book as it was before the "
                     "change (git stash; make; git stash pop), then make "
                     "revise again");
            return 1;
        }
        fclose(f);
    }
    struct nw_book book;
    if (nw_book_read(&book, argv + 4, (size_t)(argc - 4)) != 0) {
        return 1;
    }
    int status = table ? cmd_table(slides, copies, argv[2], argv[3], &book)
                       : cmd_revise(revise, argv[2], argv[3], &book);
    nw_book_free(&book);
    return status | nw_flush_stdout(kTool);
}
