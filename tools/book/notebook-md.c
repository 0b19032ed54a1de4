/* notebook-md: a chapter as a notebook for a free T4 GPU, in Pandoc
 * Markdown that `pandoc --to ipynb` turns into a Jupyter notebook.
 *
 * Usage: notebook-md [-t TCHECK.c] [-V VALUES] PIPE SRCDIR
 *                   [PROG 'COMPILE LINE' [EXPECT] [TRANSCRIPT...] --
 *                    [-r RUN 'ARGS' [EXPECT] [TRANSCRIPT...] --]...]...
 *
 * PIPE is the chapter's noweb pipeline (markup chapters/NAME.nw). The
 * notebook holds, in this order:
 *   - the chapter's prose as Markdown cells, one per section, each code
 *     chunk shown in its place as in the book (name, = or +=, its code);
 *   - for every file root but a figure's (fig-NAME.cpp, drawn by the
 *     book's build, not run in the notebook), a cell that writes the
 *     tangled file from SRCDIR (%%writefile);
 *   - for every program, a cell with the book's compile line (the same text
 *     the page prints, from tools/compile.mk), a cell that runs it and keeps
 *     its output and exit status;
 *   - with -t and an EXPECT (evidence/PROG.expect), cells that write the
 *     book's checker and build it with gcc, write the expectation and the
 *     recorded transcripts (evidence/PROG/GPU.txt), and check the output
 *     the way `make check` does;
 *   - after a program's, the same for each of its runs (-r, evidence/RUN.run:
 *     the program with the arguments ARGS), but the compile line: a cell
 *     that runs it, keeping its output and exit status, and the check.
 * A quote of the prose, [[=EXPR]], is its value as plain text, from the
 * values files VALUES/PROG/GPU.tsv as the page has it (quote.h); a claim,
 * [[?...]], is left out.
 * The notebook asks for a GPU, a T4 where the service offers a choice.
 *
 * Code and files reach the notebook in fenced blocks longer than any fence
 * inside them, names as escaped Markdown text, and the shell only ever sees
 * program and file names made of letters, digits and . _ + -, and
 * arguments made of those, blanks and = , : /.
 */
#include "escape.h"
#include "names.h"
#include "noweb.h"
#include "quote.h"
#include "util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const char kTool[] = "notebook-md";

/* A name the shell and %%writefile may see as it is. */
static int safe_name(const char *s) {
    if (*s == '\0' || *s == '-' || *s == '.') {
        return 0;
    }
    for (; *s; ++s) {
        unsigned char c = (unsigned char)*s;
        if (!isalnum(c) && c != '.' && c != '_' && c != '+' && c != '-') {
            return 0;
        }
    }
    return 1;
}

/* A code cell: its first line (a cell magic such as %%bash), then text. */
static void code_cell(const char *first, const char *text) {
    struct nw_buf cell = {NULL, 0, 0};
    nw_buf_puts(&cell, first);
    nw_buf_puts(&cell, "\n");
    nw_buf_puts(&cell, text);
    printf("\n::: {.cell .code}\n");
    nw_put_code_block(stdout, ".python", cell.s);
    printf(":::\n");
    free(cell.s);
}

static void open_md(void) { printf("\n::: {.cell .markdown}\n"); }
static void close_md(void) { printf(":::\n"); }

/* ------------------------------------------------------------------ */
/* The prose                                                            */

/* The values quotes are read from (-V), and the quotes that failed. */
struct quoting {
    const char *file; /* the chapter, for messages */
    const struct nw_values *values; /* NULL without -V */
    int errors;
};

