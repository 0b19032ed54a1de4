/* chunk-links: put chunk links into a page pandoc has written.
 *
 * Usage: chunk-links [-c CODE]... REFS [CHUNKS] < page.html >
 *            page.linked.html
 *
 * With -c, the page's code comes apart from it (chapter-md -c, run-md -k):
 * CODE is its code blocks as pandoc highlighted them, each after its
 * marker (<!--NWCODE0001-->, <!--NWRUN0001-->), and the page has the
 * marker where the block goes; each marker must be on both, once. A second
 * -c gives more such blocks, converted apart (chapter-md -n, the list of
 * "Where the numbers come from", <!--NWNUMBERS0001-->).
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
#include "html.h"
#include "meta.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

static const char kTool[] = "chunk-links";
/* The page, as errors name it. */
static const char kPage[] = "<stdin>";

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

/* Says which id of the page (len bytes) is used twice, if one is, or what
 * is wrong with the page; returns 1 then. */
static int check_ids(const char *html, size_t len,
                     const struct nw_piece_list *chunks,
                     const char *chunks_path) {
    struct id *ids = NULL;
    size_t n = 0, cap = 0;
    int status = 0;
    struct nw_html h;
    struct nw_html_token t;
    nw_html_init(&h, html, len, kPage, 1);
    int r = 0;
    while (status == 0 && (r = nw_html_next(&h, &t)) > 0) {
        size_t vlen = 0;
        const char *v = nw_html_attr(&t, "id", &vlen);
        for (size_t i = 0; v != NULL && i < n && status == 0; ++i) {
            if (ids[i].len == vlen && memcmp(ids[i].s, v, vlen) == 0) {
                report_twice(chunks, chunks_path, v, vlen);
                status = 1;
            }
        }
        if (v != NULL) {
            ids = nw_grow(ids, &cap, n + 1, sizeof *ids);
            ids[n].s = v;
            ids[n++].len = vlen;
        }
    }
    free(ids);
    return status | (r < 0);
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

/* Does the tag t open a span whose text is no code: a comment, a string,
 * a character, a documentation or annotation span? */
static int quiet_span(const struct nw_html_token *t) {
    static const char *const kQuiet[] = {"co", "st", "ch", "in",
                                         "an", "cv", "do"};
    for (size_t i = 0; i < sizeof kQuiet / sizeof kQuiet[0]; ++i) {
        if (nw_html_has_class(t, kQuiet[i])) {
            return 1;
        }
    }
    return 0;
}

/* The anchor of the chunk whose div the tag t opens, as its length in *n,
 * or NULL where it opens none. */
static const char *chunk_div(const struct nw_html_token *t, size_t *n) {
    if (t->kind != NW_HTML_START || !nw_html_is(t, "div") ||
        !nw_html_has_class(t, "chunk")) {
        return NULL;
    }
    return nw_html_attr(t, "id", n);
}

/* Where link_idents is on the page. */
struct link_state {
    const char *chunk; /* the anchor of the chunk being read */
    size_t chunk_len;
    int in_code, in_a;
    unsigned quiet; /* bits: the open spans that hold no code */
    int depth;
};

/* The tag t, read for where it leaves s. */
static void link_tag(struct link_state *s, const struct nw_html_token *t) {
    int start = t->kind == NW_HTML_START;
    size_t n;
    const char *a = chunk_div(t, &n);
    if (a != NULL) {
        s->chunk = a;
        s->chunk_len = n;
    } else if (nw_html_is(t, "code") && start && s->chunk != NULL) {
        s->in_code = 1;
        s->depth = 0;
        s->quiet = 0;
    } else if (nw_html_is(t, "code") && !start) {
        s->in_code = 0;
        s->chunk = NULL;
    } else if (s->in_code && nw_html_is(t, "span") && start) {
        if (s->depth < 31 && quiet_span(t)) {
            s->quiet |= 1u << s->depth;
        }
        ++s->depth;
    } else if (s->in_code && nw_html_is(t, "span") && s->depth > 0) {
        --s->depth;
        if (s->depth < 31) {
            s->quiet &= ~(1u << s->depth);
        }
    } else if (nw_html_is(t, "a")) {
        s->in_a = start;
    }
}

/* The code text p (n bytes) of the chunk s is in, each identifier REFS
 * links there a link, into out. */
static void link_words(const struct link_state *s, const struct refs *rs,
                       const char *p, size_t n, struct nw_buf *out) {
    const char *end = p + n;
    while (p < end) {
        size_t len = nw_html_ref_len(p, (size_t)(end - p));
        if (len > 0 || !is_word_char(*p)) {
            len += len == 0;
            nw_buf_add(out, p, len);
            p += len;
            continue;
        }
        while (p + len < end && is_word_char(p[len])) {
            ++len;
        }
        size_t i = 0;
        for (; i < rs->nuses; ++i) {
            const struct use *u = &rs->uses[i];
            if (strlen(u->anchor) == s->chunk_len &&
                memcmp(u->anchor, s->chunk, s->chunk_len) == 0 &&
                strlen(u->name) == len && memcmp(u->name, p, len) == 0) {
                break;
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

/* The page (len bytes) with the identifiers of REFS linked in their
 * chunks' code (above), into out. A use may find nothing to link: finduses
 * marks a name in a string too. Returns 0, or 1 having said what is wrong
 * with the page. */
static int link_idents(const char *html, size_t len, const struct refs *rs,
                       struct nw_buf *out) {
    nw_buf_puts(out, "");
    struct link_state s = {NULL, 0, 0, 0, 0, 0};
    struct nw_html h;
    struct nw_html_token t;
    nw_html_init(&h, html, len, kPage, 1);
    int r;
    while ((r = nw_html_next(&h, &t)) > 0) {
        if (t.kind == NW_HTML_TEXT && s.in_code && !s.in_a && s.quiet == 0) {
            link_words(&s, rs, t.s, t.len, out);
            continue;
        }
        if (t.kind != NW_HTML_TEXT) {
            link_tag(&s, &t);
        }
        nw_buf_add(out, t.s, t.len);
    }
    return r < 0;
}

/* Is the comment t the marker of a code block, "<!--NW", capitals, four
 * digits and "-->" (chapter-md writes <!--NWCODE0001-->, run-md
 * <!--NWRUN0001-->)? */
static int code_mark(const struct nw_html_token *t) {
    const char *p = t->s;
    if (t->kind != NW_HTML_COMMENT || strncmp(p, "<!--NW", 6) != 0) {
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
    return n > 10 && n + 3 == t->len;
}

/* A highlighted block of CODE, without the newlines around it, after its
 * marker. */
struct code_block {
    const char *mark;
    size_t mark_len;
    const char *s;
    size_t len;
    int placed;
    const char *path; /* the -c file it is in */
    size_t file;      /* its place among the -c files */
};

static int by_mark(const void *a, const void *b) {
    const struct code_block *x = a, *y = b;
    if (x->mark_len != y->mark_len) {
        return x->mark_len < y->mark_len ? -1 : 1;
    }
    return memcmp(x->mark, y->mark, x->mark_len);
}

/* By marker, then in the order of the files and within each: a marker
 * twice is said of its later place. */
static int by_mark_then_place(const void *a, const void *b) {
    const struct code_block *x = a, *y = b;
    int c = by_mark(a, b);
    if (c != 0) {
        return c;
    }
    if (x->file != y->file) {
        return x->file < y->file ? -1 : 1;
    }
    return x->s < y->s ? -1 : x->s > y->s;
}

/* Ends block b where the next marker begins, at end. */
static void end_block(struct code_block *b, const char *end) {
    while (b->len > 0 && *b->s == '\n') {
        ++b->s;
        --b->len;
    }
    b->len = b->s < end ? (size_t)(end - b->s) : 0;
    while (b->len > 0 && b->s[b->len - 1] == '\n') {
        --b->len;
    }
}

/* The blocks of CODE (len bytes, read from path) added to *v, *n of them
 * (cap their room). Returns 0, or 1 having said what is wrong. */
static int read_code(const char *code, size_t len, const char *path,
                     size_t file, struct code_block **v, size_t *n,
                     size_t *cap) {
    struct nw_html h;
    struct nw_html_token t;
    nw_html_init(&h, code, len, path, 1);
    size_t first = *n;
    int r;
    while ((r = nw_html_next(&h, &t)) > 0) {
        if (code_mark(&t)) {
            if (*n > first) {
                end_block(&(*v)[*n - 1], t.s);
            }
            *v = nw_grow(*v, cap, *n + 1, sizeof **v);
            (*v)[(*n)++] = (struct code_block){t.s, t.len, t.s + t.len,
                                               (size_t)(code + len - (t.s + t.len)), 0,
                                               path, file};
        }
    }
    if (*n > first) {
        end_block(&(*v)[*n - 1], code + len);
    }
    return r < 0;
}

/* The files of -c: their paths, their text, and their blocks sorted by
 * marker. */
struct code_files {
    const char **paths;
    char **text;
    size_t n;
    struct code_block *v;
    size_t nblocks;
};

/* Reads every file of c and sorts its blocks. Returns 0, or 1 having said
 * what is wrong (a file unread, a marker twice). */
static int read_code_files(struct code_files *c) {
    size_t cap = 0;
    int status = 0;
    c->text = nw_xcalloc(c->n + 1, sizeof *c->text);
    for (size_t i = 0; i < c->n && status == 0; ++i) {
        size_t len = 0;
        c->text[i] = nw_slurp_file(c->paths[i], &len);
        if (c->text[i] == NULL) {
            nw_error(c->paths[i], 0, "cannot read");
            status = 1;
        } else {
            status = read_code(c->text[i], len, c->paths[i], i, &c->v,
                               &c->nblocks, &cap);
        }
    }
    if (status == 0) {
        qsort(c->v, c->nblocks, sizeof *c->v, by_mark_then_place);
    }
    for (size_t i = 1; i < c->nblocks && status == 0; ++i) {
        if (by_mark(&c->v[i - 1], &c->v[i]) == 0) {
            nw_error(c->v[i].path, 0, "%.*s marks two blocks%s%s",
                     (int)c->v[i].mark_len, c->v[i].mark,
                     c->v[i].path != c->v[i - 1].path ? ", here and in " : "",
                     c->v[i].path != c->v[i - 1].path ? c->v[i - 1].path : "");
            status = 1;
        }
    }
    return status;
}

static void code_files_free(struct code_files *c) {
    for (size_t i = 0; c->text != NULL && i < c->n; ++i) {
        free(c->text[i]);
    }
    free(c->text);
    free(c->paths);
    free(c->v);
}

/* The page (len bytes) with each code marker replaced by its block of
 * code from the files of c, into out. Returns 0, or 1 having said which
 * marker is missing or left over, or what is wrong with the page or the
 * code. */
static int put_code(const char *html, size_t len, struct code_files *c,
                    struct nw_buf *out) {
    int status = read_code_files(c);
    struct nw_html h;
    struct nw_html_token t;
    nw_html_init(&h, html, len, kPage, 1);
    nw_buf_puts(out, "");
    int r = 0;
    while (status == 0 && (r = nw_html_next(&h, &t)) > 0) {
        if (!code_mark(&t)) {
            nw_buf_add(out, t.s, t.len);
            continue;
        }
        struct code_block key = {t.s, t.len, NULL, 0, 0, NULL, 0};
        struct code_block *b = bsearch(&key, c->v, c->nblocks, sizeof *c->v,
                                       by_mark);
        if (b == NULL || b->placed) {
            nw_error(kPage, t.line, "%.*s on the page has no code in %s%s, "
                     "or is there twice", (int)t.len, t.s, c->paths[0],
                     c->n > 1 ? " or the other -c files" : "");
            status = 1;
            break;
        }
        nw_buf_add(out, b->s, b->len);
        b->placed = 1;
    }
    status |= r < 0;
    for (size_t i = 0; i < c->nblocks && status == 0; ++i) {
        if (!c->v[i].placed) {
            nw_error(kTool, 0, "%.*s of %s has no place on the page",
                     (int)c->v[i].mark_len, c->v[i].mark, c->v[i].path);
            status = 1;
        }
    }
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
    struct code_files code = {NULL, NULL, 0, NULL, 0};
    code.paths = nw_xcalloc((size_t)argc, sizeof *code.paths);
    while (argc > 2 && strcmp(argv[1], "-c") == 0) {
        code.paths[code.n++] = argv[2];
        argv += 2;
        argc -= 2;
    }
    if (argc != 2 && argc != 3) {
        fprintf(stderr,
                "usage: chunk-links [-c CODE]... REFS [CHUNKS] < page.html > "
                "out.html\n");
        code_files_free(&code);
        return 2;
    }
    struct refs rs = {NULL, 0, 0, NULL, 0, 0};
    struct nw_piece_list chunks = {NULL, 0, 0};
    int status = read_refs(&rs, argv[1]);
    if (status == 0 && argc == 3) {
        status = nw_piece_list_read(&chunks, argv[2]) != 0;
    }
    char *html = NULL;
    size_t len = 0;
    if (status == 0) {
        html = nw_slurp(stdin, &len);
        if (ferror(stdin)) {
            nw_error(kTool, 0, "cannot read the page");
            status = 1;
        }
    }
    if (status == 0 && code.n > 0) {
        struct nw_buf page = {NULL, 0, 0};
        status = put_code(html, len, &code, &page);
        free(html);
        html = page.s;
        len = page.n;
    }
    if (status == 0) {
        status = check_ids(html, len, argc == 3 ? &chunks : NULL,
                           argc == 3 ? argv[2] : NULL);
    }
    if (status == 0) {
        struct nw_buf linked = {NULL, 0, 0};
        status = link_idents(html, len, &rs, &linked);
        if (status == 0) {
            status = put_linked(linked.s, &rs, argv[1]);
        }
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
    code_files_free(&code);
    free(html);
    return status;
}
