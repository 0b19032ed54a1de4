/* chapter-md: turn one chapter's noweb pipeline into Pandoc Markdown.
 *
 * Usage: nwpipe.sh chapters/x.nw | chapter-md [-V VALUES] [-c CODE]
 *            [-n NUMBERS] [-g CHARTS/PROG/GPU.md]... REFS CHUNKS REGISTRY
 *            META... > x.md
 *
 * Documentation chunks pass through as Markdown; [[quoted code]] becomes
 * inline code. Quoted code that is nothing but a chunk reference,
 * [[<<blelloch-sweeps>>]], cites that chunk: it becomes a link to a chunk of
 * this chapter or, by label, of any chapter (META lists every chapter's
 * labels). Citing a name that is neither is an error with file and line.
 * A label the registry (chapters/labels.tsv) has at a revision past its
 * first has a note after its first piece, linking each earlier revision's
 * code (index-pages revision writes those pages).
 * Labels the registry (chapters/labels.tsv) marks retired from this chapter
 * keep an anchor, a short note linking to the label that replaced them:
 * right before the replacement's code where it is a chunk of this chapter,
 * so that an old link lands at the code, and else at the end of the page.
 * A quote, [[=EXPR]], becomes its value, computed from the values files
 * VALUES/PROG/GPU.tsv (quote.h), as <a class="quoted" title="where each
 * value comes from">: a link to the line of the transcript it was read
 * from, on the page that shows it (VALUES/pages.tsv), where it is one
 * value and a page shows it, and else to its entry in a last section,
 * "Where the numbers come from", which gives each of its values and links
 * each to its line; a claim, [[?EXPR OP EXPR]], is a check mark,
 * <a class="claim">, linking to its entry there, whose values must be
 * recorded on some GPU (the claims tool checks that it holds). A quote
 * whose values are not recorded, or on more than one GPU where it names
 * none, is an error with file and line.
 * A chart is shown where the prose argues from it: [[!chart PROG]], on a
 * line of its own, places the figure of each chart drawn from PROG's
 * transcripts (chart figure wrote it, escaped, to CHARTS/PROG/GPU.md; -g
 * names each of the chapter's charts). Every chart -g names must be placed
 * once, and the directive must name a program whose chart is drawn: either
 * mistake is an error at the chapter's line, saying what to write.
 * Each code chunk becomes a fenced div whose id is the chunk's anchor (the
 * snippet label itself for a label, "label-2" for its second piece), with a
 * header in the noweb manner: the name, = or +=, links to the previous and
 * next piece, and a footer saying where the chunk is used and, in the
 * manner of noweb's index, which identifiers it defines (each a link to its
 * entry in identifiers.html) and which of the chapter's identifiers it
 * uses (each a link to its definition; xref.h says which those are). The
 * code is a fenced block marked .cpp, which pandoc highlights.
 *
 * A chunk reference inside code cannot be a link in a highlighted block, so
 * it is written as a placeholder identifier (NWREF0001), which survives
 * highlighting intact; REFS receives one line per placeholder, the
 * placeholder, a tab and the HTML link that chunk-links puts in its place.
 * A use of an identifier defined in another chunk cannot be a link there
 * either: REFS gets a line "ident<TAB>ANCHOR<TAB>NAME<TAB>HREF" for it,
 * and chunk-links makes NAME a link to HREF in the code of the chunk whose
 * anchor is ANCHOR, where the highlighter left it as code (not in a comment
 * or a string).
 *
 * With -c, the code blocks go to CODE instead (the chunks' and those of
 * the prose), each after a line <!--NWCODE0001-->, and the page has that
 * line where the block was:
 * CODE is then the chapter's code alone, which changes only when the code
 * does, so that it is highlighted (pandoc's slowest step) only then, and
 * chunk-links puts each highlighted block in its place on the page.
 * With -n, the entries of "Where the numbers come from" go to NUMBERS in
 * the same way, after a line <!--NWNUMBERS0001-->: a long list, which
 * pandoc reads in time that grows with the square of its length, and
 * which a prose edit leaves as it was unless it changes a quote or claim.
 *
 * CHUNKS receives the page's chunks, one line per piece (meta.h): the
 * model of the page that later tools read instead of its HTML.
 */
#include "escape.h"
#include "meta.h"
#include "names.h"
#include "noweb.h"
#include "quote.h"
#include "util.h"
#include "xref.h"

#include <stdlib.h>
#include <string.h>

static const char kTool[] = "chapter-md";

/* The longest run of character ch in items from..to-1 of a chunk. */
static size_t longest_run(const struct nw_chunk *c, size_t from, size_t to,
                          char ch) {
    size_t best = 0;
    for (size_t j = from; j < to; ++j) {
        size_t run = c->items[j].s ? nw_longest_run(c->items[j].s, ch) : 0;
        best = run > best ? run : best;
    }
    return best;
}

