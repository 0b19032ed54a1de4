/* pattern.c: an expectation line compiled into tokens (literal text,
 * blanks and the holes), and an output line matched against it, each hole
 * taking its value.
 */
#include "tcheck.h"

#include <stdlib.h>
#include <string.h>

static const struct {
    const char *text;
    enum tok_kind kind;
} kHoles[] = {
    {"{{ms}}", TOK_MS},   {"{{float}}", TOK_FLOAT},   {"{{int}}", TOK_INT},
    {"{{gpu}}", TOK_GPU}, {"{{device}}", TOK_DEVICE},
};
enum { kNumHoles = sizeof kHoles / sizeof kHoles[0] };

int is_hole(enum tok_kind k) { return k >= TOK_MS; }
int is_measured(enum tok_kind k) {
    return k == TOK_MS || k == TOK_FLOAT || k == TOK_INT;
}
int is_device(enum tok_kind k) {
    return k == TOK_GPU || k == TOK_DEVICE;
}

const char *hole_name(enum tok_kind k) {
    for (size_t i = 0; i < kNumHoles; i++) {
        if (kHoles[i].kind == k) {
            return kHoles[i].text;
        }
    }
    return "text";
}

/* A name a measured or device hole may carry, {{float:NAME}}:
 * [a-z][a-z0-9_]*.
 * Its length at s (of at most n bytes), or 0. */
static size_t name_len(const char *s, size_t n) {
    if (n == 0 || s[0] < 'a' || s[0] > 'z') {
        return 0;
    }
    size_t k = 1;
    while (k < n && ((s[k] >= 'a' && s[k] <= 'z') || (s[k] >= '0' && s[k] <= '9') ||
                     s[k] == '_')) {
        k++;
    }
    return k;
}

/* The hole spelled at s, or -1; its length in *len, and the name a
 * measured hole carries in *name (empty where it has none). */
static int hole_named_at(const char *s, size_t n, size_t *len,
                         struct str *name) {
    name->p = NULL;
    name->n = 0;
    for (size_t i = 0; i < kNumHoles; i++) {
        size_t k = strlen(kHoles[i].text);
        if (k <= n && memcmp(s, kHoles[i].text, k) == 0) {
            *len = k;
            return (int)i;
        }
        /* {{ms:NAME}}: the spelling without its "}}", a colon, a name.
         * Measured holes and {{device}} may carry one. */
        if (kHoles[i].kind == TOK_GPU || k + 1 > n ||
            memcmp(s, kHoles[i].text, k - 2) != 0 || s[k - 2] != ':') {
            continue;
        }
        size_t m = name_len(s + k - 1, n - (k - 1));
        if (m && k - 1 + m + 2 <= n && memcmp(s + k - 1 + m, "}}", 2) == 0) {
            name->p = s + k - 1;
            name->n = m;
            *len = k - 1 + m + 2;
            return (int)i;
        }
    }
    return -1;
}

/* The hole spelled at s, or -1. */
int hole_at(const char *s, size_t n) {
    size_t len;
    struct str name;
    return hole_named_at(s, n, &len, &name);
}

/* Each "{{" of an expectation that reads as a hole and is none, named at
 * its line: a word and "}}" or ":" after it ({{double:x}}, a misspelled
 * kind; {{float:x, one left open). It would match only itself. Other
 * braces are the output's own ("{{{{not"), and left alone. Returns how
 * many. */
