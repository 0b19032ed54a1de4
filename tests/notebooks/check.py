"""The chapters as notebooks: each build/notebooks/NAME.ipynb is checked
against the nbformat schema and against the book, then replayed without a
GPU. Prints "PASS name", "FAIL name: why" or "SKIP name: why" lines.

usage: python3 check.py [--no-run] BUILD_DIR CHAPTER...

With --no-run, the notebook as a file alone: the last two checks below
(run in a kernel, replayed) are left out.

For each chapter:
  - the notebook is valid nbformat 4 and asks for a GPU (a T4 on Colab);
  - it follows the chapter: a cell per piece of every code chunk, in the
    page's order (build/md/NAME.chunks), each "%%chunk NAME" ("+= K" for
    its K-th piece) after Markdown whose last paragraph links to that piece's
    anchor on the page; its prose links the chunks the page's prose cites,
    in the same order; and every link's anchor is on its built page
    (build/html/PAGE.html);
  - the setup cell (the first code cell) and the cells that write files
    (the checker, the expectation, the transcripts) are hidden, for Colab
    (cellView "form") and Jupyter (source_hidden), and no other cell is;
  - run as Jupyter runs them, without IPython (the setup cell's import of
    IPython.core.magic is given a stand-in that keeps the cell magic), the
    setup cell, the chunk cells and the tangle cell write every file the
    chapter tangles, byte for byte as build/src/FILE;
  - it compiles each program with the book's compile line (tools/compile.mk,
    the line the chapter's page prints), run by the nvcc on the notebook's
    PATH, and runs each run of its programs (evidence/RUN.run, PROG ARG...)
    as ./PROG ARG..., its output kept as RUN.out, and checks it;
  - run top to bottom in a Jupyter kernel (nbclient, ipykernel) in that
    folder, as on a machine with neither nvcc nor a GPU (the PATH without
    nvcc's folders, and an nvidia-smi that finds no GPU first on it), every
    cell succeeds: each compile cell says in one line that nvcc is missing,
    each run cell in one line that there is no GPU and how to get one, and
    each check skips for that reason, as make check does; compiling and
    running the programs themselves is left to a machine with a GPU (one
    kernel runs the notebooks one after another, and puts itself back as
    it started before each: RESET_CELL);
  - replayed in that folder with bash, every cell that needs no GPU runs
    (the checker and the claims tool being the ones the kernel built): the
    check cell, given a recorded transcript's output in place of a run, says
    PASS, and the claims cell, where the chapter makes claims, that all of
    them on those values hold (and, in the kernel, that no run is there).
"""
import contextlib
import copy
import html
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
import types

import nbformat

failed = False


def ok(name):
    print(f"PASS {name}", flush=True)


def bad(name, why):
    global failed
    failed = True
    print(f"FAIL {name}: {why}", flush=True)


def skip(name, why):
    print(f"SKIP {name}: {why}", flush=True)


def roots_of(build, chapter):
    """The chapter's file roots but its figures (fig-NAME.cpp), which the
    book's build draws and a notebook does not need."""
    roots = []
    with open(os.path.join(build, "meta", chapter + ".tsv"), encoding="utf-8") as f:
        for line in f:
            kind, _, rest = line.rstrip("\n").partition("\t")
            name = rest.split("\t")[0]
            if kind == "root" and not (name.startswith("fig-") and name.endswith(".cpp")):
                roots.append(name)
    return roots


def compile_line(prog):
    """The book's compile line for prog, as tools/compile.mk makes it, with
    the nvcc on the PATH: the text the chapter's page prints."""
    rule = "print-%: ; @echo '$(call compile-line,$*)'\n"
    r = subprocess.run(["make", "--no-print-directory", "-s", "NVCC=nvcc",
                        "-f", "tools/compile.mk", "-f", "-", "print-" + prog],
                       input=rule, capture_output=True, text=True, check=True)
    return r.stdout.strip()


