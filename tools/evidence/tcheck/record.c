/* record.c: tcheck transcript, a transcript written from a header of
 * "key: value" lines and an output.
 */
#include "tcheck.h"

#include <errno.h>
#include <string.h>

/* HEADER's "key: value" lines, in any order, one for every key. Returns
 * the number of problems, each said on stderr. */
static int read_header_file(const struct text *h, struct str *value,
                            size_t *where) {
    int problems = 0;
    for (size_t i = 0; i < h->nlines; i++) {
        struct str l = h->line[i];
        int k = 0;
        size_t klen = 0;
        for (; k < kNumKeys; k++) {
            klen = strlen(kKeys[k]);
            if (l.n >= klen + 1 && memcmp(l.p, kKeys[k], klen) == 0 &&
                l.p[klen] == ':') {
                break;
            }
        }
        if (!l.n) {
            continue;
        }
        if (k == kNumKeys) {
            fprintf(stderr, "%s:%zu: not a header key: ", h->path, i + 1);
            put_line(stderr, "", l);
            problems++;
            continue;
        }
        struct str v = {l.p + klen + 1, l.n - klen - 1};
        while (v.n && is_blank(v.p[0])) {
            v.p++, v.n--;
        }
        if (where[k]) {
            fprintf(stderr, "%s:%zu: %s given twice\n", h->path, i + 1,
                    kKeys[k]);
            problems++;
        }
        value[k] = v;
        where[k] = i + 1;
    }
    return problems;
}

/* Every key given, and well formed. Returns the number of problems. */
static int check_header(const struct text *h, const struct str *value,
                        const size_t *where) {
    int problems = 0;
    for (int k = 0; k < kNumKeys; k++) {
        if (!where[k] && k >= kRequiredKeys) {
            continue;
        }
        if (!where[k]) {
            fprintf(stderr, "%s: no \"%s:\" line\n", h->path, kKeys[k]);
            problems++;
            continue;
        }
        const char *why = bad_value(k, value[k]);
        if (why) {
            fprintf(stderr, "%s:%zu: %s %s\n", h->path, where[k], kKeys[k],
                    why);
            problems++;
        }
    }
    return problems;
}

/* Copy a file to standard output, as it is, however long. */
static int copy_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: cannot open: %s\n", path, strerror(errno));
        return -1;
    }
    char chunk[1 << 16];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
        fwrite(chunk, 1, got, stdout);
    }
    int err = ferror(f);
    fclose(f);
    if (err) {
        fprintf(stderr, "%s: cannot read\n", path);
        return -1;
    }
    return 0;
}

/* tcheck transcript HEADER OUTPUT: write a transcript to standard output.
 * HEADER holds "key: value" lines, in any order, for every key. */
int cmd_transcript(int argc, char **argv) {
    if (argc != 2) {
        return usage();
    }
    struct text h;
    if (load_expect(argv[0], &h) != 0) {
        return kBad;
    }
    struct str value[kNumKeys];
    size_t where[kNumKeys];
    memset(value, 0, sizeof value);
    memset(where, 0, sizeof where);
    int problems = read_header_file(&h, value, where);
    problems += check_header(&h, value, where);
    FILE *probe = problems ? NULL : fopen(argv[1], "rb");
    if (!probe) {
        if (!problems) {
            fprintf(stderr, "%s: cannot open: %s\n", argv[1], strerror(errno));
        }
        free_text(&h);
        return kBad;
    }
    fclose(probe);
    for (int k = 0; k < kNumKeys; k++) {
        if (!where[k]) {
            continue; /* the fingerprint, which a record always gives */
        }
        printf("%s: ", kKeys[k]);
        put_raw(stdout, value[k]);
    }
    puts(kSeparator);
    free_text(&h);
    if (copy_file(argv[1]) != 0) {
        return kBad;
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fputs("tcheck: cannot write the transcript\n", stderr);
        return kBad;
    }
    return kPass;
}
