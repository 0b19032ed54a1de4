/* libFuzzer target: noweb's pipeline reader (tools/lib/noweb.c), on what
 * markup writes. Every chunk read is also named, classified and anchored,
 * as the tools do with it. */
#define _POSIX_C_SOURCE 200809L
#include "../../tools/lib/names.h"
#include "../../tools/lib/noweb.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) {
        return 0;
    }
    FILE *in = fmemopen((void *)data, size, "r");
    if (in == NULL) {
        return 0;
    }
    struct nw_doc doc;
    char err[1024];
    if (nw_read(in, &doc, err, sizeof err) == 0) {
        for (size_t i = 0; i < doc.n; ++i) {
            const struct nw_chunk *c = &doc.chunks[i];
            if (!c->is_code || c->name == NULL) {
                continue;
            }
            char anchor[NW_ANCHOR_MAX];
            nw_anchor(c->name, c->piece, anchor, sizeof anchor);
            (void)nw_is_label(c->name);
            (void)nw_is_phrase(c->name);
            (void)nw_is_known_file_type(c->name);
            (void)nw_pieces(&doc, c->name);
            (void)nw_is_used(&doc, c->name);
        }
    }
    nw_free(&doc);
    fclose(in);
    return 0;
}
