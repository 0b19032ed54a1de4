/* claims: hold the prose's claims to the recorded values.
 *
 * Usage: claims check VALUES LINES...
 *        claims check [--replace PROG GPU FILE]... VALUES LINES...
 *
 * VALUES is the directory of values files, VALUES/PROG/GPU.tsv (quote.h);
 * each LINES is a chapter's build/meta/CHAPTER.lines, whose quote and claim
 * records chapter-meta wrote. Every claim, [[?EXPR OP EXPR]], is evaluated
 * on every GPU it applies to (those of its list, where it has one, on which
 * all its values are recorded), a line each:
 *     PASS claim chapters/x.nw:LINE on GPU: EXPR OP EXPR
 *     FAIL claim chapters/x.nw:LINE on GPU: EXPR OP EXPR (0.97 >= 0.98 is false)
 * A claim that names only GPUs whose values this build cannot compute
 * (VALUES/GPU.absent, quote.h) is skipped, with the reason:
 *     SKIP claim chapters/x.nw:LINE: EXPR OP EXPR (REASON)
 * A claim that cannot be evaluated (no GPU has its values, a division by
 * zero) fails too, with the reason in parentheses; so does a quote,
 * [[=EXPR]], whose value the page could not write (FAIL quote ...); a quote
 * that can be written says nothing.
 *
 * With --replace, as many as there are, each FILE stands in for its
 * VALUES/PROG/GPU.tsv (which need not exist): the check of every pending
 * transcript's values together, before any is put in place.
 *
 * Exit status 0 when everything held, 1 when something failed or a file
 * could not be read, 2 for a wrong command line.
 */
#define _POSIX_C_SOURCE 200809L /* getline */
#include "meta.h"
#include "quote.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static const char kTool[] = "claims";

/* Where a record is: the chapter's .nw file and the line. */
struct where {
    const char *file;
    long line;
};

/* A claim, on every GPU it applies to. Returns the number of failures. */
static int check_claim(const struct nw_values *vs, const struct where *at,
                       const struct nw_quote *q) {
    const char **gpus = nw_xcalloc(vs->ngpus, sizeof *gpus);
    char err[1024], why[128];
    size_t n = 0;
    int failed = 0;
    const char *absent = nw_quote_absent(q, vs);
    if (absent != NULL) {
        printf("SKIP claim %s:%ld: %s (%s)\n", at->file, at->line, q->body,
               absent);
    } else if (nw_claim_gpus(q, vs, gpus, &n, err, sizeof err) != 0) {
        printf("FAIL claim %s:%ld: %s (%s)\n", at->file, at->line, q->body,
               err);
        failed = 1;
    }
    for (size_t i = 0; i < n; ++i) {
        int holds = 0;
        if (nw_claim_holds(q, vs, gpus[i], &holds, why, sizeof why, err,
                           sizeof err) != 0) {
            printf("FAIL claim %s:%ld on %s: %s (%s)\n", at->file, at->line,
                   gpus[i], q->body, err);
            ++failed;
        } else if (holds) {
            printf("PASS claim %s:%ld on %s: %s\n", at->file, at->line,
                   gpus[i], q->body);
        } else {
            printf("FAIL claim %s:%ld on %s: %s (%s)\n", at->file, at->line,
                   gpus[i], q->body, why);
            ++failed;
        }
    }
    free(gpus);
    return failed;
}

/* A quote: silent where its value can be written. */
static int check_quote(const struct nw_values *vs, const struct where *at,
                       const struct nw_quote *q, const char *text) {
    char value[64], err[1024];
    const char *gpu;
    if (nw_quote_absent(q, vs) == NULL &&
        nw_quote_value(q, vs, &gpu, value, sizeof value, NULL, err,
                       sizeof err) != 0) {
        printf("FAIL quote %s:%ld: [[%s]] (%s)\n", at->file, at->line, text,
               err);
        return 1;
    }
    return 0;
}

