/* run-md: the section of a chapter's page that shows how its programs are
 * built and what they printed.
 *
 * Usage: run-md [-k CODE] [-f FRESH] -M MODEL > run.md
 *
 * MODEL is the chapter's model, build/md/NAME.model (tools/lib/model.h).
 * For each program of it: its file to download, the compile line (the one
 * the build uses, from tools/compile.mk), and every transcript recorded for
 * it in evidence/, each shown verbatim after a line saying where and when
 * it was recorded. Then each of its runs (evidence/RUN.run: the program
 * with the arguments of a variant, such as an exercise's), headed with its
 * command line, and the run's transcripts the same way; then its profile
 * (evidence/PROG.ncu: the counters make profile records), and the
 * profile's transcripts, all in the model's order. Everything is
 * escaped, by pandoc as code or (a transcript, whose every line has an id)
 * by nw_put_html; nothing from a transcript reaches the page as markup.
 *
 * A transcript's chart is not shown here: the chapter places it where its
 * prose argues from it (chapter-md, [[!chart PROG]]).
 *
 * With -k, each compile line's block goes to CODE, after a line
 * <!--NWRUN0001-->, and the page has that line in its place: highlighted
 * apart from the page, as chapter-md -c does with the chapter's code
 * (chunk-links puts it back).
 *
 * With -f, each transcript's line of provenance ends with its fingerprint,
 * and a stale one (README, "Fingerprints") is shown under a warning that
 * says what changed: FRESH/PROG.txt holds progcheck.sh fresh's verdicts on
 * PROG's transcripts, and a transcript with none there stops the page.
 *
 * Transcripts are read with tcheck's reader (tools/evidence/transcript.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "escape.h"
#include "model.h"
#include "names.h"
#include "util.h"
#include "transcript.h"

#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

/* Not NW_MD_MARKS: this set leaves ' and " to pandoc's smart quotes. */
static const char kMdMarks[] = "\\`*_{}[]()#+-.!<>|$&";

/* "Recorded on GPU (compute capability X, N SMs; ...) on DATE at commit
 * C": each header value after the words before it. */
static void recorded_on(const struct transcript *t, const char *path) {
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
        {", fingerprint ", "fingerprint"},
    };
    for (size_t k = 0; k < sizeof parts / sizeof parts[0]; ++k) {
        size_t n;
        const char *v = transcript_value(t, parts[k].key, &n);
        if (v == NULL && strcmp(parts[k].key, "fingerprint") == 0) {
            fputs(", with no fingerprint", stdout);
            continue;
        }
        if (v != NULL && strcmp(parts[k].key, "fingerprint") == 0) {
            const char *sp = memchr(v, ' ', n); /* the whole hash alone */
            n = sp ? (size_t)(sp - v) : n;
        }
        char value[512];
        snprintf(value, sizeof value, "%.*s", v ? (int)n : 0, v ? v : "");
        fputs(parts[k].before, stdout);
        nw_put_md_text(stdout,
                       k == 0 && value[0] == '\0' ? "an unnamed GPU" : value,
                       kMdMarks);
    }
    printf(", from `%s`:\n\n", path);
}

/* The fresh verdicts' folder (-f), or NULL. */
static const char *fresh_dir;

/* Where -f is given: a warning before a stale transcript, saying why, from
 * FRESH/PROG.txt, progcheck.sh fresh's lines for PROG. Returns 0, or 1
 * where there is no verdict (said on stderr): a transcript is never shown
 * without one. */