static void link_to(FILE *out, const char *name, int piece, const char *cls,
                    const char *text) {
    char anchor[NW_ANCHOR_MAX];
    nw_anchor(name, piece, anchor, sizeof anchor);
    fprintf(out, "<a class=\"%s\" href=\"#%s\">", cls, anchor);
    if (text != NULL) {
        fputs(text, out);
    } else {
        fputs("\xe2\x9f\xa8", out); /* U+27E8 */
        nw_put_html(out, name);
        fputs("\xe2\x9f\xa9", out); /* U+27E9 */
    }
    fputs("</a>", out);
}

struct weave {
    const struct nw_doc *doc;
    const char *chapter;
    struct nw_labels labels;   /* every chapter's labels */
    struct nw_labels registry; /* published labels, some retired */
    const char *registry_path;
    FILE *refs;                /* REFS */
    FILE *chunks;              /* CHUNKS */
    FILE *code;                /* CODE (-c), or NULL: the page has the code */
    unsigned ncode;            /* the code blocks written to CODE */
    struct nw_xref xref;       /* the chapter's identifiers */
    struct nw_values values;   /* VALUES/PROG/GPU.tsv, read for -V */
    int has_values;
    struct nw_buf numbers;     /* the entries of "Where the numbers come from" */
    unsigned nvalues, nclaims; /* their quotes and claims, numbered */
    const char **charts;       /* -g: the chapter's charts' figures */
    int *placed;               /* each's line of [[!chart PROG]], or 0 */
    size_t ncharts;
    int errors;
};

static const char kChart[] = "!chart ";

/* The program whose chart .../PROG/GPU.md is: its folder's name, length
 * *len. */
static const char *chart_prog(const char *path, size_t *len) {
    const char *end = strrchr(path, '/');
    const char *start = end;
    while (start != NULL && start > path && start[-1] != '/') {
        --start;
    }
    *len = start == NULL ? 0 : (size_t)(end - start);
    return start;
}

/* [[!chart PROG]] at line: the figure of each of PROG's charts, as a block
 * of its own. */
static void weave_chart(FILE *out, struct weave *w, const char *text,
                        long line) {
    const char *prog = text + strlen(kChart);
    size_t shown = 0;
    for (size_t i = 0; i < w->ncharts; ++i) {
        size_t len;
        const char *p = chart_prog(w->charts[i], &len);
        if (p == NULL || len != strlen(prog) || strncmp(p, prog, len) != 0) {
            continue;
        }
        ++shown;
        if (w->placed[i] != 0) {
            nw_error(w->doc->file, line,
                     "[[%s]]: the chart is placed already, at line %d; a "
                     "chart is shown once, where the prose argues from it",
                     text, w->placed[i]);
            ++w->errors;
            continue;
        }
        w->placed[i] = (int)line;
        char *md = nw_slurp_text(w->charts[i]);
        if (md == NULL) {
            ++w->errors;
            continue;
        }
        fprintf(out, "\n\n%s\n", md);
        free(md);
    }
    if (shown == 0) {
        nw_error(w->doc->file, line,
                 "[[%s]] names no program of this chapter with a chart drawn "
                 "(evidence/PROG.chart and a recorded transcript)",
                 text);
        ++w->errors;
    }
}

/* An error for each chart that no [[!chart PROG]] placed. */
static void charts_placed(struct weave *w) {
    for (size_t i = 0; i < w->ncharts; ++i) {
        if (w->placed[i] == 0) {
            size_t len;
            const char *p = chart_prog(w->charts[i], &len);
            nw_error(w->doc->file, 1,
                     "the chart %s is shown nowhere: write [[!chart %.*s]] "
                     "on a line of its own where the prose argues from it",
                     w->charts[i], (int)len, p);
            ++w->errors;
        }
    }
}

/* The link for a cited name, or NULL. Writes the href into out. */
static int cite_href(const struct weave *w, const char *name, char *out,
                     size_t size) {
    return nw_cite_href(w->doc, w->chapter, &w->labels, &w->registry, name,
                        out, size);
}

/* A cited chunk, the lone reference of [[<<name>>]], as a link. */
static void weave_cite(FILE *out, struct weave *w, const struct nw_item *u) {
    char href[NW_ANCHOR_MAX + 64];
    if (!cite_href(w, u->s, href, sizeof href)) {
        nw_error(w->doc->file, u->line,
                 "[[<<%s>>]] cites no chunk of this chapter and no snippet "
                 "label of the book",
                 u->s);
        ++w->errors;
        return;
    }
    fprintf(out, "<a class=\"chunk-cite\" href=\"%s\">", href);
    fputs("\xe2\x9f\xa8", out);
    nw_put_html(out, u->s);
    fputs("\xe2\x9f\xa9</a>", out);
}

