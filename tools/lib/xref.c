/* xref: a chapter's identifier index. See xref.h. */
#include "xref.h"

#include "names.h"
#include "util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Words of C++ and CUDA that autodefs.c can take for the name a line
 * defines; never an identifier of the book's. */
static const char *const kWords[] = {
    "alignas", "alignof", "asm", "auto", "bool", "break", "case", "catch",
    "char", "class", "const", "const_cast", "constexpr", "continue",
    "decltype", "default", "delete", "do", "double", "dynamic_cast", "else",
    "enum", "explicit", "extern", "false", "float", "for", "friend", "goto",
    "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept",
    "nullptr", "operator", "private", "protected", "public", "register",
    "reinterpret_cast", "return", "short", "signed", "sizeof", "static",
    "static_assert", "static_cast", "struct", "switch", "template", "this",
    "thread_local", "throw", "true", "try", "typedef", "typeid", "typename",
    "union", "unsigned", "using", "virtual", "void", "volatile", "while",
    "__constant__", "__device__", "__forceinline__", "__global__",
    "__host__", "__launch_bounds__", "__managed__", "__noinline__",
    "__restrict__", "__shared__"};

int nw_is_cxx_word(const char *name) {
    for (size_t i = 0; i < sizeof kWords / sizeof kWords[0]; ++i) {
        if (strcmp(kWords[i], name) == 0) {
            return 1;
        }
    }
    return 0;
}

int nw_is_ident(const char *s) {
    if (*s == '\0' || isdigit((unsigned char)*s)) {
        return 0;
    }
    for (; *s; ++s) {
        if (!isalnum((unsigned char)*s) && *s != '_') {
            return 0;
        }
    }
    return 1;
}

/* Does the chunk named name land at file scope (xref.h)? depth stops a
 * cycle, which chapter-meta reports. */
static int file_scope(const struct nw_doc *doc, const char *name, int depth) {
    if (depth > 64) {
        return 0;
    }
    if (!nw_is_used(doc, name)) {
        return nw_is_file_name(name);
    }
    for (size_t i = 0; i < doc->n; ++i) {
        const struct nw_chunk *u = &doc->chunks[i];
        if (!nw_chunk_uses(u, name)) {
            continue;
        }
        for (size_t j = 0; j < u->n; ++j) {
            const struct nw_item *it = &u->items[j];
            if (it->kind == NW_USE && strcmp(it->s, name) == 0 &&
                (j == 0 || u->items[j - 1].kind != NW_NL)) {
                return 0; /* indented, or after code on its line */
            }
        }
        if (!file_scope(doc, u->name, depth + 1)) {
            return 0;
        }
    }
    return 1;
}

/* The code of items from..to-1 of c: references as a blank, and // comments
 * left out, so that what they say is not read as code. */
static void code_text(struct nw_buf *b, const struct nw_chunk *c, size_t from,
                      size_t to) {
    nw_buf_puts(b, "");
    int comment = 0;
    for (size_t j = from; j < to; ++j) {
        const struct nw_item *it = &c->items[j];
        if (it->kind == NW_NL) {
            nw_buf_puts(b, "\n");
            comment = 0;
        } else if (it->kind == NW_USE) {
            nw_buf_puts(b, " ");
        } else if (it->kind == NW_TEXT && !comment) {
            const char *slash = strstr(it->s, "//");
            nw_buf_add(b, it->s,
                       slash ? (size_t)(slash - it->s) : strlen(it->s));
            comment = slash != NULL;
        }
    }
}

/* Does the text s[0..n) hold word as a whole word? */
static int has_word(const char *s, size_t n, const char *word) {
    size_t len = strlen(word);
    for (size_t i = 0; i + len <= n; ++i) {
        if (memcmp(s + i, word, len) == 0 &&
            (i == 0 || !(isalnum((unsigned char)s[i - 1]) || s[i - 1] == '_')) &&
            (i + len == n ||
             !(isalnum((unsigned char)s[i + len]) || s[i + len] == '_'))) {
            return 1;
        }
    }
    return 0;
}

