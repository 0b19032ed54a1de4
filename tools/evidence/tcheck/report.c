/* report.c: tcheck's usage and options, and a verdict line with its
 * details under it; tcheck status, the verdict on how a program ended.
 */
#include "tcheck.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The exit status by which a program says this machine cannot run it
 * (too little memory, a compute capability it needs): a skip. */
enum { kSkipStatus = 77 };

enum {
    kTailLines = 5,   /* lines of a program's stderr shown under a failure */
    kTailBytes = 4096 /* where on stderr those lines are looked for */
};

int usage(void) {
    fputs("usage: tcheck check [-n NAME] [-e STDERR] [-g GPU] [-o LABEL] "
          "EXPECT TRANSCRIPT_DIR OUTPUT STATUS\n"
          "       tcheck status [-n NAME] [-e STDERR] STATUS\n"
          "       tcheck diff [-o LABEL] EXPECT OUTPUT\n"
          "       tcheck pending EXPECT OUTPUT\n"
          "       tcheck compare EXPECT TRANSCRIPT OUTPUT\n"
          "       tcheck lint EXPECT TRANSCRIPT\n"
          "       tcheck lint-tree [-c] EVIDENCE PROG...\n"
          "       tcheck transcript HEADER OUTPUT\n"
          "       tcheck gpu EXPECT OUTPUT\n"
          "       tcheck slug NAME\n"
          "       tcheck values EXPECT OUTPUT\n"
          "       tcheck quotes [-o] EXPECT TRANSCRIPT|OUTPUT\n"
          "       tcheck fingerprint -c COMPILE -v NVCC [-x FILE]... SOURCE\n"
          "       tcheck fresh [-n NAME] [-w WHERE] [-r COMMAND] [-h NVCC] "
          "-c COMPILE [-x FILE]... SOURCE TRANSCRIPT\n",
          stderr);
    return kBad;
}

/* Add s to a list: "; " between items, or sep. */
void buf_item(struct nw_buf *b, const char *sep, const char *s) {
    if (b->n) {
        nw_buf_puts(b, sep);
    }
    nw_buf_puts(b, s);
}

/* Options from argv[*i], those of allowed only. */
int parse_opts(int argc, char **argv, const char *allowed,
                      struct opts *o, int *i) {
    memset(o, 0, sizeof *o);
    for (*i = 0; *i + 1 < argc && argv[*i][0] == '-'; *i += 2) {
        const char *a = argv[*i], *v = argv[*i + 1];
        if (a[1] == '\0' || a[2] != '\0' || !strchr(allowed, a[1])) {
            return -1;
        }
        switch (a[1]) {
        case 'n':
            o->name = v;
            break;
        case 'e':
            o->err = v;
            break;
        case 'g':
            o->gpu = v;
            break;
        default:
            o->label = v;
            break;
        }
    }
    return 0;
}

int parse_status(const char *s, int *status) {
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (!*s || *end || errno || v < 0 || v > 255) {
        fprintf(stderr,
                "tcheck: exit status \"%s\" is not a number from 0 to 255\n",
                s);
        return -1;
    }
    *status = (int)v;
    return 0;
}

/* How a program ended, before its output is looked at: kPass when it
 * exited 0, kSkip when it said this machine cannot run it, else kFail. */
int ran(int status) {
    return status == 0 ? kPass : status == kSkipStatus ? kSkip : kFail;
}

void report_open(struct report *r, const char *name) {
    r->name = name;
    r->details = name ? tmpfile() : NULL;
    if (!r->details) {
        r->details = stdout;
    }
}

/* The verdict line: word is PASS, FAIL or SKIP; why may be NULL. */
void report_verdict(const struct report *r, const char *word,
                           const char *why) {
    fputs(word, stdout);
    if (r->name) {
        printf(" %s", r->name);
    }
    if (why && strcmp(word, "PASS") == 0) {
        printf(" (warning: %s)", why);
    } else if (why) {
        printf(": %s", why);
    }
    putchar('\n');
}

