/* SPDX-License-Identifier: GPL-2.0 */
/* SHA-256 (libcrypto) and the kernel's program digest. */
#ifndef GEN_LOADER_DIGEST_H
#define GEN_LOADER_DIGEST_H

#include <stddef.h>
#include <linux/types.h>

#define DIGEST_SIZE 32

void sha256(const void *data, size_t len, __u8 out[DIGEST_SIZE]);
/*
 * The program digest the kernel compares with a map's excl_prog_hash
 * (bpf_prog_calc_tag()): SHA-256 of the instructions with the immediates of
 * BPF_PSEUDO_MAP_FD/BPF_PSEUDO_MAP_VALUE ld_imm64 pairs zeroed.  The
 * loader uses BPF_PSEUDO_MAP_IDX_VALUE only, so it is SHA-256 of its bytes,
 * but the rule is the kernel's.  len must be a multiple of 8.
 */
int prog_digest(const void *insns, size_t len, __u8 out[DIGEST_SIZE]);

#endif /* GEN_LOADER_DIGEST_H */
