# The course book, from chapters to programs and pages.
#
#   chapters/NAME.nw --nwlint--> build/meta/NAME.tsv    (title, roots, labels)
#                    --notangle + cpif--> build/src/FILE  (plain, with snippet
#                                                           markers, to read)
#                                     --> build/lsrc/FILE (#line, to compile)
#   build/lsrc/PROG.cu --nvcc--> build/bin/PROG
#   chapters/NAME.nw --markup | nwweave--> build/md/NAME.md --pandoc
#                    | nwlinks--> build/html/NAME.html
#   evidence/PROG/*.txt --evmd--> build/md/NAME.run.md  (the transcripts shown
#                                                       after the code)
#   evidence/PROG.chart + PROG/GPU.txt --evchart | gnuplot-->
#                    build/html/charts/PROG/GPU.svg     (a chart of a transcript)
#   build/snippets.tsv, build/meta/NAME.nwpipe --nwcatalog--> labels.html,
#                    chunks.html                        (the index pages)
#   build/html/*.html --nwsearch--> build/html/search-index.js (for search.js)
#   build/meta/NAME.nwpipe --nwnotebook | pandoc--> build/notebooks/NAME.ipynb
#
# `make` builds the book, `make check` tests it. README.md says more.

# The book, in reading order. Each name is a file chapters/NAME.nw.
CHAPTERS := day32-scan device-scan day37-spmv day93-managed

include tools/compile.mk

SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -ec
.DELETE_ON_ERROR:
.SECONDARY:
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
MARKUP := $(NOWEB_LIB)/markup
NT := $(NOWEB_LIB)/nt
NOTANGLE ?= notangle
PANDOC ?= pandoc

# The external commands, as files: when one is missing its rule installs
# it (tools/need), and when it is there nothing runs.
# (Found without a shell, so that a no-op make runs no command at all.)
which = $(firstword $(wildcard $(if $(findstring /,$(1)),$(1),\
          $(addsuffix /$(1),$(subst :, ,$(PATH))))))
NOTANGLE_BIN := $(or $(call which,$(NOTANGLE)),/usr/bin/$(NOTANGLE))
PANDOC_BIN := $(or $(call which,$(PANDOC)),/usr/bin/$(PANDOC))
GNUPLOT_BIN := $(or $(call which,gnuplot),/usr/bin/gnuplot)
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

B := build