/* A line of a .lines file; quote and claim records are checked. */
static int check_record(const struct nw_values *vs, const char *file,
                        char *line) {
    char *f[3];
    if (nw_split_tabs(line, f, 3) < 3 ||
        (strcmp(f[0], "quote") != 0 && strcmp(f[0], "claim") != 0)) {
        return 0;
    }
    struct where at = {file, atol(f[2])};
    struct nw_quote q;
    char err[1024];
    int failed;
    if (nw_quote_parse(f[1], &q, err, sizeof err) != 0) {
        printf("FAIL %s %s:%ld: %s\n", f[0], file, at.line, err);
        failed = 1;
    } else if (q.kind == NW_Q_CLAIM) {
        failed = check_claim(vs, &at, &q);
    } else {
        failed = check_quote(vs, &at, &q, f[1]);
    }
    nw_quote_free(&q);
    return failed;
}

/* Every record of one chapter's .lines file. Returns the failures, or -1
 * where it cannot be read. */
static int check_lines(const struct nw_values *vs, const char *path) {
    FILE *in = fopen(path, "r");
    if (in == NULL) {
        nw_error(path, 0, "cannot read");
        return -1;
    }
    char *chapter = nw_chapter_of(path);
    struct nw_buf file = {NULL, 0, 0};
    nw_buf_puts(&file, "chapters/");
    nw_buf_puts(&file, chapter);
    nw_buf_puts(&file, ".nw");
    char *line = NULL;
    size_t cap = 0;
    int failed = 0;
    while (getline(&line, &cap, in) != -1) {
        failed += check_record(vs, file.s, line);
    }
    if (ferror(in)) {
        nw_error(path, 0, "cannot read");
        failed = -1;
    }
    free(line);
    free(file.s);
    free(chapter);
    fclose(in);
    return failed;
}

static int usage(void) {
    fprintf(stderr, "usage: %s check VALUES LINES...\n"
                    "       %s check [--replace PROG GPU FILE]... VALUES "
                    "LINES...\n",
            kTool, kTool);
    return 2;
}

/* The values of dir, each of the nreplace triples of replace (PROG GPU
 * FILE) standing in for dir's PROG/GPU.tsv. */
static int read_values(struct nw_values *vs, char **replace, size_t nreplace,
                       const char *dir) {
    char **skip = nw_xcalloc(2 * nreplace + 1, sizeof *skip);
    int status = 0;
    for (size_t i = 0; i < nreplace && status == 0; ++i) {
        char **r = &replace[3 * i];
        if (!nw_is_prog_name(r[0]) || !nw_is_gpu_slug(r[1])) {
            nw_error(kTool, 0, "--replace wants a program ([A-Za-z0-9_]+) "
                               "and a GPU (a slug such as nvidia-h200), not "
                               "'%s' and '%s'",
                     r[0], r[1]);
            status = -1;
        }
        skip[2 * i] = r[0];
        skip[2 * i + 1] = r[1];
    }
    if (status == 0) {
        status = nw_values_read_dir(vs, dir, skip, nreplace);
    }
    for (size_t i = 0; i < nreplace && status == 0; ++i) {
        char **r = &replace[3 * i];
        status = nw_values_read(vs, r[2], r[0], r[1]);
    }
    free(skip);
    return status;
}

int main(int argc, char **argv) {
    if (argc < 3 || strcmp(argv[1], "check") != 0) {
        return usage();
    }
    int i = 2;
    char **replace = nw_xcalloc((size_t)argc, sizeof *replace);
    size_t nreplace = 0;
    while (i + 3 < argc && strcmp(argv[i], "--replace") == 0) {
        memcpy(&replace[3 * nreplace++], &argv[i + 1], 3 * sizeof *argv);
        i += 4;
    }
    if (i >= argc) {
        free(replace);
        return usage();
    }
    struct nw_values vs;
    memset(&vs, 0, sizeof vs);
    int status = read_values(&vs, replace, nreplace, argv[i]) != 0;
    if (status == 0) {
        /* Every chapter, whatever the ones before it say. */
        for (int k = i + 1; k < argc; ++k) {
            status |= check_lines(&vs, argv[k]) != 0;
        }
    }
    nw_values_free(&vs);
    free(replace);
    return status | nw_flush_stdout(kTool);
}
