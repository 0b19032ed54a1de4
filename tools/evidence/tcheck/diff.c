/* diff.c: the alignment of expectation lines with output lines (the
 * longest common subsequence, where "common" means the output line
 * matches), and the notes and unified diff a check shows of it.
 */
#include "tcheck.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum {
    kContext = 3,       /* unchanged lines around a difference, as diff -u */
    kMaxDiffLines = 40, /* diff lines shown before the rest is counted */
    kMaxLocations = 10  /* "file:line:" notes shown before the rest is counted */
};

/* The largest LCS table built, in cells of 4 bytes: 2048 by 2048 lines,
 * 16 MiB. A longer differing middle is shown as removed and added whole. */
static const size_t kMaxCells = (size_t)1 << 22;

static void push_edit(struct alignment *al, char op, size_t a, size_t b) {
    al->ed[al->n].op = op;
    al->ed[al->n].a = a;
    al->ed[al->n].b = b;
    al->n++;
}

/* The middle of an alignment, expectation lines head..head+mm and output
 * lines head..head+nn, by a table of LCS lengths: lcs[i][j] is the LCS of
 * expectation lines head+i.. and output lines head+j.. . */
static void lcs_middle(const struct pat *pats, const struct text *out,
                       size_t head, size_t mm, size_t nn,
                       struct alignment *al) {
    size_t w = nn + 1;
    uint32_t *lcs = nw_xcalloc((mm + 1) * w, sizeof *lcs);
    for (size_t j = 0; j <= nn; j++) {
        lcs[mm * w + j] = 0;
    }
    for (size_t i = mm; i-- > 0;) {
        lcs[i * w + nn] = 0;
        for (size_t j = nn; j-- > 0;) {
            if (matches(&pats[head + i], out, head + j, NULL)) {
                lcs[i * w + j] = lcs[(i + 1) * w + j + 1] + 1;
            } else if (lcs[(i + 1) * w + j] >= lcs[i * w + j + 1]) {
                lcs[i * w + j] = lcs[(i + 1) * w + j];
            } else {
                lcs[i * w + j] = lcs[i * w + j + 1];
            }
        }
    }
    size_t i = 0, j = 0;
    while (i < mm && j < nn) {
        if (lcs[i * w + j] == lcs[(i + 1) * w + j + 1] + 1 &&
            matches(&pats[head + i], out, head + j, NULL)) {
            push_edit(al, '=', head + i, head + j);
            i++, j++;
        } else if (lcs[(i + 1) * w + j] >= lcs[i * w + j + 1]) {
            push_edit(al, '-', head + i, head + j);
            i++;
        } else {
            push_edit(al, '+', head + i, head + j);
            j++;
        }
    }
    for (; i < mm; i++) {
        push_edit(al, '-', head + i, head + j);
    }
    for (; j < nn; j++) {
        push_edit(al, '+', head + i, head + j);
    }
    free(lcs);
}

void align(const struct pat *pats, size_t m, const struct text *out,
                  struct alignment *al) {
    size_t n = out->nlines;
    al->ed = nw_xcalloc(m + n + 1, sizeof *al->ed);
    al->n = 0;
    al->extra = out->more_lines;
    al->of_exp = nw_xcalloc(m + 1, sizeof *al->of_exp);
    for (size_t i = 0; i < m; i++) {
        al->of_exp[i] = SIZE_MAX;
    }
    /* Common head and tail first: they keep the table small. */
    size_t head = 0;
    while (head < m && head < n && matches(&pats[head], out, head, NULL)) {
        push_edit(al, '=', head, head);
        head++;
    }
    size_t tail = 0;
    while (!out->more_lines && tail < m - head && tail < n - head &&
           matches(&pats[m - 1 - tail], out, n - 1 - tail, NULL)) {
        tail++;
    }
    size_t mm = m - head - tail, nn = n - head - tail;
    if (mm > 0 && nn > 0 && (mm + 1) <= kMaxCells / (nn + 1)) {
        lcs_middle(pats, out, head, mm, nn, al);
    } else {
        for (size_t i = 0; i < mm; i++) {
            push_edit(al, '-', head + i, head);
        }
        for (size_t j = 0; j < nn; j++) {
            push_edit(al, '+', head + mm, head + j);
        }
    }
    for (size_t k = 0; k < tail; k++) {
        push_edit(al, '=', m - tail + k, n - tail + k);
    }
    for (size_t k = 0; k < al->n; k++) {
        if (al->ed[k].op == '=') {
            al->of_exp[al->ed[k].a] = al->ed[k].b;
        }
    }
}

void free_align(struct alignment *al) {
    free(al->ed);
    free(al->of_exp);
}

/* Differing lines: per run of changes, the larger of lines removed and
 * lines added, so one changed line counts once. Output lines past the
 * kept ones are added lines of the last run. */
size_t count_differences(const struct alignment *al) {
    size_t total = 0, del = 0, ins = 0;
    for (size_t k = 0; k <= al->n; k++) {
        if (k == al->n) {
            ins += al->extra;
        }
        if (k == al->n || al->ed[k].op == '=') {
            total += del > ins ? del : ins;
            del = ins = 0;
        } else if (al->ed[k].op == '-') {
            del++;
        } else {
            ins++;
        }
    }
    return total;
}

static void put_range(FILE *f, const char *one, const char *many, size_t first,
                      size_t count) {
    if (count == 1) {
        fprintf(f, "%s %zu", one, first);
    } else {
        fprintf(f, "%s %zu-%zu", many, first, first + count - 1);
    }
}

