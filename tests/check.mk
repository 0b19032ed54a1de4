# make check's test groups, run once the book is built (the Makefile's check
# target builds it, under the tree's lock, then runs this make without it).
# Each group is a script that prints "PASS name", "FAIL name: why" or
# "SKIP name: why" lines; tests/check.sh runs one into $(LOG)/GROUP.log and
# then counts them all. Groups are independent of each other: under make
# -jN they run N at once, and --output-sync keeps each group's lines
# together.
#
# Two kinds of group. A toolchain group tests the book's tools and build on
# fixtures made for it, once, whatever the book holds. A book group tests
# the book itself, once per chapter, page, program or transcript, and
# reads only the chapters in CHAPTERS: make check CHAPTER=x runs the book
# groups alone, on chapter x and the book-wide pages that hold it.

SHELL := /bin/bash
.SUFFIXES:
B ?= build
# What the Makefile's check target says of the book, for the groups.
export B NVCC ASAN_CFLAGS CHAPTERS BOOK_CHAPTERS CHECK_CHAPTER PROGRAMS BOOK_PROGRAMS PROFILES RUNS FITS NOFIT BASE_URL
LOG := $(B)/check

TOOLCHAIN_GROUPS := build tcheck weave tools claims profile
BOOK_GROUPS := browser book programs notebooks fit
# Run longest first (tests/bench/growth.sh prints each group's seconds), so
# that under -j2 the two queues end together: a long group started last
# runs alone at the end while the other queue has nothing left. The
# browser, which grows most with the book, starts at once.
ORDER := browser weave build notebooks tcheck tools claims fit programs book profile
GROUPS := $(filter $(if $(CHECK_CHAPTER),,$(TOOLCHAIN_GROUPS)) $(BOOK_GROUPS),$(ORDER))
$(if $(filter-out $(ORDER),$(TOOLCHAIN_GROUPS) $(BOOK_GROUPS)),$(error tests/check.mk: ORDER lacks the group $(filter-out $(ORDER),$(TOOLCHAIN_GROUPS) $(BOOK_GROUPS))))

# A group's script: tests/GROUP.sh, or tests/GROUP/run.sh.
script = $(or $(wildcard tests/$(1).sh),tests/$(1)/run.sh)

.PHONY: all $(GROUPS)
all: $(GROUPS)
	@tests/check.sh count $(GROUPS:%=$(LOG)/%.log)
$(GROUPS):
	@mkdir -p $(LOG) && tests/check.sh group $(call script,$@) $(LOG)/$@.log
