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
 *        claims yours GPU SLUG YOURS VALUES LINES...
 *
 * yours reports the book's claims on a reader's own run, for make compare
 * and make verify, and never fails for a claim: YOURS/PROG.tsv holds the
 * values the reader's run of PROG printed (tcheck quotes -o), on their
 * GPU, named GPU (its slug SLUG). For each chapter with claims, how many of
 * those that hold on any GPU hold on the reader's run, and each that does
 * not, with its values; each claim about other GPUs alone (?GPU,...: a GPU
 * list without SLUG), with what it is there and what the reader measured
 * beside it; and how many name values the run did not measure:
 *     chapters/x.nw on your Tesla T4: 12 of 14 claims hold in your run;
 *     these 2 do not:
 *       chapters/x.nw:LINE: EXPR OP EXPR (0.97 >= 0.98 is false)
 *
 * Exit status 0 when everything held (for yours, whatever held), 1 when
 * something failed or a file could not be read, 2 for a wrong command
 * line.
 */
#define _POSIX_C_SOURCE 200809L /* glob */
#include "lines.h"
#include "quote.h"
#include "util.h"

#include <glob.h>
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

/* What a chapter's records are read for: its chapter's file,
 * chapters/NAME.nw, and the values; for check, the failures; for yours,
 * the tally. */
struct reading {
    const struct nw_values *vs;
    const char *file;
    int failed;
    const char *slug;
    struct tally *t;
};

/* A record of a .lines file; quote and claim records are checked. */
static int check_record(void *ctx, const struct nw_meta_record *r) {
    struct reading *rd = ctx;
    if (strcmp(r->kind, "quote") != 0 && strcmp(r->kind, "claim") != 0) {
        return 0;
    }
    struct where at = {rd->file, r->line};
    struct nw_quote q;
    char err[1024];
    if (nw_quote_parse(r->value, &q, err, sizeof err) != 0) {
        printf("FAIL %s %s:%ld: %s\n", r->kind, rd->file, at.line, err);
        ++rd->failed;
    } else if (q.kind == NW_Q_CLAIM) {
        rd->failed += check_claim(rd->vs, &at, &q);
    } else {
        rd->failed += check_quote(rd->vs, &at, &q, r->value);
    }
    nw_quote_free(&q);
    return 0;
}

/* A chapter's file, chapters/NAME.nw, for its .lines file at path (to
 * free). */
static char *chapter_file(const char *path) {
    struct nw_buf file = {NULL, 0, 0};
    char *chapter = nw_chapter_of(path);
    nw_buf_puts(&file, "chapters/");
    nw_buf_puts(&file, chapter);
    nw_buf_puts(&file, ".nw");
    free(chapter);
    return file.s;
}

/* Every record of one chapter's .lines file. Returns the failures, or -1
 * where it cannot be read. */
static int check_lines(const struct nw_values *vs, const char *path) {
    char *file = chapter_file(path);
    struct reading rd = {vs, file, 0, NULL, NULL};
    int status = nw_meta_each(path, check_record, &rd);
    free(file);
    return status != 0 ? -1 : rd.failed;
}

static int usage(void) {
    fprintf(stderr, "usage: %s check VALUES LINES...\n"
                    "       %s check [--replace PROG GPU FILE]... VALUES "
                    "LINES...\n"
                    "       %s yours GPU SLUG YOURS VALUES LINES...\n",
            kTool, kTool, kTool);
    return 2;
}

/* The GPU a reader's values are read as, beside the recorded ones. */
static const char kYours[] = "yours";

/* A chapter's claims on a reader's run: what each kind comes to, and the
 * lines that say which did not hold, or what a claim about another GPU is
 * beside the reader's. */
struct tally {
    int held, measured, unmeasured, about;
    struct nw_buf failed, beside;
};

/* Do the reader's values hold every name of q that is pinned to no GPU,
 * and is there one? (A claim of pinned names alone is about those GPUs,
 * whatever the reader ran.) */
static int measured(const struct nw_quote *q, const struct nw_values *vs) {
    int unpinned = 0;
    for (size_t i = 0; i < q->nnodes; ++i) {
        const struct nw_enode *e = &q->nodes[i];
        if (e->op == 'v' && e->gpu == NULL) {
            if (nw_values_find(vs, e->prog, e->name, kYours) == NULL) {
                return 0;
            }
            unpinned = 1;
        }
    }
    return unpinned;
}

/* Does q name slug among its GPUs? */
static int names_gpu(const struct nw_quote *q, const char *slug) {
    for (size_t g = 0; g < q->ngpus; ++g) {
        if (strcmp(q->gpus[g], slug) == 0) {
            return 1;
        }
    }
    return 0;
}

/* Whether q holds on gpu, said for a reader: "0.97 >= 0.98 is false", six
 * digits a side. Returns 0, or -1 where it cannot be evaluated there. */
static int said(const struct nw_quote *q, const struct nw_values *vs,
                const char *gpu, int *holds, char *why, size_t size) {
    char err[1024], sides[96];
    if (nw_claim_sides(q, vs, gpu, sides, sizeof sides) != 0 ||
        nw_claim_holds(q, vs, gpu, holds, NULL, 0, err, sizeof err) != 0) {
        return -1;
    }
    snprintf(why, size, "%s is %s", sides, *holds ? "true" : "false");
    return 0;
}

