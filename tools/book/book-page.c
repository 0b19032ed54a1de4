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
#include "meta.h"
#include "util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const char kTool[] = "book-page";
static const char kMainOpen[] = "<main id=\"text\">";
static const char kMainClose[] = "</main>";

/* The tag name at p (after '<' and an optional '/'), its length. */
static size_t tag_name(const char *p, const char *end) {
    size_t n = 0;
    while (p + n < end && isalnum((unsigned char)p[n])) {
        ++n;
    }
    return n;
}

/* The end of the tag at lt: its '>', quoted values passed over; NULL
 * where it has none before end. */
static const char *tag_end(const char *lt, const char *end) {
    char quote = 0;
    for (const char *q = lt + 1; q < end; ++q) {
        if (quote != 0) {
            quote = *q == quote ? 0 : quote;
        } else if (*q == '"' || *q == '\'') {
            quote = *q;
        } else if (*q == '>') {
            return q;
        }
    }
    return NULL;
}

/* Is the name n bytes at p, ignoring case, word? */
static int name_is(const char *p, size_t n, const char *word) {
    if (strlen(word) != n) {
        return 0;
    }
    for (size_t i = 0; i < n; ++i) {
        if (tolower((unsigned char)p[i]) != word[i]) {
            return 0;
        }
    }
    return 1;
}

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

/* The tag from lt to gt, its ids prefixed and its links followed; a
 * heading's level is level, one more than it was. */
static void put_tag(struct chapter_out *co, const char *lt, const char *gt,
                    char level) {
    struct nw_buf *b = &co->out;
    int closing = lt[1] == '/';
    const char *q = lt + 1 + closing;
    size_t nl = tag_name(q, gt);
    nw_buf_add(b, lt, (size_t)(q - lt));
    if (level != 0) {
        char h[2] = {'h', level};
        nw_buf_add(b, h, 2);
    } else {
        nw_buf_add(b, q, nl);
    }
    q += nl;
    while (q < gt) {
        /* An attribute: blanks, a name, and =value where it has one. */
        const char *at = q;
        while (q < gt && isspace((unsigned char)*q)) {
            ++q;
        }
        const char *an = q;
        while (q < gt && !isspace((unsigned char)*q) && *q != '=' &&
               *q != '/') {
            ++q;
        }
        size_t anl = (size_t)(q - an);
        if (q == an) { /* a '/' of <br />, or a stray byte */
            ++q;
            nw_buf_add(b, at, (size_t)(q - at));
            continue;
        }
        if (q >= gt || *q != '=') {
            nw_buf_add(b, at, (size_t)(q - at));
            continue;
        }
        ++q;
        char quote = (*q == '"' || *q == '\'') ? *q : 0;
        const char *v = quote ? q + 1 : q;
        const char *ve = v;
        while (ve < gt && (quote ? *ve != quote : !isspace((unsigned char)*ve))) {
            ++ve;
        }
        nw_buf_add(b, at, (size_t)(v - at));
        if (name_is(an, anl, "id")) {
            nw_buf_puts(b, co->name);
            nw_buf_puts(b, "--");
            nw_buf_add(b, v, (size_t)(ve - v));
        } else if (name_is(an, anl, "href")) {
            put_href(co, v, (size_t)(ve - v));
        } else {
            nw_buf_add(b, v, (size_t)(ve - v));
        }
        q = (quote && ve < gt) ? ve + 1 : ve;
        nw_buf_add(b, ve, (size_t)(q - ve));
    }
    nw_buf_add(b, gt, 1);
}

/* The chapter's content, from p to end, rewritten into co->out. Returns 0,
 * or 1 having said what is wrong with the page at path. */
static int rewrite(struct chapter_out *co, const char *path, const char *p,
                   const char *end) {
    while (p < end) {
        const char *lt = memchr(p, '<', (size_t)(end - p));
        if (lt == NULL) {
            nw_buf_add(&co->out, p, (size_t)(end - p));
            break;
        }
        nw_buf_add(&co->out, p, (size_t)(lt - p));
        if (strncmp(lt, "<!--", 4) == 0) {
            const char *e = strstr(lt, "-->");
            p = (e != NULL && e + 3 <= end) ? e + 3 : end;
            nw_buf_add(&co->out, lt, (size_t)(p - lt));
            continue;
        }
        const char *gt = tag_end(lt, end);
        if (gt == NULL) {
            nw_error(path, 0, "a tag in <main> is never closed with '>'");
            return 1;
        }
        int closing = lt[1] == '/';
        const char *name = lt + 1 + closing;
        size_t nl = tag_name(name, gt);
        if (!closing && (name_is(name, nl, "header") || name_is(name, nl, "nav"))) {
            /* Left out, with what it holds: up to its own end tag. */
            char close[10];
            snprintf(close, sizeof close, "</%.*s>", (int)nl, name);
            const char *e = strstr(gt, close);
            if (e == NULL || e >= end) {
                nw_error(path, 0, "a <%.*s> in <main> is never closed", (int)nl, name);
                return 1;
            }
            p = e + strlen(close);
            if (p < end && *p == '\n') {
                ++p;
            }
            continue;
        }
        char level = 0;
        if (nl == 2 && (name[0] == 'h' || name[0] == 'H') && name[1] >= '1' &&
            name[1] <= '6') {
            if (name[1] == '6') {
                nw_error(path, 0, "an <h6> has no level below it on the book's page");
                return 1;
            }
            level = (char)(name[1] + 1);
        }
        put_tag(co, lt, gt, level);
        p = gt + 1;
    }
    return 0;
}

/* The style sheet in the head of the page html, before at, into css: the
 * highlighting of its code, which pandoc writes only on a page whose own
 * Markdown holds code, and so not on the book's. */
static void page_style(const char *html, const char *at, struct nw_buf *css) {
    static const char kOpen[] = "<style>";
    const char *s = strstr(html, kOpen);
    const char *e = s ? strstr(s, "</style>") : NULL;
    if (css->n == 0 && e != NULL && e < at) {
        s += strlen(kOpen);
        while (s < e && (*s == '\n' || *s == ' ')) {
            ++s;
        }
        nw_buf_add(css, s, (size_t)(e - s));
    }
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
    int status = 0;
    const char *at = html ? strstr(html, kMainOpen) : NULL;
    const char *end = at ? strstr(at, kMainClose) : NULL;
    if (html == NULL) {
        nw_error(path.s, 0, "cannot read the chapter's page");
        status = 1;
    } else if (at == NULL || end == NULL) {
        nw_error(path.s, 0, "no %s ... %s: not a page of the book, or not built whole",
                 kMainOpen, kMainClose);
        status = 1;
    }
    struct chapter_out co = {book, ch->name, {NULL, 0, 0}};
    nw_buf_add(&co.out, "", 0);
    if (status == 0) {
        page_style(html, at, css);
        status = rewrite(&co, path.s, at + strlen(kMainOpen), end);
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
