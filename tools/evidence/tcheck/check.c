/* check.c: an output held to its expectation and, on its device lines, to
 * the transcript of the GPU that printed it: tcheck check; and tcheck
 * diff and pending, what differs and the expectation that would not.
 */
#include "tcheck.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int load_pair(const char *expect, const char *output, struct pair *p) {
    if (load_expect(expect, &p->e) != 0) {
        return -1;
    }
    if (load_output(output, &p->e, &p->o) != 0) {
        free_text(&p->o);
        free_text(&p->e);
        return -1;
    }
    p->pats = compile_text(&p->e);
    return 0;
}

void free_pair(struct pair *p) {
    free_pats(p->pats, p->e.nlines);
    free_text(&p->o);
    free_text(&p->e);
}

/* ------------------------------------------------------------------ */
/* Device lines                                                         */

/* Compare the device values of every expectation line matched both in
 * the output and in the transcript. Prints each difference to f (if not
 * NULL). Returns the number of differing lines; *stale counts device
 * lines the transcript no longer matches. */
static size_t compare_device(FILE *f, const struct text *e,
                             const struct pat *pats, const struct text *o,
                             const struct alignment *ao,
                             const struct transcript *tr,
                             const struct alignment *at, size_t *stale) {
    size_t differ = 0;
    *stale = 0;
    for (size_t i = 0; i < e->nlines; i++) {
        const struct pat *pt = &pats[i];
        if (!pt->device || ao->of_exp[i] == SIZE_MAX) {
            continue;
        }
        if (at->of_exp[i] == SIZE_MAX) {
            (*stale)++;
            continue;
        }
        struct str now_line = o->line[ao->of_exp[i]];
        struct str rec_line = tr->body.line[at->of_exp[i]];
        struct str *now = nw_xcalloc(pt->nholes, sizeof *now);
        struct str *rec = nw_xcalloc(pt->nholes, sizeof *rec);
        match_line(pt, now_line, now);
        match_line(pt, rec_line, rec);
        int same = 1;
        for (size_t h = 0; h < pt->nholes; h++) {
            if (!is_device(hole_kind(pt, h)) || str_eq(now[h], rec[h])) {
                continue;
            }
            if (f && same) {
                fprintf(f,
                        "%s:%zu: device line differs from the recording on "
                        "this GPU: %s was \"",
                        tr->body.path, tr->body.first + at->of_exp[i],
                        hole_name(hole_kind(pt, h)));
                put_str(f, rec[h]);
                fputs("\", now \"", f);
                put_str(f, now[h]);
                fprintf(f, "\" (%s line %zu)\n", o->path,
                        o->first + ao->of_exp[i]);
                put_line(f, "-", rec_line);
                put_line(f, "+", now_line);
            }
            same = 0;
        }
        differ += !same;
        free(now);
        free(rec);
    }
    return differ;
}

/* The device lines of a check: held to the transcript of the GPU that
 * printed the output, where there is one. */
struct device_check {
    struct nw_buf warn;
    struct transcript tr;
    int have_tr;
    struct alignment at;
    size_t differ, stale;
    char *tpath; /* the transcript's name */
};

/* The transcript of gpu in tdir, read and aligned. Returns kPass (with a
 * warning where there is none), or kBad. */
static int load_device(const struct pair *pr, const char *tdir, struct str gpu,
                       struct device_check *dc) {
    char *slug = slug_of(gpu);
    char *tpath = path_of(tdir, slug, ".txt");
    free(slug);
    dc->tpath = tpath;
    int rc = kPass;
    FILE *probe = fopen(tpath, "rb");
    if (!probe) {
        buf_item(&dc->warn, "; ", "no transcript for ");
        nw_buf_add(&dc->warn, gpu.p, gpu.n);
        nw_buf_puts(&dc->warn, " (");
        nw_buf_puts(&dc->warn, tpath);
        nw_buf_puts(&dc->warn, "); device lines unchecked");
        return rc;
    }
    fclose(probe);
    int problems =
        load_transcript(tpath, &dc->tr, output_limits(&pr->e), stderr);
    if (problems != 0) {
        if (problems > 0) {
            free_transcript(&dc->tr);
        }
        return kBad;
    }
    dc->have_tr = 1;
    align(pr->pats, pr->e.nlines, &dc->tr.body, &dc->at);
    return rc;
}

/* Which GPU printed the output (its {{gpu}}, else -g), and its
 * transcript's device values against the output's. */
static int check_device(const struct pair *pr, const struct alignment *ao,
                        const char *tdir, const char *gpu_arg,
                        struct device_check *dc) {
    memset(dc, 0, sizeof *dc);
    int has_device = 0;
    for (size_t k = 0; k < pr->e.nlines; k++) {
        has_device |= pr->pats[k].device;
    }
    if (!has_device) {
        return kPass;
    }
    struct str gpu = {NULL, 0};
    if (!gpu_of(&pr->e, pr->pats, &pr->o, &gpu) && gpu_arg) {
        gpu.p = gpu_arg;
        gpu.n = strlen(gpu_arg);
    }
    if (!gpu.n) {
        buf_item(&dc->warn, "; ",
                 "cannot tell which GPU printed this; device lines unchecked");
        return kPass;
    }
    int rc = load_device(pr, tdir, gpu, dc);
    if (dc->have_tr) {
        dc->differ = compare_device(NULL, &pr->e, pr->pats, &pr->o, ao, &dc->tr,
                                    &dc->at, &dc->stale);
        if (dc->stale) {
            buf_item(&dc->warn, "; ", dc->tr.body.path);
            nw_buf_puts(&dc->warn, " does not match the expectation; some "
                                "device lines unchecked");
        }
    }
    return rc;
}

