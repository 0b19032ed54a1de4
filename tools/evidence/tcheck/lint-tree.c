/* lint-tree.c: tcheck lint-tree, the evidence tree itself, no GPU
 * needed: each program's expectation and transcripts, and nothing that
 * belongs to no program.
 */
#include "tcheck.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int is_dir(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int starts_with(const char *s, const char *prefix) {
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* s ends in sfx, with something before it. */
static int ends_with(const char *s, const char *sfx) {
    size_t n = strlen(s), k = strlen(sfx);
    return n > k && strcmp(s + n - k, sfx) == 0;
}

static int by_name(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in a directory but . and .., sorted; none where it cannot be
 * listed (it does not exist, say). */
static char **list_dir(const char *path, size_t *n) {
    char **names = NULL;
    size_t cap = 0;
    *n = 0;
    DIR *d = opendir(path);
    if (!d) {
        return NULL;
    }
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0) {
            continue;
        }
        names = nw_grow(names, &cap, *n + 1, sizeof *names);
        names[(*n)++] = nw_xstrdup(de->d_name);
    }
    closedir(d);
    if (*n) {
        qsort(names, *n, sizeof *names, by_name);
    }
    return names;
}

static void free_names(char **names, size_t n) {
    for (size_t i = 0; i < n; i++) {
        free(names[i]);
    }
    free(names);
}

/* Verdicts counted, for "N passed, N failed, N skipped". */
struct tally {
    size_t passed, failed, skipped;
};

/* What lint found wrong with one program's evidence. */
struct findings {
    struct nw_buf problems; /* one a line; the first is the verdict's */
    size_t n;
    struct nw_buf details; /* what the problems' reports say under them */
    int pending;        /* evidence recorded, not yet accepted */
};

static void found(struct findings *fd, const char *a, const char *b,
                  const char *c) {
    nw_buf_puts(&fd->problems, a);
    nw_buf_puts(&fd->problems, b);
    nw_buf_puts(&fd->problems, c);
    nw_buf_puts(&fd->problems, "\n");
    fd->n++;
}

/* A transcript's lint report, its first line a problem, the rest details. */
static void lint_into(const char *exp, const char *path, struct findings *fd) {
    FILE *tmp = tmpfile();
    if (!tmp) {
        fputs("tcheck: cannot make a temporary file\n", stderr);
        exit(kBad);
    }
    int rc = lint_transcript(exp, path, tmp);
    rewind(tmp);
    int c, first = 1;
    size_t n = 0;
    while (rc != kPass && (c = getc(tmp)) != EOF) {
        char ch = (char)c;
        nw_buf_add(first ? &fd->problems : &fd->details, &ch, 1);
        n++;
        first &= c != '\n';
    }
    fclose(tmp);
    if (rc == kPass) {
        return;
    }
    if (n == 0) {
        found(fd, path, ": cannot read", "");
        return;
    }
    if (first) {
        nw_buf_puts(&fd->problems, "\n");
    }
    fd->n++;
}

/* One entry of EVIDENCE/PROG/. */
static void lint_entry(const char *exp, const char *dir, const char *name,
                       struct findings *fd) {
    char *path = path_of(dir, name, "");
    if (starts_with(name, ".tmp-")) {
        found(fd, path, ": left by an interrupted record; remove it", "");
    } else if (ends_with(name, ".txt.pending")) {
        fd->pending = 1;
    } else if (ends_with(name, ".txt")) {
        if (is_file(exp)) {
            lint_into(exp, path, fd);
        }
    } else {
        found(fd, path, ": not a transcript (GPU.txt)", "");
    }
    free(path);
}

/* Lines, each indented by four spaces. */
static void put_indented(const char *s) {
    for (const char *p = s; *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        printf("    %.*s\n", (int)n, p);
        p += n + (nl != NULL);
    }
}

/* The verdict on one program's evidence. */
static void report_findings(const char *prog, struct findings *fd,
                            struct tally *t) {
    struct report r = {prog, stdout};
    char warn[200];
    snprintf(warn, sizeof warn,
             "pending evidence not accepted: review it, "
             "then make accept PROG=%s",
             prog);
    if (fd->n == 0) {
        report_verdict(&r, "PASS", fd->pending ? warn : NULL);
        t->passed++;
        return;
    }
    char *p = fd->problems.s, *nl = strchr(p, '\n');
    *nl = '\0';
    struct nw_buf why = {NULL, 0, 0};
    nw_buf_puts(&why, p);
    if (fd->n > 1) {
        char more[64];
        snprintf(more, sizeof more, " (and %zu more)", fd->n - 1);
        nw_buf_puts(&why, more);
    }
    report_verdict(&r, "FAIL", why.s);
    put_indented(nl + 1);
    put_indented(fd->details.n ? fd->details.s : "");
    free(why.s);
    t->failed++;
}

/* One program's evidence: its expectation, its transcripts, and nothing
 * else in its directory. */