static int stale_warning(const char *path) {
    if (fresh_dir == NULL) {
        return 0;
    }
    const char *base = strrchr(path, '/');
    const char *dir = base;
    while (dir != NULL && dir > path && dir[-1] != '/') {
        --dir;
    }
    if (base == NULL || dir == NULL || dir == base) {
        nw_error(path, 0, "not evidence/PROG/GPU.txt");
        return 1;
    }
    size_t size = strlen(fresh_dir) + (size_t)(base - dir) + 8;
    char *vpath = nw_xrealloc(NULL, size);
    snprintf(vpath, size, "%s/%.*s.txt", fresh_dir, (int)(base - dir), dir);
    char *verdicts = nw_slurp_text(vpath);
    if (verdicts == NULL) {
        nw_error(vpath, 0, "no verdict on whether %s is of today's code", path);
        free(vpath);
        return 1;
    }
    size_t want = strlen(path) + 32;
    char *head = nw_xrealloc(NULL, want);
    snprintf(head, want, "FAIL fresh %s: ", path);
    int found = 0;
    for (const char *l = verdicts; l && *l;) {
        const char *nl = strchr(l, '\n');
        size_t len = nl ? (size_t)(nl - l) : strlen(l);
        if (strncmp(l, head, strlen(head)) == 0) {
            const char *w = l + strlen(head);
            size_t wn = len - strlen(head);
            if (wn >= 7 && strncmp(w, "stale: ", 7) == 0) {
                w += 7, wn -= 7;
            }
            char *why = nw_xrealloc(NULL, wn + 1);
            snprintf(why, wn + 1, "%.*s", (int)wn, w);
            printf("::: {.stale}\n**Stale.** This transcript measured other "
                   "code than this page shows (");
            nw_put_md_text(stdout, why, kMdMarks);
            printf("); the values quoted from it are of that code until it is "
                   "recorded again on a GPU.\n:::\n\n");
            free(why);
            found = 1;
        } else if (len >= strlen(head) - 2 && strncmp(l, "PASS ", 5) == 0 &&
                   strncmp(l + 5, head + 5, strlen(head) - 7) == 0 &&
                   (len == strlen(head) - 2 || l[strlen(head) - 2] == ' ')) {
            found = 1;
        }
        l = nl ? nl + 1 : NULL;
    }
    if (!found) {
        nw_error(vpath, 0, "no verdict on whether %s is of today's code", path);
    }
    free(head);
    free(verdicts);
    free(vpath);
    return !found;
}

/* A transcript's output, text from offset on, as the page shows it: a
 * <pre class="transcript">, HTML-escaped, each line in a span whose id is
 * that line's of the file, the source a quoted value names
 * (nw_transcript_line_id), so that a quote links to the line it came from. */
static void put_transcript(const char *path, const char *text, size_t offset) {
    long line = 1;
    for (size_t k = 0; k < offset; ++k) {
        line += text[k] == '\n';
    }
    size_t fence = nw_fence_length(nw_longest_run(text + offset, '~'));
    nw_put_run(stdout, '~', fence);
    fputs(" {=html}\n<pre class=\"transcript\"><code>", stdout);
    size_t size = strlen(path) + 32;
    char *source = nw_xrealloc(NULL, size), id[NW_ANCHOR_MAX];
    for (const char *p = text + offset; *p; ++line) {
        size_t n = strcspn(p, "\n");
        char *one = nw_xrealloc(NULL, n + 1);
        memcpy(one, p, n);
        one[n] = '\0';
        snprintf(source, size, "%s:%ld", path, line);
        if (nw_transcript_line_id(source, id, sizeof id) == 0) {
            printf("<span id=\"%s\">", id);
            nw_put_html(stdout, one);
            fputs("</span>", stdout);
        } else {
            nw_put_html(stdout, one);
        }
        free(one);
        p += n;
        if (*p == '\n') {
            putchar('\n');
            ++p;
        }
    }
    free(source);
    fputs("</code></pre>\n", stdout);
    nw_put_run(stdout, '~', fence);
    putchar('\n');
}

/* One transcript. Returns 0, or 1 where
 * it is not a transcript (said on stderr). */
static int show_transcript(const char *path) {
    char *text = nw_slurp_text(path);
    if (text == NULL) {
        nw_error(path, 0, "cannot read the transcript, or it is not text");
        return 1;
    }
    struct transcript *t = transcript_read(path);
    if (t == NULL) {
        free(text);
        return 1;
    }
    if (stale_warning(path) != 0) {
        transcript_free(t);
        free(text);
        return 1;
    }
    recorded_on(t, path);
    put_transcript(path, text, transcript_offset(t));
    putchar('\n');
    transcript_free(t);
    free(text);
    return 0;
}

/* The transcripts of e; shown says how many were. Returns 0, or 1 where
 * one could not be shown. */
static int show_transcripts(const struct nw_model_entry *e, int *shown) {
    int status = 0;
    *shown = 0;
    for (size_t k = 0; k < e->ntranscripts; ++k) {
        if (show_transcript(e->transcripts[k]) != 0) {
            status = 1;
        } else {
            ++*shown;
        }
    }
    return status;
}

/* A run of the program above: its command line as the heading, then its
 * transcripts. The run's name is code, as the file that declares it and
 * the command that records it. */
