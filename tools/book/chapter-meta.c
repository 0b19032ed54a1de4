/* nwlint: check one chapter's noweb pipeline and describe it.
 *
 * Usage: markup chapters/x.nw | nwlint
 *
 * Fails, with one line per problem in the form file:line: message, on what
 * notangle lets through or gets wrong silently: a reference to an undefined
 * chunk, a chunk defined but never used that is not a file root (a
 * misspelled name), a kernel launch written <<< where noweb needs @<<<, a
 * file root of a type the book does not build, a chunk that includes
 * itself, a name that is neither a label nor a phrase, a chapter with no
 * title or no code, a malformed chunk header, a line over 64 KiB, and text
 * that is not UTF-8. Where markup itself failed (it says why on stderr),
 * nwlint only fails.
 *
 * On success it prints the chapter's description, one tab-separated record
 * a line:
 *   title  TEXT
 *   root   FILE   LINE
 *   label  LABEL  LINE
 */
#include "nwpipe.h"

#include <stdlib.h>
#include <string.h>

#define MAX_ERRORS 20
#define MAX_LINE 65536
#define MAX_LINE_TEXT "65536"

struct lint {
    const struct nw_doc *doc;
    int errors;
};

static void report(struct lint *l, long line, const char *fmt, const char *a,
                   const char *b) {
    if (l->errors++ >= MAX_ERRORS) {
        return;
    }
    fprintf(stderr, "%s:%ld: ", l->doc->file ? l->doc->file : "-", line);
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
}

static size_t min3(size_t a, size_t b, size_t c) {
    size_t m = a < b ? a : b;
    return m < c ? m : c;
}

/* Edit distance, for "did you mean". Names longer than 255 bytes are not
 * compared. */
static size_t distance(const char *a, const char *b) {
    size_t la = strlen(a), lb = strlen(b);
    if (la > 255 || lb > 255) {
        return (size_t)-1;
    }
    size_t row[256];
    for (size_t j = 0; j <= lb; ++j) {
        row[j] = j;
    }
    for (size_t i = 1; i <= la; ++i) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; ++j) {
            size_t up = row[j];
            row[j] = min3(row[j] + 1, row[j - 1] + 1,
                          diag + (a[i - 1] != b[j - 1]));
            diag = up;
        }
    }
    return row[lb];
}