/* What follows the name at items[item] of c on its line, blanks skipped. */
static const char *text_after(const struct nw_chunk *c, size_t item) {
    for (size_t j = item + 1; j < c->n && c->items[j].kind == NW_TEXT; ++j) {
        const char *after = c->items[j].s + strspn(c->items[j].s, " \t");
        if (*after != '\0') {
            return after;
        }
    }
    return "";
}

/* What the name at items[item] of c defines, from the words of its
 * statement before it and the character after it (xref.h). */
static const char *kind_at(const struct nw_chunk *c, size_t item) {
    struct nw_buf b = {NULL, 0, 0};
    code_text(&b, c, 0, item);
    const char *s = b.s;
    size_t n = b.n;
    size_t line = n;
    while (line > 0 && s[line - 1] != '\n') {
        --line;
    }
    const char *kind = NULL;
    size_t at = line + strspn(s + line, " \t");
    if (s[at] == '#' && has_word(s + at, n - at, "define")) {
        free(b.s);
        return "macro";
    }
    /* The statement: from the last ; or } before the name. */
    size_t start = n;
    while (start > 0 && s[start - 1] != ';' && s[start - 1] != '}') {
        --start;
    }
    /* Inside braces of that statement: an enum's list, or a member. */
    size_t brace = n;
    while (brace > start && s[brace - 1] != '{') {
        --brace;
    }
    if (brace > start) {
        if (has_word(s + start, brace - start, "enum")) {
            free(b.s);
            return "enumerator";
        }
        start = brace;
    }
    /* A template's parameters say nothing of what it defines. */
    for (char *t = b.s + start; (t = strstr(t, "template")) != NULL;) {
        t += strlen("template");
        int depth = 0;
        for (; *t && (depth > 0 || *t == ' ' || *t == '<' || *t == '\n');
             ++t) {
            depth += *t == '<' ? 1 : *t == '>' ? -1 : 0;
            *t = ' ';
        }
    }
    const char *w = s + start;
    size_t wn = n - start;
    const char *after = text_after(c, item);
    if (has_word(w, wn, "__global__")) {
        kind = "kernel";
    } else if (has_word(w, wn, "struct") || has_word(w, wn, "class") ||
               has_word(w, wn, "union") || has_word(w, wn, "enum") ||
               has_word(w, wn, "using") || has_word(w, wn, "typedef")) {
        kind = "type";
    } else if (*after == '(') {
        kind = has_word(w, wn, "__device__") ? "device function" : "function";
    } else if (has_word(w, wn, "constexpr") || has_word(w, wn, "const")) {
        kind = "constant";
    } else if (*after == '=' || *after == ';' || *after == '[' ||
               *after == '{') {
        kind = "variable";
    }
    free(b.s);
    return kind;
}

/* Is items[item] of c after // on its line? */
static int in_comment(const struct nw_chunk *c, size_t item) {
    for (size_t j = item; j > 0 && c->items[j - 1].kind != NW_NL; --j) {
        if (c->items[j - 1].kind == NW_TEXT && strstr(c->items[j - 1].s, "//")) {
            return 1;
        }
    }
    return 0;
}

/* The item of c's first appearance of name in code, as finduses marked
 * it, on line (any line, where line is 0), or c->n where it has none. */
static size_t first_use(const struct nw_chunk *c, const char *name,
                        long line) {
    for (size_t k = 0; k < c->nuses; ++k) {
        if (strcmp(c->uses[k].name, name) == 0 && c->uses[k].item < c->n &&
            (line == 0 || c->uses[k].line == line) &&
            !in_comment(c, c->uses[k].item)) {
            return c->uses[k].item;
        }
    }
    return c->n;
}

/* Is the name autodefs.c found on line d->line of c the type of what the
 * line declares, rather than what it declares? It is where another name,
 * ::, <, * or & follows it: autodefs.c knows C's own types and no others,
 * and reads "size_t total(...)" as defining both size_t and total. */
static int is_type_of_decl(const struct nw_chunk *c, const struct nw_ident *d) {
    size_t at = first_use(c, d->name, d->line);
    if (at >= c->n) {
        return 0;
    }
    const char *after = text_after(c, at);
    return isalpha((unsigned char)*after) || *after == '_' ||
           strncmp(after, "::", 2) == 0 || *after == '<' || *after == '*' ||
           *after == '&';
}

