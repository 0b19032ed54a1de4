/* snippet-marks: a noweb pipeline filter that marks snippet labels in the
 * tangled code.
 *
 * Usage: markup chapters/x.nw | snippet-marks | nt -RFILE
 *
 * Every chunk named with a snippet label (lowercase kebab-case) gets a line
 * "// snippet: LABEL" before the code of its first piece and a line
 * "// end snippet" after the code of its last piece, so the tangled file
 * carries markers that cannot drift from the chunk. Everything else passes
 * through unchanged. The markers shift line numbers, so the copy compiled
 * with #line directives (nt -L) is tangled without this filter.
 */
#define _POSIX_C_SOURCE 200809L
#include "names.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

static const char kTool[] = "snippet-marks";

/* The pipeline's lines, each with its newline. */
struct lines {
    char **v;
    size_t n, cap;
};

static void read_lines(FILE *in, struct lines *ls) {
    char *buf = NULL;
    size_t cap = 0;
    while (getline(&buf, &cap, in) != -1) {
        ls->v = nw_grow(ls->v, &ls->cap, ls->n + 1, sizeof *ls->v);
        ls->v[ls->n++] = nw_xstrdup(buf);
    }
    free(buf);
}

/* Whether line i is an @defn of a label; sets *label to its name. */
static int label_defn(const struct lines *ls, size_t i, char *label,
                      size_t size) {
    if (strncmp(ls->v[i], "@defn ", 6) != 0) {
        return 0;
    }
    const char *name = ls->v[i] + 6;
    size_t nl = strcspn(name, "\n");
    if (nl >= size) {
        return 0;
    }
    memcpy(label, name, nl);
    label[nl] = '\0';
    return nw_is_label(label);
}

/* For each line that opens a piece of a label (@defn LABEL), whether it
 * is the label's first piece and whether its last. */
static void find_pieces(const struct lines *ls, char *first, char *last) {
    for (size_t i = 0; i < ls->n; ++i) {
        char label[1024];
        if (!label_defn(ls, i, label, sizeof label)) {
            continue;
        }
        int seen_before = 0, seen_after = 0;
        for (size_t j = 0; j < ls->n; ++j) {
            if (j != i && strcmp(ls->v[j], ls->v[i]) == 0) {
                seen_before |= j < i;
                seen_after |= j > i;
            }
        }
        first[i] = !seen_before;
        last[i] = !seen_after;
    }
}

/* The pipeline, with the markers in the code of the labels' pieces. */
static void put_marked(const struct lines *ls, const char *first,
                       const char *last) {
    int open_label = 0; /* inside the last piece of a label */
    for (size_t i = 0; i < ls->n; ++i) {
        const char *s = ls->v[i];
        if (open_label && strncmp(s, "@end code", 9) == 0) {
            fputs("@text // end snippet\n@nl\n", stdout);
            open_label = 0;
        }
        fputs(s, stdout);
        if (strncmp(s, "@defn ", 6) != 0 || !(first[i] || last[i])) {
            continue;
        }
        const size_t defn = i;
        /* The header line's own @nl follows the @defn. */
        if (i + 1 < ls->n && strcmp(ls->v[i + 1], "@nl\n") == 0) {
            fputs(ls->v[++i], stdout);
        }
        if (first[defn]) {
            printf("@text // snippet: %.*s\n@nl\n", (int)strcspn(s + 6, "\n"),
                   s + 6);
        }
        open_label = last[defn];
    }
}

int main(int argc, char **argv) {
    if (argc != 1) {
        fprintf(stderr, "usage: markup CHAPTER.nw | %s | nt -RFILE\n",
                argv[0]);
        return 2;
    }
    struct lines ls = {NULL, 0, 0};
    read_lines(stdin, &ls);
    int status = 0;
    if (ferror(stdin)) {
        nw_error(kTool, 0, "cannot read the pipeline");
        status = 1;
    }
    char *first = nw_xcalloc(ls.n, 1);
    char *last = nw_xcalloc(ls.n, 1);
    if (status == 0) {
        find_pieces(&ls, first, last);
        put_marked(&ls, first, last);
        status = nw_flush_stdout(kTool);
    }
    for (size_t i = 0; i < ls.n; ++i) {
        free(ls.v[i]);
    }
    free(ls.v);
    free(first);
    free(last);
    return status;
}
