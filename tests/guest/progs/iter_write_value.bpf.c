// SPDX-License-Identifier: GPL-2.0
/*
 * A bpf_map_elem iterator that writes the first 4 bytes of every value of
 * the map it is attached to: what the kernel must refuse to attach to a
 * BPF_F_RDONLY_PROG map (-EACCES), such as keyring-allowlist's frozen
 * allowlist.  Its link is never read, so it never runs.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

SEC("iter/bpf_map_elem")
int write_value(struct bpf_iter__bpf_map_elem *ctx)
{
	__u32 *value = ctx->value;

	if (value)
		*value = 1;	/* BPFSIGN_KEYRING_ALLOWED in a "keyrings" value */
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
