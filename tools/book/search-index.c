/* search-index: the search index of the book, as a script.
 *
 * Usage: search-index PAGE.html [CHUNKS]... > search-index.js
 *
 * Reads the finished pages and writes
 *   window.BOOK_INDEX = {"docs": [{"u": ..., "t": ..., "p": ..., "k": ...,
 *                                  "b": ...}, ...]};
 * one document per section of prose (u: page.html#heading-id), per code
 * chunk (page.html#chunk-anchor), and one for a page's prose before its
 * first heading: t is its title (the heading, or the chunk's name), p the
 * page's title, k the kind ("section" or "chunk") and b its text, tags
 * stripped and entities decoded.
 * Chunk code is indexed under the chunk, so a section's text is its prose.
 *
 * Which parts of a page are chunks, and their names, come from the model
 * chapter-md wrote beside the page's Markdown, CHUNKS (build/md/NAME.chunks)
 * given after the page: the div whose id is a chunk's anchor is the chunk.
 * Only the text comes from the page.
 *
 * A script and not JSON: a page opened from file:// may load a script of
 * its own folder, but may not fetch a file. The text is written as JSON
 * strings with every character outside printable ASCII, and '<', '>' and
 * '&', as \u escapes, so the file is plain ASCII and cannot end a script.
 *
 * The pages are pandoc's HTML as the book writes it; only <main> is read,
 * and within it <header>, <nav>, <script>, <style>, <svg>, the chunks'
 * headers and footers and the permalinks are left out. Maths is indexed
 * once, as its TeX source (MathML's annotation, which pandoc writes after
 * the rendered form): the rendered elements' text runs together ("n log2 n"
 * as "nlog2n") and is left out. The TeX is read as text, as a result's
 * excerpt shows it: "w \bmod 32" as "w mod 32", "x_{n-1} \cdot 2^{28}" as
 * "x_(n-1) · 2^28".
 *
 * A page whose head says <meta name="robots" content="noindex"> is left
 * out whole: the whole book's page, book.html, holds every chapter's text
 * again, and every result would be found twice.
 */
#include "html.h"
#include "meta.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static const char kTool[] = "search-index";

/* Text, with runs of white space made one blank. */
static void b_text(struct nw_buf *b, const char *s, size_t n) {
    for (size_t i = 0; i < n; ++i) {
        char c = s[i];
        if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
            if (b->n > 0 && b->s[b->n - 1] != ' ') {
                nw_buf_add(b, " ", 1);
            }
        } else {
            nw_buf_add(b, &c, 1);
        }
    }
}

/* Decodes the character data s[0..n) into b: entities to characters. A
 * no-break space is a blank, as in a browser. */
static void b_chars(struct nw_buf *b, const char *s, size_t n) {
    size_t i = 0;
    while (i < n) {
        const char *amp = memchr(s + i, '&', n - i);
        size_t upto = amp ? (size_t)(amp - s) : n;
        b_text(b, s + i, upto - i);
        if (amp == NULL) {
            break;
        }
        size_t len = nw_html_ref_len(amp, n - upto);
        unsigned long cp = 0;
        if (len > 0 && nw_html_ref_code(amp, len, &cp)) {
            if (cp == 0xA0) {
                b_text(b, " ", 1);
            } else {
                nw_buf_utf8(b, cp);
            }
            i = upto + len;
        } else {
            nw_buf_add(b, "&", 1);
            i = upto + 1;
        }
    }
}

/* Where text is within maths: outside it, in its rendered form (not
 * indexed), or in its TeX annotation (indexed, set off by blanks). */
enum math { NOT_MATH, MATH_RENDERED, MATH_TEX };

/* The text a TeX command prints, for those the book's maths holds that
 * print a symbol, another word or nothing but their argument (\text{nnz}
 * as nnz); NULL for any other, which prints its name (\log as log). */
