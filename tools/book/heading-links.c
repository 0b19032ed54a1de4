/* heading-links: give every heading of a page a permalink.
 *
 * Usage: heading-links < page.html > page.linked.html
 *
 * Every heading pandoc wrote with an id, <h2 id="timing">Timing</h2>, gets
 * a link to itself before its end tag,
 *   <h2 id="timing">Timing<a class="permalink" href="#timing"
 *     aria-label="Link to this section">#</a></h2>,
 * so that a reader can copy the address of any section. The id is copied
 * as pandoc wrote it, already escaped for an attribute. Chunks carry their
 * own permalink, the chunk's name in its header. A heading that holds a
 * permalink already keeps it and gets no second one: the whole book's page
 * holds the chapters' pages, linked already, under headings of its own.
 */
#include "html.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static const char kTool[] = "heading-links";
static const char kPermalink[] = "<a class=\"permalink\"";

int main(int argc, char **argv) {
    if (argc != 1) {
        fprintf(stderr, "usage: %s < page.html > out.html\n", argv[0]);
        return 2;
    }
    size_t len = 0;
    char *html = nw_slurp(stdin, &len);
    if (ferror(stdin)) {
        nw_error(kTool, 0, "cannot read the page");
        free(html);
        return 1;
    }
    struct nw_html h;
    nw_html_init(&h, html, len, "<stdin>", 1);
    struct nw_buf out = {NULL, 0, 0};
    nw_buf_add(&out, "", 0);
    struct nw_html_token t;
    long line = 0;         /* of the heading being read */
    int level = 0, linked = 0;
    const char *id = NULL; /* its id, idlen bytes */
    size_t idlen = 0;
    int r;
    while ((r = nw_html_next(&h, &t)) > 0) {
        int l = nw_html_heading(&t);
        if (level == 0 && l > 0 && t.kind == NW_HTML_START) {
            level = l;
            line = t.line;
            id = nw_html_attr(&t, "id", &idlen);
            linked = 0;
        } else if (level > 0 && t.kind == NW_HTML_START &&
                   nw_html_is(&t, "a") && nw_html_has_class(&t, "permalink")) {
            linked = 1;
        } else if (level > 0 && l == level && t.kind == NW_HTML_END) {
            if (id != NULL && idlen > 0 && !linked) {
                nw_buf_puts(&out, kPermalink);
                nw_buf_puts(&out, " href=\"#");
                nw_buf_add(&out, id, idlen);
                nw_buf_puts(&out, "\" aria-label=\"Link to this section\">#</a>");
            }
            level = 0;
        }
        nw_buf_add(&out, t.s, t.len);
    }
    if (r == 0 && level > 0) {
        nw_error("<stdin>", line, "a <h%d> is never closed with </h%d>", level,
                 level);
        r = -1;
    }
    if (r == 0) {
        nw_buf_put(stdout, &out);
    } else {
        free(out.s);
    }
    free(html);
    return (r != 0) | nw_flush_stdout(kTool);
}
