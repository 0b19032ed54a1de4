/* evidence-names: the names the evidence gives programs, checked before
 * make hands any of them to a recipe.
 *
 * Usage:
 *   evidence-names DIR [PROGRAM...] [-- PROFILE...]
 *
 * DIR is the evidence folder; the PROGRAMs are those the chapters compile
 * and the PROFILEs those DIR's PROG.ncu files name (PROG_ncu), as book.mk
 * says. Holds DIR to this:
 *   - a folder of evidence is named for its program: letters, digits, _
 *     and -; a transcript in it for its GPU: lowercase letters, digits
 *     and -, then .txt;
 *   - no program of the book takes a profile's name, PROG_ncu;
 *   - a run, RUN.run, is named in lowercase letters, digits and _, no
 *     program's or profile's name, and holds one line: a program of the
 *     book, then arguments of letters, digits and - _ . , = : / + (words
 *     split at blanks, as the run's script splits them), with no carriage
 *     return.
 * Writes nothing and exits 0 where all is well; else says the first thing
 * wrong in one line, FILE:1: what (nw_error), and exits 1. A name reaches
 * no shell: the Makefile runs this before any recipe reads a run.
 */
#define _POSIX_C_SOURCE 200809L
#include "util.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char kTool[] = "evidence-names";

/* Whether every byte of s is a letter or digit of the case(s) allowed, or
 * one of extra. */
static int made_of(const char *s, size_t n, int upper, const char *extra) {
    for (size_t i = 0; i < n; ++i) {
        const char c = s[i];
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
            (upper && c >= 'A' && c <= 'Z') || (c != '\0' && strchr(extra, c))) {
            continue;
        }
        return 0;
    }
    return 1;
}

static int has_suffix(const char *s, const char *suffix) {
    const size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

static int listed(const char *name, char **list, int n) {
    for (int i = 0; i < n; ++i) {
        if (strcmp(list[i], name) == 0) {
            return 1;
        }
    }
    return 0;
}

static int by_name(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in folder dir that a shell's glob would give (none starting
 * with a dot), sorted, in a NULL-terminated array; NULL where dir cannot
 * be read. */
static char **names_in(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) {
        return NULL;
    }
    char **v = NULL;
    size_t n = 0, cap = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.') {
            continue;
        }
        v = nw_grow(v, &cap, n + 2, sizeof *v);
        v[n++] = nw_xstrdup(e->d_name);
    }
    closedir(d);
    v = nw_grow(v, &cap, n + 1, sizeof *v);
    v[n] = NULL;
    qsort(v, n, sizeof *v, by_name);
    return v;
}

static void free_names(char **v) {
    for (size_t i = 0; v && v[i]; ++i) {
        free(v[i]);
    }
    free(v);
}

static char *join(const char *dir, const char *name) {
    struct nw_buf b = {NULL, 0, 0};
    nw_buf_puts(&b, dir);
    nw_buf_puts(&b, "/");
    nw_buf_puts(&b, name);
    return b.s;
}