int not_holes(const struct text *e, FILE *out) {
    int found = 0;
    for (size_t l = 0; l < e->nlines; l++) {
        struct str s = e->line[l];
        for (size_t i = 0; i + 1 < s.n; i++) {
            if (s.p[i] != '{' || s.p[i + 1] != '{' ||
                hole_at(s.p + i, s.n - i) >= 0) {
                continue;
            }
            size_t w = i + 2;
            while (w < s.n && s.p[w] >= 'a' && s.p[w] <= 'z') {
                w++;
            }
            if (w == i + 2 || w >= s.n ||
                !(s.p[w] == ':' || (s.p[w] == '}' && w + 1 < s.n && s.p[w + 1] == '}'))) {
                continue;
            }
            size_t k = i + 2;
            while (k < s.n && s.p[k] != ' ' && s.p[k] != '\t' &&
                   !(s.p[k] == '}' && k + 1 < s.n && s.p[k + 1] == '}')) {
                k++;
            }
            k = k + 1 < s.n && s.p[k] == '}' ? k + 2 : k;
            fprintf(out, "%s:%zu: %.*s is not a hole%s: the holes are {{ms}}, "
                         "{{float}}, {{int}}, {{gpu}} and {{device}}, and all "
                         "but {{gpu}} may carry a name, {{float:NAME}} (NAME "
                         "[a-z][a-z0-9_]*)\n",
                    e->path, e->first + l, (int)(k - i), s.p + i,
                    k >= 2 && s.p[k - 1] == '}' && s.p[k - 2] == '}'
                        ? "" : " (it is not closed by }})");
            found++;
            i = k - 1;
        }
    }
    return found;
}

static void push_tok(struct pat *pt, enum tok_kind k, const char *p, size_t n) {
    if (k == TOK_BLANKS && pt->ntok > 0 &&
        pt->tok[pt->ntok - 1].kind == TOK_BLANKS) {
        return;
    }
    pt->tok[pt->ntok].kind = k;
    pt->tok[pt->ntok].lit.p = p;
    pt->tok[pt->ntok].lit.n = n;
    pt->ntok++;
    if (is_hole(k)) {
        pt->nholes++;
        pt->measured |= is_measured(k);
        pt->device |= is_device(k);
        pt->gpu |= k == TOK_GPU;
    }
}

/* Compile one expectation line. Literal text next to a hole loses its
 * blanks on that side to a TOK_BLANKS token. */
static void compile_line(struct str s, struct pat *pt) {
    memset(pt, 0, sizeof *pt);
    /* At most: per hole, a blanks-literal-blanks run before it, plus one. */
    size_t holes = 0;
    for (size_t i = 0; i < s.n; i++) {
        if (s.p[i] == '{' && hole_at(s.p + i, s.n - i) >= 0) {
            holes++;
        }
    }
    pt->tok = nw_xcalloc(4 * holes + 4, sizeof *pt->tok);
    size_t i = 0;
    int after_hole = 0;
    while (i <= s.n) {
        size_t j = i, hlen = 0;
        struct str name = {NULL, 0};
        int h = -1;
        while (j < s.n && (h = hole_named_at(s.p + j, s.n - j, &hlen,
                                              &name)) < 0) {
            j++;
        }
        /* literal s.p[i..j), then hole h (or the end of the line) */
        size_t a = i, b = j;
        int blanks_before = 0, blanks_after = 0;
        if (after_hole) {
            while (a < b && is_blank(s.p[a])) {
                a++;
            }
            blanks_before = a > i;
        }
        if (h >= 0) {
            while (b > a && is_blank(s.p[b - 1])) {
                b--;
            }
            blanks_after = b < j;
        }
        if (blanks_before) {
            push_tok(pt, TOK_BLANKS, NULL, 0);
        }
        if (a < b) {
            push_tok(pt, TOK_LIT, s.p + a, b - a);
        }
        if (blanks_after) {
            push_tok(pt, TOK_BLANKS, NULL, 0);
        }
        if (h < 0) {
            break;
        }
        push_tok(pt, kHoles[h].kind, name.p, name.n);
        i = j + hlen;
        after_hole = 1;
    }
}

void free_pats(struct pat *pats, size_t n) {
    for (size_t i = 0; i < n; i++) {
        free(pats[i].tok);
    }
    free(pats);
}