def runs_of(programs):
    """The runs of programs, evidence/RUN.run: {RUN: "./PROG ARG..."}."""
    runs = {}
    for f in sorted(os.listdir("evidence")):
        if f.endswith(".run"):
            words = open(os.path.join("evidence", f), encoding="utf-8").read().split()
            if words and words[0] in programs:
                runs[f[:-4]] = "./" + " ".join(words)
    return runs


# A cell that runs a program, or a run of one, where there is a GPU:
# "./PROG [ARG...] 2>NAME.err | tee NAME.out".
RUN_CELL = re.compile(r"^ *(\./\S+(?: [^|\n]*[^ |\n])?) 2>(\S+)\.err \| tee \2\.out$", re.M)
# A cell that compiles a program, where nvcc is on the PATH.
COMPILE_CELL = "if command -v nvcc >/dev/null; then\n"
# What a cell says where the notebook has no nvcc, or no GPU.
NO_NVCC = re.compile(r"No nvcc here, so (\S+) is not compiled: the CUDA Toolkit is missing "
                     r"\(in Colab: Runtime, Change runtime type, T4 GPU\)\.")
NO_GPU = "No GPU here, so {} did not run (in Colab: Runtime, Change runtime type, T4 GPU)."
# The cell that holds the chapter's claims to the reader's runs, what it
# says where none ran, and its report's first line where they did.
CLAIMS_CELL = "./claims/claims yours "
NO_RUN_CLAIMS = "No run of yours here, so the claims are held to none " \
    "(in Colab: Runtime, Change runtime type, T4 GPU)."
CLAIMS_HELD = re.compile(r"chapters/(\S+)\.nw on your (.+): (\d+) of (\d+) claims? holds? in your run")


def magic_parts(source):
    """A cell as IPython reads a cell magic (inputtransformer2.cell_magic):
    (magic, line, body), or None for a cell of plain Python. A line magic
    alone in its cell, %chunk NAME, is (magic, line, None)."""
    m = re.fullmatch(r"%(\w+) (.*)", source.rstrip("\n"))
    if m and not source.startswith("%%"):
        return m.group(1), m.group(2), None
    if not source.startswith("%%"):
        return None
    cell = source if source.endswith("\n") else source + "\n"
    lines = cell.splitlines(keepends=True)
    magic, _, line = lines[0][2:].rstrip().partition(" ")
    return magic, line, "".join(lines[1:])


def writefile(cell):
    m = magic_parts(cell.source)
    return (m[1], m[2]) if m and m[0] == "writefile" and m[1] else (None, None)


def chunk_head(cell):
    """(name, piece) of a chunk cell, %%chunk NAME [+= K] (%chunk for an
    empty one), or None."""
    m = magic_parts(cell.source)
    if not m or m[0] != "chunk":
        return None
    h = re.fullmatch(r"(.+?)(?: \+= ([0-9]+))?", m[1])
    return (h.group(1), int(h.group(2) or 1)) if h else (m[1], 0)


def hidden(cell):
    return cell.metadata.get("cellView") == "form" and \
        cell.metadata.get("jupyter", {}).get("source_hidden") is True


def page_ids(build, page, cache={}):
    """The ids of a built page, build/html/PAGE."""
    if page not in cache:
        path = os.path.join(build, "html", page)
        text = open(path, encoding="utf-8").read() if os.path.exists(path) else ""
        cache[page] = set(html.unescape(i) for i in re.findall(r'\bid="([^"]*)"', text))
    return cache[page]


def page_cites(build, chapter):
    """The chunks the page's prose cites, as links from the notebook (its
    published copy, html/notebooks/, beside the pages): the retired
    labels' notes are no prose."""
    text = open(os.path.join(build, "html", chapter + ".html"), encoding="utf-8").read()
    text = re.sub(r'<p class="retired".*?</p>', "", text, flags=re.S)
    hrefs = [html.unescape(h) for h in re.findall(r'<a class="chunk-cite" href="([^"]*)"', text)]
    return [BASE + (chapter + ".html" + h if h.startswith("#") else h) for h in hrefs]