/* Quoted code, items from..end-1 of c, as inline code: references as
 * their names in angle brackets, line ends as blanks. */
static void weave_quote(FILE *out, const struct nw_chunk *c, size_t from,
                        size_t end) {
    size_t ticks = longest_run(c, from, end, '`') + 1;
    nw_put_run(out, '`', ticks);
    /* A blank keeps a backtick at either end off the fence. */
    fputc(' ', out);
    for (size_t k = from; k < end; ++k) {
        const struct nw_item *q = &c->items[k];
        if (q->kind == NW_TEXT) {
            fputs(q->s, out);
        } else if (q->kind == NW_USE) {
            fprintf(out, "\xe2\x9f\xa8%s\xe2\x9f\xa9", q->s);
        } else if (q->kind == NW_NL) {
            fputc(' ', out);
        }
    }
    fputc(' ', out);
    nw_put_run(out, '`', ticks);
}

/* Where value v is shown: "PAGE.html#ID" of its transcript's line (ID from
 * nw_transcript_line_id), without PAGE.html on PAGE itself, into href;
 * 0, or -1 where no page shows it (a profile's, a T4 fit's). */
static int value_href(const struct weave *w, const struct nw_value *v,
                      char *href, size_t size) {
    char id[NW_ANCHOR_MAX];
    const char *page = nw_values_page(&w->values, v->prog);
    if (page == NULL || nw_transcript_line_id(v->source, id, sizeof id) != 0) {
        return -1;
    }
    int n = strcmp(page, w->chapter) == 0
                ? snprintf(href, size, "#%s", id)
                : snprintf(href, size, "%s.html#%s", page, id);
    return n > 0 && (size_t)n < size ? 0 : -1;
}

/* A value of an entry of "Where the numbers come from": its name, GPU and
 * value, and a link to its transcript's line, else where it comes from. */
static void number_source(struct weave *w, const struct nw_value *v) {
    char href[NW_ANCHOR_MAX + 256];
    struct nw_buf *b = &w->numbers;
    char *name = nw_xrealloc(NULL, strlen(v->prog) + strlen(v->name) + 2);
    sprintf(name, "%s.%s", v->prog, v->name);
    nw_buf_md_code(b, name);
    free(name);
    nw_buf_puts(b, " on ");
    nw_buf_puts(b, v->gpu);
    nw_buf_puts(b, " is ");
    nw_buf_puts(b, v->text);
    nw_buf_puts(b, ", from ");
    if (value_href(w, v, href, sizeof href) == 0) {
        const char *colon = strrchr(v->source, ':');
        nw_buf_puts(b, "[line ");
        nw_buf_puts(b, colon + 1);
        nw_buf_puts(b, " of ");
        nw_buf_add(b, v->source, (size_t)(colon - v->source));
        nw_buf_puts(b, "](");
        nw_buf_puts(b, href);
        nw_buf_puts(b, ")");
    } else {
        nw_buf_md_text(b, v->source, NW_MD_MARKS);
    }
}

/* An entry of "Where the numbers come from", for the quote or claim whose
 * link is #ID (value-K, claim-K) at #at-ID: what it says, where it holds,
 * and each of its values, gpu's (every GPU of the claim's for a claim). */
static void number_entry(struct weave *w, const struct nw_quote *q,
                         const char *id, const char *text, const char **gpus,
                         size_t ngpus) {
    struct nw_buf *b = &w->numbers;
    nw_buf_puts(b, "- []{#");
    nw_buf_puts(b, id);
    nw_buf_puts(b, "}");
    nw_buf_md_code(b, q->body);
    if (q->kind == NW_Q_CLAIM) {
        nw_buf_puts(b, ", which make check holds");
    } else {
        nw_buf_puts(b, ", quoted as ");
        nw_buf_puts(b, text);
    }
    const struct nw_value **v = nw_xcalloc(q->nnodes + 1, sizeof *v);
    for (size_t g = 0; g < ngpus; ++g) {
        char sides[96], why[128];
        nw_buf_puts(b, g == 0 ? " on " : "; on ");
        nw_buf_puts(b, gpus[g]);
        /* Six digits a side, for the reader; make check's own line
         * (claims) gives every digit. */
        if (q->kind == NW_Q_CLAIM &&
            nw_claim_sides(q, &w->values, gpus[g], sides, sizeof sides) == 0) {
            snprintf(why, sizeof why, " (%s)", sides);
            nw_buf_md_text(b, why, NW_MD_MARKS);
        }
        nw_buf_puts(b, ": ");
        size_t n = nw_quote_sources(q, &w->values, gpus[g], v, q->nnodes);
        for (size_t k = 0; k < n; ++k) {
            nw_buf_puts(b, k == 0 ? "" : "; ");
            number_source(w, v[k]);
        }
    }
    free(v);
    nw_buf_puts(b, ". [\xe2\x86\xa9](#at-");
    nw_buf_puts(b, id);
    nw_buf_puts(b, " \"Back to the text\")\n");
}

