/* snippet-marks: a noweb pipeline filter that marks snippet labels in the
 * tangled code, and cuts a pipeline into one for each file root.
 *
 * Usage: markup chapters/x.nw | snippet-marks | nt -RFILE
 *        snippet-marks -s DIR ROOTS < x.nwpipe
 *
 * Every chunk named with a snippet label (lowercase kebab-case) gets a line
 * "// snippet: LABEL" before the code of its first piece and a line
 * "// end snippet" after the code of its last piece, so the tangled file
 * carries markers that cannot drift from the chunk. Everything else passes
 * through unchanged. The markers shift line numbers, so the copy compiled
 * with #line directives (nt -L) is tangled without this filter.
 *
 * With -s, the pipeline is cut into one small pipeline per file root that
 * ROOTS names (one a line), each holding only the code chunks that root
 * reaches (its own pieces, the chunks they use, and so on), so that nt,
 * which reads its whole input for every root it tangles, reads each chunk
 * about once for the whole chapter: DIR/ROOT as the pipeline is, for nt
 * -L, and DIR.marked/ROOT with the markers, for nt. What nt writes from
 * one is what it writes from the whole pipeline, byte for byte, #line
 * directives included: the pipeline's @file line comes first, and before
 * each chunk kept an "@line N" says where in the chapter it stands, which
 * nt takes in place of counting the lines it was not given. Documentation
 * and index lines are left out: nt reads neither. (A root is a file name
 * the chapter's check accepted: letters, digits, _, - and one dot.)
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

static void add_line(struct lines *ls, const char *s) {
    ls->v = nw_grow(ls->v, &ls->cap, ls->n + 1, sizeof *ls->v);
    ls->v[ls->n++] = nw_xstrdup(s);
}

static void read_lines(FILE *in, struct lines *ls) {
    char *buf = NULL;
    size_t cap = 0;
    while (getline(&buf, &cap, in) != -1) {
        add_line(ls, buf);
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

/* The pipeline, with the markers in the code of the labels' pieces, into
 * out (empty). */
static void mark(const struct lines *ls, const char *first, const char *last,
                 struct lines *out) {
    int open_label = 0; /* inside the last piece of a label */
    for (size_t i = 0; i < ls->n; ++i) {
        const char *s = ls->v[i];
        if (open_label && strncmp(s, "@end code", 9) == 0) {
            add_line(out, "@text // end snippet\n");
            add_line(out, "@nl\n");
            open_label = 0;
        }
        add_line(out, s);
        if (strncmp(s, "@defn ", 6) != 0 || !(first[i] || last[i])) {
            continue;
        }
        const size_t defn = i;
        /* The header line's own @nl follows the @defn. */
        if (i + 1 < ls->n && strcmp(ls->v[i + 1], "@nl\n") == 0) {
            add_line(out, ls->v[++i]);
        }
        if (first[defn]) {
            struct nw_buf text = {NULL, 0, 0};
            nw_buf_puts(&text, "@text // snippet: ");
            nw_buf_add(&text, s + 6, strcspn(s + 6, "\n"));
            nw_buf_puts(&text, "\n");
            add_line(out, text.s);
            add_line(out, "@nl\n");
            free(text.s);
        }
        open_label = last[defn];
    }
}

static void free_lines(struct lines *ls) {
    for (size_t i = 0; i < ls->n; ++i) {
        free(ls->v[i]);
    }
    free(ls->v);
}

/* A code chunk of a pipeline: its lines first..last, the line of the
 * chapter it begins at, and the names it defines and uses (pointers into
 * the pipeline's lines, each ending at its newline). */
struct chunk {
    size_t first, last;
    long at;
    const char **defs, **uses;
    size_t ndefs, nuses, defs_cap, uses_cap;
};

/* Whether a name (up to its newline) is the same as another. */
static int same_name(const char *a, const char *b) {
    size_t n = strcspn(a, "\n");
    return n == strcspn(b, "\n") && strncmp(a, b, n) == 0;
}

