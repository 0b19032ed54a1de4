/* model: what a chapter has to build and show, build/md/NAME.model, which
 * make writes from book.mk, tools/compile.mk and evidence/ (README.md,
 * "How the book is built", gives its format) and run-md and notebook-md
 * read here: its programs with their compile lines, each program's runs
 * and profile, and the expectation and transcripts of each.
 *
 * One record a line, its fields separated by tabs, its kind first:
 *
 *   chapter NAME              the first line, once
 *   nvcc CMD                  the command each compile line begins with
 *   program PROG LINE         a program and its compile line
 *   run RUN PROG [ARG...]     a run of a program above, its arguments
 *   profile PROG_ncu PROG     the profile of a program above
 *   expect NAME PATH          the expectation of one of those above
 *   transcript NAME PATH      a transcript of one of those above
 */
#ifndef MODEL_H
#define MODEL_H

#include <stddef.h>

enum nw_model_kind { NW_MODEL_PROGRAM, NW_MODEL_RUN, NW_MODEL_PROFILE };

/* A program, a run or a profile, in the model's order. */
struct nw_model_entry {
    enum nw_model_kind kind;
    char *name;   /* PROG, RUN or PROG_ncu */
    char *prog;   /* the program it is of: its own name for a program */
    char *line;   /* a program's compile line, else NULL */
    char *args;   /* a run's arguments, one blank between each ("" for
                     none); else NULL */
    char *expect; /* its expectation, or NULL */
    char **transcripts;
    size_t ntranscripts, cap;
    long lineno; /* the line of its record */
};

struct nw_model {
    char *path;    /* the file read, for messages */
    char *chapter; /* NAME */
    char *nvcc;    /* CMD, or NULL where there is no nvcc record */
    struct nw_model_entry *v;
    size_t n, cap;
};

/* Reads the model at path into m. Returns 0, or -1 having said what is
 * wrong in one line, "path:line: message" (nw_error), m then empty. */
int nw_model_read(const char *path, struct nw_model *m);
void nw_model_free(struct nw_model *m);

#endif
