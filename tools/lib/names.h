/* names: the classes of the book's chunk names and the anchors they get.
 *
 * A chunk is named by a snippet label (lowercase kebab-case, a public name
 * lessons cite), by a file name (a file root, tangled into that file), or by
 * a phrase (a blank inside, no leading blank). Each piece of a chunk gets
 * an anchor, the id of its div on the chapter's page.
 */
#ifndef NAMES_H
#define NAMES_H

#include <stddef.h>

/* Room enough for any anchor nw_anchor writes, with its NUL. */
#define NW_ANCHOR_MAX 300

/* A label is lowercase kebab-case: letters, digits, single hyphens inside.
 * A file root is named like a file (has a dot and no blank). Everything
 * else must be a phrase, with at least one blank. */
int nw_is_label(const char *name);
int nw_is_file_name(const char *name);
int nw_is_phrase(const char *name);
/* The type of a file root we know how to build: .cu, .cuh or .h, or a
 * figure (below). */
int nw_is_known_file_type(const char *name);
/* A figure's root: fig-NAME.cpp, NAME of lowercase letters, digits and
 * single hyphens (a label). A host C++17 program that writes the figure,
 * an SVG, to stdout; make draws it as html/fig/NAME.svg. */
int nw_is_figure_root(const char *name);

/* The anchor of piece k of a chunk: the label itself (label-2, ...), or
 * "chunk-" / "file-" and a slug of the name. Writes at most size bytes. */
void nw_anchor(const char *name, int piece, char *out, size_t size);

/* The page that indexes the book's identifiers. */
#define NW_IDENT_PAGE "identifiers.html"

/* The address of an identifier's entry in the index of identifiers,
 * "identifiers.html#CHAPTER--NAME", CHAPTER the chapter that defines it:
 * each byte of either name other than a letter, a digit, '-', '_' or '.'
 * as '-', so that what follows the '#' is the entry's id and the whole an
 * address, as it is. Free it. */
char *nw_ident_href(const char *chapter, const char *name);

/* The id of line `line` of the transcript DIR/PROG/GPU.txt on its page,
 * "ev-PROG-GPU-LINE" (a program's name has no hyphen, a GPU's slug no
 * underscore, so the id names one line), from "DIR/PROG/GPU.txt:LINE" as
 * a values file gives a value's source. Returns 0, or -1 where source is
 * not of that form or out is too small. */
int nw_transcript_line_id(const char *source, char *out, size_t size);

/* The edit distance of two names, for "did you mean": the fewest bytes
 * inserted, deleted or changed that make one the other; (size_t)-1 for a
 * name longer than 255 bytes. */
size_t nw_edit_distance(const char *a, const char *b);

#endif
