/* compare.c: tcheck compare, each measured value of a run against the
 * transcript's, and their ratio.
 */
#include "tcheck.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { kLabelWidth = 28 /* widest label in the compare table */ };

/* The label of a line in the compare table: its leading literal text
 * (the first literal text where the line starts with a hole). */
static void line_label(const struct pat *pt, struct str eline, char *buf,
                       size_t size) {
    struct str s = eline;
    for (size_t t = 0; t < pt->ntok; t++) {
        if (pt->tok[t].kind == TOK_LIT) {
            s = pt->tok[t].lit;
            break;
        }
    }
    while (s.n && is_blank(s.p[0])) {
        s.p++, s.n--;
    }
    size_t n = s.n < size - 1 ? s.n : size - 1;
    memcpy(buf, s.p, n);
    buf[n] = '\0';
}

/* One row of the compare table: a measured value as recorded and now. */
static void compare_row(size_t line, const char *tag, struct str rec,
                        struct str now) {
    char a[64], b[64], ratio[32];
    snprintf(a, sizeof a, "%.*s", (int)(rec.n < 63 ? rec.n : 63), rec.p);
    snprintf(b, sizeof b, "%.*s", (int)(now.n < 63 ? now.n : 63), now.p);
    double ra = strtod(a, NULL), rb = strtod(b, NULL);
    if (ra != 0.0) {
        snprintf(ratio, sizeof ratio, "%.2f", rb / ra);
    } else {
        snprintf(ratio, sizeof ratio, "-");
    }
    printf("%6zu  %-*s %12s %12s %8s\n", line, (int)kLabelWidth, tag, a, b,
           ratio);
}

/* The rows of expectation line i, matched at output line j and transcript
 * line k. Returns how many. */
static size_t compare_line(const struct pair *pr, size_t i, size_t j,
                           const struct text *body, size_t k) {
    const struct pat *pt = &pr->pats[i];
    struct str *now = nw_xcalloc(pt->nholes, sizeof *now);
    struct str *rec = nw_xcalloc(pt->nholes, sizeof *rec);
    match_line(pt, pr->o.line[j], now);
    match_line(pt, body->line[k], rec);
    char label[kLabelWidth + 8];
    line_label(pt, pr->e.line[i], label, kLabelWidth + 1);
    size_t measured = 0, rows = 0;
    for (size_t h = 0; h < pt->nholes; h++) {
        measured += is_measured(hole_kind(pt, h));
    }
    for (size_t h = 0; h < pt->nholes; h++) {
        if (!is_measured(hole_kind(pt, h))) {
            continue;
        }
        char tag[kLabelWidth + 16];
        if (measured > 1) {
            snprintf(tag, sizeof tag, "%s [%zu]", label, ++rows);
        } else {
            snprintf(tag, sizeof tag, "%s", label);
            rows++;
        }
        compare_row(pr->e.first + i, tag, rec[h], now[h]);
    }
    free(now);
    free(rec);
    return rows;
}

/* tcheck compare EXPECT TRANSCRIPT OUTPUT: each measured value recorded
 * and now, and their ratio. Never fails. */
int cmd_compare(int argc, char **argv) {
    if (argc != 3) {
        return usage();
    }
    struct pair pr;
    struct transcript tr;
    if (load_pair(argv[0], argv[2], &pr) != 0) {
        return kBad;
    }
    int problems = load_transcript(argv[1], &tr, output_limits(&pr.e), stderr);
    if (problems != 0) {
        if (problems > 0) {
            free_transcript(&tr);
        }
        free_pair(&pr);
        return kBad;
    }
    struct alignment ao, at;
    align(pr.pats, pr.e.nlines, &pr.o, &ao);
    align(pr.pats, pr.e.nlines, &tr.body, &at);
    printf("measured values: %s (recorded ", argv[1]);
    put_str(stdout, tr.value[kDate]);
    fputs(", commit ", stdout);
    put_str(stdout, tr.value[kCommit]);
    fputs(") against this run\n", stdout);
    printf("%6s  %-*s %12s %12s %8s\n", "line", (int)kLabelWidth, "value",
           "recorded", "now", "now/rec");
    size_t skipped = 0, rows = 0;
    for (size_t i = 0; i < pr.e.nlines; i++) {
        if (!pr.pats[i].measured) {
            continue;
        }
        if (ao.of_exp[i] == SIZE_MAX || at.of_exp[i] == SIZE_MAX) {
            skipped++;
            continue;
        }
        rows += compare_line(&pr, i, ao.of_exp[i], &tr.body, at.of_exp[i]);
    }
    if (!rows && !skipped) {
        puts("(no measured values)");
    }
    if (skipped) {
        printf("%zu line%s with measured values not compared: the output or "
               "the transcript does not match the expectation there\n",
               skipped, skipped == 1 ? "" : "s");
    }
    free_align(&ao);
    free_align(&at);
    free_transcript(&tr);
    free_pair(&pr);
    return kPass;
}