/* A quote's value, or for a claim nothing, TEXT of [[TEXT]] at line. */
static void quoted_text(struct quoting *qs, const char *text, long line,
                        struct nw_buf *out) {
    struct nw_quote q;
    char err[1024], value[64];
    const char *gpu;
    int status = nw_quote_parse(text, &q, err, sizeof err);
    if (status == 0 && q.kind == NW_Q_VALUE && qs->values == NULL) {
        nw_error(qs->file, line, "quote [[%s]]: no values to quote from "
                                 "(notebook-md -V DIR)", text);
        ++qs->errors;
    } else if (status == 0 && q.kind == NW_Q_VALUE &&
               nw_quote_absent(&q, qs->values) != NULL) {
        nw_buf_puts(out, "(not computed)");
    } else if (status == 0 && q.kind == NW_Q_VALUE) {
        if (nw_quote_value(&q, qs->values, &gpu, value, sizeof value, NULL,
                           err, sizeof err) == 0) {
            nw_buf_puts(out, value);
        } else {
            nw_error(qs->file, line, "quote [[%s]]: %s", text, err);
            ++qs->errors;
        }
    } else if (status != 0) {
        nw_error(qs->file, line, "%s", err);
        ++qs->errors;
    } else {
        /* A claim leaves no blank behind it: "slower [[?...]]." */
        while (out->n > 0 && (out->s[out->n - 1] == ' ' ||
                              out->s[out->n - 1] == '\t')) {
            out->s[--out->n] = '\0';
        }
    }
    nw_quote_free(&q);
}

/* A documentation chunk as Pandoc Markdown: [[code]] as inline code, a
 * chunk reference as its name in angle brackets, a quote as its value. */
static void docs_text(const struct nw_chunk *c, struct nw_buf *out,
                      struct quoting *qs) {
    for (size_t j = 0; j < c->n; ++j) {
        const struct nw_item *it = &c->items[j];
        switch (it->kind) {
            case NW_TEXT: nw_buf_puts(out, it->s); break;
            case NW_NL: nw_buf_puts(out, "\n"); break;
            case NW_USE:
                nw_buf_puts(out, "\xe2\x9f\xa8");
                nw_buf_puts(out, it->s);
                nw_buf_puts(out, "\xe2\x9f\xa9");
                break;
            case NW_QUOTE: {
                size_t end = nw_quote_end(c, j);
                char *text = nw_quote_text(c, j, end);
                if (nw_quote_cite(c, j, end) == 0 && nw_is_quote(text)) {
                    quoted_text(qs, text, it->line, out);
                    free(text);
                    j = end;
                    break;
                }
                free(text);
                struct nw_buf q = {NULL, 0, 0};
                nw_buf_puts(&q, "");
                for (size_t k = j + 1; k < end; ++k) {
                    const struct nw_item *x = &c->items[k];
                    if (x->kind == NW_TEXT) {
                        nw_buf_puts(&q, x->s);
                    } else if (x->kind == NW_USE) {
                        nw_buf_puts(&q, "\xe2\x9f\xa8");
                        nw_buf_puts(&q, x->s);
                        nw_buf_puts(&q, "\xe2\x9f\xa9");
                    } else if (x->kind == NW_NL) {
                        nw_buf_puts(&q, " ");
                    }
                }
                nw_buf_md_code(out, q.s);
                free(q.s);
                j = end;
                break;
            }
            case NW_ENDQUOTE: break;
        }
    }
}

struct prose {
    struct nw_buf cell; /* the Markdown cell being written */
    int in_fence;       /* inside a fenced code block of the prose */
    char fence[16];     /* its opening run of ` or ~ */
    int titled;         /* the chapter's title has been written */
};

static const char kIntro[] =
    "This notebook is a chapter of *CUDA by running it*, a course book whose "
    "every program runs and whose every number was measured. The chapter's "
    "prose and code come first, as in the book. The cells under *Run it* at "
    "the end write the chapter's program, compile it with the book's "
    "compile line, run it and check what it printed.\n\n"
    "It needs a GPU. On Colab: *Runtime*, *Change runtime type*, *T4 GPU*; "
    "then *Runtime*, *Run all*.\n";

