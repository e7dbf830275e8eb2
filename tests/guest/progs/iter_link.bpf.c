// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_map_elem iterators for the checks an attach makes and a link update
 * or a tail call must not get around, beside iter_write.bpf.c's reader and
 * writer: one that writes past a 4-byte value, and one that only tail-calls
 * jmp[0].
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} jmp SEC(".maps");

/* max_rdwr_access 4100 */
SEC("iter/bpf_map_elem")
int rewrite_far(struct bpf_iter__bpf_map_elem *ctx)
{
	__u32 *value = ctx->value;

	if (value)
		value[1024] = 0x41414141;
	return 0;
}

SEC("iter/bpf_map_elem")
int jumper(struct bpf_iter__bpf_map_elem *ctx)
{
	bpf_tail_call(ctx, &jmp, 0);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
