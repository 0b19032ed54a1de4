#@title Setup: the chunk cells and tangle (run this cell first)
# This cell makes the chunk cells work and puts them together.
#
# A cell whose first line is "%%chunk NAME" holds the code of the chapter's
# chunk <<NAME>>= (the rest of the line is the name, as it stands);
# "%%chunk NAME += K" holds its K-th piece, which noweb appends to the
# others. An empty piece is a line, "%chunk NAME" (IPython runs no cell
# magic whose cell is empty). Running a cell again replaces its piece, so a chunk is edited in
# place: change its cell, run it, then the cells after it.
#
# tangle(FILE) writes FILE from its chunk the way the book's tangle (noweb's
# nt) does: a reference <<name>> is that chunk's code without its last line
# end, each of its lines after the first (an empty one excepted) indented by
# the column at which the reference stood, the references before it on its
# line counted as written; @<< is a << that starts no reference; and a chunk
# named by a snippet label (lowercase kebab-case) opens with a line
# "// snippet: LABEL" and ends with "// end snippet".
import os
import re

from IPython.core.magic import no_var_expand, register_line_cell_magic

chunks = {}  # name: {piece: code}

_LABEL = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_HEAD = re.compile(r"(.+?)(?: \+= ([0-9]+))?")
_USE = re.compile(r"@<<|<<(.+?)>>")


@register_line_cell_magic
@no_var_expand
def chunk(line, cell=""):
    """The magic %%chunk: keeps the cell's code as the named piece."""
    m = _HEAD.fullmatch(line)
    if m is None:
        raise ValueError("want %%chunk NAME, or %%chunk NAME += K for its K-th piece")
    chunks.setdefault(m.group(1), {})[int(m.group(2) or 1)] = cell


def _code(name):
    if name not in chunks:
        raise KeyError(f"no cell has run the chunk <<{name}>>: run the cells "
                       "above this one first (Runtime, Run before)")
    pieces = chunks[name]
    for k in range(1, max(pieces) + 1):
        if k not in pieces:
            raise KeyError(f"piece {k} of the chunk <<{name}>> has not run: "
                           "run the cells above this one first (Runtime, Run before)")
    code = "".join(pieces[k] for k in sorted(pieces))
    if _LABEL.fullmatch(name):
        code = f"// snippet: {name}\n{code}// end snippet\n"
    return code


def _expand(name, indent, out, active, root=False):
    if name in active:
        raise ValueError(f"the chunk <<{name}>> refers to itself")
    code = _code(name)
    if not root and code.endswith("\n"):
        code = code[:-1]
    active.append(name)
    col = 0          # bytes of the line so far, references as written
    pending = False  # a line after the first has begun: its indent is due

    def put(text):
        nonlocal pending
        if text and pending:
            out.append(" " * indent)
            pending = False
        out.append(text)

    pos = 0
    for m in list(_USE.finditer(code)) + [None]:
        for k, line in enumerate(code[pos:m.start() if m else len(code)].split("\n")):
            if k > 0:
                out.append("\n")
                pending, col = True, 0
            put(line)
            col += len(line.encode("utf-8"))
        if m is None:
            break
        pos = m.end()
        if m.group(1) is None:
            put("<<")
            col += 2
        else:
            if pending:
                out.append(" " * indent)
                pending = False
            _expand(m.group(1), indent + col, out, active)
            col += len(m.group(0).encode("utf-8"))
    active.pop()


def tangle(file):
    """Writes file, a file root of the chapter, from the chunk cells run."""
    out = []
    _expand(file, 0, out, [], root=True)
    text = "".join(out)
    with open(file + ".tmp", "w", encoding="utf-8", newline="") as f:
        f.write(text)
    os.replace(file + ".tmp", file)
    print(f"wrote {file}, {text.count(chr(10))} lines")
