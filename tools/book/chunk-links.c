/* chunk-links: put chunk links into a page pandoc has written.
 *
 * Usage: chunk-links [-c CODE] REFS [CHUNKS] < page.html > page.linked.html
 *
 * With -c, the page's code comes apart from it (chapter-md -c, run-md -k):
 * CODE is its code blocks as pandoc highlighted them, each after its
 * marker (<!--NWCODE0001-->, <!--NWRUN0001-->), and the page has the
 * marker where the block goes; each marker must be on both, once.
 *
 * REFS is what chapter-md wrote: a placeholder (NWREF0001), a tab, and the
 * HTML that replaces it. Every placeholder must be found exactly once.
 * REFS also has a line "ident<TAB>ANCHOR<TAB>NAME<TAB>HREF" for each
 * identifier a chunk uses that another defines: in the code of the chunk
 * whose div has the id ANCHOR, NAME becomes <a class="ident-use"
 * href="HREF">, wherever it stands whole in pandoc's code as code, and not
 * in a comment, a string or a character (the spans co, st, ch, in, an, cv,
 * do); the highlighting spans stay as they were, the link inside them.
 * The page's ids must be unique: a heading whose generated id equals a
 * snippet label would make the label's link land on the heading. With
 * CHUNKS (build/md/NAME.chunks, the page's chunks), an id a chunk has is
 * reported at that chunk's line of chapters/NAME.nw. (chapter-meta rejects
 * such a heading before; this is what catches what its reckoning of
 * pandoc's ids misses.)
 */
#define _POSIX_C_SOURCE 200809L
#include "meta.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

static const char kTool[] = "chunk-links";

/* A placeholder is "NWREF" and four digits. */
enum { kKeyLen = 9 };

struct ref {
    char key[kKeyLen + 1];
    char *html;
    int found;
};

/* An identifier to link in one chunk's code. */
struct use {
    char *anchor, *name, *href;
};

struct refs {
    struct ref *v;
    size_t n, cap;
    struct use *uses;
    size_t nuses, uses_cap;
};

/* An id="..." value of the page. */
struct id {
    const char *s;
    size_t len;
};

/* An id used twice: at the line of its chunk where CHUNKS has one. */
static void report_twice(const struct nw_piece_list *chunks,
                         const char *chunks_path, const char *v, size_t len) {
    const struct nw_piece *p =
        chunks != NULL ? nw_piece_list_find(chunks, v, len) : NULL;
    char at[4096];
    const char *where = kTool;
    if (p != NULL) {
        char *chapter = nw_chapter_of(chunks_path);
        snprintf(at, sizeof at, "chapters/%s.nw", chapter);
        free(chapter);
        where = at;
    }
    nw_error(where, p != NULL ? p->line : 0,
             "the id \"%.*s\" is used twice on the page; a heading whose id "
             "equals a snippet label needs an explicit id, e.g. '## Title "
             "{#sec-title}'",
             (int)len, v);
}

/* Says which id of the page is used twice, if one is; returns 1 then. */
static int check_ids(const char *html, const struct nw_piece_list *chunks,
                     const char *chunks_path) {
    struct id *ids = NULL;
    size_t n = 0, cap = 0;
    int status = 0;
    for (const char *p = strstr(html, " id=\""); p && status == 0;
         p = strstr(p + 1, " id=\"")) {
        const char *v = p + 5;
        const char *e = strchr(v, '"');
        if (e == NULL) {
            break;
        }
        size_t len = (size_t)(e - v);
        for (size_t i = 0; i < n && status == 0; ++i) {
            if (ids[i].len == len && memcmp(ids[i].s, v, len) == 0) {
                report_twice(chunks, chunks_path, v, len);
                status = 1;
            }
        }
        ids = nw_grow(ids, &cap, n + 1, sizeof *ids);
        ids[n].s = v;
        ids[n++].len = len;
    }
    free(ids);
    return status;
}

struct refs_reader {
    struct refs *rs;
    const char *path;
};

