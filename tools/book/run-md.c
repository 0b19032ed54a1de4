/* evmd: the section of a chapter's page that shows how its programs are
 * built and what they printed.
 *
 * Usage: evmd [-c CHARTS] PROG 'COMPILE LINE' [TRANSCRIPT...] -- [PROG ...]
 *             > run.md
 *
 * For each program: its file to download, the compile line (the one the
 * build uses, from tools/compile.mk), and every transcript recorded for it
 * in evidence/, each shown verbatim after a line saying where and when it
 * was recorded. Everything is escaped by pandoc as code; nothing from a
 * transcript reaches the page as markup.
 *
 * With -c, a transcript evidence/PROG/GPU.txt whose chart evchart has drawn
 * is shown after its chart: the figure CHARTS/PROG/GPU.md, Markdown that
 * evchart wrote and escaped, is copied in before the transcript.
 */
#define _POSIX_C_SOURCE 200809L
#include "nwpipe.h"

#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

/* A transcript is "key: value" header lines, then the line
 * "--- output ---", then the output verbatim (tools/tcheck.c writes it). */
static const char kSeparator[] = "--- output ---\n";

/* The value of one header key, or "" where there is none. */
static void header_value(const char *text, const char *key, char *out,
                         size_t size) {
    size_t klen = strlen(key);
    out[0] = '\0';
    for (const char *p = text; *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (strncmp(p, kSeparator, sizeof kSeparator - 1) == 0) {
            return;
        }
        if (strncmp(p, key, klen) == 0 && p[klen] == ':') {
            const char *v = p + klen + 1;
            v += strspn(v, " ");
            snprintf(out, size, "%.*s", (int)(len - (size_t)(v - p)), v);
            return;
        }
        if (e == NULL) {
            break;
        }
        p = e + 1;
    }
}

/* The output the transcript holds, or NULL if it has no separator. */
static const char *transcript_body(const char *text) {
    for (const char *p = text; *p;) {
        if (strncmp(p, kSeparator, sizeof kSeparator - 1) == 0) {
            return p + sizeof kSeparator - 1;
        }
        const char *e = strchr(p, '\n');
        if (e == NULL) {
            break;
        }
        p = e + 1;
    }
    return NULL;
}

/* Not NW_MD_MARKS: this set leaves ' and " to pandoc's smart quotes. */
static const char kMdMarks[] = "\\`*_{}[]()#+-.!<>|$&";

/* CHARTS/PROG/GPU.md for the transcript .../PROG/GPU.txt, if it exists. */
static char *chart_for(const char *charts, const char *transcript) {
    const char *base = strrchr(transcript, '/');
    if (charts == NULL || base == NULL || base == transcript) {
        return NULL;
    }
    const char *dir = base - 1;
    while (dir > transcript && dir[-1] != '/') {
        --dir;
    }
    size_t stem = strlen(dir);
    if (stem < 4 || strcmp(dir + stem - 4, ".txt") != 0) {
        return NULL;
    }
    size_t size = strlen(charts) + stem + 2;
    char *path = nw_xrealloc(NULL, size);
    snprintf(path, size, "%s/%.*s.md", charts, (int)(stem - 4), dir);
    char *md = nw_slurp_text(path);
    free(path);
    return md;
}

int main(int argc, char **argv) {
    int status = 0;
    printf("## Building and running {#sec-running}\n\n");
    int i = 1;
    const char *charts = NULL;
    if (argc > 2 && strcmp(argv[1], "-c") == 0) {
        charts = argv[2];
        i = 3;
    }
    if (i >= argc) {
        printf("This chapter has no programs.\n");
    }
    while (i < argc) {
        if (i + 1 >= argc) {
            fprintf(stderr, "usage: %s [-c CHARTS] PROG 'COMPILE LINE' "
                            "[TRANSCRIPT...] -- ...\n", argv[0]);
            return 2;
        }
        const char *prog = argv[i];
        const char *line = argv[i + 1];
        i += 2;
        printf("### `%s.cu`\n\n", prog);
        printf("[Download %s.cu](src/%s.cu). Compiled with:\n\n", prog, prog);
        nw_put_code_block(stdout, ".sh .compile-line", line);
        putchar('\n');
        int shown = 0;
        for (; i < argc && strcmp(argv[i], "--") != 0; ++i) {
            char *text = nw_slurp_text(argv[i]);
            if (text == NULL) {
                fprintf(stderr, "%s: cannot read the transcript, or it is not "
                                "text\n", argv[i]);
                status = 1;
                continue;
            }
            const char *body = transcript_body(text);
            if (body == NULL) {
                fprintf(stderr, "%s: no '--- output ---' line; not a "
                                "transcript\n", argv[i]);
                status = 1;
                free(text);
                continue;
            }
            /* "Recorded on GPU (compute capability X, N SMs; ...) on DATE
             * at commit C": each header value after the words before it. */
            static const struct {
                const char *before, *key;
            } parts[] = {
                {"Recorded on ", "gpu"},
                {" (compute capability ", "compute capability"},
                {", ", "sms"},
                {" SMs; driver ", "driver"},
                {", CUDA runtime ", "runtime"},
                {", nvcc ", "nvcc"},
                {") on ", "date"},
                {" at commit ", "commit"},
            };
            for (size_t k = 0; k < sizeof parts / sizeof parts[0]; ++k) {
                char v[512];
                header_value(text, parts[k].key, v, sizeof v);
                fputs(parts[k].before, stdout);
                nw_put_md_text(stdout, k == 0 && v[0] == '\0' ? "an unnamed GPU" : v,
                               kMdMarks);
            }
            printf(", from `%s`:\n\n", argv[i]);
            char *chart = chart_for(charts, argv[i]);
            if (chart != NULL) {
                fputs(chart, stdout);
                free(chart);
            }
            nw_put_code_block(stdout, ".transcript", body);
            putchar('\n');
            free(text);
            ++shown;
        }
        if (i < argc) {
            ++i; /* the "--" */
        }
        if (shown == 0) {
            printf("No transcript is recorded for this program yet; "
                   "`make record` on a GPU makes one.\n\n");
        }
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "%s: cannot write\n", argv[0]);
        status = 1;
    }
    return status;
}
