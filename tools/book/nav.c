/* nav: how a reader moves through the book.
 *
 * Usage:
 *   nav nav CHAPTER META...   page metadata (YAML) for one chapter: the
 *                             table of contents, previous, next; CHAPTER
 *                             "-" for a page that is none
 *   nav index META...         the front page's list of chapters, in Pandoc
 *                             Markdown
 *
 * Each META is build/meta/CHAPTER.tsv as chapter-meta wrote it, given in
 * book order.
 */
#include "escape.h"
#include "meta.h"
#include "util.h"

#include <string.h>

static const char kTool[] = "nav";

/* A link to a chapter in the metadata, as KEY-title and KEY-href. */
static void put_neighbour(const char *key, const struct nw_chapter *ch) {
    printf("%s-title: ", key);
    nw_put_dquoted(stdout, ch->title);
    printf("\n%s-href: \"%s.html\"\n", key, ch->name);
}

static int cmd_nav(const char *current, const struct nw_book *book) {
    const struct nw_chapter *chs = book->v;
    size_t n = book->n, at = n;
    for (size_t i = 0; i < n; ++i) {
        if (strcmp(chs[i].name, current) == 0) {
            at = i;
        }
    }
    /* "-": a page of the book that is not a chapter (the front page, the
     * indexes): the table of contents, with no chapter current. */
    if (at == n && strcmp(current, "-") != 0) {
        nw_error(kTool, 0, "chapter %s is not in the book", current);
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
        put_neighbour("prev", &chs[at - 1]);
    }
    if (at + 1 < n) {
        put_neighbour("next", &chs[at + 1]);
    }
    printf("...\n");
    return 0;
}

/* The front page's list of chapters, after the book's own front matter
 * (chapters/front.md): each chapter's title, the files it tangles and the
 * labels lessons cite from it; then the link to the whole book's page. A
 * title escapes what its page's does not, so that its quotes are curly
 * here too. */
static int cmd_index(const struct nw_book *book) {
    printf("## The chapters {#sec-chapters}\n\n");
    for (size_t i = 0; i < book->n; ++i) {
        const struct nw_chapter *ch = &book->v[i];
        printf("%zu. **[", i + 1);
        nw_put_md_text(stdout, ch->title, NW_MD_TITLE_MARKS);
        printf("](%s.html)**", ch->name);
        const char *sep = "\\\n   ";
        for (size_t r = 0; r < ch->nroots; ++r) {
            printf("%s`%s`", sep, ch->roots[r].name);
            sep = ", ";
        }
        sep = "\\\n   Labels: ";
        for (size_t r = 0; r < ch->nlabels; ++r) {
            printf("%s[%s](%s.html#%s)", sep, ch->labels[r].name, ch->name,
                   ch->labels[r].name);
            sep = ", ";
        }
        printf("\n");
    }
    printf("\nEvery chapter is also on one page, [the whole book](book.html), "
           "to print at once or to read offline in one scroll.\n");
    return 0;
}

int main(int argc, char **argv) {
    const char *cmd = argc > 1 ? argv[1] : "";
    int is_nav = strcmp(cmd, "nav") == 0;
    int skip = is_nav ? 3 : 2;
    if ((!is_nav && strcmp(cmd, "index") != 0) || argc <= skip) {
        fprintf(stderr, "usage: %s nav CHAPTER META... | index META...\n",
                argv[0]);
        return 2;
    }
    struct nw_book book;
    if (nw_book_read(&book, argv + skip, (size_t)(argc - skip)) != 0) {
        return 1;
    }
    int status = is_nav ? cmd_nav(argv[2], &book) : cmd_index(&book);
    nw_book_free(&book);
    return status | nw_flush_stdout(kTool);
}
