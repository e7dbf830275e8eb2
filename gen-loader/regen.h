/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The header gen-loader writes for a BPF object, with a signature made
 * elsewhere: what `gen-loader verify --object` compares a header with, so
 * that the C no signature covers (format 2) is re-emitted from an input the
 * auditor holds.
 */
#ifndef GEN_LOADER_REGEN_H
#define GEN_LOADER_REGEN_H

#include <stddef.h>

struct regen_opts {
	const char *obj;		/* the BPF object */
	const char *name;		/* the skeleton name (NULL: the file's) */
	const char *btf;		/* as gen-loader --btf ... --map-size */
	const char *target_config;
	const char *max_cpus;
	const char *map_size;
	int format;			/* enum lskel_format */
	int keyring_id;
	const void *sig;		/* the header's signature (NULL: none) */
	size_t sig_sz;
};

/* --keyring-id N: a decimal 32-bit number (serials are decimal: 010 is ten). */
int parse_keyring_id(const char *s, int *out);
/* The header, malloc()ed; errors name the object and the reason. */
int regen_header(const struct regen_opts *o, char **buf, size_t *len);

#endif /* GEN_LOADER_REGEN_H */
