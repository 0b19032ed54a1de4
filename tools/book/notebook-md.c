/* notebook-md: a chapter as a notebook for a free T4 GPU, in Pandoc
 * Markdown that `pandoc --to ipynb` turns into a Jupyter notebook.
 *
 * Usage: notebook-md [-t TCHECK.c] [-V VALUES] [-s SETUP.py] [-l REGISTRY]
 *                   [-m META]... [-b BASE] [-L LINES -c SOURCE...]
 *                   [-M MODEL] PIPE
 *
 * PIPE is the chapter's noweb pipeline (markup chapters/NAME.nw), MODEL its
 * programs, runs, expectations and transcripts (build/md/NAME.model,
 * tools/lib/model.h; without it, the chapter has none). The
 * notebook reads as the chapter, and holds, in this order:
 *   - the chapter's title, how to run the notebook, and the setup cell,
 *     SETUP.py (tools/book/notebook-setup.py), hidden: it defines the cell
 *     magic %%chunk and tangle(FILE), which puts the chunk cells together
 *     as the book's tangle does (its comment says how);
 *   - the chapter's prose as Markdown cells, a section's prose in one cell
 *     up to its first code chunk, and each code chunk in its place as a
 *     cell of its own: "%%chunk NAME" (or "%%chunk NAME += K", its K-th
 *     piece) and its code (an empty piece: the line "%chunk NAME"), references written <<name>> and a << that would
 *     read as one written @<<, as noweb writes it. The prose before the
 *     cell ends with the chunk's name, = or +=, as the page heads it,
 *     linked to its anchor on the page;
 *   - a cell that tangles every file root but a figure's (fig-NAME.cpp,
 *     drawn by the book's build, not run in the notebook);
 *   - for every program, a cell with the book's compile line (the text the
 *     page prints, from tools/compile.mk, its command, the model's nvcc,
 *     written nvcc, as the notebook's PATH has it), a cell that runs it and keeps
 *     its output and exit status; each says in one line what is missing
 *     instead where there is no nvcc or no GPU (program_cells);
 *   - with -t and an EXPECT (evidence/PROG.expect), cells that write the
 *     book's checker, hidden, and build it with gcc, write the expectation
 *     and the recorded transcripts (evidence/PROG/GPU.txt), hidden too, and
 *     check the output the way `make check` does;
 *   - after a program's, the same for each of its runs (evidence/RUN.run:
 *     the program with the model's arguments), but the compile line: a cell
 *     that runs it, keeping its output and exit status, and the check;
 *   - with -L (the chapter's build/meta/NAME.lines), -V, -t and the sources
 *     of the book's claims tool (-c, each: its .c files and the headers
 *     they include, tools/book/claims.c and what of tools/lib it needs),
 *     where the chapter makes claims and checks a program: hidden cells
 *     that write the tool and build it with gcc, write the chapter's claims
 *     and the values recorded of every program they name, and a cell that
 *     holds the claims to the reader's runs, as make compare does (claims
 *     yours), or says in one line that no run of the reader's is there.
 * A hidden cell has the metadata Colab hides a cell's code by (cellView
 * "form"; the setup cell's #@title is what it shows) and Jupyter's
 * (jupyter.source_hidden), written as the cell's attributes, which pandoc
 * makes its metadata.
 * A citation of the prose, [[<<name>>]], links to where the page's does
 * (nw_cite_href): a chunk of this chapter, or a label of the chapters whose
 * META files -m gives, or of the registry -l gives. Links are relative to
 * the notebook as the book publishes it, html/notebooks/NAME.ipynb beside
 * html/NAME.html: ../NAME.html#ANCHOR; with -b BASE (the book's published
 * address, ending in a slash), BASENAME.html#ANCHOR, so that a notebook
 * opened on its own, in Colab, still leads to the book.
 * A quote of the prose, [[=EXPR]], is its value as plain text, from the
 * values files VALUES/PROG/GPU.tsv as the page has it (quote.h); a claim,
 * [[?...]], is left out.
 * The notebook asks for a GPU, a T4 where the service offers a choice.
 *
 * Code and files reach the notebook in fenced blocks longer than any fence
 * inside them, names as escaped Markdown text, and the shell only ever sees
 * program and file names made of letters, digits and . _ + -, and
 * arguments made of those, blanks and = , : /. A chunk name that %%chunk
 * cannot carry as it is (a blank at an end, " += K" at the end), or a
 * reference that a cell cannot tell from the code next to it (right after
 * a < or an @, or a name with >> or ending in >), is an error at its line.
 */
#include "escape.h"
#include "meta.h"
#include "model.h"
#include "names.h"
#include "noweb.h"
#include "quote.h"
#include "util.h"

#include <ctype.h>
#include <glob.h>
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