static const char *tex_word(const char *name, size_t n) {
    static const struct {
        const char *tex, *text;
    } kWords[] = {
        {"bmod", "mod"},          {"times", "\xc3\x97"},
        {"cdot", "\xc2\xb7"},     {"ldots", "\xe2\x80\xa6"},
        {"dots", "\xe2\x80\xa6"}, {"cdots", "\xe2\x80\xa6"},
        {"sum", "\xe2\x88\x91"},  {"alpha", "\xce\xb1"},
        {"beta", "\xce\xb2"},     {"varepsilon", "\xce\xb5"},
        {"epsilon", "\xce\xb5"},  {"lfloor", "\xe2\x8c\x8a"},
        {"rfloor", "\xe2\x8c\x8b"}, {"lceil", "\xe2\x8c\x88"},
        {"rceil", "\xe2\x8c\x89"}, {"le", "\xe2\x89\xa4"},
        {"leq", "\xe2\x89\xa4"},  {"ge", "\xe2\x89\xa5"},
        {"geq", "\xe2\x89\xa5"},  {"ne", "\xe2\x89\xa0"},
        {"neq", "\xe2\x89\xa0"},  {"approx", "\xe2\x89\x88"},
        {"to", "\xe2\x86\x92"},   {"infty", "\xe2\x88\x9e"},
        {"pm", "\xc2\xb1"},         {"sqrt", "\xe2\x88\x9a"},
        {"text", ""},             {"mathrm", ""},
        {"operatorname", ""},     {"left", ""},
        {"right", ""}};
    for (size_t i = 0; i < sizeof kWords / sizeof kWords[0]; ++i) {
        if (strlen(kWords[i].tex) == n && memcmp(kWords[i].tex, name, n) == 0) {
            return kWords[i].text;
        }
    }
    return NULL;
}

/* Is c an ASCII letter? */
static int tex_letter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* The TeX s[0..n), entities decoded, as text into b: a command as what it
 * prints, braces dropped, and a sub- or superscript of more than one term
 * in parentheses ("x_{n-1}" as "x_(n-1)", "2^{28}" as "2^28"). */
static void tex_text(struct nw_buf *b, const char *s, size_t n) {
    const char *p = s, *end = s + n;
    while (p < end) {
        if (*p == '\\' && p + 1 < end && tex_letter(p[1])) {
            const char *q = p + 1;
            while (q < end && tex_letter(*q)) {
                ++q;
            }
            const char *w = tex_word(p + 1, (size_t)(q - p - 1));
            b_text(b, w ? w : p + 1, w ? strlen(w) : (size_t)(q - p - 1));
            p = q;
        } else if (*p == '\\' && p + 1 < end) { /* \, \; \: \  a space */
            b_text(b, strchr(",;: ", p[1]) ? " " : p + 1, p[1] != '!');
            p += 2;
        } else if ((*p == '^' || *p == '_') && p + 1 < end && p[1] == '{') {
            const char *q = p + 2; /* to the group's '}' */
            int depth = 1;
            for (; q < end; ++q) {
                depth += (*q == '{') - (*q == '}');
                if (depth == 0) {
                    break;
                }
            }
            size_t len = (size_t)(q - p - 2);
            int terms = 0; /* a term after the first: an operator past it */
            for (size_t i = 1; i < len; ++i) {
                terms |= strchr(" +-,", p[2 + i]) != NULL;
            }
            b_text(b, p, 1);
            b_text(b, "(", (size_t)terms);
            tex_text(b, p + 2, len);
            b_text(b, ")", (size_t)terms);
            p = q < end ? q + 1 : end;
        } else {
            if (*p != '{' && *p != '}') {
                b_text(b, p, 1);
            }
            ++p;
        }
    }
}

/* Text s[0..n) of a page into b, where m says it is: character data, or
 * within maths TeX read as text. */
static void b_page_text(struct nw_buf *b, enum math m, const char *s,
                        size_t n) {
    if (m != MATH_TEX) {
        b_chars(b, s, n);
        return;
    }
    struct nw_buf tex = {NULL, 0, 0};
    nw_buf_add(&tex, "", 0);
    b_chars(&tex, s, n);
    tex_text(b, tex.s, tex.n);
    free(tex.s);
}

/* A document of the index. */
struct doc {
    char *url, *title, *page, *kind;
    struct nw_buf body;
};

struct index {
    struct doc *d;
    size_t n, cap;
};

static size_t new_doc(struct index *ix, const char *page, const char *id,
                      size_t idlen, const char *kind) {
    ix->d = nw_grow(ix->d, &ix->cap, ix->n + 1, sizeof *ix->d);
    struct doc *d = &ix->d[ix->n];
    memset(d, 0, sizeof *d);
    struct nw_buf url = {NULL, 0, 0};
    nw_buf_add(&url, page, strlen(page));
    if (id != NULL) {
        /* The id as pandoc wrote it in the attribute: decode &amp; etc. */
        nw_buf_add(&url, "#", 1);
        b_chars(&url, id, idlen);
    }
    d->url = url.s;
    d->kind = nw_xstrdup(kind);
    nw_buf_add(&d->body, "", 0);
    return ix->n++;
}