static int each_ref_line(void *ctx, char *line, long lineno) {
    struct refs_reader *r = ctx;
    char *fld[4];
    if (strncmp(line, "ident\t", 6) == 0) {
        if (nw_split_tabs(line, fld, 4) != 4 || fld[1][0] == '\0' ||
            fld[2][0] == '\0' || fld[3][0] == '\0') {
            nw_error(r->path, lineno, "not an identifier's line");
            return 1;
        }
        struct refs *rs = r->rs;
        rs->uses = nw_grow(rs->uses, &rs->uses_cap, rs->nuses + 1,
                           sizeof *rs->uses);
        struct use *u = &rs->uses[rs->nuses++];
        u->anchor = nw_xstrdup(fld[1]);
        u->name = nw_xstrdup(fld[2]);
        u->href = nw_xstrdup(fld[3]);
        return 0;
    }
    if (nw_split_tabs(line, fld, 2) != 2 || strlen(fld[0]) != kKeyLen ||
        strncmp(fld[0], "NWREF", 5) != 0) {
        nw_error(r->path, lineno, "not a placeholder line");
        return 1;
    }
    struct refs *rs = r->rs;
    rs->v = nw_grow(rs->v, &rs->cap, rs->n + 1, sizeof *rs->v);
    struct ref *ref = &rs->v[rs->n++];
    memcpy(ref->key, fld[0], kKeyLen + 1);
    ref->html = nw_xstrdup(fld[1]);
    ref->found = 0;
    return 0;
}

/* Reads REFS. Returns 0, or 1 having said what is wrong. */
static int read_refs(struct refs *rs, const char *path) {
    struct refs_reader r = {rs, path};
    return nw_each_line(path, NULL, each_ref_line, &r) != 0;
}

static int is_word_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_';
}

/* Does the tag at t (its len bytes) open a span whose text is no code: a
 * comment, a string, a character, a documentation or annotation span? */
static int quiet_span(const char *t, size_t len) {
    static const char *const kQuiet[] = {
        "<span class=\"co\">", "<span class=\"st\">", "<span class=\"ch\">",
        "<span class=\"in\">", "<span class=\"an\">", "<span class=\"cv\">",
        "<span class=\"do\">"};
    for (size_t i = 0; i < sizeof kQuiet / sizeof kQuiet[0]; ++i) {
        if (strlen(kQuiet[i]) == len && memcmp(t, kQuiet[i], len) == 0) {
            return 1;
        }
    }
    return 0;
}

/* The anchor of the chunk whose div the tag t (len bytes) opens, as its
 * length in *n, or NULL where it opens none. (pandoc may break the tag's
 * line before class.) */
static const char *chunk_div(const char *t, size_t len, size_t *n) {
    static const char kOpen[] = "<div id=\"", kClass[] = "class=\"chunk\">";
    size_t lo = sizeof kOpen - 1, lc = sizeof kClass - 1;
    if (len <= lo + lc || strncmp(t, kOpen, lo) != 0 ||
        memcmp(t + len - lc, kClass, lc) != 0) {
        return NULL;
    }
    const char *end = memchr(t + lo, '"', len - lo);
    if (end == NULL || end + 1 + strspn(end + 1, " \n") != t + len - lc) {
        return NULL;
    }
    *n = (size_t)(end - (t + lo));
    return t + lo;
}

/* The page with the identifiers of REFS linked in their chunks' code
 * (above), into out. A use may find nothing to link: finduses marks a
 * name in a string too. */