/* The attributes of a cell whose code is hidden: pandoc's ipynb writer
 * makes each the cell's metadata field, reading a value as JSON where it is
 * JSON. Colab shows a "form" cell as its #@title (or "Show code"), Jupyter
 * a source_hidden one as a collapsed input. */
static const char kHidden[] =
    " cellView=\"form\" jupyter='{\"source_hidden\":true}'";

/* A code cell with the attributes attrs ("" or kHidden): its first line (a
 * cell magic such as %%bash; none where first is NULL), then text. */
static void code_cell_as(const char *attrs, const char *first,
                         const char *text) {
    struct nw_buf cell = {NULL, 0, 0};
    nw_buf_puts(&cell, "");
    if (first != NULL) {
        nw_buf_puts(&cell, first);
        nw_buf_puts(&cell, "\n");
    }
    nw_buf_puts(&cell, text);
    printf("\n::: {.cell .code%s}\n", attrs);
    nw_put_code_block(stdout, ".python", cell.s);
    printf(":::\n");
    free(cell.s);
}

static void code_cell(const char *first, const char *text) {
    code_cell_as("", first, text);
}

static void open_md(void) { printf("\n::: {.cell .markdown}\n"); }
static void close_md(void) { printf(":::\n"); }

/* ------------------------------------------------------------------ */
/* The prose                                                            */

/* The values quotes are read from (-V), the labels citations lead to (-l,
 * -m), and the quotes and citations that failed. */
struct quoting {
    const char *file; /* the chapter, for messages */
    const struct nw_values *values; /* NULL without -V */
    const struct nw_doc *doc;
    const char *chapter;             /* day32-scan */
    const struct nw_labels *labels;  /* every chapter's (-m) */
    const struct nw_labels *registry; /* the published ones (-l) */
    int errors;
};

/* Where the links to the pages lead: "../", relative to the notebook as
 * the book publishes it, html/notebooks/NAME.ipynb beside html/NAME.html;
 * with -b BASE, the book's published address, BASE ending in a slash, so
 * that a notebook opened on its own (in Colab) links to the book. */
static const char *book_base = "../";

/* The link to a piece of a chunk on its page. */
static void chunk_href(struct nw_buf *out, const char *chapter,
                       const char *name, int piece) {
    char anchor[NW_ANCHOR_MAX];
    nw_anchor(name, piece, anchor, sizeof anchor);
    nw_buf_puts(out, book_base);
    nw_buf_puts(out, chapter);
    nw_buf_puts(out, ".html#");
    nw_buf_puts(out, anchor);
}

/* A link whose text is a chunk's name in angle brackets. */
static void name_link(struct nw_buf *out, const char *name,
                      const char *href) {
    nw_buf_puts(out, "[\xe2\x9f\xa8");
    nw_buf_md_text(out, name, NW_MD_MARKS);
    nw_buf_puts(out, "\xe2\x9f\xa9](");
    nw_buf_puts(out, href);
    nw_buf_puts(out, ")");
}

/* A citation, [[<<name>>]] at line, as a link to where the page's leads. */
static void cite_link(struct quoting *qs, const char *name, long line,
                      struct nw_buf *out) {
    char href[NW_ANCHOR_MAX + 256];
    if (!nw_cite_href(qs->doc, qs->chapter, qs->labels, qs->registry, name,
                      href, sizeof href)) {
        nw_error(qs->file, line, "[[<<%s>>]] cites no chunk of this chapter "
                                 "and no snippet label of the book (give "
                                 "the chapters' labels, -l and -m)", name);
        ++qs->errors;
        return;
    }
    struct nw_buf h = {NULL, 0, 0};
    nw_buf_puts(&h, book_base);
    if (href[0] == '#') {
        nw_buf_puts(&h, qs->chapter);
        nw_buf_puts(&h, ".html");
    }
    nw_buf_puts(&h, href);
    name_link(out, name, h.s);
    free(h.s);
}

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
 * chunk reference as its name in angle brackets, a citation as a link to
 * the chunk on the page, a quote as its value. */
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
                size_t use = nw_quote_cite(c, j, end);
                if (use != 0) {
                    cite_link(qs, c->items[use].s, c->items[use].line, out);
                    j = end;
                    break;
                }
                char *text = nw_quote_text(c, j, end);
                if (nw_is_quote(text)) {
                    quoted_text(qs, text, it->line, out);
                    free(text);
                    j = end;
                    break;
                }
                /* A chart the page places, [[!chart PROG]]: the page's
                 * figure of recorded values, which the notebook, made to
                 * record its own, leaves out. */
                if (strncmp(text, "!chart ", 7) == 0) {
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
    const char *setup;  /* the setup cell's Python (-s), or NULL */
    int set_up;         /* the setup cell has been written */
    struct quoting *qs;
};

