/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Parse a signed light skeleton header: a small, bounds-checked parser of
 * the marker lines and hex string lines that emit.c writes, and nothing
 * else of the C.  A pure function of its input (fuzzed).
 */
#ifndef GEN_LOADER_LSKEL_H
#define GEN_LOADER_LSKEL_H

#include <stddef.h>

#include "skel.h"

/*
 * Returns 0, -ENOEXEC with the line and the reason when the text is not a
 * header in the format gen-loader writes, or -ENOMEM.  path only names the
 * input in the message.  A header of bpftool's (bpftool_skel_is()) is
 * parsed by bpftool_skel_parse(), with its errors.
 */
int lskel_parse(const char *path, const char *text, size_t len, struct lskel *h);

#endif /* GEN_LOADER_LSKEL_H */