static const char *closest_defn(const struct nw_doc *doc, const char *name) {
    const char *best = NULL;
    size_t best_d = 4;
    for (size_t i = 0; i < doc->n; ++i) {
        const struct nw_chunk *c = &doc->chunks[i];
        if (c->is_code && c->name) {
            size_t d = distance(name, c->name);
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

static void check_names(struct lint *l) {
    const struct nw_doc *doc = l->doc;
    for (size_t i = 0; i < doc->n; ++i) {
        const struct nw_chunk *c = &doc->chunks[i];
        if (!c->is_code || c->piece != 1) {
            continue;
        }
        const char *name = c->name;
        int used = nw_is_used(doc, name);
        if (name[0] == '\0') {
            report(l, c->line, "a chunk with an empty name%s%s", "", "");
        } else if (nw_is_file_name(name) && !used) {
            if (!nw_is_known_file_type(name)) {
                report(l, c->line,
                       "file root <<%s>> is not a type the book builds "
                       "(.cu, .cuh, .h)%s",
                       name, "");
            }
        } else if (!used) {
            report(l, c->line,
                   "chunk <<%s>> is defined but never used and is not a file "
                   "root; is its name misspelled?%s",
                   name, "");
        } else if (!nw_is_label(name) && !nw_is_phrase(name) &&
                   !nw_is_file_name(name)) {
            report(l, c->line,
                   "chunk name <<%s>> is neither a snippet label (lowercase "
                   "kebab-case) nor a phrase (words with blanks)%s",
                   name, "");
        }
    }
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

static void check_items(struct lint *l, int *title_seen) {
    const struct nw_doc *doc = l->doc;
    for (size_t i = 0; i < doc->n; ++i) {
        const struct nw_chunk *c = &doc->chunks[i];
        for (size_t j = 0; j < c->n; ++j) {
            const struct nw_item *it = &c->items[j];
            if (it->s != NULL && bad_utf8(it->s) >= 0) {
                report(l, it->line,
                       "text that is not UTF-8; save the chapter as UTF-8%s%s",
                       "", "");
                continue;
            }
            if (it->s != NULL && strlen(it->s) > MAX_LINE) {
                char len[32];
                snprintf(len, sizeof len, "%zu", strlen(it->s));
                report(l, it->line,
                       "a line of %s bytes; the book takes lines of up to "
                       "%s bytes",
                       len, MAX_LINE_TEXT);
                continue;
            }
            if (it->kind == NW_TEXT && c->is_code && blank_so_far(c, j) &&
                strncmp(it->s + strspn(it->s, " \t"), "<<", 2) == 0 &&
                strncmp(it->s + strspn(it->s, " \t"), "<<<", 3) != 0) {
                /* (An escaped launch, @<<<, reads as text "<<<".) */
                report(l, it->line,
                       "malformed chunk header or reference '%s'; a header is "
                       "<<name>>= alone on a line%s",
                       it->s + strspn(it->s, " \t"), "");
            }
            if (it->kind == NW_TEXT && !c->is_code && !*title_seen) {
                const char *s = it->s;
                while (*s == ' ' || *s == '\t') {
                    ++s;
                }
                if (*s != '\0') {
                    *title_seen = strncmp(s, "# ", 2) == 0 ? 1 : -1;
                }
            }
            if (it->kind != NW_USE) {
                continue;
            }
            if (it->s[0] == '<') {
                report(l, it->line,
                       "kernel launch written <<<; noweb reads it as a chunk "
                       "reference: write kernel@<<<grid, block>>>(...)%s%s",
                       "", "");
            } else if (c->is_code && nw_find_defn(doc, it->s, 0) < 0) {
                const char *near = closest_defn(doc, it->s);
                if (near != NULL) {
                    report(l, it->line,
                           "undefined chunk <<%s>>; did you mean <<%s>>?",
                           it->s, near);
                } else {
                    report(l, it->line, "undefined chunk <<%s>>%s", it->s, "");
                }
            }
        }
    }
}

int main(int argc, char **argv) {
    if (argc != 1) {
        fprintf(stderr, "usage: markup CHAPTER.nw | %s\n", argv[0]);
        return 2;
    }
    struct nw_doc doc;
    if (nw_load(stdin, &doc) != 0) {
        return 1;
    }
    struct lint l = {&doc, 0};
    int title_seen = 0;
    check_items(&l, &title_seen);
    check_names(&l);

    size_t roots = 0;
    for (size_t i = 0; i < doc.n; ++i) {
        const struct nw_chunk *c = &doc.chunks[i];
        roots += c->is_code && c->piece == 1 && nw_is_file_name(c->name) &&
                 !nw_is_used(&doc, c->name);
    }
    if (doc.n == 0 || doc.lines == 0) {
        report(&l, 1, "the chapter is empty; it needs a '# Title' line, prose "
                      "and at least one file root%s%s", "", "");
    } else {
        if (title_seen != 1) {
            report(&l, 1, "a chapter opens with its title, a line '# Title'%s%s",
                   "", "");
        }
        if (roots == 0) {
            report(&l, doc.lines,
                   "the chapter defines no file root such as <<name.cu>>=%s%s",
                   "", "");
        }
    }
    char *state = calloc(doc.n ? doc.n : 1, 1);
    if (state == NULL) {
        fprintf(stderr, "out of memory\n");
        return 2;
    }
    for (size_t i = 0; i < doc.n; ++i) {
        const struct nw_chunk *c = &doc.chunks[i];
        if (c->is_code && c->piece == 1) {
            find_cycle(&l, c->name, state);
        }
    }
    free(state);

    if (l.errors > MAX_ERRORS) {
        fprintf(stderr, "%s: %d more problems not shown\n", doc.file,
                l.errors - MAX_ERRORS);
    }
    if (l.errors == 0) {
        int title_done = 0;
        for (size_t i = 0; i < doc.n && !title_done; ++i) {
            const struct nw_chunk *c = &doc.chunks[i];
            for (size_t j = 0; j < c->n && !c->is_code; ++j) {
                const char *s = c->items[j].s;
                if (c->items[j].kind == NW_TEXT && strncmp(s, "# ", 2) == 0) {
                    printf("title\t%s\n", s + 2);
                    title_done = 1;
                    break;
                }
            }
        }
        for (size_t i = 0; i < doc.n; ++i) {
            const struct nw_chunk *c = &doc.chunks[i];
            if (!c->is_code || c->piece != 1) {
                continue;
            }
            if (nw_is_file_name(c->name) && !nw_is_used(&doc, c->name)) {
                printf("root\t%s\t%ld\n", c->name, c->line);
            } else if (nw_is_label(c->name)) {
                printf("label\t%s\t%ld\n", c->name, c->line);
            }
        }
    }
    int status = l.errors ? 1 : 0;
    nw_free(&doc);
    return status;
}
