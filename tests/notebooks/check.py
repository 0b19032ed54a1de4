"""The chapters as notebooks: each build/notebooks/NAME.ipynb is checked
against the nbformat schema and against the book, then replayed without a
GPU. Prints "PASS name", "FAIL name: why" or "SKIP name: why" lines.

usage: python3 check.py BUILD_DIR CHAPTER...

For each chapter:
  - the notebook is valid nbformat 4 and asks for a GPU (a T4 on Colab);
  - it writes every file the chapter tangles, byte for byte as
    build/src/FILE, and compiles each program with the book's compile line
    (tools/compile.mk, the line the chapter's page prints), run by the nvcc
    on the notebook's PATH;
  - it runs each run of its programs (evidence/RUN.run, PROG ARG...) as
    ./PROG ARG..., its output kept as RUN.out, and checks it;
  - replayed in an empty folder with bash and gcc, every cell that needs no
    GPU runs: the files are written, the checker is built, and the check
    cell, given a recorded transcript's output in place of a run, says PASS.
"""
import os
import re
import subprocess
import sys
import tempfile

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


# A cell that runs a program, or a run of one: "./PROG [ARG...] | tee NAME.out".
RUN_CELL = re.compile(r"(\./\S+(?: [^|\n]*[^ |\n])?) \| tee (\S+)\.out\n")


def writefile(cell):
    first, _, body = cell.source.partition("\n")
    m = re.fullmatch(r"%%writefile (\S+)", first)
    return (m.group(1), body) if m else (None, None)


def transcript_output(path):
    text = open(path, encoding="utf-8").read()
    sep = "\n--- output ---\n"
    return text.split(sep, 1)[1] if sep in text else None


def check(build, chapter):
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

    code = [c for c in nb.cells if c.cell_type == "code"]
    written = {}
    for c in code:
        f, body = writefile(c)
        if f:
            written[f] = body
    problems = []
    for root in roots_of(build, chapter):
        want = open(os.path.join(build, "src", root), encoding="utf-8").read()
        got = written.get(root)
        if got is None:
            problems.append(f"no cell writes {root}")
        elif got.rstrip("\n") != want.rstrip("\n"):
            problems.append(f"the cell that writes {root} differs from {build}/src/{root}")
    bash = [c.source.partition("\n")[2] for c in code
            if c.source.startswith("%%bash\n")]
    for root in roots_of(build, chapter):
        if not root.endswith(".cu"):
            continue
        want = compile_line(root[:-3])
        if want not in bash:
            problems.append(f"no cell holds the compile line: {want}")
    ran = {m.group(2): m.group(1) for m in map(RUN_CELL.match, bash) if m}
    programs = [r[:-3] for r in roots_of(build, chapter) if r.endswith(".cu")]
    for run, line in runs_of(programs).items():
        if ran.get(run) != line:
            problems.append(f"no cell runs {run} as evidence/{run}.run says: {line}")
    if problems:
        bad(f"{name} writes the chapter's files and compiles them as the page says",
            "; ".join(problems[:3]))
    else:
        ok(f"{name} writes the chapter's files and compiles them as the page says")

    # Replay: every cell that needs no GPU, in an empty folder. A program's
    # run is replaced by the output of a transcript recorded for it.
    progs = list(ran)
    if not progs:
        return
    if not any("./tcheck check" in b for b in bash):
        skip(f"{name} checks its output", "the notebook has no check cell")
        return
    replay = f"{name} replayed without a GPU: files written, checker built, check passes"
    with tempfile.TemporaryDirectory() as tmp:
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
        for c in code:
            f, body = writefile(c)
            if f:
                target = os.path.join(tmp, f)
                if not os.path.isdir(os.path.dirname(target)):
                    bad(replay, f"%%writefile {f} before its folder is made")
                    return
                with open(target, "w", encoding="utf-8") as out:
                    out.write(body)
                continue
            if not c.source.startswith("%%bash\n"):
                bad(replay, f"a code cell that is neither %%writefile nor %%bash: {c.source[:40]!r}")
                return
            body = c.source.partition("\n")[2]
            if body.startswith("nvcc ") or RUN_CELL.match(body):
                continue  # needs the GPU's toolkit or the GPU
            r = subprocess.run(["bash", "-c", body], cwd=tmp, capture_output=True,
                               text=True, timeout=300)
            if r.returncode != 0 or ("./tcheck check" in body and
                                     not r.stdout.startswith("PASS")):
                why = (r.stdout + r.stderr).strip().splitlines()
                bad(replay, f"the cell {body.splitlines()[0]!r} said: {why[0] if why else r.returncode}")
                return
    ok(replay)


def main():
    build, chapters = sys.argv[1], sys.argv[2:]
    for ch in chapters:
        check(build, ch)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
