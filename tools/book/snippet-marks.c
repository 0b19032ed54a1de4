/* nwmark: a noweb pipeline filter that marks snippet labels in the tangled
 * code.
 *
 * Usage: notangle -filter nwmark -RFILE chapters/x.nw
 *
 * Every chunk named with a snippet label (lowercase kebab-case) gets a line
 * "// snippet: LABEL" before the code of its first piece and a line
 * "// end snippet" after the code of its last piece, so the tangled file
 * carries markers that cannot drift from the chunk. Everything else passes
 * through unchanged. The markers shift line numbers, so the copy compiled
 * with #line directives (notangle -L) is tangled without this filter.
 */
#define _POSIX_C_SOURCE 200809L
#include "nwpipe.h"

#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

struct line {
    char *s;
};

int main(int argc, char **argv) {
    (void)argv;
    if (argc != 1) {
        fprintf(stderr, "usage: notangle -filter nwmark -RFILE CHAPTER.nw\n");
        return 2;
    }
    struct line *lines = NULL;
    size_t n = 0, cap = 0;
    char *buf = NULL;
    size_t bufcap = 0;
    ssize_t len;
    while ((len = getline(&buf, &bufcap, stdin)) != -1) {
        if (n == cap) {
            cap = cap ? 2 * cap : 1024;
            lines = nw_xrealloc(lines, cap * sizeof *lines);
        }
        lines[n++].s = nw_xstrdup(buf);
    }
    free(buf);

    /* For each line that opens a definition (@defn NAME), whether it is the
     * first and whether the last piece of a label. */
    char *first = calloc(n ? n : 1, 1);
    char *last = calloc(n ? n : 1, 1);
    if (first == NULL || last == NULL) {
        fprintf(stderr, "out of memory\n");
        return 2;
    }
    for (size_t i = 0; i < n; ++i) {
        if (strncmp(lines[i].s, "@defn ", 6) != 0) {
            continue;
        }
        const char *name = lines[i].s + 6;
        char label[1024];
        size_t nl = strcspn(name, "\n");
        if (nl >= sizeof label) {
            continue;
        }
        memcpy(label, name, nl);
        label[nl] = '\0';
        if (!nw_is_label(label)) {
            continue;
        }
        int seen_before = 0, seen_after = 0;
        for (size_t j = 0; j < n; ++j) {
            if (j != i && strcmp(lines[j].s, lines[i].s) == 0) {
                seen_before |= j < i;
                seen_after |= j > i;
            }
        }
        first[i] = !seen_before;
        last[i] = !seen_after;
    }

    int open_label = 0;  /* inside the last piece of a label */
    for (size_t i = 0; i < n; ++i) {
        const char *s = lines[i].s;
        if (open_label && strncmp(s, "@end code", 9) == 0) {
            fputs("@text // end snippet\n@nl\n", stdout);
            open_label = 0;
        }
        fputs(s, stdout);
        if (strncmp(s, "@defn ", 6) == 0 && (first[i] || last[i])) {
            const size_t defn = i;
            /* The header line's own @nl follows the @defn. */
            if (i + 1 < n && strcmp(lines[i + 1].s, "@nl\n") == 0) {
                fputs(lines[++i].s, stdout);
            }
            if (first[defn]) {
                printf("@text // snippet: %.*s\n@nl\n",
                       (int)strcspn(s + 6, "\n"), s + 6);
            }
            open_label = last[defn];
        }
    }
    for (size_t i = 0; i < n; ++i) {
        free(lines[i].s);
    }
    free(lines);
    free(first);
    free(last);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "nwmark: cannot write the pipeline\n");
        return 1;
    }
    return 0;
}
