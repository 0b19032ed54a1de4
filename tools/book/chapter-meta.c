/* chapter-meta: check one chapter's noweb pipeline and describe it.
 *
 * Usage: tools/book/nwpipe.sh chapters/x.nw | chapter-meta
 *
 * Fails, with one line per problem in the form file:line: message, on what
 * notangle lets through or gets wrong silently: a reference to an undefined
 * chunk (a misspelled name, or a literal << that needs @<<), a chunk
 * defined but never used that is not a file root (a misspelled name), a
 * kernel launch written <<< where noweb needs @<<<, a root the book does
 * not take (of another type, in a directory, with a blank, noweb's <<*>>),
 * a chunk that includes itself, a name that is neither a label nor a
 * phrase, a chapter with no title or no code, a malformed chunk header, a
 * line over 64 KiB, text that is not UTF-8, a byte-order mark, CRLF line
 * endings, a heading whose id is a label of the chapter, a quote or claim
 * in a heading or inside maths, a quote or
 * claim written wrong, and an "@ %def" line naming what its chunk does not
 * have. Where markup itself failed (it says why on stderr), chapter-meta
 * fails too, and where the reason is a << in prose it says how to write one.
 *
 * On success it prints the chapter's description, one tab-separated record
 * a line:
 *   title  TEXT
 *   root   FILE   LINE
 *   label  LABEL  LINE
 *   cite   LABEL  LINE    a [[<<LABEL>>]] of a chunk of another chapter
 *   quote  TEXT   LINE    a quoted value, [[=TEXT]]
 *   claim  TEXT   LINE    a checked claim, [[?TEXT]]
 * TEXT being what stands between [[ and ]] (line ends as blanks). A quote
 * or claim whose syntax is wrong (quote.h) is a problem at its line; its
 * values are looked up where the page is woven and the claims checked.
 *
 * It also reads such a description back, through tools/lib/meta.h, for
 * the build's scripts (so that the format has one reader):
 *   chapter-meta roots DESCRIPTION...   each file root, a line each
 *   chapter-meta tsv DESCRIPTION...     its title, root and label records
 *                                       without their lines (NAME.tsv)
 *   chapter-meta root-line DESCRIPTION ROOT   the line of the root
 *   chapter-meta book-mk DESCRIPTION... build/book.mk: each chapter's
 *       ROOTS.NAME, PROGS.NAME (its NAME.cu roots) and FIGS.NAME (its
 *       fig-NAME.cpp roots), the chapter named by its file
 */
#define _POSIX_C_SOURCE 200809L /* fmemopen */
#include "meta.h"
#include "names.h"
#include "noweb.h"
#include "quote.h"
#include "util.h"
#include "xref.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_ERRORS 20
#define MAX_LINE 65536

#if defined(__GNUC__)
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define PRINTF_LIKE(f, a)
#endif

/* The names the book takes as file roots, as README states them. A root's
 * name becomes a file's, a program's and a make target's, and reaches
 * shell commands: nothing but these characters gets that far. */
static const char kRootRule[] =
    "a file root is a file name of letters, digits, _ and -, with no "
    "directory and one extension, of type .cu, .cuh or .h, or a figure, "
    "fig-NAME.cpp";
enum { kMaxRootName = 100 };
/* noweb's markup cuts a chunk's name at this many bytes. */
enum { kMarkupNameMax = 254 };

static const char kBom[] = "\xEF\xBB\xBF"; /* U+FEFF in UTF-8 */

struct lint {
    const struct nw_doc *doc;
    int errors;
    long hidden_from; /* line of the first problem not shown */
};

/* The chapter's path, for messages. */
static const char *file_of(const struct nw_doc *doc) {
    return doc->file != NULL ? doc->file : "-";
}

