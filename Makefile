# The course book, from chapters to programs and pages. Each arrow is a tool
# of tools/book/ (the book: chapter to page, on the library tools/lib/) or
# tools/evidence/ (the evidence: program to verdict).
#
# Tangle: tangle.sh, one transaction for the chapters that changed
#   chapters/NAME.nw --nwpipe.sh--> build/meta/NAME.nwpipe  (noweb's stream,
#                                                            read once: markup,
#                                                            its identifiers
#                                                            indexed by
#                                                            autodefs.c and
#                                                            finduses)
#     --chapter-meta--> build/meta/NAME.lines, NAME.tsv     (title, roots,
#                                                            labels, cites)
#     all chapters' .lines + chapters/labels.tsv --snippets check--> ok
#     --snippet-marks | nt--> build/src/FILE                (plain, to read)
#     --nt -L--> build/lsrc/FILE                            (#line, to compile)
#   build/src/*, build/meta/*.lines --snippets table--> build/snippets.tsv
# Compile
#   build/lsrc/PROG.cu --nvcc (tools/compile.mk)--> build/bin/PROG
#   build/lsrc/PROG.cu --nvcc -arch=sm_75--> build/fit/PROG.ptxas, PROG.ptx
#     --t4-fit--> build/values/PROG/tesla-t4.fit.tsv, build/md/NAME.fit.md
#                                                  (the T4 fit of each kernel)
# Weave
#   build/meta/NAME.nwpipe --chapter-md--> build/md/NAME.md, NAME.refs,
#                                          NAME.chunks      (the chunk model)
#                                          NAME.code.md     (its code blocks)
#                                          NAME.numbers.md  (where its numbers
#                                                            come from)
#   book.mk, tools/compile.mk, evidence/ --make--> build/md/NAME.model
#                                  (the chapter's programs, compile lines, runs,
#                                   profiles, expectations and transcripts)
#   build/md/NAME.model, evidence/PROG/GPU.txt --run-md--> build/md/NAME.run.md
#                                     NAME.run.code.md  (compile lines and
#                                                        transcripts)
#   build/md/NAME.code.md, NAME.run.code.md --pandoc--> build/md/NAME.code.html
#                                                  (highlighted, once a change)
#   build/md/NAME.numbers.md --pandoc--> build/md/NAME.numbers.html (once a change)
#   evidence/PROG.chart + build/values/PROG/GPU.tsv --chart | gnuplot-->
#                    build/html/charts/PROG/GPU.svg, and its figure,
#                    build/charts/PROG/GPU.md, which chapter-md places
#   build/md/NAME.* --pandoc | chunk-links | heading-links--> build/html/NAME.html
#   build/meta/*.tsv --nav--> page navigation, the front page's chapter list
#   build/snippets.tsv, chapters/labels.tsv, build/meta/*.nwpipe
#                    --index-pages--> labels.html, chunks.html, identifiers.html
#   build/html/NAME.html, all chapters --book-page | pandoc--> book.html
#                                                  (the whole book, one page)
#   build/lsrc/fig-FIG.cpp --c++ (tools/figure/svg.hpp)--> build/fig/fig-FIG
#     --run | xmllint--> build/html/fig/FIG.svg             (a figure, drawn
#                                                            from the chapter's
#                                                            constants)
#   build/html/NAME.html + build/md/NAME.chunks --search-index-->
#                    build/html/search-index.js
#   build/meta/NAME.nwpipe, build/md/NAME.model + tools/book/notebook-setup.py
#                    --notebook-md | pandoc-->
#                    build/notebooks/NAME.ipynb        (a cell per chunk)
# Evidence: tools/evidence/progcheck.sh runs build/bin/PROG; tcheck holds its
#   output to evidence/PROG.expect and evidence/PROG/GPU.txt. tcheck's parts
#   (tools/evidence/tcheck/) --amalgamate.sh--> build/tools/tcheck.c, the one
#   file the notebooks and the GPU bundle carry. A run,
#   evidence/RUN.run, is a program with arguments (build/bin/RUN), and a
#   profile, evidence/PROG.ncu, one under Nsight Compute (build/bin/PROG_ncu):
#   each one more program to the evidence.
#
# `make` builds the book, `make check` tests it. README.md says more.

# The book, in reading order. Each name is a file chapters/NAME.nw.
CHAPTERS := day32-scan device-scan hopper-scan day37-spmv day93-managed

include tools/compile.mk

B := build
export BOOK_LOCK := $(or $(TMPDIR),/tmp)/book$(subst /,_,$(abspath $(B))).lock

# A make of the book's own goals is a transaction on build/: tools/txn runs
# the make that builds (the rest of this file, BOOK_TXN set) and, where it
# fails or is stopped, puts build/ back as it was, every file's bytes and
# time, so that no error leaves build/ changed, whichever step finds it (a
# quote naming no GPU once the tangle has written its files, a figure that
# does not compile). The other goals (check, cite, clean, the evidence's)
# and a make run by a recipe are made here directly.
TXN_GOALS := all tangle programs fit html notebooks
ifeq ($(MAKELEVEL)$(BOOK_TXN)$(filter-out $(TXN_GOALS),$(or $(MAKECMDGOALS),all)),0)
.PHONY: $(TXN_GOALS) txn
$(or $(MAKECMDGOALS),all): txn
	@:
txn:
	+@BOOK_TXN=1 exec tools/txn '$(B)' $(MAKE) --no-print-directory $(MAKECMDGOALS)
else

# Every recipe runs in bash under the build tree's lock, so that two makes
# in one tree take turns; the lock is a file outside it. A transaction holds
# it for all of its make (tools/txn); outside one, each recipe's shell makes
# sure that its make holds it (tools/build-lock).
SHELL := $(if $(BOOK_TXN),/bin/bash,tools/build-lock)
.SHELLFLAGS := -o pipefail -ec
.DELETE_ON_ERROR:
# What pattern rules make in build/ is kept (a chart's script, a notebook's
# Markdown), not deleted as intermediate; a stamp that goes missing is remade.
.PRECIOUS: $(B)/tools/% $(B)/values/%.tsv $(B)/md/%.md $(B)/md/%.refs $(B)/md/%.run.md \
           $(B)/md/%.nav.yaml $(B)/md/%.nb.md $(B)/md/%.chunks $(B)/md/%.code.md $(B)/md/%.run.code.md $(B)/md/%.code.html $(B)/md/%.numbers.md $(B)/md/%.numbers.html $(B)/charts/%.gp $(B)/charts/%.narrow.gp $(B)/charts/%.md \
           $(B)/meta/%.tsv $(B)/meta/%.lines $(B)/meta/%.nwpipe \
           $(B)/fit/%.ptxas $(B)/fit/%.ptx $(B)/fit/%.values $(B)/md/%.fit.md $(B)/fresh/%.txt $(B)/fresh/%.asked
.DEFAULT_GOAL := all
.SUFFIXES:
.SECONDEXPANSION:
V ?= 0
ifeq ($(V),0)
Q := @
say = @printf '  %-7s %s\n' $(1) $(2)
else
Q :=
say = @:
endif

CC ?= cc
CFLAGS ?= -O2
TOOL_CFLAGS = -std=c11 -Wall -Wextra -Werror -pedantic $(CFLAGS)

NOWEB_LIB ?= /usr/lib/noweb
# A chapter's pipeline: markup, then noweb's filters that index its
# identifiers (tools/book/nwpipe.sh).
NWPIPE := tools/book/nwpipe.sh
NT := $(NOWEB_LIB)/nt
NOTANGLE ?= notangle
PANDOC ?= pandoc

# The external commands, as files: when one is missing its rule installs
# it (tools/need), and when it is there nothing runs.
# (Found without a shell, so that a no-op make runs no command at all.)
# (An empty name is no command: NVCC= says there is no nvcc, and must not
# find the folders of the PATH.)
which = $(if $(strip $(1)),$(firstword $(wildcard $(if $(findstring /,$(1)),$(1),\
          $(addsuffix /$(1),$(subst :, ,$(PATH)))))))
NOTANGLE_BIN := $(or $(call which,$(NOTANGLE)),/usr/bin/$(NOTANGLE))
PANDOC_BIN := $(or $(call which,$(PANDOC)),/usr/bin/$(PANDOC))
GNUPLOT_BIN := $(or $(call which,gnuplot),/usr/bin/gnuplot)
# The figures' compiler: make's own default, g++, from Debian's g++.
CXX_BIN := $(or $(call which,$(CXX)),/usr/bin/$(CXX))
# The figures' SVG is read by xmllint, from Debian's libxml2-utils.
XMLLINT_BIN := $(or $(call which,xmllint),/usr/bin/xmllint)
# Search runs lunr in the browser; the page loads Debian's copy from its folder.
LUNR_JS ?= /usr/share/javascript/lunr/lunr.min.js
HAVE_NVCC := $(call which,$(NVCC))