/* What a quote or claim becomes: its value as a link to the transcript's
 * line it was read from, where it is one value that a page shows, else to
 * its entry in "Where the numbers come from" (number_entry), and with a
 * title that says where each value comes from; a claim, a check mark that
 * links to its entry. Returns 0, or -1 with the reason in err. */
static int weave_value(FILE *out, struct weave *w,
                       const struct nw_quote *q, char *err, size_t size) {
    if (!w->has_values) {
        snprintf(err, size, "no values to quote from (chapter-md -V DIR)");
        return -1;
    }
    const char *absent = nw_quote_absent(q, &w->values);
    if (absent != NULL) {
        /* Values this build cannot compute: said so, not invented. */
        fputs(q->kind == NW_Q_CLAIM ? "<span class=\"claim absent\" "
                                      "title=\"not checked: "
                                    : "<span class=\"quoted absent\" "
                                      "title=\"not computed: ",
              out);
        nw_put_html(out, absent);
        fputs(q->kind == NW_Q_CLAIM ? "\">?</span>" : "\">not computed</span>",
              out);
        return 0;
    }
    if (q->kind == NW_Q_CLAIM) {
        const char **gpus = nw_xcalloc(w->values.ngpus, sizeof *gpus);
        size_t n;
        int status = nw_claim_gpus(q, &w->values, gpus, &n, err, size);
        if (status == 0) {
            char id[32];
            snprintf(id, sizeof id, "claim-%u", ++w->nclaims);
            fprintf(out, "<a class=\"claim\" id=\"at-%s\" href=\"#%s\" "
                         "title=\"checked by make check: ", id, id);
            nw_put_html(out, q->body);
            fputs("\">\xe2\x9c\x93</a>", out); /* U+2713 */
            number_entry(w, q, id, NULL, gpus, n);
        }
        free(gpus);
        return status;
    }
    char text[64];
    const char *gpu;
    struct nw_buf prov = {NULL, 0, 0};
    nw_buf_puts(&prov, "");
    int status = nw_quote_value(q, &w->values, &gpu, text, sizeof text,
                                &prov, err, size);
    if (status == 0) {
        const struct nw_value *one[2];
        char href[NW_ANCHOR_MAX + 256], id[32] = "";
        if (nw_quote_sources(q, &w->values, gpu, one, 2) != 1 ||
            value_href(w, one[0], href, sizeof href) != 0) {
            snprintf(id, sizeof id, "value-%u", ++w->nvalues);
            snprintf(href, sizeof href, "#%s", id);
        }
        fputs("<a class=\"quoted\"", out);
        if (id[0] != '\0') {
            fprintf(out, " id=\"at-%s\"", id);
        }
        fprintf(out, " href=\"%s\" title=\"", href);
        nw_put_html(out, prov.s);
        fprintf(out, "\">%s</a>", text);
        if (id[0] != '\0') {
            number_entry(w, q, id, text, &gpu, 1);
        }
    }
    free(prov.s);
    return status;
}

/* A quote or a claim, TEXT of [[TEXT]] at line. */
static void weave_quoted(FILE *out, struct weave *w, const char *text,
                         long line) {
    struct nw_quote q;
    char err[1024];
    int status = nw_quote_parse(text, &q, err, sizeof err);
    if (status == 0 && weave_value(out, w, &q, err, sizeof err) != 0) {
        nw_error(w->doc->file, line, "%s [[%s]]: %s",
                 q.kind == NW_Q_CLAIM ? "claim" : "quote", text, err);
        ++w->errors;
    } else if (status != 0) {
        nw_error(w->doc->file, line, "%s", err);
        ++w->errors;
    }
    nw_quote_free(&q);
}

/* The length of the fence of ch that line opens or closes (three or more
 * at its start), or 0. */
static size_t fence_at(const char *line, char ch) {
    size_t n = 0;
    while (line[n] == ch) {
        ++n;
    }
    return n >= 3 ? n : 0;
}

/* A code block's marker on the page and in CODE, where the block goes. */
static void put_code_mark(FILE *page, struct weave *w) {
    ++w->ncode;
    fprintf(page, "```{=html}\n<!--NWCODE%04u-->\n```\n", w->ncode);
    fprintf(w->code, "<!--NWCODE%04u-->\n\n", w->ncode);
}

/* A documentation chunk. With CODE, a fenced block in the prose goes
 * there, as the chunks' code does: from the line that opens it (three or
 * more ` or ~ at its start) to the one that closes it. */
