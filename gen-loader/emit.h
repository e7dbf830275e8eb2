/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The signed light skeleton header: the shape of `bpftool gen skeleton -L`,
 * with the loader's signature, exclusive hash and default keyring embedded.
 * The byte arrays the signature covers are delimited by marker lines that
 * lskel.c parses (see gen-loader(1), HEADER FORMAT); everything after them
 * is carried in the signed metadata (trailer.h), or, in format 2
 * (--no-trailer, bpftool's payload), is not signed (tail_audit.h).
 */
#ifndef GEN_LOADER_EMIT_H
#define GEN_LOADER_EMIT_H

#include <stdio.h>

#include "digest.h"
#include "loader.h"

/* What a header is made of: the arrays, the name and the default keyring. */
struct skel_parts {
	int format;		/* enum lskel_format; 0 is LSKEL_FORMAT_TRAILER */
	const char *name;
	int keyring_id;
	const void *insns;
	size_t insns_sz;
	const void *data;	/* the metadata, ending with the C after the arrays */
	size_t data_sz;
	const __u8 *excl_hash;	/* DIGEST_SIZE bytes */
	const void *sig;	/* NULL: an unsigned header (split signing) */
	size_t sig_sz;
	const char *c;		/* format 2: the C after the arrays, not in data */
	size_t c_len;
};

/* The prefix of a target line in the tail: " * @target kconfig CONFIG_HZ=250" */
#define TARGET_MARK "@target "

/*
 * The C after the arrays, for the object of l (trailer.h carries it).  With
 * keyring_id (format 1), it starts with the default keyring's #define, so
 * that the keyring the load uses is signed with the loader.
 */
int emit_tail(const struct loader *l, const int *keyring_id, char **buf, size_t *len);
/*
 * 0 and *keyring_id when tail starts with the #define of the default
 * keyring of skeleton name, exactly as emit_tail() writes it; -ENOENT when
 * it does not (format 2, or a format 1 header of gen-loader 1.0, whose
 * #define is in the prologue, not signed).  A pure function of its input.
 */
int emit_tail_keyring(const char *name, const char *tail, size_t len, int *keyring_id);
/*
 * The header of p as a malloc()ed buffer: a function of p alone, so that
 * gen-loader writes it and gen-loader verify re-emits it alike.  -ENOEXEC
 * when p->data carries no tail (format 1).  Format 2 writes p->c after the
 * arrays: with c_len 0, the part of the header that verify re-emits.
 */
int emit_header(const struct skel_parts *p, char **buf, size_t *len);

#endif /* GEN_LOADER_EMIT_H */
