/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The signed light skeleton header: the shape of `bpftool gen skeleton -L`,
 * with the loader's signature, exclusive hash and default keyring embedded.
 * The byte arrays the signature covers are delimited by marker lines that
 * lskel.c parses (see gen-loader(1), HEADER FORMAT); everything after them
 * is carried in the signed metadata (trailer.h).
 */
#ifndef GEN_LOADER_EMIT_H
#define GEN_LOADER_EMIT_H

#include <stdio.h>

#include "digest.h"
#include "loader.h"

/* What a header is made of: the arrays, the name and the default keyring. */
struct skel_parts {
	const char *name;
	int keyring_id;
	const void *insns;
	size_t insns_sz;
	const void *data;	/* the metadata, ending with the C after the arrays */
	size_t data_sz;
	const __u8 *excl_hash;	/* DIGEST_SIZE bytes */
	const void *sig;	/* NULL: an unsigned header (split signing) */
	size_t sig_sz;
};

/* The prefix of a target line in the tail: " * @target kconfig CONFIG_HZ=250" */
#define TARGET_MARK "@target "

/* The C after the arrays, for the object of l (trailer.h carries it). */
int emit_tail(const struct loader *l, char **buf, size_t *len);
/*
 * The header of p as a malloc()ed buffer: a function of p alone, so that
 * gen-loader writes it and gen-loader verify re-emits it alike.  -ENOEXEC
 * when p->data carries no tail.
 */
int emit_header(const struct skel_parts *p, char **buf, size_t *len);

#endif /* GEN_LOADER_EMIT_H */