/* One claim, on the reader's run. */
static void yours_claim(const struct nw_values *vs, const char *slug,
                        const struct where *at, const struct nw_quote *q,
                        struct tally *t) {
    char why[128], line[2048];
    int holds = 0;
    int mine = measured(q, vs) &&
               said(q, vs, kYours, &holds, why, sizeof why) == 0;
    if (mine && q->ngpus > 0 && !names_gpu(q, slug)) {
        /* About other GPUs: what it is there, and the reader's beside. */
        ++t->about;
        struct nw_buf there = {NULL, 0, 0};
        nw_buf_puts(&there, "");
        for (size_t g = 0; g < q->ngpus; ++g) {
            char w[128];
            int h;
            if (said(q, vs, q->gpus[g], &h, w, sizeof w) == 0) {
                nw_buf_puts(&there, there.n ? "; " : "");
                nw_buf_puts(&there, "on ");
                nw_buf_puts(&there, q->gpus[g]);
                nw_buf_puts(&there, " ");
                nw_buf_puts(&there, w);
            }
        }
        snprintf(line, sizeof line, "    %s:%ld: %s (%s; in your run %s)\n",
                 at->file, at->line, q->body,
                 there.n ? there.s : "recorded nowhere yet", why);
        nw_buf_puts(&t->beside, line);
        free(there.s);
    } else if (!mine) {
        ++t->unmeasured;
    } else {
        ++t->measured;
        if (holds) {
            ++t->held;
        } else {
            snprintf(line, sizeof line, "    %s:%ld: %s (%s)\n", at->file,
                     at->line, q->body, why);
            nw_buf_puts(&t->failed, line);
        }
    }
}

/* A claim record of a .lines file, on the reader's run. */
static int yours_record(void *ctx, const struct nw_meta_record *r) {
    struct reading *rd = ctx;
    struct nw_quote q;
    char err[1024];
    if (strcmp(r->kind, "claim") != 0 ||
        nw_quote_parse(r->value, &q, err, sizeof err) != 0) {
        return 0; /* make check names what is wrong with it */
    }
    struct where at = {rd->file, r->line};
    yours_claim(rd->vs, rd->slug, &at, &q, rd->t);
    nw_quote_free(&q);
    return 0;
}

/* A chapter's claims on the reader's run, said in a few lines where the
 * run measured the values of any (and then *said_any is 1). Returns 0, or
 * -1 where its .lines cannot be read. */
static int yours_lines(const struct nw_values *vs, const char *gpu,
                       const char *slug, const char *path, int *said_any) {
    struct tally t;
    memset(&t, 0, sizeof t);
    char *file = chapter_file(path);
    struct reading rd = {vs, file, 0, slug, &t};
    int status = nw_meta_each(path, yours_record, &rd) != 0 ? -1 : 0;
    if (status == 0 && t.measured + t.about > 0) {
        int failed = t.measured - t.held;
        *said_any = 1;
        printf("%s on your %s: ", file, gpu);
        if (t.measured == 0) {
            printf("none of its claims that hold on any GPU names only "
                   "values your run measured");
        } else {
            printf("%d of %d claim%s hold%s in your run", t.held, t.measured,
                   t.measured == 1 ? "" : "s", t.held == 1 ? "s" : "");
        }
        printf(failed == 0 ? "\n"
                           : failed == 1 ? "; this one does not:\n"
                                         : "; these %d do not:\n",
               failed);
        nw_buf_put(stdout, &t.failed);
        if (t.about > 0) {
            printf("  %d claim%s about other GPUs alone; each there, and "
                   "in your run:\n",
                   t.about, t.about == 1 ? " is" : "s are");
            nw_buf_put(stdout, &t.beside);
        }
        if (t.unmeasured > 0) {
            printf("  %d claim%s values your run did not measure (a "
                   "program not run, or a line that did not match)\n",
                   t.unmeasured, t.unmeasured == 1 ? " names" : "s name");
        }
    }
    free(t.failed.s);
    free(t.beside.s);
    free(file);
    return status;
}

/* claims yours GPU SLUG YOURS VALUES LINES... */
static int yours(int argc, char **argv) {
    if (argc < 7 || !nw_is_gpu_slug(argv[3])) {
        return usage();
    }
    struct nw_values vs;
    memset(&vs, 0, sizeof vs);
    int status = nw_values_read_dir(&vs, argv[5], NULL, 0) != 0;
    glob_t g;
    size_t size = strlen(argv[4]) + sizeof "/*.tsv";
    char *pattern = nw_xrealloc(NULL, size);
    snprintf(pattern, size, "%s/*.tsv", argv[4]);
    int found = status == 0 ? glob(pattern, 0, NULL, &g) : GLOB_NOMATCH;
    for (size_t i = 0; found == 0 && status == 0 && i < g.gl_pathc; ++i) {
        const char *path = g.gl_pathv[i];
        const char *base = strrchr(path, '/') + 1;
        char prog[256];
        snprintf(prog, sizeof prog, "%.*s", (int)(strlen(base) - 4), base);
        status = nw_is_prog_name(prog)
                     ? nw_values_read(&vs, path, prog, kYours) != 0
                     : 0;
    }
    if (found == 0) {
        globfree(&g);
    }
    free(pattern);
    int said_any = 0;
    for (int k = 6; k < argc && status == 0; ++k) {
        status |= yours_lines(&vs, argv[2], argv[3], argv[k], &said_any) != 0;
    }
    if (status == 0 && !said_any) {
        printf("No claim of the book names only values your run measured.\n");
    }
    nw_values_free(&vs);
    return status | nw_flush_stdout(kTool);
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
    if (argc >= 2 && strcmp(argv[1], "yours") == 0) {
        return yours(argc, argv);
    }
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