static void weave_docs(FILE *page, struct weave *w, const struct nw_chunk *c) {
    FILE *out = page;
    char fence = 0;      /* the fence's character, inside a block */
    size_t fence_len = 0;
    int at_start = 1, closing = 0;
    for (size_t j = 0; j < c->n; ++j) {
        const struct nw_item *it = &c->items[j];
        if (w->code != NULL && at_start && it->kind == NW_TEXT) {
            if (fence == 0) {
                for (const char *f = "`~"; *f != '\0' && fence == 0; ++f) {
                    if ((fence_len = fence_at(it->s, *f)) != 0) {
                        fence = *f;
                        put_code_mark(page, w);
                        out = w->code;
                    }
                }
            } else if (fence_at(it->s, fence) >= fence_len &&
                       it->s[strspn(it->s, "`~ \t")] == '\0') {
                closing = 1;
            }
        }
        at_start = it->kind == NW_NL;
        switch (it->kind) {
            case NW_TEXT: fputs(it->s, out); break;
            case NW_NL:
                fputc('\n', out);
                if (closing) {
                    fputc('\n', out);
                    out = page;
                    fence = 0;
                    closing = 0;
                }
                break;
            case NW_USE: fprintf(out, "<<%s>>", it->s); break;
            case NW_QUOTE: {
                size_t end = nw_quote_end(c, j);
                size_t use = nw_quote_cite(c, j, end);
                char *text = use == 0 ? nw_quote_text(c, j, end) : NULL;
                if (use != 0) {
                    weave_cite(out, w, &c->items[use]);
                } else if (nw_is_quote(text)) {
                    weave_quoted(out, w, text, it->line);
                } else if (strncmp(text, kChart, strlen(kChart)) == 0) {
                    weave_chart(out, w, text, it->line);
                } else {
                    weave_quote(out, c, j + 1, end);
                }
                free(text);
                j = end;
                break;
            }
            case NW_ENDQUOTE: break;
        }
    }
    if (fence != 0) {
        /* A block the prose leaves open ends with its chunk. */
        fputc('\n', w->code);
        nw_put_run(w->code, fence, fence_len);
        fputs("\n\n", w->code);
    }
}

/* A chunk's header: its name, = or +=, and links to its other pieces. The
 * first piece of a label the chapter publishes has its code for a slide
 * too: a control that copies it (search.js, from the page's <template> of
 * it, snippets.c) and links to the file and to the highlighted fragment.
 * Label names are [a-z0-9-]: no escaping. */
static void weave_head(FILE *out, const struct nw_chunk *c, int pieces,
                       const char *anchor, int published) {
    fprintf(out, "\n::: {#%s .chunk}\n```{=html}\n<div class=\"chunk-head\">",
            anchor);
    /* The name and its sign as one, the sign held to the name's last
     * word: a narrow window wraps the name, never the sign alone. */
    fputs("<span class=\"chunk-title\">", out);
    link_to(out, c->name, c->piece, "chunk-name", NULL);
    fputs(c->piece > 1 ? "&#160;<span class=\"chunk-op\">+\xe2\x89\xa1</span></span>"
                       : "&#160;<span class=\"chunk-op\">\xe2\x89\xa1</span></span>",
          out);
    if (published) {
        fprintf(out,
                "<span class=\"chunk-snippet\"><button type=\"button\" "
                "class=\"copy-snippet\" data-snippet=\"snippet:%s\" "
                "title=\"Copy the label's code, as tangled, for a slide\" "
                "hidden>copy</button><a href=\"snippets/%s.cu\" download "
                "title=\"The label's code as a file\">.cu</a><a "
                "href=\"snippets/%s.html\" title=\"The label's code "
                "highlighted, to paste into a slide\">.html</a></span>",
                c->name, c->name, c->name);
    }
    fputs("<span class=\"chunk-nav\">", out);
    if (c->piece > 1) {
        link_to(out, c->name, c->piece - 1, "chunk-prev",
                "\xe2\x97\x82 previous");
    }
    if (c->piece < pieces) {
        link_to(out, c->name, c->piece + 1, "chunk-next", "next \xe2\x96\xb8");
    }
    fputs("</span></div>\n```\n", out);
}

/* A chunk's code, as a fenced block; each reference a placeholder whose
 * link goes to refs. (Not nw_put_code_block: the code goes out item by
 * item.) */