static int is_dir(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The folders of transcripts, EVIDENCE/PROG/GPU.txt. */
static int check_folders(const char *evidence, char **names) {
    int bad = 0;
    for (size_t i = 0; !bad && names[i]; ++i) {
        char *dir = join(evidence, names[i]);
        if (is_dir(dir)) {
            char **txts = NULL;
            if (!made_of(names[i], strlen(names[i]), 1, "_-")) {
                nw_error(dir, 1, "a folder of evidence is named for its program: letters, digits, _ and -");
                bad = 1;
            } else if ((txts = names_in(dir)) == NULL) {
                nw_error(dir, 0, "cannot read");
                bad = 1;
            }
            for (size_t j = 0; !bad && txts[j]; ++j) {
                const size_t n = strlen(txts[j]);
                if (has_suffix(txts[j], ".txt") && !made_of(txts[j], n - 4, 0, "-")) {
                    char *t = join(dir, txts[j]);
                    nw_error(t, 1, "a transcript is named for its GPU, in lowercase letters, digits and - (NVIDIA H200 is nvidia-h200.txt)");
                    free(t);
                    bad = 1;
                }
            }
            free_names(txts);
        }
        free(dir);
    }
    return bad;
}

/* One run, EVIDENCE/RUN.run, whose text is text. */
static int check_run(const char *path, const char *run, char *text, char **programs,
                     int nprograms, char **profiles, int nprofiles) {
    if (!made_of(run, strlen(run), 0, "_")) {
        nw_error(path, 1, "\"%s\" is not a run's name: lowercase letters, digits and _", run);
        return 1;
    }
    if (listed(run, programs, nprograms) || listed(run, profiles, nprofiles)) {
        nw_error(path, 1, "%s is the name of a program of the book; give the run a name of its own", run);
        return 1;
    }
    /* One line, as awk counts them (a last line without its newline
     * counts), split as the shell's read splits it: the first word is the
     * program, the rest, its blanks at both ends dropped, the arguments. */
    size_t lines = 0, len = strlen(text);
    for (size_t i = 0; i < len; ++i) {
        lines += text[i] == '\n';
    }
    lines += len > 0 && text[len - 1] != '\n';
    char *line = text, *end = strchr(text, '\n');
    if (end) {
        *end = '\0';
    }
    const char *blank = " \t";
    char *prog = line + strspn(line, blank);
    char *args = prog + strcspn(prog, blank);
    const int had_args = *args != '\0';
    if (had_args) {
        *args++ = '\0';
        args += strspn(args, blank);
        size_t n = strlen(args);
        while (n > 0 && strchr(blank, args[n - 1])) {
            args[--n] = '\0';
        }
    }
    if (lines != 1 || *prog == '\0') {
        nw_error(path, 1, "want one line, PROG ARG...: a program of the book and its arguments");
        return 1;
    }
    if (strchr(prog, '\r') || strchr(args, '\r')) {
        nw_error(path, 1, "the line ends in a carriage return (CRLF, a Windows line end); save it with LF alone");
        return 1;
    }
    if (!listed(prog, programs, nprograms)) {
        struct nw_buf all = {NULL, 0, 0};
        nw_buf_puts(&all, "");
        for (int i = 0; i < nprograms; ++i) {
            nw_buf_puts(&all, i ? " " : "");
            nw_buf_puts(&all, programs[i]);
        }
        nw_error(path, 1, "%s is not a program of the book (%s)", prog, all.s);
        free(all.s);
        return 1;
    }
    if (!made_of(args, strlen(args), 1, "-_.,=:/+ ")) {
        nw_error(path, 1, "an argument holds a character other than letters, digits and - _ . , = : / +");
        return 1;
    }
    return 0;
}

static int check_runs(const char *evidence, char **names, char **programs, int nprograms,
                      char **profiles, int nprofiles) {
    int bad = 0;
    for (size_t i = 0; !bad && names[i]; ++i) {
        if (!has_suffix(names[i], ".run")) {
            continue;
        }
        char *path = join(evidence, names[i]);
        char *run = nw_xstrdup(names[i]);
        run[strlen(run) - 4] = '\0';
        char *text = nw_slurp_file(path, NULL);
        if (!text) {
            nw_error(path, 0, "cannot read");
            bad = 1;
        } else {
            bad = check_run(path, run, text, programs, nprograms, profiles, nprofiles);
        }
        free(text);
        free(run);
        free(path);
    }
    return bad;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s DIR [PROGRAM...] [-- PROFILE...]\n", kTool);
        return 2;
    }
    const char *evidence = argv[1];
    char **programs = argv + 2, **profiles = argv + argc;
    int nprograms = argc - 2, nprofiles = 0;
    for (int i = 2; i < argc; ++i) {
        if (strcmp(argv[i], "--") == 0) {
            nprograms = i - 2;
            profiles = argv + i + 1;
            nprofiles = argc - i - 1;
            break;
        }
    }
    char **names = names_in(evidence);
    if (!names) {
        nw_error(evidence, 0, "cannot read");
        return 1;
    }
    int bad = check_folders(evidence, names);
    for (int i = 0; !bad && i < nprofiles; ++i) {
        if (listed(profiles[i], programs, nprograms) && has_suffix(profiles[i], "_ncu")) {
            char *ncu = nw_xstrdup(profiles[i]);
            strcpy(ncu + strlen(ncu) - 4, ".ncu");
            char *path = join(evidence, ncu);
            nw_error(path, 1, "its profile is named %s, as a program of the book is; rename the program", profiles[i]);
            free(path);
            free(ncu);
            bad = 1;
        }
    }
    if (!bad) {
        bad = check_runs(evidence, names, programs, nprograms, profiles, nprofiles);
    }
    free_names(names);
    return bad;
}
