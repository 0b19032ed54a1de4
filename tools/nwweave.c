/* nwweave: turn one chapter's noweb pipeline into Pandoc Markdown.
 *
 * Usage: markup chapters/x.nw | nwweave REFS > x.md
 *
 * Documentation chunks pass through as Markdown; [[quoted code]] becomes
 * inline code. Each code chunk becomes a fenced div whose id is the chunk's
 * anchor (the snippet label itself for a label, "label-2" for its second
 * piece), with a header in the noweb manner: the name, = or +=, links to
 * the previous and next piece, and a footer saying where the chunk is used.
 * The code is a fenced block marked .cpp, which pandoc highlights.
 *
 * A chunk reference inside code cannot be a link in a highlighted block, so
 * it is written as a placeholder identifier (NWREF0001), which survives
 * highlighting intact; REFS receives one line per placeholder, the
 * placeholder, a tab and the HTML link that nwlinks puts in its place.
 */
#include "nwpipe.h"

#include <stdlib.h>
#include <string.h>

#define ANCHOR_MAX 300

static void put_html(FILE *out, const char *s) {
    for (; *s; ++s) {
        switch (*s) {
            case '&': fputs("&amp;", out); break;
            case '<': fputs("&lt;", out); break;
            case '>': fputs("&gt;", out); break;
            case '"': fputs("&quot;", out); break;
            default: fputc(*s, out); break;
        }
    }
}

/* The longest run of character ch anywhere in the chunk's items. */
static size_t longest_run(const struct nw_chunk *c, size_t from, size_t to,
                          char ch) {
    size_t best = 0;
    for (size_t j = from; j < to; ++j) {
        const char *s = c->items[j].s;
        if (s == NULL) {
            continue;
        }
        size_t run = 0;
        for (; *s; ++s) {
            run = (*s == ch) ? run + 1 : 0;
            best = run > best ? run : best;
        }
    }
    return best;
}

static void link_to(FILE *out, const char *name, int piece, const char *cls,
                    const char *text) {
    char anchor[ANCHOR_MAX];
    nw_anchor(name, piece, anchor, sizeof anchor);
    fprintf(out, "<a class=\"%s\" href=\"#%s\">", cls, anchor);
    if (text != NULL) {
        fputs(text, out);
    } else {
        fputs("\xe2\x9f\xa8", out); /* U+27E8 */
        put_html(out, name);
        fputs("\xe2\x9f\xa9", out); /* U+27E9 */
    }
    fputs("</a>", out);
}

static void weave_docs(FILE *out, const struct nw_chunk *c) {
    for (size_t j = 0; j < c->n; ++j) {
        const struct nw_item *it = &c->items[j];
        switch (it->kind) {
            case NW_TEXT: fputs(it->s, out); break;
            case NW_NL: fputc('\n', out); break;
            case NW_USE: fprintf(out, "<<%s>>", it->s); break;
            case NW_QUOTE: {
                size_t end = j + 1;
                while (end < c->n && c->items[end].kind != NW_ENDQUOTE) {
                    ++end;
                }
                size_t ticks = longest_run(c, j + 1, end, '`') + 1;
                for (size_t k = 0; k < ticks; ++k) {
                    fputc('`', out);
                }
                /* A blank keeps a backtick at either end off the fence. */
                fputc(' ', out);
                for (size_t k = j + 1; k < end; ++k) {
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
                for (size_t k = 0; k < ticks; ++k) {
                    fputc('`', out);
                }
                j = end;
                break;
            }
            case NW_ENDQUOTE: break;
        }
    }
}

static void weave_code(FILE *out, FILE *refs, const struct nw_doc *doc,
                       size_t index, unsigned *nref) {
    const struct nw_chunk *c = &doc->chunks[index];
    const int pieces = nw_pieces(doc, c->name);
    char anchor[ANCHOR_MAX];
    nw_anchor(c->name, c->piece, anchor, sizeof anchor);

    fprintf(out, "\n::: {#%s .chunk}\n```{=html}\n<div class=\"chunk-head\">",
            anchor);
    link_to(out, c->name, c->piece, "chunk-name", NULL);
    fputs(c->piece > 1 ? " <span class=\"chunk-op\">+\xe2\x89\xa1</span>"
                       : " <span class=\"chunk-op\">\xe2\x89\xa1</span>",
          out);
    fputs("<span class=\"chunk-nav\">", out);
    if (c->piece > 1) {
        link_to(out, c->name, c->piece - 1, "chunk-prev",
                "\xe2\x97\x82 previous");
    }
    if (c->piece < pieces) {
        link_to(out, c->name, c->piece + 1, "chunk-next", "next \xe2\x96\xb8");
    }
    fputs("</span></div>\n```\n", out);

    size_t fence = longest_run(c, 0, c->n, '~') + 1;
    fence = fence < 4 ? 4 : fence;
    for (size_t k = 0; k < fence; ++k) {
        fputc('~', out);
    }
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
    for (size_t k = 0; k < fence; ++k) {
        fputc('~', out);
    }
    fputs("\n\n```{=html}\n<div class=\"chunk-foot\">", out);
    int users = 0;
    for (size_t i = 0; i < doc->n; ++i) {
        const struct nw_chunk *u = &doc->chunks[i];
        if (!u->is_code) {
            continue;
        }
        for (size_t j = 0; j < u->n; ++j) {
            if (u->items[j].kind == NW_USE &&
                strcmp(u->items[j].s, c->name) == 0) {
                fputs(users++ ? ", " : "Used in ", out);
                link_to(out, u->name, u->piece, "chunk-user", NULL);
                break;
            }
        }
    }
    if (users == 0 && nw_is_file_name(c->name)) {
        fputs("Tangled to <a class=\"chunk-file\" href=\"src/", out);
        put_html(out, c->name);
        fputs("\">", out);
        put_html(out, c->name);
        fputs("</a>", out);
    }
    fputs(users ? ".</div>\n```\n:::\n\n" : "</div>\n```\n:::\n\n", out);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: markup CHAPTER.nw | %s REFS > CHAPTER.md\n",
                argv[0]);
        return 2;
    }
    struct nw_doc doc;
    char err[1024];
    if (nw_read(stdin, &doc, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        nw_free(&doc);
        return 1;
    }
    FILE *refs = fopen(argv[1], "w");
    if (refs == NULL) {
        fprintf(stderr, "%s: cannot write\n", argv[1]);
        nw_free(&doc);
        return 1;
    }
    unsigned nref = 0;
    for (size_t i = 0; i < doc.n; ++i) {
        if (doc.chunks[i].is_code) {
            weave_code(stdout, refs, &doc, i, &nref);
        } else {
            weave_docs(stdout, &doc.chunks[i]);
        }
    }
    int status = 0;
    if (fclose(refs) != 0 || fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "nwweave: cannot write the woven chapter\n");
        status = 1;
    }
    nw_free(&doc);
    return status;
}