static void weave_body(FILE *out, FILE *refs, const struct nw_chunk *c,
                       unsigned *nref) {
    size_t fence = nw_fence_length(longest_run(c, 0, c->n, '~'));
    nw_put_run(out, '~', fence);
    fputs(" {.cpp}\n", out);
    int at_start = 1;
    for (size_t j = 0; j < c->n; ++j) {
        const struct nw_item *it = &c->items[j];
        if (it->kind == NW_NL) {
            /* The header line's newline is not part of the code. */
            if (j > 0) {
                fputc('\n', out);
            }
            at_start = 1;
            continue;
        }
        if (it->kind == NW_TEXT) {
            fputs(it->s, out);
        } else if (it->kind == NW_USE) {
            ++*nref;
            fprintf(out, "NWREF%04u", *nref);
            fprintf(refs, "NWREF%04u\t", *nref);
            link_to(refs, it->s, 1, "chunk-ref", NULL);
            fputc('\n', refs);
        }
        at_start = 0;
    }
    if (!at_start) {
        fputc('\n', out);
    }
    nw_put_run(out, '~', fence);
    fputs("\n\n", out);
}

/* Where a use of e in chunk u leads: its definition on this page, or its
 * entry in the index where that is not one chunk. */
static void ident_href(const struct weave *w, const struct nw_xentry *e,
                       size_t u, char *out, size_t size) {
    long d = nw_xref_target(w->doc, e, u);
    if (d >= 0) {
        char anchor[NW_ANCHOR_MAX];
        const struct nw_chunk *c = &w->doc->chunks[d];
        nw_anchor(c->name, c->piece, anchor, sizeof anchor);
        snprintf(out, size, "#%s", anchor);
    } else {
        char *href = nw_ident_href(w->chapter, e->name);
        snprintf(out, size, "%s", href);
        free(href);
    }
}

/* The identifiers chunk index i uses (xref.h), each once, in the order of
 * their first use; *n of them. */
static const struct nw_xentry **idents_used(const struct weave *w, size_t i,
                                            size_t *n) {
    const struct nw_chunk *c = &w->doc->chunks[i];
    const struct nw_xentry **v = nw_xcalloc(c->nuses + 1, sizeof *v);
    *n = 0;
    for (size_t k = 0; k < c->nuses; ++k) {
        const struct nw_xentry *e = nw_xref_find(&w->xref, c->uses[k].name);
        int listed = 0; /* a use xref.h counts: outside the definitions */
        for (size_t u = 0; e != NULL && u < e->nuses; ++u) {
            listed |= e->uses[u] == i;
        }
        size_t j = 0;
        while (listed && j < *n && v[j] != e) {
            ++j;
        }
        if (listed && j == *n) {
            v[(*n)++] = e;
        }
    }
    return v;
}

/* The foot's index lines: what chunk index i defines, each a link to its
 * entry, and what it uses, each a link to its definition; and for each
 * use, a line of REFS, for chunk-links to link it in the code. */
static void weave_idents(FILE *out, const struct weave *w, size_t i,
                         const char *anchor) {
    int defs = 0;
    for (size_t k = 0; k < w->xref.n; ++k) {
        const struct nw_xentry *e = &w->xref.v[k];
        if (nw_xentry_defines(e, i)) {
            fputs(defs++ ? ", " : "<div class=\"ident-defines\">Defines ",
                  out);
            char *href = nw_ident_href(w->chapter, e->name);
            fprintf(out,
                    "<a class=\"ident-defn\" href=\"%s\"><code>%s</code></a>",
                    href, e->name);
            free(href);
        }
    }
    fputs(defs ? ".</div>" : "", out);
    size_t n;
    const struct nw_xentry **used = idents_used(w, i, &n);
    for (size_t k = 0; k < n; ++k) {
        char href[NW_ANCHOR_MAX + 256];
        ident_href(w, used[k], i, href, sizeof href);
        fputs(k ? ", " : "<div class=\"ident-uses\">Uses ", out);
        fprintf(out, "<a class=\"ident-ref\" href=\"%s\"><code>%s</code></a>",
                href, used[k]->name);
        fprintf(w->refs, "ident\t%s\t%s\t%s\n", anchor, used[k]->name, href);
    }
    fputs(n ? ".</div>" : "", out);
    free(used);
}

/* A chunk's footer: the chunks that use it, or the file it is tangled to;
 * then the identifiers it defines and uses. */
static void weave_foot(FILE *out, const struct weave *w, size_t index,
                       const char *anchor) {
    const struct nw_doc *doc = w->doc;
    const struct nw_chunk *c = &doc->chunks[index];
    fputs("```{=html}\n<div class=\"chunk-foot\">", out);
    int users = 0;
    for (size_t i = 0; i < doc->n; ++i) {
        const struct nw_chunk *u = &doc->chunks[i];
        if (nw_chunk_uses(u, c->name)) {
            fputs(users++ ? ", " : "Used in ", out);
            link_to(out, u->name, u->piece, "chunk-user", NULL);
        }
    }
    if (users == 0 && nw_is_file_name(c->name)) {
        fputs("Tangled to <a class=\"chunk-file\" download href=\"src/", out);
        nw_put_html(out, c->name);
        fputs("\">", out);
        nw_put_html(out, c->name);
        fputs("</a>", out);
    }
    fputs(users ? "." : "", out);
    weave_idents(out, w, index, anchor);
    fputs("</div>\n```\n:::\n\n", out);
}