# Where the notebook's links lead: "../" beside the pages, or the book's
# published address (make's BASE_URL, which make check passes on).
BASE = (os.environ.get("BASE_URL", "").rstrip("/") + "/") if os.environ.get("BASE_URL") else "../"
LINK = re.compile(r"\]\((" + re.escape(BASE) + r"[^)#\s]+\.html#[^)\s]+)\)")


def follows_chapter(build, chapter, nb):
    """What differs between the notebook and its chapter's page, at most a
    few lines."""
    problems = []
    pieces = []
    with open(os.path.join(build, "md", chapter + ".chunks"), encoding="utf-8") as f:
        for line in f:
            anchor, piece, _, name = line.rstrip("\n").split("\t", 3)
            pieces.append((name, int(piece), anchor))
    heads = []
    cites = []
    for k, c in enumerate(nb.cells):
        h = chunk_head(c) if c.cell_type == "code" else None
        if h:
            heads.append(h)
            want = next((p for p in pieces if p[:2] == h), None)
            before = nb.cells[k - 1] if k > 0 else None
            last = before.source.rstrip("\n").rsplit("\n\n", 1)[-1] \
                if before is not None and before.cell_type == "markdown" else ""
            link = LINK.findall(last)
            if want and link[-1:] != [f"{BASE}{chapter}.html#{want[2]}"]:
                problems.append(f"the cell of <<{h[0]}>> piece {h[1]} is not after a "
                                f"link to {BASE}{chapter}.html#{want[2]}")
        if c.cell_type == "markdown":
            links = LINK.findall(c.source)
            nxt = nb.cells[k + 1] if k + 1 < len(nb.cells) else None
            if nxt is not None and nxt.cell_type == "code" and chunk_head(nxt):
                links = LINK.findall(c.source.rstrip("\n").rsplit("\n\n", 1)[0]) \
                    if "\n\n" in c.source.rstrip("\n") else []
            cites += links
            for href in LINK.findall(c.source):
                page, _, anchor = href[len(BASE):].partition("#")
                if anchor not in page_ids(build, page):
                    problems.append(f"the link {href} leads to no anchor of {build}/html/{page}")
    if heads != [p[:2] for p in pieces]:
        first = next((i for i, (a, b) in enumerate(zip(heads, pieces)) if a != b[:2]),
                     min(len(heads), len(pieces)))
        got = heads[first] if first < len(heads) else "nothing"
        want = pieces[first][:2] if first < len(pieces) else "nothing"
        problems.append(f"chunk cell {first + 1} is {got}, where the page has {want}")
    want_cites = page_cites(build, chapter)
    if cites != want_cites:
        problems.append(f"the prose links {len(cites)} cited chunks, the page's "
                        f"{len(want_cites)}: first apart "
                        f"{next((a, b) for a, b in zip(cites + [None], want_cites + [None]) if a != b)}")
    return problems


def run_python(source, ns, tmp):
    """Runs a cell's Python in ns, in the folder tmp; the setup cell's
    import of IPython.core.magic gets a stand-in that keeps the magics it
    registers in ns["__magics__"] and marks those taken with no_var_expand."""
    magics = ns.setdefault("__magics__", {})
    stub = types.ModuleType("IPython.core.magic")

    def register_line_cell_magic(f):
        magics[f.__name__] = f
        return f

    def no_var_expand(f):
        f._ipython_magic_no_var_expand = True
        return f
    stub.register_line_cell_magic = register_line_cell_magic
    stub.no_var_expand = no_var_expand
    names = ("IPython", "IPython.core", "IPython.core.magic")
    saved = {n: sys.modules.get(n) for n in names}
    sys.modules.update({"IPython": types.ModuleType("IPython"),
                        "IPython.core": types.ModuleType("IPython.core"),
                        "IPython.core.magic": stub})
    here = os.getcwd()
    try:
        os.chdir(tmp)
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(source, "<cell>", "exec"), ns)
    finally:
        os.chdir(here)
        for n, m in saved.items():
            if m is None:
                sys.modules.pop(n, None)
            else:
                sys.modules[n] = m


