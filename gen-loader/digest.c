// SPDX-License-Identifier: GPL-2.0
/* SHA-256 and the kernel's program digest. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>
#include <openssl/evp.h>

#include "digest.h"
#include "err.h"

/* libcrypto's, which libbpfsign links anyway (libbpf's is not public API) */
void sha256(const void *data, size_t len, __u8 out[DIGEST_SIZE])
{
	unsigned int n = DIGEST_SIZE;

	/* fails only without memory; a made-up digest could match a header */
	if (!EVP_Digest(len ? data : "", len, out, &n, EVP_sha256(), NULL)) {
		fprintf(stderr, "gen-loader: SHA-256 failed (out of memory)\n");
		abort();
	}
}

int prog_digest(const void *insns, size_t len, __u8 out[DIGEST_SIZE])
{
	size_t i, cnt = len / sizeof(struct bpf_insn);
	struct bpf_insn *dst;
	bool was_ld_map = false;

	if (len % sizeof(struct bpf_insn))
		return kit_err(-EINVAL, "loader instructions: %zu bytes is not a whole number of instructions",
			       len);
	dst = malloc(len ? len : 1);
	if (!dst)
		return kit_err(-ENOMEM, "loader instructions: %s", strerror(ENOMEM));
	memcpy(dst, insns, len);
	for (i = 0; i < cnt; i++) {
		if (!was_ld_map && dst[i].code == (BPF_LD | BPF_IMM | BPF_DW) &&
		    (dst[i].src_reg == BPF_PSEUDO_MAP_FD ||
		     dst[i].src_reg == BPF_PSEUDO_MAP_VALUE)) {
			was_ld_map = true;
			dst[i].imm = 0;
		} else if (was_ld_map && dst[i].code == 0 && dst[i].dst_reg == 0 &&
			   dst[i].src_reg == 0 && dst[i].off == 0) {
			was_ld_map = false;
			dst[i].imm = 0;
		} else {
			was_ld_map = false;
		}
	}
	sha256(dst, len, out);
	free(dst);
	return 0;
}
