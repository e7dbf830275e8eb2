/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The signed light skeleton header: the shape of `bpftool gen skeleton -L`,
 * with the loader's signature, exclusive hash and default keyring embedded.
 * The byte arrays the signature covers are delimited by marker lines that
 * lskel.c parses (see gen-loader(1), HEADER FORMAT).
 */
#ifndef GEN_LOADER_EMIT_H
#define GEN_LOADER_EMIT_H

#include <stdio.h>

#include "digest.h"
#include "loader.h"

struct emit_opts {
	const void *sig;	/* NULL: an unsigned header (split signing) */
	size_t sig_sz;
	__u8 excl_hash[DIGEST_SIZE];
	int keyring_id;
};

/* The header as a malloc()ed buffer: the same inputs give the same bytes. */
int emit_header(const struct loader *l, const struct emit_opts *o, char **buf, size_t *len);
/* One delimited byte array: the marker lines and the hex string lines. */
void emit_block(FILE *f, const char *region, const void *data, size_t len);

#endif /* GEN_LOADER_EMIT_H */