def tangles(build, chapter, nb, tmp):
    """Runs the setup cell, the chunk cells and the tangle cell in tmp, and
    says what differs from build/src."""
    code = [c for c in nb.cells if c.cell_type == "code"]
    if not code or magic_parts(code[0].source) is not None:
        return ["the first code cell is not the setup cell's Python"]
    ns = {"__name__": "__main__"}
    for c in code:
        m = magic_parts(c.source)
        try:
            if m is None:
                run_python(c.source, ns, tmp)
            elif m[0] == "chunk":
                magic = ns.get("__magics__", {}).get("chunk")
                if magic is None:
                    return ["the setup cell registers no cell magic chunk"]
                if not getattr(magic, "_ipython_magic_no_var_expand", False):
                    return ["the chunk magic lets IPython expand $name and {expr} in chunk names"]
                magic(m[1]) if m[2] is None else magic(m[1], m[2])
        except Exception as e:
            return [f"the cell {c.source.splitlines()[0]!r} raised {type(e).__name__}: {e}"]
    problems = []
    for root in roots_of(build, chapter):
        want = open(os.path.join(build, "src", root), "rb").read()
        path = os.path.join(tmp, root)
        if not os.path.exists(path):
            problems.append(f"no cell tangles {root}")
        elif open(path, "rb").read() != want:
            got = open(path, "rb").read().split(b"\n")
            line = next((i for i, (a, b) in enumerate(zip(got, want.split(b"\n"))) if a != b),
                        min(len(got), len(want.split(b"\n"))))
            problems.append(f"the tangled {root} differs from {build}/src/{root} at line {line + 1}")
    return problems


def transcript_output(path):
    text = open(path, encoding="utf-8").read()
    sep = "\n--- output ---\n"
    return text.split(sep, 1)[1] if sep in text else None


def check(build, chapter, tmp):
    """The checks of the notebook as a file, its files tangled in tmp; where
    the notebook is to run (not --no-run), what running it needs: (name,
    chapter, nb, code cells, the runs of its run cells, tmp)."""
    name = f"notebook {chapter}"
    path = os.path.join(build, "notebooks", chapter + ".ipynb")
    if not os.path.exists(path):
        bad(name, f"{path} was not written; run make notebooks")
        return
    try:
        nb = nbformat.read(path, as_version=4)
        nbformat.validate(nb)
    except Exception as e:  # the schema's own message says what is wrong
        bad(f"{name} is valid nbformat", str(e).splitlines()[0])
        return
    if nb.metadata.get("accelerator") != "GPU" or \
            nb.metadata.get("colab", {}).get("gpuType") != "T4":
        bad(f"{name} is valid nbformat", "the notebook does not ask for a T4 GPU")
        return
    ok(f"{name} is valid nbformat {nb.nbformat}.{nb.nbformat_minor} and asks for a T4")

    problems = follows_chapter(build, chapter, nb)
    if problems:
        bad(f"{name} follows the chapter: its prose, a cell per chunk, links to the page",
            "; ".join(problems[:3]))
    else:
        ok(f"{name} follows the chapter: its prose, a cell per chunk, links to the page")

    code = [c for c in nb.cells if c.cell_type == "code"]
    hide = set([0] if code else []) | \
        {k for k, c in enumerate(code) if writefile(c)[0]}
    problems = [f"the cell {c.source.splitlines()[0] if c.source else ''!r} is "
                + ("shown" if k in hide else "hidden")
                for k, c in enumerate(code) if hidden(c) != (k in hide)]
    if problems:
        bad(f"{name} hides the setup cell, the checker and the evidence, only those",
            "; ".join(problems[:3]))
    else:
        ok(f"{name} hides the setup cell, the checker and the evidence, only those")

    problems = tangles(build, chapter, nb, tmp)
    bash = [magic_parts(c.source)[2] for c in code
            if (magic_parts(c.source) or ("",))[0] == "bash"]
    lines = [line.strip() for b in bash if b.startswith(COMPILE_CELL)
             for line in b.splitlines()]
    for root in roots_of(build, chapter):
        if not root.endswith(".cu"):
            continue
        want = compile_line(root[:-3])
        if want not in lines:
            problems.append(f"no cell holds the compile line: {want}")
    ran = {m.group(2): m.group(1) for m in map(RUN_CELL.search, bash) if m}
    programs = [r[:-3] for r in roots_of(build, chapter) if r.endswith(".cu")]
    for run, line in runs_of(programs).items():
        if ran.get(run) != line:
            problems.append(f"no cell runs {run} as evidence/{run}.run says: {line}")
    if problems:
        bad(f"{name} tangles the chapter's files from its cells and compiles them as the page says",
            "; ".join(problems[:3]))
    else:
        ok(f"{name} tangles the chapter's files from its cells and compiles them as the page says")
    return (name, chapter, nb, code, list(ran), tmp) if RUN else None