static const char kIntro[] =
    "This notebook is a chapter of *CUDA by running it*, a course book whose "
    "every program runs and whose every number was measured. It reads as "
    "the chapter: the prose, and after it each code chunk it explains, a "
    "cell of its own whose first line, `%%chunk NAME`, names it (the name "
    "above the cell links to the chunk in the book). A chunk cell keeps its "
    "code when it runs; the cells under *Run it* at the end put the chunks "
    "together into the chapter's files as the book does, compile them with "
    "the book's compile line, run them and check what they printed. To try "
    "a change, edit a chunk's cell, then run it and the cells after it "
    "(on Colab, *Runtime*, *Run after*). The first code cell, hidden, sets "
    "this up.\n\n"
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

/* The setup cell, hidden, once: before the first chunk cell at the latest.
 * Returns 0, or 1 where there is none to write. */
static int setup_cell(struct prose *st) {
    if (st->set_up) {
        return 0;
    }
    if (st->setup == NULL) {
        nw_error(kTool, 0, "the chapter's chunks need the setup cell that "
                           "defines %%%%chunk and tangle (-s SETUP.py)");
        return 1;
    }
    code_cell_as(kHidden, NULL, st->setup);
    st->set_up = 1;
    return 0;
}

/* Prose, one Markdown cell per section: a heading starts a new cell. The
 * chapter's title gets a cell of its own, followed by how to run the
 * notebook and the setup cell. */
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
                    if (st->setup != NULL) {
                        setup_cell(st);
                    }
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

/* Whether a chunk's name can follow %%chunk as it is: IPython strips the
 * line's end, and the setup cell reads " += K" at its end as a piece. */
static int cell_name(const char *name) {
    size_t n = strlen(name);
    if (n == 0 || isspace((unsigned char)name[0]) ||
        isspace((unsigned char)name[n - 1])) {
        return 0;
    }
    const char *p = strstr(name, " += ");
    return p == NULL || p[4 + strspn(p + 4, "0123456789")] != '\0' ||
           p[4] == '\0';
}

/* One line of a chunk's cell, its bytes in line and literal[k] 1 where byte
 * k is the chunk's code rather than a reference: each << of the code that
 * the setup cell's tangle would take for a reference's start, where a >>
 * follows it on its line or an @ precedes it, is written @<<, as noweb
 * writes it. */
static void put_cell_line(struct nw_buf *out, const struct nw_buf *line,
                          const char *literal) {
    for (size_t k = 0; k < line->n; ++k) {
        if (literal[k] && k + 1 < line->n && literal[k + 1] &&
            line->s[k] == '<' && line->s[k + 1] == '<') {
            if ((k > 0 && line->s[k - 1] == '@') ||
                strstr(line->s + k + 2, ">>") != NULL) {
                nw_buf_puts(out, "@");
            }
            nw_buf_add(out, line->s + k, 2);
            ++k;
        } else {
            nw_buf_add(out, line->s + k, 1);
        }
    }
}

/* A chunk's code as its cell holds it, references as <<name>> (see
 * put_cell_line). Returns 0, or 1 having said why a cell cannot hold it. */
static int chunk_code(const char *file, const struct nw_chunk *c,
                      struct nw_buf *out) {
    struct nw_buf line = {NULL, 0, 0};
    char *literal = NULL;
    size_t cap = 0;
    int status = 0;
    nw_buf_puts(out, "");
    nw_buf_puts(&line, "");
    for (size_t j = 0; j <= c->n && status == 0; ++j) {
        const struct nw_item *it = j < c->n ? &c->items[j] : NULL;
        if (it != NULL && it->kind == NW_NL && j == 0) {
            continue; /* the header's own line end */
        }
        if (it == NULL || it->kind == NW_NL) {
            if (it != NULL || line.n > 0) {
                put_cell_line(out, &line, literal);
                nw_buf_puts(out, it ? "\n" : "");
            }
            line.n = 0;
            line.s[0] = '\0';
            continue;
        }
        if (it->kind != NW_TEXT && it->kind != NW_USE) {
            continue;
        }
        if (it->kind == NW_USE &&
            (strstr(it->s, ">>") != NULL || it->s[strlen(it->s) - 1] == '>' ||
             (line.n > 0 && literal[line.n - 1] &&
              (line.s[line.n - 1] == '@' || line.s[line.n - 1] == '<')))) {
            nw_error(file, it->line, "the reference <<%s>> cannot be told "
                                     "from the code around it in a "
                                     "notebook cell", it->s);
            status = 1;
            break;
        }
        size_t from = line.n;
        if (it->kind == NW_USE) {
            nw_buf_puts(&line, "<<");
            nw_buf_puts(&line, it->s);
            nw_buf_puts(&line, ">>");
        } else {
            nw_buf_puts(&line, it->s);
        }
        literal = nw_grow(literal, &cap, line.n + 1, 1);
        memset(literal + from, it->kind == NW_TEXT, line.n - from);
    }
    free(line.s);
    free(literal);
    return status;
}

