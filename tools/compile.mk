# How a chapter's program is compiled: the one definition. The Makefile
# builds with it, the GPU bundle carries it, and the book prints it.

NVCC ?= nvcc
# The Tesla T4; later GPUs run the same binary through PTX.
ARCH ?= sm_75
NVCCFLAGS = -std=c++17 -O3 -arch=$(ARCH)

# Libraries a program links beyond the CUDA runtime, by program name.
LIBS.spmv = -lcusparse

# $(call compile-cmd,PROG,OUTPUT,SOURCE): the command that builds PROG.
compile-cmd = $(NVCC) $(NVCCFLAGS) -o $(2) $(3)$(if $(LIBS.$(1)), $(LIBS.$(1)))
# $(call compile-line,PROG): the same command as the book prints it.
compile-line = $(call compile-cmd,$(1),$(1),$(1).cu)