/* A pipeline's code chunks, and its @file line (NULL where none comes
 * before the first chunk). */
struct chunks {
    struct chunk *v;
    size_t n, cap;
    const char *file;
};

static void add_name(const char ***v, size_t *n, size_t *cap,
                     const char *name) {
    *v = nw_grow(*v, cap, *n + 1, sizeof **v);
    (*v)[(*n)++] = name;
}

/* The code chunks of the pipeline ls, each with the line of the chapter
 * it begins at (counting @nl and @index nl, as nt does). */
static void read_chunks(const struct lines *ls, struct chunks *cs) {
    long line = 1;
    int incode = 0;
    for (size_t i = 0; i < ls->n; ++i) {
        const char *s = ls->v[i];
        if (strncmp(s, "@file ", 6) == 0 && cs->n == 0 && cs->file == NULL) {
            cs->file = s;
        }
        if (strncmp(s, "@begin code ", 12) == 0) {
            cs->v = nw_grow(cs->v, &cs->cap, cs->n + 1, sizeof *cs->v);
            memset(&cs->v[cs->n], 0, sizeof cs->v[cs->n]);
            cs->v[cs->n].first = i;
            cs->v[cs->n++].at = line;
            incode = 1;
        }
        struct chunk *c = cs->n > 0 ? &cs->v[cs->n - 1] : NULL;
        if (incode && strncmp(s, "@defn ", 6) == 0) {
            add_name(&c->defs, &c->ndefs, &c->defs_cap, s + 6);
        } else if (incode && strncmp(s, "@use ", 5) == 0) {
            add_name(&c->uses, &c->nuses, &c->uses_cap, s + 5);
        }
        if (strcmp(s, "@nl\n") == 0 || strcmp(s, "@index nl\n") == 0) {
            ++line;
        }
        if (strncmp(s, "@end code ", 10) == 0 && c != NULL) {
            c->last = i;
            incode = 0;
        }
    }
}

static int defines(const struct chunk *c, const char *name) {
    for (size_t d = 0; d < c->ndefs; ++d) {
        if (same_name(c->defs[d], name)) {
            return 1;
        }
    }
    return 0;
}

/* keep[k] for each chunk that root reaches: those that define it, those
 * that define the names they use, and so on, breadth first. */
static void reach(const struct chunks *cs, const char *root, char *keep) {
    const char **queue = NULL;
    size_t nq = 0, qcap = 0;
    memset(keep, 0, cs->n + 1);
    add_name(&queue, &nq, &qcap, root);
    for (size_t q = 0; q < nq; ++q) {
        for (size_t k = 0; k < cs->n; ++k) {
            if (!defines(&cs->v[k], queue[q])) {
                continue;
            }
            keep[k] = 1;
            for (size_t u = 0; u < cs->v[k].nuses; ++u) {
                size_t seen = 0;
                while (seen < nq && !same_name(queue[seen], cs->v[k].uses[u])) {
                    ++seen;
                }
                if (seen == nq) {
                    add_name(&queue, &nq, &qcap, cs->v[k].uses[u]);
                }
            }
        }
    }
    free(queue);
}

/* DIR/ROOT: the @file line, then each chunk kept after the line it
 * begins at. Returns 0, or 1 having said that it cannot be written. */
static int write_root(const struct lines *ls, const struct chunks *cs,
                      const char *keep, const char *dir, const char *root) {
    struct nw_buf path = {NULL, 0, 0};
    nw_buf_puts(&path, dir);
    nw_buf_puts(&path, "/");
    nw_buf_puts(&path, root);
    FILE *out = fopen(path.s, "w");
    int status = out == NULL;
    if (out != NULL) {
        if (cs->file != NULL) {
            fputs(cs->file, out);
        }
        for (size_t k = 0; k < cs->n; ++k) {
            if (keep[k]) {
                fprintf(out, "@line %ld\n", cs->v[k].at + 1);
                for (size_t l = cs->v[k].first; l <= cs->v[k].last; ++l) {
                    fputs(ls->v[l], out);
                }
            }
        }
        status = fclose(out) != 0;
    }
    if (status != 0) {
        nw_error(path.s, 0, "cannot write");
    }
    free(path.s);
    return status;
}

