/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a light skeleton header is made of, whichever generator wrote it:
 * the four arrays the signature covers (the parsers of lskel.c and
 * bpftool_skel.c fill a struct lskel), and the lines of C that hand them
 * to bpf_load_and_run(), which emit.c writes and the audits of C that
 * cannot be re-emitted (tail_audit.c, bpftool_skel.c) look for.  One source
 * for each, so that the writer and the audits cannot drift apart.  Pure
 * functions, no libbpf (fuzzed with the parsers).
 */
#ifndef GEN_LOADER_SKEL_H
#define GEN_LOADER_SKEL_H

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

/* "insns", "data", "excl_hash", "signature": gen-loader's marker words */
extern const char *const lskel_region_names[NR_REGIONS];

void lskel_free(struct lskel *h);
/* insns || data: the signed bytes, malloc()ed. */
int lskel_payload(const struct lskel *h, unsigned char **buf, size_t *len);

/*
 * The lines that wire the arrays, the opts of the load and the keyring, as
 * gen-loader writes them (without indentation).  Up to NR_SKEL_WIRING:
 * each is in a gen-loader header exactly once; bpftool writes the same
 * lines but SKEL_IF_SIG for its own arrays.
 */
enum skel_line {
	SKEL_DATA_SZ, SKEL_DATA, SKEL_INSNS_SZ, SKEL_INSNS, SKEL_EXCL, SKEL_EXCL_SZ,
	SKEL_IF_SIG, SKEL_SIG, SKEL_SIG_SZ, SKEL_KEYRING,
	NR_SKEL_WIRING,
	SKEL_OPTS_DECL = NR_SKEL_WIRING, SKEL_OPTS_CTX, SKEL_OPTS_RUN, SKEL_OPTS_ERRSTR,
	SKEL_KR_FIELD, SKEL_KR_OPEN, SKEL_KR_FUNC, SKEL_KR_SET,
	NR_SKEL_LINES
};

/* Longest line skel_line() writes for a name of up to NAME_MAX_LEN */
#define SKEL_LINE_MAX 256

/*
 * Line l of the header of skeleton name into buf; arrays[r] names the
 * array of region r (bpftool's opts_insn ...), NULL for gen-loader's
 * NAME__lskel_REGION.  Returns buf.
 */
const char *skel_line(enum skel_line l, const char *name, const char *const *arrays,
		      char *buf, size_t sz);

/* The include guard of skeleton name: __NAME_LSKEL_H__, upper case. */
void skel_guard(const char *name, char *guard, size_t sz);

#endif /* GEN_LOADER_SKEL_H */