struct pat *compile_text(const struct text *t) {
    struct pat *pats = nw_xcalloc(t->nlines, sizeof *pats);
    for (size_t i = 0; i < t->nlines; i++) {
        compile_line(t->line[i], &pats[i]);
    }
    return pats;
}

/* The length of the longest number of kind k at s, 0 if none.
 *   int:   [+-]?D+
 *   float: [+-]?(D+(.D+)?|.D+)([eE][+-]?D+)?
 *   ms:    the same as float without the leading sign */
static size_t scan_number(const char *s, size_t n, enum tok_kind k) {
    size_t i = 0;
    if (k != TOK_MS && i < n && (s[i] == '+' || s[i] == '-')) {
        i++;
    }
    size_t digits = 0;
    while (i < n && is_digit(s[i])) {
        i++, digits++;
    }
    if (k == TOK_INT) {
        return digits ? i : 0;
    }
    if (i + 1 < n && s[i] == '.' && is_digit(s[i + 1])) {
        i++;
        while (i < n && is_digit(s[i])) {
            i++, digits++;
        }
    }
    if (!digits) {
        return 0;
    }
    size_t end = i;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        size_t j = i + 1;
        if (j < n && (s[j] == '+' || s[j] == '-')) {
            j++;
        }
        if (j < n && is_digit(s[j])) {
            while (j < n && is_digit(s[j])) {
                j++;
            }
            end = j;
        }
    }
    return end;
}

/* A match in progress. dead, when not NULL, marks the (device hole,
 * position) states already known to fail, so that a line with several
 * device holes costs at most tokens x length x length steps. */
struct match {
    const struct pat *pt;
    struct str s;
    struct str *cap;     /* receives the holes' values, or NULL */
    unsigned char *dead; /* ntok x (s.n + 1), or NULL */
};

/* Match tokens t.. against s from pos to its end; hole t's value is hole
 * number h. Number holes take the longest number, blanks all blanks; a
 * device hole takes the shortest text (one byte at least) that lets the
 * rest match. */
static int match_from(const struct match *m, size_t t, size_t pos, size_t h) {
    const struct pat *pt = m->pt;
    struct str s = m->s;
    for (; t < pt->ntok; t++) {
        const struct tok *k = &pt->tok[t];
        switch (k->kind) {
        case TOK_LIT:
            if (s.n - pos < k->lit.n ||
                memcmp(s.p + pos, k->lit.p, k->lit.n) != 0) {
                return 0;
            }
            pos += k->lit.n;
            break;
        case TOK_BLANKS:
            while (pos < s.n && is_blank(s.p[pos])) {
                pos++;
            }
            break;
        case TOK_MS:
        case TOK_FLOAT:
        case TOK_INT: {
            size_t len = scan_number(s.p + pos, s.n - pos, k->kind);
            if (!len) {
                return 0;
            }
            if (m->cap) {
                m->cap[h].p = s.p + pos;
                m->cap[h].n = len;
            }
            h++;
            pos += len;
            break;
        }
        case TOK_GPU:
        case TOK_DEVICE: {
            unsigned char *dead =
                m->dead ? &m->dead[t * (s.n + 1) + pos] : NULL;
            if (dead && *dead) {
                return 0;
            }
            for (size_t len = 1; pos + len <= s.n; len++) {
                if (match_from(m, t + 1, pos + len, h + 1)) {
                    if (m->cap) {
                        m->cap[h].p = s.p + pos;
                        m->cap[h].n = len;
                    }
                    return 1;
                }
            }
            if (dead) {
                *dead = 1;
            }
            return 0;
        }
        }
    }
    return pos == s.n;
}

int match_line(const struct pat *pt, struct str s, struct str *cap) {
    size_t device = 0;
    for (size_t t = 0; t < pt->ntok; t++) {
        device += is_device(pt->tok[t].kind);
    }
    struct match m = {pt, s, cap, NULL};
    if (device > 1) {
        size_t w = s.n + 1;
        m.dead = nw_xcalloc(pt->ntok, w);
    }
    int ok = match_from(&m, 0, 0, 0);
    free(m.dead);
    return ok;
}

