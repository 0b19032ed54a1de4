# How a chapter's program is compiled, and how a run runs it: the one
# definition. The Makefile builds with it, the GPU bundle carries it, and
# the book prints it.

NVCC ?= nvcc
# The Tesla T4; later GPUs run the same binary through PTX.
ARCH ?= sm_75
NVCCFLAGS = -std=c++17 -O3 -arch=$(ARCH)

# Programs written for a later GPU than the T4, by program name: the
# architecture they need. It replaces ARCH in their line, whatever ARCH
# says, since their code exists for no earlier GPU.
ARCH.hopper_scan = sm_90
ARCH.hopper_sweep = sm_90

# Libraries a program links beyond the CUDA runtime, by program name.
LIBS.spmv = -lcusparse

# $(call nvcc-flags,PROG): NVCCFLAGS, with PROG's own architecture if it has one.
nvcc-flags = $(if $(ARCH.$(1)),$(patsubst -arch=%,-arch=$(ARCH.$(1)),$(NVCCFLAGS)),$(NVCCFLAGS))
# $(call compile-cmd,PROG,OUTPUT,SOURCE): the command that builds PROG.
compile-cmd = $(NVCC) $(call nvcc-flags,$(1)) -o $(2) $(3)$(if $(LIBS.$(1)), $(LIBS.$(1)))
# $(call compile-line,PROG): the same command as the book prints it.
compile-line = $(call compile-cmd,$(1),$(1),$(1).cu)

# A run, evidence/RUN.run: one line, PROG ARG..., a program of the book and
# the arguments it runs with (words split at blanks). $(call run-line,RUN):
# the line; run-prog, its program; run-args, its arguments;
# $(call run-script,RUN): the lines of bin/RUN, the script that runs it, as
# arguments of printf '%s\n' (make checks that none holds a quote).
run-line = $(strip $(file <evidence/$(1).run))
run-prog = $(firstword $(call run-line,$(1)))
run-args = $(wordlist 2,$(words $(call run-line,$(1))),$(call run-line,$(1)))
hash := \#
run-script = '$(hash)!/bin/sh' '$(hash) $(1): ./$(call run-line,$(1)), as evidence/$(1).run says; written by make.' \
  'exec "$$(dirname "$$0")/$(call run-prog,$(1))"$(if $(call run-args,$(1)), $(call run-args,$(1)))'
