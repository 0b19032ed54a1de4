/* transcript.c: a transcript read, its header's values checked; the
 * names a transcript goes by (its GPU's slug, its program's directory);
 * and the reader the book's tools use (transcript.h).
 */
#include "tcheck.h"
#include "transcript.h"

#include <stdlib.h>
#include <string.h>

static int all_digits(struct str s) {
    if (!s.n) {
        return 0;
    }
    for (size_t i = 0; i < s.n; i++) {
        if (!is_digit(s.p[i])) {
            return 0;
        }
    }
    return 1;
}

/* "D+.D+" */
static int is_version(struct str s) {
    const char *dot = memchr(s.p, '.', s.n);
    if (!dot) {
        return 0;
    }
    struct str a = {s.p, (size_t)(dot - s.p)};
    struct str b = {dot + 1, s.n - a.n - 1};
    return all_digits(a) && all_digits(b);
}

/* YYYY-MM-DDTHH:MM:SSZ */
static int is_date(struct str s) {
    static const char kShape[] = "dddd-dd-ddTdd:dd:ddZ";
    if (s.n != sizeof kShape - 1) {
        return 0;
    }
    for (size_t i = 0; i < s.n; i++) {
        if (kShape[i] == 'd' ? !is_digit(s.p[i]) : s.p[i] != kShape[i]) {
            return 0;
        }
    }
    return 1;
}

/* A short hex commit, optionally "-dirty". */
static int is_commit(struct str s) {
    size_t n = s.n;
    if (n > 6 && memcmp(s.p + n - 6, "-dirty", 6) == 0) {
        n -= 6;
    }
    if (n < 4 || n > 40) {
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        if (!is_digit(s.p[i]) && !(s.p[i] >= 'a' && s.p[i] <= 'f')) {
            return 0;
        }
    }
    return 1;
}

static int is_name(struct str s) {
    if (!s.n) {
        return 0;
    }
    for (size_t i = 0; i < s.n; i++) {
        char c = s.p[i];
        if (!(is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              c == '_' || c == '-' || c == '.')) {
            return 0;
        }
    }
    return 1;
}

static int is_hex(char c) {
    return is_digit(c) || (c >= 'a' && c <= 'f');
}

/* s holds n lowercase hexadecimal digits at p. */
static int hex_at(struct str s, size_t p, size_t n) {
    if (p > s.n || s.n - p < n) {
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        if (!is_hex(s.p[p + i])) {
            return 0;
        }
    }
    return 1;
}

/* Read a fingerprint value, "HASH (NAME HASH, NAME HASH, ...)": the whole
 * hash (kFpWhole digits) and each part (kFpPart digits), names holding no
 * blank, comma or parenthesis. Calls each(part, arg) for every part where
 * each is not NULL. Returns the number of parts, or -1 where it is not
 * well formed. */
long read_fingerprint(struct str v, struct str *whole,
                             void (*each)(const struct fp_part *, void *),
                             void *arg) {
    if (!hex_at(v, 0, kFpWhole) || v.n < kFpWhole + 3 ||
        memcmp(v.p + kFpWhole, " (", 2) != 0 || v.p[v.n - 1] != ')') {
        return -1;
    }
    if (whole) {
        whole->p = v.p;
        whole->n = kFpWhole;
    }
    long parts = 0;
    size_t i = kFpWhole + 2, end = v.n - 1;
    while (i < end) {
        size_t j = i;
        while (j < end && v.p[j] != ' ' && v.p[j] != ',' && v.p[j] != '(' &&
               v.p[j] != ')') {
            j++;
        }
        if (j == i || j >= end || v.p[j] != ' ' || !hex_at(v, j + 1, kFpPart)) {
            return -1;
        }
        struct fp_part part = {{v.p + i, j - i}, {v.p + j + 1, kFpPart}};
        if (each) {
            each(&part, arg);
        }
        parts++;
        i = j + 1 + kFpPart;
        if (i == end) {
            break;
        }
        if (end - i < 3 || memcmp(v.p + i, ", ", 2) != 0) {
            return -1;
        }
        i += 2;
    }
    return parts >= 3 ? parts : -1;
}

static int is_fingerprint(struct str v) {
    return read_fingerprint(v, NULL, NULL, NULL) >= 0;
}