static int show_run(const struct nw_model_entry *e) {
    size_t size = strlen(e->name) + strlen(e->prog) + strlen(e->args) + 32;
    char *text = nw_xrealloc(NULL, size);
    int shown;
    snprintf(text, size, "./%s%s%s", e->prog, *e->args ? " " : "", e->args);
    printf("#### ");
    nw_put_md_code(stdout, text);
    printf("\n\nA run of the program above with other arguments, as ");
    snprintf(text, size, "evidence/%s.run", e->name);
    nw_put_md_code(stdout, text);
    printf(" gives them.\n\n");
    int status = show_transcripts(e, &shown);
    if (shown == 0) {
        printf("No transcript is recorded for this run yet; ");
        snprintf(text, size, "make record PROG=%s", e->name);
        nw_put_md_code(stdout, text);
        printf(" on a GPU makes one.\n\n");
    }
    free(text);
    return status;
}

/* The profile of the program above, PROG_ncu: what it counts and how it
 * is recorded, then its transcripts. */
static int show_profile(const struct nw_model_entry *e) {
    size_t size = strlen(e->prog) + 32;
    char *text = nw_xrealloc(NULL, size);
    int shown;
    printf("#### Its profile\n\nNsight Compute's counters of its kernels, as ");
    snprintf(text, size, "evidence/%s.ncu", e->prog);
    nw_put_md_code(stdout, text);
    printf(" asks for them; ");
    snprintf(text, size, "make profile PROG=%s", e->prog);
    nw_put_md_code(stdout, text);
    printf(" records them on a GPU.\n\n");
    int status = show_transcripts(e, &shown);
    if (shown == 0) {
        printf("No profile is recorded yet.\n\n");
    }
    free(text);
    return status;
}

/* Where the compile lines go (-k): the file, and the blocks it has. */
struct code_out {
    FILE *f;
    unsigned n;
};

/* A program: its file, its compile line, its transcripts. Returns 0, or 1
 * where a transcript could not be shown. */
static int show_program(const struct nw_model_entry *e,
                        struct code_out *code) {
    int shown;
    printf("### `%s.cu`\n\n", e->name);
    printf("[Download %s.cu](src/%s.cu){download=\"\"}. Compiled with:\n\n",
           e->name, e->name);
    if (code->f != NULL) {
        ++code->n;
        printf("```{=html}\n<!--NWRUN%04u-->\n```\n", code->n);
        fprintf(code->f, "<!--NWRUN%04u-->\n\n", code->n);
        nw_put_code_block(code->f, ".sh .compile-line", e->line);
        fputc('\n', code->f);
    } else {
        nw_put_code_block(stdout, ".sh .compile-line", e->line);
    }
    putchar('\n');
    int status = show_transcripts(e, &shown);
    if (shown == 0) {
        printf("No transcript is recorded for this program yet; "
               "`make record` on a GPU makes one.\n\n");
    }
    return status;
}

int main(int argc, char **argv) {
    const char *code_path = NULL, *model_path = NULL;
    int i = 1;
    for (; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "-k") == 0) {
            code_path = argv[i + 1];
        } else if (strcmp(argv[i], "-f") == 0) {
            fresh_dir = argv[i + 1];
        } else if (strcmp(argv[i], "-M") == 0) {
            model_path = argv[i + 1];
        } else {
            break;
        }
    }
    if (i != argc || model_path == NULL) {
        fprintf(stderr, "usage: %s [-k CODE] [-f FRESH] -M MODEL\n", argv[0]);
        return 2;
    }
    struct nw_model model;
    if (nw_model_read(model_path, &model) != 0) {
        return 1;
    }
    struct code_out code = {NULL, 0};
    if (code_path != NULL && (code.f = fopen(code_path, "w")) == NULL) {
        nw_error(code_path, 0, "cannot write");
        nw_model_free(&model);
        return 1;
    }
    int status = 0;
    printf("## Building and running {#sec-running}\n\n");
    if (model.n == 0) {
        printf("This chapter has no programs.\n");
    }
    for (size_t k = 0; k < model.n; ++k) {
        const struct nw_model_entry *e = &model.v[k];
        status |= e->kind == NW_MODEL_PROGRAM ? show_program(e, &code)
                  : e->kind == NW_MODEL_RUN   ? show_run(e)
                                              : show_profile(e);
    }
    nw_model_free(&model);
    status |= nw_flush_stdout("run-md");
    if (code.f != NULL && fclose(code.f) != 0) {
        nw_error(code_path, 0, "cannot write");
        status = 1;
    }
    return status;
}