/* The pipeline's root pipelines, one for each of the n roots, into
 * DIR/ROOT. Returns 0, or 1 having said which file could not be written. */
static int split(const struct lines *ls, const char *dir, char **roots,
                 size_t nroots) {
    struct chunks cs = {NULL, 0, 0, NULL};
    read_chunks(ls, &cs);
    char *keep = nw_xcalloc(cs.n + 1, 1);
    int status = 0;
    for (size_t r = 0; r < nroots && status == 0; ++r) {
        reach(&cs, roots[r], keep);
        status = write_root(ls, &cs, keep, dir, roots[r]);
    }
    for (size_t k = 0; k < cs.n; ++k) {
        free(cs.v[k].defs);
        free(cs.v[k].uses);
    }
    free(cs.v);
    free(keep);
    return status;
}

/* The lines of a file (to free_lines); -1, said, where it cannot be read. */
static int read_file_lines(const char *path, struct lines *ls) {
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        nw_error(path, 0, "cannot read");
        return -1;
    }
    read_lines(f, ls);
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        nw_error(path, 0, "cannot read");
    }
    return bad ? -1 : 0;
}

/* snippet-marks -s DIR ROOTS: the pipeline, and the marked one, split. */
static int split_both(const struct lines *ls, const char *first,
                      const char *last, const char *dir,
                      const char *roots_path) {
    struct lines roots = {NULL, 0, 0};
    if (read_file_lines(roots_path, &roots) != 0) {
        free_lines(&roots);
        return 1;
    }
    for (size_t i = 0; i < roots.n; ++i) {
        roots.v[i][strcspn(roots.v[i], "\n")] = '\0';
    }
    struct lines marked = {NULL, 0, 0};
    mark(ls, first, last, &marked);
    struct nw_buf marked_dir = {NULL, 0, 0};
    nw_buf_puts(&marked_dir, dir);
    nw_buf_puts(&marked_dir, ".marked");
    int status = split(ls, dir, roots.v, roots.n);
    if (status == 0) {
        status = split(&marked, marked_dir.s, roots.v, roots.n);
    }
    free(marked_dir.s);
    free_lines(&marked);
    free_lines(&roots);
    return status;
}

int main(int argc, char **argv) {
    int splitting = argc == 4 && strcmp(argv[1], "-s") == 0;
    if (argc != 1 && !splitting) {
        fprintf(stderr,
                "usage: markup CHAPTER.nw | %s | nt -RFILE\n"
                "       %s -s DIR ROOTS < CHAPTER.nwpipe\n",
                argv[0], argv[0]);
        return 2;
    }
    struct lines ls = {NULL, 0, 0};
    read_lines(stdin, &ls);
    int status = 0;
    if (ferror(stdin)) {
        nw_error(kTool, 0, "cannot read the pipeline");
        status = 1;
    }
    char *first = nw_xcalloc(ls.n + 1, 1);
    char *last = nw_xcalloc(ls.n + 1, 1);
    if (status == 0) {
        find_pieces(&ls, first, last);
        if (splitting) {
            status = split_both(&ls, first, last, argv[2], argv[3]);
        } else {
            struct lines marked = {NULL, 0, 0};
            mark(&ls, first, last, &marked);
            for (size_t i = 0; i < marked.n; ++i) {
                fputs(marked.v[i], stdout);
            }
            free_lines(&marked);
            status = nw_flush_stdout(kTool);
        }
    }
    free_lines(&ls);
    free(first);
    free(last);
    return status;
}