/* Has tag t one of names, n of them? */
static int in_list(const struct nw_html_token *t, const char *const *names,
                   size_t n) {
    for (size_t i = 0; i < n; ++i) {
        if (nw_html_is(t, names[i])) {
            return 1;
        }
    }
    return 0;
}

/* Elements whose content is never indexed. */
static int skipped(const struct nw_html_token *t) {
    static const char *const names[] = {"nav", "script", "style", "svg",
                                        "template", "header"};
    return in_list(t, names, sizeof names / sizeof names[0]);
}

/* Elements inside a word: no blank at their edges. */
static int inline_tag(const struct nw_html_token *t) {
    static const char *const names[] = {"a", "span", "code", "em", "strong",
                                        "sub", "sup", "b", "i"};
    return in_list(t, names, sizeof names / sizeof names[0]);
}

static char *trimmed(const struct nw_buf *b) {
    const char *s = b->s ? b->s : "";
    while (*s == ' ') {
        ++s;
    }
    size_t n = strlen(s);
    while (n > 0 && s[n - 1] == ' ') {
        --n;
    }
    char *t = nw_xrealloc(NULL, n + 1);
    memcpy(t, s, n);
    t[n] = '\0';
    return t;
}


/* The state after the tag t, from state m; *blank is set where the TeX
 * begins or ends, and wants a blank there. */
static enum math math_tag(enum math m, const struct nw_html_token *t,
                          int *blank) {
    enum math next = m;
    int closing = t->kind == NW_HTML_END;
    if (nw_html_is(t, "math")) {
        next = closing ? NOT_MATH : MATH_RENDERED;
    } else if (m != NOT_MATH && nw_html_is(t, "annotation")) {
        next = closing ? MATH_RENDERED : MATH_TEX;
    }
    *blank = (next == MATH_TEX) != (m == MATH_TEX);
    return next;
}

/* Is t a permalink, which no text holds? */
static int permalink(const struct nw_html_token *t) {
    return t->kind == NW_HTML_START && nw_html_is(t, "a") &&
           nw_html_has_class(t, "permalink");
}

/* The text of the heading of this level that h is in, tags stripped, up
 * to its permalink, into *out; h is left after its end tag. Returns 0, or
 * 1 where the heading does not end before </main>, or -1 having said what
 * is wrong with the page. */
static int element_text(struct nw_html *h, int level, char **out) {
    struct nw_buf b = {NULL, 0, 0};
    nw_buf_add(&b, "", 0);
    enum math m = NOT_MATH;
    int stop = 0; /* at the permalink */
    struct nw_html_token t;
    int r;
    while ((r = nw_html_next(h, &t)) > 0) {
        if (t.kind == NW_HTML_END &&
            (nw_html_heading(&t) == level || nw_html_is(&t, "main"))) {
            break;
        }
        stop |= permalink(&t);
        if (t.kind == NW_HTML_TEXT && !stop && m != MATH_RENDERED) {
            b_page_text(&b, m, t.s, t.len);
        } else if (t.kind == NW_HTML_START || t.kind == NW_HTML_END) {
            int blank = 0;
            m = math_tag(m, &t, &blank);
            if (blank && !stop) {
                b_text(&b, " ", 1);
            }
        }
    }
    if (r > 0 && nw_html_heading(&t) == level) {
        *out = trimmed(&b);
        r = 0;
    } else {
        r = r < 0 ? -1 : 1;
    }
    free(b.s);
    return r;
}

/* Where index_page is on a page. */
struct scan {
    struct index *ix;
    const struct nw_piece_list *chunks; /* the page's chunks */
    const char *page;   /* the page's file name, as the URLs have it */
    size_t sec;         /* the section document, outside a chunk */
    long chunk;         /* the chunk document, while inside one */
    int chunk_depth;    /* <div> depth inside the chunk */
    size_t found;       /* chunks found on the page */
    char skip_name[16]; /* an element left out, while inside one */
    int skip_depth;     /* its depth */
    enum math math;     /* within maths: only its TeX is text */
};