/* A code chunk: its name, linked to its place on the page, at the end of
 * the prose before it, then a cell of its own that keeps its code for the
 * tangle: %%chunk NAME, or %%chunk NAME += K for its K-th piece. */
static int code_chunk(struct prose *st, const struct nw_chunk *c) {
    const char *file = st->qs->file;
    if (!cell_name(c->name)) {
        nw_error(file, c->line, "the chunk name <<%s>> cannot follow "
                                "%%%%chunk as it is (a blank at an end, or "
                                "\" += K\" at the end)", c->name);
        return 1;
    }
    struct nw_buf code = {NULL, 0, 0};
    if (chunk_code(file, c, &code) != 0) {
        free(code.s);
        return 1;
    }
    /* The cell's last line ends where IPython ends it; an empty one is
     * kept by one more. */
    if (code.n > 0 && code.s[code.n - 1] == '\n' &&
        (code.n == 1 || code.s[code.n - 2] == '\n')) {
        nw_buf_puts(&code, "\n");
    }
    struct nw_buf href = {NULL, 0, 0};
    nw_buf_puts(&href, "");
    chunk_href(&href, st->qs->chapter, c->name, c->piece);
    nw_buf_puts(&st->cell, "\n**");
    name_link(&st->cell, c->name, href.s);
    nw_buf_puts(&st->cell, c->piece > 1 ? " +\xe2\x89\xa1**\n"
                                       : " \xe2\x89\xa1**\n");
    free(href.s);
    flush_cell(st);
    int status = setup_cell(st);
    if (status == 0) {
        struct nw_buf first = {NULL, 0, 0};
        char piece[32] = "";
        if (c->piece > 1) {
            snprintf(piece, sizeof piece, " += %d", c->piece);
        }
        /* IPython runs no cell magic whose cell is empty: an empty piece
         * is the line magic. */
        nw_buf_puts(&first, code.n > 0 ? "%%chunk " : "%chunk ");
        nw_buf_puts(&first, c->name);
        nw_buf_puts(&first, piece);
        code_cell(code.n > 0 ? first.s : NULL, code.n > 0 ? code.s : first.s);
        free(first.s);
    }
    free(code.s);
    return status;
}

/* ------------------------------------------------------------------ */
/* Running it                                                           */

/* The notebook's programs and runs are the model's (tools/lib/model.h),
 * its profiles left out: a notebook runs no Nsight Compute. A run has args
 * not NULL: name is the run's, prog the program's. */

/* The cell that tangles the chapter's file roots from the chunk cells. */
static int tangle_cell(const struct nw_doc *doc) {
    struct nw_buf calls = {NULL, 0, 0};
    nw_buf_puts(&calls, "");
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
            free(calls.s);
            return 1;
        }
        nw_buf_puts(&calls, "tangle(\"");
        nw_buf_puts(&calls, c->name);
        nw_buf_puts(&calls, "\")\n");
    }
    if (calls.n > 0) {
        open_md();
        printf("The next cell puts the chunk cells together into the "
               "chapter's files, as the book tangles them.\n");
        close_md();
        code_cell(NULL, calls.s);
    }
    free(calls.s);
    return 0;
}

/* A hidden cell that writes the text of path under the name first says. */
static int write_cell(const char *first, const char *path) {
    char *text = nw_slurp_text(path);
    if (text == NULL) {
        nw_error(path, 0, "cannot read");
        return 1;
    }
    code_cell_as(kHidden, first, text);
    free(text);
    return 0;
}

/* The cells that write the book's checker, hidden, and build it. */
static int checker_cells(const char *tcheck) {
    char *src = nw_slurp_text(tcheck);
    if (src == NULL) {
        nw_error(tcheck, 0, "cannot read the checker");
        return 1;
    }
    code_cell_as(kHidden, "%%writefile tcheck.c", src);
    free(src);
    code_cell("%%bash", "gcc -std=c11 -O2 -o tcheck tcheck.c");
    return 0;
}

/* The cells that write a program's expectation and transcripts and check
 * its output; the checker's first, where wrote_checker says it is not
 * written yet. */
