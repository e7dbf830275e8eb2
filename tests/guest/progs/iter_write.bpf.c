// SPDX-License-Identifier: GPL-2.0
/* bpf_map_elem iterators: one that rewrites every value it visits, one that
 * only reads them.  The kernel must keep the first off exclusive and
 * BPF_F_RDONLY_PROG maps.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

__u32 seen;

SEC("iter/bpf_map_elem")
int rewrite(struct bpf_iter__bpf_map_elem *ctx)
{
	__u32 *value = ctx->value;

	if (value)
		*value = 0xdeadbeef;
	return 0;
}

SEC("iter/bpf_map_elem")
int peek(struct bpf_iter__bpf_map_elem *ctx)
{
	__u32 *value = ctx->value;

	if (value)
		seen = *value;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
