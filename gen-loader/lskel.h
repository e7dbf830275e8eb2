/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Parse a signed light skeleton header: a small, bounds-checked parser of
 * the marker lines and hex string lines that emit.c writes, and nothing
 * else of the C.  A pure function of its input (fuzzed).
 */
#ifndef GEN_LOADER_LSKEL_H
#define GEN_LOADER_LSKEL_H

#include <stddef.h>

#include "loader.h"

/* Largest header parsed, and largest region in it. */
#define LSKEL_MAX_SIZE	(256u << 20)
#define LSKEL_MAX_REGION (32u << 20)

enum lskel_region { R_INSNS, R_DATA, R_EXCL_HASH, R_SIGNATURE, NR_REGIONS };

struct lskel_block {
	unsigned char *buf;	/* the bytes (malloc()ed) */
	size_t len;
	size_t begin;		/* text offset of the begin marker line */
	size_t end;		/* text offset just after the end marker line */
};

enum lskel_generator { LSKEL_GEN_GEN_LOADER, LSKEL_GEN_BPFTOOL };

/*
 * 1: data ends with the header's C after the arrays (trailer.h), signed;
 * 2: data is libbpf's metadata alone, the payload bpftool gen skeleton -L -S
 *    signs (gen-loader --no-trailer): the C after the arrays is not signed.
 */
enum lskel_format { LSKEL_FORMAT_TRAILER = 1, LSKEL_FORMAT_NO_TRAILER = 2 };

struct lskel {
	int generator;		/* enum lskel_generator */
	int format;
	char name[NAME_MAX_LEN];
	int keyring_id;
	struct lskel_block r[NR_REGIONS];
};

extern const char *const lskel_region_names[NR_REGIONS];

/*
 * Returns 0, -ENOEXEC with the line and the reason when the text is not a
 * header in the format gen-loader writes, or -ENOMEM.  path only names the
 * input in the message.
 */
int lskel_parse(const char *path, const char *text, size_t len, struct lskel *h);
void lskel_free(struct lskel *h);
/* insns || data: the signed bytes, malloc()ed. */
int lskel_payload(const struct lskel *h, unsigned char **buf, size_t *len);

#endif /* GEN_LOADER_LSKEL_H */
