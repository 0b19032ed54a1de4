"""The notebook check (check.py) misses each way a notebook can stray from
its chapter, and a run its notebook does not run: each case alters the
fixture book's notebooks or evidence, and check.py must then FAIL, saying
why. And check.py's one kernel, reset before each notebook, runs a
notebook after another as a kernel of its own would: the second finds
nothing the first left. Prints "PASS name" or "FAIL name: why" lines, one
a case.

usage: python3 strays.py    (in the fixture book that tests/notebooks/run.sh
                             makes: build/notebooks/runs.ipynb, of
                             tests/fixtures/runs.nw, and tangle.ipynb, of
                             tests/fixtures/tangle.nw)

Every stray is one the notebook as a file shows, without a run (check.py's
--no-run), and all the cases run in this one Python, check.py imported: it
reads the notebooks and the evidence afresh in each case (the pages, which
no case alters, once). Whatever a case alters is put back after it.
"""
import contextlib
import io
import os
import sys

import nbformat

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check  # noqa: E402  (tests/notebooks/check.py)

BUILD = "build"
NOTEBOOKS = os.path.join(BUILD, "notebooks")
failed = False  # check.failed is each check.py run's own, reset before it
ok = check.ok


def bad(name, why):
    global failed
    failed = True
    check.bad(name, why)


def check_says(*chapters, run=False):
    """check.py [--no-run] BUILD CHAPTER...: what it prints."""
    check.failed, check.RUN = False, run
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        check.check_book(BUILD, chapters)
    return out.getvalue()


def first_not_passed(said):
    return next((line for line in said.splitlines() if not line.startswith("PASS")),
                "check.py passed")


# stray WHAT WANT ALTER: ALTER(nb, runs, chunks) changes nb, the tangle
# chapter's notebook, or runs, the runs chapter's (chunks: nb's chunk
# cells), and check.py must then FAIL with WANT.
STRAYS = []


def stray(what, want):
    def add(alter):
        STRAYS.append((what, want, alter))
        return alter
    return add


def chunk_starting(nb, head):
    return next(c for c in nb.cells if c.source.startswith(head))


@stray("a chunk cell whose code is not the chapter's",
       "the tangled tangle.cu differs from build/src/tangle.cu at line 20")
def code_not_the_chapters(nb, runs, chunks):
    c = chunk_starting(nb, "%%chunk Two on a line\n")
    c.source = c.source.replace("b += a;", "b -= a;")


@stray("chunk cells out of the chapter's order",
       "chunk cell 3 is ('twice-used', 1), where the page has ('Nested and indented', 1)")
def out_of_order(nb, runs, chunks):
    i, j = nb.cells.index(chunks[2]), nb.cells.index(chunks[3])
    nb.cells[i], nb.cells[j] = nb.cells[j], nb.cells[i]


@stray("a link to an anchor its page does not have",
       "the link ../tangle.html#chunk-no-such-chunk leads to no anchor")
def link_to_no_anchor(nb, runs, chunks):
    c = nb.cells[nb.cells.index(chunks[0]) - 1]
    c.source = c.source.replace("#file-tangle-cu", "#chunk-no-such-chunk")


@stray("a chunk cell whose name is not its link's",
       "is not after a link to ../tangle.html#file-tangle-cu")
def name_not_the_links(nb, runs, chunks):
    c = nb.cells[nb.cells.index(chunks[0]) - 1]
    c.source = c.source.replace("#file-tangle-cu", "#twice-used")


@stray("a citation the page links and the notebook does not",
       "the prose links 2 cited chunks, the page's 3")
def citation_left_out(nb, runs, chunks):
    c = next(c for c in nb.cells if "references inside references" in c.source.replace("\n", " "))
    c.source = c.source.replace("(../tangle.html#chunk-nested-and-indented)", "")


@stray("the checker shown",
       "the cell '%%writefile tcheck.c' is shown")
def checker_shown(nb, runs, chunks):
    del chunk_starting(runs, "%%writefile tcheck.c").metadata["cellView"]


@stray("a magic that lets IPython expand a chunk name",
       "the chunk magic lets IPython expand")
