/* book-page: the whole book on one page, to print at once or to read in
 * one scroll.
 *
 * Usage: book-page PAGES META... > book.md
 *
 * Each META is build/meta/CHAPTER.tsv as chapter-meta wrote it, given in
 * book order, and PAGES the folder of the built chapter pages, where each
 * chapter's page is PAGES/CHAPTER.html. Writes the page as Pandoc Markdown,
 * for pandoc and the page template: its title, a list of the chapters, and
 * then each chapter, a heading (its title, with the chapter's name as id
 * and class book-chapter, where print starts a new sheet) followed by what
 * its page's <main id="text"> holds, less the page's own <header> (its
 * title, now the heading) and <nav> elements (the previous and next
 * chapter), as a raw HTML block that pandoc passes on as it is.
 *
 * The chapters share ids (two have a chunk "Header files"), so each
 * chapter's are prefixed with its name, id="CHAPTER--ID", and its links
 * follow: #ID to #CHAPTER--ID, OTHER.html#ID to #OTHER--ID and OTHER.html
 * to #OTHER where OTHER is a chapter of the book; any other link (the
 * indexes, src/, charts/, fig/, notebooks/) is left as it is. The
 * chapter's headings go one level down, under the chapter's heading.
 *
 * A page without its main content is one line on stderr, naming it, and a
 * non-zero exit, with nothing written.
 */
#include "escape.h"
#include "html.h"
#include "meta.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static const char kTool[] = "book-page";
static const char kMainOpen[] = "<main id=\"text\">";
static const char kMainClose[] = "</main>";

/* One chapter's content as it is rewritten. */
struct chapter_out {
    const struct nw_book *book;
    const char *name; /* the chapter's, the prefix of its ids */
    struct nw_buf out;
};

/* The href value v (n bytes) for the book's page. */
static void put_href(struct chapter_out *co, const char *v, size_t n) {
    struct nw_buf *b = &co->out;
    if (n > 1 && v[0] == '#') {
        nw_buf_puts(b, "#");
        nw_buf_puts(b, co->name);
        nw_buf_puts(b, "--");
        nw_buf_add(b, v + 1, n - 1);
        return;
    }
    const char *hash = memchr(v, '#', n);
    size_t file = hash ? (size_t)(hash - v) : n;
    for (size_t i = 0; i < co->book->n; ++i) {
        const char *ch = co->book->v[i].name;
        size_t cl = strlen(ch);
        if (file == cl + 5 && memcmp(v, ch, cl) == 0 &&
            memcmp(v + cl, ".html", 5) == 0) {
            nw_buf_puts(b, "#");
            nw_buf_puts(b, ch);
            if (hash != NULL && n - file > 1) {
                nw_buf_puts(b, "--");
                nw_buf_add(b, hash + 1, n - file - 1);
            }
            return;
        }
    }
    nw_buf_add(b, v, n);
}

/* The tag t, its ids prefixed and its links followed; a heading's level
 * is level, one more than it was. */
static void put_tag(struct chapter_out *co, const struct nw_html_token *t,
                    int level) {
    struct nw_buf *b = &co->out;
    const char *from = t->s; /* copied up to here */
    nw_buf_add(b, from, (size_t)(t->name - from));
    if (level != 0) {
        char h[2] = {'h', (char)('0' + level)};
        nw_buf_add(b, h, 2);
    } else {
        nw_buf_add(b, t->name, t->name_len);
    }
    from = t->name + t->name_len;
    const char *pos = NULL;
    struct nw_html_attr a;
    while (nw_html_attr_next(t, &pos, &a)) {
        int id = a.name_len == 2 && strncmp(a.name, "id", 2) == 0;
        if (a.value == NULL ||
            (!id && (a.name_len != 4 || strncmp(a.name, "href", 4) != 0))) {
            continue;
        }
        nw_buf_add(b, from, (size_t)(a.value - from));
        if (id) {
            nw_buf_puts(b, co->name);
            nw_buf_puts(b, "--");
            nw_buf_add(b, a.value, a.value_len);
        } else {
            put_href(co, a.value, a.value_len);
        }
        from = a.value + a.value_len;
    }
    nw_buf_add(b, from, (size_t)(t->s + t->len - from));
}

/* Passes over the element whose start tag is t, up to its own end tag.
 * Returns 0, or 1 having said what is wrong. */
static int skip_element(struct nw_html *h, const struct nw_html_token *t) {
    struct nw_html_token e;
    int depth = 1, r;
    while (depth > 0 && (r = nw_html_next(h, &e)) > 0) {
        if (e.kind != NW_HTML_TEXT && e.name_len == t->name_len &&
            memcmp(e.name, t->name, t->name_len) == 0) {
            depth += e.kind == NW_HTML_START ? 1 : -1;
        }
    }
    if (depth > 0 && r == 0) {
        nw_error(h->path, t->line, "a <%.*s> in <main> is never closed",
                 (int)t->name_len, t->name);
    }
    return depth > 0;
}

/* What <main id="text"> holds, from h on up to its end tag, rewritten into
 * co->out: its ids prefixed, its links followed, its headings a level
 * down, its <header> and <nav> left out. Returns 0, or 1 having said what
 * is wrong, or 2 where <main> has no end. */