# Chapters on disk and chapters in the book must agree.
ON_DISK := $(sort $(basename $(notdir $(wildcard chapters/*.nw))))
MISSING := $(filter-out $(ON_DISK),$(CHAPTERS))
UNLISTED := $(filter-out $(CHAPTERS),$(ON_DISK))
ifneq ($(MISSING),)
$(error chapters/$(firstword $(MISSING)).nw is listed in CHAPTERS but does not exist; write it or remove it from the list)
endif
ifneq ($(UNLISTED),)
$(error chapters/$(firstword $(UNLISTED)).nw is not in CHAPTERS; add it to the list in the Makefile where it belongs in the book)
endif
# $(call twice,LIST): the first word that LIST holds more than once.
twice = $(if $(1),$(if $(filter $(firstword $(1)),$(wordlist 2,$(words $(1)),$(1))),$(firstword $(1)),$(call twice,$(wordlist 2,$(words $(1)),$(1)))))
ifneq ($(call twice,$(CHAPTERS)),)
$(error $(call twice,$(CHAPTERS)) is listed twice in CHAPTERS; a chapter has one place in the book)
endif
# Every snippet label the book has published, and what replaced a retired one.
REGISTRY := chapters/labels.tsv
ifeq ($(wildcard $(REGISTRY)),)
$(error $(REGISTRY) is missing: it lists the labels the book has published; restore it (git checkout $(REGISTRY)), or start an empty one for a new book)
endif


# build/chapters.list: the book's chapters as last built. When CHAPTERS
# differs, the tangle runs (and writes the list anew, where it succeeds), so
# that the pages that list the chapters follow the list, and a chapter taken
# out of it loses its outputs.
LIST := $(B)/chapters.list
ifneq ($(strip $(file <$(LIST))),$(strip $(CHAPTERS)))
LIST_CHANGED := list-changed
endif
.PHONY: list-changed
list-changed: ;
$(LIST): $(B)/stamp/tangled ;

# Begins a recipe that writes $@.tmp and renames it: a failure or an
# interrupt leaves no .tmp behind.
TRAP = trap 'rm -f $@.tmp' EXIT;
# $(call update,FILE): move FILE.tmp to FILE only where the text changed,
# so that what depends on FILE is not remade for nothing.
update = { cmp -s $(1).tmp $(1) && rm -f $(1).tmp || mv -f $(1).tmp $(1); }

# Each stage removes its own outputs of a chapter the book no longer lists
# (the tangle, its meta, src and lsrc): $(B)/stamp/STAGE.chapters names the
# chapters as the stage last built them, and where CHAPTERS differs its
# rule removes what the stage made of each one that left, and writes the
# list anew. $(call left,LIST): the chapters LIST names that the book does
# not (a name of letters, digits, _ and -: no other reaches a recipe).
left = $(foreach c,$(filter-out $(CHAPTERS),$(file <$(1))),$(if $(call without,$(c),$(PROG_CHARS)),,$(c)))
# $(call stage-chapters,STAGE,FILES): its rule; FILES, % the chapter, are
# what the stage makes of one.
define stage-chapters
$(B)/stamp/$(1).chapters: $(if $(call same,$(strip $(file <$(B)/stamp/$(1).chapters)),$(strip $(CHAPTERS))),,FORCE) | $(B)/stamp
	$$(Q)$$(TRAP)rm -rf $$(foreach c,$$(call left,$$@),$$(wildcard $(subst %,$$(c),$(2)))) && \
	printf '%s\n' $$(CHAPTERS) > $$@.tmp && mv -f $$@.tmp $$@
endef
# Likewise each stage removes its own outputs of a file root no chapter
# tangles now (the tangle removes its src and lsrc): $(B)/stamp/STAGE.roots
# names the roots as the stage last built them. $(call left-roots,LIST):
# the roots LIST names that the book does not (a name of letters, digits,
# _, - and dots: no other reaches a recipe).
left-roots = $(foreach r,$(filter-out $(ROOTS),$(file <$(1))),$(if $(call without,$(r),$(PROG_CHARS) .),,$(r)))
# $(call stage-roots,STAGE,ROOTS,FILES): its rule; ROOTS, a pattern (%.cu,
# fig-%.cpp, %), says which roots the stage makes anything of, and FILES,
# % what ROOTS matched, what it makes of one.
define stage-roots
$(B)/stamp/$(1).roots: $(if $(call same,$(strip $(file <$(B)/stamp/$(1).roots)),$(strip $(ROOTS))),,FORCE) | $(B)/stamp
	$$(Q)$$(TRAP)rm -rf $$(foreach r,$$(filter $(2),$$(call left-roots,$$@)),$$(wildcard $$(subst %,$$(patsubst $(2),%,$$(r)),$(3)))) && \
	printf '%s\n' $$(ROOTS) > $$@.tmp && mv -f $$@.tmp $$@
endef
# The book's tools, tools/book/NAME.c, each built as $(NAME) against the
# shared library in tools/lib.
BOOK_TOOLS := $(basename $(notdir $(wildcard tools/book/*.c)))
$(foreach t,$(BOOK_TOOLS),$(eval $(t) := $(B)/tools/$(t)))
LIB_SRC := $(wildcard tools/lib/*.c)
LIB_HDR := $(wildcard tools/lib/*.h)

META := $(CHAPTERS:%=$(B)/meta/%.tsv)
LINES := $(CHAPTERS:%=$(B)/meta/%.lines)
PAGES := $(CHAPTERS:%=$(B)/html/%.html)
PIPES := $(CHAPTERS:%=$(B)/meta/%.nwpipe)
NOTEBOOKS := $(CHAPTERS:%=$(B)/notebooks/%.ipynb)

# Which files and programs each chapter tangles, read from its meta file.
ifeq ($(filter clean preview revise asan-cflags,$(MAKECMDGOALS)),)
include $(B)/book.mk
endif
ROOTS := $(foreach c,$(CHAPTERS),$(ROOTS.$(c)))
# The programs the chapters compile.
COMPILED := $(foreach c,$(CHAPTERS),$(PROGS.$(c)))
# The figures they draw: root fig-FIG.cpp, drawn as html/fig/FIG.svg, and
# the chapter of each (FIGCH.FIG), for messages.
FIGURES := $(foreach c,$(CHAPTERS),$(FIGS.$(c)))
$(foreach c,$(CHAPTERS),$(foreach f,$(FIGS.$(c)),$(eval FIGCH.$(f) := $(c))))
# $(call fits,PROGS): those that run on a T4 and so have a T4 fit. One
# built for a later GPU (ARCH.PROG in tools/compile.mk) says so and exits
# 77 there.
fits = $(foreach p,$(1),$(if $(ARCH.$(p)),,$(p)))
# Profiles: evidence/PROG.ncu names kernels of PROG and the counters Nsight
# Compute is to read of them (tools/evidence/ncu-run.sh documents it);
# $(B)/bin/PROG_ncu runs it, and to the evidence it is one more program,
# PROG_ncu, with an expectation and transcripts.
# (A spec for a program no chapter builds is left out here, and the
# evidence lint names it.)
PROFILES := $(filter $(COMPILED:%=%_ncu),$(patsubst evidence/%.ncu,%_ncu,$(wildcard evidence/*.ncu)))
# Runs: evidence/RUN.run holds one line, PROG ARG..., a program of the book
# and the arguments of a variant of it, such as an exercise's flag
# (run-line in tools/compile.mk reads it); $(B)/bin/RUN runs it, and to the
# evidence it is one more program, RUN, with an expectation and transcripts.
# $(B)/stamp/names rejects a run whose name or line is wrong; until it is
# put right it is left out here.
RUN_FILES := $(wildcard evidence/*.run)
NAME_CHARS := a b c d e f g h i j k l m n o p q r s t u v w x y z 0 1 2 3 4 5 6 7 8 9 _
# $(call without,TEXT,CHARS): TEXT with every one of CHARS taken out.
without = $(if $(2),$(call without,$(subst $(firstword $(2)),,$(1)),$(wordlist 2,$(words $(2)),$(2))),$(1))
# $(call same,A,B): A when A and B are the same text.
same = $(and $(findstring x$(1),x$(2)),$(findstring x$(2),x$(1)))
run-ok = $(and $(if $(call without,$(1),$(NAME_CHARS)),,ok),$(filter-out $(COMPILED) $(PROFILES),$(1)),\
           $(filter $(COMPILED),$(call run-prog,$(1))))
RUNS := $(foreach r,$(RUN_FILES:evidence/%.run=%),$(if $(call run-ok,$(r)),$(r)))
# Transcripts, evidence/PROG/GPU.txt: a transcript is named for its GPU,
# lowercase letters, digits and - (README, "Transcripts"), and its program
# is one of the book's (letters, digits, _ and -, as a file root). A name
# is spliced into recipes' commands, so one of other characters (a blank,
# a quote, a $, a ;) is given to no recipe: $(B)/stamp/names stops the
# build on it, naming it. $(call transcripts,PROG): PROG's, so named.
SLUG_CHARS := $(filter-out _,$(NAME_CHARS)) -
PROG_CHARS := $(NAME_CHARS) - A B C D E F G H I J K L M N O P Q R S T U V W X Y Z
transcripts = $(if $(call without,$(1),$(PROG_CHARS)),,$(foreach t,$(wildcard evidence/$(1)/*.txt),\
                $(if $(call without,$(patsubst evidence/$(1)/%.txt,%,$(t)),$(SLUG_CHARS)),,$(t))))
# $(call runs-of,PROGS): the runs of PROGS, each after its program's.
runs-of = $(foreach p,$(1),$(foreach r,$(RUNS),$(if $(filter $(p),$(call run-prog,$(r))),$(r))))
# The programs whose output evidence/ holds: record, accept, compare and
# make check take these. A profile or a run joins them once make profile or
# make record has made evidence/PROG/, so that one with nothing recorded
# yet fails no lint.
PROGRAMS := $(strip $(COMPILED) $(foreach p,$(PROFILES) $(RUNS),$(if $(wildcard evidence/$(p)/),$(p))))

# The code of each earlier revision of a published label, which the
# registry keeps (make revise, below): $(KEPT)/LABEL@N.cu.
KEPT := $(patsubst %.tsv,%,$(REGISTRY))
# (A file there of a name that is no LABEL@N.cu is no revision's, and
# reaches no recipe: a label is lowercase letters, digits and -.)
REV_CHARS := $(filter-out _,$(NAME_CHARS)) - @
KEPT_CODE := $(foreach f,$(wildcard $(KEPT)/*@*.cu),$(if $(call without,$(patsubst $(KEPT)/%.cu,%,$(f)),$(REV_CHARS)),,$(f)))
# The page of each earlier revision's code, $(B)/html/LABEL@N.html.
REVISION_PAGES := $(KEPT_CODE:$(KEPT)/%.cu=$(B)/html/%.html)

# Where build/html is published: BASE_URL=https://example.org/book (one
# setting, empty by default). With it, make cite prints each label's full
# address, the notebooks link to the pages there, and every page names its
# canonical address; without it, the book is local and says so. It is a
# URL of http or https, of letters, digits and - . _ ~ : / %, without a
# trailing /. $(B)/base-url holds it as last built, so that the pages and
# notebooks follow a change.
BASE_URL ?=
URL_CHARS := $(PROG_CHARS) . ~ : / %
BASE := $(patsubst %/,%,$(strip $(value BASE_URL)))
ifneq ($(BASE),)
ifneq ($(or $(call without,$(BASE),$(URL_CHARS)),$(if $(filter http://% https://%,$(BASE)),,x)),)
$(error BASE_URL=$(BASE): want an http or https address of letters, digits and - . _ ~ : / %, such as https://example.org/book)
endif
endif
BASE_FILE := $(B)/base-url
$(eval $(BASE_FILE): $(if $(call same,$(strip $(file <$(BASE_FILE))),$(BASE)),,FORCE))
$(BASE_FILE): | $(B)/stamp
	$(Q)$(TRAP)printf '%s\n' '$(BASE)' > $@.tmp && mv -f $@.tmp $@

# The values the prose quotes, [[=spmv.warp_ms]], and that its claims are
# held to, build/values/PROG/GPU.tsv (tools/lib/quote.h reads them): the
# named holes of every transcript of a program, a profile or a run
# (evidence/PROG/GPU.txt), as tcheck quotes reads them.
RECORDED := $(patsubst evidence/%.txt,$(B)/values/%.tsv,\
              $(foreach p,$(COMPILED) $(PROFILES) $(RUNS),$(call transcripts,$(p))))
VALUES := $(RECORDED) \
          $(if $(HAVE_NVCC),$(patsubst %,$(B)/values/%/tesla-t4.fit.tsv,$(call fits,$(COMPILED))))

# A chart for every transcript of a program that says what to draw
# (evidence/PROG.chart); a program with no transcript yet has none.
charted = $(if $(wildcard evidence/$(1).chart),$(call transcripts,$(1)))
# Each is drawn twice: wide, and narrow for a phone (PROG/GPU.narrow.svg).
CHARTS := $(foreach s,.svg .narrow.svg,$(patsubst evidence/%.txt,$(B)/html/charts/%$(s),\
            $(foreach p,$(PROGRAMS),$(call charted,$(p)))))
# $(call chart-md,PROGS): the charts' figures for the pages of PROGS.
chart-md = $(patsubst evidence/%.txt,$(B)/charts/%.md,\
             $(foreach p,$(1),$(call charted,$(p))))

# The pages (chapter-md, run-md, nav, pandoc, and the model), the T4 fit's
# table, the notebooks, and the labels' copy controls (snippets table).
$(eval $(call stage-chapters,pages,$(foreach x,md refs chunks code.md code.html numbers.md numbers.html run.md run.code.md nav.yaml model,$(B)/md/%.$(x)) $(B)/html/%.html))
$(eval $(call stage-chapters,fit,$(B)/md/%.fit.md))
$(eval $(call stage-chapters,notebooks,$(B)/md/%.nb.md $(B)/notebooks/%.ipynb $(B)/html/notebooks/%.ipynb))
$(eval $(call stage-chapters,snippets,$(B)/md/%.snippets.html))
STAGE_LISTS := $(foreach s,pages fit notebooks snippets,$(B)/stamp/$(s).chapters)
# A root's copy for readers; a program, its dependencies, its T4 fit, and
# the folders of its values and charts (the values stage removes their
# files, those of a transcript taken away); a figure.
$(eval $(call stage-roots,src,%,$(B)/html/src/%))
$(eval $(call stage-roots,programs,%.cu,$(B)/bin/% $(B)/deps/%.d))
$(eval $(call stage-roots,fit,%.cu,$(B)/fit/%.ptx $(B)/fit/%.ptxas $(B)/fit/%.values $(B)/values/%/tesla-t4.fit.tsv))
$(eval $(call stage-roots,values,%.cu,$(B)/values/% $(B)/charts/% $(B)/html/charts/%))
$(eval $(call stage-roots,figures,fig-%.cpp,$(B)/fig/fig-% $(B)/html/fig/%.svg))
ROOT_LISTS := $(foreach s,src programs fit values figures,$(B)/stamp/$(s).roots)

.PHONY: all tangle programs fit html notebooks check clean no-nvcc no-fit cite
all: tangle html $(B)/stamp/names $(if $(HAVE_NVCC),programs fit,no-nvcc no-fit) $(STAGE_LISTS) $(ROOT_LISTS)

tangle: $(B)/stamp/tangled $(B)/snippets.tsv
# Each stage's target removes what it made of a chapter or a root the book
# lost, as all does (its lists).
programs: $(COMPILED:%=$(B)/bin/%) $(PROFILES:%=$(B)/bin/%) $(RUNS:%=$(B)/bin/%) $(B)/stamp/names \
          $(B)/stamp/programs.roots
fit: $(patsubst %,$(B)/values/%/tesla-t4.fit.tsv,$(call fits,$(COMPILED))) $(CHAPTERS:%=$(B)/md/%.fit.md) \
     $(B)/stamp/fit.chapters $(B)/stamp/fit.roots
html: $(PAGES) $(B)/html/index.html $(B)/html/book.css \
      $(foreach s,pages snippets notebooks,$(B)/stamp/$(s).chapters) \
      $(foreach s,src values figures,$(B)/stamp/$(s).roots) \
      $(ROOTS:%=$(B)/html/src/%) $(B)/html/labels.html $(B)/html/chunks.html $(B)/html/identifiers.html \
      $(B)/html/book.html $(REVISION_PAGES) \
      $(B)/html/search.js $(B)/html/theme.js $(B)/html/search-index.js $(B)/html/lunr.min.js \
      $(CHARTS) $(FIGURES:%=$(B)/html/fig/%.svg) \
      $(NOTEBOOKS:$(B)/notebooks/%=$(B)/html/notebooks/%)
notebooks: $(NOTEBOOKS) $(B)/stamp/notebooks.chapters

no-nvcc:
	@echo "make: $(NVCC) not found: tangled and woven, compiling skipped (install the CUDA Toolkit or set NVCC=)"
no-fit:
	@echo "make: $(NVCC) not found: the T4 fit of each kernel skipped (it reads ptxas's report of the sm_75 code)"

# make preview: build the pages, serve build/html on http://127.0.0.1:8000/
# (PORT= or PREVIEW_PORT= another port) and build them again whenever a
# chapter, the labels, the front matter, a style or the evidence is saved;
# the open page reloads in place (tools/preview/serve.py). The server runs
# each build (through a variable, so that make -n starts no server). It
# runs alone, reading no book.mk and running no recipe under the build
# lock, which it would hold for as long as it runs: each build takes it.
ifneq ($(and $(filter preview,$(MAKECMDGOALS)),$(filter-out preview,$(MAKECMDGOALS))),)
$(error make preview runs alone (make preview PORT=N): it builds the book itself, and again at every save)
endif
PREVIEW_PORT ?= $(or $(PORT),8000)
PREVIEW_BUILD = $(MAKE) --no-print-directory html
.PHONY: preview
preview: SHELL := /bin/bash
preview:
	@tools/need python3 python3 && exec python3 tools/preview/serve.py --port '$(PREVIEW_PORT)' $(B)/html -- $(PREVIEW_BUILD)

# --- Our tools -------------------------------------------------------------

# The library is compiled once, each source to an object, and every tool
# links the archive.
LIB_OBJ := $(LIB_SRC:tools/lib/%.c=$(B)/tools/lib/%.o)
$(B)/tools/lib/%.o: tools/lib/%.c $(LIB_HDR) | $(B)/tools/lib
	$(call say,CC,$@)
	$(Q)$(TRAP)$(CC) $(TOOL_CFLAGS) -Itools/lib -c -o $@.tmp $< && mv -f $@.tmp $@
$(B)/tools/libbook.a: $(LIB_OBJ)
	$(Q)$(TRAP)rm -f $@.tmp && ar rcs $@.tmp $^ && mv -f $@.tmp $@
# tcheck is in parts, one a job (tools/evidence/tcheck/, tcheck.h), each
# compiled once; main.c runs the commands. The parts but main.c are also
# the book's reader of transcripts (transcript.h): $(B)/tools/libtcheck.a.
TCHECK_DIR := tools/evidence/tcheck
TCHECK_PARTS := text pattern diff transcript report check compare lint lint-tree record values fingerprint
TCHECK_HDR := $(wildcard $(TCHECK_DIR)/*.h)
$(B)/tools/libtcheck/%.o: $(TCHECK_DIR)/%.c $(TCHECK_HDR) $(LIB_HDR) | $(B)/tools/libtcheck
	$(call say,CC,$@)
	$(Q)$(TRAP)$(CC) $(TOOL_CFLAGS) -Itools/lib -c -o $@.tmp $< && mv -f $@.tmp $@
$(B)/tools/libtcheck.a: $(TCHECK_PARTS:%=$(B)/tools/libtcheck/%.o)
	$(Q)$(TRAP)rm -f $@.tmp && ar rcs $@.tmp $^ && mv -f $@.tmp $@
$(B)/tools/%: tools/book/%.c $(B)/tools/libbook.a $(LIB_HDR) | $(B)/tools
	$(call say,CC,$@)
	$(Q)$(TRAP)$(CC) $(TOOL_CFLAGS) -Itools/lib $(if $(TRANSCRIPTS),-I$(TCHECK_DIR)) -o $@.tmp $< \
	  $(TRANSCRIPTS) $(B)/tools/libbook.a && mv -f $@.tmp $@
# run-md and chart read transcripts with tcheck's reader (transcript.h),
# and snippets takes a label's fingerprint as tcheck takes a program's.
$(run-md) $(chart) $(snippets): TRANSCRIPTS = $(B)/tools/libtcheck.a
$(run-md) $(chart) $(snippets): $(B)/tools/libtcheck.a
# The GPU bundle and the notebooks carry tcheck as one file that compiles
# alone, made from its parts, main.c first (it says what tcheck does), and
# the library sources they use (amalgamate.sh).
$(B)/tools/tcheck.c: tools/evidence/amalgamate.sh $(TCHECK_DIR)/main.c $(TCHECK_PARTS:%=$(TCHECK_DIR)/%.c) \
                     $(TCHECK_HDR) $(LIB_SRC) $(LIB_HDR) | $(B)/tools
	$(Q)$(TRAP)sh tools/evidence/amalgamate.sh -I tools/lib $(TCHECK_DIR)/main.c \
	  $(TCHECK_PARTS:%=$(TCHECK_DIR)/%.c) > $@.tmp && mv -f $@.tmp $@

# The tools as the tests run them (make check builds them first, make asan
# alone): each built with AddressSanitizer and UndefinedBehaviorSanitizer
# as $(B)/asan/TOOL, and the tests' own programs of the library, tests/X.c,
# as $(B)/asan/tests/X; the library and tcheck's reader compiled once, into
# archives of their own.
ASAN_CFLAGS := -std=c11 -Wall -Wextra -Werror -pedantic -g -O1 -fsanitize=address,undefined \
               -fno-omit-frame-pointer -fno-sanitize-recover=all
ASAN_TOOLS := $(BOOK_TOOLS:%=$(B)/asan/%) $(patsubst %.c,$(B)/asan/%,$(wildcard tests/*.c))
$(B)/asan/lib/%.o: tools/lib/%.c $(LIB_HDR)
	$(Q)mkdir -p $(@D) && $(TRAP)$(CC) $(ASAN_CFLAGS) -Itools/lib -c -o $@.tmp $< && mv -f $@.tmp $@
$(B)/asan/tcheck/%.o: $(TCHECK_DIR)/%.c $(TCHECK_HDR) $(LIB_HDR)
	$(Q)mkdir -p $(@D) && $(TRAP)$(CC) $(ASAN_CFLAGS) -Itools/lib -c -o $@.tmp $< && mv -f $@.tmp $@
$(B)/asan/libbook.a: $(LIB_SRC:tools/lib/%.c=$(B)/asan/lib/%.o)
	$(Q)$(TRAP)rm -f $@.tmp && ar rcs $@.tmp $^ && mv -f $@.tmp $@
$(B)/asan/libtcheck.a: $(TCHECK_PARTS:%=$(B)/asan/tcheck/%.o)
	$(Q)$(TRAP)rm -f $@.tmp && ar rcs $@.tmp $^ && mv -f $@.tmp $@
ASAN_LINK = $(Q)mkdir -p $(@D) && $(TRAP)$(CC) $(ASAN_CFLAGS) -Itools/lib -I$(TCHECK_DIR) -o $@.tmp $< \
	  $(B)/asan/libtcheck.a $(B)/asan/libbook.a && mv -f $@.tmp $@
$(B)/asan/tests/%: tests/%.c $(B)/asan/libtcheck.a $(B)/asan/libbook.a $(LIB_HDR) $(TCHECK_HDR)
	$(call say,ASAN,$@)
	$(ASAN_LINK)
$(B)/asan/%: tools/book/%.c $(B)/asan/libtcheck.a $(B)/asan/libbook.a $(LIB_HDR) $(TCHECK_HDR)
	$(call say,ASAN,$@)
	$(ASAN_LINK)
.PHONY: asan
# The flags, for a test that compiles a single file of its own the same way
# (tests/tcheck/run.sh: the one file of tcheck, alone).
.PHONY: asan-cflags
asan-cflags:
	@echo '$(ASAN_CFLAGS)'
asan: $(ASAN_TOOLS)

$(NOTANGLE_BIN):
	$(Q)tools/need $(NOTANGLE) noweb
$(PANDOC_BIN):
	$(Q)tools/need $(PANDOC) pandoc
$(GNUPLOT_BIN):
	$(Q)tools/need gnuplot gnuplot-nox
$(CXX_BIN):
	$(Q)tools/need $(CXX) g++
$(XMLLINT_BIN):
	$(Q)tools/need xmllint libxml2-utils
$(LUNR_JS):
	$(Q)tools/need $@ libjs-lunr

# --- Tangle ----------------------------------------------------------------
# tools/book/tangle.sh reads the chapters that changed (noweb's markup and
# the filters that index identifiers, nwpipe.sh, once each, into
# build/meta/NAME.nwpipe, which every later stage reads), checks
# them and the book as a whole, and tangles their files into build/src
# (plain, with snippet markers, to read) and build/lsrc (#line, to compile):
# one transaction, so that a mistake leaves build/ as it was. Its opening
# comment says more. Anything but a chapter or the registry changing (a tool,
# the list of chapters) reads every chapter again.

tangled-again = $(if $(filter-out chapters/%.nw $(REGISTRY),$(1)),$(CHAPTERS),\
                  $(patsubst chapters/%.nw,%,$(filter chapters/%.nw,$(1))))
$(B)/stamp/tangled: $(CHAPTERS:%=chapters/%.nw) $(REGISTRY) $(LIST_CHANGED) tools/book/tangle.sh $(NWPIPE) \
                    $(chapter-meta) $(snippet-marks) $(snippets) | $(NOTANGLE_BIN) $(B)/stamp
	@$(if $(and $(Q),$(call tangled-again,$?)),printf '  %-7s %s\n' \
	  $(foreach c,$(call tangled-again,$?),TANGLE chapters/$(c).nw))
	$(Q)trap 'rm -f $@.start' EXIT; touch $@.start && \
	NWPIPE=$(NWPIPE) NOWEB_LIB=$(NOWEB_LIB) NT=$(NT) CHAPTER_META=$(chapter-meta) \
	  SNIPPET_MARKS=$(snippet-marks) SNIPPETS=$(snippets) \
	  tools/book/tangle.sh $(B) $(REGISTRY) $(CHAPTERS) -- $(call tangled-again,$?) && \
	touch -r $@.start $@

# The stamp is dated from before the tangle began, so that a chapter saved
# while it ran is newer than the stamp and read again by the next make.
# build/meta/NAME.tsv changes only when the chapter's title, roots or labels
# do; NAME.lines adds the line of each, for messages, and NAME.nwpipe is the
# chapter's pipeline; both follow every edit.
$(B)/meta/%.tsv $(B)/meta/%.lines $(B)/meta/%.nwpipe: $(B)/stamp/tangled ;

# build/book.mk, which tangle.sh writes: each chapter's roots and programs,
# as ROOTS.NAME and PROGS.NAME. Every tangled file is made by the tangle.
$(B)/book.mk: $(B)/stamp/tangled ;
$(B)/src/% $(B)/lsrc/%: $(B)/stamp/tangled ;

# Published labels are a public interface: each must stay where lessons
# found it, or be retired with a replacement, and keep the code it was
# published with: the registry records the fingerprint of each revision of
# a label's code, and a change to the code stops the build at the label
# (make revise publishes the next revision; KEPT holds each earlier one's
# code).
# The table changes only when a label or its lines do; a prose edit, which
# moves every line of its chapter, remakes nothing that depends on it. Nor
# is the table made again for one: what it reads of a chapter beyond the
# tangled files is its labels and roots, which its meta file holds (written
# only when they change), and its chapter lines, which only its messages
# name.
$(B)/stamp/snippets: $(META) $(LIST) $(addprefix $(B)/src/,$(ROOTS)) $(REGISTRY) $(wildcard $(KEPT)) $(KEPT_CODE) \
                     $(snippets) $(SLIDE_FRAGMENTS) styles/snippet.html styles/cuda.xml | $(PANDOC_BIN) $(B)/stamp $(B)/md
	$(call say,INDEX,$(B)/snippets.tsv)
	$(Q)trap 'rm -rf $(B)/snippets.tsv.tmp $(SLIDES).tmp $(B)/md/snippets.tmp' EXIT; rm -rf $(SLIDES).tmp; mkdir -p $(SLIDES).tmp; \
	$(snippets) table -o $(SLIDES).tmp -c $(B)/md $(B)/src $(REGISTRY) $(LINES) > $(B)/snippets.tsv.tmp && \
	rm -rf $(B)/md/snippets.tmp && \
	PANDOC='$(PANDOC)' $(SLIDE_FRAGMENTS) $(SLIDES).tmp $(B)/md/snippets.tmp $(B)/md/snippets $(SLIDES) && \
	$(call update,$(B)/snippets.tsv) && rm -rf $(SLIDES) $(B)/md/snippets && mv $(SLIDES).tmp $(SLIDES) && \
	mv $(B)/md/snippets.tmp $(B)/md/snippets && touch $@
$(B)/snippets.tsv: $(B)/stamp/snippets ;
$(CHAPTERS:%=$(B)/md/%.snippets.html): $(B)/stamp/snippets ;
# Each label's code for a slide, $(SLIDES)/LABEL.cu: a comment line naming
# the label, its revision and its address (at BASE_URL where it is set),
# then the label's lines as tangled; $(SLIDES)/LABEL.html, the same
# highlighted, a fragment of HTML with its own small style
# (styles/snippet.html) to paste into a slide. Written with the table, all
# at once; a fragment whose Markdown ($(B)/md/snippets/LABEL.md, kept from
# the last time) and styles have not changed is kept rather than passed
# through pandoc again, so that a prose edit costs no pandoc run a label
# (tools/book/slide-fragments.sh).
# The same text goes to each chapter's page for its labels' copy
# controls, $(B)/md/CHAPTER.snippets.html, which changes only when it does.
SLIDES := $(B)/html/snippets
SLIDE_FRAGMENTS := tools/book/slide-fragments.sh
$(B)/stamp/snippets: export SNIPPET_BASE = $(BASE)
$(B)/stamp/snippets: $(BASE_FILE)

# make revise LABEL=blelloch-sweeps: publish the label's code as it is now
# as its next revision, once the build has stopped on its change. The last
# good tangle, which the stopped build left in $(B)/src, holds the code of
# its last revision N: that is kept as $(KEPT)/LABEL@N.cu; the book is
# tangled apart, in a folder of its own, and the registry gets revision
# N+1, the new code's fingerprint dated today. $(B) is left as it was, so
# that a second label changed is revised from it in turn. A new label gets
# its revision 1 so. It runs outside the build lock; the label reaches the
# tool through the environment.
.PHONY: revise
revise: private SHELL := /bin/bash
revise: export SNIPPET_LABEL = $(value LABEL)
revise: $(snippets) $(chapter-meta) $(snippet-marks) | $(NOTANGLE_BIN)
	@t=$$(mktemp -d) && trap 'rm -rf "$$t" $(KEPT)/*@*.cu.tmp' EXIT && mkdir -p $(KEPT) && \
	$(snippets) keep $(REGISTRY) $(B)/src $(LINES) && \
	NWPIPE=$(NWPIPE) NOWEB_LIB=$(NOWEB_LIB) NT=$(NT) CHAPTER_META=$(chapter-meta) \
	  SNIPPET_MARKS=$(snippet-marks) SNIPPETS=$(snippets) \
	  tools/book/tangle.sh "$$t" $(REGISTRY) $(CHAPTERS) && \
	$(snippets) revise $(REGISTRY) "$$t/src" $(CHAPTERS:%="$$t"/meta/%.lines)

# make cite LABEL=blelloch-sweeps: where a label lives. It only reads, and
# so takes no lock: it never waits for a make or a check in the tree.
# The label reaches the recipe through the environment, never as shell
# text: make cite LABEL="it's" is a label the book does not have, not a
# broken command.
cite: private SHELL := /bin/bash
cite: export CITE_LABEL = $(value LABEL)
cite: $(B)/snippets.tsv $(index-pages)
	@$(index-pages) cite $< $(REGISTRY) $(B) "$$CITE_LABEL" '$(BASE)' $(META)

# --- Compile ---------------------------------------------------------------
# tools/compile.mk holds the one compile line; the book prints the same.
# A program depends on its plain source, whose text changes only when the
# code does, and compiles the #line copy, whose line numbers also follow
# prose edits: so a prose edit compiles nothing, and every compile reports
# errors at the chapter's current lines.

# nvcc also lists the files the program included (-MMD); build/deps/PROG.d
# keeps the book's own headers among them, as their build/src copies, so that
# a program is compiled again when a header it includes changes (and, as for
# the program itself, not when only the prose around it does).

$(B)/bin/%: $(B)/src/%.cu | $(B)/bin $(B)/deps
	$(call say,NVCC,$*)
	$(Q)trap 'rm -f $@.tmp $(B)/deps/$*.d.tmp' EXIT; \
	$(call compile-cmd,$*,$@.tmp,$(B)/lsrc/$*.cu) -MMD -MF $(B)/deps/$*.d.tmp; \
	tr -s ' \\' '\n' < $(B)/deps/$*.d.tmp | awk -v b=$(B) -v p=$* ' \
	  index($$0, b "/lsrc/") == 1 && $$0 != b "/lsrc/" p ".cu" { \
	    sub("^" b "/lsrc/", b "/src/"); \
	    if (!seen[$$0]++) { print b "/bin/" p ": " $$0; print $$0 ":" } }' \
	  > $(B)/deps/$*.d; \
	mv -f $@.tmp $@

-include $(COMPILED:%=$(B)/deps/%.d)

# A profile's program: a script that runs tools/evidence/ncu-run.sh over
# the spec and the compiled program, both read when it runs. Its paths are
# relative to the script, so that the tree may move.
empty :=
space := $(empty) $(empty)
ROOT_FROM_BIN := $(strip $(if $(or $(filter /%,$(B)),$(findstring ..,$(B))),$(CURDIR),\
  $(subst $(space),/,$(patsubst %,..,$(filter-out .,$(subst /, ,$(B)/bin))))))
$(B)/bin/%_ncu: evidence/%.ncu | $(B)/bin
	$(call say,SCRIPT,$@)
	$(Q)$(TRAP)printf '%s\n' '#!/bin/sh' \
	  '# $*_ncu: the counters evidence/$*.ncu names, of $*; written by make.' \
	  'd=$$(dirname "$$0")' \
	  'exec sh "$$d/$(ROOT_FROM_BIN)/tools/evidence/ncu-run.sh" "$$d/$(ROOT_FROM_BIN)/evidence/$*.ncu" "$$d/$*"' \
	  > $@.tmp && chmod +x $@.tmp && mv -f $@.tmp $@

# A run's program: a script that runs the program beside it with the
# arguments evidence/RUN.run gives (tools/compile.mk writes it).
$(RUNS:%=$(B)/bin/%): $(B)/bin/%: evidence/%.run | $(B)/stamp/names $(B)/bin
	$(call say,SCRIPT,$@)
	$(Q)$(TRAP)printf '%s\n' $(call run-script,$*) > $@.tmp && chmod +x $@.tmp && mv -f $@.tmp $@

# The names the evidence gives programs, checked once book.mk says which
# programs the chapters build: a run's name is its own (lowercase letters,
# digits and _, no program's or profile's) and its line names a program of
# the book, with arguments a script may hold as they are; no program of the
# book takes the name of a profile, PROG_ncu. One line says what is wrong
# (tools/book/evidence-names.c). What reads a run waits for this check
# (order-only), and is not remade each time it passes.
# (It reads the files whose names make may hold, and the folders, whose
# times change as a file is added, removed or renamed.)
named-ok = $(foreach f,$(1),$(if $(call without,$(patsubst evidence/%$(2),%,$(f)),$(PROG_CHARS)),,$(f)))
$(B)/stamp/names: $(call named-ok,$(RUN_FILES),.run) $(call named-ok,$(wildcard evidence/*.ncu),.ncu) \
                  $(call named-ok,$(wildcard evidence/*/),/) evidence $(B)/book.mk $(LIST_CHANGED) \
                  $(evidence-names) | $(B)/stamp
	$(Q)$(evidence-names) evidence $(COMPILED) -- $(PROFILES) && touch $@

# --- The T4 fit --------------------------------------------------------------
# How each kernel fits a Tesla T4, from its sm_75 code and no GPU: a compile
# to PTX gives the block size its __launch_bounds__ promise (.maxntid), and
# that PTX assembled, writing no binary, reports each kernel's registers and
# static shared memory (ptxas, --resource-usage; nvcc given a .ptx runs
# ptxas alone, where compiling the source again would take as long as the
# compile to PTX). The PTX follows the program's own compile, and so its
# headers; the timings ptxas prints are left out, so that the report
# changes only when the code does. t4-fit turns the two into the
# program's values (build/values/PROG/tesla-t4.fit.tsv, for quotes) and the
# table on the chapter's page; tests/fit.sh fails where a kernel cannot run
# one block on a T4.

FIT_FLAGS = $(filter-out -arch=%,$(NVCCFLAGS)) -arch=sm_75
$(B)/fit/%.ptxas: $(B)/fit/%.ptx | $(B)/fit
	$(call say,PTXAS,$*)
	$(Q)trap 'rm -f $@.tmp $@.log' EXIT; \
	$(NVCC) $(FIT_FLAGS) --resource-usage -cubin -o /dev/null $< 2> $@.log || \
	  { cat $@.log >&2; exit 1; }; \
	sed '/Compile time = /d' $@.log > $@.tmp && mv -f $@.tmp $@
$(B)/fit/%.ptx: $(B)/bin/% | $(B)/fit
	$(Q)$(TRAP)$(NVCC) $(FIT_FLAGS) -ptx -o $@.tmp $(B)/lsrc/$*.cu && mv -f $@.tmp $@

# The values are written where they change, and $(B)/fit/PROG.values notes
# that they are as the code is: a code edit that leaves ptxas's report and
# the block size as they were (a comment, a line in the host code) makes no
# page that quotes them again, and every page quotes from every values
# file. Where the values file is gone, its note is made again.
$(B)/fit/%.values: $(B)/fit/%.ptxas $(B)/fit/%.ptx $(t4-fit) $$(if $$(wildcard $(B)/values/$$*/tesla-t4.fit.tsv),,FORCE)
	$(call say,FIT,$*)
	$(Q)trap 'rm -f $(B)/values/$*/tesla-t4.fit.tsv.tmp' EXIT; \
	mkdir -p $(B)/values/$* && rm -f $(B)/values/tesla-t4.absent && \
	$(t4-fit) values $* $(B)/fit/$*.ptxas $(B)/fit/$*.ptx > $(B)/values/$*/tesla-t4.fit.tsv.tmp && \
	$(call update,$(B)/values/$*/tesla-t4.fit.tsv) && touch $@
$(B)/values/%/tesla-t4.fit.tsv: $(B)/fit/%.values ;

# Without nvcc there is no fit: the prose's T4 values are woven as not
# computed, saying why (tools/lib/quote.h, GPU.absent), its claims skipped.
# A fit an earlier build made with nvcc goes with it: it was ptxas's report
# of the code as it was then.
ABSENT := $(if $(HAVE_NVCC),,$(B)/values/tesla-t4.absent)
$(B)/values/tesla-t4.absent:
	$(Q)$(TRAP)mkdir -p $(@D) && rm -f $(B)/values/*/tesla-t4.fit.tsv $(B)/fit/*.values && \
	echo "the T4 fit reads ptxas's report of the sm_75 code, and this build has no $(NVCC)" > $@.tmp && mv -f $@.tmp $@

# A chapter's fit, every program of it in one section; the page shows it
# after the runs.
$(B)/md/%.fit.md: $$(foreach p,$$(call fits,$$(PROGS.$$*)),$(B)/fit/$$(p).ptxas $(B)/fit/$$(p).ptx) \
                  $(t4-fit) | $(B)/md
	$(Q)$(TRAP)$(if $(call fits,$(PROGS.$*)),$(t4-fit) table -c $* $(foreach p,$(call fits,$(PROGS.$*)),\
	  $(p) $(B)/fit/$(p).ptxas $(B)/fit/$(p).ptx),: ) > $@.tmp && mv -f $@.tmp $@

# --- Weave -----------------------------------------------------------------

# Prose cites chunks as [[<<label>>]]; chapter-md resolves labels across the
# book (META) and keeps anchors for labels the registry marks retired.
# A quote, [[=spmv.warp_ms]], becomes its value, read from every values file
# in $(B)/values (tools/lib/quote.h says how): those the evidence makes
# (VALUES) and any other there is.
# $(B)/values.list: the values files of the transcripts as last built
# (RECORDED). It is written when they change, so that the pages follow, and
# a transcript taken away (GONE) takes its values and charts with it: a
# quote of it then fails at its line, and its transcript leaves the page.
VALUES_LIST := $(B)/values.list
GONE := $(filter-out $(RECORDED),$(file <$(VALUES_LIST)))
$(eval $(VALUES_LIST): $(if $(call same,$(strip $(file <$(VALUES_LIST))),$(strip $(RECORDED))),,FORCE))
$(VALUES_LIST): | $(B)/stamp
	$(Q)$(TRAP)$(if $(GONE),rm -f $(GONE) $(foreach t,$(GONE:$(B)/values/%.tsv=%),\
	  $(B)/charts/$(t).gp $(B)/charts/$(t).narrow.gp $(B)/charts/$(t).md \
	  $(B)/html/charts/$(t).svg $(B)/html/charts/$(t).narrow.svg) && )\
	printf '%s\n' $(RECORDED) > $@.tmp && mv -f $@.tmp $@
# Those of a program the book no longer compiles are not among them: its
# values stage removes them (stage-roots), before any page reads the
# folder.
QUOTED = $(sort $(VALUES) $(ABSENT) $(filter-out $(GONE) $(if $(HAVE_NVCC),,%/tesla-t4.fit.tsv),\
           $(wildcard $(foreach p,$(COMPILED) $(PROFILES) $(RUNS),$(B)/values/$(p)/*.tsv))))
VALUES_GONE := $(B)/stamp/values.roots $(B)/stamp/fit.roots
# $(B)/values/pages.tsv: the chapter whose page shows the transcripts of
# each program, run and profile, PROG<TAB>CHAPTER a line (quote.h reads
# it), so that a quoted value links to its line there. Written when it
# changes.
profiles-of = $(filter $(1:%=%_ncu),$(PROFILES))
# $(call shown-of,CHAPTER): what its page shows the transcripts of.
shown-of = $(PROGS.$(1)) $(call runs-of,$(PROGS.$(1))) $(call profiles-of,$(PROGS.$(1)))
shown = $(foreach c,$(CHAPTERS),$(foreach p,$(call shown-of,$(c)),$(p) $(c)))
SHOWN := $(B)/values/pages.tsv
$(eval $(SHOWN): $(if $(call same,$(strip $(file <$(SHOWN))),$(strip $(shown))),,FORCE))
$(SHOWN): | $(B)/stamp/names
	$(Q)$(TRAP)mkdir -p $(@D) && { $(if $(strip $(shown)),printf '%s\t%s\n' $(shown),:); } > $@.tmp && mv -f $@.tmp $@
# The chapter's code goes apart, to NAME.code.md, which changes only when
# the code does: highlighting it is most of pandoc's time, and a prose edit
# leaves it as it was (see the page below).
# The chapter places each of its charts where its prose argues from it,
# [[!chart PROG]] (chapter-md -g).
chapter-charts = $(call chart-md,$(PROGS.$(1)) $(call runs-of,$(PROGS.$(1))))
$(B)/md/%.md: $(B)/meta/%.nwpipe $(chapter-md) $(META) $(LIST) $(REGISTRY) $(VALUES_LIST) $(SHOWN) $$(QUOTED) \
              $$(call chapter-charts,$$*) | $(B)/md $(VALUES_GONE)
	$(call say,WEAVE,chapters/$*.nw)
	$(Q)trap 'rm -f $@.tmp $(B)/md/$*.refs.tmp $(B)/md/$*.chunks.tmp $(B)/md/$*.code.md.tmp $(B)/md/$*.numbers.md.tmp' EXIT; \
	$(chapter-md) -V $(B)/values -c $(B)/md/$*.code.md.tmp -n $(B)/md/$*.numbers.md.tmp $(foreach g,$(call chapter-charts,$*),-g '$(g)') \
	  $(B)/md/$*.refs.tmp $(B)/md/$*.chunks.tmp \
	  $(REGISTRY) $(META) < $< > $@.tmp; \
	mv -f $(B)/md/$*.refs.tmp $(B)/md/$*.refs && \
	  mv -f $(B)/md/$*.chunks.tmp $(B)/md/$*.chunks && $(call update,$(B)/md/$*.code.md) && \
	  $(call update,$(B)/md/$*.numbers.md) && mv -f $@.tmp $@

$(B)/md/%.refs $(B)/md/%.chunks $(B)/md/%.code.md $(B)/md/%.numbers.md: $(B)/md/%.md ;

# The page's code blocks (the chapter's, and the compile lines of its
# programs), highlighted apart from the page as CUDA (styles/cuda.xml), and
# again only when one of them changes; their ids (a block's, a line's)
# start code-, apart from the page's.
$(B)/md/%.code.html: $(B)/md/%.code.md $(B)/md/%.run.code.md styles/cuda.xml | $(PANDOC_BIN)
	$(Q)$(TRAP)$(PANDOC) --from markdown --to html5 --highlight-style pygments \
	  --syntax-definition styles/cuda.xml --id-prefix=code- $(B)/md/$*.code.md $(B)/md/$*.run.code.md \
	  > $@.tmp && mv -f $@.tmp $@

# The entries of "Where the numbers come from", apart from the page in the
# same way: pandoc's time for that long list grows with the square of its
# length (0.37 of the 0.55 CPU-s of day 93's page), and a prose edit leaves
# it as it was. Read as the page is read; the page has its ids.
$(B)/md/%.numbers.html: $(B)/md/%.numbers.md | $(PANDOC_BIN)
	$(Q)$(TRAP)$(PANDOC) --from markdown --to html5 --mathml $< > $@.tmp && mv -f $@.tmp $@

# build/md/NAME.model: what the chapter has to build and show, the one
# model run-md and notebook-md read (tools/lib/model.h; README.md, "How the
# book is built", gives its format): its programs and compile lines, each
# one's runs and profile, and the expectation and transcripts of each, only
# of names the checks above let through (transcripts, run-ok). Written with
# make's own $(file), no shell seeing it, when it changes (as make reads it
# now against the file), so that the page and the notebook follow; a run
# taken away takes its script, values and charts with it.
tab := $(empty)	$(empty)
define nl


endef
# $(call unindent,TEXT): TEXT without the blanks foreach puts between
# lines, each after a newline.
unindent = $(if $(findstring $(nl)$(space),$(1)),$(call unindent,$(subst $(nl)$(space),$(nl),$(1))),$(1))
# $(call model-evidence,NAME): the records of NAME's expectation and transcripts.
model-evidence = $(if $(wildcard evidence/$(1).expect),expect$(tab)$(1)$(tab)evidence/$(1).expect$(nl))$(foreach \
  t,$(call transcripts,$(1)),transcript$(tab)$(1)$(tab)$(t)$(nl))
model = $(call unindent,chapter$(tab)$(1)$(nl)$(if $(NVCC),nvcc$(tab)$(NVCC)$(nl))$(foreach p,$(PROGS.$(1)),\
  program$(tab)$(p)$(tab)$(call compile-line,$(p))$(nl)$(call model-evidence,$(p))$(foreach r,$(call runs-of,$(p)),\
    run$(tab)$(r)$(tab)$(subst $(space),$(tab),$(call run-line,$(r)))$(nl)$(call model-evidence,$(r)))$(foreach \
    f,$(call profiles-of,$(p)),profile$(tab)$(f)$(tab)$(p)$(nl)$(call model-evidence,$(f)))))
# $(call model-runs,CHAPTER): the runs its model file holds now.
model-runs = $(patsubst run:%,%,$(filter run:%,$(subst $(nl)run$(tab),$(nl)run:,$(nl)$(file <$(B)/md/$(1).model))))
# $(call runs-gone,CHAPTER): those of them that are no longer its runs.
runs-gone = $(foreach r,$(filter-out $(call runs-of,$(PROGS.$(1))),$(call model-runs,$(1))),\
              $(if $(call without,$(r),$(NAME_CHARS)),,$(r)))
# $(call same-text,FILE-TEXT,TEXT): whether the text $(file <) read is
# TEXT, its last newline dropped (or, as make 4.3 leaves it now and then,
# where the buffer it reads into moves, kept).
same-text = $(or $(call same,$(1)$(nl),$(2)),$(call same,$(1),$(2)))
$(foreach c,$(CHAPTERS),$(eval $(B)/md/$(c).model: \
  $(if $(call same-text,$(file <$(B)/md/$(c).model),$(call model,$(c))),,FORCE)))
$(B)/md/%.model: | $(B)/stamp/names $(B)/md
	$(Q)$(TRAP)$(if $(call runs-gone,$*),rm -rf $(foreach r,$(call runs-gone,$*),\
	  $(B)/bin/$(r) $(B)/values/$(r) $(B)/charts/$(r) $(B)/html/charts/$(r)) && )$(file >$@.tmp,$(call model,$*))\
	$(call update,$@)

# The programs' compile lines and recorded transcripts, shown after the code,
# each transcript (its chart is in the prose, chapter-md); after a program's, its
# runs', each with its command line, and its profile's, as its model says.
# Each transcript's provenance is shown with it, and a stale one (README,
# "Fingerprints") under a warning that says so: run-md reads the verdicts
# of progcheck.sh fresh, $(B)/fresh/PROG.txt, and stops where one is missing.
$(B)/md/%.run.md: $(B)/md/%.model $(run-md) $$(foreach p,$$(call shown-of,$$*),$$(call transcripts,$$p)) \
                  $$(foreach p,$$(call shown-of,$$*),$$(if $$(call transcripts,$$p),$(B)/fresh/$$p.txt)) \
                  | $(B)/stamp/names $(B)/md
	$(Q)trap 'rm -f $@.tmp $(B)/md/$*.run.code.md.tmp' EXIT; \
	$(run-md) -k $(B)/md/$*.run.code.md.tmp -f $(B)/fresh -M $(B)/md/$*.model > $@.tmp && \
	$(call update,$(B)/md/$*.run.code.md) && mv -f $@.tmp $@
$(B)/md/%.run.code.md: $(B)/md/%.run.md ;

# A chart of the values a transcript recorded, drawn at build time: chart
# reads the named holes evidence/PROG.chart names from the transcript's
# values file (its GPU and date from the transcript) and writes a gnuplot
# script and the figure's Markdown; gnuplot draws the SVG.
$(B)/charts/%.gp: evidence/%.txt $(B)/values/%.tsv evidence/$$(*D).chart $(chart)
	$(Q)$(TRAP)mkdir -p $(@D) && $(chart) gnuplot evidence/$(*D).chart $< $(B)/values/$*.tsv \
	  > $@.tmp && mv -f $@.tmp $@
$(B)/charts/%.narrow.gp: evidence/%.txt $(B)/values/%.tsv evidence/$$(*D).chart $(chart)
	$(Q)$(TRAP)mkdir -p $(@D) && $(chart) narrow evidence/$(*D).chart $< $(B)/values/$*.tsv \
	  > $@.tmp && mv -f $@.tmp $@
$(B)/charts/%.md: evidence/%.txt $(B)/values/%.tsv evidence/$$(*D).chart $(chart)
	$(Q)$(TRAP)mkdir -p $(@D) && $(chart) figure evidence/$(*D).chart $< $(B)/values/$*.tsv \
	  charts/$*.svg charts/$*.narrow.svg > $@.tmp && mv -f $@.tmp $@
$(B)/html/charts/%.svg: $(B)/charts/%.gp | $(GNUPLOT_BIN)
	$(call say,CHART,$@)
	$(Q)$(TRAP)mkdir -p $(@D) && gnuplot $< > $@.tmp && mv -f $@.tmp $@

# A figure, drawn at build time from the chapter's own constants: the
# chapter's root fig-FIG.cpp is a host C++17 program (no nvcc needed) that
# includes the constants chunks the figure depends on and the drawing
# helpers of tools/figure/svg.hpp, and writes the SVG to stdout. It is
# compiled from its #line copy, so that errors name the chapter's lines,
# and run for at most FIG_SECONDS. Its SVG is a drawing and nothing else:
# well-formed XML (xmllint reads it), with no script, foreignObject or
# on... event attribute (tools/figure/draw.sh runs it and says so). A
# program that fails, runs too long or writes anything else stops make with
# one line naming the chapter's root, and leaves the last good program and
# figure in place.
FIG_CXXFLAGS = -std=c++17 -Wall -Wextra -Werror -pedantic -O1 -Itools/figure
FIG_HDR := $(wildcard tools/figure/*.hpp)
FIG_SECONDS ?= 10
FIG_DRAW := tools/figure/draw.sh
$(B)/html/fig/%.svg: $(B)/src/fig-%.cpp $(FIG_HDR) $(FIG_DRAW) | $(CXX_BIN) $(XMLLINT_BIN) $(B)/fig $(B)/html/fig $(chapter-meta)
	$(call say,FIGURE,$@)
	$(Q)trap 'rm -f $@.tmp $(B)/fig/fig-$*.tmp' EXIT; \
	$(CXX) $(FIG_CXXFLAGS) -o $(B)/fig/fig-$*.tmp $(B)/lsrc/fig-$*.cpp && \
	$(FIG_DRAW) "chapters/$(FIGCH.$*).nw:$$($(chapter-meta) root-line $(B)/meta/$(FIGCH.$*).lines fig-$*.cpp)" \
	  fig-$*.cpp $(FIG_SECONDS) $(B)/fig/fig-$*.tmp $@.tmp && \
	mv -f $(B)/fig/fig-$*.tmp $(B)/fig/fig-$* && mv -f $@.tmp $@

$(B)/md/%.nav.yaml: $(META) $(LIST) $(nav) | $(B)/snippets.tsv $(B)/md
	$(Q)$(TRAP)$(nav) nav $* $(META) > $@.tmp && mv -f $@.tmp $@

# Code is highlighted as CUDA (styles/cuda.xml, which the .cpp blocks take);
# book.css gives the colours, in both themes, over pandoc's pygments. A
# chapter's page, and the whole book's, are woven with no highlighting,
# which is most of pandoc's time there: their code comes highlighted apart
# (NAME.code.html, the chapters' pages), and pandoc's style sheet for it
# with them. The front page is told it is one: its next page is the first
# chapter.
HIGHLIGHTED_APART = $(PAGES) $(B)/html/book.html
PANDOC_FLAGS = --from markdown --to html5 --standalone \
  --template styles/page.html --css book.css --mathml \
  $(if $(filter $(HIGHLIGHTED_APART),$@),--no-highlight \
    --variable highlighting-css="$$(cat $(B)/md/highlighting.css)",--highlight-style pygments \
    --syntax-definition styles/cuda.xml) \
  --shift-heading-level-by=-1 $(if $(filter $(B)/html/index.html,$@),--metadata front-page) \
  $(if $(BASE),--variable canonical='$(BASE)/$(notdir $@)')
$(HIGHLIGHTED_APART): $(B)/md/highlighting.css
# Every page names its address where the book has one.
$(PAGES) $(B)/html/book.html $(B)/html/index.html $(B)/html/labels.html $(B)/html/chunks.html \
  $(B)/html/identifiers.html $(REVISION_PAGES): $(BASE_FILE)
# The pages pandoc highlights read the CUDA definition; a chapter's page
# reads it through its NAME.code.html.
$(B)/html/index.html $(B)/html/labels.html $(B)/html/chunks.html $(B)/html/identifiers.html \
  $(REVISION_PAGES): styles/cuda.xml

# heading-links gives every heading a permalink. Without nvcc there is no
# T4 fit to show.
FIT_MD = $(if $(HAVE_NVCC),$(B)/md/$(1).fit.md)
# pandoc's style sheet for its highlighting, which a page woven with none
# (a chapter's) is given as pandoc would have put it there.
$(B)/md/highlighting.css: | $(PANDOC_BIN) $(B)/md
	$(Q)trap 'rm -f $@.tmp $@.tpl' EXIT; printf '%s\n' '$$highlighting-css$$' > $@.tpl && \
	printf '%s\n' '~~~ {.cpp}' 'int x;' '~~~' | $(PANDOC) --from markdown --to html5 --standalone \
	  --metadata title=- --template $@.tpl --highlight-style pygments > $@.tmp && mv -f $@.tmp $@

# A chapter none of whose programs a T4 runs (each built for a later GPU,
# ARCH.PROG) says so where its page offers the notebook: the GPUs it is
# built for, from the same ARCH.PROG.
later-arch = $(if $(and $(PROGS.$(1)),$(if $(strip $(call fits,$(PROGS.$(1)))),,x)),\
               $(strip $(sort $(foreach p,$(PROGS.$(1)),$(ARCH.$(p))))))
# The page's code is NAME.code.html, which chunk-links puts in its place.
$(B)/html/%.html: $(B)/md/%.md $(B)/md/%.code.html $(B)/md/%.numbers.html $(B)/md/%.run.md $(call FIT_MD,%) $(B)/md/%.nav.yaml \
                  $(B)/md/%.refs $(B)/md/%.chunks $(B)/md/%.snippets.html $(chunk-links) $(heading-links) \
                  styles/page.html styles/page-turn.html | $(PANDOC_BIN) $(B)/html
	$(call say,PANDOC,$@)
	$(Q)$(TRAP)$(PANDOC) $(PANDOC_FLAGS) --toc --toc-depth=2 \
	  --metadata-file=$(B)/md/$*.nav.yaml --metadata notebook=notebooks/$*.ipynb \
	  $(if $(call later-arch,$*),--metadata 'later-arch=$(call later-arch,$*)') \
	  --include-after-body=$(B)/md/$*.snippets.html \
	  $(B)/md/$*.md $(B)/md/$*.run.md $(call FIT_MD,$*) \
	  | $(chunk-links) -c $(B)/md/$*.code.html -c $(B)/md/$*.numbers.html $(B)/md/$*.refs $(B)/md/$*.chunks | $(heading-links) \
	  > $@.tmp && mv -f $@.tmp $@

# The front page: the book's front matter, then its chapters, after a blank
# line (without it, the heading of the list went into the front matter's
# last paragraph).
$(B)/md/index.md: chapters/front.md $(META) $(LIST) $(nav) | $(B)/md
	$(Q)$(TRAP){ cat $<; echo; $(nav) index $(META); } > $@.tmp && mv -f $@.tmp $@

# The pages that are not chapters: the front page and the three indexes.
$(B)/md/book.nav.yaml: $(META) $(LIST) $(nav) | $(B)/md
	$(Q)$(TRAP)$(nav) nav - $(META) > $@.tmp && mv -f $@.tmp $@

$(B)/md/labels.md: $(B)/snippets.tsv $(REGISTRY) $(META) $(LIST) $(addprefix $(B)/src/,$(ROOTS)) \
                   $(index-pages) | $(B)/md
	$(Q)$(TRAP)$(index-pages) labels $< $(REGISTRY) $(B)/src $(META) > $@.tmp && mv -f $@.tmp $@

# The page of an earlier revision of a label's code: LABEL@N, from the code
# the registry keeps.
$(REVISION_PAGES:$(B)/html/%.html=$(B)/md/%.md): $(B)/md/%.md: $(KEPT)/%.cu $(REGISTRY) $(META) \
                   $(index-pages) | $(B)/md
	$(Q)$(TRAP)$(index-pages) revision $(REGISTRY) $(subst @, ,$*) $(META) > $@.tmp && mv -f $@.tmp $@

# Read from the chapters' pipelines, which follow every prose edit; the page
# is remade only when the chunks themselves changed.
$(B)/stamp/chunks: $(META) $(LIST) $(PIPES) $(index-pages) | $(B)/stamp $(B)/md
	$(Q)trap 'rm -f $(B)/md/chunks.md.tmp' EXIT; \
	$(index-pages) chunks $(META) -- $(PIPES) > $(B)/md/chunks.md.tmp; \
	$(call update,$(B)/md/chunks.md) && touch $@
$(B)/md/chunks.md: $(B)/stamp/chunks ;

# Every chapter's identifiers, from the index lines noweb's filters put in
# its pipeline (tools/lib/xref.h); remade, as the chunks' page, only when
# the index changed.
$(B)/stamp/identifiers: $(META) $(LIST) $(PIPES) $(index-pages) | $(B)/stamp $(B)/md
	$(Q)trap 'rm -f $(B)/md/identifiers.md.tmp' EXIT; \
	$(index-pages) identifiers $(META) -- $(PIPES) > $(B)/md/identifiers.md.tmp; \
	$(call update,$(B)/md/identifiers.md) && touch $@
$(B)/md/identifiers.md: $(B)/stamp/identifiers ;

$(B)/html/index.html $(B)/html/labels.html $(B)/html/chunks.html $(B)/html/identifiers.html \
  $(REVISION_PAGES): \
$(B)/html/%.html: $(B)/md/%.md $(B)/md/book.nav.yaml $(heading-links) styles/page.html styles/page-turn.html \
                  | $(PANDOC_BIN) $(B)/html
	$(call say,PANDOC,$@)
	$(Q)$(TRAP)$(PANDOC) $(PANDOC_FLAGS) --metadata-file=$(B)/md/book.nav.yaml $< \
	  | $(heading-links) > $@.tmp && mv -f $@.tmp $@

# The whole book on one page, to print at once or to read offline in one
# scroll: every chapter's page, in the book's order, its ids prefixed with
# its name and its links to the chapters made links on the page
# (book-page). Search leaves it out (noindex): every result would be there
# twice.
$(B)/md/book.md: $(PAGES) $(META) $(LIST) $(book-page) | $(B)/md
	$(Q)$(TRAP)$(book-page) $(B)/html $(META) > $@.tmp && mv -f $@.tmp $@
$(B)/html/book.html: $(B)/md/book.md $(B)/md/book.nav.yaml $(heading-links) styles/page.html \
                     styles/page-turn.html | $(PANDOC_BIN) $(B)/html
	$(call say,PANDOC,$@)
	$(Q)$(TRAP)$(PANDOC) $(PANDOC_FLAGS) --toc --toc-depth=1 --metadata noindex \
	  --metadata-file=$(B)/md/book.nav.yaml $< | $(heading-links) > $@.tmp && mv -f $@.tmp $@

# Search: lunr, our script, and the index of every page, as a script so
# that it loads from file:// too.
# Each chapter's page is read with its chunks, as chapter-md listed them.
$(B)/html/search-index.js: $(B)/html/index.html $(PAGES) $(CHAPTERS:%=$(B)/md/%.chunks) \
                           $(LIST) $(search-index)
	$(call say,INDEX,$@)
	$(Q)$(TRAP)$(search-index) $(B)/html/index.html \
	  $(foreach c,$(CHAPTERS),$(B)/html/$(c).html $(B)/md/$(c).chunks) > $@.tmp && mv -f $@.tmp $@

# The pages' scripts, as they are: search and the colours' switch.
$(B)/html/search.js $(B)/html/theme.js: $(B)/html/%.js: styles/%.js | $(B)/html
	$(Q)$(TRAP)cp $< $@.tmp && mv -f $@.tmp $@

$(B)/html/lunr.min.js: $(LUNR_JS) | $(B)/html
	$(Q)$(TRAP)cp $< $@.tmp && mv -f $@.tmp $@

# --- Notebooks -------------------------------------------------------------
# A chapter as a notebook for a free T4 GPU: the prose and a cell per code
# chunk, the setup cell that tangles them (tools/book/notebook-setup.py), the
# compile line (with the nvcc on the notebook's PATH), a run and the check,
# and the same of each run of its programs (evidence/RUN.run). Citations
# link to the pages, so the notebook reads every chapter's labels.
# pandoc writes the JSON; the cell ids it makes up are replaced by numbered
# ones, so that a notebook changes only when the chapter does.

NB_SETUP := tools/book/notebook-setup.py
# The book's claims tool as a notebook builds it, to hold the chapter's
# claims to the reader's runs: claims.c and what of the library it needs,
# headers too (tests/notebooks builds it from these alone).
NB_CLAIMS := tools/book/claims.c tools/lib/lines.c tools/lib/quote.c tools/lib/util.c \
             tools/lib/lines.h tools/lib/quote.h tools/lib/util.h tools/lib/noweb.h
$(B)/md/%.nb.md: $(B)/meta/%.nwpipe $(B)/meta/%.tsv $(B)/meta/%.lines $(B)/md/%.model $(VALUES_LIST) $(notebook-md) \
                 $(NB_SETUP) $(NB_CLAIMS) $(META) $(REGISTRY) $(B)/tools/tcheck.c \
                 $$(foreach p,$$(PROGS.$$*) $$(call runs-of,$$(PROGS.$$*)),$$(wildcard evidence/$$p.expect) $$(call transcripts,$$p)) \
                 $$(QUOTED) $(BASE_FILE) | $(B)/stamp/names $(B)/md $(VALUES_GONE)
	$(Q)$(TRAP)$(notebook-md) -V $(B)/values -s $(NB_SETUP) -l $(REGISTRY) $(addprefix -m ,$(META)) \
	  $(if $(BASE),-b '$(BASE)/') \
	  -t $(B)/tools/tcheck.c \
	  -L $(B)/meta/$*.lines $(addprefix -c ,$(NB_CLAIMS)) -M $(B)/md/$*.model $< > $@.tmp && mv -f $@.tmp $@

# The chapter's figures go into the notebook as attachments, from html/.
$(B)/notebooks/%.ipynb: $(B)/md/%.nb.md $$(addprefix $(B)/html/fig/,$$(addsuffix .svg,$$(FIGS.$$*))) \
                        | $(PANDOC_BIN) $(B)/notebooks
	$(call say,IPYNB,$@)
	$(Q)$(TRAP)$(PANDOC) --from markdown --to ipynb --preserve-tabs --resource-path=$(B)/html $< \
	  | awk '/^   "id": "[-0-9a-f]*"/ { sub(/"id": "[-0-9a-f]*"/, "\"id\": \"cell-" ++n "\"") } 1' \
	  > $@.tmp && mv -f $@.tmp $@

$(B)/html/notebooks/%.ipynb: $(B)/notebooks/%.ipynb | $(B)/html/notebooks
	$(Q)$(TRAP)cp $< $@.tmp && mv -f $@.tmp $@

$(B)/html/book.css: styles/book.css | $(B)/html
	$(Q)$(TRAP)cp $< $@.tmp && mv -f $@.tmp $@

# Readable by all, as every other file of the book: the tangle writes its
# files private.
$(B)/html/src/%: $(B)/src/% | $(B)/html/src
	$(Q)$(TRAP)install -m 0644 $< $@.tmp && mv -f $@.tmp $@

# --- Evidence --------------------------------------------------------------
# tcheck holds a program's output to its expectation and transcripts;
# tools/evidence/progcheck.sh runs the programs through it, here and in the GPU
# bundle alike. README.md, "Evidence", says how.

TCHECK := $(B)/tools/tcheck
GPUINFO := $(B)/tools/gpuinfo

$(B)/values/%.tsv: evidence/%.txt evidence/$$(*D).expect $(TCHECK)
	$(Q)$(TRAP)mkdir -p $(@D) && $(TCHECK) quotes evidence/$(*D).expect $< > $@.tmp \
	  && mv -f $@.tmp $@
PROG ?=
OUTPUT ?=
SELECTED = $(if $(strip $(PROG)),$(PROG),$(PROGRAMS))
# PROG= names programs of the book, runs or profiles, and nothing else: the
# recipes put it on their command lines.
ifneq ($(strip $(filter-out $(COMPILED) $(RUNS) $(PROFILES),$(value PROG))),)
$(error PROG=$(value PROG): not a program of the book, a run or a profile; they are $(COMPILED) $(RUNS) $(PROFILES))
endif
# Each program's compile line, as the transcript header records it.
env-name = $(subst -,_,$(subst .,_,$(1)))
# A profile's is its program's, the code that ncu measured, and a run's
# the program's it runs.
PROGCHECK = TOOLS=$(B)/tools BIN=$(B)/bin EVIDENCE=evidence SRC=$(B)/src NVCC='$(NVCC)' \
  $(foreach p,$(COMPILED),COMPILE_LINE_$(call env-name,$(p))='$(call compile-line,$(p))') \
  $(foreach p,$(PROFILES),COMPILE_LINE_$(call env-name,$(p))='$(call compile-line,$(p:%_ncu=%))') \
  $(foreach p,$(RUNS),COMPILE_LINE_$(call env-name,$(p))='$(call compile-line,$(call run-prog,$(p)))') \
  sh tools/evidence/progcheck.sh

$(TCHECK): $(B)/tools/libtcheck/main.o $(B)/tools/libtcheck.a $(B)/tools/libbook.a
	$(call say,CC,$@)
	$(Q)$(TRAP)$(CC) $(TOOL_CFLAGS) -o $@.tmp $^ && mv -f $@.tmp $@
$(GPUINFO): tools/evidence/gpuinfo.c | $(B)/tools
	$(call say,NVCC,$@)
	$(Q)$(TRAP)$(NVCC) -o $@.tmp $< && mv -f $@.tmp $@

.PHONY: record profile accept compare verify sanitize dist fingerprint FORCE
FORCE:
# Run every program and every run (or PROG=...) on this machine's GPU and
# write pending transcripts and expectations beside the evidence; `make
# accept` moves them into place. Nothing in evidence/ is overwritten by a run.
record: programs $(TCHECK) $(GPUINFO)
	@$(PROGCHECK) --count record $(if $(strip $(PROG)),$(PROG),$(PROGRAMS) $(filter-out $(PROGRAMS),$(RUNS)))
# The same for the profiles (or PROG=x_ncu): each program run under Nsight
# Compute, as its evidence/PROG.ncu says; then make accept.
profile: programs $(TCHECK) $(GPUINFO)
	@$(PROGCHECK) --count record $(if $(strip $(PROG)),$(PROG),$(PROFILES))
# Before anything moves, the book's claims are held to each pending
# transcript in place of the recorded one: a claim it would break is named,
# and nothing is accepted (tools/evidence/pending-claims.sh).
accept: $(TCHECK) $(claims) $(LINES)
	@tools/evidence/pending-claims.sh -t $(TCHECK) -c $(claims) -v $(B)/values $(foreach p,$(SELECTED),'$(p)') -- $(LINES)
	@$(PROGCHECK) --count accept $(SELECTED)
# Measured values against the transcript of this GPU model, then the
# chapters' claims held to this run (claims yours: how many hold here, each
# that does not, each claim about another GPU beside this run); never fails
# on a value or a claim.
# $(call yours-claims): the claims on the values $(B)/yours holds.
yours-claims = if [ -s $(B)/yours/gpu ]; then echo; gpu=$$(cat $(B)/yours/gpu); \
  $(claims) yours "$$gpu" "$$($(TCHECK) slug "$$gpu" 2>/dev/null || echo unnamed)" \
    $(B)/yours $(B)/values $(LINES); fi
compare: programs $(TCHECK) $(GPUINFO) $(claims) $(VALUES) $(LINES)
	@rm -rf $(B)/yours; rc=0; YOURS=$(B)/yours $(PROGCHECK) compare $(SELECTED) || rc=$$?; \
	$(yours-claims); exit $$rc
# make verify PROG=scan_2 OUTPUT=run.txt: an output saved elsewhere, and the
# claims on it.
verify: export VERIFY_OUTPUT = $(value OUTPUT)
verify: $(TCHECK) $(claims) $(VALUES) $(LINES)
	@test -n "$(PROG)" -a -n "$$VERIFY_OUTPUT" || \
	  { echo "usage: make verify PROG=name OUTPUT=file" >&2; exit 2; }
	@rm -rf $(B)/yours; rc=0; YOURS=$(B)/yours $(PROGCHECK) verify '$(PROG)' "$$VERIFY_OUTPUT" || rc=$$?; \
	$(yours-claims); exit $$rc
# make fingerprint PROG=scan_2: the fingerprint a record of it writes now
# (README, "Fingerprints"), of the code in $(B)/src, or in SRC=DIR (a tree
# tangled from another commit), with this machine's nvcc or NVCC_VERSION=.
fingerprint: $(TCHECK) tangle
	@test -n "$(PROG)" || { echo "usage: make fingerprint PROG=name [SRC=dir] [NVCC_VERSION=...]" >&2; exit 2; }
	@$(PROGCHECK) fingerprint $(PROG)
# Every program's --quick sizes under compute-sanitizer's four tools; a
# profile or a run is its program, sanitized as such.
sanitize: programs $(TCHECK)
	@tools/evidence/sanitize.sh $(B)/bin $(filter-out $(PROFILES) $(RUNS),$(SELECTED))

# Whether each transcript of PROG measured today's code: progcheck.sh
# fresh's lines, for the page (run-md -f). Never fails: make check does.
# Asked again when what it answers from changes: the transcripts, the
# program's code (its source as tangled and the book's headers, which a
# fingerprint follows) and its compile line; not on a prose edit. It changes
# only with its verdict, so that what a verdict is shown on is remade only
# then; PROG.asked says when it was last asked, so that the make after asks
# nothing.
fresh-code = $(B)/src/$(or $(call run-prog,$(1)),$(patsubst %_ncu,%,$(1))).cu \
             $(filter %.h %.cuh,$(ROOTS:%=$(B)/src/%))
$(B)/fresh/%.txt: $(B)/fresh/%.asked ;
$(B)/fresh/%.asked: $$(wildcard evidence/$$*/*.txt evidence/$$*.run evidence/$$(patsubst %_ncu,%,$$*).ncu) \
                    $$(call fresh-code,$$*) $(B)/compile-lines $(TCHECK) tools/evidence/progcheck.sh
	$(Q)trap 'rm -f $(@:.asked=.txt).tmp' EXIT; mkdir -p $(@D) && { TOOLS=$(B)/tools EVIDENCE=evidence SRC=$(B)/src \
	  COMPILE_LINES=$(B)/compile-lines sh tools/evidence/progcheck.sh fresh $* || :; } > $(@:.asked=.txt).tmp && \
	  $(call update,$(@:.asked=.txt)) && touch $@

# Every program's compile line, "PROG: LINE", as a record writes it (a
# run's and a profile's are their program's), for the tests that hold the
# transcripts to the code they measured (progcheck.sh fresh, COMPILE_LINES).
$(B)/compile-lines: FORCE | $(B)/stamp
	$(Q)trap 'rm -f $@.tmp' EXIT; printf '%s\n' \
	  $(foreach p,$(COMPILED),'$(p): $(call compile-line,$(p))') \
	  $(foreach p,$(PROFILES),'$(p): $(call compile-line,$(p:%_ncu=%))') \
	  $(foreach p,$(RUNS),'$(p): $(call compile-line,$(call run-prog,$(p)))') \
	  > $@.tmp && $(call update,$@)

# --- The GPU bundle ---------------------------------------------------------
# For a machine with a GPU and nvcc but no noweb or pandoc (a notebook T4,
# the lab's H200): the tangled programs, their evidence, the checker and a
# plain Makefile. Unpack it and run make check, make record, make sanitize.

DIST := $(B)/dist/book-gpu
BUNDLED_TOOLS := $(B)/tools/tcheck.c tools/evidence/gpuinfo.c tools/evidence/progcheck.sh \
                 tools/evidence/sanitize.sh tools/evidence/ncu-run.sh
# Always written anew: the bundle names the book's commit, which a record
# there stamps into every transcript, and that changes with no file here.
dist: $(DIST).tar.gz
# The programs' files only: the figures are drawn here, not there.
BUNDLED_ROOTS = $(filter-out fig-%.cpp,$(ROOTS))
# The evidence it carries, as prerequisites: only files of names the book
# takes (one with a blank would be two words here); $(B)/stamp/names
# refuses the others, each by name.
$(DIST).tar.gz: $(addprefix $(B)/src/,$(BUNDLED_ROOTS)) tools/evidence/bundle.mk tools/compile.mk \
                $(BUNDLED_TOOLS) $(foreach x,.expect .ncu .run,$(call named-ok,$(wildcard evidence/*$(x)),$(x))) \
                $(foreach p,$(PROGRAMS),$(call transcripts,$(p))) $(B)/stamp/names FORCE
	$(call say,DIST,$@)
	$(Q)$(TRAP)rm -rf $(DIST) && mkdir -p $(DIST)/src $(DIST)/tools && \
	cp $(addprefix $(B)/src/,$(BUNDLED_ROOTS)) $(DIST)/src/ && \
	cp $(BUNDLED_TOOLS) $(DIST)/tools/ && \
	cp tools/evidence/bundle.mk $(DIST)/Makefile && cp tools/compile.mk $(DIST)/ && \
	cp -R evidence $(DIST)/ && \
	{ echo 'PROGRAMS := $(PROGRAMS)'; \
	  echo 'PROFILES := $(PROFILES)'; \
	  echo 'RUNS := $(RUNS)'; \
	  echo "COMMIT := $$(EVIDENCE=evidence sh tools/evidence/progcheck.sh commit)"; \
	} > $(DIST)/programs.mk && \
	tar -C $(B)/dist -czf $@.tmp book-gpu && mv -f $@.tmp $@

# --- Check -----------------------------------------------------------------

# The book is built first, by a make of its own that holds the tree's lock
# while it builds and lets go when it is done; the tests then read the tree
# unlocked, so that a make in it meanwhile (make cite, an author's make)
# waits for no test. The groups are tests/check.mk's: under -jN they run N at
# once. CHAPTER=x checks chapter x alone: the groups that test the book,
# on its programs, claims, page and notebook and the book-wide pages that
# hold it; the toolchain's groups test what no chapter changes.
CHAPTER ?=
ifneq ($(filter-out $(CHAPTERS),$(CHAPTER)),)
$(error CHAPTER=$(CHAPTER) is not a chapter of the book ($(CHAPTERS)))
endif
CHECKED := $(or $(CHAPTER),$(CHAPTERS))
CHECKED_COMPILED = $(foreach c,$(CHECKED),$(PROGS.$(c)))
CHECKED_PROGRAMS = $(filter $(CHECKED_COMPILED) $(CHECKED_COMPILED:%=%_ncu) $(call runs-of,$(CHECKED_COMPILED)),$(PROGRAMS))
check: private SHELL := /bin/bash
check:
	+$(Q)$(MAKE) --no-print-directory $(if $(Q),-s) all $(TCHECK) $(B)/tools/tcheck.c $(claims) $(if $(HAVE_NVCC),$(GPUINFO)) \
	  $(B)/compile-lines $(if $(CHAPTER),$(B)/asan/t4-fit,$(ASAN_TOOLS))
	+$(Q)$(MAKE) --no-print-directory --output-sync=target -f tests/check.mk \
	  B=$(B) NVCC='$(HAVE_NVCC)' ASAN_CFLAGS='$(ASAN_CFLAGS)' CHAPTERS='$(CHECKED)' BOOK_CHAPTERS='$(CHAPTERS)' CHECK_CHAPTER='$(CHAPTER)' BASE_URL='$(BASE)' \
	  PROGRAMS='$(CHECKED_PROGRAMS)' BOOK_PROGRAMS='$(PROGRAMS)' PROFILES='$(PROFILES)' RUNS='$(RUNS)' \
	  FITS='$(call fits,$(CHECKED_COMPILED))' NOFIT='$(filter-out $(call fits,$(CHECKED_COMPILED)),$(CHECKED_COMPILED))'

clean:
	rm -rf $(B)

$(B)/tools $(B)/tools/lib $(B)/tools/libtcheck $(B)/stamp $(B)/meta $(B)/src $(B)/lsrc $(B)/bin $(B)/md \
$(B)/html $(B)/html/src $(B)/deps $(B)/fit $(B)/notebooks $(B)/html/notebooks \
$(B)/fig $(B)/html/fig:
	$(Q)mkdir -p $@

endif