# --no-run: the notebooks as files alone, neither run in a kernel nor
# replayed.
RUN = True

# The notebooks' gcc (see no_toolkit_env): the real one, run once for each
# command line and sources (the .c files it names, and the .h files beside
# them); the same again copies the binary it made. The binaries are kept
# in NOTEBOOK_GCC_CACHE where it is set, a folder that every check.py given
# it shares and none removes (tests/notebooks/run.sh gives its runs one:
# the fixture book's notebooks build the same checker as the book's), and
# else in a folder of this run's own.
GCC_CACHE = os.environ.get("NOTEBOOK_GCC_CACHE") or tempfile.mkdtemp(prefix="notebook-gcc.")
GCC_CACHE_OWN = not os.environ.get("NOTEBOOK_GCC_CACHE")
GCC_ONCE = """#!{python}
import hashlib, os, shutil, subprocess, sys
args = sys.argv[1:]
key = hashlib.sha256("\\0".join(args).encode())
sources = [a for a in args if a.endswith(".c")]
for d in sorted(set(os.path.dirname(a) or "." for a in sources)):
    sources += sorted(os.path.join(d, h) for h in os.listdir(d) if h.endswith(".h"))
for a in sources:
    key.update(("\\0" + a + "\\0").encode())
    with open(a, "rb") as f:
        key.update(f.read())
out = args[args.index("-o") + 1] if "-o" in args[:-1] else None
kept = os.path.join({cache!r}, key.hexdigest())
if out and os.path.exists(kept):
    shutil.copy2(kept, out)
    sys.exit(0)
r = subprocess.run([{gcc!r}] + args).returncode
if r == 0 and out:
    shutil.copy2(out, kept + ".%d" % os.getpid())
    os.replace(kept + ".%d" % os.getpid(), kept)
sys.exit(r)
"""


def no_toolkit_env(tmp):
    """The environment of a machine with neither the CUDA Toolkit nor a GPU:
    the PATH without the folders that hold nvcc, and first on it an
    nvidia-smi that finds no GPU, as NVIDIA's does then (exit status 9).
    None, with why, where nvcc shares a folder with a command the cells
    need."""
    stub = os.path.join(tmp, ".no-gpu")
    os.makedirs(stub)
    with open(os.path.join(stub, "nvidia-smi"), "w", encoding="utf-8") as f:
        f.write("#!/bin/sh\necho 'No devices were found'\nexit 9\n")
    os.chmod(os.path.join(stub, "nvidia-smi"), 0o755)
    dirs = [d for d in os.environ.get("PATH", "").split(os.pathsep)
            if d and not os.access(os.path.join(d, "nvcc"), os.X_OK)]
    path = os.pathsep.join(dirs)
    for cmd in ("bash", "gcc", "tee"):
        if shutil.which(cmd, path=path) is None:
            return None, f"{cmd} is in a folder with nvcc, so no PATH leaves nvcc out"
    # Every notebook builds the same checker with the same line: gcc builds
    # it once, and a notebook that asks again for the very same build (its
    # command line and its sources, byte for byte) is given that binary.
    os.makedirs(GCC_CACHE, exist_ok=True)
    with open(os.path.join(stub, "gcc"), "w", encoding="utf-8") as f:
        f.write(GCC_ONCE.format(python=sys.executable, gcc=shutil.which("gcc", path=path),
                                cache=GCC_CACHE))
    os.chmod(os.path.join(stub, "gcc"), 0o755)
    path = os.pathsep.join([stub] + dirs)
    # ipykernel's debugger warns of Python's frozen modules on stderr.
    os.environ["PYDEVD_DISABLE_FILE_VALIDATION"] = "1"
    env = dict(os.environ, PATH=path)
    return env, None