static void lint_program(const char *ev, const char *prog, struct tally *t) {
    struct findings fd;
    memset(&fd, 0, sizeof fd);
    char *exp = path_of(ev, prog, ".expect"), *dir = path_of(ev, prog, "");
    char *pending = path_of(ev, prog, ".expect.pending");
    char hint[200];
    snprintf(hint, sizeof hint,
             "; make one on a GPU with: make record "
             "PROG=%s, then make accept PROG=%s",
             prog, prog);
    size_t n, transcripts = 0;
    char **names = list_dir(dir, &n);
    for (size_t i = 0; i < n; i++) {
        char *path = path_of(dir, names[i], "");
        transcripts +=
            names[i][0] != '.' && ends_with(names[i], ".txt") && is_file(path);
        free(path);
    }
    if (!is_file(exp)) {
        found(&fd, "no expectation ", exp, hint);
    }
    if (!transcripts) {
        found(&fd, "no transcript in ", dir, "/");
        fd.problems.n--; /* the hint, on the same line */
        nw_buf_puts(&fd.problems, hint);
        nw_buf_puts(&fd.problems, "\n");
    }
    for (size_t i = 0; i < n; i++) {
        lint_entry(exp, dir, names[i], &fd);
    }
    fd.pending |= is_file(pending);
    report_findings(prog, &fd, t);
    free_names(names, n);
    free(fd.problems.s);
    free(fd.details.s);
    free(pending);
    free(dir);
    free(exp);
}

/* The program a run, EVIDENCE/RUN.run, runs: the first word of its line
 * (make checks the rest), or "" where it has none. */
static char *program_of_run(const char *path) {
    char word[256] = "";
    FILE *f = fopen(path, "r");
    if (f != NULL) {
        if (fscanf(f, " %255[^ \t\n]", word) != 1) {
            word[0] = '\0';
        }
        fclose(f);
    }
    return nw_xstrdup(word);
}

/* The program an entry of EVIDENCE is evidence of: NULL where it is no
 * evidence, after saying so. A run, RUN.run, is evidence of the program it
 * runs, as a profile's spec, PROG.ncu, is of PROG; what it records, RUN/
 * and RUN.expect, is the run's. */
static char *evidence_of(const char *ev, const char *name, struct tally *t) {
    static const char *const kSuffixes[] = {".expect.pending", ".expect",
                                            ".chart", ".ncu"};
    char *path = path_of(ev, name, "");
    struct report r = {name, stdout};
    if (ends_with(name, ".run")) {
        char *prog = program_of_run(path);
        free(path);
        return prog;
    }
    for (size_t i = 0; i < sizeof kSuffixes / sizeof kSuffixes[0]; i++) {
        if (ends_with(name, kSuffixes[i])) {
            size_t n = strlen(name) - strlen(kSuffixes[i]);
            memmove(path, name, n);
            path[n] = '\0';
            return path;
        }
    }
    if (starts_with(name, ".tmp-") || !is_dir(path)) {
        struct nw_buf why = {NULL, 0, 0};
        nw_buf_puts(&why, path);
        nw_buf_puts(&why, starts_with(name, ".tmp-")
                           ? ": left by an interrupted record; remove it"
                           : " is not evidence (PROG.expect, PROG.chart, "
                             "PROG.ncu, RUN.run or PROG/)");
        report_verdict(&r, "FAIL", why.s);
        t->failed++;
        free(why.s);
        free(path);
        return NULL;
    }
    strcpy(path, name);
    return path;
}

/* Evidence that belongs to no program of the book. */
static void lint_orphans(const char *ev, char **progs, int nprogs,
                         struct tally *t) {
    size_t n;
    char **names = list_dir(ev, &n);
    for (size_t i = 0; i < n; i++) {
        if (strcmp(names[i], "README.md") == 0) {
            continue;
        }
        char *prog = evidence_of(ev, names[i], t);
        int known = prog == NULL;
        for (int k = 0; k < nprogs && !known; k++) {
            known = strcmp(progs[k], prog) == 0;
        }
        if (!known) {
            char *path = path_of(ev, names[i], "");
            struct report r = {prog, stdout};
            struct nw_buf why = {NULL, 0, 0};
            nw_buf_puts(&why, path);
            nw_buf_puts(&why, " belongs to no program of the book; remove it, "
                           "or add the program");
            report_verdict(&r, "FAIL", why.s);
            t->failed++;
            free(why.s);
            free(path);
        }
        free(prog);
    }
    free_names(names, n);
}

/* tcheck lint-tree [-c] EVIDENCE PROG...: the evidence itself, no GPU
 * needed: for each PROG a verdict line, then one for each entry of
 * EVIDENCE that belongs to none of them (so PROG... must name every
 * program of the book). With -c, a closing "N passed, N failed, N
 * skipped". Exit 1 if any failed. */
int cmd_lint_tree(int argc, char **argv) {
    int count = argc > 0 && strcmp(argv[0], "-c") == 0;
    argc -= count;
    argv += count;
    if (argc < 1) {
        return usage();
    }
    struct tally t = {0, 0, 0};
    for (int i = 1; i < argc; i++) {
        lint_program(argv[0], argv[i], &t);
    }
    lint_orphans(argv[0], argv + 1, argc - 1, &t);
    if (count) {
        printf("%zu passed, %zu failed, %zu skipped\n", t.passed, t.failed,
               t.skipped);
    }
    return t.failed ? kFail : kPass;
}