static void link_idents(const char *html, const struct refs *rs,
                        struct nw_buf *out) {
    nw_buf_puts(out, "");
    const char *chunk = NULL; /* the anchor of the chunk being read */
    size_t chunk_len = 0;
    int in_code = 0, in_a = 0;
    unsigned quiet = 0; /* bits: the open spans that hold no code */
    int depth = 0;
    const char *p = html;
    while (*p) {
        if (*p == '<') {
            const char *e = strchr(p, '>');
            size_t len = e ? (size_t)(e - p) + 1 : strlen(p);
            size_t n;
            const char *a = chunk_div(p, len, &n);
            if (a != NULL) {
                chunk = a;
                chunk_len = n;
            } else if (strncmp(p, "<code", 5) == 0 && chunk != NULL) {
                in_code = 1;
                depth = 0;
                quiet = 0;
            } else if (strncmp(p, "</code>", 7) == 0) {
                in_code = 0;
                chunk = NULL;
            } else if (in_code && strncmp(p, "<span", 5) == 0) {
                if (depth < 31 && quiet_span(p, len)) {
                    quiet |= 1u << depth;
                }
                ++depth;
            } else if (in_code && strncmp(p, "</span>", 7) == 0 && depth > 0) {
                --depth;
                if (depth < 31) {
                    quiet &= ~(1u << depth);
                }
            } else if (strncmp(p, "<a ", 3) == 0) {
                in_a = 1;
            } else if (strncmp(p, "</a>", 4) == 0) {
                in_a = 0;
            }
            nw_buf_add(out, p, len);
            p += len;
            continue;
        }
        if (*p == '&') {
            const char *e = strchr(p, ';');
            size_t len = e ? (size_t)(e - p) + 1 : 1;
            nw_buf_add(out, p, len);
            p += len;
            continue;
        }
        if (!is_word_char(*p)) {
            nw_buf_add(out, p, 1);
            ++p;
            continue;
        }
        size_t len = 1;
        while (is_word_char(p[len])) {
            ++len;
        }
        size_t i = rs->nuses;
        if (in_code && !in_a && quiet == 0) {
            for (i = 0; i < rs->nuses; ++i) {
                const struct use *u = &rs->uses[i];
                if (strlen(u->anchor) == chunk_len &&
                    memcmp(u->anchor, chunk, chunk_len) == 0 &&
                    strlen(u->name) == len && memcmp(u->name, p, len) == 0) {
                    break;
                }
            }
        }
        if (i < rs->nuses) {
            nw_buf_puts(out, "<a class=\"ident-use\" href=\"");
            nw_buf_puts(out, rs->uses[i].href);
            nw_buf_puts(out, "\">");
            nw_buf_add(out, p, len);
            nw_buf_puts(out, "</a>");
        } else {
            nw_buf_add(out, p, len);
        }
        p += len;
    }
}

/* The marker of a code block, "<!--NW", capitals, four digits and "-->"
 * (chapter-md writes <!--NWCODE0001-->, run-md <!--NWRUN0001-->): its
 * length at p, or 0 where p holds none. */
static size_t code_mark(const char *p) {
    if (strncmp(p, "<!--NW", 6) != 0) {
        return 0;
    }
    size_t n = 6;
    while (p[n] >= 'A' && p[n] <= 'Z') {
        ++n;
    }
    for (int i = 0; i < 4; ++i, ++n) {
        if (p[n] < '0' || p[n] > '9') {
            return 0;
        }
    }
    return n > 10 && strncmp(p + n, "-->", 3) == 0 ? n + 3 : 0;
}

/* A highlighted block of CODE, without the newlines around it, after its
 * marker. */
struct code_block {
    const char *mark;
    size_t mark_len;
    const char *s;
    size_t len;
    int placed;
};

static int by_mark(const void *a, const void *b) {
    const struct code_block *x = a, *y = b;
    if (x->mark_len != y->mark_len) {
        return x->mark_len < y->mark_len ? -1 : 1;
    }
    return memcmp(x->mark, y->mark, x->mark_len);
}

/* The next marker in s, or NULL. */
static const char *next_mark(const char *s, size_t *len) {
    for (const char *p = strstr(s, "<!--NW"); p != NULL; p = strstr(p + 1, "<!--NW")) {
        if ((*len = code_mark(p)) != 0) {
            return p;
        }
    }
    return NULL;
}

/* The page with each code marker replaced by its block of code, into out.
 * Returns 0, or 1 having said which marker is missing or left over. */
static int put_code(const char *html, const char *code, const char *path,
                    struct nw_buf *out) {
    struct code_block *v = NULL;
    size_t n = 0, cap = 0, len = 0;
    int status = 0;
    for (const char *c = next_mark(code, &len); c != NULL;) {
        size_t next_len = 0;
        const char *b = c + len;
        const char *end = next_mark(b, &next_len);
        const char *e = end != NULL ? end : b + strlen(b);
        while (b < e && *b == '\n') {
            ++b;
        }
        while (e > b && e[-1] == '\n') {
            --e;
        }
        v = nw_grow(v, &cap, n + 1, sizeof *v);
        v[n] = (struct code_block){c, len, b, (size_t)(e - b), 0};
        ++n;
        c = end;
        len = next_len;
    }
    qsort(v, n, sizeof *v, by_mark);
    for (size_t i = 1; i < n && status == 0; ++i) {
        if (by_mark(&v[i - 1], &v[i]) == 0) {
            nw_error(path, 0, "%.*s marks two blocks", (int)v[i].mark_len,
                     v[i].mark);
            status = 1;
        }
    }
    const char *p = html;
    const char *hit;
    while (status == 0 && (hit = next_mark(p, &len)) != NULL) {
        nw_buf_add(out, p, (size_t)(hit - p));
        struct code_block key = {hit, len, NULL, 0, 0};
        struct code_block *b = bsearch(&key, v, n, sizeof *v, by_mark);
        if (b == NULL || b->placed) {
            nw_error(kTool, 0, "%.*s on the page has no code in %s, or is "
                     "there twice", (int)len, hit, path);
            status = 1;
            break;
        }
        nw_buf_add(out, b->s, b->len);
        b->placed = 1;
        p = hit + len;
    }
    nw_buf_puts(out, p);
    for (size_t i = 0; i < n && status == 0; ++i) {
        if (!v[i].placed) {
            nw_error(kTool, 0, "%.*s of %s has no place on the page",
                     (int)v[i].mark_len, v[i].mark, path);
            status = 1;
        }
    }
    free(v);
    return status;
}

