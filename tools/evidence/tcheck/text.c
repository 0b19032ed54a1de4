/* text.c: a file read as lines, normalised as tcheck compares them (no
 * line end, no trailing blanks), as many of them as the limits keep (an
 * expectation whole, an output as far as its expectation needs it); a
 * line written back as a report shows it; paths.
 */
#include "tcheck.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The line being read. */
struct line_state {
    size_t start; /* where it starts in buf */
    size_t raw;   /* its bytes so far, kept or not */
    size_t at;    /* its offset in the file */
    int keep, cut;
};

int is_blank(char c) { return c == ' ' || c == '\t'; }

int str_eq(struct str a, struct str b) {
    return a.n == b.n && (a.n == 0 || memcmp(a.p, b.p, a.n) == 0);
}

int str_is(struct str a, const char *s) {
    struct str b = {s, strlen(s)};
    return str_eq(a, b);
}

int is_digit(char c) { return c >= '0' && c <= '9'; }

static void begin_line(struct text *t, struct line_state *ls,
                       const struct limits *lim, size_t at) {
    ls->start = t->size;
    ls->raw = 0;
    ls->at = at;
    ls->cut = 0;
    ls->keep = !t->more_lines && t->nlines < lim->lines && t->size < lim->bytes;
}

static void add_bytes(struct text *t, struct line_state *ls, const char *p,
                      size_t n) {
    ls->raw += n;
    if (!ls->keep) {
        return;
    }
    size_t have = t->size - ls->start;
    if (have + n > kMaxLine) {
        n = kMaxLine - have;
        ls->cut = 1;
    }
    t->buf = nw_grow(t->buf, &t->cap, t->size + n, 1);
    memcpy(t->buf + t->size, p, n);
    t->size += n;
}

/* Room for one more line record. */
static void reserve_line(struct text *t) {
    if (t->nlines < t->lcap) {
        return;
    }
    size_t cap = t->lcap;
    t->line = nw_grow(t->line, &cap, t->nlines + 1, sizeof *t->line);
    t->at = nw_xrealloc(t->at, cap * sizeof *t->at);
    t->cut = nw_xrealloc(t->cut, cap);
    t->lcap = cap;
}

/* A line ends at '\n'; a '\r' before it (CRLF) and trailing blanks are
 * dropped. Its bytes stay in buf, each line right after the one before,
 * so that the pointers can be set when all is read (buf moves as it
 * grows). */
static void end_line(struct text *t, struct line_state *ls) {
    if (!ls->keep) {
        t->more_lines++;
        t->more_bytes += ls->raw + 1;
        return;
    }
    size_t end = t->size;
    while (!ls->cut && end > ls->start &&
           (is_blank(t->buf[end - 1]) || t->buf[end - 1] == '\r')) {
        end--;
    }
    t->size = end;
    reserve_line(t);
    t->line[t->nlines].p = NULL;
    t->line[t->nlines].n = end - ls->start;
    t->at[t->nlines] = ls->at;
    t->cut[t->nlines] = (unsigned char)ls->cut;
    t->nlines++;
}

/* Read f as lines, keeping what lim allows. A last line without '\n'
 * counts as a line unless it is empty. Returns 0, or -1 after saying why
 * on stderr. */
static int read_text(FILE *f, struct text *t, struct limits lim) {
    char chunk[1 << 16];
    struct line_state ls;
    size_t pos = 0, got;
    begin_line(t, &ls, &lim, 0);
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
        const char *p = chunk, *end = chunk + got;
        while (p < end) {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            size_t n = (size_t)((nl ? nl : end) - p);
            add_bytes(t, &ls, p, n);
            pos += n;
            p += n;
            if (nl) {
                end_line(t, &ls);
                begin_line(t, &ls, &lim, ++pos);
                p++;
            }
        }
    }
    if (ferror(f)) {
        fprintf(stderr, "%s: cannot read: %s\n", t->path, strerror(errno));
        return -1;
    }
    if (ls.raw > 0) {
        t->unterminated = 1;
        end_line(t, &ls);
    }
    size_t off = 0;
    for (size_t i = 0; i < t->nlines; i++) {
        t->line[i].p = t->buf + off;
        off += t->line[i].n;
    }
    return 0;
}

static const struct limits kNoLimits = {SIZE_MAX, SIZE_MAX};

int load_text(const char *path, struct text *t, struct limits lim) {
    memset(t, 0, sizeof *t);
    t->path = path;
    t->first = 1;
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: cannot open: %s\n", path, strerror(errno));
        return -1;
    }
    int rc = read_text(f, t, lim);
    fclose(f);
    return rc;
}

void free_text(struct text *t) {
    free(t->buf);
    free(t->line);
    free(t->at);
    free(t->cut);
    memset(t, 0, sizeof *t);
}