# The cell run before each notebook in the kernel that runs them all: it
# takes the kernel back to the state it started in (the first time, it
# notes that state), then moves into the notebook's folder. Its namespace
# emptied (IPython's %reset); the magics it did not start with unregistered
# (the setup cell's %%chunk); its environment put back; the folder changed.
# Modules stay imported (the setup cell's are os, re and IPython's own).
# tests/notebooks/strays.py holds a notebook run after another to finding
# none of these left.
RESET_CELL = """\
def _reset_kernel(folder):
    import os
    ip = get_ipython()
    magics = ip.magics_manager.magics
    start = ip.__dict__.setdefault("_notebook_check_start", (
        {{kind: set(names) for kind, names in magics.items()}}, dict(os.environ)))
    ip.reset(new_session=False)
    for kind, names in start[0].items():
        for name in set(magics[kind]) - names:
            del magics[kind][name]
            if hasattr(ip.magics_manager.user_magics, name):
                delattr(ip.magics_manager.user_magics, name)
    os.environ.clear()
    os.environ.update(start[1])
    os.chdir(folder)
_reset_kernel({folder!r})
"""


def run_in_kernel(notebooks, top):
    """The notebooks, [(nb, folder)], run top to bottom, one after another,
    in one Jupyter kernel (nbclient and ipykernel) started in top, each in
    its folder, as on a machine with no nvcc and no GPU, a RESET_CELL before
    each. (ran, None): ran, each notebook's cells as run, its reset cell
    first, or a str that says why the kernel ran none to the end; (None,
    why) where no PATH leaves nvcc out."""
    try:
        import nbclient
        import jupyter_client.session
    except ImportError as e:
        return f"{e}; install python3-nbclient and python3-ipykernel", None
    # Each message's dates, which nothing here reads (the cells' timings
    # are not recorded), left as the kernel wrote them: parsing them was
    # about a third of this process's time.
    jupyter_client.session.extract_dates = lambda obj: obj
    env, why = no_toolkit_env(top)
    if env is None:
        return None, why
    cells, spans = [], []
    for nb, folder in notebooks:
        begin = len(cells)
        cells.append(nbformat.v4.new_code_cell(RESET_CELL.format(folder=folder)))
        cells += copy.deepcopy(nb.cells)
        spans.append((begin, len(cells)))
    for k, c in enumerate(cells):  # ids unique in the whole, as in each notebook
        c["id"] = f"cell-{k}"
    whole = nbformat.v4.new_notebook(cells=cells)
    client = nbclient.NotebookClient(whole, timeout=300, kernel_name="python3",
                                     allow_errors=True, record_timing=False)
    try:
        client.execute(env=env, cwd=top)
    except Exception as e:
        return f"the kernel did not run the notebooks: {type(e).__name__}: {e}", None
    return [whole.cells[a:b] for a, b in spans], None


KERNEL_RUN = "{} run in a Jupyter kernel without nvcc or a GPU: every cell ran, " \
    "each compile and run says what is missing and how to get it, each check skips"