# $(call update,FILE): move FILE.tmp to FILE only where the text changed,
# so that what depends on FILE is not remade for nothing.
update = { cmp -s $(1).tmp $(1) && rm -f $(1).tmp || mv -f $(1).tmp $(1); }
# The book's tools, tools/book/NAME.c, each built as $(NAME) against the
# shared library in tools/lib.
BOOK_TOOLS := $(basename $(notdir $(wildcard tools/book/*.c)))
$(foreach t,$(BOOK_TOOLS),$(eval $(t) := $(B)/tools/$(t)))
LIB_SRC := $(wildcard tools/lib/*.c)
LIB_HDR := $(wildcard tools/lib/*.h)

META := $(CHAPTERS:%=$(B)/meta/%.tsv)
LINES := $(CHAPTERS:%=$(B)/meta/%.lines)
# Every snippet label the book has published, and what replaced a retired one.
REGISTRY := chapters/labels.tsv
STAMPS := $(CHAPTERS:%=$(B)/stamp/%.tangled)
PAGES := $(CHAPTERS:%=$(B)/html/%.html)
PIPES := $(CHAPTERS:%=$(B)/meta/%.nwpipe)
NOTEBOOKS := $(CHAPTERS:%=$(B)/notebooks/%.ipynb)

# Which files and programs each chapter tangles, read from its meta file.
ifeq ($(filter clean,$(MAKECMDGOALS)),)
include $(CHAPTERS:%=$(B)/deps/%.mk)
endif
ROOTS := $(foreach c,$(CHAPTERS),$(ROOTS.$(c)))
PROGRAMS := $(foreach c,$(CHAPTERS),$(PROGS.$(c)))

# A chart for every transcript of a program that says what to draw
# (evidence/PROG.chart); a program with no transcript yet has none.
charted = $(if $(wildcard evidence/$(1).chart),$(wildcard evidence/$(1)/*.txt))
CHARTS := $(patsubst evidence/%.txt,$(B)/html/charts/%.svg,\
            $(foreach p,$(PROGRAMS),$(call charted,$(p))))
# $(call chart-md,PROGS): the charts' figures for the pages of PROGS.
chart-md = $(patsubst evidence/%.txt,$(B)/charts/%.md,\
             $(foreach p,$(1),$(call charted,$(p))))

.PHONY: all tangle programs html notebooks check clean no-nvcc cite
all: tangle html $(if $(HAVE_NVCC),programs,no-nvcc)

tangle: $(STAMPS) $(B)/snippets.tsv
programs: $(PROGRAMS:%=$(B)/bin/%)
html: $(PAGES) $(B)/html/index.html $(B)/html/book.css \
      $(ROOTS:%=$(B)/html/src/%) $(B)/html/labels.html $(B)/html/chunks.html \
      $(B)/html/search.js $(B)/html/search-index.js $(B)/html/lunr.min.js \
      $(CHARTS) $(NOTEBOOKS:$(B)/notebooks/%=$(B)/html/notebooks/%)
notebooks: $(NOTEBOOKS)

no-nvcc:
	@echo "make: $(NVCC) not found: tangled and woven, compiling skipped (install the CUDA Toolkit or set NVCC=)"

# --- Our tools -------------------------------------------------------------

$(B)/tools/%: tools/book/%.c $(LIB_SRC) $(LIB_HDR) | $(B)/tools
	$(call say,CC,$@)
	$(Q)$(CC) $(TOOL_CFLAGS) -Itools/lib -o $@.tmp $< $(LIB_SRC) $(TRANSCRIPTS) && mv -f $@.tmp $@
# run-md and chart read transcripts with tcheck's reader (transcript.h).
$(run-md) $(chart): tools/evidence/tcheck.c tools/evidence/transcript.h
$(run-md) $(chart): TRANSCRIPTS = -Itools/evidence -DTCHECK_NO_MAIN tools/evidence/tcheck.c

$(NOTANGLE_BIN):
	$(Q)tools/need $(NOTANGLE) noweb
$(PANDOC_BIN):
	$(Q)tools/need $(PANDOC) pandoc
$(GNUPLOT_BIN):
	$(Q)tools/need gnuplot gnuplot-nox
$(LUNR_JS):
	$(Q)tools/need $@ libjs-lunr

# --- Tangle ----------------------------------------------------------------
# noweb's markup reads a chapter once, into its pipeline (build/meta/NAME.
# nwpipe); every later stage reads that stream. chapter-meta checks it and
# lists the chapter's title, roots and labels. Every root is tangled from it
# twice into temporary files, by noweb's own back end nt: plainly with
# snippet markers (snippet-marks), and with #line directives so that nvcc
# reports errors at chapters/NAME.nw. Only when all of that succeeded do the
# pipeline and the files go in place (cpif keeps a file's timestamp when its
# text did not change, so a prose edit compiles nothing).

$(B)/stamp/%.tangled: chapters/%.nw $(chapter-meta) $(snippet-marks) | $(NOTANGLE_BIN) \
                      $(B)/stamp $(B)/meta $(B)/src $(B)/lsrc
	$(call say,TANGLE,$<)
	$(Q)pipe=$(B)/meta/$*.nwpipe.tmp; tmps="$$pipe $(B)/meta/$*.tsv.tmp"; \
	trap 'rm -f $$tmps' EXIT; \
	$(MARKUP) $< > $$pipe; \
	$(chapter-meta) < $$pipe > $(B)/meta/$*.tsv.tmp; \
	roots=$$(awk -F'\t' '$$1 == "root" { print $$2 }' $(B)/meta/$*.tsv.tmp); \
	for r in $$roots; do \
	  tmps="$$tmps $(B)/src/$$r.tmp $(B)/lsrc/$$r.tmp"; \
	  $(snippet-marks) < $$pipe | $(NT) -R"$$r" > $(B)/src/$$r.tmp; \
	  $(NT) -t -L -R"$$r" < $$pipe > $(B)/lsrc/$$r.tmp; \
	done; \
	for r in $$roots; do \
	  cpif $(B)/src/$$r < $(B)/src/$$r.tmp; \
	  cpif $(B)/lsrc/$$r < $(B)/lsrc/$$r.tmp; \
	done; \
	cut -f1,2 $(B)/meta/$*.tsv.tmp > $(B)/meta/$*.tsv.new; \
	tmps="$$tmps $(B)/meta/$*.tsv.new"; \
	cmp -s $(B)/meta/$*.tsv.new $(B)/meta/$*.tsv || \
	  mv -f $(B)/meta/$*.tsv.new $(B)/meta/$*.tsv; \
	mv -f $(B)/meta/$*.tsv.tmp $(B)/meta/$*.lines; \
	mv -f $$pipe $(B)/meta/$*.nwpipe; \
	touch $@

# build/meta/NAME.tsv changes only when the chapter's title, roots or labels
# do; NAME.lines adds the line of each, for messages, and NAME.nwpipe is the
# chapter's pipeline; both follow every edit.
$(B)/meta/%.tsv $(B)/meta/%.lines $(B)/meta/%.nwpipe: $(B)/stamp/%.tangled ;

# The roots of a chapter, as make variables and rules.
$(B)/deps/%.mk: $(B)/meta/%.tsv | $(B)/deps
	$(Q)awk -F'\t' -v ch=$* -v b=$(B) ' \
	  $$1 == "root" { roots = roots " " $$2; \
	    if ($$2 ~ /\.cu$$/) { p = $$2; sub(/\.cu$$/, "", p); progs = progs " " p; \
	      print b "/bin/" p ": " b "/src/" $$2 } \
	    print b "/src/" $$2 " " b "/lsrc/" $$2 ": " b "/stamp/" ch ".tangled ;" } \
	  END { print "ROOTS." ch " :=" roots; print "PROGS." ch " :=" progs }' \
	  $< > $@.tmp && mv -f $@.tmp $@

# Published labels are a public interface: each must stay where lessons
# found it, or be retired with a replacement.
# The table changes only when a label or its lines do; a prose edit, which
# moves every line of its chapter, remakes nothing that depends on it.
$(B)/stamp/snippets: $(LINES) $(addprefix $(B)/src/,$(ROOTS)) $(REGISTRY) \
                     $(nav) | $(B)/stamp
	$(call say,INDEX,$(B)/snippets.tsv)
	$(Q)$(nav) registry $(REGISTRY) $(LINES)
	$(Q)$(nav) snippets $(B)/src $(LINES) > $(B)/snippets.tsv.tmp
	$(Q)$(call update,$(B)/snippets.tsv) && touch $@
$(B)/snippets.tsv: $(B)/stamp/snippets ;

# make cite LABEL=blelloch-sweeps: where a label lives.
cite: $(B)/snippets.tsv
	@awk -F'\t' -v l='$(LABEL)' '$$1 == l { found = 1; \
	  printf "%s\n  chapter  chapters/%s.nw\n  url      $(B)/html/%s\n  file     $(B)/src/%s, lines %s-%s\n", \
	    $$1, $$2, $$6, $$3, $$4, $$5 } END { exit !found }' $< || \
	awk -F'\t' -v l='$(LABEL)' '$$1 == l && NF == 3 { found = 1; \
	  printf "%s is retired; it is now %s\n", $$1, $$3 } END { exit !found }' $(REGISTRY) || \
	{ echo "make cite: no label '$(LABEL)' in the book (see $(B)/snippets.tsv)" >&2; exit 1; }

# --- Compile ---------------------------------------------------------------
# tools/compile.mk holds the one compile line; the book prints the same.
# A program depends on its plain source, whose text changes only when the
# code does, and compiles the #line copy, whose line numbers also follow
# prose edits: so a prose edit compiles nothing, and every compile reports
# errors at the chapter's current lines.

$(B)/bin/%: | $(B)/bin
	$(call say,NVCC,$*)
	$(Q)$(call compile-cmd,$*,$@.tmp,$(B)/lsrc/$*.cu) && mv -f $@.tmp $@

# --- Weave -----------------------------------------------------------------

# Prose cites chunks as [[<<label>>]]; nwweave resolves labels across the
# book (META) and keeps anchors for labels the registry marks retired.
$(B)/md/%.md: $(B)/meta/%.nwpipe $(chapter-md) $(META) $(REGISTRY) | $(B)/md
	$(call say,WEAVE,chapters/$*.nw)
	$(Q)$(chapter-md) $(B)/md/$*.refs.tmp $(REGISTRY) $(META) < $< > $@.tmp
	$(Q)mv -f $(B)/md/$*.refs.tmp $(B)/md/$*.refs && mv -f $@.tmp $@

$(B)/md/%.refs: $(B)/md/%.md ;

# The programs' compile lines and recorded transcripts, shown after the code,
# each transcript after its chart where it has one.
$(B)/md/%.run.md: $(B)/deps/%.mk $(run-md) tools/compile.mk \
                  $$(foreach p,$$(PROGS.$$*),$$(wildcard evidence/$$p/*.txt)) \
                  $$(call chart-md,$$(PROGS.$$*)) | $(B)/md
	$(Q)$(run-md) -c $(B)/charts $(foreach p,$(PROGS.$*),'$(p)' '$(call compile-line,$(p))' \
	  $(wildcard evidence/$(p)/*.txt) --) > $@.tmp && mv -f $@.tmp $@

# A chart of the values a transcript recorded, drawn at build time: evchart
# finds them as evidence/PROG.chart says and writes a gnuplot script and the
# figure's Markdown; gnuplot draws the SVG.
$(B)/charts/%.gp: evidence/%.txt evidence/$$(*D).chart $(chart)
	$(Q)mkdir -p $(@D) && $(chart) gnuplot evidence/$(*D).chart $< > $@.tmp \
	  && mv -f $@.tmp $@
$(B)/charts/%.md: evidence/%.txt evidence/$$(*D).chart $(chart)
	$(Q)mkdir -p $(@D) && $(chart) figure evidence/$(*D).chart $< charts/$*.svg \
	  > $@.tmp && mv -f $@.tmp $@
$(B)/html/charts/%.svg: $(B)/charts/%.gp | $(GNUPLOT_BIN)
	$(call say,CHART,$@)
	$(Q)mkdir -p $(@D) && gnuplot $< > $@.tmp && mv -f $@.tmp $@

$(B)/md/%.nav.yaml: $(META) $(nav) | $(B)/snippets.tsv $(B)/md
	$(Q)$(nav) nav $* $(META) > $@.tmp && mv -f $@.tmp $@

PANDOC_FLAGS = --from markdown --to html5 --standalone \
  --template styles/page.html --css book.css --mathml \
  --highlight-style pygments --shift-heading-level-by=-1

# nwperma gives every heading a permalink.
$(B)/html/%.html: $(B)/md/%.md $(B)/md/%.run.md $(B)/md/%.nav.yaml \
                  $(B)/md/%.refs $(chunk-links) $(heading-links) styles/page.html \
                  | $(PANDOC_BIN) $(B)/html
	$(call say,PANDOC,$@)
	$(Q)$(PANDOC) $(PANDOC_FLAGS) --toc --toc-depth=2 \
	  --metadata-file=$(B)/md/$*.nav.yaml --metadata notebook=notebooks/$*.ipynb \
	  $(B)/md/$*.md $(B)/md/$*.run.md \
	  | $(chunk-links) $(B)/md/$*.refs | $(heading-links) > $@.tmp && mv -f $@.tmp $@

# The front page: the book's front matter, then its chapters.
$(B)/md/index.md: chapters/front.md $(META) $(nav) | $(B)/md
	$(Q){ cat $<; $(nav) index $(META); } > $@.tmp && mv -f $@.tmp $@

# The pages that are not chapters: the front page and the two indexes.
$(B)/md/book.nav.yaml: $(META) $(nav) | $(B)/md
	$(Q)$(nav) nav - $(META) > $@.tmp && mv -f $@.tmp $@

$(B)/md/labels.md: $(B)/snippets.tsv $(META) $(addprefix $(B)/src/,$(ROOTS)) \
                   $(index-pages) | $(B)/md
	$(Q)$(index-pages) labels $< $(B)/src $(META) > $@.tmp && mv -f $@.tmp $@

# Read from the chapters' pipelines, which follow every prose edit; the page
# is remade only when the chunks themselves changed.
$(B)/stamp/chunks: $(META) $(PIPES) $(index-pages) | $(B)/stamp $(B)/md
	$(Q)$(index-pages) chunks $(META) > $(B)/md/chunks.md.tmp
	$(Q)$(call update,$(B)/md/chunks.md) && touch $@
$(B)/md/chunks.md: $(B)/stamp/chunks ;

$(B)/html/index.html $(B)/html/labels.html $(B)/html/chunks.html: \
$(B)/html/%.html: $(B)/md/%.md $(B)/md/book.nav.yaml $(heading-links) styles/page.html \
                  | $(PANDOC_BIN) $(B)/html
	$(call say,PANDOC,$@)
	$(Q)$(PANDOC) $(PANDOC_FLAGS) --metadata-file=$(B)/md/book.nav.yaml $< \
	  | $(heading-links) > $@.tmp && mv -f $@.tmp $@

# Search: lunr, our script, and the index of every page, as a script so
# that it loads from file:// too.
$(B)/html/search-index.js: $(B)/html/index.html $(PAGES) $(search-index)
	$(call say,INDEX,$@)
	$(Q)$(search-index) $(B)/html/index.html $(PAGES) > $@.tmp && mv -f $@.tmp $@

$(B)/html/search.js: styles/search.js | $(B)/html
	$(Q)cp $< $@.tmp && mv -f $@.tmp $@

$(B)/html/lunr.min.js: $(LUNR_JS) | $(B)/html
	$(Q)cp $< $@.tmp && mv -f $@.tmp $@

# --- Notebooks -------------------------------------------------------------
# A chapter as a notebook for a free T4 GPU: the prose, the tangled files,
# the compile line (with the nvcc on the notebook's PATH), a run and the
# check. pandoc writes the JSON; the cell ids it makes up are replaced by
# numbered ones, so that a notebook changes only when the chapter does.

$(B)/md/%.nb.md: $(B)/meta/%.nwpipe $(B)/deps/%.mk $(notebook-md) tools/compile.mk \
                 $$(addprefix $(B)/src/,$$(ROOTS.$$*)) $(wildcard tools/evidence/tcheck.c) \
                 $$(foreach p,$$(PROGS.$$*),$$(wildcard evidence/$$p.expect evidence/$$p/*.txt)) \
                 | $(B)/md
	$(Q)$(notebook-md) $(if $(wildcard tools/evidence/tcheck.c),-t tools/evidence/tcheck.c) $< $(B)/src \
	  $(foreach p,$(PROGS.$*),'$(p)' '$(patsubst $(NVCC),nvcc,$(call compile-line,$(p)))' \
	    $(wildcard evidence/$(p).expect) $(wildcard evidence/$(p)/*.txt) --) \
	  > $@.tmp && mv -f $@.tmp $@

$(B)/notebooks/%.ipynb: $(B)/md/%.nb.md | $(PANDOC_BIN) $(B)/notebooks
	$(call say,IPYNB,$@)
	$(Q)$(PANDOC) --from markdown --to ipynb --preserve-tabs $< \
	  | awk '/^   "id": "[-0-9a-f]*"/ { sub(/"id": "[-0-9a-f]*"/, "\"id\": \"cell-" ++n "\"") } 1' \
	  > $@.tmp && mv -f $@.tmp $@

$(B)/html/notebooks/%.ipynb: $(B)/notebooks/%.ipynb | $(B)/html/notebooks
	$(Q)cp $< $@.tmp && mv -f $@.tmp $@

$(B)/html/book.css: styles/book.css | $(B)/html
	$(Q)cp $< $@.tmp && mv -f $@.tmp $@

$(B)/html/src/%: $(B)/src/% | $(B)/html/src
	$(Q)cp $< $@.tmp && mv -f $@.tmp $@

# --- Evidence --------------------------------------------------------------
# tcheck holds a program's output to its expectation and transcripts;
# tools/evidence/progcheck.sh runs the programs through it, here and in the GPU
# bundle alike. README.md, "Evidence", says how.

TCHECK := $(B)/tools/tcheck
GPUINFO := $(B)/tools/gpuinfo
PROG ?=
OUTPUT ?=
SELECTED = $(if $(strip $(PROG)),$(PROG),$(PROGRAMS))
# Each program's compile line, as the transcript header records it.
env-name = $(subst -,_,$(subst .,_,$(1)))
PROGCHECK = TOOLS=$(B)/tools BIN=$(B)/bin EVIDENCE=evidence NVCC='$(NVCC)' \
  $(foreach p,$(PROGRAMS),COMPILE_LINE_$(call env-name,$(p))='$(call compile-line,$(p))') \
  sh tools/evidence/progcheck.sh

$(TCHECK): tools/evidence/tcheck.c | $(B)/tools
	$(call say,CC,$@)
	$(Q)$(CC) $(TOOL_CFLAGS) -o $@.tmp $< && mv -f $@.tmp $@
$(GPUINFO): tools/evidence/gpuinfo.c | $(B)/tools
	$(call say,NVCC,$@)
	$(Q)$(NVCC) -o $@.tmp $< && mv -f $@.tmp $@

.PHONY: record accept compare verify sanitize dist FORCE
FORCE:
# Run every program (or PROG=...) on this machine's GPU and write pending
# transcripts and expectations beside the evidence; `make accept` moves
# them into place. Nothing in evidence/ is overwritten by a run.
record: programs $(TCHECK) $(GPUINFO)
	@$(PROGCHECK) --count record $(SELECTED)
accept: $(TCHECK)
	@$(PROGCHECK) --count accept $(SELECTED)
# Measured values against the transcript of this GPU model; never fails.
compare: programs $(TCHECK) $(GPUINFO)
	@$(PROGCHECK) compare $(SELECTED)
# make verify PROG=scan_2 OUTPUT=run.txt: an output saved elsewhere.
verify: $(TCHECK)
	@test -n "$(PROG)" -a -n "$(OUTPUT)" || \
	  { echo "usage: make verify PROG=name OUTPUT=file" >&2; exit 2; }
	@$(PROGCHECK) verify '$(PROG)' '$(OUTPUT)'
# Every program's --quick sizes under compute-sanitizer's four tools.
sanitize: programs $(TCHECK)
	@tools/evidence/sanitize.sh $(B)/bin $(SELECTED)

# --- The GPU bundle ---------------------------------------------------------
# For a machine with a GPU and nvcc but no noweb or pandoc (a notebook T4,
# the lab's H200): the tangled programs, their evidence, the checker and a
# plain Makefile. Unpack it and run make check, make record, make sanitize.

DIST := $(B)/dist/book-gpu
BUNDLED_TOOLS := tools/evidence/tcheck.c tools/evidence/gpuinfo.c tools/evidence/progcheck.sh tools/evidence/sanitize.sh
# Always written anew: the bundle names the book's commit, which a record
# there stamps into every transcript, and that changes with no file here.
dist: $(DIST).tar.gz
$(DIST).tar.gz: $(addprefix $(B)/src/,$(ROOTS)) tools/evidence/bundle.mk tools/compile.mk \
                $(BUNDLED_TOOLS) $(wildcard evidence/*.expect evidence/*/*.txt) FORCE
	$(call say,DIST,$@)
	$(Q)rm -rf $(DIST) && mkdir -p $(DIST)/src $(DIST)/tools && \
	cp $(addprefix $(B)/src/,$(ROOTS)) $(DIST)/src/ && \
	cp $(BUNDLED_TOOLS) $(DIST)/tools/ && \
	cp tools/evidence/bundle.mk $(DIST)/Makefile && cp tools/compile.mk $(DIST)/ && \
	cp -R evidence $(DIST)/ && \
	{ echo 'PROGRAMS := $(PROGRAMS)'; \
	  echo "COMMIT := $$(EVIDENCE=evidence sh tools/evidence/progcheck.sh commit)"; \
	} > $(DIST)/programs.mk && \
	tar -C $(B)/dist -czf $@.tmp book-gpu && mv -f $@.tmp $@

# --- Check -----------------------------------------------------------------

check: all $(TCHECK) $(if $(HAVE_NVCC),$(GPUINFO))
	$(Q)B=$(B) NVCC='$(HAVE_NVCC)' PROGRAMS='$(PROGRAMS)' CHAPTERS='$(CHAPTERS)' \
	  tests/check.sh

clean:
	rm -rf $(B)

$(B)/tools $(B)/stamp $(B)/meta $(B)/src $(B)/lsrc $(B)/bin $(B)/md \
$(B)/html $(B)/html/src $(B)/deps $(B)/notebooks $(B)/html/notebooks:
	$(Q)mkdir -p $@
