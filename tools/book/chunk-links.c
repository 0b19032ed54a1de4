/* chunk-links: put chunk links into a page pandoc has written.
 *
 * Usage: chunk-links REFS [CHUNKS] < page.html > page.linked.html
 *
 * REFS is what chapter-md wrote: a placeholder (NWREF0001), a tab, and the
 * HTML that replaces it. Every placeholder must be found exactly once.
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

struct refs {
    struct ref *v;
    size_t n, cap;
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
    char *fld[2];
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
    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: %s REFS [CHUNKS] < page.html > out.html\n",
                argv[0]);
        return 2;
    }
    struct refs rs = {NULL, 0, 0};
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
    if (status == 0) {
        status = check_ids(html, argc == 3 ? &chunks : NULL,
                           argc == 3 ? argv[2] : NULL);
        status |= put_linked(html, &rs, argv[1]);
        status |= nw_flush_stdout(kTool);
    }
    for (size_t i = 0; i < rs.n; ++i) {
        free(rs.v[i].html);
    }
    free(rs.v);
    nw_piece_list_free(&chunks);
    free(html);
    return status;
}