/* The kind of hole number h of a pattern. */
enum tok_kind hole_kind(const struct pat *pt, size_t h) {
    for (size_t t = 0; t < pt->ntok; t++) {
        if (is_hole(pt->tok[t].kind) && h-- == 0) {
            return pt->tok[t].kind;
        }
    }
    return TOK_LIT;
}

/* Does output line j of t match? A line cut at kMaxLine never does. */
int matches(const struct pat *pt, const struct text *t, size_t j,
                   struct str *cap) {
    return !t->cut[j] && match_line(pt, t->line[j], cap);
}

/* What a number hole needs, for messages. */
static const char *hole_needs(enum tok_kind k) {
    switch (k) {
    case TOK_MS:
        return "a number of milliseconds";
    case TOK_INT:
        return "a whole number";
    default:
        return "a number";
    }
}

/* Why line s does not match pt, where the reason is a number hole given
 * something else ("nan", "inf", "-1" for {{ms}}): written to buf, and 1
 * returned. 0 where the text around the holes differs, or a device hole
 * comes first (it can take any text, so nothing after it is certain). */
int explain_mismatch(const struct pat *pt, struct str s, char *buf,
                            size_t size) {
    size_t pos = 0;
    for (size_t t = 0; t < pt->ntok; t++) {
        const struct tok *k = &pt->tok[t];
        if (k->kind == TOK_LIT) {
            if (s.n - pos < k->lit.n ||
                memcmp(s.p + pos, k->lit.p, k->lit.n) != 0) {
                return 0;
            }
            pos += k->lit.n;
        } else if (k->kind == TOK_BLANKS) {
            while (pos < s.n && is_blank(s.p[pos])) {
                pos++;
            }
        } else if (is_measured(k->kind)) {
            size_t len = scan_number(s.p + pos, s.n - pos, k->kind);
            if (len) {
                pos += len;
                continue;
            }
            size_t w = 0;
            while (pos + w < s.n && !is_blank(s.p[pos + w]) && w < 40) {
                w++;
            }
            int n = snprintf(buf, size, "%s needs %s, got '",
                             hole_name(k->kind), hole_needs(k->kind));
            for (size_t i = 0; i < w && n > 0 && (size_t)n + 6 < size; i++) {
                unsigned char c = (unsigned char)s.p[pos + i];
                n += snprintf(buf + n, size - (size_t)n,
                              c < 0x20 || c >= 0x7f ? "\\x%02x" : "%c", c);
            }
            if (n > 0 && (size_t)n + 2 <= size) {
                snprintf(buf + n, size - (size_t)n, "'");
            }
            return 1;
        } else {
            return 0;
        }
    }
    return 0;
}

/* The token of hole number h of a pattern. */
const struct tok *hole_tok(const struct pat *pt, size_t h) {
    for (size_t t = 0; t < pt->ntok; t++) {
        if (is_hole(pt->tok[t].kind) && h-- == 0) {
            return &pt->tok[t];
        }
    }
    return NULL;
}

/* The {{gpu}} value in an output: what the first expectation line with a
 * {{gpu}} hole captures in the first output line it matches. */
int gpu_of(const struct text *e, const struct pat *pats,
                  const struct text *o, struct str *gpu) {
    for (size_t i = 0; i < e->nlines; i++) {
        if (!pats[i].gpu) {
            continue;
        }
        struct str *cap = nw_xcalloc(pats[i].nholes, sizeof *cap);
        for (size_t j = 0; j < o->nlines; j++) {
            if (matches(&pats[i], o, j, cap)) {
                for (size_t h = 0; h < pats[i].nholes; h++) {
                    if (hole_kind(&pats[i], h) == TOK_GPU) {
                        *gpu = cap[h];
                        free(cap);
                        return 1;
                    }
                }
            }
        }
        free(cap);
        return 0;
    }
    return 0;
}
