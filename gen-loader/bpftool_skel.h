/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The audit of light skeletons that bpftool writes (gen skeleton -L, -S):
 * the arrays parsed into the regions gen-loader's headers have, and the
 * structure that decides what the compiled header loads.
 */
#ifndef GEN_LOADER_BPFTOOL_SKEL_H
#define GEN_LOADER_BPFTOOL_SKEL_H

#include <stdbool.h>
#include <stddef.h>

#include "skel.h"

/* Does text say it is a bpftool light skeleton? */
bool bpftool_skel_is(const char *text, size_t len);
/*
 * opts_insn, opts_data (and opts_sig, opts_excl_hash if signed) into h,
 * h->generator = LSKEL_GEN_BPFTOOL.  -ENOEXEC when the arrays are not as
 * bpftool writes them, -EKEYREJECTED for an array defined twice.
 */
int bpftool_skel_parse(const char *path, const char *text, size_t len, struct lskel *h);
/*
 * True when the C around the arrays is not structured as bpftool writes
 * it: why in reason, the line in *line (0: the header as a whole).
 */
bool bpftool_skel_modified(const char *text, size_t len, const struct lskel *h,
			   char *reason, size_t reason_sz, size_t *line);

#endif /* GEN_LOADER_BPFTOOL_SKEL_H */
