/* escape: Markdown, HTML and quoted strings. See escape.h. */
#include "escape.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

size_t nw_longest_run(const char *s, char ch) {
    size_t best = 0, run = 0;
    for (; *s; ++s) {
        run = (*s == ch) ? run + 1 : 0;
        best = run > best ? run : best;
    }
    return best;
}

void nw_put_url(FILE *out, const char *s, const char *keep) {
    for (; *s; ++s) {
        unsigned char c = (unsigned char)*s;
        if (isalnum(c) || strchr("-_.~", c) != NULL || strchr(keep, c) != NULL) {
            fputc(c, out);
        } else {
            fprintf(out, "%%%02X", c);
        }
    }
}

void nw_put_dquoted(FILE *out, const char *s) {
    fputc('"', out);
    for (; *s; ++s) {
        if (*s == '"' || *s == '\\') {
            fputc('\\', out);
        }
        fputc(*s, out);
    }
    fputc('"', out);
}

void nw_buf_html(struct nw_buf *b, const char *s) {
    for (; *s; ++s) {
        switch (*s) {
            case '&': nw_buf_puts(b, "&amp;"); break;
            case '<': nw_buf_puts(b, "&lt;"); break;
            case '>': nw_buf_puts(b, "&gt;"); break;
            case '"': nw_buf_puts(b, "&quot;"); break;
            default: nw_buf_add(b, s, 1); break;
        }
    }
}

void nw_put_html(FILE *out, const char *s) {
    struct nw_buf b = {NULL, 0, 0};
    nw_buf_html(&b, s);
    nw_buf_put(out, &b);
}

void nw_buf_md_text(struct nw_buf *b, const char *s, const char *marks) {
    for (; *s; ++s) {
        if (strchr(marks, *s) != NULL) {
            nw_buf_add(b, "\\", 1);
        }
        nw_buf_add(b, s, 1);
    }
}

void nw_put_md_text(FILE *out, const char *s, const char *marks) {
    struct nw_buf b = {NULL, 0, 0};
    nw_buf_md_text(&b, s, marks);
    nw_buf_put(out, &b);
}

static void buf_run(struct nw_buf *b, char ch, size_t n) {
    for (size_t i = 0; i < n; ++i) {
        nw_buf_add(b, &ch, 1);
    }
}

void nw_put_run(FILE *out, char ch, size_t n) {
    for (size_t i = 0; i < n; ++i) {
        fputc(ch, out);
    }
}

void nw_buf_md_code(struct nw_buf *b, const char *s) {
    size_t ticks = nw_longest_run(s, '`') + 1;
    buf_run(b, '`', ticks);
    nw_buf_puts(b, " ");
    nw_buf_puts(b, s);
    nw_buf_puts(b, " ");
    buf_run(b, '`', ticks);
}

void nw_put_md_code(FILE *out, const char *s) {
    struct nw_buf b = {NULL, 0, 0};
    nw_buf_md_code(&b, s);
    nw_buf_put(out, &b);
}

size_t nw_fence_length(size_t longest) {
    return longest + 1 < 4 ? 4 : longest + 1;
}

void nw_buf_code_block(struct nw_buf *b, const char *attrs, const char *text) {
    size_t fence = nw_fence_length(nw_longest_run(text, '~'));
    buf_run(b, '~', fence);
    nw_buf_puts(b, " {");
    nw_buf_puts(b, attrs);
    nw_buf_puts(b, "}\n");
    nw_buf_puts(b, text);
    if (*text && text[strlen(text) - 1] != '\n') {
        nw_buf_puts(b, "\n");
    }
    buf_run(b, '~', fence);
    nw_buf_puts(b, "\n");
}

void nw_put_code_block(FILE *out, const char *attrs, const char *text) {
    struct nw_buf b = {NULL, 0, 0};
    nw_buf_code_block(&b, attrs, text);
    nw_buf_put(out, &b);
}