/* Why a header value is not well formed, or NULL. */
const char *bad_value(int key, struct str v) {
    if (!v.n) {
        return "is empty";
    }
    if (is_blank(v.p[0])) {
        return "starts with a blank";
    }
    for (size_t i = 0; i < v.n; i++) {
        if ((unsigned char)v.p[i] < 0x20 || v.p[i] == 0x7f) {
            return "holds a control character";
        }
    }
    switch (key) {
    case kProgram:
        return is_name(v) ? NULL : "is not a program name";
    case kDate:
        return is_date(v) ? NULL
                          : "is not a UTC date like 2026-01-31T12:00:00Z";
    case kCapability:
        return is_version(v) ? NULL : "is not MAJOR.MINOR";
    case kSms:
        return all_digits(v) ? NULL : "is not a whole number";
    case kRuntime:
        return is_version(v) ? NULL : "is not MAJOR.MINOR";
    case kCommit:
        return is_commit(v) ? NULL : "is not a short hexadecimal commit";
    case kFingerprint:
        return is_fingerprint(v)
                   ? NULL
                   : "is not HASH (FILE HASH, ..., compile HASH, nvcc HASH)";
    default:
        return NULL;
    }
}

/* The header line i: its value for key i, or a problem said on f (when
 * not NULL). Returns the number of problems. */
static int read_key(struct transcript *tr, size_t i, FILE *f) {
    const struct text *t = &tr->file;
    size_t klen = strlen(kKeys[i]);
    struct str l = t->line[i];
    if (l.n < klen + 2 || memcmp(l.p, kKeys[i], klen) != 0 ||
        l.p[klen] != ':' || l.p[klen + 1] != ' ') {
        if (f) {
            fprintf(f, "%s:%zu: expected \"%s: ...\" here, header line %zu\n",
                    t->path, i + 1, kKeys[i], i + 1);
        }
        return 1;
    }
    tr->value[i].p = l.p + klen + 2;
    tr->value[i].n = l.n - klen - 2;
    const char *why = bad_value((int)i, tr->value[i]);
    if (why && f) {
        fprintf(f, "%s:%zu: %s %s\n", t->path, i + 1, kKeys[i], why);
    }
    return why != NULL;
}

/* The output: a view of the lines after the separator line sep. */
static void set_body(struct transcript *tr, size_t sep) {
    const struct text *t = &tr->file;
    size_t start = sep < t->nlines ? sep + 1 : t->nlines;
    struct text *body = &tr->body;
    body->path = t->path;
    body->line = t->line + start;
    body->at = t->at + start;
    body->cut = t->cut + start;
    body->nlines = t->nlines - start;
    body->first = start + 1;
    body->more_lines = t->more_lines;
    body->more_bytes = t->more_bytes;
    tr->offset = 0;
    if (start < t->nlines) {
        tr->offset = t->at[start];
    } else if (sep < t->nlines) {
        tr->offset = t->at[sep] + t->line[sep].n + 1; /* no output */
    }
}

/* text_problems of a transcript, evidence/PROG/GPU.txt, whose fix is to
 * record PROG again. */
static int transcript_problems(const struct text *t, FILE *f) {
    struct str prog = dir_name(t->path);
    char fix[200];
    if (prog.n && prog.n < 60) {
        snprintf(fix, sizeof fix, "record it again (make record PROG=%.*s, "
                 "then make accept PROG=%.*s)", (int)prog.n, prog.p,
                 (int)prog.n, prog.p);
    } else {
        snprintf(fix, sizeof fix, "record it again");
    }
    return text_problems(t, fix, f);
}

/* Read a transcript, as much of its output as lim keeps, saying on f (when
 * not NULL), as "file:line: message", everything wrong with its header.
 * Returns the number of problems, or -1 when the file cannot be read. */