/* Writes the page with every placeholder replaced by its link. Returns 0,
 * or 1 having said which placeholder has none. */
static int put_linked(const char *html, struct refs *rs, const char *path) {
    int status = 0;
    const char *p = html;
    const char *hit;
    while ((hit = strstr(p, "NWREF")) != NULL) {
        fwrite(p, 1, (size_t)(hit - p), stdout);
        size_t i = 0;
        while (i < rs->n && strncmp(hit, rs->v[i].key, kKeyLen) != 0) {
            ++i;
        }
        if (i == rs->n) {
            nw_error(kTool, 0, "%.*s on the page has no link in %s",
                     (int)kKeyLen, hit, path);
            status = 1;
            fputs("NWREF", stdout);
            p = hit + 5;
            continue;
        }
        fputs(rs->v[i].html, stdout);
        ++rs->v[i].found;
        p = hit + kKeyLen;
    }
    fputs(p, stdout);
    for (size_t i = 0; i < rs->n; ++i) {
        if (rs->v[i].found != 1) {
            nw_error(kTool, 0,
                     "placeholder %s found %d times on the page; the "
                     "highlighter split it?",
                     rs->v[i].key, rs->v[i].found);
            status = 1;
        }
    }
    return status;
}

int main(int argc, char **argv) {
    const char *code_path = NULL;
    if (argc > 2 && strcmp(argv[1], "-c") == 0) {
        code_path = argv[2];
        argv += 2;
        argc -= 2;
    }
    if (argc != 2 && argc != 3) {
        fprintf(stderr,
                "usage: chunk-links [-c CODE] REFS [CHUNKS] < page.html > "
                "out.html\n");
        return 2;
    }
    struct refs rs = {NULL, 0, 0, NULL, 0, 0};
    struct nw_piece_list chunks = {NULL, 0, 0};
    int status = read_refs(&rs, argv[1]);
    if (status == 0 && argc == 3) {
        status = nw_piece_list_read(&chunks, argv[2]) != 0;
    }
    char *html = NULL;
    if (status == 0) {
        html = nw_slurp(stdin, NULL);
        if (ferror(stdin)) {
            nw_error(kTool, 0, "cannot read the page");
            status = 1;
        }
    }
    if (status == 0 && code_path != NULL) {
        char *code = nw_slurp_file(code_path, NULL);
        struct nw_buf page = {NULL, 0, 0};
        if (code == NULL) {
            nw_error(code_path, 0, "cannot read");
            status = 1;
        } else {
            status = put_code(html, code, code_path, &page);
        }
        free(code);
        free(html);
        html = page.s != NULL ? page.s : nw_xstrdup("");
    }
    if (status == 0) {
        status = check_ids(html, argc == 3 ? &chunks : NULL,
                           argc == 3 ? argv[2] : NULL);
        struct nw_buf linked = {NULL, 0, 0};
        link_idents(html, &rs, &linked);
        status |= put_linked(linked.s, &rs, argv[1]);
        free(linked.s);
        status |= nw_flush_stdout(kTool);
    }
    for (size_t i = 0; i < rs.n; ++i) {
        free(rs.v[i].html);
    }
    free(rs.v);
    for (size_t i = 0; i < rs.nuses; ++i) {
        free(rs.uses[i].anchor);
        free(rs.uses[i].name);
        free(rs.uses[i].href);
    }
    free(rs.uses);
    nw_piece_list_free(&chunks);
    free(html);
    return status;
}