/* Writes the cell, unless it holds nothing but blank lines. */
static void flush_cell(struct prose *st) {
    const char *s = st->cell.s ? st->cell.s : "";
    if (s[strspn(s, " \t\n")] != '\0') {
        const char *start = s + strspn(s, "\n");
        size_t len = strlen(start);
        while (len > 0 && start[len - 1] == '\n') {
            --len;
        }
        open_md();
        fwrite(start, 1, len, stdout);
        printf("\n");
        close_md();
    }
    st->cell.n = 0;
    nw_buf_puts(&st->cell, "");
}

/* Prose, one Markdown cell per section: a heading starts a new cell. The
 * chapter's title gets a cell of its own, followed by how to run the
 * notebook. */
static void prose_lines(struct prose *st, const char *text) {
    const char *p = text;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) + 1 : strlen(p);
        size_t indent = strspn(p, " ");
        const char *s = p + indent;
        char ch = s[0];
        size_t run =
            (ch == '`' || ch == '~') ? strspn(s, ch == '`' ? "`" : "~") : 0;
        if (indent < 4 && !st->in_fence && run >= 3) {
            run = run < sizeof st->fence ? run : sizeof st->fence - 1;
            memcpy(st->fence, s, run);
            st->fence[run] = '\0';
            st->in_fence = 1;
        } else if (indent < 4 && st->in_fence && ch == st->fence[0] &&
                   run >= strlen(st->fence)) {
            const char *rest = s + run;
            rest += strspn(rest, " \t");
            if (*rest == '\n' || *rest == '\0') {
                st->in_fence = 0;
            }
        } else if (!st->in_fence && p[0] == '#') {
            size_t hashes = strspn(p, "#");
            if (hashes <= 6 && (p[hashes] == ' ' || p[hashes] == '\n')) {
                flush_cell(st);
                if (hashes == 1 && !st->titled) {
                    nw_buf_add(&st->cell, p, len);
                    flush_cell(st);
                    nw_buf_puts(&st->cell, kIntro);
                    flush_cell(st);
                    st->titled = 1;
                    p += len;
                    continue;
                }
            }
        }
        nw_buf_add(&st->cell, p, len);
        if (p[len - 1] != '\n') {
            nw_buf_puts(&st->cell, "\n");
        }
        p += len;
    }
}

static void code_chunk(struct prose *st, const struct nw_chunk *c) {
    struct nw_buf code = {NULL, 0, 0};
    nw_buf_puts(&code, "");
    for (size_t j = 0; j < c->n; ++j) {
        const struct nw_item *it = &c->items[j];
        if (it->kind == NW_NL) {
            if (j > 0) {
                nw_buf_puts(&code, "\n");
            }
        } else if (it->kind == NW_TEXT) {
            nw_buf_puts(&code, it->s);
        } else if (it->kind == NW_USE) {
            nw_buf_puts(&code, "\xe2\x9f\xa8");
            nw_buf_puts(&code, it->s);
            nw_buf_puts(&code, "\xe2\x9f\xa9");
        }
    }
    /* The chunk's name, escaped, and its code in a fence of its own. */
    nw_buf_puts(&st->cell, "\n**\xe2\x9f\xa8");
    nw_buf_md_text(&st->cell, c->name, NW_MD_MARKS);
    nw_buf_puts(&st->cell, c->piece > 1 ? "\xe2\x9f\xa9 +\xe2\x89\xa1**\n\n"
                                       : "\xe2\x9f\xa9 \xe2\x89\xa1**\n\n");
    nw_buf_code_block(&st->cell, ".cpp", code.s);
    nw_buf_puts(&st->cell, "\n");
    free(code.s);
}

/* ------------------------------------------------------------------ */
/* Running it                                                           */

/* A program, or a run of one (args not NULL): name is the run's, prog the
 * program's, and line the program's compile line. */
struct program {
    const char *name, *prog, *line, *args, *expect;
    const char **transcripts;
    int ntranscripts;
};