/* Is r a label this chapter retired? */
static int retired_here(const struct weave *w, const struct nw_label *r) {
    return r->replaced_by != NULL && strcmp(r->chapter, w->chapter) == 0;
}

/* A retired label's note, whose id is the old label: it names the label
 * that replaced it and links there. */
static void put_retired(FILE *out, const struct nw_label *r, const char *href) {
    fprintf(out, "\n```{=html}\n<p class=\"retired\" id=\"%s\">The label "
                 "\xe2\x9f\xa8%s\xe2\x9f\xa9 is retired; its code is now "
                 "<a class=\"chunk-cite\" href=\"%s\">\xe2\x9f\xa8%s"
                 "\xe2\x9f\xa9</a>.</p>\n```\n",
            r->label, r->label, href, r->replaced_by);
}

/* After the first piece of a label this chapter publishes at a revision
 * past its first: a note that says so and links the page of each earlier
 * revision's code, which lessons that cited the label before showed. */
static void put_revised(FILE *out, const struct weave *w,
                        const struct nw_chunk *c) {
    const struct nw_label *r = nw_labels_find(&w->registry, c->name);
    if (c->piece != 1 || r == NULL || r->replaced_by != NULL ||
        r->nrevs < 2 || strcmp(r->chapter, w->chapter) != 0) {
        return;
    }
    const struct nw_revision *last = &r->revs[r->nrevs - 1];
    fprintf(out, "\n```{=html}\n<p class=\"revised\">This is revision %d "
                 "of the label \xe2\x9f\xa8%s\xe2\x9f\xa9, of %s; the code "
                 "lessons cited before is kept:",
            last->n, r->label, last->date);
    for (size_t k = r->nrevs - 1; k-- > 0;) {
        fprintf(out, "%s <a href=\"%s@%d.html\">revision %d</a>",
                k + 2 == r->nrevs ? "" : ",", r->label, r->revs[k].n,
                r->revs[k].n);
    }
    fprintf(out, " (<a href=\"labels.html#%s\">its revisions</a>).</p>\n"
                 "```\n", r->label);
}

/* The code chunk at index: its div on the page and its line of CHUNKS.
 * Before the first piece of a chunk that replaced a label this chapter
 * retired comes that label's note, so that an old link lands at the code. */
static void weave_code(struct weave *w, size_t index, unsigned *nref) {
    const struct nw_chunk *c = &w->doc->chunks[index];
    char anchor[NW_ANCHOR_MAX];
    nw_anchor(c->name, c->piece, anchor, sizeof anchor);
    for (size_t i = 0; i < w->registry.n && c->piece == 1; ++i) {
        const struct nw_label *r = &w->registry.v[i];
        if (retired_here(w, r) && strcmp(r->replaced_by, c->name) == 0) {
            char href[NW_ANCHOR_MAX + 1];
            snprintf(href, sizeof href, "#%s", anchor);
            put_retired(stdout, r, href);
        }
    }
    const struct nw_label *label = nw_labels_find(&w->registry, c->name);
    weave_head(stdout, c, nw_pieces(w->doc, c->name), anchor,
               c->piece == 1 && label != NULL && label->replaced_by == NULL &&
                   strcmp(label->chapter, w->chapter) == 0);
    if (w->code != NULL) {
        put_code_mark(stdout, w);
        fputc('\n', stdout);
        weave_body(w->code, w->refs, c, nref);
    } else {
        weave_body(stdout, w->refs, c, nref);
    }
    weave_foot(stdout, w, index, anchor);
    put_revised(stdout, w, c);
    nw_piece_put(w->chunks, anchor, c->piece, c->line, c->name);
}

/* The notes of the labels this chapter retired for one of another chapter,
 * at the end of the page (those replaced here are before their code). */
static void weave_retired(FILE *out, struct weave *w) {
    for (size_t i = 0; i < w->registry.n; ++i) {
        const struct nw_label *r = &w->registry.v[i];
        if (!retired_here(w, r) || nw_find_defn(w->doc, r->replaced_by, 0) >= 0) {
            continue;
        }
        char href[NW_ANCHOR_MAX + 64];
        if (!cite_href(w, r->replaced_by, href, sizeof href)) {
            nw_error(w->registry_path, r->line,
                     "retired label %s names %s as its replacement, which "
                     "is no label of the book",
                     r->label, r->replaced_by);
            ++w->errors;
            continue;
        }
        put_retired(out, r, href);
    }
}

/* Opens path for writing, or says why not. */
static FILE *open_out(const char *path) {
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        nw_error(path, 0, "cannot write");
    }
    return f;
}