static int check_cells(const struct nw_model_entry *p, const char *tcheck,
                       int *wrote_checker) {
    open_md();
    printf("The book holds the output to an expectation, `evidence/%s"
           ".expect`: every line literal except the holes, such as "
           "`{{ms}}` for a time. ", p->name);
    if (!*wrote_checker) {
        printf("The next cells write the book's checker, `tcheck.c` "
               "(hidden: it is long), and build it with gcc; then ");
    } else {
        printf("Next, ");
    }
    printf("the expectation and the transcripts recorded on other GPUs "
           "(hidden too), and the check itself: `PASS`, or the lines that "
           "differ.\n");
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
    for (size_t t = 0; t < p->ntranscripts; ++t) {
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
    /* tcheck's exit status 3 is a pass with a warning, 4 a skip: neither
     * is an error of the cell. */
    snprintf(buf, sizeof buf,
             "./tcheck check -n %s -e %s.err evidence/%s.expect evidence/%s "
             "%s.out \"$(cat %s.status)\" ||\n"
             "    case $? in 3 | 4) ;; *) exit 1 ;; esac\n",
             p->name, p->name, p->name, p->name, p->name, p->name);
    code_cell("%%bash", buf);
    return 0;
}

/* How to get the GPU or the toolkit a cell lacks: what the notebook was
 * made for. */
static const char kGetGpu[] = "in Colab: Runtime, Change runtime type, T4 GPU";

/* The cells that compile a program with the book's line and run it; for a
 * run, the cell that runs its program with its arguments. Where nvcc is
 * not on the PATH the compile cell says so in one line and compiles
 * nothing; where nvidia-smi lists no GPU the run cell says so in one line
 * and runs nothing, its output empty and its exit status 77, the book's
 * "this machine cannot run me", so that its check says skipped, as make
 * check does. The program's stderr is kept in NAME.err, shown after its
 * output, for the check to give the reason of a skip. */
static void program_cells(const struct nw_model_entry *p, const char *nvcc) {
    char cmd[512], buf[2048];
    snprintf(cmd, sizeof cmd, "./%s%s%s", p->prog,
             p->args && *p->args ? " " : "", p->args ? p->args : "");
    open_md();
    if (p->args == NULL) {
        printf("### `%s`\n\nCompile it with the book's compile line, then "
               "run it.", p->name);
    } else {
        printf("### `%s`\n\nThe run `%s`, `evidence/%s.run`: the program "
               "`%s` with these arguments.", cmd, p->name, p->name, p->prog);
    }
    printf(" Its output is kept in `%s.out` and its exit status in "
           "`%s.status`; without a GPU it does not run, and says how to get "
           "one.\n", p->name, p->name);
    close_md();
    if (p->args == NULL) {
        /* The line the page prints, with the book's nvcc command as the
         * notebook has it on its PATH. */
        size_t n = nvcc ? strlen(nvcc) : 0;
        int ours = n > 0 && strncmp(p->line, nvcc, n) == 0 &&
                   (p->line[n] == ' ' || p->line[n] == '\0');
        snprintf(buf, sizeof buf,
                 "if command -v nvcc >/dev/null; then\n"
                 "    %s%s\n"
                 "else\n"
                 "    echo \"No nvcc here, so %s is not compiled: the CUDA "
                 "Toolkit is missing (%s).\"\n"
                 "fi\n",
                 ours ? "nvcc" : "", p->line + (ours ? n : 0), p->prog,
                 kGetGpu);
        code_cell("%%bash", buf);
    }
    snprintf(buf, sizeof buf,
             "if nvidia-smi -L >/dev/null 2>&1; then\n"
             "    %s 2>%s.err | tee %s.out\n"
             "    echo \"${PIPESTATUS[0]}\" > %s.status\n"
             "    cat %s.err >&2\n"
             "else\n"
             "    echo \"No GPU here, so %s did not run (%s).\" | tee %s.err\n"
             "    : > %s.out\n"
             "    echo 77 > %s.status\n"
             "fi\n",
             cmd, p->name, p->name, p->name, p->name, p->name, kGetGpu,
             p->name, p->name, p->name);
    code_cell("%%bash", buf);
}

static int run_cells(const struct nw_doc *doc, const char *tcheck,
                     const char *nvcc,
                     const struct nw_model_entry *const *progs, int nprogs) {
    int nbuilt = 0, nruns = 0;
    for (int k = 0; k < nprogs; ++k) {
        ++*(progs[k]->args ? &nruns : &nbuilt);
    }
    open_md();
    printf("## Run it\n\nThe cells below put the chapter's files together "
           "from the chunk cells above, compile %s with the book's compile line, and "
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
    if (tangle_cell(doc) != 0) {
        return 1;
    }
    int wrote_checker = 0;
    for (int k = 0; k < nprogs; ++k) {
        program_cells(progs[k], nvcc);
        if (tcheck != NULL && progs[k]->expect != NULL &&
            check_cells(progs[k], tcheck, &wrote_checker) != 0) {
            return 1;
        }
    }
    return 0;
}

/* The chapter's claims and the programs they name, from its .lines. */
struct claims {
    struct nw_buf records; /* claim<TAB>BODY<TAB>LINE, a line each */
    const char **progs;    /* each once */
    size_t nclaims, nprogs, cap;
};

static int each_claim(void *ctx, const struct nw_meta_record *r) {
    struct claims *cs = ctx;
    struct nw_quote q;
    char err[1024];
    if (strcmp(r->kind, "claim") != 0 ||
        nw_quote_parse(r->value, &q, err, sizeof err) != 0) {
        return 0; /* make check names what is wrong with it */
    }
    ++cs->nclaims;
    char line[32];
    snprintf(line, sizeof line, "\t%ld\n", r->line);
    nw_buf_puts(&cs->records, "claim\t");
    nw_buf_puts(&cs->records, r->value);
    nw_buf_puts(&cs->records, line);
    for (size_t i = 0; i < q.nnodes; ++i) {
        const char *prog = q.nodes[i].prog;
        size_t k = 0;
        while (q.nodes[i].op == 'v' && k < cs->nprogs &&
               strcmp(cs->progs[k], prog) != 0) {
            ++k;
        }
        if (q.nodes[i].op == 'v' && k == cs->nprogs) {
            cs->progs = nw_grow(cs->progs, &cs->cap, cs->nprogs + 1,
                                sizeof *cs->progs);
            cs->progs[cs->nprogs++] = nw_xstrdup(prog);
        }
    }
    nw_quote_free(&q);
    return 0;
}

static void claims_free(struct claims *cs) {
    for (size_t k = 0; k < cs->nprogs; ++k) {
        free((char *)cs->progs[k]);
    }
    free(cs->progs);
    free(cs->records.s);
}

/* The hidden cells that write the values recorded of prog (VALUES/PROG/
 * GPU.tsv, each GPU's) into claims/values/PROG/. */
static int values_cells(const char *values, const char *prog) {
    char pattern[1024], first[1024];
    snprintf(pattern, sizeof pattern, "%s/%s/*.tsv", values, prog);
    glob_t g;
    int rc = glob(pattern, 0, NULL, &g);
    if (rc == GLOB_NOMATCH) {
        return 0;
    }
    int status = rc != 0;
    for (size_t i = 0; status == 0 && i < g.gl_pathc; ++i) {
        const char *base = strrchr(g.gl_pathv[i], '/') + 1;
        if (!safe_name(base)) {
            nw_error(g.gl_pathv[i], 0,
                     "a values file a notebook cannot write safely");
            status = 1;
            break;
        }
        snprintf(first, sizeof first, "%%%%writefile claims/values/%s/%s",
                 prog, base);
        status = write_cell(first, g.gl_pathv[i]);
    }
    globfree(&g);
    return status;
}

/* The last cells, where the chapter makes claims about its numbers: the
 * book's claims tool (the sources csrc, hidden) built with gcc, the
 * chapter's claims and the values recorded of the programs they name
 * (hidden), and a cell that holds the claims to the values the reader's
 * runs printed (tcheck quotes, as make compare keeps them), as make
 * compare reports them: never failing. Without a run of the reader's it
 * says so in one line. */
static int claims_cells(const char *chapter, const char *lines,
                        const char *values, const char **csrc, size_t ncsrc,
                        const struct nw_model_entry *const *progs,
                        int nprogs) {
    struct claims cs;
    memset(&cs, 0, sizeof cs);
    nw_buf_puts(&cs.records, "");
    int status = nw_meta_each(lines, each_claim, &cs) != 0;
    int checked = 0;
    for (int k = 0; k < nprogs; ++k) {
        checked += progs[k]->expect != NULL;
    }
    if (status != 0 || cs.nclaims == 0 || checked == 0 || ncsrc == 0) {
        claims_free(&cs);
        return status;
    }
    open_md();
    printf("## The book's claims on your GPU\n\nThe prose compares its "
           "numbers in %zu claim%s, each checked by `make check` on the "
           "GPUs the book has transcripts of. The next cells write the "
           "book's claims tool (hidden), the claims and the values recorded "
           "(hidden too), build it, and hold each claim to what your runs "
           "printed, as `make compare` does: how many hold in your run, each "
           "that does not with its values, and each claim about another GPU "
           "alone beside what you measured. A claim that does not hold on "
           "your GPU is news, not a failure.\n",
           cs.nclaims, cs.nclaims == 1 ? "" : "s");
    close_md();
    struct nw_buf cmd = {NULL, 0, 0};
    nw_buf_puts(&cmd, "mkdir -p claims/yours");
    for (size_t k = 0; k < cs.nprogs; ++k) {
        nw_buf_puts(&cmd, " claims/values/");
        nw_buf_puts(&cmd, cs.progs[k]);
    }
    code_cell("%%bash", cmd.s);
    free(cmd.s);
    cmd = (struct nw_buf){NULL, 0, 0};
    nw_buf_puts(&cmd, "gcc -std=c11 -O2 -o claims/claims");
    char first[1024];
    for (size_t k = 0; status == 0 && k < ncsrc; ++k) {
        const char *base = strrchr(csrc[k], '/');
        base = base ? base + 1 : csrc[k];
        size_t n = strlen(base);
        if (!safe_name(base)) {
            nw_error(csrc[k], 0, "a source a notebook cannot write safely");
            status = 1;
            break;
        }
        snprintf(first, sizeof first, "%%%%writefile claims/%s", base);
        status = write_cell(first, csrc[k]);
        if (n > 2 && strcmp(base + n - 2, ".c") == 0) {
            nw_buf_puts(&cmd, " claims/");
            nw_buf_puts(&cmd, base);
        }
    }
    if (status == 0) {
        code_cell("%%bash", cmd.s);
    }
    free(cmd.s);
    if (status == 0 && !safe_name(chapter)) {
        nw_error(lines, 0, "a chapter name a notebook cannot write safely");
        status = 1;
    }
    if (status == 0) {
        snprintf(first, sizeof first, "%%%%writefile claims/%s.lines",
                 chapter);
        code_cell_as(kHidden, first, cs.records.s);
    }
    for (size_t k = 0; status == 0 && k < cs.nprogs; ++k) {
        status = values_cells(values, cs.progs[k]);
    }
    if (status == 0) {
        /* Each program's values where it ran to the end (status 0), and
         * the GPU it printed, as make compare keeps them. */
        cmd = (struct nw_buf){NULL, 0, 0};
        nw_buf_puts(&cmd, "gpu=\nfor p in");
        for (int k = 0; k < nprogs; ++k) {
            if (progs[k]->expect != NULL) {
                nw_buf_puts(&cmd, " ");
                nw_buf_puts(&cmd, progs[k]->name);
            }
        }
        char tail[2048];
        snprintf(tail, sizeof tail,
                 "; do\n"
                 "    if [ \"$(cat $p.status 2>/dev/null)\" = 0 ] &&\n"
                 "       ./tcheck quotes -o evidence/$p.expect $p.out "
                 ">claims/yours/$p.tsv 2>/dev/null; then\n"
                 "        gpu=$(./tcheck gpu evidence/$p.expect $p.out "
                 "2>/dev/null) || gpu=${gpu:-a GPU that printed no name}\n"
                 "    else\n"
                 "        rm -f claims/yours/$p.tsv\n"
                 "    fi\n"
                 "done\n"
                 "if [ -z \"$gpu\" ]; then\n"
                 "    echo \"No run of yours here, so the claims are held to "
                 "none (%s).\"\n"
                 "else\n"
                 "    ./claims/claims yours \"$gpu\" \"$(./tcheck slug "
                 "\"$gpu\" 2>/dev/null || echo unnamed)\" claims/yours "
                 "claims/values claims/%s.lines\n"
                 "fi\n",
                 kGetGpu, chapter);
        nw_buf_puts(&cmd, tail);
        code_cell("%%bash", cmd.s);
        free(cmd.s);
    }
    claims_free(&cs);
    return status;
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

/* The model's programs and runs, into progs (room for m->n): each name a
 * shell may see as it is, each run's arguments too. Returns how many, or
 * -1 having said what is wrong at its record. */
static int notebook_programs(const struct nw_model *m,
                             const struct nw_model_entry **progs) {
    int nprogs = 0;
    for (size_t k = 0; k < m->n; ++k) {
        const struct nw_model_entry *e = &m->v[k];
        if (e->kind == NW_MODEL_PROFILE) {
            continue;
        }
        if (!safe_name(e->name)) {
            nw_error(m->path, e->lineno, "the name %s has characters a "
                     "notebook cannot give the shell safely", e->name);
            return -1;
        }
        if (e->kind == NW_MODEL_RUN && !safe_args(e->args)) {
            nw_error(m->path, e->lineno, "the arguments of the run %s are "
                     "not plain words a notebook can give the shell as they "
                     "are", e->name);
            return -1;
        }
        progs[nprogs++] = e;
    }
    return nprogs;
}

/* The notebook's metadata and the chapter's prose and code: a Markdown
 * cell per section, and a cell per code chunk. Returns the number of quotes,
 * citations and chunks that failed. */
static int prose_cells(struct quoting *qs, const char *setup) {
    const struct nw_doc *doc = qs->doc;
    printf("---\njupyter:\n"
           "  accelerator: GPU\n"
           "  colab:\n    gpuType: T4\n    provenance: []\n"
           "  kernelspec:\n    display_name: Python 3\n    name: python3\n"
           "  language_info:\n    name: python\n"
           "...\n");
    struct prose st;
    memset(&st, 0, sizeof st);
    st.setup = setup;
    st.qs = qs;
    nw_buf_puts(&st.cell, "");
    for (size_t k = 0; k < doc->n; ++k) {
        const struct nw_chunk *c = &doc->chunks[k];
        if (c->is_code) {
            qs->errors += code_chunk(&st, c);
        } else {
            struct nw_buf text = {NULL, 0, 0};
            nw_buf_puts(&text, "");
            docs_text(c, &text, qs);
            prose_lines(&st, text.s);
            free(text.s);
        }
    }
    flush_cell(&st);
    free(st.cell.s);
    return qs->errors;
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

/* The options, each a letter and a value, in any order. */
struct options {
    const char *tcheck, *values, *setup, *registry, *lines, *model;
    const char **metas, **csrc;
    size_t nmetas, ncsrc;
};

/* Reads the options into o: returns the index of the first argument past
 * them. */
static int read_options(int argc, char **argv, struct options *o) {
    int i = 1;
    for (; i + 1 < argc && argv[i][0] == '-' && argv[i][1] != '\0' &&
           argv[i][2] == '\0' && strchr("tVslmbLcM", argv[i][1]) != NULL;
         i += 2) {
        const char *v = argv[i + 1];
        switch (argv[i][1]) {
            case 'b': book_base = v; break;
            case 't': o->tcheck = v; break;
            case 'V': o->values = v; break;
            case 's': o->setup = v; break;
            case 'l': o->registry = v; break;
            case 'L': o->lines = v; break;
            case 'M': o->model = v; break;
            case 'c': o->csrc[o->ncsrc++] = v; break;
            default: o->metas[o->nmetas++] = v; break;
        }
    }
    return i;
}

/* The labels citations lead to: every chapter's, from its META file, and
 * the registry's. Returns 0, or 1 having said why not. */
static int read_labels(const struct options *o, struct nw_labels *labels,
                       struct nw_labels *registry) {
    for (size_t k = 0; k < o->nmetas; ++k) {
        if (nw_labels_from_meta(labels, o->metas[k]) != 0) {
            return 1;
        }
    }
    return o->registry != NULL &&
           nw_labels_from_registry(registry, o->registry) != 0;
}

int main(int argc, char **argv) {
    struct options o;
    memset(&o, 0, sizeof o);
    o.metas = nw_xcalloc((size_t)argc, sizeof *o.metas);
    o.csrc = nw_xcalloc((size_t)argc, sizeof *o.csrc);
    int i = read_options(argc, argv, &o);
    if (argc - i != 1) {
        fprintf(stderr,
                "usage: %s [-t TCHECK.c] [-V VALUES] [-s SETUP.py] "
                "[-l REGISTRY] [-m META]... [-b BASE] [-L LINES -c SOURCE...] "
                "[-M MODEL] PIPE\n",
                argv[0]);
        free(o.metas);
        free(o.csrc);
        return 2;
    }
    const char *pipe = argv[i];
    struct nw_model model;
    memset(&model, 0, sizeof model);
    int read_model = o.model != NULL && nw_model_read(o.model, &model) != 0;
    const struct nw_model_entry **progs =
        nw_xcalloc(model.n + 1, sizeof *progs);
    int nprogs = read_model ? -1 : notebook_programs(&model, progs);
    struct nw_values values;
    memset(&values, 0, sizeof values);
    struct nw_labels labels = {NULL, 0, 0}, registry = {NULL, 0, 0};
    char *setup = NULL;
    struct nw_doc doc;
    memset(&doc, 0, sizeof doc);
    int status = nprogs < 0;
    if (status == 0 && o.setup != NULL &&
        (setup = nw_slurp_text(o.setup)) == NULL) {
        nw_error(o.setup, 0, "cannot read the setup cell, or it is not text");
        status = 1;
    }
    if (status == 0 &&
        ((o.values != NULL && nw_values_read_dir(&values, o.values, NULL, 0)) ||
         read_labels(&o, &labels, &registry) != 0 ||
         load_pipe(pipe, &doc) != 0)) {
        status = 1;
    }
    if (status == 0) {
        char *chapter = nw_chapter_of(doc.file ? doc.file : pipe);
        struct quoting qs = {doc.file ? doc.file : "-",
                             o.values ? &values : NULL,
                             &doc, chapter, &labels, &registry, 0};
        status = prose_cells(&qs, setup) != 0;
        status = status ||
                 run_cells(&doc, o.tcheck, model.nvcc, progs, nprogs);
        status = status ||
                 (o.lines != NULL && o.values != NULL && o.tcheck != NULL &&
                  claims_cells(chapter, o.lines, o.values, o.csrc, o.ncsrc,
                               progs, nprogs) != 0);
        free(chapter);
        nw_free(&doc);
    }
    nw_values_free(&values);
    nw_labels_free(&labels);
    nw_labels_free(&registry);
    free(setup);
    free(progs);
    nw_model_free(&model);
    free(o.metas);
    free(o.csrc);
    return status | nw_flush_stdout(kTool);
}