def executes(name, cells, progs):
    """The notebook's cells as the kernel ran them (run_in_kernel), its
    reset cell first: every cell must succeed; each compile cell says in
    one line that there is no nvcc, each run cell in one line that there is
    no GPU and how to get one, and each check says SKIP for that reason."""
    what = KERNEL_RUN.format(name)
    if isinstance(cells, str):
        bad(what, cells)
        return
    reset = [o for o in cells[0].get("outputs", []) if o.output_type == "error"]
    if reset:
        bad(what, f"the kernel was not reset for the notebook: {reset[0].ename}: "
                  f"{(reset[0].evalue.splitlines() or [''])[0]}")
        return
    problems = []
    for c in cells[1:]:
        if c.cell_type != "code":
            continue
        head = c.source.splitlines()[0] if c.source else ""
        text = "".join(o.get("text", "") for o in c.get("outputs", [])
                       if o.output_type == "stream")
        for o in c.get("outputs", []):
            if o.output_type == "error":
                problems.append(f"the cell {head!r} raised {o.ename}: "
                                f"{(o.evalue.splitlines() or [''])[0]}")
        m = magic_parts(c.source)
        body = m[2] if m and m[0] == "bash" else ""
        run = RUN_CELL.search(body)
        if body.startswith(COMPILE_CELL):
            said = NO_NVCC.fullmatch(text.rstrip("\n"))
            if not said or said.group(1) not in progs:
                problems.append(f"the compile cell said {text!r}, not that nvcc is missing")
        elif run:
            if text != NO_GPU.format(run.group(2)) + "\n":
                problems.append(f"the run of {run.group(2)} said {text!r}, "
                                f"not in one line that there is no GPU")
        elif CLAIMS_CELL in body:
            if text != NO_RUN_CLAIMS + "\n":
                problems.append(f"the claims cell said {text!r}, not in one line that no run is there")
        elif body.startswith("./tcheck check"):
            prog = body.split()[3]
            if text.splitlines()[:1] != [f"SKIP {prog}: " + NO_GPU.format(prog)]:
                problems.append(f"the check of {prog} said {text.splitlines()[:1]}, "
                                f"not a skip for want of a GPU")
    if problems:
        bad(what, "; ".join(problems[:3]))
    else:
        ok(what)


def claims_as_book(build, chapter, body, progs, tmp, gpu, said):
    """Whether the claims cell reports what the book's own claims tool
    (make compare's) does on the same runs, given the book's values and
    the chapter's claims: as recorded (gpu, said), and again as if a
    Tesla T4 had printed them, which makes the claims pinned to the
    recorded GPU claims about another GPU, shown beside the values the
    cell wrote. None, or what differs."""
    tool = os.path.join(build, "tools", "claims")
    for name in (gpu, "Tesla T4"):
        if name != gpu:
            for p in progs:
                out = os.path.join(tmp, p + ".out")
                with open(out, encoding="utf-8") as f:
                    text = f.read()
                with open(out, "w", encoding="utf-8") as f:
                    f.write(text.replace(gpu, name))
            said = subprocess.run(["bash", "-c", body], cwd=tmp, capture_output=True,
                                  text=True, timeout=300).stdout
        slug = subprocess.run([os.path.join(tmp, "tcheck"), "slug", name], capture_output=True,
                              text=True).stdout.strip() or "unnamed"
        book = subprocess.run([tool, "yours", name, slug, os.path.join(tmp, "claims", "yours"),
                               os.path.join(build, "values"),
                               os.path.join(build, "meta", chapter + ".lines")],
                              capture_output=True, text=True)
        if book.returncode != 0 or said != book.stdout:
            mine, theirs = said.splitlines(), book.stdout.splitlines()
            k = next((k for k in range(max(len(mine), len(theirs)))
                      if mine[k:k + 1] != theirs[k:k + 1]), 0)
            return (f"on a run of {name} the claims cell said {mine[k:k + 1]} where "
                    f"{tool} says {theirs[k:k + 1] or book.stderr.splitlines()[:1]}")
    return None