/* Closes an output file; 1 where what it was given is not all written. */
static int close_out(FILE *f, const char *path) {
    if (f != NULL && fclose(f) != 0) {
        nw_error(path, 0, "cannot write");
        return 1;
    }
    return 0;
}

/* Reads what the weave needs besides the chapter: the registry and every
 * chapter's labels. argv is REFS CHUNKS REGISTRY META... */
static int read_labels(struct weave *w, int argc, char **argv) {
    w->registry_path = argv[2];
    if (nw_labels_from_registry(&w->registry, argv[2]) != 0) {
        return 1;
    }
    for (int i = 3; i < argc; ++i) {
        if (nw_labels_from_meta(&w->labels, argv[i]) != 0) {
            return 1;
        }
    }
    return 0;
}

int main(int argc, char **argv) {
    const char *values = NULL, *code = NULL, *numbers = NULL;
    struct weave w;
    memset(&w, 0, sizeof w);
    w.charts = nw_xrealloc(NULL, (size_t)argc * sizeof *w.charts);
    for (;;) {
        if (argc > 2 && strcmp(argv[1], "-V") == 0) {
            values = argv[2];
        } else if (argc > 2 && strcmp(argv[1], "-g") == 0) {
            w.charts[w.ncharts++] = argv[2];
        } else if (argc > 2 && strcmp(argv[1], "-c") == 0) {
            code = argv[2];
        } else if (argc > 2 && strcmp(argv[1], "-n") == 0) {
            numbers = argv[2];
        } else {
            break;
        }
        argv += 2;
        argc -= 2;
    }
    if (argc < 4) {
        fprintf(stderr,
                "usage: markup CHAPTER.nw | chapter-md [-V VALUES] [-c CODE] "
                "[-n NUMBERS] [-g CHART.md]... REFS CHUNKS REGISTRY META... "
                "> CHAPTER.md\n");
        free(w.charts);
        return 2;
    }
    w.placed = nw_xcalloc(w.ncharts + 1, sizeof *w.placed);
    w.has_values = values != NULL;
    if (values != NULL &&
        nw_values_read_dir(&w.values, values, NULL, 0) != 0) {
        nw_values_free(&w.values);
        free(w.charts);
        free(w.placed);
        return 1;
    }
    struct nw_doc doc;
    if (nw_load(stdin, &doc) != 0) {
        nw_values_free(&w.values);
        free(w.charts);
        free(w.placed);
        return 1;
    }
    w.doc = &doc;
    nw_xref_build(&doc, &w.xref);
    char *chapter = nw_chapter_of(doc.file ? doc.file : "-");
    w.chapter = chapter;
    int status = read_labels(&w, argc - 1, argv + 1);
    FILE *numbers_out = NULL;
    if (status == 0 && ((w.refs = open_out(argv[1])) == NULL ||
                        (w.chunks = open_out(argv[2])) == NULL ||
                        (code != NULL && (w.code = open_out(code)) == NULL) ||
                        (numbers != NULL &&
                         (numbers_out = open_out(numbers)) == NULL))) {
        status = 1;
    }
    unsigned nref = 0;
    for (size_t i = 0; i < doc.n && status == 0; ++i) {
        if (doc.chunks[i].is_code) {
            weave_code(&w, i, &nref);
        } else {
            weave_docs(stdout, &w, &doc.chunks[i]);
        }
    }
    if (status == 0 && w.numbers.n > 0) {
        printf("\n## Where the numbers come from {#sec-numbers}\n\n"
               "Each number above that is computed from more than one "
               "recorded value, or from one that no transcript shows, and "
               "each claim (\xe2\x9c\x93), with the values it is made of "
               "and where each was recorded.\n\n");
        if (numbers_out != NULL) {
            printf("```{=html}\n<!--NWNUMBERS0001-->\n```\n");
            fputs("<!--NWNUMBERS0001-->\n\n", numbers_out);
            nw_buf_put(numbers_out, &w.numbers);
        } else {
            nw_buf_put(stdout, &w.numbers);
        }
        putchar('\n');
    }
    if (status == 0) {
        charts_placed(&w);
        weave_retired(stdout, &w);
        status = w.errors != 0;
    }
    status |= close_out(w.refs, argv[1]);
    status |= close_out(w.chunks, argv[2]);
    if (code != NULL) {
        status |= close_out(w.code, code);
    }
    if (numbers != NULL) {
        status |= close_out(numbers_out, numbers);
    }
    status |= nw_flush_stdout(kTool);
    nw_labels_free(&w.labels);
    nw_labels_free(&w.registry);
    nw_values_free(&w.values);
    free(w.numbers.s);
    free(w.charts);
    free(w.placed);
    nw_xref_free(&w.xref);
    free(chapter);
    nw_free(&doc);
    return status;
}