/* The cells that write the chapter's file roots, as tangled in srcdir. */
static int file_cells(const struct nw_doc *doc, const char *srcdir) {
    for (size_t i = 0; i < doc->n; ++i) {
        const struct nw_chunk *c = &doc->chunks[i];
        if (!c->is_code || c->name == NULL || c->piece != 1 ||
            !nw_is_file_name(c->name) || nw_is_used(doc, c->name) ||
            nw_is_figure_root(c->name)) {
            continue;
        }
        if (!safe_name(c->name)) {
            nw_error(doc->file ? doc->file : "?", c->line,
                     "the file name %s has characters a notebook cannot "
                     "write safely",
                     c->name);
            return 1;
        }
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", srcdir, c->name);
        char *text = nw_slurp_text(path);
        if (text == NULL) {
            nw_error(path, 0, "cannot read the tangled file, or it is not "
                              "text");
            return 1;
        }
        char first[512];
        snprintf(first, sizeof first, "%%%%writefile %s", c->name);
        code_cell(first, text);
        free(text);
    }
    return 0;
}

/* A cell that writes the text of path under the name first says. */
static int write_cell(const char *first, const char *path) {
    char *text = nw_slurp_text(path);
    if (text == NULL) {
        nw_error(path, 0, "cannot read");
        return 1;
    }
    code_cell(first, text);
    free(text);
    return 0;
}

/* The cells that write the book's checker and build it. */
static int checker_cells(const char *tcheck) {
    char *src = nw_slurp_text(tcheck);
    if (src == NULL) {
        nw_error(tcheck, 0, "cannot read the checker");
        return 1;
    }
    code_cell("%%writefile tcheck.c", src);
    free(src);
    code_cell("%%bash", "gcc -std=c11 -O2 -o tcheck tcheck.c");
    return 0;
}

/* The cells that write a program's expectation and transcripts and check
 * its output; the checker's first, where wrote_checker says it is not
 * written yet. */
static int check_cells(const struct program *p, const char *tcheck,
                       int *wrote_checker) {
    open_md();
    printf("The book holds the output to an expectation, `evidence/%s"
           ".expect`: every line literal except the holes, such as "
           "`{{ms}}` for a time. ", p->name);
    if (!*wrote_checker) {
        printf("The next cells write the book's checker, `tcheck.c`, and "
               "build it with gcc; then ");
    } else {
        printf("Next, ");
    }
    printf("the expectation and the transcripts recorded on other GPUs, "
           "and the check itself: `PASS`, or the lines that differ.\n");
    close_md();
    if (!*wrote_checker && checker_cells(tcheck) != 0) {
        return 1;
    }
    *wrote_checker = 1;
    char buf[1024];
    snprintf(buf, sizeof buf, "mkdir -p evidence/%s", p->name);
    code_cell("%%bash", buf);
    snprintf(buf, sizeof buf, "%%%%writefile evidence/%s.expect", p->name);
    if (write_cell(buf, p->expect) != 0) {
        return 1;
    }
    for (int t = 0; t < p->ntranscripts; ++t) {
        const char *base = strrchr(p->transcripts[t], '/');
        base = base ? base + 1 : p->transcripts[t];
        if (!safe_name(base)) {
            nw_error(p->transcripts[t], 0,
                     "a transcript name a notebook cannot write safely");
            return 1;
        }
        snprintf(buf, sizeof buf, "%%%%writefile evidence/%s/%s", p->name,
                 base);
        if (write_cell(buf, p->transcripts[t]) != 0) {
            return 1;
        }
    }
    snprintf(buf, sizeof buf,
             "./tcheck check -n %s evidence/%s.expect evidence/%s %s.out "
             "\"$(cat %s.status)\"\n",
             p->name, p->name, p->name, p->name, p->name);
    code_cell("%%bash", buf);
    return 0;
}

/* The cells that compile a program with the book's line and run it; for a
 * run, the cell that runs its program with its arguments. */
