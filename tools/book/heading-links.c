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
#include "util.h"

#include <stdlib.h>
#include <string.h>

static const char kTool[] = "heading-links";
static const char kPermalink[] = "<a class=\"permalink\"";

/* Is p the start of a heading tag, "<h1" to "<h6" and then a blank or '>'?
 * Sets *level to its digit. */
static int heading_open(const char *p, char *level) {
    if (p[0] != '<' || (p[1] != 'h' && p[1] != 'H') || p[2] < '1' ||
        p[2] > '6') {
        return 0;
    }
    if (p[3] != ' ' && p[3] != '\n' && p[3] != '>') {
        return 0;
    }
    *level = p[2];
    return 1;
}

/* The value of the id attribute in the tag from p to end, or NULL. */
static const char *tag_id(const char *p, const char *end, size_t *len) {
    for (const char *q = p; q + 5 <= end; ++q) {
        if ((q[0] == ' ' || q[0] == '\n') && strncmp(q + 1, "id=\"", 4) == 0) {
            const char *v = q + 5;
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

int main(int argc, char **argv) {
    if (argc != 1) {
        fprintf(stderr, "usage: %s < page.html > out.html\n", argv[0]);
        return 2;
    }
    char *html = nw_slurp(stdin, NULL);
    if (ferror(stdin)) {
        nw_error(kTool, 0, "cannot read the page");
        free(html);
        return 1;
    }
    int status = 0;
    const char *p = html;
    const char *out = html; /* written up to here */
    while ((p = strchr(p, '<')) != NULL) {
        char level;
        if (!heading_open(p, &level)) {
            ++p;
            continue;
        }
        const char *gt = strchr(p, '>');
        if (gt == NULL) {
            break;
        }
        size_t idlen = 0;
        const char *id = tag_id(p, gt, &idlen);
        char close[6] = {'<', '/', 'h', level, '>', '\0'};
        const char *end = strstr(gt, close);
        if (end == NULL) {
            nw_error(kTool, 0, "a <h%c> is never closed", level);
            status = 1;
            break;
        }
        size_t kl = strlen(kPermalink);
        int linked = 0;
        for (const char *q = gt; q + kl <= end && !linked; ++q) {
            linked = memcmp(q, kPermalink, kl) == 0;
        }
        if (id != NULL && idlen > 0 && !linked) {
            fwrite(out, 1, (size_t)(end - out), stdout);
            printf("%s href=\"#%.*s\" "
                   "aria-label=\"Link to this section\">#</a>",
                   kPermalink, (int)idlen, id);
            out = end;
        }
        p = end;
    }
    fputs(out, stdout);
    free(html);
    return status | nw_flush_stdout(kTool);
}
