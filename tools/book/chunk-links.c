/* nwlinks: put chunk links into a page pandoc has written.
 *
 * Usage: nwlinks REFS < page.html > page.linked.html
 *
 * REFS is what nwweave wrote: a placeholder (NWREF0001), a tab, and the
 * HTML that replaces it. Every placeholder must be found exactly once.
 * The page's ids must be unique: a heading whose generated id equals a
 * snippet label would make the label's link land on the heading.
 */
#define _POSIX_C_SOURCE 200809L
#include "nwpipe.h"

#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

struct ref {
    char key[16];
    char *html;
    int found;
};

static int check_ids(const char *html) {
    /* Collect id="..." values and report the first duplicate. */
    size_t n = 0, cap = 0;
    const char **ids = NULL;
    size_t *lens = NULL;
    int status = 0;
    for (const char *p = strstr(html, " id=\""); p; p = strstr(p + 1, " id=\"")) {
        const char *v = p + 5;
        const char *e = strchr(v, '"');
        if (e == NULL) {
            break;
        }
        size_t len = (size_t)(e - v);
        for (size_t i = 0; i < n; ++i) {
            if (lens[i] == len && memcmp(ids[i], v, len) == 0) {
                fprintf(stderr,
                        "nwlinks: the id \"%.*s\" is used twice on the page; "
                        "a heading whose id equals a snippet label needs an "
                        "explicit id, e.g. '## Title {#sec-title}'\n",
                        (int)len, v);
                status = 1;
                break;
            }
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            ids = nw_xrealloc(ids, cap * sizeof *ids);
            lens = nw_xrealloc(lens, cap * sizeof *lens);
        }
        ids[n] = v;
        lens[n++] = len;
        if (status) {
            break;
        }
    }
    free(ids);
    free(lens);
    return status;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s REFS < page.html > out.html\n", argv[0]);
        return 2;
    }
    FILE *rf = fopen(argv[1], "r");
    if (rf == NULL) {
        fprintf(stderr, "%s: cannot read\n", argv[1]);
        return 1;
    }
    struct ref *refs = NULL;
    size_t nrefs = 0, cap = 0;
    char *line = NULL;
    size_t linecap = 0;
    ssize_t len;
    long lineno = 0;
    while ((len = getline(&line, &linecap, rf)) != -1) {
        ++lineno;
        if (len > 0 && line[len - 1] == '\n') {
            line[--len] = '\0';
        }
        char *tab = strchr(line, '\t');
        if (tab == NULL || tab - line != 9 || strncmp(line, "NWREF", 5) != 0) {
            fprintf(stderr, "%s:%ld: not a placeholder line\n", argv[1],
                    lineno);
            return 1;
        }
        if (nrefs == cap) {
            cap = cap ? 2 * cap : 64;
            refs = nw_xrealloc(refs, cap * sizeof *refs);
        }
        memcpy(refs[nrefs].key, line, 9);
        refs[nrefs].key[9] = '\0';
        refs[nrefs].html = nw_xstrdup(tab + 1);
        refs[nrefs].found = 0;
        ++nrefs;
    }
    free(line);
    fclose(rf);

    char *html = nw_slurp(stdin, NULL);
    if (ferror(stdin)) {
        fprintf(stderr, "nwlinks: cannot read the page\n");
        free(html);
        return 1;
    }
    int status = check_ids(html);
    const char *p = html;
    const char *hit;
    while ((hit = strstr(p, "NWREF")) != NULL) {
        fwrite(p, 1, (size_t)(hit - p), stdout);
        size_t i = 0;
        for (; i < nrefs; ++i) {
            if (strncmp(hit, refs[i].key, 9) == 0) {
                break;
            }
        }
        if (i == nrefs) {
            fprintf(stderr, "nwlinks: %.9s on the page has no link in %s\n",
                    hit, argv[1]);
            status = 1;
            fputs("NWREF", stdout);
            p = hit + 5;
            continue;
        }
        fputs(refs[i].html, stdout);
        ++refs[i].found;
        p = hit + 9;
    }
    fputs(p, stdout);
    for (size_t i = 0; i < nrefs; ++i) {
        if (refs[i].found != 1) {
            fprintf(stderr,
                    "nwlinks: placeholder %s found %d times on the page; "
                    "the highlighter split it?\n",
                    refs[i].key, refs[i].found);
            status = 1;
        }
        free(refs[i].html);
    }
    free(refs);
    free(html);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "nwlinks: cannot write the page\n");
        status = 1;
    }
    return status;
}
