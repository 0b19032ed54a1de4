/* html-tokens: the tokens tools/lib/html.h reads in a page, one a line,
 * for tests/tools.sh to hold the reader to.
 *
 * Usage: html-tokens PAGE.html
 *
 * Each token is "LINE KIND" and then: a tag's name, a heading's level
 * ("h2 level=2"), each attribute (name, or name=[value]) and, for a start
 * tag with a class, "class~NAME" for each class it has; the bytes of text,
 * a comment or another token in brackets, a newline as \n, and text that
 * holds a character reference also as it decodes ("-> ..."). Exits 1 where
 * the tokens do not cover the page byte for byte, and as the reader does
 * where the page is malformed, having said so (one line).
 */
#include "html.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static void put_bytes(const char *s, size_t n) {
    for (size_t i = 0; i < n; ++i) {
        if (s[i] == '\n') {
            fputs("\\n", stdout);
        } else {
            putchar(s[i]);
        }
    }
}

/* Text with its references decoded. */
static void put_decoded(const char *s, size_t n) {
    struct nw_buf b = {NULL, 0, 0};
    nw_buf_add(&b, "", 0);
    int refs = 0;
    for (size_t i = 0; i < n;) {
        size_t len = nw_html_ref_len(s + i, n - i);
        unsigned long cp = 0;
        if (len > 0 && nw_html_ref_code(s + i, len, &cp)) {
            nw_buf_utf8(&b, cp);
            i += len;
            ++refs;
        } else {
            nw_buf_add(&b, s + i, 1);
            ++i;
        }
    }
    if (refs > 0) {
        fputs(" -> ", stdout);
        put_bytes(b.s, b.n);
    }
    free(b.s);
}

static void put_tag(const struct nw_html_token *t) {
    put_bytes(t->name, t->name_len);
    if (nw_html_heading(t) > 0) {
        printf(" level=%d", nw_html_heading(t));
    }
    const char *pos = NULL;
    struct nw_html_attr a;
    while (nw_html_attr_next(t, &pos, &a)) {
        putchar(' ');
        put_bytes(a.name, a.name_len);
        if (a.value != NULL) {
            fputs("=[", stdout);
            put_bytes(a.value, a.value_len);
            putchar(']');
        }
    }
    size_t len = 0;
    const char *v = nw_html_attr(t, "class", &len);
    const char *end = v != NULL ? v + len : NULL;
    for (const char *w = v; w != NULL && w < end;) {
        const char *e = memchr(w, ' ', (size_t)(end - w));
        e = e != NULL ? e : end;
        char cls[64];
        snprintf(cls, sizeof cls, "%.*s", (int)(e - w), w);
        if (e > w && nw_html_has_class(t, cls)) {
            printf(" class~%s", cls);
        }
        w = e + 1;
    }
}

int main(int argc, char **argv) {
    static const char *const kKinds[] = {"text", "start", "end", "comment",
                                         "other"};
    if (argc != 2) {
        fprintf(stderr, "usage: %s PAGE.html\n", argv[0]);
        return 2;
    }
    size_t n = 0;
    char *page = nw_slurp_file(argv[1], &n);
    if (page == NULL) {
        nw_error(argv[1], 0, "cannot read");
        return 1;
    }
    struct nw_html h;
    struct nw_html_token t;
    nw_html_init(&h, page, n, argv[1], 1);
    const char *at = page; /* the tokens cover the page up to here */
    int r;
    while ((r = nw_html_next(&h, &t)) > 0 && t.s == at) {
        at += t.len;
        printf("%ld %s ", t.line, kKinds[t.kind]);
        if (t.kind == NW_HTML_START || t.kind == NW_HTML_END) {
            put_tag(&t);
        } else {
            putchar('[');
            put_bytes(t.s, t.len);
            putchar(']');
            if (t.kind == NW_HTML_TEXT) {
                put_decoded(t.s, t.len);
            }
        }
        putchar('\n');
    }
    if (r > 0 || (r == 0 && at != page + n)) {
        nw_error(argv[1], 0, "the tokens leave out byte %zu",
                 (size_t)(at - page));
        r = -1;
    }
    free(page);
    return (r != 0) | nw_flush_stdout("html-tokens");
}