/* What of an output the expectation e needs kept (main.c says why). */
struct limits output_limits(const struct text *e) {
    struct limits lim = {kSlackLines, kBaseBytes};
    if (e->nlines < (SIZE_MAX - kSlackLines) / 2) {
        lim.lines += 2 * e->nlines;
    }
    if (e->size < (SIZE_MAX - kBaseBytes) / 4) {
        lim.bytes += 4 * e->size;
    }
    return lim;
}

/* Where the first n bytes of s stop being UTF-8: the offset of the first
 * byte of a sequence that is not (overlong, a surrogate, past U+10FFFF,
 * or cut short), or n. A sequence cut short by the end of s counts as
 * UTF-8 where cut is set (a line cut at kMaxLine). */
static size_t utf8_prefix(const unsigned char *s, size_t n, int cut) {
    static const unsigned long least[] = {0, 0x80, 0x800, 0x10000};
    size_t i = 0;
    while (i < n) {
        size_t more;
        unsigned long cp;
        if (s[i] < 0x80) {
            i++;
            continue;
        } else if ((s[i] & 0xE0) == 0xC0) {
            more = 1, cp = s[i] & 0x1Fu;
        } else if ((s[i] & 0xF0) == 0xE0) {
            more = 2, cp = s[i] & 0x0Fu;
        } else if ((s[i] & 0xF8) == 0xF0) {
            more = 3, cp = s[i] & 0x07u;
        } else {
            return i;
        }
        size_t k = 1;
        for (; k <= more && i + k < n; k++) {
            if ((s[i + k] & 0xC0) != 0x80) {
                return i;
            }
            cp = cp << 6 | (s[i + k] & 0x3Fu);
        }
        if (k <= more) {
            return cut ? n : i;
        }
        if (cp < least[more] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
            return i;
        }
        i += more + 1;
    }
    return n;
}

/* Evidence is UTF-8 text of complete lines: a file that is not, or whose
 * last line has no newline (a file cut short, its last number with it),
 * is said on f (when not NULL) at its first such line, with fix, what
 * mends it. Returns the number of problems. */
int text_problems(const struct text *t, const char *fix, FILE *f) {
    int problems = 0;
    for (size_t i = 0; i < t->nlines; i++) {
        const unsigned char *p = (const unsigned char *)t->line[i].p;
        size_t at = utf8_prefix(p, t->line[i].n, t->cut[i]);
        if (at < t->line[i].n) {
            if (f) {
                fprintf(f, "%s:%zu: byte 0x%02x at column %zu is not UTF-8; "
                        "evidence is UTF-8 text: %s\n", t->path, t->first + i,
                        p[at], at + 1, fix);
            }
            problems++;
            break;
        }
    }
    if (t->unterminated && !t->more_lines) {
        if (f) {
            fprintf(f, "%s:%zu: the last line has no newline, as in a file cut "
                    "short; %s\n", t->path,
                    t->first + t->nlines - 1, fix);
        }
        problems++;
    }
    return problems;
}

/* An expectation: read whole, every line at most kMaxLine bytes, UTF-8
 * text of complete lines. */
int load_expect(const char *path, struct text *e) {
    if (load_text(path, e, kNoLimits) != 0) {
        return -1;
    }
    if (text_problems(e, "save it as UTF-8, ending with a newline", stderr)) {
        free_text(e);
        return -1;
    }
    for (size_t i = 0; i < e->nlines; i++) {
        if (e->cut[i]) {
            fprintf(stderr, "%s:%zu: a line of more than %zu bytes\n", path,
                    e->first + i, kMaxLine);
            free_text(e);
            return -1;
        }
    }
    return 0;
}

/* An output, as much of it as the expectation e needs. */
int load_output(const char *path, const struct text *e, struct text *o) {
    return load_text(path, o, output_limits(e));
}

/* Bytes a program printed, as a report shows them: a control character
 * or a NUL as \xNN, at most kShowBytes of them. */
void put_str(FILE *f, struct str s) {
    size_t n = s.n < kShowBytes ? s.n : kShowBytes;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s.p[i];
        if ((c < 0x20 && c != '\t') || c == 0x7f) {
            fprintf(f, "\\x%02x", c);
        } else {
            fputc(c, f);
        }
    }
    if (n < s.n) {
        fprintf(f, "... (%zu bytes more)", s.n - n);
    }
}

void put_line(FILE *f, const char *prefix, struct str s) {
    fputs(prefix, f);
    put_str(f, s);
    fputc('\n', f);
}

/* A line as it is: for output that is text meant to be read again. */
void put_raw(FILE *f, struct str s) {
    if (s.n) {
        fwrite(s.p, 1, s.n, f);
    }
    fputc('\n', f);
}

/* "DIR/NAMESUFFIX", allocated. */
char *path_of(const char *dir, const char *name, const char *sfx) {
    size_t size = strlen(dir) + strlen(name) + strlen(sfx) + 2;
    char *p = nw_xrealloc(NULL, size);
    snprintf(p, size, "%s/%s%s", dir, name, sfx);
    return p;
}

int is_file(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}
