# The GPU bundle: the book's programs, their evidence and the tools that
# check one against the other, for a machine with a GPU and nvcc but no
# noweb or pandoc. `make dist` in the book writes it; this file is its
# Makefile.
#
#   make                          build tools/tcheck, tools/gpuinfo and bin/PROG
#   make check                    run every program and check its output;
#                                 ends with "N passed, N failed, N skipped"
#   make record                   run every program and every run (a program
#                                 with the arguments evidence/RUN.run gives),
#                                 write pending evidence
#                                 (evidence/PROG/GPU.txt.pending, PROG.expect.pending)
#   make accept                   move the pending evidence into place
#   make compare                  measured values against this GPU's transcript
#   make verify PROG=x OUTPUT=f   check an output saved elsewhere (no GPU needed)
#   make lint                     check the evidence itself, and that each
#                                 transcript measured the code in src/ (its
#                                 fingerprint; no GPU needed)
#   make sanitize                 every program under compute-sanitizer
#   make profile                  run each profile (evidence/PROG.ncu) under
#                                 Nsight Compute, write pending evidence
#   PROG='x y'                    any of them for some programs only
#   ARCH=sm_90                    compile for another GPU (default sm_75)

# PROGRAMS := the program names; PROFILES := the profiles; RUNS := the
# runs; COMMIT := the book's commit. (None is taken from the environment.)
PROFILES :=
RUNS :=
include programs.mk
# A profile or a run recorded here joins the programs, as in the book.
PROGRAMS := $(PROGRAMS) $(filter-out $(PROGRAMS),$(foreach p,$(PROFILES) $(RUNS),$(if $(wildcard evidence/$(p)/),$(p))))
# compile-cmd and compile-line: how a program is compiled, and run-script,
# how a run runs it: the one definition.
include compile.mk

TCHECK_CFLAGS ?= -std=c11 -O2 -Wall -Wextra
PROG ?=
OUTPUT ?=
SELECTED := $(if $(strip $(PROG)),$(PROG),$(PROGRAMS))
# What record records: the programs and every run, recorded or not.
RECORDED := $(if $(strip $(PROG)),$(PROG),$(PROGRAMS) $(filter-out $(PROGRAMS),$(RUNS)))
HAVE_NVCC := $(shell command -v $(NVCC) 2>/dev/null)

# The compile line each transcript records, as the book prints it.
env-name = $(subst -,_,$(subst .,_,$(1)))
# A profile records the compile line of the program it profiles, a run that
# of the program it runs.
compiled = $(if $(filter $(1),$(PROFILES)),$(1:%_ncu=%),$(if $(filter $(1),$(RUNS)),$(call run-prog,$(1)),$(1)))
COMPILE_ENV = $(foreach p,$(sort $(SELECTED) $(PROGRAMS) $(PROFILES) $(RUNS)),COMPILE_LINE_$(call env-name,$(p))='$(call compile-line,$(call compiled,$(p)))')

PROGCHECK = TOOLS=tools BIN=bin EVIDENCE=evidence NVCC='$(NVCC)' COMMIT='$(COMMIT)' \
	sh tools/progcheck.sh --count

.PHONY: all check record profile accept compare verify lint sanitize clean

ifneq ($(HAVE_NVCC),)
all: tools/tcheck tools/gpuinfo $(addprefix bin/,$(sort $(PROGRAMS) $(PROFILES) $(RUNS)))
else
all: tools/tcheck
	@echo "nvcc not found ($(NVCC)): programs not built; make check reports them skipped"
endif

tools/tcheck: tools/tcheck.c
	$(CC) $(TCHECK_CFLAGS) -o $@ tools/tcheck.c

tools/gpuinfo: tools/gpuinfo.c
	$(NVCC) -o $@ tools/gpuinfo.c

bin/%: src/%.cu compile.mk
	@mkdir -p bin
	$(call compile-cmd,$*,$@,$<)

# A profile's program: tools/ncu-run.sh over its spec and bin/PROG.
bin/%_ncu: evidence/%.ncu
	@mkdir -p bin
	@printf '%s\n' '#!/bin/sh' 'd=$$(dirname "$$0")' \
	  'exec sh "$$d/../tools/ncu-run.sh" "$$d/../evidence/$*.ncu" "$$d/$*"' >$@.tmp && \
	  chmod +x $@.tmp && mv -f $@.tmp $@

# A run's program: its program with the arguments of evidence/RUN.run.
$(addprefix bin/,$(RUNS)): bin/%: evidence/%.run
	@mkdir -p bin
	@printf '%s\n' $(call run-script,$*) >$@.tmp && chmod +x $@.tmp && mv -f $@.tmp $@

profile: all
	@$(COMPILE_ENV) $(PROGCHECK) record $(if $(strip $(PROG)),$(PROG),$(PROFILES))

check: all
	@$(PROGCHECK) check $(SELECTED)

record: all
	@$(COMPILE_ENV) $(PROGCHECK) record $(RECORDED)

accept: tools/tcheck
	@$(PROGCHECK) accept $(SELECTED)

compare: all
	@$(PROGCHECK) compare $(SELECTED)

verify: tools/tcheck
	@if [ -z "$(PROG)" ] || [ -z "$(OUTPUT)" ]; then \
		echo "usage: make verify PROG=name OUTPUT=file" >&2; exit 2; fi
	@$(PROGCHECK) verify '$(PROG)' '$(OUTPUT)'

# Every program's --quick sizes under compute-sanitizer's memcheck,
# racecheck, synccheck and initcheck, one line per program and tool.
sanitize: all
	@sh tools/sanitize.sh bin $(filter-out $(PROFILES) $(RUNS),$(SELECTED))

lint: tools/tcheck
	@$(PROGCHECK) lint $(PROGRAMS)
	@$(COMPILE_ENV) $(PROGCHECK) fresh $(PROGRAMS)

clean:
	rm -rf bin tools/tcheck tools/gpuinfo