int load_transcript(const char *path, struct transcript *tr,
                           struct limits lim, FILE *f) {
    memset(tr, 0, sizeof *tr);
    if (lim.lines < SIZE_MAX - kNumKeys - 1) {
        lim.lines += kNumKeys + 1;
    }
    if (load_text(path, &tr->file, lim) != 0) {
        return -1;
    }
    const struct text *t = &tr->file;
    size_t sep = 0;
    while (sep < t->nlines && !str_is(t->line[sep], kSeparator)) {
        sep++;
    }
    tr->separated = sep < t->nlines;
    int problems = !tr->separated;
    if (problems && f) {
        fprintf(f, "%s:%zu: no \"%s\" line ends the header\n", path,
                t->nlines ? t->nlines : 1, kSeparator);
    }
    for (size_t i = 0; i < kNumKeys; i++) {
        if (i < sep) {
            problems += read_key(tr, i, f);
            continue;
        }
        if (i >= kRequiredKeys) {
            break;
        }
        if (f) {
            fprintf(f, "%s:%zu: the header has no \"%s:\" line\n", path,
                    sep + 1, kKeys[i]);
        }
        problems++;
    }
    if (sep != t->nlines && sep > kNumKeys) {
        if (f) {
            fprintf(f, "%s:%zu: unknown header line\n", path,
                    (size_t)kNumKeys + 1);
        }
        problems++;
    }
    set_body(tr, sep);
    return problems + transcript_problems(t, f);
}

void free_transcript(struct transcript *tr) { free_text(&tr->file); }

/* ------------------------------------------------------------------ */
/* Names                                                                */

/* The slug of a GPU name: lowercase, each run of other characters one
 * '-', none at either end. "NVIDIA H200" -> "nvidia-h200". */
char *slug_of(struct str name) {
    char *s = nw_xrealloc(NULL, name.n + 1);
    size_t n = 0;
    int dash = 0;
    for (size_t i = 0; i < name.n; i++) {
        char c = name.p[i];
        if (c >= 'A' && c <= 'Z') {
            c = (char)(c - 'A' + 'a');
        }
        if (is_digit(c) || (c >= 'a' && c <= 'z')) {
            if (dash && n) {
                s[n++] = '-';
            }
            s[n++] = c;
            dash = 0;
        } else {
            dash = 1;
        }
    }
    s[n] = '\0';
    return s;
}

/* The last path component of p, without suffix sfx when it ends so. */
struct str base_name(const char *p, const char *sfx) {
    const char *slash = strrchr(p, '/');
    struct str s = {slash ? slash + 1 : p, 0};
    s.n = strlen(s.p);
    size_t k = strlen(sfx);
    if (s.n > k && memcmp(s.p + s.n - k, sfx, k) == 0) {
        s.n -= k;
    }
    return s;
}

/* The name of the directory holding p ("" if none). */
struct str dir_name(const char *p) {
    const char *end = strrchr(p, '/');
    struct str s = {p, 0};
    if (!end) {
        return s;
    }
    const char *start = end;
    while (start > p && start[-1] != '/') {
        start--;
    }
    s.p = start;
    s.n = (size_t)(end - start);
    return s;
}

/* ------------------------------------------------------------------ */
/* The reader the book's tools use (transcript.h)                       */

struct transcript *transcript_read(const char *path) {
    struct transcript *tr = nw_xrealloc(NULL, sizeof *tr);
    struct limits lim = {kSlackLines, kBaseBytes};
    if (load_transcript(path, tr, lim, NULL) < 0) {
        free(tr);
        return NULL;
    }
    if (transcript_problems(&tr->file, stderr)) {
        free_transcript(tr);
        free(tr);
        return NULL;
    }
    if (!tr->separated) {
        fprintf(stderr,
                "%s:%zu: no \"%s\" line ends the header; not a "
                "transcript\n",
                path, tr->file.nlines ? tr->file.nlines : 1, kSeparator);
        free_transcript(tr);
        free(tr);
        return NULL;
    }
    return tr;
}

const char *transcript_value(const struct transcript *tr, const char *key,
                             size_t *len) {
    for (size_t i = 0; i < kNumKeys; i++) {
        if (strcmp(key, kKeys[i]) == 0 && tr->value[i].p) {
            *len = tr->value[i].n;
            return tr->value[i].p;
        }
    }
    *len = 0;
    return NULL;
}

size_t transcript_lines(const struct transcript *tr) { return tr->body.nlines; }

const char *transcript_line(const struct transcript *tr, size_t i, size_t *len,
                            long *lineno) {
    *len = tr->body.line[i].n;
    *lineno = (long)(tr->body.first + i);
    return tr->body.line[i].p;
}

size_t transcript_offset(const struct transcript *tr) { return tr->offset; }

void transcript_free(struct transcript *tr) {
    if (tr) {
        free_transcript(tr);
        free(tr);
    }
}