/* The document text goes to. */
static struct nw_buf *body(struct scan *sc) {
    size_t cur = sc->chunk >= 0 ? (size_t)sc->chunk : sc->sec;
    return &sc->ix->d[cur].body;
}

/* Parts of a page that are no text of it, by class: the chunks' headers
 * and footers (their name is the chunk's title) and the permalinks. */
static int left_out(const struct nw_html_token *t) {
    static const char *const classes[] = {"permalink", "chunk-head",
                                          "chunk-foot"};
    for (size_t i = 0; i < sizeof classes / sizeof classes[0]; ++i) {
        if (nw_html_has_class(t, classes[i])) {
            return 1;
        }
    }
    return 0;
}

/* The page's title: <h1 class="title">, which may hold inline tags, from
 * h at the start of <main>; or the page's file name. */
static char *page_title(struct nw_html h, const char *page) {
    struct nw_html_token t;
    char *title = NULL;
    while (nw_html_next(&h, &t) > 0 &&
           !(t.kind == NW_HTML_END && nw_html_is(&t, "main"))) {
        if (t.kind == NW_HTML_START && nw_html_heading(&t) == 1 &&
            nw_html_attr_is(&t, "class", "title")) {
            if (element_text(&h, 1, &title) == 0) {
                return title;
            }
            break;
        }
    }
    return nw_xstrdup(page);
}

/* A chunk's title: its name in angle brackets, as its header shows it,
 * and " +=" for a continuation. */
static char *chunk_title(const struct nw_piece *p) {
    struct nw_buf b = {NULL, 0, 0};
    nw_buf_add(&b, "", 0);
    b_text(&b, "\xe2\x9f\xa8", 3);
    b_text(&b, p->name, strlen(p->name));
    b_text(&b, "\xe2\x9f\xa9", 3);
    char *t = trimmed(&b);
    free(b.s);
    if (p->piece > 1) {
        size_t tl = strlen(t);
        t = nw_xrealloc(t, tl + 6);
        memcpy(t + tl, " +\xe2\x89\xa1", 6);
    }
    return t;
}

/* A <div> inside a chunk: the chunk ends with the one that opened it. */
static void chunk_div(struct scan *sc, int closing) {
    if (!closing) {
        ++sc->chunk_depth;
    } else if (--sc->chunk_depth == 0) {
        sc->chunk = -1;
    }
}

/* A <div> outside a chunk: where its id is a chunk's anchor, the chunk
 * starts. */
static void maybe_chunk(struct scan *sc, const struct nw_html_token *t) {
    size_t idlen = 0;
    const char *id = nw_html_attr(t, "id", &idlen);
    const struct nw_piece *p =
        id ? nw_piece_list_find(sc->chunks, id, idlen) : NULL;
    if (p != NULL) {
        sc->chunk = (long)new_doc(sc->ix, sc->page, id, idlen, "chunk");
        sc->ix->d[sc->chunk].title = chunk_title(p);
        sc->chunk_depth = 1;
        ++sc->found;
    }
}

/* A heading t with an id, outside a chunk: a new section, titled with the
 * heading's text less its permalink, and h goes on after the heading.
 * Returns 0, or -1 having said what is wrong with the page. */
static int heading(struct scan *sc, struct nw_html *h,
                   const struct nw_html_token *t) {
    size_t idlen = 0;
    const char *id = nw_html_attr(t, "id", &idlen);
    struct nw_html after = *h;
    char *title = NULL;
    int r = id != NULL ? element_text(&after, nw_html_heading(t), &title) : 1;
    if (r == 0) {
        sc->sec = new_doc(sc->ix, sc->page, id, idlen, "section");
        sc->ix->d[sc->sec].title = title;
        *h = after;
    }
    return r < 0 ? -1 : 0;
}