static void free_device(struct device_check *dc) {
    if (dc->have_tr) {
        free_align(&dc->at);
        free_transcript(&dc->tr);
    }
    free(dc->warn.s);
    free(dc->tpath);
}

/* The verdict of a check, and its details. */
static int report_check(const struct opts *o, const struct pair *pr,
                        const struct alignment *ao,
                        const struct device_check *dc, int status) {
    size_t total = count_differences(ao) + dc->differ;
    struct report r;
    report_open(&r, o->name);
    int rc = kPass;
    if (status != 0 || total) {
        char why[128];
        size_t n = 0;
        if (status != 0) {
            status_words(status, why, sizeof why);
            n = strlen(why);
        }
        if (total) {
            snprintf(why + n, sizeof why - n, "%s%zu differing line%s",
                     status ? ", " : "", total, total == 1 ? "" : "s");
        }
        report_verdict(&r, "FAIL", why);
        rc = kFail;
        if (status != 0 && dc->warn.n) {
            fprintf(r.details, "warning: %s\n", dc->warn.s);
        }
    } else {
        report_verdict(&r, "PASS", dc->warn.n ? dc->warn.s : NULL);
        rc = dc->warn.n ? kWarn : kPass;
    }
    print_diff(r.details, &pr->e, pr->pats, &pr->o, pr->o.path, ao);
    if (dc->have_tr && dc->differ) {
        size_t stale;
        compare_device(r.details, &pr->e, pr->pats, &pr->o, ao, &dc->tr,
                       &dc->at, &stale);
    }
    if (rc == kFail) {
        put_stderr_tail(r.details, o->err);
    }
    report_close(&r);
    return rc;
}

/* tcheck check [-n NAME] [-e STDERR] [-g GPU] [-o LABEL] EXPECT
 * TRANSCRIPT_DIR OUTPUT STATUS: the verdict on a run (main.c says how). */
int cmd_check(int argc, char **argv) {
    struct opts o;
    int i, status;
    if (parse_opts(argc, argv, "nego", &o, &i) != 0 || argc - i != 4) {
        return usage();
    }
    if (parse_status(argv[i + 3], &status) != 0) {
        return kBad;
    }
    if (ran(status) == kSkip) {
        report_skip(&o);
        return kSkip;
    }
    struct pair pr;
    if (load_pair(argv[i], argv[i + 2], &pr) != 0) {
        return kBad;
    }
    if (o.label) {
        pr.o.path = o.label;
    }
    struct alignment ao;
    align(pr.pats, pr.e.nlines, &pr.o, &ao);
    struct device_check dc;
    int rc = check_device(&pr, &ao, argv[i + 1], o.gpu, &dc);
    if (rc == kPass) {
        rc = report_check(&o, &pr, &ao, &dc, status);
    }
    free_device(&dc);
    free_align(&ao);
    free_pair(&pr);
    return rc;
}

/* tcheck diff [-o LABEL] EXPECT OUTPUT: where the output differs from the
 * expectation, as check shows it; exit 0 where it does not. */
int cmd_diff(int argc, char **argv) {
    struct opts o;
    int i;
    if (parse_opts(argc, argv, "o", &o, &i) != 0 || argc - i != 2) {
        return usage();
    }
    struct pair pr;
    if (load_pair(argv[i], argv[i + 1], &pr) != 0) {
        return kBad;
    }
    if (o.label) {
        pr.o.path = o.label;
    }
    struct alignment al;
    align(pr.pats, pr.e.nlines, &pr.o, &al);
    int rc = count_differences(&al) ? kFail : kPass;
    print_diff(stdout, &pr.e, pr.pats, &pr.o, pr.o.path, &al);
    free_align(&al);
    free_pair(&pr);
    return rc;
}

/* tcheck pending EXPECT OUTPUT: the expectation the output would need.
 * Output lines that match keep their expectation line, holes and all;
 * the others are copied as literal text. Exit 0 when that is the
 * expectation unchanged, 1 when it differs, 2 for an output too long to
 * be an expectation. */
int cmd_pending(int argc, char **argv) {
    if (argc != 2) {
        return usage();
    }
    struct pair pr;
    if (load_pair(argv[0], argv[1], &pr) != 0) {
        return kBad;
    }
    const struct text *o = &pr.o;
    for (size_t j = 0; j < o->nlines && !o->more_lines; j++) {
        if (o->cut[j]) {
            fprintf(stderr,
                    "%s:%zu: a line of more than %zu bytes cannot be "
                    "an expectation\n",
                    o->path, o->first + j, kMaxLine);
            free_pair(&pr);
            return kBad;
        }
    }
    if (o->more_lines) {
        fprintf(stderr,
                "%s:%zu: the output goes on for %zu more lines, more "
                "than an expectation can hold\n",
                o->path, o->first + o->nlines, o->more_lines);
        free_pair(&pr);
        return kBad;
    }
    struct alignment al;
    align(pr.pats, pr.e.nlines, o, &al);
    for (size_t k = 0; k < al.n; k++) {
        const struct edit *d = &al.ed[k];
        if (d->op == '=') {
            put_raw(stdout, pr.e.line[d->a]);
        } else if (d->op == '+') {
            struct str s = o->line[d->b];
            put_raw(stdout, s);
            for (size_t x = 0; x < s.n; x++) {
                if (s.p[x] == '{' && hole_at(s.p + x, s.n - x) >= 0) {
                    fprintf(stderr,
                            "%s:%zu: warning: the output spells a "
                            "hole, which the expectation will read "
                            "as one\n",
                            o->path, o->first + d->b);
                    break;
                }
            }
        }
    }
    int rc = count_differences(&al) ? kFail : kPass;
    free_align(&al);
    free_pair(&pr);
    return rc;
}
