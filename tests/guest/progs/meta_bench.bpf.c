// SPDX-License-Identifier: GPL-2.0
/*
 * make bench: a light skeleton whose signed metadata is about 1 MiB.  The
 * 1 MiB .rodata table travels in the loader's metadata, which the kernel
 * hashes with the loader's instructions before it runs the loader.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#define TABLE_SZ (1 << 20)

const volatile __u8 table[TABLE_SZ] = "bpfsign bench: 1 MiB of signed metadata";

SEC("socket")
int lookup_table(struct __sk_buff *skb)
{
	return table[skb->len & (TABLE_SZ - 1)];
}

char LICENSE[] SEC("license") = "GPL";