/* The tag t, read by h. Returns 0, or -1 having said what is wrong. */
static int tag(struct scan *sc, struct nw_html *h,
               const struct nw_html_token *t) {
    int closing = t->kind == NW_HTML_END;
    if (sc->skip_depth > 0) {
        if (nw_html_is(t, sc->skip_name)) {
            sc->skip_depth += closing ? -1 : 1;
        }
        return 0;
    }
    if (!closing && (skipped(t) || left_out(t))) {
        size_t n = t->name_len < sizeof sc->skip_name
                       ? t->name_len : sizeof sc->skip_name - 1;
        for (size_t i = 0; i < n; ++i) {
            char c = t->name[i];
            sc->skip_name[i] = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
        }
        sc->skip_name[n] = '\0';
        sc->skip_depth = 1;
        return 0;
    }
    int blank = 0;
    enum math was = sc->math;
    sc->math = math_tag(was, t, &blank);
    if (blank || (!inline_tag(t) && was == NOT_MATH && sc->math == NOT_MATH)) {
        b_text(body(sc), " ", 1);
    }
    int div = nw_html_is(t, "div");
    if (div && sc->chunk >= 0) {
        chunk_div(sc, closing);
    } else if (div && !closing) {
        maybe_chunk(sc, t);
    } else if (nw_html_heading(t) > 0 && !closing && sc->chunk < 0) {
        return heading(sc, h, t);
    }
    return 0;
}

/* The text and tags of <main>, from h on to its end. Returns 0, or 1
 * having said what is wrong, or 2 where <main> has no end. */
static int scan_main(struct scan *sc, struct nw_html *h) {
    struct nw_html_token t;
    int r;
    while ((r = nw_html_next(h, &t)) > 0) {
        if (t.kind == NW_HTML_END && nw_html_is(&t, "main")) {
            return 0;
        }
        if (t.kind == NW_HTML_TEXT && sc->skip_depth == 0 &&
            sc->math != MATH_RENDERED) {
            b_page_text(body(sc), sc->math, t.s, t.len);
        } else if ((t.kind == NW_HTML_START || t.kind == NW_HTML_END) &&
                   tag(sc, h, &t) < 0) {
            return 1;
        }
    }
    return r < 0 ? 1 : 2;
}

/* The page h reads, up to its <main>: *noindex set where its head says
 * <meta name="robots" content="noindex">, a page not to be searched.
 * Returns 0, or 1 having said what is wrong, or 2 where it has no <main>. */
static int to_main(struct nw_html *h, int *noindex) {
    struct nw_html_token t;
    int r;
    while ((r = nw_html_next(h, &t)) > 0) {
        if (t.kind == NW_HTML_START && nw_html_is(&t, "main")) {
            return 0;
        }
        if (t.kind == NW_HTML_START && nw_html_is(&t, "meta") &&
            nw_html_attr_is(&t, "name", "robots") &&
            nw_html_attr_is(&t, "content", "noindex")) {
            *noindex = 1;
        }
    }
    return r < 0 ? 1 : 2;
}

/* Indexes one page: a document for the page's opening prose, one per
 * heading with an id, one per chunk of chunks. */
static int index_page(struct index *ix, const char *path,
                      const struct nw_piece_list *chunks) {
    size_t len = 0;
    char *html = nw_slurp_file(path, &len);
    if (html == NULL) {
        nw_error(path, 0, "cannot read");
        return 1;
    }
    const char *page = strrchr(path, '/');
    page = page ? page + 1 : path;
    struct nw_html h;
    nw_html_init(&h, html, len, path, 1);
    int noindex = 0;
    int status = to_main(&h, &noindex);
    char *ptitle = status == 0 && !noindex ? page_title(h, page) : NULL;
    size_t first = ix->n;
    struct scan sc = {ix, chunks, page, 0, -1, 0, 0, "", 0, NOT_MATH};
    if (ptitle != NULL) {
        sc.sec = new_doc(ix, page, NULL, 0, "section");
        ix->d[sc.sec].title = nw_xstrdup(ptitle);
        status = scan_main(&sc, &h);
    }
    if (status == 2) {
        nw_error(path, 0, "no <main> element; not a page of the book");
    }
    for (size_t i = first; i < ix->n; ++i) {
        struct doc *d = &ix->d[i];
        char *text = trimmed(&d->body);
        free(d->body.s);
        d->body.s = text;
        d->body.n = strlen(text);
        d->page = nw_xstrdup(ptitle);
        if (d->title == NULL) {
            d->title = nw_xstrdup(ptitle);
        }
    }
    free(ptitle);
    free(html);
    if (status == 0 && !noindex && sc.found != chunks->n) {
        nw_error(path, 0, "%zu of its %zu chunks are not on the page",
                 chunks->n - sc.found, chunks->n);
        return 1;
    }
    return status != 0;
}

