// SPDX-License-Identifier: GPL-2.0
/*
 * A bpf_map_elem iterator that only reads ctx->value, calling a global
 * subprogram that an extension (progs/iter_ext_repl.bpf.c) would replace
 * and that, named as the iterator target's function, would have been
 * handed the iterator's context.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

__u64 seen;

struct iter_ext_box {
	__u64 x;
};

__noinline int bpf_iter_bpf_map_elem(struct bpf_iter__bpf_map_elem *ctx __arg_ctx, __u64 a,
				     __u64 b, struct iter_ext_box *v)
{
	if (!v || !ctx)
		return 0;
	return (int)(v->x + a + b);
}

SEC("iter/bpf_map_elem")
int reader(struct bpf_iter__bpf_map_elem *ctx)
{
	struct iter_ext_box x = {};
	__u32 *value = ctx->value;

	if (value)
		seen = *value;
	seen += bpf_iter_bpf_map_elem(ctx, seen, seen + 1, &x);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
