/* nwindex: what the book knows across chapters.
 *
 * Usage:
 *   nwindex nav CHAPTER META...      page metadata (YAML) for one chapter:
 *                                    the table of contents, previous, next;
 *                                    CHAPTER "-" for a page that is none
 *   nwindex index META...            the front page, in Pandoc Markdown
 *   nwindex snippets SRCDIR META...  build/snippets.tsv: label, chapter,
 *                                    tangled file, first and last line, URL
 *   nwindex registry REGISTRY META...  check the published labels: each one
 *                                    still defined where it was published,
 *                                    or retired with a replacement; each
 *                                    label defined is published
 *
 * Each META is build/meta/CHAPTER.tsv as nwlint wrote it, given in book
 * order. `registry` also checks that no snippet label is defined in two
 * chapters: a label is a public name and must resolve to one place.
 */
#define _POSIX_C_SOURCE 200809L
#include "nwpipe.h"

#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

struct rec {
    char *kind, *a, *b;
};

struct chapter {
    char *name; /* day32-scan */
    char *title;
    struct rec *recs;
    size_t n;
};

static int read_meta(const char *path, struct chapter *ch) {
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        fprintf(stderr, "%s: cannot read\n", path);
        return -1;
    }
    memset(ch, 0, sizeof *ch);
    ch->name = nw_chapter_of(path);
    char *line = NULL;
    size_t cap = 0;
    size_t reccap = 0;
    while (getline(&line, &cap, f) != -1) {
        char *fld[3];
        int nf = nw_split_tabs(line, fld, 3);
        if (nf < 2) {
            continue;
        }
        const char *kind = fld[0], *a = fld[1], *b = nf == 3 ? fld[2] : NULL;
        if (strcmp(kind, "title") == 0) {
            free(ch->title);
            ch->title = nw_xstrdup(a);
            continue;
        }
        if (ch->n == reccap) {
            reccap = reccap ? 2 * reccap : 16;
            ch->recs = nw_xrealloc(ch->recs, reccap * sizeof *ch->recs);
        }
        ch->recs[ch->n].kind = nw_xstrdup(kind);
        ch->recs[ch->n].a = nw_xstrdup(a);
        ch->recs[ch->n].b = nw_xstrdup(b ? b : "");
        ++ch->n;
    }
    free(line);
    fclose(f);
    if (ch->title == NULL) {
        ch->title = nw_xstrdup(ch->name);
    }
    return 0;
}

/* Not NW_MD_MARKS: a title's ' and " become curly quotes, as on its page. */
static const char kMdMarks[] = "\\`*_{}[]()#+-.!<>|$&";

static int cmd_nav(const char *current, const struct chapter *chs, size_t n) {
    size_t at = n;
    for (size_t i = 0; i < n; ++i) {
        if (strcmp(chs[i].name, current) == 0) {
            at = i;
        }
    }
    /* "-": a page of the book that is not a chapter (the front page, the
     * indexes): the table of contents, with no chapter current. */
    if (at == n && strcmp(current, "-") != 0) {
        fprintf(stderr, "nwindex: chapter %s is not in the book\n", current);
        return 1;
    }
    printf("---\nbook-chapters:\n");
    for (size_t i = 0; i < n; ++i) {
        printf("  - title: ");
        nw_put_dquoted(stdout, chs[i].title);
        printf("\n    href: \"%s.html\"\n", chs[i].name);
        if (i == at) {
            printf("    current: true\n");
        }
    }
    if (at > 0 && at < n) {
        printf("prev-title: ");
        nw_put_dquoted(stdout, chs[at - 1].title);
        printf("\nprev-href: \"%s.html\"\n", chs[at - 1].name);
    }
    if (at + 1 < n) {
        printf("next-title: ");
        nw_put_dquoted(stdout, chs[at + 1].title);
        printf("\nnext-href: \"%s.html\"\n", chs[at + 1].name);
    }
    printf("...\n");
    return 0;
}

/* The front page's list of chapters, after the book's own front matter
 * (chapters/front.md): each chapter's title, the files it tangles and the
 * labels lessons cite from it. */
static int cmd_index(const struct chapter *chs, size_t n) {
    printf("## The chapters {#sec-chapters}\n\n");
    for (size_t i = 0; i < n; ++i) {
        printf("%zu. **[", i + 1);
        nw_put_md_text(stdout, chs[i].title, kMdMarks);
        printf("](%s.html)**", chs[i].name);
        const char *sep = "\\\n   ";
        for (size_t r = 0; r < chs[i].n; ++r) {
            if (strcmp(chs[i].recs[r].kind, "root") == 0) {
                printf("%s`%s`", sep, chs[i].recs[r].a);
                sep = ", ";
            }
        }
        sep = "\\\n   Labels: ";
        for (size_t r = 0; r < chs[i].n; ++r) {
            if (strcmp(chs[i].recs[r].kind, "label") == 0) {
                printf("%s[%s](%s.html#%s)", sep, chs[i].recs[r].a,
                       chs[i].name, chs[i].recs[r].a);
                sep = ", ";
            }
        }
        printf("\n");
    }
    return 0;
}

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