static struct nw_xentry *find(struct nw_xref *x, const char *name) {
    for (size_t i = 0; i < x->n; ++i) {
        if (strcmp(x->v[i].name, name) == 0) {
            return &x->v[i];
        }
    }
    return NULL;
}

static void add_index(size_t **v, size_t *n, size_t *cap, size_t c) {
    if (*n > 0 && (*v)[*n - 1] == c) {
        return;
    }
    *v = nw_grow(*v, cap, *n + 1, sizeof **v);
    (*v)[(*n)++] = c;
}

void nw_xref_build(const struct nw_doc *doc, struct nw_xref *x) {
    memset(x, 0, sizeof *x);
    for (size_t i = 0; i < doc->n; ++i) {
        const struct nw_chunk *c = &doc->chunks[i];
        int scope = -1; /* not worked out yet */
        for (size_t k = 0; k < c->ndefs; ++k) {
            const struct nw_ident *d = &c->defs[k];
            if (!nw_is_ident(d->name)) {
                continue; /* chapter-meta rejects a stated one */
            }
            if (!(d->flags & NW_ID_STATED)) {
                if (nw_is_cxx_word(d->name) || is_type_of_decl(c, d)) {
                    continue;
                }
                if (scope < 0) {
                    scope = file_scope(doc, c->name, 0);
                }
                if (!scope) {
                    continue;
                }
            }
            struct nw_xentry *e = find(x, d->name);
            if (e == NULL) {
                x->v = nw_grow(x->v, &x->cap, x->n + 1, sizeof *x->v);
                e = &x->v[x->n++];
                memset(e, 0, sizeof *e);
                e->name = nw_xstrdup(d->name);
                size_t at = first_use(c, d->name, 0);
                e->kind = at < c->n ? kind_at(c, at) : NULL;
            }
            add_index(&e->defs, &e->ndefs, &e->defs_cap, i);
        }
    }
    for (size_t i = 0; i < doc->n; ++i) {
        const struct nw_chunk *c = &doc->chunks[i];
        for (size_t k = 0; k < c->nuses; ++k) {
            struct nw_xentry *e = find(x, c->uses[k].name);
            if (e != NULL && !nw_xentry_defines(e, i) &&
                !in_comment(c, c->uses[k].item)) {
                add_index(&e->uses, &e->nuses, &e->uses_cap, i);
            }
        }
    }
}

void nw_xref_free(struct nw_xref *x) {
    for (size_t i = 0; i < x->n; ++i) {
        free(x->v[i].name);
        free(x->v[i].defs);
        free(x->v[i].uses);
    }
    free(x->v);
    memset(x, 0, sizeof *x);
}

const struct nw_xentry *nw_xref_find(const struct nw_xref *x,
                                     const char *name) {
    return find((struct nw_xref *)x, name);
}

int nw_xentry_defines(const struct nw_xentry *e, size_t c) {
    for (size_t k = 0; k < e->ndefs; ++k) {
        if (e->defs[k] == c) {
            return 1;
        }
    }
    return 0;
}

long nw_xref_target(const struct nw_doc *doc, const struct nw_xentry *e,
                    size_t u) {
    if (e->ndefs == 1) {
        return (long)e->defs[0];
    }
    size_t nmine, ntheirs;
    const size_t *mine = nw_chunk_roots(doc, u, &nmine);
    long target = -1;
    int found = 0;
    for (size_t k = 0; k < e->ndefs; ++k) {
        const size_t *theirs = nw_chunk_roots(doc, e->defs[k], &ntheirs);
        int shared = 0;
        /* Both lists are in the chapter's order. */
        size_t i = 0, j = 0;
        while (i < nmine && j < ntheirs && !shared) {
            if (mine[i] == theirs[j]) {
                shared = 1;
            } else if (mine[i] < theirs[j]) {
                ++i;
            } else {
                ++j;
            }
        }
        if (shared) {
            target = (long)e->defs[k];
            ++found;
        }
    }
    return found == 1 ? target : -1;
}
