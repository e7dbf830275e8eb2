// SPDX-License-Identifier: GPL-2.0
/* A map name (its symbol, an asm label) that ends a comment */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

struct mt {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, long);
};

extern struct mt m __asm__("m */ int evil; /*");
struct mt m SEC(".maps");

SEC("raw_tp/sys_enter")
int tp(void *ctx)
{
	int k = 0;
	long *v = bpf_map_lookup_elem(&m, &k);

	if (v)
		(*v)++;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