/* What a diff is of. */
struct diff_of {
    const struct text *e;
    const struct pat *pats;
    const struct text *o;
    const char *olabel;
    const struct alignment *al;
};

/* The note on one run of changes: del expectation lines from a, ins
 * output lines from b; then, for lines paired one to one, why a hole did
 * not take its value. Returns the notes written. */
static size_t note_run(FILE *f, const struct diff_of *d, size_t a, size_t del,
                       size_t b, size_t ins) {
    const struct text *e = d->e, *o = d->o;
    size_t at = a < e->nlines ? a : (e->nlines ? e->nlines - 1 : 0);
    fprintf(f, "%s:%zu: ", e->path, e->first + at);
    if (del > 1) {
        put_range(f, "line", "lines", e->first + a, del);
        fputc(' ', f);
    }
    if (del && ins) {
        fprintf(f, "%s not match %s ", del == 1 ? "does" : "do", d->olabel);
        put_range(f, "line", "lines", o->first + b, ins);
    } else if (del) {
        fprintf(f, "%s from %s", del == 1 ? "missing" : "are missing",
                d->olabel);
    } else {
        fprintf(f, "%s ", d->olabel);
        put_range(f, "line", "lines", o->first + b, ins);
        fprintf(f, " not in the expectation (%s this line)",
                a < e->nlines ? "before" : "after");
    }
    fputc('\n', f);
    size_t notes = 1;
    for (size_t k = 0; k < del && k < ins && b + k < o->nlines; k++) {
        char why[160];
        if (!o->cut[b + k] && explain_mismatch(&d->pats[a + k], o->line[b + k],
                                               why, sizeof why)) {
            fprintf(f, "%s:%zu: %s\n", e->path, e->first + a + k, why);
            notes++;
        }
    }
    return notes;
}

/* One "file:line: ..." note per run of changes (the first kMaxLocations),
 * then a line for the output past the kept lines. Returns the number of
 * runs. */
static size_t print_notes(FILE *f, const struct diff_of *d) {
    const struct alignment *al = d->al;
    size_t runs = 0, notes = 0;
    for (size_t k = 0; k < al->n;) {
        if (al->ed[k].op == '=') {
            k++;
            continue;
        }
        size_t del = 0, ins = 0, a = al->ed[k].a, b = al->ed[k].b;
        for (; k < al->n && al->ed[k].op != '='; k++) {
            del += al->ed[k].op == '-';
            ins += al->ed[k].op == '+';
        }
        if (runs++ < kMaxLocations && notes < 2 * kMaxLocations) {
            notes += note_run(f, d, a, del, b, ins);
        }
    }
    if (runs > kMaxLocations) {
        fprintf(f, "... and %zu more differences\n", runs - kMaxLocations);
    }
    if (al->extra) {
        fprintf(f,
                "%s: %zu more lines (%zu bytes) after line %zu, more than "
                "the expectation can match; not shown\n",
                d->olabel, al->extra, d->o->more_bytes,
                d->o->first + d->o->nlines - 1);
        runs += al->n == 0 || al->ed[al->n - 1].op == '=';
    }
    return runs;
}

/* The end of the hunk that starts at change k: kContext after the last
 * change within 2 * kContext of the one before. */
static size_t hunk_end(const struct alignment *al, size_t k) {
    size_t hi = k;
    for (;;) {
        while (hi < al->n && al->ed[hi].op != '=') {
            hi++;
        }
        size_t same = 0;
        while (hi + same < al->n && al->ed[hi + same].op == '=') {
            same++;
        }
        if (hi + same < al->n && same <= 2 * kContext) {
            hi += same;
            continue;
        }
        return hi + (same < kContext ? same : kContext);
    }
}

/* A unified diff of the expectation (holes shown as holes) against the
 * output, its first kMaxDiffLines lines. */
static void print_hunks(FILE *f, const struct diff_of *d) {
    const struct alignment *al = d->al;
    fprintf(f, "--- %s\n+++ %s\n", d->e->path, d->olabel);
    size_t shown = 0, hidden = 0;
    for (size_t k = 0; k < al->n;) {
        if (al->ed[k].op == '=') {
            k++;
            continue;
        }
        size_t lo = k > kContext ? k - kContext : 0, hi = hunk_end(al, k);
        size_t a0 = al->ed[lo].a, b0 = al->ed[lo].b, na = 0, nb = 0;
        for (size_t x = lo; x < hi; x++) {
            na += al->ed[x].op != '+';
            nb += al->ed[x].op != '-';
        }
        if (shown < kMaxDiffLines) {
            fprintf(f, "@@ -%zu,%zu +%zu,%zu @@\n",
                    d->e->first + a0 - (na == 0), na,
                    d->o->first + b0 - (nb == 0), nb);
        }
        for (size_t x = lo; x < hi; x++, shown++) {
            const struct edit *ed = &al->ed[x];
            if (shown >= kMaxDiffLines) {
                hidden++;
            } else if (ed->op == '+') {
                put_line(f, "+", d->o->line[ed->b]);
            } else {
                put_line(f, ed->op == '=' ? " " : "-", d->e->line[ed->a]);
            }
        }
        k = hi;
    }
    hidden += al->extra;
    if (hidden) {
        fprintf(f, "... %zu more diff lines not shown\n", hidden);
    }
}

/* The notes, then the diff; nothing where all matched. */
void print_diff(FILE *f, const struct text *e, const struct pat *pats,
                       const struct text *o, const char *olabel,
                       const struct alignment *al) {
    struct diff_of d = {e, pats, o, olabel, al};
    if (print_notes(f, &d)) {
        print_hunks(f, &d);
    }
}