static int rewrite(struct chapter_out *co, struct nw_html *h) {
    struct nw_html_token t;
    int r, drop_nl = 0;
    while ((r = nw_html_next(h, &t)) > 0) {
        if (drop_nl && t.kind == NW_HTML_TEXT && t.s[0] == '\n') {
            ++t.s; /* the line an element left out ends */
            --t.len;
        }
        drop_nl = 0;
        int level = nw_html_heading(&t);
        if (t.kind == NW_HTML_TEXT || t.kind == NW_HTML_COMMENT ||
            t.kind == NW_HTML_OTHER) {
            nw_buf_add(&co->out, t.s, t.len);
        } else if (t.kind == NW_HTML_END && nw_html_is(&t, "main")) {
            return 0;
        } else if (t.kind == NW_HTML_START &&
                   (nw_html_is(&t, "header") || nw_html_is(&t, "nav"))) {
            if (skip_element(h, &t) != 0) {
                return 1;
            }
            drop_nl = 1;
        } else if (level == 6) {
            nw_error(h->path, t.line,
                     "an <h6> has no level below it on the book's page");
            return 1;
        } else {
            put_tag(co, &t, level > 0 ? level + 1 : 0);
        }
    }
    return r < 0 ? 1 : 2;
}

/* The page at path, read by h, up to its <main id="text">: the style sheet
 * in its head into css, where css holds none yet: the highlighting of its
 * code, which pandoc writes only on a page whose own Markdown holds code,
 * and so not on the book's. Returns 0, or 1 having said what is wrong, or
 * 2 where the page has no <main id="text">. */
static int before_main(struct nw_html *h, struct nw_buf *css) {
    struct nw_html_token t;
    int r, style = 0;
    while ((r = nw_html_next(h, &t)) > 0) {
        if (nw_html_is(&t, "main") && nw_html_attr_is(&t, "id", "text")) {
            return 0;
        }
        if (style && css->n == 0 && t.kind == NW_HTML_TEXT) {
            size_t skip = strspn(t.s, "\n ");
            skip = skip < t.len ? skip : t.len;
            nw_buf_add(css, t.s + skip, t.len - skip);
        }
        style = t.kind == NW_HTML_START && nw_html_is(&t, "style");
    }
    return r < 0 ? 1 : 2;
}

/* One chapter: its heading and its page's content, and its page's style
 * where css holds none yet. Returns 0, or 1 having said what is wrong. */
static int put_chapter(const struct nw_book *book, const struct nw_chapter *ch,
                       const char *pages, struct nw_buf *md,
                       struct nw_buf *css) {
    struct nw_buf path = {NULL, 0, 0};
    nw_buf_puts(&path, pages);
    nw_buf_puts(&path, "/");
    nw_buf_puts(&path, ch->name);
    nw_buf_puts(&path, ".html");
    char *html = nw_slurp_text(path.s);
    struct chapter_out co = {book, ch->name, {NULL, 0, 0}};
    nw_buf_add(&co.out, "", 0);
    int status = 0;
    if (html == NULL) {
        nw_error(path.s, 0, "cannot read the chapter's page");
        status = 1;
    } else {
        struct nw_html h;
        nw_html_init(&h, html, strlen(html), path.s, 1);
        status = before_main(&h, css);
        status = status == 0 ? rewrite(&co, &h) : status;
    }
    if (status == 2) {
        nw_error(path.s, 0, "no %s ... %s: not a page of the book, or not built whole",
                 kMainOpen, kMainClose);
    }
    if (status == 0) {
        /* The heading as the chapter's page has its title: Markdown, its
         * quotes made curly by pandoc. */
        nw_buf_puts(md, "## ");
        nw_buf_md_text(md, ch->title, NW_MD_TITLE_MARKS);
        nw_buf_puts(md, " {#");
        nw_buf_puts(md, ch->name);
        nw_buf_puts(md, " .book-chapter}\n\n");
        nw_buf_code_block(md, "=html", co.out.s);
        nw_buf_puts(md, "\n");
    }
    free(co.out.s);
    free(html);
    free(path.s);
    return status;
}

/* The chapters' style, as the page's metadata: a raw block, which pandoc
 * passes on as it is, where the template writes the highlighting. */
static void put_style(const struct nw_buf *css) {
    struct nw_buf block = {NULL, 0, 0};
    nw_buf_code_block(&block, "=html", css->s);
    printf("---\nhighlighting-css: |\n");
    for (const char *line = block.s; *line;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        printf("%s%.*s\n", len ? "  " : "", (int)len, line);
        line += len + (nl != NULL);
    }
    printf("...\n\n");
    free(block.s);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s PAGES META... > book.md\n", argv[0]);
        return 2;
    }
    struct nw_book book;
    if (nw_book_read(&book, argv + 2, (size_t)(argc - 2)) != 0) {
        return 1;
    }
    struct nw_buf md = {NULL, 0, 0}, css = {NULL, 0, 0};
    nw_buf_puts(&md, "# The whole book\n\n"
                     "Every chapter of the book on one page, in the book's "
                     "order, to print at once or to read in one scroll.\n\n");
    for (size_t i = 0; i < book.n; ++i) {
        char num[32];
        snprintf(num, sizeof num, "%zu. [", i + 1);
        nw_buf_puts(&md, num);
        nw_buf_md_text(&md, book.v[i].title, NW_MD_TITLE_MARKS);
        nw_buf_puts(&md, "](#");
        nw_buf_puts(&md, book.v[i].name);
        nw_buf_puts(&md, ")\n");
    }
    nw_buf_puts(&md, "\n");
    int status = 0;
    for (size_t i = 0; i < book.n && status == 0; ++i) {
        status = put_chapter(&book, &book.v[i], argv[1], &md, &css);
    }
    if (status == 0 && css.n > 0) {
        put_style(&css);
    }
    if (status == 0) {
        nw_buf_put(stdout, &md);
    } else {
        free(md.s);
    }
    free(css.s);
    nw_book_free(&book);
    return status | nw_flush_stdout(kTool);
}
