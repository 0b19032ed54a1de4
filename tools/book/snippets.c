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
 *   snippets table SRCDIR META...       build/snippets.tsv: label, chapter,
 *                                       tangled file, first and last line,
 *                                       URL
 *
 * Each META is build/meta/CHAPTER.lines as chapter-meta wrote it, given in
 * book order; REGISTRY is chapters/labels.tsv. A label is a public name and
 * must resolve to one place.
 */
#define _POSIX_C_SOURCE 200809L
#include "meta.h"
#include "util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

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

/* The line of the table for a label of ch, found in one of its roots. */
static int put_snippet(const char *srcdir, const struct nw_chapter *ch,
                       const struct nw_named *l) {
    for (size_t s = 0; s < ch->nroots; ++s) {
        const char *root = ch->roots[s].name;
        char path[4096];
        long first, last;
        snprintf(path, sizeof path, "%s/%s", srcdir, root);
        if (find_snippet(path, l->name, &first, &last) == 0) {
            printf("%s\t%s\t%s\t%ld\t%ld\t%s.html#%s\n", l->name, ch->name,
                   root, first, last, ch->name, l->name);
            return 0;
        }
    }
    char at[4096];
    nw_error(chapter_file(at, sizeof at, ch->name), l->line,
             "snippet label <<%s>> is in no tangled file; is the chunk used?",
             l->name);
    return 1;
}

static int cmd_table(const char *srcdir, const struct nw_book *book) {
    int status = 0;
    printf("label\tchapter\tfile\tfirst\tlast\turl\n");
    for (size_t i = 0; i < book->n; ++i) {
        const struct nw_chapter *ch = &book->v[i];
        for (size_t r = 0; r < ch->nlabels; ++r) {
            status |= put_snippet(srcdir, ch, &ch->labels[r]);
        }
    }
    return status;
}

int main(int argc, char **argv) {
    const char *cmd = argc > 1 ? argv[1] : "";
    int check = strcmp(cmd, "check") == 0;
    if ((!check && strcmp(cmd, "table") != 0) || argc < 4) {
        fprintf(stderr,
                "usage: %s check REGISTRY META... | table SRCDIR META...\n",
                argv[0]);
        return 2;
    }
    if (check) {
        return cmd_check(argv[2], argv + 3, argc - 3);
    }
    struct nw_book book;
    if (nw_book_read(&book, argv + 3, (size_t)(argc - 3)) != 0) {
        return 1;
    }
    int status = cmd_table(argv[2], &book);
    nw_book_free(&book);
    return status | nw_flush_stdout(kTool);
}