static void program_cells(const struct program *p) {
    char buf[1024];
    snprintf(buf, sizeof buf, "./%s%s%s", p->prog,
             p->args && *p->args ? " " : "", p->args ? p->args : "");
    open_md();
    if (p->args == NULL) {
        printf("### `%s`\n\nCompile it with the book's compile line, then "
               "run it.", p->name);
    } else {
        printf("### `%s`\n\nThe run `%s`, `evidence/%s.run`: the program "
               "`%s` with these arguments.", buf, p->name, p->name, p->prog);
    }
    printf(" Its output is kept in `%s.out` and its exit status in "
           "`%s.status`.\n", p->name, p->name);
    close_md();
    if (p->args == NULL) {
        code_cell("%%bash", p->line);
    }
    size_t n = strlen(buf);
    snprintf(buf + n, sizeof buf - n,
             " | tee %s.out\necho \"${PIPESTATUS[0]}\" > %s.status\n",
             p->name, p->name);
    code_cell("%%bash", buf);
}

static int run_cells(const struct nw_doc *doc, const char *srcdir,
                     const char *tcheck, const struct program *progs,
                     int nprogs) {
    int nbuilt = 0, nruns = 0;
    for (int k = 0; k < nprogs; ++k) {
        ++*(progs[k].args ? &nruns : &nbuilt);
    }
    open_md();
    printf("## Run it\n\nThe cells below write the chapter's files as the "
           "book tangles them, compile %s with the book's compile line, and "
           "run %s%s.\n", nbuilt == 1 ? "its program" : "its programs",
           nbuilt == 1 ? "it" : "each",
           nruns == 0 ? ""
                      : nruns == 1 ? "; then the run that the exercises ask "
                                     "for, the program with other arguments"
                                   : "; then the runs that the exercises ask "
                                     "for, each a program with other "
                                     "arguments");
    if (nprogs == 0) {
        printf("\nThis chapter has no program to run.\n");
    }
    close_md();
    if (file_cells(doc, srcdir) != 0) {
        return 1;
    }
    int wrote_checker = 0;
    for (int k = 0; k < nprogs; ++k) {
        program_cells(&progs[k]);
        if (tcheck != NULL && progs[k].expect != NULL &&
            check_cells(&progs[k], tcheck, &wrote_checker) != 0) {
            return 1;
        }
    }
    return 0;
}

/* Arguments the shell may see as they are: words of safe_name's
 * characters and = , : /, between single blanks. */
static int safe_args(const char *s) {
    for (const char *w = s; *w;) {
        size_t n = strcspn(w, " ");
        char word[256];
        if (n == 0 || n >= sizeof word) {
            return 0;
        }
        memcpy(word, w, n);
        word[n] = '\0';
        for (char *c = word; *c; ++c) {
            if (*c == '=' || *c == ',' || *c == ':' || *c == '/') {
                *c = '_';
            }
        }
        const char *rest = word + strspn(word, "-");
        if (*rest == '\0' || !safe_name(rest)) {
            return 0;
        }
        w += n;
        if (*w == ' ' && *++w == '\0') {
            return 0;
        }
    }
    return 1;
}

/* The programs of the command line, from argv[i]: PROG 'COMPILE LINE'
 * [EXPECT] [TRANSCRIPT...] --, each, and after one its runs, -r RUN 'ARGS'
 * [EXPECT] [TRANSCRIPT...] --. Returns how many, or -1 having said what is
 * wrong. */
static int read_programs(int argc, char **argv, int i,
                         struct program *progs) {
    int nprogs = 0;
    const char *prog = NULL, *line = NULL;
    while (i < argc) {
        int run = strcmp(argv[i], "-r") == 0;
        i += run;
        if (i + 1 >= argc || !safe_name(argv[i]) || (run && prog == NULL) ||
            (run && !safe_args(argv[i + 1]))) {
            nw_error(kTool, 0, "want PROG 'COMPILE LINE' [EXPECT] "
                               "[TRANSCRIPT...] --, with PROG a plain name, "
                               "each followed by its runs, -r RUN 'ARGS' "
                               "[EXPECT] [TRANSCRIPT...] --, with ARGS plain "
                               "words");
            return -1;
        }
        struct program *p = &progs[nprogs++];
        memset(p, 0, sizeof *p);
        p->name = argv[i];
        if (run) {
            p->args = argv[i + 1];
        } else {
            prog = argv[i];
            line = argv[i + 1];
        }
        p->prog = prog;
        p->line = line;
        p->transcripts = (const char **)&argv[i + 2];
        i += 2;
        for (; i < argc && strcmp(argv[i], "--") != 0; ++i) {
            size_t len = strlen(argv[i]);
            if (len > 7 && strcmp(argv[i] + len - 7, ".expect") == 0) {
                p->expect = argv[i];
                p->transcripts = (const char **)&argv[i + 1];
            } else {
                ++p->ntranscripts;
            }
        }
        if (i < argc) {
            ++i;
        }
    }
    return nprogs;
}

