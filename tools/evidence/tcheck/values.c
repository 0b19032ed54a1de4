/* values.c: what an output or a transcript holds: tcheck gpu, values,
 * quotes and slug.
 */
#include "tcheck.h"

#include <stdlib.h>
#include <string.h>

/* tcheck gpu EXPECT OUTPUT: the {{gpu}} value the output holds. */
int cmd_gpu(int argc, char **argv) {
    if (argc != 2) {
        return usage();
    }
    struct pair pr;
    if (load_pair(argv[0], argv[1], &pr) != 0) {
        return kBad;
    }
    struct str gpu;
    int rc = kPass;
    if (gpu_of(&pr.e, pr.pats, &pr.o, &gpu)) {
        put_raw(stdout, gpu);
    } else {
        fprintf(stderr, "%s:1: no line matches a {{gpu}} line of %s\n",
                pr.o.path, pr.e.path);
        rc = kFail;
    }
    free_pair(&pr);
    return rc;
}

/* tcheck values EXPECT OUTPUT: every hole's value in the output lines
 * that match, one a line: LINE COLUMN LENGTH KIND VALUE, tab-separated,
 * LINE and COLUMN counted from 1 in bytes. */
int cmd_values(int argc, char **argv) {
    if (argc != 2) {
        return usage();
    }
    struct pair pr;
    if (load_pair(argv[0], argv[1], &pr) != 0) {
        return kBad;
    }
    struct alignment al;
    align(pr.pats, pr.e.nlines, &pr.o, &al);
    for (size_t k = 0; k < al.n; k++) {
        const struct edit *d = &al.ed[k];
        const struct pat *pt = &pr.pats[d->a];
        if (d->op != '=' || !pt->nholes) {
            continue;
        }
        struct str line = pr.o.line[d->b];
        struct str *cap = nw_xcalloc(pt->nholes, sizeof *cap);
        match_line(pt, line, cap);
        for (size_t h = 0; h < pt->nholes; h++) {
            const char *name = hole_name(hole_kind(pt, h));
            printf("%zu\t%zu\t%zu\t%.*s\t", pr.o.first + d->b,
                   (size_t)(cap[h].p - line.p) + 1, cap[h].n,
                   (int)strlen(name) - 4, name + 2);
            put_raw(stdout, cap[h]);
        }
        free(cap);
    }
    free_align(&al);
    free_pair(&pr);
    return kPass;
}

/* The named holes of one transcript line matched by pt: NAME, the value,
 * the transcript's path and line. */
static void put_quotes(const struct pat *pt, struct str line, const char *path,
                       size_t lineno) {
    struct str *cap = nw_xcalloc(pt->nholes, sizeof *cap);
    match_line(pt, line, cap);
    for (size_t h = 0; h < pt->nholes; h++) {
        const struct tok *t = hole_tok(pt, h);
        if (t->lit.n == 0) {
            continue;
        }
        printf("%.*s\t%.*s\t%s:%zu\n", (int)t->lit.n, t->lit.p,
               (int)cap[h].n, cap[h].p, path, lineno);
    }
    free(cap);
}

/* The named holes of every line of text (from path) that the alignment
 * matched to its expectation line. */
static void put_matched_quotes(const struct pat *pats,
                               const struct alignment *al,
                               const struct text *text, const char *path) {
    for (size_t k = 0; k < al->n; k++) {
        const struct edit *d = &al->ed[k];
        if (d->op == '=' && pats[d->a].nholes) {
            put_quotes(&pats[d->a], text->line[d->b], path, text->first + d->b);
        }
    }
}

/* tcheck quotes -o EXPECT OUTPUT: the same of a program's bare output (a
 * reader's run, no header): the named holes of every line that matches
 * its expectation, FILE:LINE being the output's. Fails (having printed
 * them) where some line does not match. */
static int quotes_of_output(const char *expect, const char *output) {
    struct pair pr;
    if (load_pair(expect, output, &pr) != 0) {
        return kBad;
    }
    if (duplicate_names(&pr.e, pr.pats, stderr)) {
        free_pair(&pr);
        return kBad;
    }
    struct alignment al;
    align(pr.pats, pr.e.nlines, &pr.o, &al);
    int rc = count_differences(&al) ? kFail : kPass;
    put_matched_quotes(pr.pats, &al, &pr.o, output);
    free_align(&al);
    free_pair(&pr);
    return rc;
}

/* tcheck quotes EXPECT TRANSCRIPT: the value of every named hole as the
 * transcript recorded it, a line each: NAME<TAB>VALUE<TAB>FILE:LINE, for
 * the prose to quote. Fails where the transcript does not match. */
int cmd_quotes(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[0], "-o") == 0) {
        return quotes_of_output(argv[1], argv[2]);
    }
    if (argc != 2) {
        return usage();
    }
    struct text e;
    struct transcript tr;
    if (load_expect(argv[0], &e) != 0) {
        return kBad;
    }
    if (load_transcript(argv[1], &tr, output_limits(&e), stderr) != 0) {
        free_text(&e);
        return kBad;
    }
    struct pat *pats = compile_text(&e);
    struct alignment al;
    align(pats, e.nlines, &tr.body, &al);
    int rc = count_differences(&al) ? kFail : kPass;
    if (rc != kPass) {
        /* Where, as the lint says it: what is not a hole, then the diff. */
        not_holes(&e, stderr);
        fprintf(stderr, "%s:%zu: the output does not match %s\n", argv[1],
                tr.body.first, argv[0]);
        print_diff(stderr, &e, pats, &tr.body, argv[1], &al);
    }
    if (duplicate_names(&e, pats, stderr)) {
        rc = kBad;
    }
    if (rc == kPass) {
        put_matched_quotes(pats, &al, &tr.body, argv[1]);
    }
    free_align(&al);
    free_pats(pats, e.nlines);
    free_transcript(&tr);
    free_text(&e);
    return rc;
}

int cmd_slug(int argc, char **argv) {
    if (argc != 1) {
        return usage();
    }
    struct str name = {argv[0], strlen(argv[0])};
    char *s = slug_of(name);
    int rc = kPass;
    if (*s) {
        puts(s);
    } else {
        fprintf(stderr, "tcheck: GPU name \"%s\" has no letters or digits\n",
                argv[0]);
        rc = kBad;
    }
    free(s);
    return rc;
}
