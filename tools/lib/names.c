/* names: chunk name classes and anchors. See names.h. */
#include "names.h"
#include "util.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

int nw_is_label(const char *name) {
    if (name[0] == '\0' || name[0] == '-') {
        return 0;
    }
    for (const char *p = name; *p; ++p) {
        int ok = (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
                 (*p == '-' && p[1] != '-' && p[1] != '\0');
        if (!ok) {
            return 0;
        }
    }
    return 1;
}

int nw_is_file_name(const char *name) {
    return strchr(name, '.') != NULL && strpbrk(name, " \t") == NULL;
}

int nw_is_phrase(const char *name) {
    return strchr(name, ' ') != NULL && !isspace((unsigned char)name[0]);
}

int nw_is_figure_root(const char *name) {
    static const char prefix[] = "fig-", suffix[] = ".cpp";
    size_t n = strlen(name), np = sizeof prefix - 1, ns = sizeof suffix - 1;
    if (n <= np + ns || strncmp(name, prefix, np) != 0 ||
        strcmp(name + n - ns, suffix) != 0) {
        return 0;
    }
    char stem[256];
    if (n - np - ns >= sizeof stem) {
        return 0;
    }
    memcpy(stem, name + np, n - np - ns);
    stem[n - np - ns] = '\0';
    return nw_is_label(stem);
}

int nw_is_known_file_type(const char *name) {
    if (nw_is_figure_root(name)) {
        return 1;
    }
    static const char *const types[] = {".cu", ".cuh", ".h"};
    const char *dot = strrchr(name, '.');
    if (dot == NULL || dot == name) {
        return 0;
    }
    for (size_t i = 0; i < sizeof types / sizeof types[0]; ++i) {
        if (strcmp(dot, types[i]) == 0) {
            return 1;
        }
    }
    return 0;
}

/* "chunk-" or "file-" and the name's letters, digits and '_', lowercased,
 * each run of other characters one '-'. */
static void slug(const char *name, char *base, size_t size) {
    const char *prefix = nw_is_file_name(name) ? "file-" : "chunk-";
    size_t n = strlen(prefix);
    memcpy(base, prefix, n);
    int dash = 0;
    for (const char *p = name; *p && n + 2 < size; ++p) {
        unsigned char ch = (unsigned char)*p;
        if (isalnum(ch) || ch == '_') {
            if (dash && base[n - 1] != '-') {
                base[n++] = '-';
            }
            base[n++] = (char)tolower(ch);
            dash = 0;
        } else {
            dash = 1;
        }
    }
    base[n] = '\0';
}

void nw_anchor(const char *name, int piece, char *out, size_t size) {
    char base[256];
    if (nw_is_label(name)) {
        snprintf(base, sizeof base, "%s", name);
    } else {
        slug(name, base, sizeof base);
    }
    if (piece > 1) {
        snprintf(out, size, "%s-%d", base, piece);
    } else {
        snprintf(out, size, "%s", base);
    }
}

/* s at p, as nw_ident_href writes it; returns the end. */
static char *ident_part(char *p, const char *s) {
    for (; *s; ++s) {
        unsigned char c = (unsigned char)*s;
        *p++ = isalnum(c) || c == '-' || c == '_' || c == '.' ? (char)c : '-';
    }
    return p;
}

char *nw_ident_href(const char *chapter, const char *name) {
    size_t page = strlen(NW_IDENT_PAGE);
    char *h = nw_xrealloc(NULL, page + strlen(chapter) + strlen(name) + 4);
    memcpy(h, NW_IDENT_PAGE "#", page + 1);
    char *p = ident_part(h + page + 1, chapter);
    memcpy(p, "--", 2);
    *ident_part(p + 2, name) = '\0';
    return h;
}

int nw_transcript_line_id(const char *source, char *out, size_t size) {
    const char *colon = strrchr(source, ':');
    if (colon == NULL || colon[1] == '\0' ||
        strspn(colon + 1, "0123456789") != strlen(colon + 1)) {
        return -1;
    }
    const char *gpu = colon;
    while (gpu > source && gpu[-1] != '/') {
        --gpu;
    }
    if (gpu == source || colon - gpu <= 4 || strncmp(colon - 4, ".txt", 4) != 0) {
        return -1;
    }
    const char *prog = gpu - 1;
    while (prog > source && prog[-1] != '/') {
        --prog;
    }
    int n = snprintf(out, size, "ev-%.*s-%.*s-%s", (int)(gpu - 1 - prog), prog,
                     (int)(colon - 4 - gpu), gpu, colon + 1);
    return n > 0 && (size_t)n < size && gpu - 1 > prog ? 0 : -1;
}

static size_t min3(size_t a, size_t b, size_t c) {
    size_t m = a < b ? a : b;
    return m < c ? m : c;
}

size_t nw_edit_distance(const char *a, const char *b) {
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
