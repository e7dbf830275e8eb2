# SPDX-License-Identifier: GPL-2.0
# Build conventions shared by the kit's Makefiles (the top level, signer/,
# gen-loader/, policies/): included, never run.
#
#   V=1             print every command (default: one short line per target)
#   CC=clang        the tools build with gcc (default cc) or clang
#   BPF_CLANG       the clang that compiles BPF programs: this one variable
#   PREFIX DESTDIR  where `make install` puts things (the GNU names below can
#                   be set one by one: BINDIR, SBINDIR, LIBDIR, INCLUDEDIR,
#                   MANDIR, DATADIR)
#
# Objects carry their header dependencies (-MMD -MP: a .d per .o, included
# by the Makefile that builds them).

# make -s prints nothing (as kbuild: the short options are the first word)
ifneq ($(findstring s,$(firstword -$(MAKEFLAGS))),)
quiet	:= 1
endif
ifeq ($(V),1)
Q	:=
msg	=
else ifeq ($(quiet),1)
Q	:= @
msg	=
else
Q	:= @
msg	= @printf '  %-8s %s\n' '$(1)' '$(2)';
endif

# The kit's warnings, for gcc and clang alike.  The option tables leave
# their trailing fields out on purpose, which only clang's -Wextra reports.
WARN_CFLAGS	:= -Wall -Wextra -Werror -Wno-missing-field-initializers

# The kit's one version (the top-level VERSION file): the tools' --version,
# checked against the man pages, libbpfsign.h and debian/changelog by
# tests/host/cli.
KIT_TOP		:= $(abspath $(dir $(lastword $(MAKEFILE_LIST)))..)
KIT_VERSION	:= $(shell cat $(KIT_TOP)/VERSION)
KIT_CPPFLAGS	:= -DKIT_VERSION='"$(KIT_VERSION)"'

include $(dir $(lastword $(MAKEFILE_LIST)))clang.mk
DEPFLAGS	:= -MMD -MP

PREFIX		?= /usr/local
DESTDIR		?=
BINDIR		?= $(PREFIX)/bin
SBINDIR		?= $(PREFIX)/sbin
LIBDIR		?= $(PREFIX)/lib
INCLUDEDIR	?= $(PREFIX)/include
DATADIR		?= $(PREFIX)/share
MANDIR		?= $(DATADIR)/man
PKGCONFIGDIR	?= $(LIBDIR)/pkgconfig
# bash-completion loads completions/NAME when NAME is first completed
COMPLETIONDIR	?= $(DATADIR)/bash-completion/completions
INSTALL		?= install

# NAME.o from NAME.c, and common_NAME.o from $(COMMON)/NAME.c (a Makefile
# sets COMMON before including this file); CPPFLAGS as dpkg-buildflags
# gives it (_FORTIFY_SOURCE).
%.o: %.c
	$(call msg,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(KIT_CPPFLAGS) $(CFLAGS) $(DEPFLAGS) -c -o $@ $<

common_%.o: $(COMMON)/%.c
	$(call msg,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(KIT_CPPFLAGS) $(CFLAGS) $(DEPFLAGS) -c -o $@ $<
