// SPDX-License-Identifier: GPL-2.0
/* An extension of progs/iter_ext.bpf.c's subprogram that writes the value of
 * the element the iterator visits through the context it would get
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

struct iter_ext_box {
	__u64 x;
};

SEC("freplace/bpf_iter_bpf_map_elem")
int repl(struct bpf_iter__bpf_map_elem *ctx __arg_ctx, __u64 a, __u64 b, struct iter_ext_box *v)
{
	__u64 *c = (__u64 *)ctx;
	__u64 *val = (__u64 *)c[3];

	if (val)
		val[0] = 0x1337;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
