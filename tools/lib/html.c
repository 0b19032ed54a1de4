/* html: the one reader of the book's HTML pages (html.h). */
#include "html.h"

#include <stdlib.h>
#include <string.h>

static int is_blank(char c) {
    return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f';
}

static int is_letter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int is_alnum(char c) {
    return is_letter(c) || (c >= '0' && c <= '9');
}

static char lower(char c) {
    return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* Are the n bytes at s, case ignored, the lowercase word? */
static int same_word(const char *s, size_t n, const char *word) {
    if (strlen(word) != n) {
        return 0;
    }
    for (size_t i = 0; i < n; ++i) {
        if (lower(s[i]) != word[i]) {
            return 0;
        }
    }
    return 1;
}

static long newlines(const char *s, const char *end) {
    long n = 0;
    for (; s < end; ++s) {
        n += *s == '\n';
    }
    return n;
}

/* Does markup start at p, before end: a tag, an end tag, a comment or a
 * declaration? */
static int markup_at(const char *p, const char *end) {
    if (p + 1 >= end || p[0] != '<') {
        return 0;
    }
    return is_letter(p[1]) || p[1] == '!' || p[1] == '?' ||
           (p[1] == '/' && p + 2 < end && is_letter(p[2]));
}

/* The end of a tag's name at p. */
static const char *name_end(const char *p, const char *end) {
    while (p < end && !is_blank(*p) && *p != '/' && *p != '>') {
        ++p;
    }
    return p;
}

/* The attribute at q, in a tag that goes on to end, into a. Returns where
 * it ends; or the tag's '>' with a->name NULL where the tag ends first; or
 * NULL where the tag or (with *quote set to its opening quote) a quoted
 * value is not closed before end. */
static const char *scan_attr(const char *q, const char *end,
                             struct nw_html_attr *a, const char **quote) {
    a->name = NULL;
    while (q < end && (is_blank(*q) || *q == '/')) {
        ++q;
    }
    if (q >= end || *q == '>') {
        return q < end ? q : NULL;
    }
    a->name = q;
    while (q < end && !is_blank(*q) && *q != '/' && *q != '>' && *q != '=') {
        ++q;
    }
    a->name_len = (size_t)(q - a->name);
    if (a->name_len == 0) { /* an '=' out of place: one byte, its own name */
        ++q;
        a->name_len = 1;
    }
    a->value = NULL;
    a->value_len = 0;
    const char *v = q;
    while (v < end && is_blank(*v)) {
        ++v;
    }
    if (v >= end || *v != '=') {
        return q;
    }
    ++v;
    while (v < end && is_blank(*v)) {
        ++v;
    }
    if (v < end && (*v == '"' || *v == '\'')) {
        const char *e = memchr(v + 1, *v, (size_t)(end - v - 1));
        if (e == NULL) {
            *quote = v;
            return NULL;
        }
        a->value = v + 1;
        a->value_len = (size_t)(e - v - 1);
        return e + 1;
    }
    a->value = v;
    while (v < end && !is_blank(*v) && *v != '>') {
        ++v;
    }
    a->value_len = (size_t)(v - a->value);
    return v;
}

void nw_html_init(struct nw_html *h, const char *s, size_t n,
                  const char *path, long line) {
    h->p = s;
    h->end = s + n;
    h->path = path;
    h->line = line;
    h->raw = NULL;
    h->raw_len = 0;
}

/* Says what is wrong at the line of at, in the token that starts at t->s,
 * and ends the tokens. */
static int bad(struct nw_html *h, const struct nw_html_token *t,
               const char *at, const char *what) {
    nw_error(h->path, t->line + newlines(t->s, at), "%s", what);
    h->p = h->end;
    return -1;
}

/* The end of the content of the raw element h->raw, from p: its end tag. */
static const char *raw_end(const struct nw_html *h, const char *p) {
    for (const char *q = p; (q = memchr(q, '<', (size_t)(h->end - q))) != NULL;
         ++q) {
        const char *n = q + 2;
        if (n + h->raw_len <= h->end && q[1] == '/' &&
            same_word(n, h->raw_len, h->raw) &&
            name_end(n, h->end) == n + h->raw_len) {
            return q;
        }
    }
    return NULL;
}

/* A start tag at t->s, from its name on: to its '>'. */
static int start_tag(struct nw_html *h, struct nw_html_token *t) {
    const char *q = name_end(t->s + 1, h->end);
    t->kind = NW_HTML_START;
    t->name = t->s + 1;
    t->name_len = (size_t)(q - t->name);
    char what[160];
    for (;;) {
        struct nw_html_attr a;
        const char *quote = NULL;
        q = scan_attr(q, h->end, &a, &quote);
        if (q == NULL && quote != NULL) {
            snprintf(what, sizeof what, "a quoted value in a <%.*s> tag is never "
                     "closed with its %c", (int)(t->name_len > 40 ? 40 : t->name_len),
                     t->name, *quote);
            return bad(h, t, quote, what);
        }
        if (q == NULL) {
            snprintf(what, sizeof what, "a <%.*s> tag is never closed with '>'",
                     (int)(t->name_len > 40 ? 40 : t->name_len), t->name);
            return bad(h, t, t->s, what);
        }
        if (a.name == NULL) {
            break;
        }
    }
    t->len = (size_t)(q + 1 - t->s);
    static const char *const kRaw[] = {"script", "style"};
    for (size_t i = 0; i < sizeof kRaw / sizeof kRaw[0]; ++i) {
        if (nw_html_is(t, kRaw[i])) {
            h->raw = kRaw[i];
            h->raw_len = strlen(kRaw[i]);
        }
    }
    return 1;
}

int nw_html_next(struct nw_html *h, struct nw_html_token *t) {
    const char *p = h->p;
    if (p >= h->end) {
        return 0;
    }
    memset(t, 0, sizeof *t);
    t->s = p;
    t->line = h->line;
    const char *e = NULL;
    if (h->raw != NULL) {
        e = raw_end(h, p);
        if (e == NULL) {
            char what[80];
            snprintf(what, sizeof what, "a <%s> is never closed with </%s>",
                     h->raw, h->raw);
            return bad(h, t, p, what);
        }
        h->raw = NULL;
        if (e == p) {
            return nw_html_next(h, t);
        }
        t->kind = NW_HTML_TEXT;
        t->len = (size_t)(e - p);
    } else if (!markup_at(p, h->end)) {
        t->kind = NW_HTML_TEXT;
        e = p + 1;
        while ((e = memchr(e, '<', (size_t)(h->end - e))) != NULL &&
               !markup_at(e, h->end)) {
            ++e;
        }
        t->len = (size_t)((e != NULL ? e : h->end) - p);
    } else if (p[1] == '/') {
        t->kind = NW_HTML_END;
        t->name = p + 2;
        t->name_len = (size_t)(name_end(t->name, h->end) - t->name);
        e = memchr(t->name, '>', (size_t)(h->end - t->name));
        if (e == NULL) {
            return bad(h, t, p, "an end tag is never closed with '>'");
        }
        t->len = (size_t)(e + 1 - p);
    } else if (h->end - p >= 4 && strncmp(p, "<!--", 4) == 0) {
        t->kind = NW_HTML_COMMENT;
        for (e = p + 4; e + 3 <= h->end && strncmp(e, "-->", 3) != 0; ++e) {
        }
        if (e + 3 > h->end) {
            return bad(h, t, p, "a comment is never closed with '-->'");
        }
        t->len = (size_t)(e + 3 - p);
    } else if (p[1] == '!' || p[1] == '?') {
        t->kind = NW_HTML_OTHER;
        e = memchr(p, '>', (size_t)(h->end - p));
        if (e == NULL) {
            return bad(h, t, p, "a <! or <? declaration is never closed with '>'");
        }
        t->len = (size_t)(e + 1 - p);
    } else if (start_tag(h, t) < 0) {
        return -1;
    }
    h->p = p + t->len;
    h->line += newlines(p, h->p);
    return 1;
}

int nw_html_attr_next(const struct nw_html_token *t, const char **pos,
                      struct nw_html_attr *a) {
    if (t->kind != NW_HTML_START) {
        return 0;
    }
    const char *q = *pos != NULL ? *pos : t->name + t->name_len;
    const char *quote = NULL;
    q = scan_attr(q, t->s + t->len, a, &quote);
    if (q == NULL || a->name == NULL) {
        return 0;
    }
    *pos = q;
    return 1;
}

int nw_html_is(const struct nw_html_token *t, const char *name) {
    return (t->kind == NW_HTML_START || t->kind == NW_HTML_END) &&
           same_word(t->name, t->name_len, name);
}

int nw_html_heading(const struct nw_html_token *t) {
    if ((t->kind != NW_HTML_START && t->kind != NW_HTML_END) ||
        t->name_len != 2 || lower(t->name[0]) != 'h' || t->name[1] < '1' ||
        t->name[1] > '6') {
        return 0;
    }
    return t->name[1] - '0';
}

const char *nw_html_attr(const struct nw_html_token *t, const char *name,
                         size_t *len) {
    const char *pos = NULL;
    struct nw_html_attr a;
    while (nw_html_attr_next(t, &pos, &a)) {
        if (same_word(a.name, a.name_len, name)) {
            *len = a.value_len;
            return a.value != NULL ? a.value : a.name + a.name_len;
        }
    }
    return NULL;
}

int nw_html_attr_is(const struct nw_html_token *t, const char *name,
                    const char *value) {
    size_t len = 0;
    const char *v = nw_html_attr(t, name, &len);
    return v != NULL && len == strlen(value) && memcmp(v, value, len) == 0;
}

int nw_html_has_class(const struct nw_html_token *t, const char *cls) {
    size_t len = 0, cl = strlen(cls);
    const char *v = nw_html_attr(t, "class", &len);
    if (v == NULL) {
        return 0;
    }
    const char *end = v + len;
    while (v < end) {
        while (v < end && is_blank(*v)) {
            ++v;
        }
        const char *w = v;
        while (w < end && !is_blank(*w)) {
            ++w;
        }
        if ((size_t)(w - v) == cl && memcmp(v, cls, cl) == 0) {
            return 1;
        }
        v = w;
    }
    return 0;
}

size_t nw_html_ref_len(const char *s, size_t n) {
    size_t i = 1;
    if (n < 3 || s[0] != '&') {
        return 0;
    }
    if (s[1] == '#') {
        i = (n > 2 && (s[2] == 'x' || s[2] == 'X')) ? 3 : 2;
    }
    size_t from = i;
    while (i < n && i < 32 && is_alnum(s[i])) {
        ++i;
    }
    return i > from && i < n && s[i] == ';' ? i + 1 : 0;
}

int nw_html_ref_code(const char *s, size_t len, unsigned long *cp) {
    static const struct {
        const char *name;
        unsigned long cp;
    } named[] = {{"amp", '&'},      {"lt", '<'},        {"gt", '>'},
                 {"quot", '"'},     {"apos", '\''},     {"nbsp", 0xA0},
                 {"ndash", 0x2013}, {"mdash", 0x2014}, {"hellip", 0x2026},
                 {"rsquo", 0x2019}, {"lsquo", 0x2018}, {"rdquo", 0x201D},
                 {"ldquo", 0x201C}};
    if (s[1] == '#') {
        int hex = s[2] == 'x' || s[2] == 'X';
        char num[32];
        char *end = NULL;
        size_t n = len - 3 - (size_t)hex;
        memcpy(num, s + 2 + hex, n);
        num[n] = '\0';
        *cp = strtoul(num, &end, hex ? 16 : 10);
        return *end == '\0';
    }
    for (size_t k = 0; k < sizeof named / sizeof named[0]; ++k) {
        if (strlen(named[k].name) == len - 2 &&
            memcmp(named[k].name, s + 1, len - 2) == 0) {
            *cp = named[k].cp;
            return 1;
        }
    }
    return 0;
}

void nw_buf_utf8(struct nw_buf *b, unsigned long cp) {
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
