/*
 * tcheck: check a program's output against its expectation
 * (evidence/PROG.expect) and the transcripts recorded on real GPUs
 * (evidence/PROG/GPU.txt). The README's "Evidence" section is the
 * specification; tools/evidence/tcheck/ implements it, a part a job
 * (tcheck.h names them), and this part runs the commands.
 *
 * The GPU bundle and the notebooks carry it as one file of C11 (and
 * POSIX's directory listing), which they compile with one command where
 * nothing else of the book is: the build makes that file from the parts,
 * this one first, and the library source they use (tools/lib/util.c),
 * with tools/evidence/amalgamate.sh. The parts but this one are also the
 * book's one reader of transcripts and expectations: the book's tools
 * that read them (run-md, chart, snippets) link them, and call what
 * transcript.h declares.
 *
 *   tcheck check [-n NAME] [-e STDERR] [-g GPU] [-o LABEL]
 *                EXPECT TRANSCRIPT_DIR OUTPUT STATUS
 *   tcheck status [-n NAME] [-e STDERR] STATUS
 *   tcheck diff [-o LABEL] EXPECT OUTPUT
 *   tcheck pending EXPECT OUTPUT
 *   tcheck compare EXPECT TRANSCRIPT OUTPUT
 *   tcheck lint EXPECT TRANSCRIPT
 *   tcheck lint-tree [-c] EVIDENCE PROG...
 *   tcheck transcript HEADER OUTPUT
 *   tcheck gpu EXPECT OUTPUT
 *   tcheck slug NAME
 *   tcheck values EXPECT OUTPUT
 *   tcheck quotes EXPECT TRANSCRIPT
 *   tcheck quotes -o EXPECT OUTPUT
 *   tcheck fingerprint -c COMPILE -v NVCC [-x FILE]... SOURCE
 *   tcheck fresh [-n NAME] [-w WHERE] [-r COMMAND] [-h NVCC] -c COMPILE
 *                [-x FILE]... SOURCE TRANSCRIPT
 *
 * Exit status: 0 pass, 1 fail, 2 bad input or usage, 3 pass with a
 * warning, 4 skipped: the program exited 77, its way of saying that this
 * machine cannot run it (the one place that rule is written).
 *
 * check, status and lint-tree print a verdict line first, in one of the
 * forms "PASS", "PASS (warning: ...)", "FAIL: why", "SKIP: why"; with
 * -n NAME, "PASS NAME", "FAIL NAME: why" and so on, and the details under
 * it indented by four spaces. The exit status says the same, so that no
 * caller needs to read the line. Errors go to standard error as
 * "file:line: message", or "tcheck: message" where there is no file.
 *
 * Memory is bounded by the expectation, not by the output: an output or a
 * transcript is read as a stream, and only its first 2 x (expectation
 * lines) + kSlackLines lines, of at most kMaxLine bytes each and
 * kBaseBytes + 4 x (expectation bytes) in all, are kept; the rest is
 * counted, and reported as lines the expectation does not have.
 */
#include "tcheck.h"

#include <string.h>

int main(int argc, char **argv) {
    static const struct {
        const char *name;
        int (*run)(int, char **);
    } kCommands[] = {
        {"check", cmd_check},
        {"quotes", cmd_quotes},
        {"status", cmd_status},
        {"diff", cmd_diff},
        {"pending", cmd_pending},
        {"compare", cmd_compare},
        {"lint", cmd_lint},
        {"lint-tree", cmd_lint_tree},
        {"transcript", cmd_transcript},
        {"gpu", cmd_gpu},
        {"slug", cmd_slug},
        {"values", cmd_values},
        {"fingerprint", cmd_fingerprint},
        {"fresh", cmd_fresh},
    };
    if (argc < 2) {
        return usage();
    }
    for (size_t i = 0; i < sizeof kCommands / sizeof kCommands[0]; i++) {
        if (strcmp(argv[1], kCommands[i].name) == 0) {
            return kCommands[i].run(argc - 2, argv + 2);
        }
    }
    fprintf(stderr, "tcheck: unknown command \"%s\"\n", argv[1]);
    return usage();
}
