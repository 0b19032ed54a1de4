/* quote: the values the evidence recorded, and the quotes and claims of the
 * prose that name them.
 *
 * Values files, build/values/PROG/GPU.tsv (from a transcript) and
 * PROG/GPU.fit.tsv (from the compiled code: the T4 fit), both PROG's values
 * on GPU, are read here and nowhere else:
 * one value a line, NAME<TAB>VALUE<TAB>SOURCE, NAME being [a-z][a-z0-9_]*,
 * VALUE a number as strtod reads it, SOURCE where it comes from
 * (evidence/spmv/nvidia-h200.txt:14). PROG is the directory, GPU the file's
 * name (a slug: nvidia-h200). Blank lines are skipped. A value that is not
 * a finite number (a named hole that holds text) is an error, naming its
 * SOURCE, where a quote or claim uses it.
 *
 * A quote or a claim is noweb quoted code in prose; TEXT is what stands
 * between [[ and ]]:
 *     =[GPU:] EXPR [|FMT]            a quote: the value of EXPR
 *     ?[GPU,GPU...:] EXPR OP EXPR    a claim, OP one of < <= > >= == !=
 *     expr   := term (('+'|'-') term)*
 *     term   := factor (('*'|'/') factor)*
 *     factor := NUMBER | NAME | '(' expr ')' | '-' factor
 *     NAME   := PROG '.' IDENT ['@' GPU], PROG [A-Za-z0-9_]+,
 *               IDENT [a-z][a-z0-9_]*
 *     NUMBER := D+ ('.' D+)? ([eE] [+-]? D+)?
 *     FMT    := %.Nf | %.Nf% | %d    (N 0..6; %.Nf% is 100 times the
 *                                      value and a percent sign; %d rounds;
 *                                      without FMT, %g)
 * Blanks may stand between tokens. A quote or claim names at least one
 * value: a number in the prose is quoted, never typed.
 *
 * A name pinned to a GPU, spmv.t4_dram_gbs@tesla-t4, is that GPU's value
 * whatever GPU the rest of the expression is of, so that one quote can
 * compare two cards (a minus right after a pinned name needs a blank before
 * it, since a GPU's slug holds hyphens). Which GPU a quote is of: the one it
 * names; else the only GPU on which every name of EXPR is recorded (every
 * name pinned: the first pin's). A claim is checked on every GPU (of its
 * list, where it has one) on which all its names are recorded; there must
 * be at least one.
 *
 * Every function that can fail returns 0, or -1 with a one-line message in
 * err (size bytes), which the caller puts after file:line.
 */
#ifndef QUOTE_H
#define QUOTE_H

#include "noweb.h"
#include "util.h"

#include <stddef.h>

/* A recorded value: PROG.NAME on GPU. */
struct nw_value {
    char *prog, *gpu, *name, *source;
    char *text; /* VALUE as written */
    double v;
    int finite; /* VALUE is a finite number, v */
};

/* Every value read, and the GPUs they were recorded on (sorted). */
struct nw_values {
    struct nw_value *v;
    size_t n, cap;
    char **gpus;
    size_t ngpus, gpus_cap;
    /* GPUs whose values this build cannot compute (DIR/GPU.absent), each
     * with the reason, the file's first line */
    char **absent, **absent_why;
    size_t nabsent;
    /* The page that shows each program's transcripts (DIR/pages.tsv):
     * pages[2k] the program, pages[2k + 1] its chapter */
    char **pages;
    size_t npages;
};

/* Reads one values file as PROG's values on GPU. Returns 0, or -1 having
 * said why on stderr. */
int nw_values_read(struct nw_values *vs, const char *path, const char *prog,
                   const char *gpu);
/* Reads every DIR/PROG/GPU.tsv and GPU.fit.tsv, and DIR/pages.tsv, where
 * it is there: PROG<TAB>CHAPTER a line, the chapter whose page shows the
 * transcripts of PROG (a program, a run or a profile); but the transcripts'
 * values of the nskip programs and GPUs skip names (PROG, GPU, PROG, GPU,
 * ...: 2 * nskip strings), and every DIR/GPU.absent: a GPU whose values this
 * build cannot compute (the T4 fit without nvcc), its first line saying
 * why. A missing DIR holds no values. */
int nw_values_read_dir(struct nw_values *vs, const char *dir,
                       char *const *skip, size_t nskip);
/* The chapter whose page shows PROG's transcripts (DIR/pages.tsv), or
 * NULL. */
const char *nw_values_page(const struct nw_values *vs, const char *prog);
/* PROG.NAME on GPU, or NULL. */
const struct nw_value *nw_values_find(const struct nw_values *vs,
                                      const char *prog, const char *name,
                                      const char *gpu);
void nw_values_free(struct nw_values *vs);

