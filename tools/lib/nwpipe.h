/* nwpipe: the whole of the tools' library, for the tools that still
 * include it by this name. Transitional: include what a tool uses instead,
 *   util.h    memory, growing arrays and strings, files, errors
 *   noweb.h   the noweb pipeline reader
 *   names.h   chunk name classes and anchors
 *   meta.h    chapter metadata, the label registry, chunk tables
 *   escape.h  Markdown, HTML and quoted strings
 */
#ifndef NWPIPE_H
#define NWPIPE_H

#include "escape.h"
#include "meta.h"
#include "names.h"
#include "noweb.h"
#include "util.h"

#endif