def magic_expands(nb, runs, chunks):
    c = next(c for c in nb.cells if c.cell_type == "code")
    c.source = c.source.replace("@no_var_expand\n", "")


def strays():
    paths = {n: os.path.join(NOTEBOOKS, n + ".ipynb") for n in ("tangle", "runs")}
    kept = {n: open(p, "rb").read() for n, p in paths.items()}
    try:
        for what, want, alter in STRAYS:
            name = f"notebook check misses {what}"
            nb = nbformat.reads(kept["tangle"].decode("utf-8"), as_version=4)
            runs = nbformat.reads(kept["runs"].decode("utf-8"), as_version=4)
            try:
                alter(nb, runs, [c for c in nb.cells if c.source.startswith("%%chunk ")])
            except Exception as e:  # the fixture's notebooks are not as the case knows them
                bad(name, f"the case did not apply: {type(e).__name__}: {e}")
                continue
            nbformat.write(nb, paths["tangle"])
            nbformat.write(runs, paths["runs"])
            said = check_says("runs", "tangle")
            if want in said and any(line.startswith("FAIL") for line in said.splitlines()):
                ok(name)
            else:
                bad(name, first_not_passed(said))
    finally:
        for n, p in paths.items():
            with open(p, "wb") as f:
                f.write(kept[n])


def missed_run():
    """check.py misses a run's cell that is not there."""
    name = "notebook check misses a run the notebook does not run"
    run = os.path.join("evidence", "runs_thrice.run")
    with open(run, "w", encoding="utf-8") as f:
        f.write("runs --thrice\n")
    try:
        said = check_says("runs")
    finally:
        os.remove(run)
    want = "no cell runs runs_thrice as evidence/runs_thrice.run says: ./runs --thrice"
    if any(line.startswith("FAIL ") and want in line for line in said.splitlines()):
        ok(name)
    else:
        bad(name, first_not_passed(said))


# The first cell of a notebook that check.py's kernel runs after another:
# it fails on what that one, the tangle chapter's, would have left there
# but for the kernel's reset: its variables and magic (the setup cell's),
# its environment (LEAVE, its last cell) and its folder (where it tangled
# tangle.cu).
PROBE = """\
import os
left = [n for n in ("chunks", "tangle") if n in globals()]
left += ["%%chunk"] if "chunk" in get_ipython().magics_manager.magics["cell"] else []
left += ["$NOTEBOOK_LEFT"] if "NOTEBOOK_LEFT" in os.environ else []
left += [os.getcwd()] if os.path.exists("tangle.cu") else []
assert not left, "left by the notebook before: " + ", ".join(left)
"""
LEAVE = "%env NOTEBOOK_LEFT=1"


def kernel_reset():
    """check.py runs each notebook as in a kernel of its own: the tangle
    chapter's notebook, PROBE first and LEAVE last, run twice in its one
    kernel, the second run finds nothing of the first."""
    name = "notebook check runs each notebook in a kernel that the one before " \
        "left nothing in: no variable, magic, environment or folder"
    path = os.path.join(NOTEBOOKS, "tangle.ipynb")
    kept = open(path, "rb").read()
    nb = nbformat.reads(kept.decode("utf-8"), as_version=4)
    nb.cells.insert(0, nbformat.v4.new_code_cell(PROBE))
    nb.cells.append(nbformat.v4.new_code_cell(LEAVE))
    nbformat.write(nb, path)
    try:
        said = check_says("tangle", "tangle", run=True)
    finally:
        with open(path, "wb") as f:
            f.write(kept)
    what = check.KERNEL_RUN.format("notebook tangle")
    runs = [line for line in said.splitlines() if line[5:] == what or line[5:].startswith(what + ": ")]
    if len(runs) == 2 and all(line.startswith("PASS") for line in runs):
        ok(name)
    else:
        bad(name, next((line for line in runs if not line.startswith("PASS")),
                       f"{len(runs)} runs of the notebook in the kernel, not 2"))


def main():
    try:
        strays()
        missed_run()
        kernel_reset()
    finally:
        check.cleanup()
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