static int cmd_snippets(const char *srcdir, const struct chapter *chs,
                        size_t n) {
    int status = 0;
    printf("label\tchapter\tfile\tfirst\tlast\turl\n");
    for (size_t i = 0; i < n; ++i) {
        for (size_t r = 0; r < chs[i].n; ++r) {
            const struct rec *l = &chs[i].recs[r];
            if (strcmp(l->kind, "label") != 0) {
                continue;
            }
            int found = 0;
            for (size_t s = 0; s < chs[i].n && !found; ++s) {
                const struct rec *root = &chs[i].recs[s];
                if (strcmp(root->kind, "root") != 0) {
                    continue;
                }
                char path[4096];
                long first, last;
                snprintf(path, sizeof path, "%s/%s", srcdir, root->a);
                if (find_snippet(path, l->a, &first, &last) == 0) {
                    printf("%s\t%s\t%s\t%ld\t%ld\t%s.html#%s\n", l->a,
                           chs[i].name, root->a, first, last, chs[i].name,
                           l->a);
                    found = 1;
                }
            }
            if (!found) {
                fprintf(stderr,
                        "chapters/%s.nw:%s: snippet label <<%s>> is in no "
                        "tangled file; is the chunk used?\n",
                        chs[i].name, l->b, l->a);
                status = 1;
            }
        }
    }
    return status;
}

static int cmd_registry(const char *path, char **metas, int n) {
    struct nw_labels reg = {0}, defined = {0};
    int status = nw_labels_from_registry(&reg, path) != 0;
    for (int i = 0; i < n && status == 0; ++i) {
        status = nw_labels_from_meta(&defined, metas[i]) != 0;
    }
    for (size_t i = 0; i < defined.n && status == 0; ++i) {
        for (size_t j = 0; j < i; ++j) {
            if (strcmp(defined.v[i].label, defined.v[j].label) == 0) {
                fprintf(stderr,
                        "chapters/%s.nw:%ld: snippet label %s is already "
                        "defined at chapters/%s.nw:%ld; a label names one "
                        "chunk in the whole book\n",
                        defined.v[i].chapter, defined.v[i].line,
                        defined.v[i].label, defined.v[j].chapter,
                        defined.v[j].line);
                status = 1;
                break;
            }
        }
    }
    for (size_t i = 0; i < reg.n && status == 0; ++i) {
        const struct nw_label *r = &reg.v[i];
        const struct nw_label *d = nw_labels_find(&defined, r->label);
        if (r->replaced_by != NULL) {
            if (d != NULL) {
                fprintf(stderr,
                        "%s:%ld: label %s is marked retired but chapters/%s.nw:%ld "
                        "still defines it\n",
                        path, r->line, r->label, d->chapter, d->line);
                status = 1;
            } else if (nw_labels_find(&defined, r->replaced_by) == NULL) {
                fprintf(stderr,
                        "%s:%ld: label %s is retired in favour of %s, which no "
                        "chapter defines\n",
                        path, r->line, r->label, r->replaced_by);
                status = 1;
            }
        } else if (d == NULL) {
            fprintf(stderr,
                    "%s:%ld: published label %s is no longer defined in "
                    "chapters/%s.nw; lessons cite it, so restore it, or retire "
                    "it by adding its replacement as a third column\n",
                    path, r->line, r->label, r->chapter);
            status = 1;
        } else if (strcmp(d->chapter, r->chapter) != 0) {
            fprintf(stderr,
                    "chapters/%s.nw:%ld: published label %s moved from "
                    "chapters/%s.nw, which breaks the links lessons hold; keep "
                    "it there, or retire it (%s:%ld) for a new label\n",
                    d->chapter, d->line, r->label, r->chapter, path, r->line);
            status = 1;
        }
    }
    for (size_t i = 0; i < defined.n && status == 0; ++i) {
        const struct nw_label *d = &defined.v[i];
        if (nw_labels_find(&reg, d->label) == NULL) {
            fprintf(stderr,
                    "chapters/%s.nw:%ld: snippet label %s is not published; "
                    "add the line '%s<TAB>%s' to %s\n",
                    d->chapter, d->line, d->label, d->label, d->chapter, path);
            status = 1;
        }
    }
    nw_labels_free(&reg);
    nw_labels_free(&defined);
    return status;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr,
                "usage: %s nav CHAPTER META... | index META... | snippets "
                "SRCDIR META...\n",
                argv[0]);
        return 2;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "registry") == 0) {
        return cmd_registry(argv[2], argv + 3, argc - 3);
    }
    int skip = (strcmp(cmd, "index") == 0) ? 2 : 3;
    if (argc <= skip && strcmp(cmd, "index") != 0) {
        fprintf(stderr, "%s %s: no chapters given\n", argv[0], cmd);
        return 2;
    }
    size_t n = (size_t)(argc - skip);
    struct chapter *chs = nw_xrealloc(NULL, (n ? n : 1) * sizeof *chs);
    int status = 0;
    for (size_t i = 0; i < n; ++i) {
        if (read_meta(argv[skip + (int)i], &chs[i]) != 0) {
            return 1;
        }
    }
    {
        if (strcmp(cmd, "nav") == 0) {
            status = cmd_nav(argv[2], chs, n);
        } else if (strcmp(cmd, "index") == 0) {
            status = cmd_index(chs, n);
        } else if (strcmp(cmd, "snippets") == 0) {
            status = cmd_snippets(argv[2], chs, n);
        } else {
            fprintf(stderr, "%s: unknown subcommand %s\n", argv[0], cmd);
            status = 2;
        }
    }
    for (size_t i = 0; i < n; ++i) {
        for (size_t r = 0; r < chs[i].n; ++r) {
            free(chs[i].recs[r].kind);
            free(chs[i].recs[r].a);
            free(chs[i].recs[r].b);
        }
        free(chs[i].recs);
        free(chs[i].name);
        free(chs[i].title);
    }
    free(chs);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "%s: cannot write\n", argv[0]);
        status = 1;
    }
    return status;
}