/* Says file:line: and the message, for the first MAX_ERRORS problems. */
PRINTF_LIKE(3, 4)
static void report(struct lint *l, long line, const char *fmt, ...) {
    if (l->errors++ >= MAX_ERRORS) {
        if (l->errors == MAX_ERRORS + 1) {
            l->hidden_from = line;
        }
        return;
    }
    fprintf(stderr, "%s:%ld: ", file_of(l->doc), line);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

static const char *closest_defn(const struct nw_doc *doc, const char *name) {
    const char *best = NULL;
    size_t best_d = 4;
    for (size_t i = 0; i < doc->n; ++i) {
        const struct nw_chunk *c = &doc->chunks[i];
        if (c->is_code && c->name) {
            size_t d = nw_edit_distance(name, c->name);
            if (d < best_d) {
                best_d = d;
                best = c->name;
            }
        }
    }
    return best;
}

/* Returns the byte offset of the first invalid UTF-8 sequence, or -1. */
static long bad_utf8(const char *s) {
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        int n;
        unsigned long cp;
        if (*p < 0x80) {
            ++p;
            continue;
        } else if ((*p & 0xE0) == 0xC0) {
            n = 1;
            cp = *p & 0x1F;
        } else if ((*p & 0xF0) == 0xE0) {
            n = 2;
            cp = *p & 0x0F;
        } else if ((*p & 0xF8) == 0xF0) {
            n = 3;
            cp = *p & 0x07;
        } else {
            return (long)(p - (const unsigned char *)s);
        }
        for (int k = 1; k <= n; ++k) {
            if ((p[k] & 0xC0) != 0x80) {
                return (long)(p - (const unsigned char *)s);
            }
            cp = (cp << 6) | (p[k] & 0x3F);
        }
        static const unsigned long least[] = {0, 0x80, 0x800, 0x10000};
        if (cp < least[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
            return (long)(p - (const unsigned char *)s);
        }
        p += n + 1;
    }
    return -1;
}

/* Depth-first walk of the use graph from name; reports a chunk that
 * includes itself. state: 0 unvisited, 1 on the stack, 2 done. */
static int find_cycle(struct lint *l, const char *name, char *state) {
    const struct nw_doc *doc = l->doc;
    long first = nw_find_defn(doc, name, 0);
    if (first < 0) {
        return 0;
    }
    if (state[first] == 1) {
        return 1;
    }
    if (state[first] == 2) {
        return 0;
    }
    state[first] = 1;
    for (long i = first; i >= 0; i = nw_find_defn(doc, name, (size_t)i + 1)) {
        const struct nw_chunk *c = &doc->chunks[i];
        for (size_t j = 0; j < c->n; ++j) {
            const struct nw_item *it = &c->items[j];
            if (it->kind == NW_USE && find_cycle(l, it->s, state)) {
                if (state[first] == 1) {
                    report(l, it->line,
                           "chunk <<%s>> includes itself (through <<%s>>)",
                           name, it->s);
                    state[first] = 2;
                }
                return 0;
            }
        }
    }
    state[first] = 2;
    return 0;
}

static void check_cycles(struct lint *l) {
    const struct nw_doc *doc = l->doc;
    char *state = nw_xrealloc(NULL, doc->n);
    memset(state, 0, doc->n);
    for (size_t i = 0; i < doc->n; ++i) {
        const struct nw_chunk *c = &doc->chunks[i];
        if (c->is_code && c->piece == 1) {
            find_cycle(l, c->name, state);
        }
    }
    free(state);
}

/* Is c the first piece of a chunk that no chunk uses: a root? */
static int is_root(const struct nw_doc *doc, const struct nw_chunk *c) {
    return c->is_code && c->piece == 1 && !nw_is_used(doc, c->name);
}

/* Does name end like a file name, as "scan v2.cu" does: a dot and an
 * extension of letters and digits that starts with a letter? */
static int ends_like_file(const char *name) {
    const char *dot = strrchr(name, '.');
    if (dot == NULL || dot == name || !isalpha((unsigned char)dot[1])) {
        return 0;
    }
    for (const char *p = dot + 1; *p; ++p) {
        if (!isalnum((unsigned char)*p)) {
            return 0;
        }
    }
    return 1;
}

/* A file root's name, c's: letters, digits, _ and -, then one extension,
 * and not longer than kMaxRootName. Says what is wrong and returns 0, or
 * returns 1. (Its type is checked after.) */
static int root_name_ok(struct lint *l, const struct nw_chunk *c) {
    const char *name = c->name;
    size_t n = strlen(name);
    const char *dot = strchr(name, '.');
    for (const char *p = name; *p; ++p) {
        unsigned char ch = (unsigned char)*p;
        if (isalnum(ch) || ch == '_' || ch == '-' || ch == '.') {
            continue;
        }
        char shown[8];
        if (ch >= 0x21 && ch < 0x7f) {
            snprintf(shown, sizeof shown, "'%c'", ch);
        } else {
            snprintf(shown, sizeof shown, "0x%02x", ch);
        }
        report(l, c->line,
               "file root <<%s>> holds the character %s at column %zu of its "
               "name; %s",
               name, shown, (size_t)(p - name) + 1, kRootRule);
        return 0;
    }
    if (dot == name || name[0] == '-') {
        report(l, c->line,
               "file root <<%s>> begins with '%c'; it begins with a letter, "
               "a digit or _; %s",
               name, name[0], kRootRule);
    } else if (strchr(dot + 1, '.') != NULL) {
        report(l, c->line, "file root <<%s>> has more than one '.'; %s",
               name, kRootRule);
    } else if (n > kMaxRootName) {
        report(l, c->line,
               "file root <<%.20s...>> is %zu characters long; the book "
               "takes names of up to %d: shorten it",
               name, n, kMaxRootName);
    } else {
        return 1;
    }
    return 0;
}

/* A root, c, that is meant as a file: says what is wrong with its name, if
 * anything, and returns 1; returns 0 where c is no attempt at a file root. */
static int check_root(struct lint *l, const struct nw_chunk *c) {
    const char *name = c->name;
    if (strcmp(name, "*") == 0) {
        report(l, c->line,
               "chunk <<*>> is noweb's default root, which the book does not "
               "take; %s",
               kRootRule);
    } else if (nw_is_file_name(name) && strpbrk(name, "/\\") != NULL) {
        report(l, c->line, "file root <<%s>> names a directory; %s", name,
               kRootRule);
    } else if (nw_is_file_name(name)) {
        const char *dot = strrchr(name, '.');
        if (!root_name_ok(l, c)) {
            /* root_name_ok said what is wrong */
        } else if (strcmp(dot, ".cpp") == 0 && !nw_is_figure_root(name)) {
            report(l, c->line,
                   "file root <<%s>>: a .cpp root is a figure, named "
                   "fig-NAME.cpp with NAME of lowercase letters, digits and "
                   "single hyphens",
                   name);
        } else if (!nw_is_known_file_type(name)) {
            report(l, c->line,
                   "file root <<%s>> is not a type the book builds "
                   "(.cu, .cuh, .h, fig-NAME.cpp)",
                   name);
        }
    } else if (strpbrk(name, " \t") != NULL && ends_like_file(name)) {
        report(l, c->line,
               "chunk <<%s>> is named like a file but has a blank; %s", name,
               kRootRule);
    } else {
        return 0;
    }
    return 1;
}

/* Checks the name of each chunk; returns the number of roots meant as
 * files, good or not. */
static size_t check_names(struct lint *l) {
    const struct nw_doc *doc = l->doc;
    size_t roots = 0;
    for (size_t i = 0; i < doc->n; ++i) {
        const struct nw_chunk *c = &doc->chunks[i];
        if (!c->is_code || c->piece != 1) {
            continue;
        }
        const char *name = c->name;
        if (name[0] == '\0') {
            report(l, c->line, "a chunk with an empty name");
        } else if (strlen(name) >= kMarkupNameMax) {
            report(l, c->line,
                   "chunk <<%.20s...>>: noweb's markup keeps %d bytes of a "
                   "chunk's name, and this one has at least as many; "
                   "shorten it",
                   name, kMarkupNameMax);
            roots += is_root(doc, c); /* no "no file root" after it */
        } else if (is_root(doc, c)) {
            if (check_root(l, c)) {
                ++roots;
            } else {
                report(l, c->line,
                       "chunk <<%s>> is defined but never used and is not a "
                       "file root; is its name misspelled?",
                       name);
            }
        } else if (!nw_is_label(name) && !nw_is_phrase(name) &&
                   !nw_is_file_name(name)) {
            report(l, c->line,
                   "chunk name <<%s>> is neither a snippet label (lowercase "
                   "kebab-case) nor a phrase (words with blanks)",
                   name);
        }
    }
    return roots;
}

/* Is everything on item j's line before it blank? */
static int blank_so_far(const struct nw_chunk *c, size_t j) {
    while (j > 0) {
        const struct nw_item *p = &c->items[--j];
        if (p->kind == NW_NL) {
            return 1;
        }
        if (p->kind != NW_TEXT || p->s[strspn(p->s, " \t")] != '\0') {
            return 0;
        }
    }
    return 1;
}

/* Is item j of c text that opens its line, past blanks, with <<: a chunk
 * header or reference as noweb did not read it? */
static int opens_with_brackets(const struct nw_chunk *c, size_t j) {
    const struct nw_item *it = &c->items[j];
    return it->kind == NW_TEXT && blank_so_far(c, j) &&
           strncmp(it->s + strspn(it->s, " \t"), "<<", 2) == 0;
}

/* Problems with the bytes of item j of c: not UTF-8, a line too long.
 * Returns nonzero where there was one. */
static int check_bytes(struct lint *l, const struct nw_chunk *c, size_t j) {
    const struct nw_item *it = &c->items[j];
    if (it->s == NULL) {
        return 0;
    }
    if (bad_utf8(it->s) >= 0) {
        report(l, it->line,
               "text that is not UTF-8; save the chapter as UTF-8");
        return 1;
    }
    size_t len = strlen(it->s);
    if (len > MAX_LINE) {
        report(l, it->line,
               "a line of %zu bytes; the book takes lines of up to %d bytes",
               len, MAX_LINE);
        return 1;
    }
    return 0;
}

/* Does item j of c end a line with a carriage return? */
static int ends_in_cr(const struct nw_chunk *c, size_t j) {
    const struct nw_item *it = &c->items[j];
    size_t len = it->kind == NW_TEXT ? strlen(it->s) : 0;
    return len > 0 && it->s[len - 1] == '\r' &&
           (j + 1 == c->n || c->items[j + 1].kind == NW_NL);
}

/* How the file is saved: with a byte-order mark, with CRLF line endings
 * (the first line that has one). noweb keeps both as text: the title would
 * not be found, and the tangled files and the title would hold CRs. */
static void check_saved_as(struct lint *l) {
    const struct nw_doc *doc = l->doc;
    if (doc->n > 0 && doc->chunks[0].n > 0 && doc->chunks[0].items[0].s &&
        strncmp(doc->chunks[0].items[0].s, kBom, 3) == 0) {
        report(l, 1, "the file starts with a UTF-8 byte-order mark; save it "
                     "without one");
    }
    for (size_t i = 0; i < doc->n; ++i) {
        const struct nw_chunk *c = &doc->chunks[i];
        for (size_t j = 0; j < c->n; ++j) {
            if (ends_in_cr(c, j)) {
                report(l, c->items[j].line,
                       "a CRLF line ending (the first of the chapter); save "
                       "the chapter with LF line endings");
                return;
            }
        }
    }
}

/* A reference: a bare kernel launch, or, in code, an undefined chunk. */
static void check_use(struct lint *l, const struct nw_chunk *c,
                      const struct nw_item *it) {
    if (it->s[0] == '<') {
        report(l, it->line,
               "kernel launch written <<<; noweb reads it as a chunk "
               "reference: write kernel@<<<grid, block>>>(...)");
    } else if (c->is_code && nw_find_defn(l->doc, it->s, 0) < 0) {
        /* A name no chunk could have, such as the %s of printf("<<%s>>"),
         * was meant as text. */
        const char *near = nw_is_label(it->s) || nw_is_phrase(it->s) ||
                                   nw_is_file_name(it->s)
                               ? closest_defn(l->doc, it->s)
                               : NULL;
        if (near != NULL) {
            report(l, it->line,
                   "undefined chunk <<%s>>; did you mean <<%s>>?", it->s,
                   near);
        } else {
            report(l, it->line,
                   "undefined chunk <<%s>>; write a literal << in code as @<<",
                   it->s);
        }
    }
}

static void check_items(struct lint *l) {
    const struct nw_doc *doc = l->doc;
    for (size_t i = 0; i < doc->n; ++i) {
        const struct nw_chunk *c = &doc->chunks[i];
        for (size_t j = 0; j < c->n; ++j) {
            const struct nw_item *it = &c->items[j];
            if (check_bytes(l, c, j)) {
                continue;
            }
            const char *s = it->s ? it->s + strspn(it->s, " \t") : NULL;
            if (c->is_code && opens_with_brackets(c, j) &&
                strncmp(s, "<<<", 3) != 0) {
                /* (An escaped launch, @<<<, reads as text "<<<".) */
                report(l, it->line,
                       "malformed chunk header or reference '%s'; a header is "
                       "<<name>>= alone on a line",
                       s);
            } else if (it->kind == NW_USE) {
                check_use(l, c, it);
            }
        }
    }
}

/* The first text of the prose, past blanks, or NULL: where the title should
 * be. */
static const char *first_prose(const struct nw_doc *doc) {
    for (size_t i = 0; i < doc->n; ++i) {
        const struct nw_chunk *c = &doc->chunks[i];
        for (size_t j = 0; j < c->n && !c->is_code; ++j) {
            const char *s = c->items[j].s;
            if (c->items[j].kind == NW_TEXT) {
                if (i == 0 && j == 0 && strncmp(s, kBom, 3) == 0) {
                    s += 3; /* reported by check_saved_as */
                }
                s += strspn(s, " \t");
                if (*s != '\0') {
                    return s;
                }
            }
        }
    }
    return NULL;
}

static int has_title(const struct nw_doc *doc) {
    const char *s = first_prose(doc);
    return s != NULL && strncmp(s, "# ", 2) == 0;
}

/* What the chapter as a whole needs: text, a title, a file root. */
static void check_chapter(struct lint *l, size_t roots) {
    const struct nw_doc *doc = l->doc;
    if (doc->n == 0 || doc->lines == 0) {
        report(l, 1, "the chapter is empty; it needs a '# Title' line, prose "
                     "and at least one file root");
        return;
    }
    if (!has_title(doc)) {
        report(l, 1, "a chapter opens with its title, a line '# Title'");
    }
    if (roots == 0) {
        report(l, doc->lines,
               "the chapter defines no file root such as <<name.cu>>=");
    }
}

/* The citations of chunks that are not this chapter's, [[<<label>>]]: the
 * book as a whole must have them, which the snippets tool checks before
 * anything of the chapter is put in place. */
static void print_cites(const struct nw_doc *doc) {
    for (size_t i = 0; i < doc->n; ++i) {
        const struct nw_chunk *c = &doc->chunks[i];
        for (size_t j = 0; j < c->n && !c->is_code; ++j) {
            if (c->items[j].kind != NW_QUOTE) {
                continue;
            }
            size_t end = nw_quote_end(c, j);
            size_t use = nw_quote_cite(c, j, end);
            const struct nw_item *u = &c->items[use];
            if (use != 0 && nw_find_defn(doc, u->s, 0) < 0) {
                printf("cite\t%s\t%ld\n", u->s, u->line);
            }
            j = end;
        }
    }
}

/* The chapters the prose names as "day N" ("Day 37", "day 32's"), a
 * record each: the book must have a chapter dayN-..., which the snippets
 * tool checks. Quoted code, [[...]], is not prose. */
static void print_days(const struct nw_doc *doc) {
    for (size_t i = 0; i < doc->n; ++i) {
        const struct nw_chunk *c = &doc->chunks[i];
        for (size_t j = 0; j < c->n && !c->is_code; ++j) {
            const struct nw_item *it = &c->items[j];
            if (it->kind == NW_QUOTE) {
                j = nw_quote_end(c, j);
                continue;
            }
            if (it->kind != NW_TEXT) {
                continue;
            }
            for (const char *p = it->s; (p = strpbrk(p, "dD")) != NULL; ++p) {
                const char *q = p + 3;
                if ((p > it->s && isalnum((unsigned char)p[-1])) ||
                    strncasecmp(p, "day", 3) != 0 || *q != ' ' ||
                    !isdigit((unsigned char)q[1])) {
                    continue;
                }
                int n = atoi(q + 1);
                printf("day\t%d\t%ld\n", n, it->line);
            }
        }
    }
}

/* Calls f on every quote and claim of the prose: its text and line. */
static void each_quote(struct lint *l,
                       void (*f)(struct lint *, const char *, long)) {
    const struct nw_doc *doc = l->doc;
    for (size_t i = 0; i < doc->n; ++i) {
        const struct nw_chunk *c = &doc->chunks[i];
        for (size_t j = 0; j < c->n && !c->is_code; ++j) {
            if (c->items[j].kind != NW_QUOTE) {
                continue;
            }
            size_t end = nw_quote_end(c, j);
            char *text = nw_quote_cite(c, j, end) == 0
                             ? nw_quote_text(c, j, end)
                             : NULL;
            if (text != NULL && nw_is_quote(text)) {
                f(l, text, c->items[j].line);
            }
            free(text);
            j = end;
        }
    }
}

/* Where a quote or claim may not stand: in a heading (the title is one),
 * whose id pandoc makes from its text, so that its address, the one its
 * permalink and every contents entry carry, would change with every
 * recording, and whose text the navigation shows without its markup; and
 * inside maths, which cannot hold the HTML a quote is woven as. Tracks, in
 * each chunk of prose, a line's start, code spans and $...$ or $$...$$. */
static void check_quote_places(struct lint *l) {
    const struct nw_doc *doc = l->doc;
    for (size_t i = 0; i < doc->n; ++i) {
        const struct nw_chunk *c = &doc->chunks[i];
        int display = 0, inline_math = 0, tick = 0, heading = 0, start = 1;
        for (size_t j = 0; j < c->n && !c->is_code; ++j) {
            const struct nw_item *it = &c->items[j];
            if (it->kind == NW_NL) {
                inline_math = tick = heading = 0;
                start = 1;
            } else if (it->kind == NW_TEXT) {
                const char *t = it->s;
                if (start) {
                    size_t sp = strspn(t, " ");
                    heading = sp <= 3 && t[sp] == '#';
                    start = t[sp] == '\0';
                }
                for (; *t != '\0'; ++t) {
                    if (*t == '`') {
                        tick = !tick;
                    } else if (tick) {
                        continue;
                    } else if (*t == '\\' && t[1] != '\0') {
                        ++t;
                    } else if (t[0] == '$' && t[1] == '$') {
                        display = !display;
                        ++t;
                    } else if (*t == '$') {
                        inline_math = !inline_math;
                    }
                }
            } else if (it->kind == NW_QUOTE) {
                size_t end = nw_quote_end(c, j);
                char *text = nw_quote_cite(c, j, end) == 0
                                 ? nw_quote_text(c, j, end)
                                 : NULL;
                if (text != NULL && nw_is_quote(text)) {
                    const char *what = text[0] == '?' ? "a claim" : "a quote";
                    if (heading) {
                        report(l, it->line,
                               "%s in a heading, [[%s]]: a heading's id (its "
                               "address, in its permalink and the contents) "
                               "is made from its text and would change with "
                               "every recording, and the navigation shows its "
                               "text cut at the value; put the number in "
                               "the text under the heading",
                               what, text);
                    } else if (display || inline_math) {
                        report(l, it->line,
                               "%s inside maths, [[%s]]: it is woven as HTML, "
                               "which maths cannot hold; close the maths "
                               "before it and open it again after",
                               what, text);
                    }
                }
                free(text);
                start = 0;
                j = end;
            } else {
                start = 0;
            }
        }
    }
}

static void check_quote(struct lint *l, const char *text, long line) {
    struct nw_quote q;
    char err[1024];
    if (nw_quote_parse(text, &q, err, sizeof err) != 0) {
        report(l, line, "%s", err);
    }
    nw_quote_free(&q);
}

static void print_quote(struct lint *l, const char *text, long line) {
    (void)l;
    printf("%s\t%s\t%ld\n", text[0] == '?' ? "claim" : "quote", text, line);
}

/* The description: title, then the file roots and labels in order, then
 * the citations of other chapters' chunks, the chapters named "day N",
 * then the quotes and claims. */
static void print_meta(struct lint *l) {
    const struct nw_doc *doc = l->doc;
    printf("title\t%s\n", first_prose(doc) + 2);
    for (size_t i = 0; i < doc->n; ++i) {
        const struct nw_chunk *c = &doc->chunks[i];
        if (!c->is_code || c->piece != 1) {
            continue;
        }
        if (is_root(doc, c) && nw_is_file_name(c->name)) {
            printf("root\t%s\t%ld\n", c->name, c->line);
        } else if (nw_is_label(c->name)) {
            printf("label\t%s\t%ld\n", c->name, c->line);
        }
    }
    print_cites(doc);
    print_days(doc);
    each_quote(l, print_quote);
}

/* The id pandoc gives a heading (its auto_identifiers: formatting and
 * every character but letters, digits, _ - and . dropped, blanks made
 * hyphens, letters lowercased, everything before the first letter
 * dropped), or the id it names, {#id}. Writes at most size bytes. */
static void heading_id(const char *text, char *out, size_t size) {
    const char *brace = strstr(text, "{#");
    size_t n = 0;
    if (brace != NULL) {
        for (const char *p = brace + 2; *p && *p != '}' && *p != ' ' &&
                                        n + 1 < size; ++p) {
            out[n++] = *p;
        }
        out[n] = '\0';
        return;
    }
    for (const char *p = text; *p && n + 1 < size; ++p) {
        unsigned char ch = (unsigned char)*p;
        if (n == 0 && !isalpha(ch)) {
            continue;
        }
        if (isalnum(ch) || ch == '_' || ch == '-' || ch == '.') {
            out[n++] = (char)tolower(ch);
        } else if (ch == ' ' || ch == '\t') {
            out[n++] = '-';
        }
    }
    out[n] = '\0';
}

/* A heading whose id is one of the chapter's labels: the label's link
 * would land on the heading. */
static void check_heading(struct lint *l, const struct nw_chunk *c,
                          size_t j) {
    const char *s = c->items[j].s;
    size_t hashes = strspn(s, "#");
    if (hashes == 0 || hashes > 6 || s[hashes] != ' ') {
        return;
    }
    char line[1024] = "";
    for (size_t k = j; k < c->n && c->items[k].kind != NW_NL; ++k) {
        const struct nw_item *it = &c->items[k];
        if (it->kind == NW_TEXT || it->kind == NW_USE) {
            strncat(line, it->s, sizeof line - strlen(line) - 1);
        }
    }
    char id[NW_ANCHOR_MAX];
    heading_id(line + hashes + 1, id, sizeof id);
    long defn = nw_find_defn(l->doc, id, 0);
    if (id[0] != '\0' && nw_is_label(id) && defn >= 0) {
        report(l, c->items[j].line,
               "this heading's id is %s, the anchor of the snippet label "
               "<<%s>> (line %ld); name the heading's id, as in '%.*s "
               "Title {#other-id}'",
               id, id, l->doc->chunks[defn].line, (int)hashes, s);
    }
}

static void check_headings(struct lint *l) {
    for (size_t i = 0; i < l->doc->n; ++i) {
        const struct nw_chunk *c = &l->doc->chunks[i];
        for (size_t j = 0; j < c->n && !c->is_code; ++j) {
            if (c->items[j].kind == NW_TEXT &&
                (j == 0 || c->items[j - 1].kind == NW_NL)) {
                check_heading(l, c, j);
            }
        }
    }
}

/* Where markup failed, it has said why, once for each line; in a chapter
 * it could read, the one thing it refuses is a << in prose. Where that <<
 * is within a line (not a chunk header written wrong), this says how to
 * write one, at the first such line: noweb knows no Markdown, so backticks
 * do not protect it. (The pipeline holds an escaped @<< as << too, so the
 * line named is the first that holds one.) */
static void hint_prose_shift(const struct nw_doc *doc) {
    for (size_t i = 0; i < doc->n; ++i) {
        const struct nw_chunk *c = &doc->chunks[i];
        int quoted = 0;
        for (size_t j = 0; j < c->n && !c->is_code; ++j) {
            const struct nw_item *it = &c->items[j];
            if (it->kind == NW_QUOTE || it->kind == NW_ENDQUOTE) {
                quoted = it->kind == NW_QUOTE;
            }
            if (it->kind != NW_TEXT || quoted || !strstr(it->s, "<<") ||
                opens_with_brackets(c, j)) {
                continue;
            }
            fprintf(stderr,
                    "%s:%ld: noweb takes << in prose for a chunk name, even "
                    "between backticks; write a literal << as @<<, or quote "
                    "the code: [[x << 2]]\n",
                    file_of(doc), it->line);
            return;
        }
    }
}

/* A chunk's "@ %def NAME..." line states what it defines, for the
 * identifier index (xref.h): each NAME is an identifier and appears in the
 * chunk's code (finduses marks it there), so that a misspelled or stale
 * name is caught here and not listed as a definition of nothing. */
static void check_defs(struct lint *l) {
    for (size_t i = 0; i < l->doc->n; ++i) {
        const struct nw_chunk *c = &l->doc->chunks[i];
        for (size_t k = 0; k < c->ndefs; ++k) {
            const struct nw_ident *d = &c->defs[k];
            if (!(d->flags & NW_ID_STATED)) {
                continue;
            }
            size_t u = 0;
            while (u < c->nuses && strcmp(c->uses[u].name, d->name) != 0) {
                ++u;
            }
            if (!nw_is_ident(d->name)) {
                report(l, d->line,
                       "@ %%def %s: not an identifier (letters, digits and _)",
                       d->name);
            } else if (nw_is_cxx_word(d->name)) {
                report(l, d->line,
                       "@ %%def %s: that is one of C++'s own words, not a "
                       "name the chunk defines; name only its identifiers",
                       d->name);
            } else if (u == c->nuses) {
                report(l, d->line,
                       "@ %%def %s: the chunk <<%s>> above does not have it "
                       "in its code; name only what the chunk defines",
                       d->name, c->name);
            }
        }
    }
}

/* Has markup said that it failed? It ends such a pipeline with an @fatal
 * line, between chunks, where nw_read does not look for one. */
static int markup_failed(const char *pipeline) {
    return strncmp(pipeline, "@fatal", 6) == 0 ||
           strstr(pipeline, "\n@fatal") != NULL;
}

/* Reads the pipeline. Returns 0, or -1, with doc empty, having said what
 * is wrong where markup has not. */
static int load(FILE *in, struct nw_doc *doc) {
    char err[1024] = "chapter-meta: cannot read the pipeline";
    size_t len;
    char *text = nw_slurp(in, &len);
    FILE *f = ferror(in) ? NULL : fmemopen(text, len, "r");
    int status = -1;
    memset(doc, 0, sizeof *doc);
    if (f != NULL) {
        status = nw_read(f, doc, err, sizeof err);
        fclose(f);
    }
    if (status == 0 && markup_failed(text)) {
        status = -1;
        err[0] = '\0';
    }
    free(text);
    if (status == 0) {
        return 0;
    }
    if (err[0] != '\0') {
        fprintf(stderr, "%s\n", err);
    } else {
        hint_prose_shift(doc);
    }
    nw_free(doc);
    return -1;
}

/* ----------------------------------------------------------------- */
/* Reading descriptions back (tools/lib/meta.h), for tangle.sh and make */

static int put_root(void *ctx, const struct nw_meta_record *r) {
    (void)ctx;
    if (strcmp(r->kind, "root") == 0) {
        printf("%s\n", r->value);
    }
    return 0;
}

static int put_tsv_record(void *ctx, const struct nw_meta_record *r) {
    (void)ctx;
    if (strcmp(r->kind, "title") == 0 || strcmp(r->kind, "root") == 0 ||
        strcmp(r->kind, "label") == 0) {
        printf("%s\t%s\n", r->kind, r->value);
    }
    return 0;
}

struct root_at {
    const char *root;
    long line;
};

static int find_root(void *ctx, const struct nw_meta_record *r) {
    struct root_at *at = ctx;
    if (strcmp(r->kind, "root") == 0 && strcmp(r->value, at->root) == 0) {
        at->line = r->line;
        return 1;
    }
    return 0;
}

static int ends_with(const char *s, const char *end) {
    size_t n = strlen(s), m = strlen(end);
    return n >= m && strcmp(s + n - m, end) == 0;
}

/* Each root of ch of the kind want (0 all, 'p' a program's NAME.cu, 'f' a
 * figure's fig-NAME.cpp), as make names it, with a blank between. */
static void put_roots_of(const struct nw_chapter *ch, int want) {
    int first = 1;
    for (size_t i = 0; i < ch->nroots; ++i) {
        const char *r = ch->roots[i].name;
        size_t n = strlen(r);
        if (want == 'p' && ends_with(r, ".cu")) {
            printf("%s%.*s", first ? "" : " ", (int)(n - 3), r);
        } else if (want == 'f' && strncmp(r, "fig-", 4) == 0 && n >= 8 &&
                   ends_with(r, ".cpp")) {
            printf("%s%.*s", first ? "" : " ", (int)(n - 8), r + 4);
        } else if (want == 0) {
            printf("%s%s", first ? "" : " ", r);
        } else {
            continue;
        }
        first = 0;
    }
    putchar('\n');
}

/* make's view of the book: each chapter's roots, programs and figures. */
static int put_book_mk(char *const *paths, int n) {
    for (int i = 0; i < n; ++i) {
        struct nw_chapter ch;
        if (nw_meta_read(paths[i], &ch) != 0) {
            return 1;
        }
        printf("ROOTS.%s := ", ch.name);
        put_roots_of(&ch, 0);
        printf("PROGS.%s := ", ch.name);
        put_roots_of(&ch, 'p');
        printf("FIGS.%s := ", ch.name);
        put_roots_of(&ch, 'f');
        nw_meta_free(&ch);
    }
    return 0;
}

static int read_back(int argc, char **argv) {
    const char *cmd = argv[1];
    int status = 0;
    if (strcmp(cmd, "roots") == 0 || strcmp(cmd, "tsv") == 0) {
        for (int i = 2; i < argc && status == 0; ++i) {
            status = nw_meta_each(argv[i], cmd[0] == 'r' ? put_root
                                                         : put_tsv_record,
                                  NULL) != 0;
        }
    } else if (strcmp(cmd, "root-line") == 0 && argc == 4) {
        struct root_at at = {argv[3], 0};
        status = nw_meta_each(argv[2], find_root, &at) < 0;
        if (status == 0 && at.line == 0) {
            nw_error(argv[2], 0, "no root %s with its line", argv[3]);
            status = 1;
        } else if (status == 0) {
            printf("%ld\n", at.line);
        }
    } else if (strcmp(cmd, "book-mk") == 0) {
        status = put_book_mk(argv + 2, argc - 2);
    } else {
        fprintf(stderr,
                "usage: markup CHAPTER.nw | %s\n"
                "       %s roots|tsv DESCRIPTION...\n"
                "       %s root-line DESCRIPTION ROOT\n"
                "       %s book-mk DESCRIPTION...\n",
                argv[0], argv[0], argv[0], argv[0]);
        return 2;
    }
    return status | nw_flush_stdout("chapter-meta");
}

int main(int argc, char **argv) {
    if (argc != 1) {
        return read_back(argc, argv);
    }
    struct nw_doc doc;
    if (load(stdin, &doc) != 0) {
        return 1;
    }
    struct lint l = {&doc, 0, 0};
    check_saved_as(&l);
    check_items(&l);
    check_chapter(&l, check_names(&l));
    check_cycles(&l);
    check_headings(&l);
    check_defs(&l);
    each_quote(&l, check_quote);
    check_quote_places(&l);
    if (l.errors > MAX_ERRORS) {
        fprintf(stderr, "%s:%ld: %d more problems, from this one on, not "
                "shown\n",
                file_of(&doc), l.hidden_from, l.errors - MAX_ERRORS);
    }
    if (l.errors == 0) {
        print_meta(&l);
    }
    int status = l.errors ? 1 : 0;
    nw_free(&doc);
    return status;
}