/* Is a program name [A-Za-z0-9_]+? Is a GPU a slug: [a-z0-9]+ in runs
 * joined by single hyphens? */
int nw_is_prog_name(const char *s);
int nw_is_gpu_slug(const char *s);

enum nw_quote_kind { NW_Q_VALUE, NW_Q_CLAIM };
enum nw_cmp { NW_LT, NW_LE, NW_GT, NW_GE, NW_EQ, NW_NE };

/* A node of an expression: a number, a name, or an operator ('~' for
 * negation, whose operand is a) on nodes a and b. */
struct nw_enode {
    char op; /* 'n' number, 'v' name, '~', '+', '-', '*', '/' */
    double num;
    char *prog, *name;
    char *gpu; /* NAME@GPU: the GPU the name is pinned to, else NULL */
    int a, b;
};

struct nw_quote {
    enum nw_quote_kind kind;
    char *body;   /* EXPR, or EXPR OP EXPR, as written, without GPUs and
                     format */
    char **gpus;  /* the GPUs named, in order */
    size_t ngpus;
    struct nw_enode *nodes;
    size_t nnodes, cap;
    int lhs, rhs; /* the expressions' roots; rhs for a claim only */
    enum nw_cmp cmp;
    int decimals; /* %.Nf: N; -1 for %g or %d */
    int percent;  /* %.Nf% */
    int rounded;  /* %d */
};

/* Is TEXT, quoted code of the prose, a quote or a claim: does it begin
 * with '=' or '?'? */
int nw_is_quote(const char *text);
/* The text of quoted code, items from+1..end-1 of c (an NW_QUOTE at from,
 * its NW_ENDQUOTE at end): line ends and tabs as blanks, a chunk reference
 * as <<name>>. Free it. */
char *nw_quote_text(const struct nw_chunk *c, size_t from, size_t end);

int nw_quote_parse(const char *text, struct nw_quote *q, char *err,
                   size_t size);
void nw_quote_free(struct nw_quote *q);
/* "<", "<=", ... */
const char *nw_cmp_name(enum nw_cmp cmp);

/* Why the quote or claim cannot be woven here: where every GPU it names
 * has no values and is absent (nw_values_read_dir), the reason; else NULL,
 * and it must resolve as usual. */
const char *nw_quote_absent(const struct nw_quote *q,
                            const struct nw_values *vs);

/* The GPU a quote is of, into *gpu (a string of vs). */
int nw_quote_gpu(const struct nw_quote *q, const struct nw_values *vs,
                 const char **gpu, char *err, size_t size);
/* The GPUs a claim is checked on, into out (room for vs->ngpus), their
 * number into *n (at least 1). */
int nw_claim_gpus(const struct nw_quote *q, const struct nw_values *vs,
                  const char **out, size_t *n, char *err, size_t size);
/* The expression whose root is node root, on gpu. Fails on a name not
 * recorded there or not a finite number, a division by zero, a result that
 * is not finite. */
int nw_quote_eval(const struct nw_quote *q, int root,
                  const struct nw_values *vs, const char *gpu, double *out,
                  char *err, size_t size);
/* A value as the quote's format writes it. */
void nw_quote_format(const struct nw_quote *q, double v, char *out,
                     size_t size);
/* Where the quote's values come from, on gpu: "PROG.NAME on GPU: SOURCE"
 * for each name, once, joined by "; ". */
void nw_quote_provenance(const struct nw_quote *q, const struct nw_values *vs,
                         const char *gpu, struct nw_buf *b);
/* The recorded values a quote or claim names, on gpu, each once, in the
 * order it names them: at most max into out. Returns their number. */
size_t nw_quote_sources(const struct nw_quote *q, const struct nw_values *vs,
                        const char *gpu, const struct nw_value **out,
                        size_t max);
/* A quote's text, as its format writes its value on the GPU it is of (into
 * *gpu); with prov not NULL, its provenance there too. */
int nw_quote_value(const struct nw_quote *q, const struct nw_values *vs,
                   const char **gpu, char *out, size_t outsize,
                   struct nw_buf *prov, char *err, size_t size);
/* A claim's two sides on gpu, for a reader: "614.5 > 480.4", each side in
 * six significant digits and without an exponent where its digits can be
 * shown (480.4, not 480.40000000000003; 100, not 1e+02). Returns 0, or -1
 * where a side cannot be evaluated there. */
int nw_claim_sides(const struct nw_quote *q, const struct nw_values *vs,
                   const char *gpu, char *out, size_t size);
/* Does a claim hold on gpu? *holds 1 or 0; why (where not NULL) says
 * "0.97 >= 0.98 is false" (or true), with each side's shortest exact
 * digits. */
int nw_claim_holds(const struct nw_quote *q, const struct nw_values *vs,
                   const char *gpu, int *holds, char *why, size_t whysize,
                   char *err, size_t size);

#endif
