# SPDX-License-Identifier: GPL-2.0
# The clang that compiles BPF programs, named in this one place: included by
# common/build.mk and tests/guest/Makefile, read by scripts/env.sh and
# tests/host/lib.sh when CLANG (the top-level Makefile's export of
# BPF_CLANG) is not set.  `make BPF_CLANG=clang-23 test` changes it for all.
BPF_CLANG	?= clang-22
