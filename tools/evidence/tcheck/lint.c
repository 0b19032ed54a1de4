/* lint.c: tcheck lint, a transcript held to its expectation: well
 * formed, named for its GPU and program, and matching.
 */
#include "tcheck.h"

#include <stdlib.h>
#include <string.h>

/* A transcript's names: its directory the program's, its program the
 * expectation's, its file named for its GPU. Returns the problems. */
static int lint_names(const char *epath, const struct transcript *tr,
                      FILE *out) {
    const char *tpath = tr->file.path;
    int problems = 0;
    struct str prog = base_name(epath, ".expect.pending");
    if (prog.n == strlen(prog.p)) {
        prog = base_name(epath, ".expect");
    }
    struct str dir = dir_name(tpath);
    if (dir.n && !str_eq(dir, prog)) {
        fprintf(out, "%s:1: transcript is in directory ", tpath);
        put_str(out, dir);
        fputs("/ but the expectation is for ", out);
        put_line(out, "", prog);
        problems++;
    }
    if (tr->value[kProgram].n && !str_eq(tr->value[kProgram], prog)) {
        fprintf(out, "%s:1: program is \"", tpath);
        put_str(out, tr->value[kProgram]);
        fputs("\" but the expectation is for ", out);
        put_line(out, "", prog);
        problems++;
    }
    struct str file = base_name(tpath, ".txt.pending");
    if (file.n == strlen(file.p)) {
        file = base_name(tpath, ".txt");
    }
    if (tr->value[kGpu].n) {
        char *slug = slug_of(tr->value[kGpu]);
        if (!str_is(file, slug)) {
            fprintf(out, "%s:%d: the GPU is \"", tpath, kGpu + 1);
            put_str(out, tr->value[kGpu]);
            fprintf(out, "\", so the file is %s.txt\n", slug);
            problems++;
        }
        free(slug);
    }
    return problems;
}

/* A hole name used twice in an expectation, said as e's file:line;
 * returns the number of such names. */
int duplicate_names(const struct text *e, const struct pat *pats,
                           FILE *out) {
    int problems = 0;
    for (size_t i = 0; i < e->nlines; i++) {
        for (size_t t = 0; t < pats[i].ntok; t++) {
            const struct tok *a = &pats[i].tok[t];
            if (!is_hole(a->kind) || a->lit.n == 0) {
                continue;
            }
            for (size_t j = 0; j <= i; j++) {
                size_t end = j == i ? t : pats[j].ntok;
                for (size_t u = 0; u < end; u++) {
                    const struct tok *b = &pats[j].tok[u];
                    if (is_hole(b->kind) && str_eq(a->lit, b->lit)) {
                        fprintf(out, "%s:%zu: the hole name %.*s is taken "
                                "already, on line %zu; a name quotes one "
                                "value\n", e->path, e->first + i,
                                (int)a->lit.n, a->lit.p, e->first + j);
                        problems++;
                    }
                }
            }
        }
    }
    return problems;
}

/* A transcript's output against the expectation, and the GPU it names
 * against the one its output names. Returns the problems. */
static int lint_body(const struct text *e, const struct pat *pats,
                     const struct transcript *tr, FILE *out) {
    const struct text *body = &tr->body;
    int problems = 0;
    struct alignment al;
    align(pats, e->nlines, body, &al);
    size_t differ = count_differences(&al);
    if (differ) {
        fprintf(out,
                "%s:%zu: the output does not match %s: %zu differing "
                "line%s\n",
                body->path, body->first, e->path, differ,
                differ == 1 ? "" : "s");
        print_diff(out, e, pats, body, body->path, &al);
        problems++;
    }
    free_align(&al);
    struct str gpu;
    if (tr->value[kGpu].n && gpu_of(e, pats, body, &gpu) &&
        !str_eq(gpu, tr->value[kGpu])) {
        fprintf(out, "%s:%d: the header names GPU \"", body->path, kGpu + 1);
        put_str(out, tr->value[kGpu]);
        fputs("\" but the output names \"", out);
        put_str(out, gpu);
        fputs("\"\n", out);
        problems++;
    }
    return problems;
}

/* A transcript well formed, named for its GPU and program, and matching
 * the expectation: problems to out, one "file:line: message" each, each
 * with its details under it. kPass, kFail, or kBad (unreadable). */
int lint_transcript(const char *epath, const char *tpath, FILE *out) {
    struct text e;
    struct transcript tr;
    if (load_expect(epath, &e) != 0) {
        return kBad;
    }
    int problems = load_transcript(tpath, &tr, output_limits(&e), out);
    if (problems < 0) {
        free_text(&e);
        return kBad;
    }
    struct pat *pats = compile_text(&e);
    problems += not_holes(&e, out);
    problems += lint_names(epath, &tr, out);
    problems += lint_body(&e, pats, &tr, out);
    problems += duplicate_names(&e, pats, out);
    free_pats(pats, e.nlines);
    free_transcript(&tr);
    free_text(&e);
    return problems ? kFail : kPass;
}

/* tcheck lint EXPECT TRANSCRIPT: lint_transcript on standard output;
 * exit 1 if there are problems. */
int cmd_lint(int argc, char **argv) {
    if (argc != 2) {
        return usage();
    }
    return lint_transcript(argv[0], argv[1], stdout);
}