def replay(name, chapter, build, code, progs, tmp):
    """Every cell that needs no GPU, in tmp, where the files are tangled
    already. A program's run is replaced by the output of a transcript
    recorded for it, and the claims cell must find every claim on those
    values holding, as make check found them on the same values."""
    if not progs:
        return
    bash = [magic_parts(c.source)[2] for c in code
            if (magic_parts(c.source) or ("",))[0] == "bash"]
    if not any("./tcheck check" in b for b in bash):
        skip(f"{name} checks its output", "the notebook has no check cell")
        return
    replay = f"{name} replayed without a GPU: files written, checker built, check passes, " \
        "claims reported as make compare reports them"
    with open(os.path.join(build, "meta", chapter + ".lines"), encoding="utf-8") as f:
        claims = any(line.startswith("claim\t") for line in f)
    if claims and not any(CLAIMS_CELL in b for b in bash):
        bad(replay, "the chapter makes claims, and no cell holds them to the reader's runs")
        return
    for p in progs:
        tr = None
        tdir = os.path.join("evidence", p)
        if os.path.isdir(tdir):
            for t in sorted(os.listdir(tdir)):
                if t.endswith(".txt"):
                    tr = transcript_output(os.path.join(tdir, t))
                    break
        if tr is None:
            skip(replay, f"no transcript of {p} is recorded yet to stand in for a run")
            return
        with open(os.path.join(tmp, p + ".out"), "w", encoding="utf-8") as f:
            f.write(tr)
        with open(os.path.join(tmp, p + ".status"), "w", encoding="utf-8") as f:
            f.write("0\n")
        with open(os.path.join(tmp, p + ".err"), "w", encoding="utf-8") as f:
            f.write("")
    for c in code:
        m = magic_parts(c.source)
        f, body = writefile(c)
        if f:
            target = os.path.join(tmp, f)
            if not os.path.isdir(os.path.dirname(target)):
                bad(replay, f"%%writefile {f} before its folder is made")
                return
            with open(target, "w", encoding="utf-8") as out:
                out.write(body)
            continue
        if m is None or m[0] == "chunk":
            continue  # run already, by tangles
        if m[0] != "bash":
            bad(replay, f"a code cell that is none of Python, %%chunk, %%writefile and %%bash: {c.source[:40]!r}")
            return
        body = m[2]
        if body.startswith(COMPILE_CELL) or RUN_CELL.search(body):
            continue  # needs the GPU's toolkit or the GPU
        words = body.split()
        if words[:1] == ["gcc"] and "-o" in words[:-1] and \
                os.path.exists(os.path.join(tmp, words[words.index("-o") + 1])):
            continue  # a tool, built by this very cell in the kernel
        r = subprocess.run(["bash", "-c", body], cwd=tmp, capture_output=True,
                           text=True, timeout=300)
        if r.returncode != 0 or ("./tcheck check" in body and
                                 not r.stdout.startswith("PASS")):
            why = (r.stdout + r.stderr).strip().splitlines()
            bad(replay, f"the cell {body.splitlines()[0]!r} said: {why[0] if why else r.returncode}")
            return
        if CLAIMS_CELL in body:
            held = CLAIMS_HELD.match(r.stdout)
            if not held or held.group(1) != chapter or held.group(3) != held.group(4):
                bad(replay, "the claims cell, given recorded transcripts, said "
                            f"{(r.stdout.splitlines() or [r.stderr])[0]!r}, not that every "
                            "claim on their values holds")
                return
            why = claims_as_book(build, chapter, body, progs, tmp, held.group(2), r.stdout)
            if why:
                bad(replay, why)
                return
    ok(replay)


def check_book(build, chapters):
    """check() on each chapter, the files of each notebook in a folder of
    its own; then, but with --no-run, the notebooks run in one kernel, each
    after a reset (run_in_kernel), and each replayed."""
    with tempfile.TemporaryDirectory(prefix="notebooks.") as top:
        to_run = []
        for k, chapter in enumerate(chapters):
            folder = os.path.join(top, str(k))
            os.mkdir(folder)
            r = check(build, chapter, folder)
            if r is not None:
                to_run.append(r)
        if not to_run:
            return
        ran, why = run_in_kernel([(r[2], r[5]) for r in to_run], top)
        for k, (name, chapter, nb, code, progs, folder) in enumerate(to_run):
            if ran is None:
                skip(KERNEL_RUN.format(name), why)
            else:
                executes(name, ran if isinstance(ran, str) else ran[k], progs)
            replay(name, chapter, build, code, progs, folder)


def cleanup():
    if GCC_CACHE_OWN:
        shutil.rmtree(GCC_CACHE, ignore_errors=True)


def main():
    global RUN
    args = sys.argv[1:]
    if args[:1] == ["--no-run"]:
        RUN, args = False, args[1:]
    build, chapters = args[0], args[1:]
    try:
        check_book(build, chapters)
    finally:
        cleanup()
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
