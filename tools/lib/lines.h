/* lines: a chapter's description, build/meta/NAME.lines (and NAME.tsv),
 * record by record: the one reader of that format, which meta.h's readers
 * and the claims tool share (the notebooks carry the claims tool with
 * this, util and quote alone).
 *
 * A record is a line KIND<TAB>VALUE, and in .lines a third field, the line
 * of the .nw file it comes from; a title's value is all that follows its
 * tab. meta.h says which kinds there are.
 */
#ifndef LINES_H
#define LINES_H

/* A record of a META file: its kind (title, root, label, cite, day,
 * quote, claim), its value, and the line of the .nw file it comes from (0
 * in a .tsv, and for a title). */
struct nw_meta_record {
    const char *kind, *value;
    long line;
};

/* Calls fn(ctx, record) for every record of the META file at path, in
 * order, until one call returns non-zero. Returns what that call
 * returned, or 0; or -1 having said why on stderr (the file cannot be
 * read, or a line is no record: file:line). */
int nw_meta_each(const char *path,
                 int (*fn)(void *ctx, const struct nw_meta_record *r),
                 void *ctx);

#endif
