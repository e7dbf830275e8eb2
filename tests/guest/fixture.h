/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The signed-load fixture: a loader stand-in that reads its metadata through
 * fd_array[0], and fixed metadata.  tools/mkpayload.c writes the same
 * insns || metadata on the host, so that signatures made there (openssl cms,
 * sign-file, bpfsign) can be checked against the kernel in the guest.
 */
#ifndef BPFSIGN_FIXTURE_H
#define BPFSIGN_FIXTURE_H

#include <linux/bpf.h>

#define META_SZ 64

#define FIXTURE_INSNS {								\
	/* r1 = &value(fd_array[0]); r0 = *(u32 *)r1 */				\
	{ .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = BPF_REG_1,		\
	  .src_reg = BPF_PSEUDO_MAP_IDX_VALUE, .imm = 0 },			\
	{ 0 },									\
	{ .code = BPF_LDX | BPF_MEM | BPF_W, .dst_reg = BPF_REG_0,		\
	  .src_reg = BPF_REG_1 },						\
	{ .code = BPF_JMP | BPF_EXIT },						\
}

/* metadata byte i of map m */
static inline unsigned char fixture_meta(int m, int i)
{
	return (unsigned char)(0x5a + 31 * m + 7 * i);
}

#endif
