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
 * as "nlog2n") and is left out.
 *
 * A page whose head says <meta name="robots" content="noindex"> is left
 * out whole: the whole book's page, book.html, holds every chapter's text
 * again, and every result would be found twice.
 */
#include "meta.h"
#include "util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const char kTool[] = "search-index";
/* What a page that is not to be searched says in its head. */
static const char kNoIndex[] = "<meta name=\"robots\" content=\"noindex\">";

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

/* Appends the UTF-8 encoding of code point cp. */
static void b_utf8(struct nw_buf *b, unsigned long cp) {
    char u[4];
    size_t n;
    if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
        cp = 0xFFFD;
    }
    if (cp < 0x80) {
        u[0] = (char)cp;
        n = 1;
    } else if (cp < 0x800) {
        u[0] = (char)(0xC0 | (cp >> 6));
        u[1] = (char)(0x80 | (cp & 0x3F));
        n = 2;
    } else if (cp < 0x10000) {
        u[0] = (char)(0xE0 | (cp >> 12));
        u[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        u[2] = (char)(0x80 | (cp & 0x3F));
        n = 3;
    } else {
        u[0] = (char)(0xF0 | (cp >> 18));
        u[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        u[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        u[3] = (char)(0x80 | (cp & 0x3F));
        n = 4;
    }
    nw_buf_add(b, u, n);
}

/* The entity at amp, len bytes up to its ';', into b; 0 where it is none
 * the book's pages hold. A no-break space is a blank, as in a browser. */
static int b_entity(struct nw_buf *b, const char *amp, size_t len) {
    static const struct {
        const char *name;
        unsigned long cp;
    } named[] = {{"amp", '&'},     {"lt", '<'},        {"gt", '>'},
                 {"quot", '"'},    {"apos", '\''},     {"nbsp", 0xA0},
                 {"ndash", 0x2013}, {"mdash", 0x2014}, {"hellip", 0x2026},
                 {"rsquo", 0x2019}, {"lsquo", 0x2018}, {"rdquo", 0x201D},
                 {"ldquo", 0x201C}};
    unsigned long cp = 0;
    int found = 0;
    if (amp[1] == '#') {
        char *end = NULL;
        char num[12];
        memcpy(num, amp + 2, len - 2);
        num[len - 2] = '\0';
        int hex = num[0] == 'x' || num[0] == 'X';
        cp = strtoul(num + hex, &end, hex ? 16 : 10);
        found = end != num + hex && *end == '\0';
    } else {
        for (size_t k = 0; k < sizeof named / sizeof named[0] && !found; ++k) {
            found = strlen(named[k].name) == len - 1 &&
                    memcmp(named[k].name, amp + 1, len - 1) == 0;
            cp = named[k].cp;
        }
    }
    if (found && cp == 0xA0) {
        b_text(b, " ", 1);
    } else if (found) {
        b_utf8(b, cp);
    }
    return found;
}

/* Decodes the character data s[0..n) into b: entities to characters. */
static void b_chars(struct nw_buf *b, const char *s, size_t n) {
    size_t i = 0;
    while (i < n) {
        const char *amp = memchr(s + i, '&', n - i);
        size_t upto = amp ? (size_t)(amp - s) : n;
        b_text(b, s + i, upto - i);
        if (amp == NULL) {
            break;
        }
        const char *semi = memchr(amp, ';', n - upto);
        size_t len = semi ? (size_t)(semi - amp) : 0;
        if (semi != NULL && len >= 2 && len < 12 && b_entity(b, amp, len)) {
            i = upto + len + 1;
        } else {
            nw_buf_add(b, "&", 1);
            i = upto + 1;
        }
    }
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

/* The value of attribute name in the tag from p to end, or NULL. */
static const char *attr(const char *p, const char *end, const char *name,
                        size_t *len) {
    size_t nl = strlen(name);
    for (const char *q = p; q + nl + 3 <= end; ++q) {
        if ((q[0] == ' ' || q[0] == '\n') && strncmp(q + 1, name, nl) == 0 &&
            q[nl + 1] == '=' && q[nl + 2] == '"') {
            const char *v = q + nl + 3;
            const char *e = memchr(v, '"', (size_t)(end - v));
            if (e == NULL) {
                return NULL;
            }
            *len = (size_t)(e - v);
            return v;
        }
    }
    return NULL;
}

static int has_class(const char *p, const char *end, const char *cls) {
    size_t len;
    const char *v = attr(p, end, "class", &len);
    size_t cl = strlen(cls);
    while (v != NULL && len >= cl) {
        if (strncmp(v, cls, cl) == 0 && (len == cl || v[cl] == ' ')) {
            return 1;
        }
        const char *sp = memchr(v, ' ', len);
        if (sp == NULL) {
            break;
        }
        len -= (size_t)(sp + 1 - v);
        v = sp + 1;
    }
    return 0;
}

/* The tag name at p (after '<' and an optional '/'), lowercased. */
static void tag_name(const char *p, char *out, size_t size) {
    size_t n = 0;
    while (n + 1 < size && (isalnum((unsigned char)p[n]))) {
        out[n] = (char)tolower((unsigned char)p[n]);
        ++n;
    }
    out[n] = '\0';
}

static int in_list(const char *name, const char *const *names, size_t n) {
    for (size_t i = 0; i < n; ++i) {
        if (strcmp(name, names[i]) == 0) {
            return 1;
        }
    }
    return 0;
}

/* Elements whose content is never indexed. */
static int skipped(const char *name) {
    static const char *const names[] = {"nav", "script", "style", "svg",
                                        "template", "header"};
    return in_list(name, names, sizeof names / sizeof names[0]);
}

/* Elements inside a word: no blank at their edges. */
static int inline_tag(const char *name) {
    static const char *const names[] = {"a", "span", "code", "em", "strong",
                                        "sub", "sup", "b", "i"};
    return in_list(name, names, sizeof names / sizeof names[0]);
}

static int is_heading(const char *name) {
    return name[0] == 'h' && name[1] >= '1' && name[1] <= '6' &&
           name[2] == '\0';
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

/* Where text is within maths: outside it, in its rendered form (not
 * indexed), or in its TeX annotation (indexed, set off by blanks). */
enum math { NOT_MATH, MATH_RENDERED, MATH_TEX };

/* The state after the tag name (closing or not), from state m; *blank is
 * set where the TeX begins or ends, and wants a blank there. */
static enum math math_tag(enum math m, const char *name, int closing,
                          int *blank) {
    enum math next = m;
    if (strcmp(name, "math") == 0) {
        next = closing ? NOT_MATH : MATH_RENDERED;
    } else if (m != NOT_MATH && strcmp(name, "annotation") == 0) {
        next = closing ? MATH_RENDERED : MATH_TEX;
    }
    *blank = (next == MATH_TEX) != (m == MATH_TEX);
    return next;
}

/* The text of the element that starts at from, tags stripped. */
static char *element_text(const char *from, const char *end) {
    struct nw_buf b = {NULL, 0, 0};
    nw_buf_add(&b, "", 0);
    enum math m = NOT_MATH;
    for (const char *q = from; q < end;) {
        const char *lt = memchr(q, '<', (size_t)(end - q));
        const char *upto = lt ? lt : end;
        if (m != MATH_RENDERED) {
            b_chars(&b, q, (size_t)(upto - q));
        }
        if (lt == NULL) {
            break;
        }
        const char *gt = memchr(lt, '>', (size_t)(end - lt));
        char name[16];
        int closing = lt[1] == '/', blank = 0;
        tag_name(lt + 1 + closing, name, sizeof name);
        m = math_tag(m, name, closing, &blank);
        if (blank) {
            b_text(&b, " ", 1);
        }
        q = gt ? gt + 1 : end;
    }
    char *t = trimmed(&b);
    free(b.s);
    return t;
}

/* Where index_page is on a page. */
struct scan {
    struct index *ix;
    const struct nw_piece_list *chunks; /* the page's chunks */
    const char *page;   /* the page's file name, as the URLs have it */
    const char *end;    /* the end of <main> */
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
static int left_out(const char *p, const char *end) {
    static const char *const classes[] = {"permalink", "chunk-head",
                                          "chunk-foot"};
    for (size_t i = 0; i < sizeof classes / sizeof classes[0]; ++i) {
        if (has_class(p, end, classes[i])) {
            return 1;
        }
    }
    return 0;
}

/* The page's title: <h1 class="title">, which may hold inline tags; or
 * the page's file name. */
static char *page_title(const char *main_at, const char *main_end,
                        const char *page) {
    static const char kOpen[] = "<h1 class=\"title\">";
    const char *t = strstr(main_at, kOpen);
    const char *te = t ? strstr(t, "</h1>") : NULL;
    if (t != NULL && te != NULL && te < main_end) {
        return element_text(t + strlen(kOpen), te);
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
static void maybe_chunk(struct scan *sc, const char *lt, const char *gt) {
    size_t idlen = 0;
    const char *id = attr(lt, gt, "id", &idlen);
    const struct nw_piece *p =
        id ? nw_piece_list_find(sc->chunks, id, idlen) : NULL;
    if (p != NULL) {
        sc->chunk = (long)new_doc(sc->ix, sc->page, id, idlen, "chunk");
        sc->ix->d[sc->chunk].title = chunk_title(p);
        sc->chunk_depth = 1;
        ++sc->found;
    }
}

/* A heading with an id, outside a chunk: a new section, titled with the
 * heading's text less its permalink. Returns where to go on, after the
 * heading, or gt + 1. */
static const char *heading(struct scan *sc, const char *lt, const char *gt,
                           char level) {
    size_t idlen = 0;
    const char *id = attr(lt, gt, "id", &idlen);
    char close[6] = {'<', '/', 'h', level, '>', '\0'};
    const char *he = strstr(gt, close);
    if (id == NULL || he == NULL || he >= sc->end) {
        return gt + 1;
    }
    sc->sec = new_doc(sc->ix, sc->page, id, idlen, "section");
    const char *perma = strstr(gt, "<a class=\"permalink\"");
    const char *stop = (perma != NULL && perma < he) ? perma : he;
    sc->ix->d[sc->sec].title = element_text(gt + 1, stop);
    return he + strlen(close);
}

/* The tag from lt to gt. Returns where to go on. */
static const char *tag(struct scan *sc, const char *lt, const char *gt) {
    int closing = lt[1] == '/';
    char name[16];
    tag_name(lt + 1 + closing, name, sizeof name);
    if (sc->skip_depth > 0) {
        if (strcmp(name, sc->skip_name) == 0) {
            sc->skip_depth += closing ? -1 : 1;
        }
        return gt + 1;
    }
    if (!closing && (skipped(name) || left_out(lt, gt))) {
        snprintf(sc->skip_name, sizeof sc->skip_name, "%s", name);
        sc->skip_depth = 1;
        return gt + 1;
    }
    int blank = 0;
    enum math was = sc->math;
    sc->math = math_tag(was, name, closing, &blank);
    if (blank || (!inline_tag(name) && was == NOT_MATH && sc->math == NOT_MATH)) {
        b_text(body(sc), " ", 1);
    }
    int div = strcmp(name, "div") == 0;
    if (div && sc->chunk >= 0) {
        chunk_div(sc, closing);
    } else if (div && !closing) {
        maybe_chunk(sc, lt, gt);
    } else if (is_heading(name) && !closing && sc->chunk < 0) {
        return heading(sc, lt, gt, name[1]);
    }
    return gt + 1;
}

/* The text and tags of <main>, from p. */
static void scan_main(struct scan *sc, const char *p) {
    while (p < sc->end) {
        const char *lt = memchr(p, '<', (size_t)(sc->end - p));
        const char *upto = lt ? lt : sc->end;
        if (sc->skip_depth == 0 && sc->math != MATH_RENDERED && upto > p) {
            b_chars(body(sc), p, (size_t)(upto - p));
        }
        if (lt == NULL) {
            break;
        }
        if (strncmp(lt, "<!--", 4) == 0) {
            const char *e = strstr(lt, "-->");
            p = e ? e + 3 : sc->end;
            continue;
        }
        const char *gt = memchr(lt, '>', (size_t)(sc->end - lt));
        if (gt == NULL) {
            break;
        }
        p = tag(sc, lt, gt);
    }
}

/* Indexes one page: a document for the page's opening prose, one per
 * heading with an id, one per chunk of chunks. */
static int index_page(struct index *ix, const char *path,
                      const struct nw_piece_list *chunks) {
    char *html = nw_slurp_file(path, NULL);
    if (html == NULL) {
        nw_error(path, 0, "cannot read");
        return 1;
    }
    const char *page = strrchr(path, '/');
    page = page ? page + 1 : path;
    const char *main_at = strstr(html, "<main");
    const char *main_end = main_at ? strstr(main_at, "</main>") : NULL;
    if (main_at == NULL || main_end == NULL) {
        nw_error(path, 0, "no <main> element; not a page of the book");
        free(html);
        return 1;
    }
    const char *noindex = strstr(html, kNoIndex);
    if (noindex != NULL && noindex < main_at) {
        free(html);
        return 0;
    }
    char *ptitle = page_title(main_at, main_end, page);
    size_t first = ix->n;
    struct scan sc = {ix, chunks, page, main_end, 0, -1, 0, 0, "", 0, NOT_MATH};
    sc.sec = new_doc(ix, page, NULL, 0, "section");
    ix->d[sc.sec].title = nw_xstrdup(ptitle);
    const char *p = strchr(main_at, '>');
    scan_main(&sc, p ? p + 1 : main_end);
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
    if (sc.found != chunks->n) {
        nw_error(path, 0, "%zu of its %zu chunks are not on the page",
                 chunks->n - sc.found, chunks->n);
        return 1;
    }
    return 0;
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
