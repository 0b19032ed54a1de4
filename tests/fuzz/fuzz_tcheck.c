/* libFuzzer target: tcheck's readers, the expectation (holes, patterns)
 * and the transcript (header, separator, output), and the matching and
 * alignment built on them. An input is an expectation, a NUL byte and a
 * transcript; each goes through the same commands make check uses. Built
 * with tcheck's parts but main.c (tcheck.h declares the commands). */
#include "tcheck.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char expect_path[] = "/tmp/fuzz-tcheck-expect-XXXXXX";
static char transcript_path[] = "/tmp/fuzz-tcheck-transcript-XXXXXX";

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    int a = mkstemp(expect_path), b = mkstemp(transcript_path);
    if (a < 0 || b < 0)
        abort();
    close(a);
    close(b);
    /* The commands report on stdout; the fuzzer needs none of it. Their
     * stderr is closed by run.sh's -close_fd_mask, which keeps the
     * fuzzer's own. */
    if (freopen("/dev/null", "w", stdout) == NULL)
        abort();
    return 0;
}

static void put(const char *path, const uint8_t *p, size_t n) {
    FILE *f = fopen(path, "wb");
    if (f == NULL || fwrite(p, 1, n, f) != n || fclose(f) != 0)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const uint8_t *nul = memchr(data, 0, size);
    size_t elen = nul ? (size_t)(nul - data) : size;
    put(expect_path, data, elen);
    put(transcript_path, nul ? nul + 1 : data, nul ? size - elen - 1 : 0);
    char *two[] = {expect_path, transcript_path};
    char *diff[] = {"-o", "output", expect_path, transcript_path};
    char *three[] = {expect_path, transcript_path, transcript_path};
    cmd_lint(2, two);
    cmd_pending(2, two);
    cmd_values(2, two);
    cmd_gpu(2, two);
    cmd_compare(3, three);
    cmd_diff(4, diff);
    struct transcript *tr = transcript_read(transcript_path);
    transcript_free(tr);
    return 0;
}