/* A JSON string, all ASCII: see the comment at the top. */
static void put_js(const char *s) {
    putchar('"');
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned long cp = *p;
        size_t len = 1;
        if (cp >= 0x80) {
            if ((cp & 0xE0) == 0xC0 && (p[1] & 0xC0) == 0x80) {
                cp = ((cp & 0x1F) << 6) | (p[1] & 0x3F);
                len = 2;
            } else if ((cp & 0xF0) == 0xE0 && (p[1] & 0xC0) == 0x80 &&
                       (p[2] & 0xC0) == 0x80) {
                cp = ((cp & 0x0F) << 12) | ((unsigned long)(p[1] & 0x3F) << 6) |
                     (p[2] & 0x3F);
                len = 3;
            } else if ((cp & 0xF8) == 0xF0 && (p[1] & 0xC0) == 0x80 &&
                       (p[2] & 0xC0) == 0x80 && (p[3] & 0xC0) == 0x80) {
                cp = ((cp & 0x07) << 18) |
                     ((unsigned long)(p[1] & 0x3F) << 12) |
                     ((unsigned long)(p[2] & 0x3F) << 6) | (p[3] & 0x3F);
                len = 4;
            } else {
                cp = 0xFFFD; /* not UTF-8 */
            }
        }
        p += len;
        if (cp == '"' || cp == '\\') {
            printf("\\%c", (char)cp);
        } else if (cp >= 0x20 && cp < 0x7F && cp != '<' && cp != '>' &&
                   cp != '&') {
            putchar((int)cp);
        } else if (cp < 0x10000) {
            printf("\\u%04lx", cp);
        } else {
            cp -= 0x10000;
            printf("\\u%04lx\\u%04lx", 0xD800 + (cp >> 10),
                   0xDC00 + (cp & 0x3FF));
        }
    }
    putchar('"');
}

/* The documents, as the script search.js loads. */
static void put_index(const struct index *ix) {
    /* The tool's old name: published indexes begin so, and stay alike. */
    printf("/* The book's search index, written by search-index. */\n"
           "window.BOOK_INDEX = {\"docs\": [\n");
    size_t shown = 0;
    for (size_t i = 0; i < ix->n; ++i) {
        const struct doc *d = &ix->d[i];
        if (d->body.n == 0 && strcmp(d->kind, "section") == 0 &&
            strchr(d->url, '#') == NULL) {
            continue; /* a page with no prose before its first heading */
        }
        printf("%s{\"u\": ", shown++ ? ",\n" : "");
        put_js(d->url);
        printf(", \"t\": ");
        put_js(d->title);
        printf(", \"p\": ");
        put_js(d->page);
        printf(", \"k\": ");
        put_js(d->kind);
        printf(", \"b\": ");
        put_js(d->body.s);
        printf("}");
    }
    printf("\n]};\n");
}

static void free_index(struct index *ix) {
    for (size_t i = 0; i < ix->n; ++i) {
        free(ix->d[i].url);
        free(ix->d[i].title);
        free(ix->d[i].kind);
        free(ix->d[i].page);
        free(ix->d[i].body.s);
    }
    free(ix->d);
}

/* Is arg a page's table of chunks, NAME.chunks? */
static int is_chunks(const char *arg) {
    size_t n = strlen(arg);
    return n > 7 && strcmp(arg + n - 7, ".chunks") == 0;
}

int main(int argc, char **argv) {
    if (argc < 2 || is_chunks(argv[1])) {
        fprintf(stderr, "usage: %s PAGE.html [CHUNKS]... > search-index.js\n",
                argv[0]);
        return 2;
    }
    struct index ix = {NULL, 0, 0};
    int status = 0;
    for (int i = 1; i < argc && status == 0; ++i) {
        const char *page = argv[i];
        struct nw_piece_list chunks = {NULL, 0, 0};
        if (i + 1 < argc && is_chunks(argv[i + 1])) {
            status = nw_piece_list_read(&chunks, argv[++i]) != 0;
        }
        if (status == 0) {
            status = index_page(&ix, page, &chunks);
        }
        nw_piece_list_free(&chunks);
    }
    if (status == 0) {
        put_index(&ix);
    }
    free_index(&ix);
    return status | nw_flush_stdout(kTool);
}