/* The notebook's metadata and the chapter's prose and code, a cell per
 * section. Returns the number of quotes that failed. */
static int prose_cells(const struct nw_doc *doc,
                       const struct nw_values *values) {
    struct quoting qs = {doc->file ? doc->file : "-", values, 0};
    printf("---\njupyter:\n"
           "  accelerator: GPU\n"
           "  colab:\n    gpuType: T4\n    provenance: []\n"
           "  kernelspec:\n    display_name: Python 3\n    name: python3\n"
           "  language_info:\n    name: python\n"
           "...\n");
    struct prose st;
    memset(&st, 0, sizeof st);
    nw_buf_puts(&st.cell, "");
    for (size_t k = 0; k < doc->n; ++k) {
        const struct nw_chunk *c = &doc->chunks[k];
        if (c->is_code) {
            code_chunk(&st, c);
        } else {
            struct nw_buf text = {NULL, 0, 0};
            nw_buf_puts(&text, "");
            docs_text(c, &text, &qs);
            prose_lines(&st, text.s);
            free(text.s);
        }
    }
    flush_cell(&st);
    free(st.cell.s);
    return qs.errors;
}

/* Reads the pipeline at path. */
static int load_pipe(const char *path, struct nw_doc *doc) {
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        nw_error(path, 0, "cannot read");
        return 1;
    }
    int status = nw_load(f, doc) != 0;
    fclose(f);
    return status;
}

/* The options, -t TCHECK.c and -V VALUES, in either order: returns the
 * index of the first argument past them. */
static int read_options(int argc, char **argv, const char **tcheck,
                        const char **values) {
    int i = 1;
    while (i + 1 < argc &&
           (strcmp(argv[i], "-t") == 0 || strcmp(argv[i], "-V") == 0)) {
        *(argv[i][1] == 't' ? tcheck : values) = argv[i + 1];
        i += 2;
    }
    return i;
}

int main(int argc, char **argv) {
    const char *tcheck = NULL, *values_dir = NULL;
    int i = read_options(argc, argv, &tcheck, &values_dir);
    if (argc - i < 2) {
        fprintf(stderr,
                "usage: %s [-t TCHECK.c] [-V VALUES] PIPE SRCDIR [PROG "
                "'COMPILE LINE' [EXPECT] [TRANSCRIPT...] --]...\n",
                argv[0]);
        return 2;
    }
    const char *pipe = argv[i], *srcdir = argv[i + 1];
    struct program *progs = nw_xcalloc((size_t)argc, sizeof *progs);
    int nprogs = read_programs(argc, argv, i + 2, progs);
    struct nw_values values;
    memset(&values, 0, sizeof values);
    struct nw_doc doc;
    if (nprogs < 0 || (values_dir != NULL &&
                       nw_values_read_dir(&values, values_dir, NULL, 0)) ||
        load_pipe(pipe, &doc) != 0) {
        nw_values_free(&values);
        free(progs);
        return nprogs < 0 ? 2 : 1;
    }
    int status = prose_cells(&doc, values_dir ? &values : NULL) != 0;
    status = status || run_cells(&doc, srcdir, tcheck, progs, nprogs);
    nw_values_free(&values);
    nw_free(&doc);
    free(progs);
    return status | nw_flush_stdout(kTool);
}