/* The details, after the verdict line. */
void report_close(struct report *r) {
    if (r->details == stdout) {
        return;
    }
    rewind(r->details);
    int c, bol = 1;
    while ((c = getc(r->details)) != EOF) {
        if (bol) {
            fputs("    ", stdout);
        }
        putchar(c);
        bol = c == '\n';
    }
    fclose(r->details);
}

/* The tail of a program's stderr, at most kTailBytes of it, as lines;
 * returns how many (at most max), the last in line[n - 1]. */
static size_t stderr_tail(const char *path, char *buf, struct str *line,
                          size_t max) {
    FILE *f = path ? fopen(path, "rb") : NULL;
    if (!f) {
        return 0;
    }
    size_t n = 0;
    if (fseek(f, 0, SEEK_END) == 0) {
        long size = ftell(f);
        if (size > kTailBytes) {
            fseek(f, size - kTailBytes, SEEK_SET);
        } else {
            rewind(f);
        }
        n = fread(buf, 1, kTailBytes, f);
    }
    fclose(f);
    size_t count = 0, end = n;
    while (end > 0 && count < max) {
        while (end > 0 && (buf[end - 1] == '\n' || buf[end - 1] == '\r' ||
                           is_blank(buf[end - 1]))) {
            end--; /* empty lines and trailing blanks do not count */
        }
        size_t start = end;
        while (start > 0 && buf[start - 1] != '\n') {
            start--;
        }
        if (end > start) {
            memmove(line + 1, line, count * sizeof *line);
            line[0].p = buf + start;
            line[0].n = end - start;
            count++;
        }
        end = start;
    }
    return count;
}

/* "stderr (last lines):" and them, under a failure. */
void put_stderr_tail(FILE *f, const char *path) {
    char buf[kTailBytes];
    struct str line[kTailLines];
    size_t n = stderr_tail(path, buf, line, kTailLines);
    if (n) {
        fputs("stderr (last lines):\n", f);
    }
    for (size_t i = 0; i < n; i++) {
        put_line(f, "  ", line[i]);
    }
}

/* Why a program that exited kSkipStatus cannot run here: the last line
 * it printed on stderr. */
void report_skip(const struct opts *o) {
    char buf[kTailBytes], why[kShowBytes + 1];
    struct str line[1];
    struct report r;
    report_open(&r, o->name);
    if (stderr_tail(o->err, buf, line, 1)) {
        size_t n = line[0].n < kShowBytes ? line[0].n : kShowBytes;
        memcpy(why, line[0].p, n);
        why[n] = '\0';
        for (size_t i = 0; i < n; i++) {
            why[i] = (unsigned char)why[i] < 0x20 ? ' ' : why[i];
        }
    } else {
        snprintf(why, sizeof why, "exit status %d, and nothing on stderr",
                 kSkipStatus);
    }
    report_verdict(&r, "SKIP", why);
    report_close(&r);
}

/* "exit status N (signal M)" */
void status_words(int status, char *buf, size_t size) {
    if (status > 128) {
        snprintf(buf, size, "exit status %d (signal %d)", status, status - 128);
    } else {
        snprintf(buf, size, "exit status %d", status);
    }
}

/* tcheck status [-n NAME] [-e STDERR] STATUS: how a program ended, the
 * rule check follows, for callers with no output to check (record,
 * compare, sanitize, a notebook). Exit 0 and nothing printed when it
 * exited 0; 4 and a SKIP line when it said this machine cannot run it;
 * 1 and a FAIL line with its stderr's last lines otherwise. */
int cmd_status(int argc, char **argv) {
    struct opts o;
    int i, status;
    if (parse_opts(argc, argv, "ne", &o, &i) != 0 || argc - i != 1) {
        return usage();
    }
    if (parse_status(argv[i], &status) != 0) {
        return kBad;
    }
    int rc = ran(status);
    if (rc == kSkip) {
        report_skip(&o);
    } else if (rc == kFail) {
        char why[64];
        struct report r;
        status_words(status, why, sizeof why);
        report_open(&r, o.name);
        report_verdict(&r, "FAIL", why);
        put_stderr_tail(r.details, o.err);
        report_close(&r);
    }
    return rc;
}
